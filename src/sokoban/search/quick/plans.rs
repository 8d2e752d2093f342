//! The quick search as a thread of a larger search: the plans it finds, each shorter
//! than the one before, and the best of them kept with its report. `--quick`
//! (`anytime`) runs it beside A*; the portfolio runs it beside A* and SAT when their
//! proof is not in sight (`portfolio`), so both keep plans the same way.

use super::{turns, Options, QuickStats};
use crate::error::InternalError;
use crate::sokoban::{Known, Limits, Outcome};
use gridsat_encodings::sokoban::analysis::push_parity;
use gridsat_encodings::sokoban::{Level, Push};
use std::time::{Duration, Instant};

/// Whether the quick search goes on after its first plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Improve {
    /// The first plan ends it.
    No,
    /// Shorter plans until none is found or the time is up.
    Always,
    /// Shorter plans, but not once only an optimal plan could be shorter (the plan one
    /// push from the bound proven, two when every plan has the same parity): that plan
    /// is what the searches that prove look for, and better than we do, so a thread
    /// sharing their cores leaves them the time (the portfolio's third thread).
    UntilNearBound,
}

/// What the quick search's thread reports.
pub enum QuickEvent {
    /// A plan (shorter than every plan before it) and when it was found, in seconds
    /// from `started`.
    Plan(Vec<Push>, f64),
    /// The thread ends: why (no shorter plan, a limit, the first plan when it was not
    /// to improve), and what all its searches did.
    Done(String, QuickStats),
}

/// A quick search's thread, the `searches` taking turns (`turns`): a plan, then (when
/// `improve`) shorter ones, each handed to `send`, until a search finds none, the
/// budget ends, or `send` says nobody listens any more (returns false).
pub fn plans(
    level: &Level,
    limits: &Limits,
    searches: &[Options],
    improve: Improve,
    started: Instant,
    send: impl Fn(QuickEvent) -> bool,
) {
    // --max-pushes holds for the quick search too: no plan above it.
    let max_pushes = limits
        .max_pushes
        .map(|m| (m + 1).min(u32::MAX as usize) as u32);
    let mut searches: Vec<Options> = searches
        .iter()
        .map(|&o| Options {
            below: max_pushes,
            ..o
        })
        .collect();
    let mut total = QuickStats::default();
    let reason = loop {
        let (found, stats) = turns::search(level, limits, &searches);
        total.add(&stats);
        match found {
            Ok(plan) => {
                let pushes = plan.len() as u32;
                let len = plan.len();
                if !send(QuickEvent::Plan(plan, started.elapsed().as_secs_f64())) {
                    return;
                }
                // From now on the searches sharing these limits (A* beside us) need look
                // only for shorter plans; announced after the plan was sent, so that
                // whoever hears A* conclude from it has the plan already.
                limits.known.plan_found(len);
                if improve == Improve::No || pushes == 0 {
                    break "stopped at the first plan".to_string();
                }
                let step = if push_parity(level).is_some() { 2 } else { 1 };
                if improve == Improve::UntilNearBound && len <= limits.known.bound() + step {
                    break format!(
                        "no plan shorter than {pushes} pushes but an optimal one, left to the proof"
                    );
                }
                for options in &mut searches {
                    options.below = Some(pushes);
                }
            }
            Err(reason) => break reason,
        }
    };
    send(QuickEvent::Done(reason, total));
}

/// When the quick search beside A* stops and leaves its core to A*'s last layer (see
/// `astar::layer`): once A*'s bound is within a parity step of the best plan (a shorter
/// plan, if any, is then one A* finds in that layer and proves optimal) and the quick
/// search has found no shorter plan for `QUIET`. A quick search still improving is the
/// likelier to find it first: on XSokoban 12 and 54 it brings plans every second or so
/// down to the optimum (212 after 5.5 s, 187 after 5.9 s) while A*'s bound sits two
/// below from the first seconds, and A* alone finds no 212-push plan of 12 in its last
/// layer within 60 s. On Microban II 109 its last plan, the optimum 42, comes after
/// 11 s, and A*'s last layer below it is 5.2 of its 6.1 million expansions.
pub struct Yielding {
    step: usize,
    quiet: Duration,
    last_plan: Instant,
    done: bool,
}

impl Yielding {
    /// How long without a shorter plan.
    const QUIET: Duration = Duration::from_secs(5);
    /// How often to look.
    const POLL: Duration = Duration::from_millis(50);

    pub fn new(level: &Level) -> Yielding {
        Yielding::with_quiet(level, Self::QUIET)
    }

    fn with_quiet(level: &Level, quiet: Duration) -> Yielding {
        Yielding {
            step: if push_parity(level).is_some() { 2 } else { 1 },
            quiet,
            last_plan: Instant::now(),
            done: false,
        }
    }

    /// A shorter plan came.
    pub fn plan_found(&mut self) {
        self.last_plan = Instant::now();
    }

