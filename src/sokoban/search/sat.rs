//! The SAT search: static arguments first (a box on a dead square, no matching of boxes
//! to goals), then horizons from the matching lower bound upwards on one incremental
//! solver, each asked under its own assumption. The first satisfiable horizon is the
//! least number of pushes. Then the push-optimal plans are enumerated (each blocked
//! after it is seen) to find the fewest moves among them.

use super::static_unsolvable;
use crate::limits::wait_for;
use crate::sokoban::plan::to_lurd;
use crate::sokoban::{Limits, Outcome, Solution};
use crate::solver::{Session, SolverError};
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::sokoban::{analysis, Analysis, Horizon, Level, PlanEncoding, Pruning, Push};
use std::sync::{Arc, Mutex};
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

/// Runs the SAT search on a worker thread and waits for it until the budget's deadline
/// (`limits::wait_for`), so a long solver call cannot overrun the time limit: then the
/// answer is what the search had proven by the deadline (its best plan, or its bound),
/// and the worker, told to stop, finishes its current call in the background. Also
/// returns the formula's last size and when a push-optimal plan was first proven.
pub fn solve_until_deadline(
    level: &Level,
    limits: &Limits,
    options: SatOptions,
) -> anyhow::Result<(Outcome, EncodingSize, Option<f64>)> {
    let started = Instant::now();
    let heard = Arc::new(Mutex::new(Heard::default()));
    let result = {
        let (level, limits, heard) = (level.clone(), limits.clone(), heard.clone());
        wait_for(&limits.budget.clone(), move || {
            solve_with(&level, &limits, options, &mut |p| {
                let mut heard = heard.lock().unwrap_or_else(|e| e.into_inner());
                heard.hear(p, started);
                if let Some(status) = limits.budget.status() {
                    status.post("sat", heard.to_string());
                }
            })
        })
    };
    let heard = heard.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match result {
        Some(outcome) => Ok((outcome?, heard.size, heard.first_found)),
        None if limits.expired() => {
            let outcome = match heard.found {
                Some(s) => Outcome::Solved(s),
                None => Outcome::GaveUp {
                    reason: "time limit".into(),
                    no_plan_below: heard.bound,
                },
            };
            Ok((outcome, heard.size, heard.first_found))
        }
        None => {
            Err(crate::error::InternalError::new("the SAT search stopped without an answer").into())
        }
    }
}

/// What the SAT search reported while it ran.
#[derive(Clone, Debug, Default)]
struct Heard {
    bound: usize,
    found: Option<Solution>,
    size: EncodingSize,
    /// Seconds from the start until the first push-optimal plan.
    first_found: Option<f64>,
}

impl Heard {
    fn hear(&mut self, progress: Progress, started: Instant) {
        match progress {
            Progress::NoPlanBelow(b) => self.bound = self.bound.max(b),
            Progress::Found(s) => {
                self.first_found
                    .get_or_insert(started.elapsed().as_secs_f64());
                self.found = Some(s);
            }
            Progress::Size(s) => self.size = s,
        }
    }
}

/// For a progress line: the best plan or the bound, and the formula.
impl std::fmt::Display for Heard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.found {
            Some(found) => write!(f, "a plan of {} pushes", found.pushes.len())?,
            None => write!(f, "no plan under {} pushes", self.bound)?,
        }
        write!(
            f,
            " (horizon {}, {} clauses)",
            self.size.horizon, self.size.clauses
        )
    }
}

/// What one horizon's question got.
pub(super) enum Answer {
    Plan(Vec<Push>),
    NoPlan,
    /// The time limit passed before the answer.
    Stopped,
}

/// The incremental solver and the encoding it has been fed so far.
pub(super) struct Search<'a> {
    pub(super) encoding: PlanEncoding<'a>,
    session: Session,
    sent: usize,
    pub(super) calls: usize,
    /// Print every solver call on standard error (`--stats`).
    trace: bool,
}

impl<'a> Search<'a> {
    /// A search whose solver calls stop at `limits`' budget where the backend can be
    /// interrupted (and between calls in any case, see `real_plan`).
    pub(super) fn new(encoding: PlanEncoding<'a>, limits: &Limits, trace: bool) -> Search<'a> {
        let mut session = Session::new(&Cnf::new());
        session.stop_at(&limits.budget);
        Search {
            encoding,
            session,
            sent: 0,
            calls: 0,
            trace,
        }
    }

    /// Sends the solver the clauses the encoding gained since the last call.
    fn flush(&mut self) {
        let cnf = self.encoding.cnf();
        for clause in cnf.clauses().skip(self.sent) {
            self.session.add_clause(clause);
        }
        self.sent = cnf.num_clauses();
    }

    /// A plan for `horizon` whose walks are real, or `NoPlan` when there is none: solves,
    /// and while the model leans on unfounded reachability, learns it and solves again.
    pub(super) fn real_plan(
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
            let answer = match self.session.solve_under(&assumptions) {
                Ok(answer) => answer,
                // The backend stopped the call at the budget (see `Search::new`).
                Err(SolverError::Interrupted) => return Ok(Answer::Stopped),
                Err(e) => return Err(e),
            };
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

    /// Rules out `plan` in the solver only, not in the encoding's formula.
    pub(super) fn block_in_solver(&mut self, plan: &[Push]) {
        self.flush();
        let clause = self.encoding.plan_clause(plan);
        self.session.add_clause(&clause);
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
    // Bounds proven are shared with the searches beside this one (`Limits::known`).
    let progress = &mut |p: Progress| {
        if let Progress::NoPlanBelow(b) = p {
            limits.known.bound_proven(b);
        }
        progress(p)
    };
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
    let encoding = PlanEncoding::with_pruning(level, &analysis, pruning);
    let mut search = Search::new(encoding, limits, trace);
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
        if !search
            .encoding
            .extend_within(horizon, limits.max_clauses, || limits.expired())
        {
            let reason = match limits.expired() {
                true => "time limit".to_string(),
                false => format!("size limit ({} clauses)", limits.max_clauses),
            };
            return Ok(Outcome::GaveUp {
                reason,
                no_plan_below: horizon,
            });
        }
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
