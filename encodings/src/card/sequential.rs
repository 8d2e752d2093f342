//! Sequential counter (Sinz 2005), both directions.
//!
//! `s(i, j) <-> at least j of the first i inputs are true`, for `j <= min(i, m)`:
//! `s(i, j) <-> s(i-1, j) | (x_i & s(i-1, j-1))`. A chain rather than a tree: the
//! simplest counter, and the default (`CardEncoding::default`).

use super::contract::CardinalityEncoding;
use crate::cnf::Cnf;
use crate::lit::Lit;

/// Cost for `n` inputs counted up to `m`: at most `n*m` variables and `4*n*m` clauses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SequentialCounter;

impl CardinalityEncoding for SequentialCounter {
    const NAME: &'static str = "sequential";

    /// Up to four clauses per input and output width.
    fn counter_clauses(n: usize, m: usize) -> u128 {
        4 * n as u128 * m as u128
    }

    fn counter(cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
        // prev[j-1] = s(i-1, j) for j = 1..=min(i-1, m).
        let mut prev: Vec<Lit> = vec![lits[0]];
        for &x in &lits[1..] {
            let width = (prev.len() + 1).min(m);
            let mut next = Vec::with_capacity(width);
            for j in 1..=width {
                let carry = (j >= 2).then(|| prev[j - 2]); // s(i-1, j-1); s(i-1, 0) is true
                let stay = prev.get(j - 1).copied(); // s(i-1, j); false when j > i-1
                let s = cnf.fresh_lit();
                match (stay, carry) {
                    (Some(stay), Some(carry)) => {
                        cnf.implies(stay, s);
                        cnf.clause([!x, !carry, s]);
                        cnf.clause([!s, stay, x]);
                        cnf.clause([!s, stay, carry]);
                    }
                    (Some(stay), None) => {
                        // j = 1: s <-> stay | x
                        cnf.implies(stay, s);
                        cnf.implies(x, s);
                        cnf.clause([!s, stay, x]);
                    }
                    (None, Some(carry)) => {
                        // j = i: s <-> x & carry
                        cnf.implies(s, x);
                        cnf.implies(s, carry);
                        cnf.clause([!x, !carry, s]);
                    }
                    (None, None) => unreachable!("j = 1 always has s(i-1, 1)"),
                }
                next.push(s);
            }
            prev = next;
        }
        assert_eq!(prev.len(), m);
        prev
    }

    /// `s(i, j)` is whether at least `j` of the first `i` inputs are true, in the order
    /// `counter` makes them: by `i`, then by `j`.
    fn fill_counter(lits: &[Lit], m: usize, first_aux: usize, values: &mut [bool]) {
        let mut next = first_aux;
        let mut count = usize::from(lits[0].eval(values));
        for (i, x) in lits.iter().enumerate().skip(1) {
            count += usize::from(x.eval(values));
            for j in 1..=(i + 1).min(m) {
                values[next] = count >= j;
                next += 1;
            }
        }
    }
}
