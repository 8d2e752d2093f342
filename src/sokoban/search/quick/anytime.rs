//! `--quick`: a plan first, then shorter plans and a proof while time remains.
//!
//! Two threads. One runs the quick search (the parent module) for any plan; with a
//! deadline it then searches again for a plan with fewer pushes than the best so far
//! (`Options::below`), and again, until a search finds none or the time is up: later,
//! shorter plans replace the first. The other runs A*, which proves: a push-optimal plan
//! or unsolvable ends everything at once, and when it is stopped it leaves its bound (the
//! least `f` of its open list), the bound printed beside a plan it could not prove.
//!
//! Without a deadline the first plan ends the level: A* is stopped and its bound taken.
//! A plan whose pushes the bound reaches is push-optimal after all, and says so.

use super::plans::{plans, unproven_outcome, BestPlan, QuickEvent, QuickReport};
use crate::limits::GRACE;
use crate::sokoban::search::astar::{self, SearchStats};
use crate::sokoban::search::moves::{self, MovesReport};
use crate::sokoban::{Limits, Outcome};
use gridsat_encodings::sokoban::{Analysis, Level};
use std::sync::mpsc;
use std::time::Instant;

/// What `solve` found and how.
pub struct Anytime {
    pub outcome: Outcome,
    /// "astar" when A* proved the outcome (or the bound met the plan).
    pub proved_by: Option<&'static str>,
    /// When push-optimality was proven.
    pub push_seconds: Option<f64>,
    pub moves: Option<MovesReport>,
    pub quick: Option<QuickReport>,
    pub search: Option<SearchStats>,
}

enum Message {
    Quick(QuickEvent),
    Astar(Outcome, SearchStats),
}

/// Runs the quick search and A* on `level` side by side; see the module comment.
pub fn solve(level: &Level, limits: &Limits) -> anyhow::Result<Anytime> {
    let started = Instant::now();
    let improve = limits.budget.deadline().is_some();
    let (tx, rx) = mpsc::channel();
    let astar_limits = Limits {
        budget: limits.budget.child(),
        ..limits.clone()
    };
    let quick_limits = Limits {
        budget: limits.budget.child(),
        ..limits.clone()
    };
    let (stop_astar, stop_quick) = (astar_limits.budget.clone(), quick_limits.budget.clone());
    {
        let (level, tx) = (level.clone(), tx.clone());
        std::thread::spawn(move || {
            let (outcome, stats) = astar::search(&level, &astar_limits);
            let _ = tx.send(Message::Astar(outcome, stats));
        });
    }
    {
        let level = level.clone();
        std::thread::spawn(move || {
            plans(&level, &quick_limits, improve, started, |event| {
                tx.send(Message::Quick(event)).is_ok()
            })
        });
    }
    let mut run = Run {
        bound: Analysis::new(level).lower_bound.unwrap_or(0) as usize,
        ..Run::default()
    };
    let (mut quick_done, mut astar_done) = (false, false);
    loop {
        let message = match limits.budget.remaining() {
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            Some(left) => rx.recv_timeout(left),
        };
        match message {
            Ok(Message::Quick(QuickEvent::Done(reason, stats))) => {
                quick_done = true;
                run.plans.searched(stats);
                run.reasons.push(format!("quick: {reason}"));
                if astar_done {
                    return Ok(run.finish(started));
                }
            }
            Ok(Message::Quick(QuickEvent::Plan(plan, seconds))) => {
                run.plans.offer(plan, seconds);
                if !improve {
                    stop_astar.cancel();
                    run.wait_for_astar(&rx);
                    return Ok(run.finish(started));
                }
            }
            Ok(Message::Astar(outcome, stats)) => {
                astar_done = true;
                run.search = Some(stats);
                match outcome {
                    Outcome::GaveUp {
                        reason,
                        no_plan_below,
                    } => {
                        run.bound = run.bound.max(no_plan_below);
                        run.reasons.push(format!("astar: {reason}"));
                        // Past --max-pushes the quick search has nothing left to find.
                        let beyond = limits.max_pushes.is_some_and(|m| run.bound > m);
                        if quick_done || beyond || run.bound >= run.plans.pushes() {
                            stop_quick.cancel();
                            return Ok(run.finish(started));
                        }
                    }
                    proven => {
                        stop_quick.cancel();
                        return run.proven(level, limits, proven, started);
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                stop_quick.cancel();
                stop_astar.cancel();
                if !astar_done {
                    run.wait_for_astar(&rx);
                }
                return Ok(run.finish(started));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(crate::error::InternalError::new(
                    "the quick search and A* stopped without an answer",
                )
                .into())
            }
        }
    }
}

/// What the main thread has gathered.
#[derive(Default)]
struct Run {
    plans: BestPlan,
    bound: usize,
    reasons: Vec<String>,
    search: Option<SearchStats>,
}

impl Run {
    /// A* was told to stop: it answers within a few milliseconds with its bound.
    fn wait_for_astar(&mut self, rx: &mpsc::Receiver<Message>) {
        let grace = Instant::now() + GRACE;
        while let Ok(message) = rx.recv_timeout(grace.saturating_duration_since(Instant::now())) {
            match message {
                Message::Astar(outcome, stats) => {
                    self.search = Some(stats);
                    match outcome {
                        Outcome::GaveUp { no_plan_below, .. } => {
                            self.bound = self.bound.max(no_plan_below)
                        }
                        // Proven in the last moment: the bound is the optimum.
                        Outcome::Solved(s) => self.bound = self.bound.max(s.pushes.len()),
                        Outcome::Unsolvable { .. } => {}
                    }
                    return;
                }
                Message::Quick(QuickEvent::Plan(plan, seconds)) => self.plans.offer(plan, seconds),
                Message::Quick(QuickEvent::Done(_, stats)) => self.plans.searched(stats),
            }
        }
    }

    /// The outcome from the best plan and the bound (gave up without a plan).
    fn finish(self, started: Instant) -> Anytime {
        let (best, quick) = self.plans.finish();
        let outcome = unproven_outcome(best, self.bound, &self.reasons);
        let proven = matches!(&outcome, Outcome::Solved(s) if s.push_optimal);
        let proved_by = proven.then_some("astar");
        Anytime {
            push_seconds: proved_by.map(|_| started.elapsed().as_secs_f64()),
            outcome,
            proved_by,
            moves: None,
            quick,
            search: self.search,
        }
    }

    /// A* proved `outcome`: a plan goes through the fewest-moves search, as after A*
    /// alone. A quick plan shorter than A*'s optimum, or beside a proof of
    /// unsolvability, is a bug.
    fn proven(
        self,
        level: &Level,
        limits: &Limits,
        outcome: Outcome,
        started: Instant,
    ) -> anyhow::Result<Anytime> {
        let push_seconds = Some(started.elapsed().as_secs_f64());
        self.plans.agrees_with(&outcome, "A*")?;
        let solved = matches!(outcome, Outcome::Solved(_));
        let (outcome, moves) = match outcome {
            Outcome::Solved(solution) => {
                let (solution, report) = moves::improve(level, solution, limits);
                (Outcome::Solved(solution), report)
            }
            other => (other, None),
        };
        Ok(Anytime {
            outcome,
            proved_by: Some("astar"),
            push_seconds: push_seconds.filter(|_| solved),
            moves,
            quick: self.plans.finish().1,
            search: self.search,
        })
    }
}
