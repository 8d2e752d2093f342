//! The five modes, computed once for every board puzzle: one solution, all (or the
//! first N), their number, uniqueness, and the cells every solution agrees on.
//!
//! Every board found is read and checked by the puzzle (`BoardPuzzle::read`, `check`)
//! before it joins an answer. Under a time limit the work runs on a thread of its own
//! (`limits::wait_for`): a search that polls the budget stops between solver calls,
//! one inside an uninterruptible SAT call is abandoned, and either way the answer is
//! `GaveUp` with what was established so far (the boards found, a proven lower bound on
//! their number).

use super::board::{cells_of, check_projection, BoardPuzzle};
use super::list::{BoardList, MAX_LIST_BYTES};
use super::repair::{report, Report};
use crate::cli::Mode;
use crate::limits::{wait_for, Budget};
use crate::progress::{Progress, Status};
use crate::solver::count::Count;
use crate::solver::count::Stopped;
use crate::solver::{count_all_within, AllSolutions, Session, SolverError, Uniqueness};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a mode found. Boards are cells, row-major, already checked.
#[derive(Debug)]
pub enum Answer {
    One(Option<Vec<bool>>),
    /// Every solution, sorted, or the first `--limit` (then `more` says whether there
    /// are others).
    All {
        boards: BoardList,
        more: bool,
    },
    /// The number of solutions; `at_least` when `--limit` stopped the count.
    Count {
        count: Count,
        at_least: bool,
    },
    Unique(Verdict),
    /// Per cell `Some(placed)` when every solution agrees; `None` when there is no
    /// solution at all.
    Determined(Option<Vec<Option<bool>>>),
    /// `--repair`'s report.
    Repair(Report),
    /// The time limit passed first.
    GaveUp(GaveUp),
}

#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    NoSolution,
    Unique(Vec<bool>),
    Multiple(Vec<bool>, Vec<bool>),
}

/// What was established when the time limit stopped a mode.
#[derive(Debug)]
pub struct GaveUp {
    pub after: Duration,
    /// Proven: the puzzle has at least this many solutions.
    pub at_least: Count,
    /// Boards found (and checked) before the limit, sorted.
    pub boards: BoardList,
}

/// What the work has found so far, shared with whoever waits for it.
#[derive(Debug)]
struct Partial {
    at_least: Count,
    boards: BoardList,
}

type Shared = Arc<Mutex<Partial>>;

/// The answer of `mode` for `puzzle`, within `budget`.
pub fn find<P: BoardPuzzle>(puzzle: Arc<P>, mode: Mode, budget: &Budget) -> anyhow::Result<Answer> {
    check_projection(&*puzzle)?;
    let (rows, cols) = puzzle.size();
    let partial: Shared = Arc::new(Mutex::new(Partial {
        at_least: Count::from(0u64),
        boards: BoardList::new(rows * cols),
    }));
    let started = Instant::now();
    // The counting engine posts its proven bound here; blocking clauses count boards.
    let status = Status::new();
    let work = {
        let (puzzle, partial) = (puzzle.clone(), partial.clone());
        let budget = budget.clone().with_status(status.clone());
        move || compute(&*puzzle, mode, &budget, &partial)
    };
    let progress = match mode {
        Mode::All { .. } | Mode::Count { .. } => Progress::spinner("counting"),
        _ => Progress::hidden(),
    };
    let watch = progress.watch_status(status, {
        let partial = partial.clone();
        move || match partial.lock().map(|p| p.boards.len()) {
            Ok(found) if found > 0 => format!("{found} solutions so far"),
            _ => String::new(),
        }
    });
    // Watched even without a deadline: Ctrl-C may end the wait at any time.
    let result = wait_for(budget, work);
    drop(watch);
    progress.finish();
    match result {
        Some(Ok(Some(answer))) => Ok(answer),
        Some(Err(e)) if !SolverError::is_interruption(&e) => Err(e),
        // Stopped at the budget (between solver calls, or inside one that can be
        // interrupted), or abandoned inside a solver call.
        Some(Ok(None)) | Some(Err(_)) | None => {
            let mut partial = partial.lock().unwrap_or_else(|e| e.into_inner());
            let mut boards = std::mem::take(&mut partial.boards);
            boards.sort();
            let found = Count::from(boards.len() as u64);
            Ok(Answer::GaveUp(GaveUp {
                after: started.elapsed(),
                at_least: partial.at_least.clone().max(found),
                boards,
            }))
        }
    }
}

