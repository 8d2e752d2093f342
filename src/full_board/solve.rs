//! Deciding a map, from the cheapest argument to the most expensive: the sound
//! refutations (`refute`), the line cover's lower bound, the bounded exhaustive search
//! (`bounded`), and the SAT searches (`search`): the minimum number of moves with a proof
//! that one fewer is impossible, then every game of that length. Every game is replayed
//! by the independent check (`check`) before it is returned; a game the rules reject is
//! an `InternalError`.
//!
//! With a time limit (`solve_within`) the work runs on a thread of its own: the searches
//! poll the budget between solver calls, and when a solver call outlasts the deadline
//! the thread is abandoned and the map's answer is what the progress had proven.

use super::bounded::{bounded_search_within, SearchBound};
use super::check::replay;
use super::context::{Context, Options, Progress, Proven};
use super::refute::{line_cover_within, refute, refute_by_windows, Cover};
use super::search::{by_successor, race, Busy, Halt, Outcome};
use super::verdict::{Game, GaveUp, Proof, Refutation, Verdict};
use crate::error::InternalError;
use crate::limits::{wait_for, Budget};
use crate::solver::SolverError;
use gridsat_encodings::full_board::{Board, Encoding, Plan};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Decides `board`: the minimum and its games, or a proof that nothing wins (or, at the
/// segments encoding's memory bound, what was proven before it).
pub fn solve(board: &Board, options: &Options) -> anyhow::Result<Verdict> {
    solve_watched(board, options, None, Progress::default())
}

/// `solve` within `timeout` (none: `solve` itself, on this thread). When the time runs
/// out the answer is `Verdict::GaveUp` with what was proven by then.
pub fn solve_within(
    board: &Board,
    options: &Options,
    timeout: Option<Duration>,
) -> anyhow::Result<Verdict> {
    solve_watched(board, options, timeout, Progress::default())
}

/// `solve_within`, reporting to `progress` as it goes (the bench reads when the first
/// game was found).
pub fn solve_watched(
    board: &Board,
    options: &Options,
    timeout: Option<Duration>,
    progress: Progress,
) -> anyhow::Result<Verdict> {
    let cx = Context {
        options: *options,
        budget: Budget::starting_now(timeout),
        progress,
    };
    // Watched even without a timeout: Ctrl-C may end the wait at any time.
    let worker = Arc::new(Mutex::new(Worker::default()));
    let work = {
        let (board, cx, worker) = (board.clone(), cx.clone(), worker.clone());
        move || {
            let result = decide(&board, &cx);
            worker
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .finish();
            result
        }
    };
    match wait_for(&cx.budget, work) {
        Some(Ok(Ok(verdict))) => Ok(verdict),
        Some(Ok(Err(halt))) => gave_up(board, cx.progress.snapshot(), halt_reason(halt, timeout)),
        Some(Err(error)) if SolverError::is_interruption(&error) => gave_up(
            board,
            cx.progress.snapshot(),
            halt_reason(Halt::Budget, timeout),
        ),
        Some(Err(error)) => Err(error),
        None => {
            worker
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .abandon();
            if !cx.budget.expired() {
                return Err(InternalError::new(
                    "the search thread ended without an answer (it panicked)",
                )
                .into());
            }
            gave_up(
                board,
                cx.progress.snapshot(),
                halt_reason(Halt::Budget, timeout),
            )
        }
    }
}

/// A map's worker thread under a time limit. Abandoned (inside a solver call at the
/// deadline), it counts as a busy helper until it ends, so that the next maps do not
/// start a race of two more threads beside it.
#[derive(Default)]
struct Worker {
    done: bool,
    busy: Option<Busy>,
}

impl Worker {
    fn finish(&mut self) {
        self.done = true;
        self.busy = None;
    }

    fn abandon(&mut self) {
        if !self.done {
            self.busy = Some(Busy::start());
        }
    }
}

fn halt_reason(halt: Halt, timeout: Option<Duration>) -> String {
    match (halt, timeout) {
        (Halt::Size(why), _) => why,
        (Halt::Budget, _) if crate::limits::interrupted() => "interrupted (Ctrl-C)".to_string(),
        (Halt::Budget, Some(limit)) => {
            format!("the time limit of {} s", limit.as_secs_f64())
        }
        (Halt::Budget, None) => "the search was stopped".to_string(),
    }
}

/// The pipeline: a verdict, or what stopped it (what it proved is in the progress).
fn decide(board: &Board, cx: &Context) -> anyhow::Result<Result<Verdict, Halt>> {
    let options = &cx.options;
    if let Some(refutation) = refute(board) {
        return Ok(Ok(Verdict::NoSolution(Proof::Refuted(refutation))));
    }
    if let Some(refutation) = refute_by_windows(board)? {
        return Ok(Ok(Verdict::NoSolution(Proof::Refuted(refutation))));
    }
    let bound = match line_cover_within(board, true, cx)? {
        Cover::AtLeast(bound) => bound,
        Cover::None => {
            return Ok(Ok(Verdict::NoSolution(Proof::Refuted(
                Refutation::NoLineCover,
            ))))
        }
        Cover::Stopped => return Ok(Err(Halt::Budget)),
    };
    cx.progress.at_least(bound, "line cover");
    if options.verbose {
        eprintln!("line cover: at least {bound} moves");
    }
    let bound = if options.bounded_search {
        match bounded_search_within(board, bound, cx) {
            SearchBound::NoGame => return Ok(Ok(Verdict::NoSolution(Proof::Search))),
            SearchBound::AtLeast(k) => k,
            SearchBound::Stopped(_) => return Ok(Err(Halt::Budget)),
            // The search proved the minimum and listed every game of that length.
            SearchBound::Minimum(moves, plans) => {
                let all_found = options.limit.is_none_or(|l| plans.len() as u64 <= l);
                let shown = options
                    .limit
                    .map_or(plans.len(), |l| plans.len().min(l as usize));
                return Ok(Ok(replayed(
                    board,
                    moves,
                    plans.into_iter().take(shown),
                    all_found,
                )?));
            }
        }
    } else {
        bound
    };
    let outcome = match options.encoding {
        Encoding::Segments => race(board, cx, bound)?,
        Encoding::Successor => by_successor(board, cx, bound)?,
    };
    Ok(match outcome {
        Outcome::Found {
            moves,
            plans,
            all_found,
        } => Ok(replayed(board, moves, plans, all_found)?),
        Outcome::Refuted(proof) => Ok(Verdict::NoSolution(proof)),
        Outcome::Stopped(halt) => Err(halt),
    })
}

/// The verdict for `plans`, the games of the proven minimum `moves`, each replayed by the
/// independent check first (a game it rejects is an internal error).
fn replayed(
    board: &Board,
    moves: usize,
    plans: impl IntoIterator<Item = Plan>,
    all_found: bool,
) -> Result<Verdict, InternalError> {
    Ok(Verdict::Solved {
        moves,
        games: checked_games(board, moves, plans)?,
        all_found,
    })
}

fn checked_games(
    board: &Board,
    moves: usize,
    plans: impl IntoIterator<Item = Plan>,
) -> Result<Vec<Game>, InternalError> {
    let mut games = Vec::new();
    for plan in plans {
        let trace = replay(board, &plan).map_err(|e| {
            InternalError::new(format!(
                "the solver returned a game the rules reject ({e}); nothing printed"
            ))
        })?;
        if plan.moves.len() != moves {
            return Err(InternalError::new(format!(
                "the solver returned a game of {} moves among the {moves}-move minimum",
                plan.moves.len()
            )));
        }
        games.push(Game { plan, trace });
    }
    Ok(games)
}

/// The answer for a map given up for `reason`, from what was proven; the games found
/// are replayed like any other.
fn gave_up(board: &Board, proven: Proven, reason: String) -> anyhow::Result<Verdict> {
    let games = match proven.minimum {
        Some(moves) => checked_games(board, moves, proven.games)?,
        None => Vec::new(),
    };
    Ok(Verdict::GaveUp(GaveUp {
        reason,
        at_least: proven.at_least,
        by: proven.by,
        minimum: proven.minimum,
        games,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Exit;
    use gridsat_encodings::full_board::{Cell, Dir};

    #[test]
    fn a_game_the_rules_reject_is_an_internal_error() {
        // One row of three open cells: rolling right from the left end wins in 1 move.
        let board = Board::new(1, 3, vec![true; 3]);
        let good = Plan {
            start: Cell::new(0, 0),
            moves: vec![Dir::Right],
        };
        assert!(checked_games(&board, 1, [good.clone()]).is_ok());
        let blocked = Plan {
            moves: vec![Dir::Left],
            ..good.clone()
        };
        let error: anyhow::Error = checked_games(&board, 1, [blocked]).unwrap_err().into();
        assert_eq!(Exit::of_error(&error), Exit::Internal);
        // A game of the wrong length is one too.
        assert!(checked_games(&board, 2, [good]).is_err());
    }
}
