//! What every step of deciding a map is given: the options, the budget that says when
//! to stop (the `--timeout`), and the progress it reports, so that a map given up at its
//! limit still says what was proven ("no game has fewer than 94 moves").

use crate::limits::Budget;
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::full_board::{Encoding, Plan};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

#[derive(Copy, Clone, Debug)]
pub struct Options {
    pub encoding: Encoding,
    /// Stop after this many minimum games.
    pub limit: Option<u64>,
    /// The move counter of the successor encoding.
    pub card: CardEncoding,
    /// Report each solver call's answer and time on standard error (`--stats`).
    pub verbose: bool,
    /// While the segments search runs, let a second thread ask the horizon-free
    /// successor encoding whether any game exists at all (see `search::race`).
    pub parallel_refutation: bool,
    /// Tie the segments encoding's moves to a line cover with the stop rule (see
    /// `Segments::tie_to_cover`); off only to measure what the tie buys.
    pub cover_tie: bool,
    /// Raise the line-cover bound with the bounded exhaustive search (see
    /// `bounded::bounded_search`) before the SAT encodings run; off only to measure it.
    pub bounded_search: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            encoding: Encoding::Segments,
            limit: None,
            card: CardEncoding::Totalizer,
            verbose: false,
            cover_tie: true,
            parallel_refutation: true,
            bounded_search: true,
        }
    }
}

/// What has been proven about a map so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proven {
    /// No game has fewer moves (0: nothing proven).
    pub at_least: usize,
    /// The argument that proved `at_least`.
    pub by: &'static str,
    /// The minimum, once proven.
    pub minimum: Option<usize>,
    /// Games of the minimum found so far (not yet replayed).
    pub games: Vec<Plan>,
    /// When the first of them was found (for `bench full-board`).
    pub first_game_at: Option<Instant>,
}

/// A handle on a map's `Proven`, shared by the threads that work on it and the one
/// that waits for them.
#[derive(Clone, Debug, Default)]
pub struct Progress(Arc<Mutex<Proven>>);

impl Progress {
    fn update(&self, change: impl FnOnce(&mut Proven)) {
        change(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner));
    }

    /// `by` proved that no game has fewer than `moves` moves.
    pub fn at_least(&self, moves: usize, by: &'static str) {
        self.update(|p| {
            if moves > p.at_least {
                p.at_least = moves;
                p.by = by;
            }
        });
    }

    /// `moves` is the minimum (proven by `by`).
    pub fn minimum(&self, moves: usize, by: &'static str) {
        self.at_least(moves, by);
        self.update(|p| p.minimum = Some(moves));
    }

    /// A game of the minimum was found.
    pub fn game(&self, plan: &Plan) {
        self.update(|p| {
            p.first_game_at.get_or_insert_with(Instant::now);
            p.games.push(plan.clone());
        });
    }

    pub fn snapshot(&self) -> Proven {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The options, budget and progress of one map, cloned into every thread that works
/// on it.
#[derive(Clone, Debug)]
pub struct Context {
    pub options: Options,
    pub budget: Budget,
    pub progress: Progress,
}

impl Context {
    /// No limit but the options' own.
    pub fn unlimited(options: Options) -> Context {
        Context {
            options,
            budget: Budget::unlimited(),
            progress: Progress::default(),
        }
    }

    /// True once the budget says stop (the time limit passed, or the map was decided
    /// elsewhere).
    pub fn stopped(&self) -> bool {
        self.budget.expired()
    }

    /// The same context with a budget of its own, which can be cancelled without
    /// stopping this one (for the two sides of a race).
    pub fn child(&self) -> Context {
        Context {
            budget: self.budget.child(),
            ..self.clone()
        }
    }
}
