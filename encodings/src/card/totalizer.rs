//! Totalizer (Bailleux and Boufkhad 2003), both directions, truncated at `m`.
//!
//! A balanced binary tree; each node holds its leaves' count in unary, at most `m`
//! outputs. A tree keeps every input within `log2(n)` adders of the outputs, where the
//! sequential counter's chain puts the first input `n` steps away.

use super::contract::CardinalityEncoding;
use crate::cnf::Cnf;
use crate::lit::Lit;

/// Cost: merging `a` and `b` outputs into `c = min(a + b, m)` costs `c` variables and at
/// most `(a+1)(b+1)` clauses per direction; a tree over `n` leaves has about `n*log2(n)`
/// output variables before truncation, about `2*n*m` clauses per tree level.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Totalizer;

impl CardinalityEncoding for Totalizer {
    const NAME: &'static str = "totalizer";

    /// Each node writes at most two clauses per pair of its children's counts: the
    /// tree of `node`, walked by sizes alone.
    fn counter_clauses(n: usize, m: usize) -> u128 {
        fn tree(leaves: usize, m: usize) -> u128 {
            if leaves <= 1 {
                return 0;
            }
            let (left, right) = (leaves / 2, leaves - leaves / 2);
            let pairs = (left.min(m) as u128 + 1) * (right.min(m) as u128 + 1);
            tree(left, m) + tree(right, m) + 2 * pairs
        }
        tree(n, m)
    }

    fn counter(cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
        let mut out = node(cnf, lits, m);
        out.truncate(m);
        out
    }

    /// Every node's output `o_t` is whether at least `t` of its leaves are true, in the
    /// order `counter` makes them: children before parents, left before right.
    fn fill_counter(lits: &[Lit], m: usize, first_aux: usize, values: &mut [bool]) {
        let mut next = first_aux;
        fill_node(lits, m, &mut next, values);
    }
}

/// The unary count of the leaves `lits`, at most `m` outputs wide.
fn node(cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
    if lits.len() == 1 {
        return vec![lits[0]];
    }
    let (left, right) = lits.split_at(lits.len() / 2);
    let l = node(cnf, left, m);
    let r = node(cnf, right, m);
    let width = (l.len() + r.len()).min(m);
    let o: Vec<Lit> = (0..width).map(|_| cnf.fresh_lit()).collect();
    // Upward: l_i & r_j -> o_(i+j) (capped at width). Index 0 stands for "true".
    for i in 0..=l.len() {
        for j in 0..=r.len() {
            if i + j == 0 {
                continue;
            }
            let target = o[(i + j).min(width) - 1];
            let mut clause = vec![target];
            if i > 0 {
                clause.push(!l[i - 1]);
            }
            if j > 0 {
                clause.push(!r[j - 1]);
            }
            cnf.clause(clause);
        }
    }
    // Downward: !l_(i+1) & !r_(j+1) -> !o_(i+j+1); a missing l_(i+1) is false unless the
    // child was truncated, and a truncated child only matters past `width`.
    for i in 0..=l.len() {
        for j in 0..=r.len() {
            let t = i + j + 1;
            if t > width {
                continue;
            }
            let mut clause = vec![!o[t - 1]];
            if let Some(&li) = l.get(i) {
                clause.push(li);
            }
            if let Some(&rj) = r.get(j) {
                clause.push(rj);
            }
            cnf.clause(clause);
        }
    }
    o
}

/// The number of true leaves below this node and the number of its outputs.
fn fill_node(lits: &[Lit], m: usize, next: &mut usize, values: &mut [bool]) -> (usize, usize) {
    if lits.len() == 1 {
        return (usize::from(lits[0].eval(values)), 1);
    }
    let (left, right) = lits.split_at(lits.len() / 2);
    let (cl, wl) = fill_node(left, m, next, values);
    let (cr, wr) = fill_node(right, m, next, values);
    let width = (wl + wr).min(m);
    for t in 1..=width {
        values[*next] = cl + cr >= t;
        *next += 1;
    }
    (cl + cr, width)
}
