//! The decision order's first part: auxiliary variables recognised as AND gates of
//! projected variables.
//!
//! A gate `g` is recognised from its clauses alone: a clause `g | l1 | ... | ln`
//! (n >= `MIN_GATE_INPUTS`) together with every binary clause `!g | !li` says
//! `g = !l1 & ... & !ln`. Such a `g` is a function of projected variables, so deciding it
//! splits the projected solutions into two disjoint sets and keeps every count exact,
//! although `g` itself is not projected. For Battleship the gates are the ship
//! placements, and deciding long ships first, as a hand-written backtracker does, cuts
//! the dead ends of a cell-by-cell search: a board is a few ships, and most partial
//! boards of cells cannot be completed.

use gridsat_encodings::cnf::{Lit, Var};
use std::collections::HashSet;

/// Gates with fewer inputs are not decided: the registers of cardinality encodings are
/// small gates over cells (two inputs in Star Battle's counters), and deciding them
/// before the cells multiplied the time of twonot2 by 80.
const MIN_GATE_INPUTS: usize = 3;

/// Auxiliary variables that are AND gates of literals over projected variables, in the
/// order the search decides them: most positive inputs first, then by index.
pub(super) fn gate_order(num_vars: usize, clauses: &[&[Lit]], projected: &[bool]) -> Vec<Var> {
    let pair = |a: Lit, b: Lit| (a.code().min(b.code()), a.code().max(b.code()));
    let binary: HashSet<(usize, usize)> = clauses
        .iter()
        .filter(|c| c.len() == 2)
        .map(|c| pair(c[0], c[1]))
        .collect();
    let mut seen = vec![false; num_vars];
    let mut gates = Vec::new();
    for &clause in clauses.iter().filter(|c| c.len() > MIN_GATE_INPUTS) {
        for &output in clause {
            let var = output.var().index();
            if projected[var] || seen[var] {
                continue;
            }
            let inputs = clause.iter().filter(|&&l| l != output);
            let defines = inputs
                .clone()
                .all(|&l| projected[l.var().index()] && binary.contains(&pair(!output, !l)));
            if defines {
                seen[var] = true;
                let positive = inputs.filter(|l| !l.is_positive()).count();
                gates.push((positive, output.var()));
            }
        }
    }
    gates.sort_by_key(|&(positive, var)| (std::cmp::Reverse(positive), var.index()));
    gates.into_iter().map(|(_, var)| var).collect()
}
