//! A plan of `T` pushes as CNF, grown one push at a time on the same formula.
//!
//! Time `t` runs from 0 (the start) to the horizon `T`; step `t` is the push that turns
//! the position at time `t` into the one at `t + 1`. Variables (`timeline`):
//! - `box_at(t, c)`: a box stands on cell `c` at time `t`. Never created for a dead
//!   square nor for a square no box can reach in `t` pushes: such a square is empty.
//! - `push(t, c, d)`: step `t` pushes the box on `c` in direction `d`. Created only where
//!   the player's square behind the box and the target square are squares of the level
//!   and the target is alive. These are the plan's own unknowns (the projection set):
//!   the pushes fix where every box is at every time.
//! - `reach(t, c)`: at time `t` the player can walk to `c` without moving a box.
//!
//! Rules, one file each:
//! - `step`: a push needs its box, a free target, and the player on the square behind
//!   the box; boxes move only by pushes (frame axioms); exactly one push per step; the
//!   player walks on free squares from where it stands; 2x2 blocks of boxes and walls
//!   that hold a box off a goal never occur;
//! - `reach`: the loop clauses that keep the player's region real, learned on demand;
//! - `order`: the optional order of commuting pushes and the ban on pushing a box
//!   straight back, under the `commute` literal;
//! - `horizon`: the question of one horizon.
//!
//! The horizon is not fixed in the clauses: the goal ("every box on a goal at time `T`")
//! and the distance pruning that depends on `T` hang on an activation literal per
//! horizon, passed to the solver as an assumption. Growing the horizon only adds clauses.

mod horizon;
mod order;
mod pruning;
mod reach;
mod step;
mod timeline;

pub use horizon::Horizon;
pub use pruning::Pruning;

use super::analysis::Analysis;
use super::{Level, Push};
use crate::cnf::{Cnf, Lit};
use timeline::Timeline;

pub struct PlanEncoding<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    pruning: Pruning,
    cnf: Cnf,
    /// Assumed to order commuting pushes; left out when every plan of a horizon matters
    /// (the search for fewest moves).
    commute: Lit,
    timeline: Timeline,
    /// Created on demand by the goal-distance sums of the horizons.
    far: horizon::Far,
    /// 2x2 blocks that freeze their boxes, unless all of the block's squares are goals.
    freeze_blocks: Vec<Vec<usize>>,
    /// Every unfounded set learned so far.
    loops: Vec<Vec<usize>>,
}

