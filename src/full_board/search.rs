//! The SAT searches for the minimum: the segments encoding's growing horizon, the
//! successor encoding's tightening move bound, and the race of the segments search
//! against the successor encoding's proof that no game exists, on helper threads.
//!
//! Every search asks the context's budget before each solver call and reports what it
//! proves to the context's progress. A varisat call cannot be interrupted: a thread
//! inside one runs on until it returns (see `Busy`); a CaDiCaL call stops at the budget
//! too (`Session::stop_at`), and the search then stops as at a check between calls.

use super::context::Context;
use super::verdict::Proof;
use crate::solver::{Session, SolverError};
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::cnf::{Cnf, Lit};
use gridsat_encodings::full_board::lines::LineCover;
use gridsat_encodings::full_board::segments::Segments;
use gridsat_encodings::full_board::successor::Successor;
use gridsat_encodings::full_board::{Board, Encoding, Plan};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// What a SAT search established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The minimum and its games (as many as the limit allows; `all_found` says whether
    /// that is all of them).
    Found {
        moves: usize,
        plans: Vec<Plan>,
        all_found: bool,
    },
    /// No game wins.
    Refuted(Proof),
    /// Stopped before an answer; what was proven is in the context's progress.
    Stopped(Halt),
}

/// What stopped a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// The budget: the time limit passed, or another search decided the map.
    Budget,
    /// A size limit, in words (the segments encoding's memory bound).
    Size(String),
}

/// The segments encoding grows by one layer of `n` cells per move; about 3 KB of solver
/// memory per cell and move. This many cell-layers (about 1.2 GB) is where it stops.
pub const MAX_CELL_LAYERS: usize = 400_000;

/// How long the refutation thread lets the segments search run alone.
const REFUTATION_DELAY: Duration = Duration::from_secs(3);

