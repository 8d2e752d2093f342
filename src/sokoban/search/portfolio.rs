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
//!
//! When the proof is not in sight (a twelfth of the time limit gone, or A* given up),
//! the quick search joins as a third thread and SAT's thread yields its core to it: if
//! nothing is proven by the end, its best plan is the answer, with the bound beside it
//! (see `QUICK_JOINS_AT`). Each plan it finds is A*'s ceiling from then on
//! (`Limits::known`).

use super::astar;
use super::moves::{self, MovesReport};
use super::quick::plans::{
    plans, unproven_outcome, BestPlan, Improve, QuickEvent, QuickReport, Yielding,
};
use super::quick::{turns, Options};
use super::sat::{solve_with, EncodingSize, Progress, SatOptions};
use crate::limits::GRACE;
use crate::priority::Courtesy;
use crate::sokoban::{Known, Limits, Outcome};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// How long A* runs alone before the SAT search starts beside it.
const HEAD_START: std::time::Duration = std::time::Duration::from_millis(25);

/// The share of the time limit after which, without a proof, the quick search joins A*
/// and SAT (it also joins as soon as A* gives up, whose core it then takes). Most
/// levels are proven long before; on the others a player gets a plan to play with the
/// bound beside it, instead of nothing, and A* a ceiling. Without a time limit it joins
/// only when A* gives up. A twelfth (5 s at 60 s): SAT's thread yields its core to it,
/// so it costs A* nothing, and the sooner its plan is A*'s ceiling the better (Microban
/// II, 2026-12-07: 109 proven in 54.1 s against 57.7 s at a quarter; 126 in 27.1 s
/// against 26.9 s, 104 in 16.1 against 16.6, 120 in 7.6 against 8.5). At a quarter
/// without the yielding, an earlier join cost A* a third of a core: 126 in 40.4 s
/// against 31.6 s.
const QUICK_JOINS_AT: f64 = 1.0 / 12.0;

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
    /// The quick search's plans, when it joined.
    pub quick: Option<QuickReport>,
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
        quick: None,
    }
}

enum Message {
    Sat(Progress),
    SatDone(anyhow::Result<Outcome>),
    AstarDone(Outcome),
    Quick(QuickEvent),
}

/// Runs both searches on one level until one proves its answer or the deadline passes.
pub fn solve(
    level: &gridsat_encodings::sokoban::Level,
    limits: &Limits,
    options: SatOptions,
) -> anyhow::Result<PortfolioResult> {
    Portfolio::default().solve(level, limits, options)
}

/// What the portfolio has gathered while its searches run: the bound and who proved
/// it, SAT's proof and formula, the quick search's plans, and why each search stopped.
#[derive(Default)]
struct Gathered {
    bound: usize,
    bound_by: Option<Winner>,
    /// SAT's own bound (its refuted horizons), named in its reason at the time limit.
    sat_bound: usize,
    encoding: EncodingSize,
    sat_found: Option<crate::sokoban::Solution>,
    push_seconds: Option<f64>,
    plans: BestPlan,
    reasons: Vec<String>,
}

impl Gathered {
    fn raise(&mut self, bound: usize, by: Winner) {
        if bound > self.bound {
            self.bound = bound;
            self.bound_by = Some(by);
        }
    }

    /// True when the bound reaches the quick search's best plan: it is push-optimal.
    fn plan_proven(&self) -> bool {
        self.plans.pushes() <= self.bound
    }

    /// Nobody proved anything: the quick search's best plan with the bound beside it
    /// (push-optimal when the bound reaches it), else giving up with the bound and why
    /// each search stopped.
    fn finish(self, started: Instant) -> PortfolioResult {
        let (best, quick) = self.plans.finish();
        let outcome = unproven_outcome(best, self.bound, &self.reasons);
        let proven = matches!(&outcome, Outcome::Solved(s) if s.push_optimal);
        let winner = self.bound_by.filter(|_| proven);
        PortfolioResult {
            push_seconds: winner.map(|_| started.elapsed().as_secs_f64()),
            outcome,
            winner,
            encoding: self.encoding,
            moves: None,
            quick,
        }
    }
}

