//! Sokoban: proven push-optimal plans, or with `--quick` a plan first. Parse both
//! formats (`parse`), search (`search`: SAT with a growing horizon, best-first A*, both
//! as a portfolio, the breadth-first baseline, or the quick search for any plan), turn pushes into moves (`plan`), replay every plan independently
//! (`check`), render (`render`), and the command line (`cli`, `report`).

pub mod check;
pub mod cli;
pub mod parse;
pub mod picture;
pub mod plan;
pub mod render;
pub mod report;
pub mod search;

use crate::limits::Budget;
use gridsat_encodings::sokoban::Push;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A plan and what is proven about it.
#[derive(Clone, Debug)]
pub struct Solution {
    pub pushes: Vec<Push>,
    /// No plan has fewer pushes.
    pub push_optimal: bool,
    /// No plan with as few pushes has fewer moves.
    pub moves_minimal: bool,
    /// Proven: no plan has fewer pushes (the plan's own pushes when `push_optimal`).
    pub no_plan_below: usize,
}

impl Solution {
    pub fn push_optimal(pushes: Vec<Push>, moves_minimal: bool) -> Solution {
        Solution {
            no_plan_below: pushes.len(),
            pushes,
            push_optimal: true,
            moves_minimal,
        }
    }

    /// A plan found without a proof of push-optimality, beside the best bound proven:
    /// push-optimal after all when the bound reaches its pushes.
    pub fn with_bound(pushes: Vec<Push>, no_plan_below: usize) -> Solution {
        let push_optimal = no_plan_below >= pushes.len();
        Solution {
            no_plan_below: no_plan_below.min(pushes.len()),
            pushes,
            push_optimal,
            moves_minimal: false,
        }
    }
}

/// The ways a search ends. A plan not proven push-optimal is `Solved` with
/// `push_optimal` false and its bound: the report tells the four outcomes apart.
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

/// When a search must stop: its time budget and its size caps.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The deadline (`--timeout`) and cancellation (a portfolio stops the search that
    /// lost; whoever waits for a search stops it when it stops waiting).
    pub budget: Budget,
    /// Breadth-first search and A*: most positions stored.
    pub max_states: usize,
    /// SAT: most clauses in the formula.
    pub max_clauses: usize,
    /// Most pushes a plan may have: stop (giving up) rather than try longer plans.
    pub max_pushes: Option<usize>,
    /// SAT: most push-optimal plans compared for the fewest moves.
    pub max_plans: usize,
    /// After A*: most positions the fewest-moves search stores (`moves`); 0 skips it.
    pub max_move_states: usize,
    /// What the searches sharing these limits (a portfolio's) have found so far: a
    /// search that proves optimality need only look for plans shorter than the best one
    /// found, and a search for plans need look for none shorter than the bound proven.
    pub known: Known,
}

/// The fewest pushes of any plan found so far, and the bound proven so far, shared
/// between threads (see `Limits::known`).
#[derive(Clone, Debug)]
pub struct Known {
    plan: Arc<AtomicUsize>,
    bound: Arc<AtomicUsize>,
}

impl Default for Known {
    fn default() -> Known {
        Known {
            plan: Arc::new(AtomicUsize::new(usize::MAX)),
            bound: Arc::new(AtomicUsize::new(0)),
        }
    }
}

impl Known {
    /// A plan of `pushes` was found. Release and acquire: a search that reads it sees
    /// everything its finder did before (in particular, sending the plan).
    pub fn plan_found(&self, pushes: usize) {
        self.plan.fetch_min(pushes, Ordering::Release);
    }

    /// The fewest pushes of a plan found so far.
    pub fn plan(&self) -> Option<usize> {
        Some(self.plan.load(Ordering::Acquire)).filter(|&p| p < usize::MAX)
    }

    /// No plan has fewer than `pushes`.
    pub fn bound_proven(&self, pushes: usize) {
        self.bound.fetch_max(pushes, Ordering::Relaxed);
    }

    /// The bound proven so far (0: none).
    pub fn bound(&self) -> usize {
        self.bound.load(Ordering::Relaxed)
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            budget: Budget::unlimited(),
            max_states: 5_000_000,
            max_clauses: 5_000_000,
            max_pushes: None,
            max_plans: 1000,
            max_move_states: 4_000_000,
            known: Known::default(),
        }
    }
}

impl Limits {
    /// True once the deadline has passed or the search was cancelled.
    pub fn expired(&self) -> bool {
        self.budget.expired()
    }

    /// The most pushes a plan worth finding may have: `--max-pushes`, or one push fewer
    /// than a plan another search found (the quick search beside A*): proving that no
    /// shorter plan exists proves that one optimal.
    pub fn ceiling(&self) -> Ceiling {
        let known = self.known.plan().map(|p| p.saturating_sub(1));
        let (pushes, reason) = match (self.max_pushes, known) {
            (m, Some(k)) if m.is_none_or(|m| k < m) => (k, "no plan shorter than the one found"),
            (m, _) => (m.unwrap_or(usize::MAX), "push limit"),
        };
        Ceiling {
            pushes: u32::try_from(pushes).unwrap_or(u32::MAX),
            reason,
        }
    }
}

/// The most pushes a plan worth finding may have (`Limits::ceiling`), and why.
#[derive(Clone, Copy, Debug)]
pub struct Ceiling {
    pub pushes: u32,
    pub reason: &'static str,
}