/// Every game under `assumptions` (up to `limit`), by blocking clauses, each reported to
/// the progress as a game of the minimum; `None` when the budget stopped it.
fn collect(
    session: &mut Session,
    assumptions: &[Lit],
    cx: &Context,
    mut decode: impl FnMut(&[bool]) -> Plan,
) -> Result<Option<(Vec<Plan>, bool)>, SolverError> {
    let (limit, verbose) = (cx.options.limit, cx.options.verbose);
    let mut plans = Vec::new();
    let began = Instant::now();
    let mut stopped = false;
    let found = session.enumerate_under(assumptions, limit, |values| {
        let plan = decode(values);
        cx.progress.game(&plan);
        plans.push(plan);
        if verbose {
            eprintln!(
                "enumeration: game {} after {:.3} s",
                plans.len(),
                began.elapsed().as_secs_f64()
            );
        }
        stopped = cx.stopped();
        if stopped {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    if stopped {
        return Ok(None);
    }
    if verbose {
        eprintln!(
            "enumeration: {found} games in {:.3} s",
            began.elapsed().as_secs_f64()
        );
    }
    // Hitting the limit leaves it open whether more games exist; ask once more.
    let all_found = match limit {
        Some(l) if found >= l => session.solve_under(assumptions)?.is_none(),
        _ => true,
    };
    Ok(Some((plans, all_found)))
}

/// Helper threads (and abandoned map workers, see `solve`) still running: a losing
/// search cannot be stopped inside a solver call, so it runs on until that call returns.
static BUSY_HELPERS: AtomicUsize = AtomicUsize::new(0);

/// Counts a thread as busy until dropped.
pub struct Busy(());

impl Busy {
    pub fn start() -> Busy {
        BUSY_HELPERS.fetch_add(1, Ordering::SeqCst);
        Busy(())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY_HELPERS.fetch_sub(1, Ordering::SeqCst);
    }
}

enum Finding {
    Segments(Result<Outcome, SolverError>),
    NoGameAtAll(Proof),
}

/// The segments search for the minimum and, in a second thread, the successor
/// encoding's horizon-free question "is there any game at all?". The segments search
/// is strong at finding games and refuting short ones, the successor encoding at
/// proving that nothing wins (set-s16b's large map 2: about 17 s, against minutes for
/// the segments encoding to refute every horizon). Whichever proves its answer first
/// decides the map; both are proofs, so the verdict is the same either way, only the
/// wording of a "No solution" proof may differ. The loser is told to stop at its next
/// solver call; a thread inside a call runs on until it returns, and while any helper
/// from an earlier map still runs, this map is searched by segments alone (so at most
/// one stray thread competes for the processor).
pub fn race(board: &Board, cx: &Context, bound: usize) -> Result<Outcome, SolverError> {
    let start = if cx.options.cover_tie {
        // The tie states the line cover with the stop rule, so horizons below its bound
        // are already refuted by it.
        bound
    } else {
        // Untied, the search starts at the plain cover's bound: on set-s16b's large map
        // 2 refuting that horizon taught the solver enough to refute every later one at
        // once, while starting at the stop rule's bound gave no answer in 400 s.
        super::refute::line_cover(board, false)?.map_or(bound, |plain| plain.min(bound))
    };
    let game_found = Arc::new(AtomicBool::new(false));
    if !cx.options.parallel_refutation || BUSY_HELPERS.load(Ordering::SeqCst) > 0 {
        return at_budget(by_segments(board, cx, start, &game_found));
    }
    // Both sides stop when the map is decided (or the caller's budget runs out).
    let race = cx.child();
    let (tx, rx) = mpsc::channel();
    {
        let (board, cx, game_found, tx, busy) = (
            board.clone(),
            race.clone(),
            game_found.clone(),
            tx.clone(),
            Busy::start(),
        );
        std::thread::spawn(move || {
            let found = at_budget(by_segments(&board, &cx, start, &game_found));
            game_found.store(true, Ordering::SeqCst);
            drop(busy);
            let _ = tx.send(Finding::Segments(found));
        });
    }
    {
        let (board, cx, game_found, busy) = (
            board.clone(),
            race.clone(),
            game_found.clone(),
            Busy::start(),
        );
        std::thread::spawn(move || {
            // Most maps with a game are decided by the segments search within seconds;
            // wait that long before competing with it for the processor.
            let began = Instant::now();
            while began.elapsed() < REFUTATION_DELAY {
                if game_found.load(Ordering::SeqCst) || cx.stopped() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let refuted = any_game_by_successor(&board, &cx);
            drop(busy);
            if let Ok(Some(proof)) = refuted {
                let _ = tx.send(Finding::NoGameAtAll(proof));
            }
        });
    }
    let mut undecided = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            // The segments search gave up (its memory limit); the refutation may still
            // decide the map.
            Ok(Finding::Segments(Ok(Outcome::Stopped(Halt::Size(why))))) => undecided = Some(why),
            Ok(Finding::Segments(found)) => {
                race.budget.cancel();
                return found;
            }
            Ok(Finding::NoGameAtAll(proof)) => {
                race.budget.cancel();
                return Ok(Outcome::Refuted(proof));
            }
            // The caller's budget ran out: the helpers stop at their next solver call.
            Err(mpsc::RecvTimeoutError::Timeout) if cx.stopped() => {
                race.budget.cancel();
                return Ok(Outcome::Stopped(Halt::Budget));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            // Both threads are done and neither decided the map.
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Ok(Outcome::Stopped(Halt::Size(undecided.unwrap_or_else(
                    || "a search thread stopped without an answer".to_string(),
                ))))
            }
        }
    }
}

/// A solver call stopped at the budget stops a search as the budget check between
/// calls does.
fn at_budget(result: Result<Outcome, SolverError>) -> Result<Outcome, SolverError> {
    match result {
        Err(SolverError::Interrupted) => Ok(Outcome::Stopped(Halt::Budget)),
        other => other,
    }
}

/// The successor encoding without a move bound: a proof that no game wins, if it is
/// unsatisfiable (`None` when a game exists).
fn any_game_by_successor(board: &Board, cx: &Context) -> Result<Option<Proof>, SolverError> {
    let mut cnf = Cnf::new();
    let _successor = Successor::new(&mut cnf, board, cx.options.card, 0);
    let mut session = Session::new(&cnf);
    session.stop_at(&cx.budget);
    let t = Instant::now();
    let result = session.solve()?;
    if cx.options.verbose {
        eprintln!(
            "successor (parallel): any game: {} in {:.3} s",
            if result.is_some() { "yes" } else { "none" },
            t.elapsed().as_secs_f64()
        );
    }
    Ok(result.is_none().then(no_rolling_path))
}

fn no_rolling_path() -> Proof {
    Proof::Solver {
        encoding: Encoding::Successor,
        detail: "no path through all open cells obeys the rolling rule".to_string(),
    }
}

/// Grows the horizon K from the line-cover bound on one solver; K - 1 unsatisfiable (or
/// below the bound) and K satisfiable makes K the minimum. Each move visits a new cell,
/// so `n - 1` moves bound every game.
fn by_segments(
    board: &Board,
    cx: &Context,
    bound: usize,
    game_found: &AtomicBool,
) -> Result<Outcome, SolverError> {
    let n = board.open_cells().len();
    let verbose = cx.options.verbose;
    let mut cnf = Cnf::new();
    let mut segments = Segments::new(&mut cnf, board);
    // The cover's clauses hold for games of at least one move: a one-cell board has
    // only the empty game.
    if cx.options.cover_tie && n >= 2 {
        let cover = LineCover::new(&mut cnf, board, CardEncoding::Totalizer);
        segments.tie_to_cover(cover);
    }
    let mut session = Session::new(&cnf);
    session.stop_at(&cx.budget);
    for k in bound..n {
        if cx.stopped() {
            return Ok(Outcome::Stopped(Halt::Budget));
        }
        if (k + 1) * n > MAX_CELL_LAYERS {
            let refuted = if k > bound {
                format!("no game of {bound} to {} moves; ", k - 1)
            } else {
                String::new()
            };
            return Ok(Outcome::Stopped(Halt::Size(format!(
                "{refuted}the segments encoding stops before {k} moves on {n} cells to stay \
                 within memory (try --encoding successor)"
            ))));
        }
        while segments.horizon() < k {
            segments.add_move(&mut cnf);
        }
        session.sync(&cnf);
        if verbose {
            eprintln!(
                "segments: horizon {k}: {} variables, {} clauses",
                cnf.num_vars(),
                cnf.num_clauses()
            );
        }
        let complete = segments.complete_after(k);
        let t = Instant::now();
        let r = session.solve_under(&[complete])?;
        if verbose {
            eprintln!(
                "segments: {k} moves: {} in {:.3} s",
                if r.is_some() { "a game" } else { "impossible" },
                t.elapsed().as_secs_f64()
            );
        }
        if r.is_none() {
            cx.progress.at_least(k + 1, "segments encoding");
            continue;
        }
        game_found.store(true, Ordering::SeqCst);
        cx.progress.minimum(k, "segments encoding");
        let Some((plans, all_found)) =
            collect(&mut session, &[complete], cx, |v| segments.decode(v, k))?
        else {
            return Ok(Outcome::Stopped(Halt::Budget));
        };
        return Ok(Outcome::Found {
            moves: k,
            plans,
            all_found,
        });
    }
    Ok(Outcome::Refuted(Proof::Solver {
        encoding: Encoding::Segments,
        detail: format!(
            "no game of {bound} to {} moves visits all {n} open cells (a game has at most {} \
             moves; fewer than {bound} are ruled out by the line cover or the bounded search)",
            n - 1,
            n - 1
        ),
    }))
}

/// One horizon-free formula: unsatisfiable means no game at all; otherwise tighten the
/// move bound under assumptions until it fails.
pub fn by_successor(board: &Board, cx: &Context, lower: usize) -> Result<Outcome, SolverError> {
    at_budget(successor_search(board, cx, lower))
}

fn successor_search(board: &Board, cx: &Context, lower: usize) -> Result<Outcome, SolverError> {
    let n = board.open_cells().len();
    let verbose = cx.options.verbose;
    let mut cap = n.min(4 * (board.rows() + board.cols()));
    loop {
        let mut cnf = Cnf::new();
        let successor = Successor::new(&mut cnf, board, cx.options.card, cap);
        let mut session = Session::new(&cnf);
        session.stop_at(&cx.budget);
        if verbose {
            eprintln!(
                "successor: {} variables, {} clauses (moves counted up to {cap})",
                cnf.num_vars(),
                cnf.num_clauses()
            );
        }
        if cx.stopped() {
            return Ok(Outcome::Stopped(Halt::Budget));
        }
        let t = Instant::now();
        let first = session.solve()?;
        if verbose {
            eprintln!(
                "successor: any game: {} in {:.3} s",
                first.as_ref().map_or("none".to_string(), |v| format!(
                    "{} moves",
                    successor.decode(v).moves.len()
                )),
                t.elapsed().as_secs_f64()
            );
        }
        let Some(values) = first else {
            return Ok(Outcome::Refuted(no_rolling_path()));
        };
        let mut best = successor.decode(&values).moves.len();
        if best >= cap && cap < n {
            // The counter cannot bound this many moves: count further.
            cap = n.min((best + 1) * 2);
            continue;
        }
        while best > lower {
            if cx.stopped() {
                return Ok(Outcome::Stopped(Halt::Budget));
            }
            let bound = successor.at_most(best - 1).expect("best - 1 < cap");
            let t = Instant::now();
            let r = session.solve_under(&[bound])?;
            if verbose {
                eprintln!(
                    "successor: at most {} moves: {} in {:.3} s",
                    best - 1,
                    if r.is_some() { "a game" } else { "impossible" },
                    t.elapsed().as_secs_f64()
                );
            }
            match r {
                Some(values) => best = successor.decode(&values).moves.len(),
                None => break,
            }
        }
        cx.progress.minimum(best, "successor encoding");
        let assumptions: Vec<_> = successor.at_most(best).into_iter().collect();
        let Some((plans, all_found)) =
            collect(&mut session, &assumptions, cx, |v| successor.decode(v))?
        else {
            return Ok(Outcome::Stopped(Halt::Budget));
        };
        return Ok(Outcome::Found {
            moves: best,
            plans,
            all_found,
        });
    }
}
