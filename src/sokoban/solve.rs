//! The SAT search: static arguments first (a box on a dead square, no matching of boxes
//! to goals), then horizons from the matching lower bound upwards on one incremental
//! solver, each asked under its own assumption. The first satisfiable horizon is the
//! least number of pushes. Then the push-optimal plans are enumerated (each blocked
//! after it is seen) to find the fewest moves among them.

use super::plan::to_lurd;
use super::{Limits, Outcome, Solution};
use crate::solver::{Session, SolverError};
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::sokoban::{analysis, Analysis, Horizon, Level, PlanEncoding, Pruning, Push};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Instant;

/// What the search has established so far, sent as it goes.
#[derive(Clone, Debug)]
pub enum Progress {
    /// Every plan has at least this many pushes.
    NoPlanBelow(usize),
    /// A push-optimal plan (perhaps improved later in moves).
    Found(Solution),
    /// The size of the formula after the last horizon.
    Size(EncodingSize),
}

#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct EncodingSize {
    pub horizon: usize,
    pub variables: usize,
    pub clauses: usize,
    /// Unfounded sets learned (loop clauses added at every step).
    pub loops: usize,
    pub solver_calls: usize,
}

/// Runs the SAT search on a worker thread and waits for it until the deadline, so a
/// long solver call cannot overrun the time limit. On time-out the worker is told to stop
/// and left to finish its current call in the background.
pub fn solve_with_deadline(
    level: &Level,
    limits: &Limits,
    options: SatOptions,
) -> anyhow::Result<(Outcome, EncodingSize, Option<f64>)> {
    let started = Instant::now();
    let mut first_found: Option<f64> = None;
    let (tx, rx) = mpsc::channel();
    let worker_level = level.clone();
    let worker_limits = limits.clone();
    std::thread::spawn(move || {
        let done_tx = tx.clone();
        let result = solve_with(&worker_level, &worker_limits, options, &mut |p| {
            let _ = tx.send(Ok(p));
        });
        let _ = done_tx.send(Err(result));
    });
    let mut bound = 0;
    let mut found: Option<Solution> = None;
    let mut size = EncodingSize::default();
    loop {
        let message = match limits.deadline {
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
        };
        match message {
            Ok(Ok(Progress::NoPlanBelow(b))) => bound = bound.max(b),
            Ok(Ok(Progress::Found(s))) => {
                first_found.get_or_insert(started.elapsed().as_secs_f64());
                found = Some(s)
            }
            Ok(Ok(Progress::Size(s))) => size = s,
            Ok(Err(result)) => return Ok((result?, size, first_found)),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                limits.cancel.store(true, Ordering::Relaxed);
                let outcome = match found {
                    Some(s) => Outcome::Solved(s),
                    None => Outcome::GaveUp {
                        reason: "time limit".into(),
                        no_plan_below: bound,
                    },
                };
                return Ok((outcome, size, first_found));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(crate::error::InternalError::new(
                    "the SAT search stopped without an answer",
                )
                .into())
            }
        }
    }
}

/// What one horizon's question got.
enum Answer {
    Plan(Vec<Push>),
    NoPlan,
    /// The time limit passed before the answer.
    Stopped,
}

/// The incremental solver and the encoding it has been fed so far.
struct Search<'a> {
    encoding: PlanEncoding<'a>,
    session: Session,
    sent: usize,
    calls: usize,
    trace: bool,
}

impl Search<'_> {
    fn flush(&mut self) {
        let cnf = self.encoding.cnf();
        for clause in cnf.clauses().skip(self.sent) {
            self.session.add_clause(clause);
        }
        self.sent = cnf.num_clauses();
    }

    /// A plan for `horizon` whose walks are real, or `NoPlan` when there is none: solves,
    /// and while the model leans on unfounded reachability, learns it and solves again.
    fn real_plan(
        &mut self,
        horizon: Horizon,
        ordered: bool,
        limits: &Limits,
    ) -> Result<Answer, SolverError> {
        let mut assumptions = vec![horizon.goal];
        if ordered {
            assumptions.push(self.encoding.commute());
        }
        loop {
            if limits.expired() {
                return Ok(Answer::Stopped);
            }
            self.flush();
            self.calls += 1;
            let started = Instant::now();
            let answer = self.session.solve_under(&assumptions)?;
            if self.trace {
                eprintln!(
                    "horizon {} call {}: {} in {:.3} s ({} vars, {} clauses, {} loops)",
                    horizon.pushes,
                    self.calls,
                    if answer.is_some() { "SAT" } else { "UNSAT" },
                    started.elapsed().as_secs_f64(),
                    self.encoding.cnf().num_vars(),
                    self.encoding.cnf().num_clauses(),
                    self.encoding.loops()
                );
            }
            let Some(values) = answer else {
                return Ok(Answer::NoPlan);
            };
            let sets = self.encoding.unfounded_sets(&values, horizon.pushes);
            if sets.is_empty() {
                return Ok(Answer::Plan(self.encoding.decode(&values, horizon.pushes)));
            }
            for set in sets {
                self.encoding.forbid_unfounded(set);
            }
        }
    }

    fn size(&self, horizon: usize) -> EncodingSize {
        EncodingSize {
            horizon,
            variables: self.encoding.cnf().num_vars(),
            clauses: self.encoding.cnf().num_clauses(),
            loops: self.encoding.loops(),
            solver_calls: self.calls,
        }
    }
}

/// Knobs of the SAT search, for measurements: which optional clause families to add
/// (each is sound, so the answer never depends on them; only the time does) and whether
/// to print every solver call (horizon, answer, time, size) on standard error.
#[derive(Copy, Clone, Debug, Default)]
pub struct SatOptions {
    pub pruning: Pruning,
    pub trace: bool,
}