impl<'a> PlanEncoding<'a> {
    /// The start position (time 0), with no push step yet.
    pub fn new(level: &'a Level, analysis: &'a Analysis) -> PlanEncoding<'a> {
        PlanEncoding::with_pruning(level, analysis, Pruning::default())
    }

    pub fn with_pruning(
        level: &'a Level,
        analysis: &'a Analysis,
        pruning: Pruning,
    ) -> PlanEncoding<'a> {
        let mut cnf = Cnf::new();
        let commute = cnf.fresh_lit();
        let timeline = Timeline::start(&mut cnf, level);
        PlanEncoding {
            level,
            analysis,
            pruning,
            cnf,
            commute,
            timeline,
            far: Vec::new(),
            freeze_blocks: step::freeze_blocks(level, analysis),
            loops: reach::short_cycles(level),
        }
    }

    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    /// How many unfounded sets have been learned.
    pub fn loops(&self) -> usize {
        self.loops.len()
    }

    /// How many push steps are encoded.
    pub fn steps(&self) -> usize {
        self.timeline.steps()
    }

    /// Adds push steps until there are `horizon` of them.
    pub fn extend_to(&mut self, horizon: usize) {
        while self.timeline.steps() < horizon {
            self.add_step();
        }
    }

    /// `extend_to`, a step at a time, stopping once the formula holds more than
    /// `max_clauses` clauses or `stop()` says so: true when it reached `horizon`. A
    /// large level's steps are large (a 100 x 100 room: half a million clauses each), so
    /// the bound is checked as the formula grows, not only before.
    pub fn extend_within(
        &mut self,
        horizon: usize,
        max_clauses: usize,
        stop: impl Fn() -> bool,
    ) -> bool {
        while self.timeline.steps() < horizon {
            if self.cnf.num_clauses() > max_clauses || stop() {
                return false;
            }
            self.add_step();
        }
        self.cnf.num_clauses() <= max_clauses
    }

    /// Step `t`: its own rules, the loop clauses learned so far, and the optional
    /// orders of the steps just before it (which need this step's `reach`).
    fn add_step(&mut self) {
        let t = self.timeline.steps();
        step::add_step(
            &mut self.cnf,
            self.level,
            self.analysis,
            &self.pruning,
            &mut self.timeline,
            &self.freeze_blocks,
        );
        for set in &self.loops {
            reach::loop_clauses(&mut self.cnf, self.level, &self.timeline, t, set);
        }
        let (cnf, level, timeline, commute) =
            (&mut self.cnf, self.level, &self.timeline, self.commute);
        if self.pruning.commute && self.pruning.reach_closure && t >= 2 {
            order::commuting_order(cnf, level, timeline, commute, t - 2);
        }
        if self.pruning.no_undo {
            if t >= 1 {
                order::no_undo(cnf, level, timeline, commute, t - 1, t - 1);
            }
            if t >= 2 {
                order::no_undo(cnf, level, timeline, commute, t - 2, t);
            }
        }
    }

    /// The literal to assume (with a horizon's goal) to order commuting pushes. Without
    /// it every plan of the horizon is allowed, as the search for fewest moves needs.
    pub fn commute(&self) -> Lit {
        self.commute
    }

    /// The activation literal of horizon `horizon` (steps must exist): assuming it asks
    /// for every box on a goal at time `horizon`, and prunes boxes that could not reach a
    /// goal in the pushes left.
    pub fn horizon(&mut self, horizon: usize) -> Horizon {
        horizon::horizon(
            &mut self.cnf,
            self.level,
            self.analysis,
            &self.pruning,
            &self.timeline,
            &mut self.far,
            horizon,
        )
    }

    /// Learns that the squares of `set` cannot vouch for each other: adds its loop
    /// clauses at every step, now and later.
    pub fn forbid_unfounded(&mut self, set: Vec<usize>) {
        for t in 0..self.timeline.steps() {
            reach::loop_clauses(&mut self.cnf, self.level, &self.timeline, t, &set);
        }
        self.loops.push(set);
    }

    /// The sets of squares an assignment calls reachable though the player cannot walk
    /// there (one per time and connected component). Empty when the plan is real.
    pub fn unfounded_sets(&self, values: &[bool], horizon: usize) -> Vec<Vec<usize>> {
        reach::unfounded_sets(self.level, &self.timeline, values, horizon)
    }

    /// The pushes of a satisfying assignment, one per step up to `horizon`.
    pub fn decode(&self, values: &[bool], horizon: usize) -> Vec<Push> {
        (0..horizon)
            .map(|t| {
                self.timeline.pushes[t]
                    .iter()
                    .find(|(_, p)| p.eval(values))
                    .map(|&(push, _)| push)
                    .expect("exactly one push per step")
            })
            .collect()
    }

    /// The clause that rules out this exact sequence of pushes (for a solver that
    /// enumerates plans without writing them into the formula).
    pub fn plan_clause(&self, plan: &[Push]) -> Vec<Lit> {
        plan.iter()
            .enumerate()
            .map(|(t, push)| {
                let (_, p) = self.timeline.pushes[t]
                    .iter()
                    .find(|(q, _)| q == push)
                    .expect("push of a decoded plan");
                !*p
            })
            .collect()
    }

    /// Adds the clause that rules out this exact sequence of pushes.
    pub fn block_plan(&mut self, plan: &[Push]) {
        let clause = self.plan_clause(plan);
        self.cnf.clause(clause);
    }
}
