//! Sokoban: proven push-optimal plans. Parse (both formats), search (SAT with a growing
//! horizon, best-first A*, both as a portfolio, or the breadth-first baseline), replay
//! every plan independently, render.

pub mod astar;
pub mod bfs;
pub mod cli;
mod corral;
mod flood;
pub mod moves;
pub mod parse;
pub mod plan;
pub mod portfolio;
mod positions;
pub mod render;
pub mod simulate;
pub mod solve;
mod split;

use gridsat_encodings::sokoban::Push;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A plan and what is proven about it.
#[derive(Clone, Debug)]
pub struct Solution {
    pub pushes: Vec<Push>,
    /// No plan has fewer pushes.
    pub push_optimal: bool,
    /// No plan with as few pushes has fewer moves.
    pub moves_minimal: bool,
}

impl Solution {
    pub fn push_optimal(pushes: Vec<Push>, moves_minimal: bool) -> Solution {
        Solution {
            pushes,
            push_optimal: true,
            moves_minimal,
        }
    }
}

/// The three ways a search ends.
#[derive(Clone, Debug)]
pub enum Outcome {
    Solved(Solution),
    /// Proven: no plan exists, for the reason given.
    Unsolvable {
        reason: String,
    },
    /// A time or size limit stopped the search; every plan has at least `no_plan_below`
    /// pushes.
    GaveUp {
        reason: String,
        no_plan_below: usize,
    },
}

/// When a search must stop.
#[derive(Clone, Debug)]
pub struct Limits {
    pub deadline: Option<Instant>,
    /// Breadth-first search: most positions stored.
    pub max_states: usize,
    /// SAT: most clauses in the formula.
    pub max_clauses: usize,
    /// Most pushes a plan may have: stop (giving up) rather than try longer plans.
    pub max_pushes: Option<usize>,
    /// SAT: most push-optimal plans compared for the fewest moves.
    pub max_plans: usize,
    /// After A*: most positions the fewest-moves search stores (`moves`); 0 skips it.
    pub max_move_states: usize,
    /// Set by whoever waits for the search when it stops waiting.
    pub cancel: Arc<AtomicBool>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            deadline: None,
            max_states: 5_000_000,
            max_clauses: 5_000_000,
            max_pushes: None,
            max_plans: 1000,
            max_move_states: 4_000_000,
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }
}

impl Limits {
    pub fn expired(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
