//! The portfolio: the SAT search and the A* search run side by side on two threads;
//! the first to prove its answer (a push-optimal plan, or unsolvable) wins, and the
//! other is told to stop through its own budget (a child of the level's). A* starts alone and SAT joins it
//! after `HEAD_START` (25 ms) unless A* has proven its answer by then: most levels
//! A* proves within a few milliseconds, and the SAT encoder beside it only slows it.
//!
//! Fewest moves: when SAT wins, its own search for the fewest moves among push-optimal
//! plans goes on under the time left (as with `--method sat`). When A* wins, the
//! fewest-moves search of `moves` runs after it (SAT already told to stop) under the
//! same limits; if that search does not finish, A*'s plan is kept with its moves *not
//! proven fewest*. (Asking SAT for fewer moves at the now known push count would need
//! the SAT horizon at that count, which is exactly what SAT failed to reach first.)

use super::astar;
use super::moves::{self, MovesReport};
use super::sat::{solve_with, EncodingSize, Progress, SatOptions};
use crate::limits::GRACE;
use crate::sokoban::{Limits, Outcome};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// How long A* runs alone before the SAT search starts beside it.
const HEAD_START: std::time::Duration = std::time::Duration::from_millis(25);

/// Solves levels one after another with at most one SAT search alive at a time.
///
/// A SAT call cannot be interrupted, so a SAT search told to stop may run on after its
/// level is decided. Over many levels such stragglers would pile up, each holding a
/// core and its formula; a level whose portfolio finds the previous level's SAT search
/// still running leaves itself to A* alone.
#[derive(Clone, Debug, Default)]
pub struct Portfolio {
    sat_running: Arc<AtomicBool>,
}

/// The right to run the SAT search; held by its thread until the search returns.
struct SatSlot(Arc<AtomicBool>);

impl Portfolio {
    fn claim_sat(&self) -> Option<SatSlot> {
        self.sat_running
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .ok()
            .map(|_| SatSlot(self.sat_running.clone()))
    }
}

impl Drop for SatSlot {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// Which search proved the answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Winner {
    Sat,
    Astar,
}

impl Winner {
    pub fn name(self) -> &'static str {
        match self {
            Winner::Sat => "sat",
            Winner::Astar => "astar",
        }
    }
}

/// What the portfolio found: the outcome, which search proved it (none when both gave
/// up), the SAT formula's size, when push-optimality was proven, and what the
/// fewest-moves search after A* did (when it ran).
pub struct PortfolioResult {
    pub outcome: Outcome,
    pub winner: Option<Winner>,
    pub encoding: EncodingSize,
    pub push_seconds: Option<f64>,
    pub moves: Option<MovesReport>,
}

/// The result when A* proved `outcome`: a solved level's plan goes through the
/// fewest-moves search first.
fn astar_won(
    level: &gridsat_encodings::sokoban::Level,
    limits: &Limits,
    outcome: Outcome,
    encoding: EncodingSize,
    push_seconds: Option<f64>,
) -> PortfolioResult {
    let (outcome, moves) = match outcome {
        Outcome::Solved(solution) => {
            let (solution, report) = moves::improve(level, solution, limits);
            (Outcome::Solved(solution), report)
        }
        other => (other, None),
    };
    PortfolioResult {
        outcome,
        winner: Some(Winner::Astar),
        encoding,
        push_seconds,
        moves,
    }
}

enum Message {
    Sat(Progress),
    SatDone(anyhow::Result<Outcome>),
    AstarDone(Outcome),
}

/// Runs both searches on one level until one proves its answer or the deadline passes.
pub fn solve(
    level: &gridsat_encodings::sokoban::Level,
    limits: &Limits,
    options: SatOptions,
) -> anyhow::Result<PortfolioResult> {
    Portfolio::default().solve(level, limits, options)
}

