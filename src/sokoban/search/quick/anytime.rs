//! `--quick`: a plan first, then shorter plans and a proof while time remains.
//!
//! Two threads, on the machine's two cores. One runs the quick search (the parent
//! module) for any plan; with a deadline it then searches again for a plan with fewer
//! pushes than the best so far (`Options::below`), and again, until a search finds none
//! or the time is up: later, shorter plans replace the first. The other runs A*, which
//! proves: a push-optimal plan or unsolvable ends everything at once, and when it is
//! stopped it leaves its bound (the least `f` of its open list), the bound printed
//! beside a plan it could not prove.
//!
//! A* hands its core over when it has proven nothing and no plan is found by a twelfth of
//! the time limit (30 s without one), or when it gives up earlier: it is stopped, its
//! bound kept, and a second quick thread takes the core with the searches that need
//! more time than their turns in the first give them (`turns::second_thread`). A level
//! with no plan by then is one A* would have to solve optimally to help with, far
//! harder than any plan.
//!
//! Without a deadline the first plan ends the level: A* is stopped and its bound taken.
//! A plan whose pushes the bound reaches is push-optimal after all, and says so.

use super::plans::{plans, unproven_outcome, BestPlan, Improve, QuickEvent, QuickReport, Yielding};
use super::{turns, Options};
use crate::limits::GRACE;
use crate::sokoban::search::astar::{self, SearchStats};
use crate::sokoban::search::moves::{self, MovesReport};
use crate::sokoban::{Known, Limits, Outcome};
use gridsat_encodings::sokoban::{Analysis, Level};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The share of the time limit after which A*, with nothing proven and no plan found,
/// hands its core to the second quick thread: a twelfth (5 s at 60 s), since the box
/// moves plan XSokoban 74 after 43 s alone, and slower with the other core busy. A*
/// proves no XSokoban level that has no plan by then (the quick thread plans the levels
/// it proves within a second), and its bound grows slowly after the first seconds.
const HANDOVER_AT: f64 = 1.0 / 12.0;

