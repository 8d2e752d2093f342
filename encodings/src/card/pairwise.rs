//! Binomial encoding: forbid every subset that breaks a bound, with no auxiliary variables.
//!
//! Exponential in general, the best choice for `k = 1` on short lines, where it beats
//! every counter on size and propagates as strongly.

use super::binomial;
use super::contract::CardinalityEncoding;
use crate::cnf::Cnf;
use crate::lit::Lit;
use itertools::Itertools;

/// Cost of `lo..=hi` over `n` inputs: no auxiliary variables, `C(n, hi+1)` clauses for
/// the upper bound and `C(n, n-lo+1)` for the lower (the terms that apply). Its unary
/// counter, for callers that want outputs, is exponential: one `and` gate per subset of
/// each size up to `m`, one `or` gate per output.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pairwise;

impl CardinalityEncoding for Pairwise {
    const NAME: &'static str = "pairwise";

    /// One clause per subset that breaks a bound: `C(n, hi+1)` and `C(n, n-lo+1)`.
    fn estimated_clauses(n: usize, lo: usize, hi: usize) -> u128 {
        let hi = hi.min(n);
        if lo > hi {
            return 1;
        }
        let upper = if hi < n { binomial(n, hi + 1) } else { 0 };
        let lower = if lo > 0 { binomial(n, n - lo + 1) } else { 0 };
        upper.saturating_add(lower)
    }

    /// An `and` gate per subset of each size up to `m` (`j + 1` clauses) and an `or` per
    /// output.
    fn counter_clauses(n: usize, m: usize) -> u128 {
        (1..=m).fold(0u128, |sum, j| {
            let gates = binomial(n, j);
            sum.saturating_add(gates.saturating_mul(j as u128 + 2))
        })
    }

    /// `o_j` is the disjunction over all `j`-subsets of their conjunction.
    fn counter(cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
        (1..=m)
            .map(|j| {
                let terms: Vec<Lit> = lits
                    .iter()
                    .copied()
                    .combinations(j)
                    .map(|subset| cnf.and_lit(&subset))
                    .collect();
                cnf.or_lit(&terms)
            })
            .collect()
    }

    /// Per output, the `and` of each subset in `combinations` order, then the `or`.
    fn fill_counter(lits: &[Lit], m: usize, first_aux: usize, values: &mut [bool]) {
        let mut next = first_aux;
        for j in 1..=m {
            let mut any = false;
            for subset in lits.iter().combinations(j) {
                let all = subset.iter().all(|l| l.eval(values));
                values[next] = all;
                next += 1;
                any |= all;
            }
            values[next] = any;
            next += 1;
        }
    }

    /// At most `hi`: no `hi + 1` inputs are all true. At least `lo`: no `n - lo + 1`
    /// inputs are all false.
    fn bounds(cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
        let n = lits.len();
        if hi < n {
            for subset in lits.iter().combinations(hi + 1) {
                cnf.clause(subset.into_iter().map(|&l| !l));
            }
        }
        if lo > 0 {
            for subset in lits.iter().combinations(n - lo + 1) {
                cnf.clause(subset.into_iter().copied());
            }
        }
    }

    /// `bounds` creates no variables.
    fn fill_bounds(_lits: &[Lit], _lo: usize, _hi: usize, _first_aux: usize, _values: &mut [bool]) {
    }
}