impl Portfolio {
    /// Runs both searches until one proves its answer or the deadline passes (A* alone
    /// while an earlier level's SAT search is still running).
    pub fn solve(
        &self,
        level: &gridsat_encodings::sokoban::Level,
        limits: &Limits,
        options: SatOptions,
    ) -> anyhow::Result<PortfolioResult> {
        let started = Instant::now();
        let (tx, rx) = mpsc::channel();
        let sat_limits = Limits {
            budget: limits.budget.child(),
            ..limits.clone()
        };
        let astar_limits = Limits {
            budget: limits.budget.child(),
            ..limits.clone()
        };
        let stop_sat = sat_limits.budget.clone();
        let stop_astar = astar_limits.budget.clone();
        let stop_both = || {
            stop_sat.cancel();
            stop_astar.cancel();
        };
        {
            let level = level.clone();
            let tx = tx.clone();
            std::thread::spawn(move || {
                let (outcome, _) = astar::search(&level, &astar_limits);
                let _ = tx.send(Message::AstarDone(outcome));
            });
        }
        // A* alone first for a moment: most levels it proves in a few milliseconds, and
        // starting the SAT encoder beside it would only slow it down.
        let mut pending = rx.recv_timeout(HEAD_START).ok();
        if let Some(Message::AstarDone(outcome)) = &pending {
            if !matches!(outcome, Outcome::GaveUp { .. }) {
                let solved = matches!(outcome, Outcome::Solved(_));
                let Some(Message::AstarDone(outcome)) = pending.take() else {
                    unreachable!("matched above")
                };
                let push_seconds = solved.then(|| started.elapsed().as_secs_f64());
                return Ok(astar_won(
                    level,
                    limits,
                    outcome,
                    EncodingSize::default(),
                    push_seconds,
                ));
            }
        }
        let mut running = 1;
        if let Some(slot) = self.claim_sat() {
            running = 2;
            let level = level.clone();
            std::thread::spawn(move || {
                let _slot = slot;
                let progress_tx = tx.clone();
                let result = solve_with(&level, &sat_limits, options, &mut |p| {
                    let _ = progress_tx.send(Message::Sat(p));
                });
                let _ = tx.send(Message::SatDone(result));
            });
        }
        let mut bound = 0;
        let mut encoding = EncodingSize::default();
        let mut sat_found = None;
        let mut push_seconds = None;
        let mut gave_up: Vec<String> = Vec::new();
        // Which searches are still at work, and what SAT has proven so far: at the time
        // limit each is named with what it did, not only those that stopped on their own.
        let (mut sat_running, mut astar_running) = (running == 2, true);
        let mut sat_bound = 0;
        // Neither search proved anything: the larger bound, and why each stopped.
        let nobody = |reasons: &[String], bound: usize, encoding| PortfolioResult {
            outcome: Outcome::GaveUp {
                reason: if reasons.is_empty() {
                    "time limit".into()
                } else {
                    reasons.join("; ")
                },
                no_plan_below: bound,
            },
            winner: None,
            encoding,
            push_seconds: None,
            moves: None,
        };
        loop {
            let message = match (pending.take(), limits.budget.remaining()) {
                (Some(m), _) => Ok(m),
                (None, None) => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                (None, Some(left)) => rx.recv_timeout(left),
            };
            let elapsed = started.elapsed().as_secs_f64();
            match message {
                Ok(Message::Sat(Progress::NoPlanBelow(b))) => {
                    bound = bound.max(b);
                    sat_bound = sat_bound.max(b);
                }
                Ok(Message::Sat(Progress::Size(s))) => encoding = s,
                Ok(Message::Sat(Progress::Found(s))) => {
                    // SAT proved push-optimality; A* has nothing left to add.
                    stop_astar.cancel();
                    push_seconds.get_or_insert(elapsed);
                    sat_found = Some(s);
                }
                Ok(Message::SatDone(result)) => {
                    running -= 1;
                    sat_running = false;
                    match result? {
                        Outcome::GaveUp {
                            reason,
                            no_plan_below,
                        } if sat_found.is_none() => {
                            bound = bound.max(no_plan_below);
                            gave_up.push(format!("sat: {reason}"));
                            if running == 0 {
                                return Ok(nobody(&gave_up, bound, encoding));
                            }
                        }
                        outcome => {
                            stop_both();
                            if matches!(outcome, Outcome::Solved(_)) {
                                push_seconds.get_or_insert(elapsed);
                            }
                            return Ok(PortfolioResult {
                                outcome,
                                winner: Some(Winner::Sat),
                                encoding,
                                push_seconds,
                                moves: None,
                            });
                        }
                    }
                }
                Ok(Message::AstarDone(outcome)) => {
                    running -= 1;
                    astar_running = false;
                    match outcome {
                        // A cancelled A* after SAT's proof: keep waiting for SAT's moves.
                        Outcome::GaveUp { .. } if sat_found.is_some() => {}
                        Outcome::GaveUp {
                            reason,
                            no_plan_below,
                        } => {
                            bound = bound.max(no_plan_below);
                            gave_up.push(format!("astar: {reason}"));
                            if running == 0 {
                                return Ok(nobody(&gave_up, bound, encoding));
                            }
                        }
                        outcome if sat_found.is_none() => {
                            stop_both();
                            if matches!(outcome, Outcome::Solved(_)) {
                                push_seconds = Some(elapsed);
                            }
                            return Ok(astar_won(level, limits, outcome, encoding, push_seconds));
                        }
                        // SAT proved it first and is still looking for fewer moves.
                        _ => {}
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    stop_both();
                    // A* stops within a few milliseconds of the deadline with its bound (the
                    // least f of its open list); a SAT call may not return for long.
                    let grace = Instant::now() + GRACE;
                    while let Ok(message) =
                        rx.recv_timeout(grace.saturating_duration_since(Instant::now()))
                    {
                        match message {
                            Message::Sat(Progress::NoPlanBelow(b)) => {
                                bound = bound.max(b);
                                sat_bound = sat_bound.max(b);
                            }
                            Message::AstarDone(Outcome::GaveUp { no_plan_below, .. }) => {
                                bound = bound.max(no_plan_below);
                                if astar_running {
                                    gave_up.push(format!(
                                        "astar: time limit, no plan with fewer than \
                                         {no_plan_below} pushes"
                                    ));
                                    astar_running = false;
                                }
                                break;
                            }
                            _ => {}
                        }
                    }
                    if astar_running {
                        gave_up.push("astar: time limit".into());
                    }
                    if sat_running {
                        gave_up.push(if sat_bound > 0 {
                            format!("sat: time limit, no plan with fewer than {sat_bound} pushes")
                        } else {
                            "sat: time limit, before its first horizon was refuted".into()
                        });
                    }
                    return Ok(match sat_found {
                        Some(s) => PortfolioResult {
                            outcome: Outcome::Solved(s),
                            winner: Some(Winner::Sat),
                            encoding,
                            push_seconds,
                            moves: None,
                        },
                        None => nobody(&gave_up, bound, encoding),
                    });
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(crate::error::InternalError::new(
                        "the portfolio's searches stopped without an answer",
                    )
                    .into())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};

    /// Microban 1 (8 pushes) with A* stopped at once by its position limit, so only
    /// SAT can answer.
    fn level_and_limits() -> (gridsat_encodings::sokoban::Level, Limits) {
        let text = include_str!("../../../examples/sokoban/microban-1-10.xsb");
        let level = parse_levels(text, LevelFormat::Auto, Some(1)).unwrap()[0]
            .level
            .clone();
        let limits = Limits {
            max_states: 1,
            max_plans: 1,
            ..Limits::default()
        };
        (level, limits)
    }

    #[test]
    fn a_level_leaves_sat_out_while_an_earlier_sat_search_runs() {
        let (level, limits) = level_and_limits();
        let portfolio = Portfolio::default();
        let straggler = portfolio.claim_sat().expect("the slot starts free");
        let result = portfolio
            .solve(&level, &limits, SatOptions::default())
            .unwrap();
        assert_eq!(result.winner, None);
        assert!(matches!(result.outcome, Outcome::GaveUp { .. }));
        drop(straggler);
        let result = portfolio
            .solve(&level, &limits, SatOptions::default())
            .unwrap();
        assert_eq!(result.winner, Some(Winner::Sat));
        assert!(matches!(result.outcome, Outcome::Solved(_)));
        // The SAT thread gives its slot back when it returns.
        let deadline = Instant::now() + std::time::Duration::from_secs(60);
        while portfolio.claim_sat().is_none() {
            assert!(
                Instant::now() < deadline,
                "the SAT slot was never given back"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}