/// When A* hands its core over without a time limit.
const HANDOVER_WITHOUT_DEADLINE: Duration = Duration::from_secs(30);

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
    // The plans the quick search finds, shared with A* (see `Limits::known`).
    let known = Known::default();
    let child = || Limits {
        budget: limits.budget.child(),
        known: known.clone(),
        ..limits.clone()
    };
    let (astar_limits, quick_limits, second_limits) = (child(), child(), child());
    let stop_astar = astar_limits.budget.clone();
    let stop_quick = [quick_limits.budget.clone(), second_limits.budget.clone()];
    let stop_quick = || stop_quick.iter().for_each(|b| b.cancel());
    {
        let (level, tx) = (level.clone(), tx.clone());
        std::thread::spawn(move || {
            let (outcome, stats) = astar::search(&level, &astar_limits);
            let _ = tx.send(Message::Astar(outcome, stats));
        });
    }
    let quick_thread = |searches: Vec<Options>, limits: Limits| {
        let (level, tx) = (level.clone(), tx.clone());
        std::thread::spawn(move || {
            let improve = if improve {
                Improve::Always
            } else {
                Improve::No
            };
            plans(&level, &limits, &searches, improve, started, |event| {
                tx.send(Message::Quick(event)).is_ok()
            })
        });
    };
    quick_thread(
        turns::quick_thread(Options::default()).to_vec(),
        quick_limits,
    );
    let mut quick_running = 1;
    // The second quick thread, until it starts.
    let mut second = Some(second_limits);
    let handover = started
        + limits
            .budget
            .deadline()
            .map_or(HANDOVER_WITHOUT_DEADLINE, |d| {
                d.saturating_duration_since(started).mul_f64(HANDOVER_AT)
            });
    let hand_over = |run: &mut Run, second: &mut Option<Limits>| {
        if let Some(limits) = second.take().filter(|_| !run.plans.is_some()) {
            quick_thread(turns::second_thread(Options::default()).to_vec(), limits);
            run.handed_over = true;
            1
        } else {
            0
        }
    };
    let mut run = Run {
        bound: Analysis::new(level).lower_bound.unwrap_or(0) as usize,
        ..Run::default()
    };
    let mut astar_done = false;
    let mut yielding = Yielding::new(level);
    loop {
        let poll = yielding.next_look(quick_running > 0 && !astar_done);
        let wake = [
            limits.budget.deadline(),
            second.as_ref().map(|_| handover),
            poll,
        ]
        .into_iter()
        .flatten()
        .min();
        let message = match wake {
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
        };
        match message {
            Ok(Message::Quick(QuickEvent::Done(reason, stats))) => {
                quick_running -= 1;
                run.plans.searched(stats);
                run.reasons.push(format!("quick: {reason}"));
                if astar_done && quick_running == 0 {
                    return Ok(run.finish(started));
                }
            }
            Ok(Message::Quick(QuickEvent::Plan(plan, seconds))) => {
                run.plans.offer(plan, seconds);
                yielding.plan_found();
                if !improve {
                    stop_astar.cancel();
                    stop_quick();
                    run.wait_for_stopped(&rx, !astar_done, quick_running);
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
                        if !run.handed_over {
                            run.reasons.push(format!("astar: {reason}"));
                        }
                        // Past --max-pushes the quick search has nothing left to find.
                        let beyond = limits.max_pushes.is_some_and(|m| run.bound > m);
                        if beyond || run.bound >= run.plans.pushes() {
                            stop_quick();
                            return Ok(run.finish(started));
                        }
                        // A* gave up before the handover: its core is free now.
                        quick_running += hand_over(&mut run, &mut second);
                        if quick_running == 0 {
                            return Ok(run.finish(started));
                        }
                    }
                    proven => {
                        stop_quick();
                        return run.proven(level, limits, proven, started);
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) if !limits.budget.expired() => {
                if !astar_done && yielding.due(&known) {
                    stop_quick();
                }
                if second.is_none() || Instant::now() < handover {
                    continue;
                }
                // The handover: A* is told to stop (it answers with its bound).
                if !run.plans.is_some() && !astar_done {
                    stop_astar.cancel();
                    quick_running += hand_over(&mut run, &mut second);
                    let searches = turns::second_thread(Options::default()).map(|o| o.name());
                    let noun = if searches.len() == 1 {
                        "search"
                    } else {
                        "searches"
                    };
                    run.reasons.push(format!(
                        "astar: stopped after {:.0} s without a plan, for the {noun} {}",
                        started.elapsed().as_secs_f64(),
                        searches.join(" and ")
                    ));
                }
                second = None;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                stop_quick();
                stop_astar.cancel();
                run.wait_for_stopped(&rx, !astar_done, quick_running);
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
    /// Whether A* handed its core to the second quick thread.
    handed_over: bool,
}

impl Run {
    /// The threads still running were told to stop: they answer within a few
    /// milliseconds, A* (when `astar`) with its bound, each of the `quick` threads with
    /// what its searches did (for the report's positions).
    fn wait_for_stopped(
        &mut self,
        rx: &mpsc::Receiver<Message>,
        mut astar: bool,
        mut quick: usize,
    ) {
        let grace = Instant::now() + GRACE;
        while astar || quick > 0 {
            let left = grace.saturating_duration_since(Instant::now());
            let Ok(message) = rx.recv_timeout(left) else {
                return;
            };
            match message {
                Message::Astar(outcome, stats) => {
                    astar = false;
                    self.search = Some(stats);
                    match outcome {
                        Outcome::GaveUp { no_plan_below, .. } => {
                            self.bound = self.bound.max(no_plan_below)
                        }
                        // Proven in the last moment: the bound is the optimum.
                        Outcome::Solved(s) => self.bound = self.bound.max(s.pushes.len()),
                        Outcome::Unsolvable { .. } => {}
                    }
                }
                Message::Quick(QuickEvent::Plan(plan, seconds)) => self.plans.offer(plan, seconds),
                Message::Quick(QuickEvent::Done(_, stats)) => {
                    quick = quick.saturating_sub(1);
                    self.plans.searched(stats);
                }
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
