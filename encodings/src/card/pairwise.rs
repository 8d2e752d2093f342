//! Binomial encoding: forbid every subset that breaks a bound, with no auxiliary variables.

use crate::cnf::{Cnf, Lit};
use itertools::Itertools;

/// At most `hi`: no `hi + 1` inputs are all true. At least `lo`: no `n - lo + 1` inputs
/// are all false. Cost: `C(n, hi + 1) + C(n, n - lo + 1)` clauses (the terms that apply).
pub fn between(cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
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

/// A unary counter for callers that want the outputs themselves: `o_j` is the
/// disjunction over all `j`-subsets of their conjunction. Exponential; only for tiny `n`.
pub fn unary(cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
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