/// The mode's answer, or `None` when the budget ran out first.
fn compute<P: BoardPuzzle>(
    puzzle: &P,
    mode: Mode,
    budget: &Budget,
    partial: &Shared,
) -> anyhow::Result<Option<Answer>> {
    let cnf = puzzle.cnf();
    let session = || {
        let mut session = Session::new(cnf);
        session.stop_at(budget);
        session
    };
    Ok(Some(match mode {
        Mode::One => {
            let found = session().solve()?;
            Answer::One(found.map(|v| checked(puzzle, &v)).transpose()?)
        }
        Mode::All { limit: Some(limit) } => {
            let Some((boards, more)) = by_blocking(puzzle, limit, budget, partial)? else {
                return Ok(None);
            };
            Answer::All { boards, more }
        }
        Mode::All { limit: None } => match every_board(puzzle, budget)? {
            Ok(boards) => Answer::All {
                boards,
                more: false,
            },
            Err(stopped) => return Ok(stopped_at(stopped, partial)),
        },
        Mode::Count { limit: Some(limit) } => {
            let Some((boards, more)) = by_blocking(puzzle, limit, budget, partial)? else {
                return Ok(None);
            };
            Answer::Count {
                count: Count::from(boards.len() as u64),
                at_least: more,
            }
        }
        Mode::Count { limit: None } => match count_all_within(cnf, budget)? {
            Ok(count) => Answer::Count {
                count,
                at_least: false,
            },
            Err(stopped) => return Ok(stopped_at(stopped, partial)),
        },
        Mode::Unique => Answer::Unique(match session().uniqueness()? {
            Uniqueness::NoSolution => Verdict::NoSolution,
            Uniqueness::Unique(a) => Verdict::Unique(checked(puzzle, &a)?),
            Uniqueness::Multiple(a, b) => {
                Verdict::Multiple(checked(puzzle, &a)?, checked(puzzle, &b)?)
            }
        }),
        Mode::Determined => Answer::Determined(session().determined()?),
        Mode::Repair => match report(puzzle, budget)? {
            Report::Stopped => return Ok(None),
            found => Answer::Repair(found),
        },
    }))
}

/// Keeps the lower bound a stopped count proved, for the `GaveUp` answer.
fn stopped_at(stopped: Stopped, partial: &Shared) -> Option<Answer> {
    if let Ok(mut shared) = partial.lock() {
        shared.at_least = stopped.at_least;
    }
    None
}

/// The cells of a model, after the puzzle has read and checked them.
fn checked<P: BoardPuzzle>(puzzle: &P, values: &[bool]) -> anyhow::Result<Vec<bool>> {
    let cells = cells_of(puzzle.cnf(), values);
    let solution = puzzle.read(&cells)?;
    puzzle.check(&solution)?;
    Ok(cells)
}

/// Up to `limit` boards by blocking clauses (which answer a few at once even where a
/// full count is out of reach), sorted, and whether there are more: one solution past
/// the limit tells. `None` when the budget ran out first.
fn by_blocking<P: BoardPuzzle>(
    puzzle: &P,
    limit: u64,
    budget: &Budget,
    partial: &Shared,
) -> anyhow::Result<Option<(BoardList, bool)>> {
    let cnf = puzzle.cnf();
    let (rows, cols) = puzzle.size();
    let mut session = Session::new(cnf);
    session.stop_at(budget);
    let mut boards = BoardList::new(rows * cols);
    let mut more = false;
    loop {
        if budget.expired() {
            return Ok(None);
        }
        let Some(values) = session.solve()? else {
            break;
        };
        if boards.len() as u64 == limit {
            more = true;
            break;
        }
        let cells = checked(puzzle, &values)?;
        boards.push(&cells);
        if let Ok(mut shared) = partial.lock() {
            shared.boards.push(&cells);
        }
        match puzzle.blocking_clause(&values) {
            Some(clause) => session.add_clause(&clause),
            None => session.block(&values),
        }
    }
    boards.sort();
    Ok(Some((boards, more)))
}

/// Every board, through the solver layer's `AllSolutions` (the counting engine, or
/// blocking clauses when the engine gives up on a few solutions in a large space), or
/// where the budget stopped it.
fn every_board<P: BoardPuzzle>(
    puzzle: &P,
    budget: &Budget,
) -> anyhow::Result<Result<BoardList, Stopped>> {
    let cnf = puzzle.cnf();
    let (rows, cols) = puzzle.size();
    let all = match AllSolutions::find_within(cnf, budget)? {
        Ok(all) => all,
        Err(stopped) => return Ok(Err(stopped)),
    };
    let bytes = all
        .count()
        .to_u128()
        .map(|n| n.saturating_mul(BoardList::bytes_per_board(rows * cols) as u128));
    if bytes.is_none_or(|b| b > MAX_LIST_BYTES) {
        anyhow::bail!(
            "the puzzle has {} solutions: too many to list and sort in memory; use --count, \
             or --limit N for some of them",
            all.count()
        );
    }
    let mut boards = BoardList::new(rows * cols);
    let mut failure = None;
    // Only the cells are read: the counters' registers need no values.
    let _ = all.for_each_without_counters(|values| match checked(puzzle, values) {
        Ok(cells) => {
            boards.push(&cells);
            ControlFlow::Continue(())
        }
        Err(e) => {
            failure = Some(e);
            ControlFlow::Break(())
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    boards.sort();
    Ok(Ok(boards))
}