impl Portfolio {
    /// Runs both searches until one proves its answer or the deadline passes (A* alone
    /// while an earlier level's SAT search is still running), with the quick search
    /// joining them when the proof is not in sight (see `QUICK_JOINS_AT`).
    pub fn solve(
        &self,
        level: &gridsat_encodings::sokoban::Level,
        limits: &Limits,
        options: SatOptions,
    ) -> anyhow::Result<PortfolioResult> {
        let started = Instant::now();
        let (tx, rx) = mpsc::channel();
        // The plans the quick search finds, shared with A* (see `Limits::known`).
        let known = Known::default();
        let child = || Limits {
            budget: limits.budget.child(),
            known: known.clone(),
            ..limits.clone()
        };
        let (sat_limits, astar_limits, quick_limits) = (child(), child(), child());
        let stop_sat = sat_limits.budget.clone();
        let stop_astar = astar_limits.budget.clone();
        let stop_quick = quick_limits.budget.clone();
        let stop_all = || {
            stop_sat.cancel();
            stop_astar.cancel();
            stop_quick.cancel();
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
        let mut sat_running = false;
        // SAT's thread, whose priority drops when the quick search joins (see
        // `QUICK_JOINS_AT`).
        let sat_thread = Courtesy::default();
        if let Some(slot) = self.claim_sat() {
            sat_running = true;
            let level = level.clone();
            let tx = tx.clone();
            let sat_thread = sat_thread.clone();
            std::thread::spawn(move || {
                sat_thread.here();
                let _slot = slot;
                let progress_tx = tx.clone();
                let result = solve_with(&level, &sat_limits, options, &mut |p| {
                    let _ = progress_tx.send(Message::Sat(p));
                });
                let _ = tx.send(Message::SatDone(result));
            });
        }
        // The quick search: started once, at `joins` or when A* gives up. SAT, which
        // has proven nothing by then and whose solver calls cannot be interrupted, gives
        // it its core: it runs on only where a core is idle (most levels SAT proves, it
        // proves in the first seconds, and on the hard ones A* is ahead of it).
        let mut quick = Some(move || {
            sat_thread.lower();
            let level = level.clone();
            std::thread::spawn(move || {
                // Three threads on two cores: the quick one leaves the last step to A*
                // and SAT.
                let improve = match quick_limits.budget.deadline() {
                    Some(_) => Improve::UntilNearBound,
                    None => Improve::No,
                };
                let searches = turns::portfolio_thread(Options::default());
                plans(
                    &level,
                    &quick_limits,
                    &searches,
                    improve,
                    started,
                    |event| tx.send(Message::Quick(event)).is_ok(),
                )
            });
        });
        let joins = limits.budget.deadline().map(|deadline| {
            started
                + deadline
                    .saturating_duration_since(started)
                    .mul_f64(QUICK_JOINS_AT)
        });
        let (mut astar_running, mut quick_running) = (true, false);
        let mut got = Gathered::default();
        let mut yielding = Yielding::new(level);
        loop {
            let now = Instant::now();
            let poll = yielding.next_look(quick_running);
            let wait = [
                limits.budget.deadline(),
                joins.filter(|_| quick.is_some()),
                poll,
            ]
            .into_iter()
            .flatten()
            .min()
            .map(|t| t.saturating_duration_since(now));
            let message = match (pending.take(), wait) {
                (Some(m), _) => Ok(m),
                (None, None) => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                (None, Some(wait)) => rx.recv_timeout(wait),
            };
            let elapsed = started.elapsed().as_secs_f64();
            match message {
                Ok(Message::Sat(Progress::NoPlanBelow(b))) => {
                    got.raise(b, Winner::Sat);
                    got.sat_bound = got.sat_bound.max(b);
                }
                Ok(Message::Sat(Progress::Size(s))) => got.encoding = s,
                Ok(Message::Sat(Progress::Found(s))) => {
                    // SAT proved push-optimality; A* and the quick search have nothing
                    // left to add.
                    got.plans.agrees_with(&Outcome::Solved(s.clone()), "SAT")?;
                    stop_astar.cancel();
                    stop_quick.cancel();
                    got.push_seconds.get_or_insert(elapsed);
                    got.sat_found = Some(s);
                }
                Ok(Message::SatDone(result)) => {
                    sat_running = false;
                    match result? {
                        Outcome::GaveUp {
                            reason,
                            no_plan_below,
                        } if got.sat_found.is_none() => {
                            got.raise(no_plan_below, Winner::Sat);
                            got.reasons.push(format!("sat: {reason}"));
                        }
                        outcome => {
                            got.plans.agrees_with(&outcome, "SAT")?;
                            stop_all();
                            if matches!(outcome, Outcome::Solved(_)) {
                                got.push_seconds.get_or_insert(elapsed);
                            }
                            return Ok(PortfolioResult {
                                outcome,
                                winner: Some(Winner::Sat),
                                encoding: got.encoding,
                                push_seconds: got.push_seconds,
                                moves: None,
                                quick: got.plans.finish().1,
                            });
                        }
                    }
                }
                Ok(Message::AstarDone(outcome)) => {
                    astar_running = false;
                    match outcome {
                        // A cancelled A* after SAT's proof: keep waiting for SAT's moves.
                        Outcome::GaveUp { .. } if got.sat_found.is_some() => {}
                        Outcome::GaveUp {
                            reason,
                            no_plan_below,
                        } => {
                            got.raise(no_plan_below, Winner::Astar);
                            got.reasons.push(format!("astar: {reason}"));
                            // A*'s core is free: the quick search takes it.
                            if let Some(start) = quick.take().filter(|_| may_join(limits, &got)) {
                                start();
                                quick_running = true;
                            }
                        }
                        outcome if got.sat_found.is_none() => {
                            got.plans.agrees_with(&outcome, "A*")?;
                            stop_all();
                            let push_seconds =
                                matches!(outcome, Outcome::Solved(_)).then_some(elapsed);
                            let mut won =
                                astar_won(level, limits, outcome, got.encoding, push_seconds);
                            won.quick = got.plans.finish().1;
                            return Ok(won);
                        }
                        // SAT proved it first and is still looking for fewer moves.
                        _ => {}
                    }
                }
                Ok(Message::Quick(QuickEvent::Plan(plan, seconds))) => {
                    got.plans.offer(plan, seconds);
                    yielding.plan_found();
                    // Without a deadline the first plan ends the level, as with --quick.
                    if limits.budget.deadline().is_none() {
                        stop_all();
                        if astar_running {
                            wait_for_astar(&rx, &mut got);
                        }
                        return Ok(got.finish(started));
                    }
                }
                Ok(Message::Quick(QuickEvent::Done(reason, stats))) => {
                    quick_running = false;
                    got.plans.searched(stats);
                    got.reasons.push(format!("quick: {reason}"));
                }
                Err(mpsc::RecvTimeoutError::Timeout) if !limits.expired() => {
                    // A twelfth of the time has passed without a proof.
                    let due = joins.is_some_and(|at| Instant::now() >= at);
                    if let Some(start) = quick.take().filter(|_| due && may_join(limits, &got)) {
                        start();
                        quick_running = true;
                    }
                    if quick_running && yielding.due(&known) {
                        stop_quick.cancel();
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    stop_all();
                    // A* stops within a few milliseconds of the deadline with its bound (the
                    // least f of its open list); a SAT call may not return for long.
                    if astar_running {
                        wait_for_astar(&rx, &mut got);
                        if got.reasons.iter().all(|r| !r.starts_with("astar")) {
                            got.reasons.push("astar: time limit".into());
                        }
                    }
                    if sat_running && got.sat_found.is_none() {
                        got.reasons.push(if got.sat_bound > 0 {
                            format!(
                                "sat: time limit, no plan with fewer than {} pushes",
                                got.sat_bound
                            )
                        } else {
                            "sat: time limit, before its first horizon was refuted".into()
                        });
                    }
                    if quick_running {
                        got.reasons.push("quick: time limit".into());
                    }
                    return Ok(match got.sat_found.take() {
                        Some(s) => PortfolioResult {
                            outcome: Outcome::Solved(s),
                            winner: Some(Winner::Sat),
                            encoding: got.encoding,
                            push_seconds: got.push_seconds,
                            moves: None,
                            quick: got.plans.finish().1,
                        },
                        None => got.finish(started),
                    });
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(crate::error::InternalError::new(
                        "the portfolio's searches stopped without an answer",
                    )
                    .into())
                }
            }
            // Every search has stopped, or the bound has reached the quick plan.
            let all_stopped = !sat_running && !astar_running && !quick_running;
            if got.sat_found.is_none() && (all_stopped || got.plan_proven()) {
                stop_all();
                return Ok(got.finish(started));
            }
        }
    }
}

/// Whether the quick search may still join: not once the level's budget has ended,
/// nor once the bound is past `--max-pushes` (no plan it may print is left to find).
fn may_join(limits: &Limits, got: &Gathered) -> bool {
    !limits.expired() && limits.max_pushes.is_none_or(|m| got.bound <= m)
}

/// A* was told to stop: it answers within a few milliseconds (`GRACE` at most) with its
/// bound, the least f of its open list; plans and SAT's bounds arriving meanwhile count.
fn wait_for_astar(rx: &mpsc::Receiver<Message>, got: &mut Gathered) {
    let grace = Instant::now() + GRACE;
    while let Ok(message) = rx.recv_timeout(grace.saturating_duration_since(Instant::now())) {
        match message {
            Message::Sat(Progress::NoPlanBelow(b)) => {
                got.raise(b, Winner::Sat);
                got.sat_bound = got.sat_bound.max(b);
            }
            Message::Quick(QuickEvent::Plan(plan, seconds)) => got.plans.offer(plan, seconds),
            Message::Quick(QuickEvent::Done(_, stats)) => got.plans.searched(stats),
            Message::AstarDone(Outcome::GaveUp { no_plan_below, .. }) => {
                got.raise(no_plan_below, Winner::Astar);
                got.reasons.push(format!(
                    "astar: time limit, no plan with fewer than {no_plan_below} pushes"
                ));
                return;
            }
            Message::AstarDone(_) => return,
            _ => {}
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
