//! Batcher's odd-even merge sorting network: sorting the inputs true-first makes output
//! `j` true exactly when at least `j` inputs are. The inputs are padded to a power of two
//! with the constant false, and comparators that touch a constant are folded away.
//!
//! Every comparator is a pair of gates over its two wires, so each auxiliary variable is
//! plainly a function of the inputs, however the network is laid out.

use super::contract::CardinalityEncoding;
use crate::cnf::Cnf;
use crate::lit::Lit;

/// Cost: `O(n log^2 n)` comparators for `n` inputs, each two fresh variables
/// (`max = a | b`, `min = a & b`) and 6 clauses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SortingNetwork;

impl CardinalityEncoding for SortingNetwork {
    const NAME: &'static str = "sorting-network";

    /// Batcher's network on `P = n` rounded up to a power of two has at most
    /// `P log P (log P + 1) / 4` comparators, of two gates (three clauses each).
    fn counter_clauses(n: usize, _m: usize) -> u128 {
        let size = n.next_power_of_two() as u128;
        let log = size.trailing_zeros() as u128;
        size * log * (log + 1) / 4 * 6
    }

    fn counter(cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
        let size = lits.len().next_power_of_two();
        // None is the constant false.
        let mut wires: Vec<Option<Lit>> = lits.iter().copied().map(Some).collect();
        wires.resize(size, None);
        for (hi, lo) in batcher_comparators(size) {
            let (max, min) = match (wires[hi], wires[lo]) {
                (Some(a), Some(b)) => {
                    let max = cnf.or_lit(&[a, b]);
                    let min = cnf.and_lit(&[a, b]);
                    (Some(max), Some(min))
                }
                (Some(a), None) | (None, Some(a)) => (Some(a), None),
                (None, None) => (None, None),
            };
            wires[hi] = max;
            wires[lo] = min;
        }
        wires[..m]
            .iter()
            .map(|w| w.expect("the first n sorted wires of n real inputs are never constant"))
            .collect()
    }

    /// Each comparator of two real wires makes its `max` (or) and then its `min` (and),
    /// in the order `counter` makes them. All of them, even those below output `m`.
    fn fill_counter(lits: &[Lit], _m: usize, first_aux: usize, values: &mut [bool]) {
        let size = lits.len().next_power_of_two();
        let mut wires: Vec<Option<bool>> = lits.iter().map(|l| Some(l.eval(values))).collect();
        wires.resize(size, None);
        let mut next = first_aux;
        for (hi, lo) in batcher_comparators(size) {
            let (max, min) = match (wires[hi], wires[lo]) {
                (Some(a), Some(b)) => {
                    values[next] = a || b;
                    values[next + 1] = a && b;
                    next += 2;
                    (Some(a || b), Some(a && b))
                }
                (Some(a), None) | (None, Some(a)) => (Some(a), None),
                (None, None) => (None, None),
            };
            wires[hi] = max;
            wires[lo] = min;
        }
    }
}

/// Comparators `(i, j)` with `i < j` for a network of `size` wires (a power of two);
/// after all of them, the larger value sits on the smaller index.
fn batcher_comparators(size: usize) -> Vec<(usize, usize)> {
    let mut comparators = Vec::new();
    let mut p = 1;
    while p < size {
        let mut k = p;
        while k >= 1 {
            let mut j = k % p;
            while j + k < size {
                for i in 0..k.min(size - j - k) {
                    if (i + j) / (2 * p) == (i + j + k) / (2 * p) {
                        comparators.push((i + j, i + j + k));
                    }
                }
                j += 2 * k;
            }
            k /= 2;
        }
        p *= 2;
    }
    comparators
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_sorts_every_bit_vector() {
        for size in [1usize, 2, 4, 8, 16] {
            let comps = batcher_comparators(size);
            for bits in 0..(1u32 << size) {
                let mut v: Vec<bool> = (0..size).map(|i| bits >> i & 1 == 1).collect();
                for &(a, b) in &comps {
                    let (x, y) = (v[a] || v[b], v[a] && v[b]);
                    v[a] = x;
                    v[b] = y;
                }
                assert!(
                    v.windows(2).all(|w| w[0] >= w[1]),
                    "size {size} bits {bits}"
                );
            }
        }
    }
}