    /// When to look next, while the quick search runs (`None` once it was told to
    /// stop).
    pub fn next_look(&self, quick_running: bool) -> Option<Instant> {
        (quick_running && !self.done).then(|| Instant::now() + Self::POLL)
    }

    /// Whether the quick search should stop now, given what the searches found (true
    /// once).
    pub fn due(&mut self, known: &Known) -> bool {
        let in_reach = known.plan().is_some_and(|p| known.bound() + self.step >= p);
        let due = !self.done && in_reach && self.last_plan.elapsed() >= self.quiet;
        self.done |= due;
        due
    }
}

/// The plans of the quick search, for the report.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct QuickReport {
    /// Pushes of the first plan found, and when.
    pub first_pushes: usize,
    pub first_seconds: f64,
    /// Plans found, each shorter than the one before.
    pub plans: usize,
    /// When the last (shortest) plan was found.
    pub last_seconds: f64,
    /// All its searches together.
    pub stored: usize,
    pub expanded: usize,
}

/// The shortest plan so far and the report of the plans found.
#[derive(Default)]
pub struct BestPlan {
    best: Option<Vec<Push>>,
    report: Option<QuickReport>,
    stats: QuickStats,
}

impl BestPlan {
    /// Pushes of the best plan (`usize::MAX` before the first).
    pub fn pushes(&self) -> usize {
        self.best.as_ref().map_or(usize::MAX, Vec::len)
    }

    pub fn is_some(&self) -> bool {
        self.best.is_some()
    }

    /// What a thread's searches did, from its `Done` (added up over the threads).
    pub fn searched(&mut self, stats: QuickStats) {
        self.stats.add(&stats);
    }

    /// A plan found after `seconds`: kept if it is shorter than the best so far.
    pub fn offer(&mut self, plan: Vec<Push>, seconds: f64) {
        if plan.len() >= self.pushes() {
            return;
        }
        let report = self.report.get_or_insert(QuickReport {
            first_pushes: plan.len(),
            first_seconds: seconds,
            ..QuickReport::default()
        });
        report.plans += 1;
        report.last_seconds = seconds;
        self.best = Some(plan);
    }

    /// The best plan, and the report with the searches' positions (`None` before the
    /// first plan).
    pub fn finish(self) -> (Option<Vec<Push>>, Option<QuickReport>) {
        let stats = self.stats;
        let report = self.report.map(|q| QuickReport {
            stored: stats.stored,
            expanded: stats.expanded,
            ..q
        });
        (self.best, report)
    }
}

impl BestPlan {
    /// A proof (`outcome`, by `prover`) and the plans found must agree: a plan shorter
    /// than a proven optimum, or beside a proof of unsolvability, is a bug.
    pub fn agrees_with(&self, outcome: &Outcome, prover: &str) -> Result<(), InternalError> {
        let contradiction = match outcome {
            Outcome::Solved(s) => self.pushes() < s.pushes.len(),
            Outcome::Unsolvable { .. } => self.is_some(),
            Outcome::GaveUp { .. } => false,
        };
        if contradiction {
            return Err(InternalError::new(format!(
                "the quick search found a plan of {} pushes, against {prover}'s proof",
                self.pushes()
            )));
        }
        Ok(())
    }
}

/// How a search that proved nothing ends: its best plan with the bound beside it
/// (push-optimal when the bound reaches it), else giving up with the bound and why each
/// search stopped.
pub fn unproven_outcome(best: Option<Vec<Push>>, bound: usize, reasons: &[String]) -> Outcome {
    match best {
        Some(plan) => Outcome::Solved(crate::sokoban::Solution::with_bound(plan, bound)),
        None => Outcome::GaveUp {
            reason: if reasons.is_empty() {
                "time limit".into()
            } else {
                reasons.join("; ")
            },
            no_plan_below: bound,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};

    /// Two boxes in a row of goals: every push moves a box one square, so the pushes
    /// to go keep their parity (a step of 2).
    const PARITY: &str = "#######\n#@$$..#\n#######\n";

    #[test]
    fn the_quick_search_yields_once_near_the_bound_and_quiet() {
        let level = parse_levels(PARITY, LevelFormat::Auto, Some(1)).unwrap()[0]
            .level
            .clone();
        let known = Known::default();
        let mut quiet = Yielding::with_quiet(&level, Duration::ZERO);
        assert_eq!(quiet.step, 2);
        // No plan yet, then a plan 4 above the bound: not in reach.
        assert!(!quiet.due(&known));
        known.bound_proven(10);
        known.plan_found(14);
        assert!(!quiet.due(&known));
        // Within a parity step: due, once; no look-up after that.
        known.bound_proven(12);
        assert!(quiet.next_look(true).is_some());
        assert!(quiet.due(&known));
        assert!(!quiet.due(&known));
        assert!(quiet.next_look(true).is_none());
        // A quick search that found a plan lately keeps its core.
        let mut busy = Yielding::with_quiet(&level, Duration::from_secs(3600));
        busy.plan_found();
        assert!(!busy.due(&known));
        assert!(busy.next_look(false).is_none());
    }
}
