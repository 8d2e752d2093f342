//! The SAT encoding of one horizon as a standalone formula (`--dimacs`): plans of
//! exactly `K` pushes, for an external solver or a projected model counter.
//!
//! **What is written.** The plan encoding of `K` steps with the pruning families the
//! SAT search would use (`--no-prune` leaves some out), its horizon's question, and the
//! assumptions the search makes as unit clauses: the horizon's activation literal and
//! the `commute` literal (the order of commuting pushes and the ban on pushing a box
//! straight back). The projection (`c p show`) is the push variables: a plan of pushes
//! fixes every other variable but the player's region.
//!
//! **Refinement.** The encoding keeps the player's region real through loop clauses
//! learned on demand (see the encoding's `reach`); a formula with only some of them has
//! models that lean on reachability through boxes. So before it is written the formula
//! is refined: it is solved, every model that leans on an unfounded set teaches that
//! set's loop clauses, and every real plan is ruled out in the solver only (not in the
//! formula) so that the next model is another one, until no model is left. Then the
//! models, projected on the pushes, are exactly the plans of `K` pushes the pruning
//! keeps: every real plan of `K` pushes with `--no-prune commute,undo`; with the default
//! families, the plans in the fixed order of commuting pushes (at least one per plan,
//! up to that order), and at a `K` above the minimum the no-undo clauses may remove
//! plans that push a box straight back (they are sound for the least horizon only). So
//! the formula at the proven minimum is satisfiable and at any smaller `K` it is not.
//! The refinement stops at the time limit or after `Limits::max_plans` plans; the
//! formula is then written as it stands, and `exact` says so.

use super::sat::{Answer, Search};
use crate::limits::wait_for;
use crate::sokoban::{Limits, Outcome};
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::sokoban::{Analysis, Horizon, Level, PlanEncoding, Pruning};

/// The formula of one horizon, ready to be written.
pub struct PlanFormula {
    pub cnf: Cnf,
    /// `K`: the formula's models are plans of exactly this many pushes.
    pub horizon: usize,
    /// Distinct plans of `K` pushes the refinement met (each a model).
    pub plans: usize,
    /// Why the refinement stopped before the end, when it did: the formula may then
    /// have models that are not plans.
    pub stopped: Option<String>,
}

/// The horizon written by default: the plan's pushes when the level was solved (the
/// proven minimum), the bound proven when the search gave up (the least horizon not
/// refuted), and for an unsolvable level the matching bound (0 when the boxes cannot be
/// matched to goals at all); that formula is unsatisfiable, as every horizon's is.
pub fn default_horizon(level: &Level, outcome: &Outcome) -> usize {
    match outcome {
        Outcome::Solved(solution) => solution.pushes.len(),
        Outcome::GaveUp { no_plan_below, .. } => *no_plan_below,
        Outcome::Unsolvable { .. } => Analysis::new(level)
            .lower_bound
            .map_or(0, |bound| bound as usize),
    }
}

/// The refined formula for plans of `horizon` pushes under `pruning`, within `limits`
/// (its budget and `max_plans`); `trace` prints every solver call on standard error.
pub fn plan_formula(
    level: &Level,
    horizon: usize,
    pruning: Pruning,
    limits: &Limits,
    trace: bool,
) -> anyhow::Result<PlanFormula> {
    let refined = {
        let (level, limits) = (level.clone(), limits.clone());
        wait_for(&limits.budget.clone(), move || {
            refine(&level, horizon, pruning, &limits, trace)
        })
    };
    match refined {
        Some(formula) => formula,
        // The solver did not come back by the deadline: the formula before refinement.
        None => {
            let analysis = Analysis::new(level);
            let mut encoding = PlanEncoding::with_pruning(level, &analysis, pruning);
            if !encoding.extend_within(horizon, limits.max_clauses, || false) {
                return Err(too_large(horizon, limits));
            }
            let asked = encoding.horizon(horizon);
            Ok(PlanFormula {
                cnf: standalone(&encoding, asked),
                horizon,
                plans: 0,
                stopped: Some("time limit".into()),
            })
        }
    }
}

/// The refusal of a formula past `--max-clauses`, before it fills the memory.
fn too_large(horizon: usize, limits: &Limits) -> anyhow::Error {
    anyhow::anyhow!(
        "the formula of plans of {horizon} pushes has more than {} clauses (--max-clauses); \
         ask for a shorter --horizon or raise --max-clauses",
        limits.max_clauses
    )
}

fn refine(
    level: &Level,
    horizon: usize,
    pruning: Pruning,
    limits: &Limits,
    trace: bool,
) -> anyhow::Result<PlanFormula> {
    let analysis = Analysis::new(level);
    let encoding = PlanEncoding::with_pruning(level, &analysis, pruning);
    let mut search = Search::new(encoding, limits, trace);
    if !search
        .encoding
        .extend_within(horizon, limits.max_clauses, || false)
    {
        return Err(too_large(horizon, limits));
    }
    let asked = search.encoding.horizon(horizon);
    let mut plans = 0;
    let stopped = loop {
        if plans >= limits.max_plans {
            break Some(format!("plan limit ({} plans)", limits.max_plans));
        }
        match search.real_plan(asked, true, limits)? {
            Answer::Plan(plan) => {
                plans += 1;
                search.block_in_solver(&plan);
            }
            Answer::NoPlan => break None,
            Answer::Stopped => break Some("time limit".into()),
        }
    };
    Ok(PlanFormula {
        cnf: standalone(&search.encoding, asked),
        horizon,
        plans,
        stopped,
    })
}

/// The encoding's formula with the search's assumptions for `asked` as unit clauses.
fn standalone(encoding: &PlanEncoding, asked: Horizon) -> Cnf {
    let mut cnf = encoding.cnf().clone();
    cnf.begin_group(&format!(
        "horizon {}: the assumptions as unit clauses",
        asked.pushes
    ));
    cnf.clause([asked.goal]);
    cnf.clause([encoding.commute()]);
    cnf.end_group();
    cnf
}
