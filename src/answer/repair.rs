//! `--repair`: why a puzzle is not unique and how to fix it, or why it has no solution.
//!
//! The puzzle proposes changes (`BoardPuzzle::repairs`: Battleship a smallest set of
//! hints, Star Battle moves of a zone border); this layer checks every proposal by
//! counting the changed puzzle's solutions again, and reports only what the count
//! confirms. For a puzzle without a solution it finds rules that conflict: it leaves the
//! puzzle's rules out one at a time (`BoardPuzzle::rules`, `solvable_with`) and keeps
//! each that the conflict needs, so that the rules it reports have no solution together
//! and any one of them left out gives one.

use super::board::BoardPuzzle;
use crate::limits::Budget;
use crate::solver::count::Count;
use crate::solver::{count_all_within, Session, Uniqueness};

/// The most repairs a report lists.
pub const MAX_SHOWN: usize = 10;

pub use super::board::Proposal;

/// A proposal the count confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    pub changes: Vec<String>,
    /// The number of solutions of the changed puzzle, counted again.
    pub solutions: Count,
}

impl Repair {
    pub fn is_unique(&self) -> bool {
        self.solutions == 1u128
    }
}

/// What `--repair` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// Unique already: nothing to repair.
    Unique(Vec<bool>),
    /// No solution: rules that conflict (none can be left out of the conflict).
    Conflict(Vec<String>),
    /// Several solutions: two witnesses, and the repairs, best first (unique before
    /// fewer solutions, then fewer changes).
    NotUnique {
        first: Vec<bool>,
        second: Vec<bool>,
        repairs: Vec<Repair>,
    },
    /// The budget ran out first.
    Stopped,
}

/// The report for `puzzle`, each board checked, each repair counted again.
pub fn report<P: BoardPuzzle>(puzzle: &P, budget: &Budget) -> anyhow::Result<Report> {
    let checked = |values: &[bool]| -> anyhow::Result<Vec<bool>> {
        let cells = super::board::cells_of(puzzle.cnf(), values);
        puzzle.check(&puzzle.read(&cells)?)?;
        Ok(cells)
    };
    match Session::new(puzzle.cnf()).uniqueness()? {
        Uniqueness::Unique(a) => Ok(Report::Unique(checked(&a)?)),
        Uniqueness::NoSolution => match conflict(puzzle, budget)? {
            Some(rules) => Ok(Report::Conflict(rules)),
            None => Ok(Report::Stopped),
        },
        Uniqueness::Multiple(a, b) => {
            let (first, second) = (checked(&a)?, checked(&b)?);
            let mut repairs = Vec::new();
            for proposal in puzzle.repairs(&first, budget)? {
                match count_all_within(proposal.puzzle.cnf(), budget)? {
                    Ok(solutions) if !solutions.is_zero() => repairs.push(Repair {
                        changes: proposal.changes,
                        solutions,
                    }),
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            repairs.sort_by(|x, y| {
                (!x.is_unique(), &x.solutions, x.changes.len()).cmp(&(
                    !y.is_unique(),
                    &y.solutions,
                    y.changes.len(),
                ))
            });
            // The repairs that make the puzzle unique, or else the best of the others.
            if repairs.first().is_some_and(Repair::is_unique) {
                repairs.retain(Repair::is_unique);
                repairs.truncate(MAX_SHOWN);
            } else {
                repairs.truncate(1);
            }
            Ok(Report::NotUnique {
                first,
                second,
                repairs,
            })
        }
    }
}

/// Rules that have no solution together while any one of them left out gives one (by
/// leaving each out in turn and keeping it only when the conflict needs it); `None` when
/// the budget ran out.
fn conflict<P: BoardPuzzle>(puzzle: &P, budget: &Budget) -> anyhow::Result<Option<Vec<String>>> {
    let rules = puzzle.rules();
    let mut kept = vec![true; rules.len()];
    for i in 0..rules.len() {
        if budget.expired() {
            return Ok(None);
        }
        kept[i] = false;
        if puzzle.solvable_with(&kept)? {
            kept[i] = true;
        }
    }
    Ok(Some(
        rules
            .into_iter()
            .zip(kept)
            .filter(|(_, k)| *k)
            .map(|(rule, _)| rule)
            .collect(),
    ))
}