/// A proof that no plan exists, from the static analysis alone.
pub fn static_unsolvable(level: &Level, analysis: &Analysis) -> Option<String> {
    for &b in level.boxes() {
        if analysis.dead[b] {
            let p = level.position(b);
            return Some(format!(
                "the box at row {}, column {} can never be pushed onto a goal",
                p.row + 1,
                p.col + 1
            ));
        }
    }
    if analysis.lower_bound.is_none() {
        return Some("the boxes cannot be matched to distinct goals they can each reach".into());
    }
    None
}

/// More than this many pushes would repeat a position, which a shortest plan never does:
/// C(live squares, boxes) box placements times the player's squares.
fn position_count(level: &Level, analysis: &Analysis) -> u128 {
    let live = analysis.dead.iter().filter(|d| !**d).count() as u128;
    let boxes = level.boxes().len() as u128;
    let mut placements: u128 = 1;
    for i in 0..boxes {
        placements = placements.saturating_mul(live.saturating_sub(i)) / (i + 1);
    }
    placements.saturating_mul(level.num_cells() as u128)
}

/// The SAT search; `progress` hears every bound and plan as soon as it is proven.
pub fn solve(
    level: &Level,
    limits: &Limits,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<Outcome> {
    solve_with(level, limits, SatOptions::default(), progress)
}

/// The SAT search with a chosen set of pruning clause families (for tests and
/// measurements; every family is sound, so the answer never depends on the choice).
pub fn solve_with_pruning(
    level: &Level,
    limits: &Limits,
    pruning: Pruning,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<Outcome> {
    let options = SatOptions {
        pruning,
        trace: false,
    };
    solve_with(level, limits, options, progress)
}

/// The SAT search with the given knobs.
pub fn solve_with(
    level: &Level,
    limits: &Limits,
    options: SatOptions,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<Outcome> {
    let SatOptions { pruning, trace } = options;
    let analysis = Analysis::new(level);
    if let Some(reason) = static_unsolvable(level, &analysis) {
        return Ok(Outcome::Unsolvable { reason });
    }
    let lower_bound = analysis.lower_bound.expect("checked above") as usize;
    if lower_bound == 0 {
        return Ok(Outcome::Solved(Solution::push_optimal(Vec::new(), true)));
    }
    progress(Progress::NoPlanBelow(lower_bound));
    let positions = position_count(level, &analysis);
    let mut search = Search {
        encoding: PlanEncoding::with_pruning(level, &analysis, pruning),
        session: Session::new(&Cnf::new()),
        sent: 0,
        calls: 0,
        trace,
    };
    // Horizons of the wrong parity need no solver call: no plan has that many pushes.
    let parity = analysis::push_parity(level);
    let first = match parity {
        Some(p) if lower_bound % 2 != p => lower_bound + 1,
        _ => lower_bound,
    };
    let stride = if parity.is_some() { 2 } else { 1 };
    if first > lower_bound {
        progress(Progress::NoPlanBelow(first));
    }
    for horizon in (first..).step_by(stride) {
        if horizon as u128 >= positions {
            return Ok(Outcome::Unsolvable {
                reason: format!(
                    "no plan has fewer than {horizon} pushes, and a shortest plan never repeats one of the at most {positions} positions"
                ),
            });
        }
        if limits.max_pushes.is_some_and(|m| horizon > m) {
            return Ok(Outcome::GaveUp {
                reason: "push limit".into(),
                no_plan_below: horizon,
            });
        }
        if search.encoding.cnf().num_clauses() > limits.max_clauses {
            return Ok(Outcome::GaveUp {
                reason: format!("size limit ({} clauses)", limits.max_clauses),
                no_plan_below: horizon,
            });
        }
        if limits.expired() {
            return Ok(Outcome::GaveUp {
                reason: "time limit".into(),
                no_plan_below: horizon,
            });
        }
        search.encoding.extend_to(horizon);
        let h = search.encoding.horizon(horizon);
        progress(Progress::Size(search.size(horizon)));
        let answer = search.real_plan(h, true, limits)?;
        progress(Progress::Size(search.size(horizon)));
        let plan = match answer {
            Answer::Plan(plan) => plan,
            Answer::NoPlan => {
                progress(Progress::NoPlanBelow(horizon + stride));
                continue;
            }
            Answer::Stopped => {
                return Ok(Outcome::GaveUp {
                    reason: "time limit".into(),
                    no_plan_below: horizon,
                })
            }
        };
        // Push-optimal. Now the fewest moves among plans with this many pushes.
        let moves = |plan: &[Push]| to_lurd(level, plan).map(|s| s.chars().count());
        let mut best = plan;
        let mut best_moves =
            moves(&best).map_err(|e| crate::error::InternalError::new(e.to_string()))?;
        progress(Progress::Found(Solution::push_optimal(best.clone(), false)));
        let mut last = best.clone();
        let mut compared = 1;
        let exhausted = loop {
            if compared >= limits.max_plans || limits.expired() {
                break false;
            }
            search.encoding.block_plan(&last);
            let other = match search.real_plan(h, false, limits)? {
                Answer::Plan(other) => other,
                Answer::NoPlan => break true,
                Answer::Stopped => break false,
            };
            compared += 1;
            let m = moves(&other).map_err(|e| crate::error::InternalError::new(e.to_string()))?;
            if m < best_moves {
                best_moves = m;
                best = other.clone();
                progress(Progress::Found(Solution::push_optimal(best.clone(), false)));
            }
            last = other;
        };
        progress(Progress::Size(search.size(horizon)));
        return Ok(Outcome::Solved(Solution::push_optimal(best, exhausted)));
    }
    unreachable!("the horizon loop only ends by returning")
}
