//! A plan of `T` pushes as CNF, grown one push at a time on the same formula.
//!
//! Time `t` runs from 0 (the start) to the horizon `T`; step `t` is the push that turns
//! the position at time `t` into the one at `t + 1`. Variables:
//! - `box_at(t, c)`: a box stands on cell `c` at time `t`. Never created for a dead
//!   square nor for a square no box can reach in `t` pushes: such a square is empty.
//! - `push(t, c, d)`: step `t` pushes the box on `c` in direction `d`. Created only where
//!   the player's square behind the box and the target square are squares of the level
//!   and the target is alive.
//! - `reach(t, c)`: at time `t` the player can walk to `c` without moving a box.
//!
//! Rules, one group each: a push needs its box, a free target, and the player on the
//! square behind the box; boxes move only by pushes (frame axioms); exactly one push per
//! step; 2x2 blocks of boxes and walls that hold a box off a goal never occur.
//!
//! Reachability is the delicate rule. `reach(t, c)` requires `c` free and, unless `c`
//! is where the player stands at time `t`, some neighbour reachable. That alone admits
//! self-supporting cycles (two adjacent free squares vouching for each other behind a
//! wall of boxes). They are excluded by loop clauses, added on demand exactly as ASP
//! solvers add loop formulas: for a set `U` of squares, if any square of `U` is
//! reachable then the player starts in `U` or some square next to `U` outside it is
//! reachable. Every loop clause is true of real reachability, so it never removes a real
//! plan; `unfounded_sets` finds the sets a candidate plan relies on, and the caller adds
//! their loop clauses and solves again until the candidate's reachability is real. The
//! loop clauses of a set hold at every time, so each learned set is added at every step,
//! present and future.
//!
//! The horizon is not fixed in the clauses: the goal ("every box on a goal at time `T`")
//! and the distance pruning that depends on `T` hang on an activation literal per
//! horizon, passed to the solver as an assumption. Growing the horizon only adds clauses.

use super::analysis::{pushable, Analysis, UNREACHABLE};
use super::{Dir, Level, Push};
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};

/// A horizon `T`: assume `goal` to ask for a plan of exactly `T` pushes.
#[derive(Copy, Clone, Debug)]
pub struct Horizon {
    pub pushes: usize,
    pub goal: Lit,
}

/// Which of the optional (sound, redundant) clause families to add. Each is true of every
/// real plan, so none changes which horizons are satisfiable; they only prune the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Reachability is closed: a free square next to a reachable one is reachable, and the
    /// player's own square is reachable. With the support rule and the loop clauses this
    /// makes `reach` exactly the player's region.
    pub reach_closure: bool,
    /// With as many goals as boxes, every goal needs some box within the pushes left.
    pub goal_cover: bool,
    /// With as many goals as boxes, in the last `goal_sum_steps` steps the distances of
    /// the goals to their nearest boxes add up to at most the pushes left.
    pub goal_sum_steps: usize,
    /// Independent pushes of two steps in a row come in a fixed order (see
    /// `add_commuting_order`), under the `commute` literal. Needs `reach_closure`.
    pub commute: bool,
    /// No box is pushed straight back when that brings back the position of two steps
    /// before (see `add_no_undo`), under the `commute` literal. True of every plan of the
    /// least satisfiable horizon, not of every plan of longer ones.
    pub no_undo: bool,
}

impl Default for Pruning {
    fn default() -> Pruning {
        Pruning {
            reach_closure: true,
            goal_cover: true,
            goal_sum_steps: 8,
            commute: true,
            no_undo: true,
        }
    }
}

pub struct PlanEncoding<'a> {
    level: &'a Level,
    pruning: Pruning,
    /// `far[t][g][k - 1]`: no box is within `k - 1` pushes of goal `g` at time `t` (true
    /// whenever that holds; see `goal_sum`). Created on demand.
    far: Vec<Vec<Vec<Lit>>>,
    /// Assumed to order commuting pushes; left out when every plan of a horizon matters
    /// (the search for fewest moves).
    commute: Lit,
    analysis: &'a Analysis,
    cnf: Cnf,
    /// `box_at[t][c]`; `None` where the square is certainly empty.
    box_at: Vec<Vec<Option<Lit>>>,
    /// `reach[t][c]`, for every time that has a push step.
    reach: Vec<Vec<Lit>>,
    /// The pushes of each step, with their literals.
    pushes: Vec<Vec<(Push, Lit)>>,
    /// `pushed_from[t][c]`: the pushes of step `t` that leave the player on `c`.
    pushed_from: Vec<Vec<Vec<Lit>>>,
    /// 2x2 blocks that freeze their boxes, unless all of the block's squares are goals.
    freeze_blocks: Vec<Vec<usize>>,
    /// Every unfounded set learned so far.
    loops: Vec<Vec<usize>>,
    /// `waste[t]`: unary digits of the waste of step `t` (see `horizon`).
    waste: Vec<Vec<Lit>>,
}

/// Waste beyond this per push is counted as this much: undercounting only weakens the
/// budget, it never makes it wrong.
const MAX_COUNTED_WASTE: u32 = 6;

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
        cnf.begin_group("start");
        let start: Vec<Option<Lit>> = (0..level.num_cells())
            .map(|c| {
                level.boxes().contains(&c).then(|| {
                    let lit = cnf.primary_var().positive();
                    cnf.clause([lit]);
                    lit
                })
            })
            .collect();
        cnf.end_group();
        PlanEncoding {
            level,
            pruning,
            far: Vec::new(),
            commute,
            analysis,
            cnf,
            box_at: vec![start],
            reach: Vec::new(),
            pushes: Vec::new(),
            pushed_from: Vec::new(),
            freeze_blocks: freeze_blocks(level, analysis),
            loops: short_cycles(level),
            waste: Vec::new(),
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
        self.pushes.len()
    }

    /// Adds push steps until there are `horizon` of them.
    pub fn extend_to(&mut self, horizon: usize) {
        while self.pushes.len() < horizon {
            self.add_step();
        }
    }

    fn add_step(&mut self) {
        let t = self.pushes.len();
        let n = self.level.num_cells();
        let cnf = &mut self.cnf;

        cnf.begin_group(&format!("step {t}: variables"));
        let next: Vec<Option<Lit>> = (0..n)
            .map(|c| {
                let possible =
                    !self.analysis.dead[c] && self.analysis.from_start[c] as usize <= t + 1;
                possible.then(|| cnf.primary_var().positive())
            })
            .collect();
        let reach: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
        let now = &self.box_at[t];
        let mut pushes = Vec::new();
        for c in (0..n).filter(|&c| now[c].is_some()) {
            for dir in Dir::ALL {
                let push = Push { from: c, dir };
                if let Some(target) = pushable(self.level, c, dir) {
                    // A push that leaves its box where no goal can be reached (given the
                    // side the player ends on) is never part of a plan.
                    if next[target].is_some()
                        && self.analysis.push_waste(self.level, push).is_some()
                    {
                        pushes.push((push, cnf.fresh_lit()));
                    }
                }
            }
        }

        cnf.begin_group(&format!(
            "step {t}: a push needs its box, a free target and the player behind"
        ));
        for &(push, p) in &pushes {
            let target = pushable(self.level, push.from, push.dir).expect("push was pushable");
            let behind = self
                .level
                .neighbour(push.from, push.dir.opposite())
                .expect("push was pushable");
            cnf.implies(p, now[push.from].expect("push has a box"));
            if let Some(b) = now[target] {
                cnf.implies(p, !b);
            }
            cnf.implies(p, reach[behind]);
            cnf.implies(p, next[target].expect("push has a target"));
            if let Some(b) = next[push.from] {
                cnf.implies(p, !b);
            }
        }

        cnf.begin_group(&format!("step {t}: boxes move only when pushed"));
        let mut pushed_from = vec![Vec::new(); n];
        let mut pushed_into = vec![Vec::new(); n];
        for &(push, p) in &pushes {
            pushed_from[push.from].push(p);
            let target = pushable(self.level, push.from, push.dir).expect("push was pushable");
            pushed_into[target].push(p);
        }
        for c in 0..n {
            if let Some(b) = now[c] {
                // A box leaves only by a push.
                let mut clause = vec![!b];
                clause.extend(next[c]);
                clause.extend(pushed_from[c].iter().copied());
                cnf.clause(clause);
            }
            if let Some(b) = next[c] {
                // A box arrives only by a push.
                let mut clause = vec![!b];
                clause.extend(now[c]);
                clause.extend(pushed_into[c].iter().copied());
                cnf.clause(clause);
            }
        }

        cnf.begin_group(&format!("step {t}: exactly one push"));
        let lits: Vec<Lit> = pushes.iter().map(|&(_, p)| p).collect();
        cnf.clause(lits.iter().copied());
        CardEncoding::SequentialCounter.at_most(cnf, &lits, 1);

        cnf.begin_group(&format!(
            "step {t}: the player walks on free squares from where it stands"
        ));
        for c in 0..n {
            if let Some(b) = now[c] {
                cnf.implies(reach[c], !b);
            }
            if t == 0 && c == self.level.player() {
                continue;
            }
            let mut clause = vec![!reach[c]];
            if t > 0 {
                clause.extend(self.pushed_from[t - 1][c].iter().copied());
            }
            clause.extend(
                Dir::ALL
                    .iter()
                    .filter_map(|&d| self.level.neighbour(c, d))
                    .map(|m| reach[m]),
            );
            cnf.clause(clause);
        }
        if self.pruning.reach_closure {
            // Closure: true of the player's real region, so it removes no real plan; it
            // pins `reach` down to that region, which lets the solver propagate through it.
            cnf.begin_group(&format!("step {t}: the player's region is closed"));
            if t == 0 {
                cnf.clause([reach[self.level.player()]]);
            } else {
                for (pushes, &r) in self.pushed_from[t - 1].iter().zip(&reach) {
                    for &p in pushes {
                        cnf.implies(p, r);
                    }
                }
            }
            for c in 0..n {
                for m in Dir::ALL.iter().filter_map(|&d| self.level.neighbour(c, d)) {
                    let mut clause = vec![!reach[m], reach[c]];
                    clause.extend(now[c]);
                    cnf.clause(clause);
                }
            }
        }

        cnf.begin_group(&format!("step {t}: waste of the push"));
        // A push moves its box at most one push closer to its nearest goal (see
        // `Analysis::push_waste`); the rest of the push is waste.
        let waste_of = |push: &Push| -> u32 {
            self.analysis
                .push_waste(self.level, *push)
                .expect("only pushes with a finite waste are encoded")
                .min(MAX_COUNTED_WASTE)
        };
        let most = pushes.iter().map(|(p, _)| waste_of(p)).max().unwrap_or(0);
        let digits: Vec<Lit> = (1..=most)
            .map(|k| {
                let digit = cnf.fresh_lit();
                for (push, p) in &pushes {
                    if waste_of(push) >= k {
                        cnf.implies(*p, digit);
                    }
                }
                digit
            })
            .collect();

        cnf.begin_group(&format!("step {t}: no frozen 2x2 block off the goals"));
        for block in &self.freeze_blocks {
            let lits: Option<Vec<Lit>> = block.iter().map(|&c| next[c]).collect();
            if let Some(lits) = lits {
                cnf.clause(lits.into_iter().map(|l| !l));
            }
        }
        cnf.end_group();

        self.box_at.push(next);
        self.reach.push(reach);
        self.pushes.push(pushes);
        self.pushed_from.push(pushed_from);
        self.waste.push(digits);
        for i in 0..self.loops.len() {
            self.add_loop_clauses(t, i);
        }
        if self.pruning.commute && self.pruning.reach_closure && t >= 2 {
            self.add_commuting_order(t - 2);
        }
        if self.pruning.no_undo {
            if t >= 1 {
                self.add_no_undo(t - 1, t - 1);
            }
            if t >= 2 {
                self.add_no_undo(t - 2, t);
            }
        }
    }

    /// Under `commute`: push `a` at step `t` moves a box from `c` to `c'` (the player
    /// coming from `b`, behind `c`), and push `u` at step `t + 1` pushes it straight back
    /// from `c'` to `c`; both never happen when `witness` is reachable at time `seen`,
    /// where either `seen = t` and `witness = c'` (the player could already walk to `c'`
    /// before `a`), or `seen = t + 2` and `witness = b` (the player can walk back to `b`
    /// after `u`). The two witnesses say the same thing of a real plan (the free squares
    /// are the same at `t` and `t + 2`, so `c'` is in `b`'s region at one time exactly when
    /// it is at the other); both are given so the solver can propagate from either side,
    /// and the first also covers a horizon's last two steps (no `reach` at the horizon).
    ///
    /// Soundness. In either case the position at time `t + 2` is the position at time
    /// `t`: the boxes are the same (only this box moved, and it is back on `c`), so the
    /// free squares are the same; after `u` the player stands on `c'`, and its region is
    /// the one of time `t` because it contains `c'` (first case: `c'` was in the region of
    /// time `t`, which contains `b`) or `b` (second case: `b` is in the region of time `t`,
    /// the player stood there). A push's legality depends only on the boxes and the
    /// player's region, so dropping steps `t` and `t + 1` leaves a real plan of `T - 2`
    /// pushes. So no plan of the least satisfiable horizon `T*` breaks these clauses, and
    /// every other clause holds of every plan of `T*` (together with the commuting order:
    /// see `add_commuting_order`). The search asks the horizons in increasing order
    /// (skipping only those of the wrong parity, which have no plan), so `T*` stays the
    /// first satisfiable one. Longer horizons may lose all their plans (a plan may need
    /// to waste two pushes by a push and back), which is why the clauses hang on `commute`
    /// and the search for fewest moves (which asks only `T*`) may drop them.
    fn add_no_undo(&mut self, t: usize, seen: usize) {
        let level = self.level;
        let cnf = &mut self.cnf;
        cnf.begin_group(&format!(
            "steps {t} and {}: no push straight back to the same position",
            t + 1
        ));
        for &(a, pa) in &self.pushes[t] {
            let target = pushable(level, a.from, a.dir).expect("pushable");
            let back = Push {
                from: target,
                dir: a.dir.opposite(),
            };
            let Some(&(_, pu)) = self.pushes[t + 1].iter().find(|(u, _)| *u == back) else {
                continue;
            };
            let witness = if seen == t {
                target
            } else {
                level.neighbour(a.from, a.dir.opposite()).expect("pushable")
            };
            cnf.clause([!self.commute, !pa, !pu, !self.reach[seen][witness]]);
        }
        cnf.end_group();
    }

    /// The literal to assume (with a horizon's goal) to order commuting pushes. Without
    /// it every plan of the horizon is allowed, as the search for fewest moves needs.
    pub fn commute(&self) -> Lit {
        self.commute
    }

    /// Under `commute`: push `a` at step `t` and push `b` at step `t + 1`, of different
    /// boxes, with `b` before `a` in a fixed order of pushes (`push_key`), never both
    /// happen when `b` could have been done first: the player could reach the square
    /// behind `b` at time `t`, then (after `b`) the square behind `a`, and afterwards the
    /// player's region is the same in both orders.
    ///
    /// Soundness. Take, among the real plans of `T` pushes (`T` the least satisfiable
    /// horizon when `no_undo` is on, see `add_no_undo`), the one whose sequence of
    /// push keys is lexicographically least, with every variable at its true value
    /// (`reach` the player's real region, which satisfies the support rule, the loop
    /// clauses and the closure). Suppose it broke one of these clauses at step `t`: `a`
    /// moves a box `A0 -> A1` from behind at `Ab`, then `b` moves another box `B0 -> B1`
    /// from `Bb`, `key(b) < key(a)`, `B0 != A1`, `B1 != A0`, and (true values) `Bb` is
    /// reachable at time `t`, `Ab` is reachable from `B0` once `b` is done in the
    /// position of time `t` (`alt`), and `A0` is reachable at time `t + 2`. Then `b`
    /// first is legal: its box stands on `B0` at time `t` (only `A0` changed and
    /// `B0 != A1`), its target is free (`B1 != A0`, and `B1 != A1` because `A1` held a
    /// box when `b` was done), and `Bb` is reachable. Then `a` is legal: its box is still
    /// on `A0` (`B1 != A0`), `A1` is free, and `Ab` is reachable by `alt`. Both orders
    /// leave the same boxes, and the player on `A0` instead of `B0`, which are in one
    /// region (`A0` is reachable from `B0`), so every later push is as legal as before.
    /// The swapped plan is a real plan of `T` pushes with a smaller key sequence; every
    /// other clause (bounds, dead squares, frozen blocks, and with `T` least the no-undo
    /// clauses) holds of every real plan of `T` pushes, so a contradiction. So the least
    /// plan satisfies every clause, and a horizon that is satisfiable without these
    /// clauses stays satisfiable with them (with `no_undo`: the least satisfiable one).
    ///
    /// Encoding: `alt[c]` (forced true where real: the player on `B0` and the closure
    /// over the squares free after `b`); a ladder `q[i]`, forced true when one of the
    /// first `i + 1` pushes of step `t + 1` (in key order) is done with its square behind
    /// reachable at time `t`; for each `a`, one clause naming the few pushes of step
    /// `t + 1` that move `a`'s box or push into `A0` (not commuting with `a`).
    fn add_commuting_order(&mut self, t: usize) {
        let n = self.level.num_cells();
        let level = self.level;
        let cnf = &mut self.cnf;
        cnf.begin_group(&format!(
            "steps {t} and {}: commuting pushes in order",
            t + 1
        ));
        let now = &self.box_at[t];
        let seconds = &self.pushes[t + 1];
        // alt[c]: c reachable from B0 in the position of time t with only b done.
        let alt: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
        let mut into = vec![Vec::new(); n];
        for &(b, p) in seconds {
            cnf.implies(p, alt[b.from]);
            into[pushable(level, b.from, b.dir).expect("pushable")].push(p);
        }
        for c in 0..n {
            for m in Dir::ALL.iter().filter_map(|&d| level.neighbour(c, d)) {
                let mut clause = vec![!alt[m], alt[c]];
                clause.extend(now[c]);
                clause.extend(into[c].iter().copied());
                cnf.clause(clause);
            }
        }
        let mut order: Vec<(Push, Lit)> = seconds.clone();
        order.sort_by_key(|(b, _)| push_key(b));
        let ladder: Vec<Lit> = order.iter().map(|_| cnf.fresh_lit()).collect();
        for (i, &(b, p)) in order.iter().enumerate() {
            let behind = level.neighbour(b.from, b.dir.opposite()).expect("pushable");
            if i > 0 {
                cnf.implies(ladder[i - 1], ladder[i]);
            }
            cnf.clause([!p, !self.reach[t][behind], ladder[i]]);
        }
        for &(a, p) in &self.pushes[t] {
            let earlier = order.partition_point(|(b, _)| push_key(b) < push_key(&a));
            if earlier == 0 {
                continue;
            }
            let a_target = pushable(level, a.from, a.dir).expect("pushable");
            let a_behind = level.neighbour(a.from, a.dir.opposite()).expect("pushable");
            let mut clause = vec![
                !self.commute,
                !p,
                !alt[a_behind],
                !self.reach[t + 2][a.from],
                !ladder[earlier - 1],
            ];
            clause.extend(order[..earlier].iter().filter_map(|&(b, q)| {
                let b_target = pushable(level, b.from, b.dir).expect("pushable");
                (b.from == a_target || b_target == a.from).then_some(q)
            }));
            cnf.clause(clause);
        }
        cnf.end_group();
    }

    /// Where the player may stand at time `t` without walking: `None` when it certainly
    /// stands on `cell` (the start), else the pushes that leave it there.
    fn sources(&self, t: usize, cell: usize) -> Option<&[Lit]> {
        if t == 0 {
            (cell != self.level.player()).then_some(&[][..])
        } else {
            Some(&self.pushed_from[t - 1][cell])
        }
    }

    fn add_loop_clauses(&mut self, t: usize, loop_index: usize) {
        let set = &self.loops[loop_index];
        let mut inside = vec![false; self.level.num_cells()];
        for &c in set {
            inside[c] = true;
        }
        let mut support = Vec::new();
        for &c in set {
            match self.sources(t, c) {
                None => return,
                Some(lits) => support.extend_from_slice(lits),
            }
        }
        let mut border: Vec<usize> = set
            .iter()
            .flat_map(|&c| Dir::ALL.map(|d| self.level.neighbour(c, d)))
            .flatten()
            .filter(|&m| !inside[m])
            .collect();
        border.sort_unstable();
        border.dedup();
        support.extend(border.iter().map(|&m| self.reach[t][m]));
        self.cnf.begin_group(&format!("step {t}: loop clauses"));
        for &c in set {
            let clause = std::iter::once(!self.reach[t][c]).chain(support.iter().copied());
            self.cnf.clause(clause);
        }
        self.cnf.end_group();
    }

    /// Learns that the squares of `set` cannot vouch for each other: adds its loop
    /// clauses at every step, now and later.
    pub fn forbid_unfounded(&mut self, set: Vec<usize>) {
        self.loops.push(set);
        let index = self.loops.len() - 1;
        for t in 0..self.pushes.len() {
            self.add_loop_clauses(t, index);
        }
    }

    /// The activation literal of horizon `horizon` (steps must exist): assuming it asks
    /// for every box on a goal at time `horizon`, and prunes boxes that could not reach a
    /// goal in the pushes left.
    pub fn horizon(&mut self, horizon: usize) -> Horizon {
        assert!(horizon <= self.pushes.len(), "extend_to(horizon) first");
        let goal = self.cnf.fresh_lit();
        self.cnf
            .begin_group(&format!("horizon {horizon}: every box on a goal"));
        for (t, boxes) in self.box_at.iter().enumerate().take(horizon + 1) {
            let left = horizon - t;
            for (c, b) in boxes.iter().enumerate() {
                let Some(b) = *b else { continue };
                let too_far = self.analysis.nearest_goal[c] == UNREACHABLE
                    || self.analysis.nearest_goal[c] as usize > left;
                if too_far {
                    self.cnf.clause([!goal, !b]);
                }
            }
        }
        // The box just pushed is in a known state (square and the player's side), so its
        // own distance to the nearest goal must fit in the pushes left after the push.
        for t in 0..horizon {
            let left = (horizon - t - 1) as u32;
            for &(push, p) in &self.pushes[t] {
                if self.analysis.distance_after(self.level, push) > left {
                    self.cnf.clause([!goal, !p]);
                }
            }
        }
        let square_level = self.level.goals().len() == self.level.boxes().len();
        if square_level && self.pruning.goal_cover {
            // Each goal ends under its own box, which is at most `left` pushes away from
            // it now. (With spare goals some goal may stay empty: not added then.)
            self.cnf
                .begin_group(&format!("horizon {horizon}: every goal has a box in range"));
            for t in 0..horizon {
                let left = (horizon - t) as u32;
                for g in 0..self.level.goals().len() {
                    let dist = &self.analysis.to_goal[g];
                    let clause: Vec<Lit> = std::iter::once(!goal)
                        .chain(
                            self.box_at[t]
                                .iter()
                                .enumerate()
                                .filter(|&(c, _)| dist[c] <= left)
                                .filter_map(|(_, b)| *b),
                        )
                        .collect();
                    self.cnf.clause(clause);
                }
            }
        }
        if square_level {
            for left in 1..=self.pruning.goal_sum_steps.min(horizon) {
                self.goal_sum(goal, horizon - left, left);
            }
        }
        // The waste budget: the boxes start `distance` pushes from their nearest goals,
        // each push gains at most one, so a plan of `horizon` pushes wastes at most
        // `horizon - distance` of them.
        self.cnf
            .begin_group(&format!("horizon {horizon}: waste budget"));
        let distance = self.analysis.start_distance;
        match (horizon as u64).checked_sub(u64::from(distance)) {
            None => self.cnf.clause([!goal]),
            Some(budget) => {
                let digits: Vec<Lit> = self.waste[..horizon].iter().flatten().copied().collect();
                let budget = budget as usize;
                if budget < digits.len() {
                    let counter = CardEncoding::SequentialCounter.unary_counter(
                        &mut self.cnf,
                        &digits,
                        budget + 1,
                    );
                    self.cnf.clause([!goal, !counter[budget]]);
                }
            }
        }
        self.cnf.end_group();
        Horizon {
            pushes: horizon,
            goal,
        }
    }

    /// `far[t][g][k - 1]` for `k = 1..=upto`, created as needed: forced true when no box
    /// stands within `k - 1` pushes of goal `g` at time `t`.
    fn far_lits(&mut self, t: usize, upto: usize) -> Vec<Vec<Lit>> {
        let goals = self.level.goals().len();
        while self.far.len() <= t {
            self.far.push(vec![Vec::new(); goals]);
        }
        for g in 0..goals {
            while self.far[t][g].len() < upto {
                let k = self.far[t][g].len() as u32 + 1;
                let lit = self.cnf.fresh_lit();
                let dist = &self.analysis.to_goal[g];
                let near = self.box_at[t]
                    .iter()
                    .enumerate()
                    .filter(|&(c, _)| dist[c] < k)
                    .filter_map(|(_, b)| *b);
                let clause: Vec<Lit> = std::iter::once(lit).chain(near).collect();
                self.cnf.clause(clause);
                self.far[t][g].push(lit);
            }
        }
        self.far[t].iter().map(|f| f[..upto].to_vec()).collect()
    }

    /// Under `goal`: at time `t`, `left` pushes before the end, the goals' distances to
    /// their nearest boxes add up to at most `left`. Sound when goals and boxes are as
    /// many: every goal gets its own box at the end, and that box is at least as far from
    /// it as the nearest box, so the sum is at most the matching cost of the position,
    /// which is at most the pushes left. A distance is counted as the number of `k` in
    /// `1..=left + 1` with no box within `k - 1` pushes, so larger distances count as
    /// `left + 1`, which is already too many.
    fn goal_sum(&mut self, goal: Lit, t: usize, left: usize) {
        self.cnf
            .begin_group(&format!("time {t}: goal distances within {left} pushes"));
        let far: Vec<Lit> = self.far_lits(t, left + 1).into_iter().flatten().collect();
        if left < far.len() {
            let counter =
                CardEncoding::SequentialCounter.unary_counter(&mut self.cnf, &far, left + 1);
            self.cnf.clause([!goal, !counter[left]]);
        }
        self.cnf.end_group();
    }

    /// The pushes of a satisfying assignment, one per step up to `horizon`.
    pub fn decode(&self, values: &[bool], horizon: usize) -> Vec<Push> {
        (0..horizon)
            .map(|t| {
                self.pushes[t]
                    .iter()
                    .find(|(_, p)| p.eval(values))
                    .map(|&(push, _)| push)
                    .expect("exactly one push per step")
            })
            .collect()
    }

    /// A clause that rules out this exact sequence of pushes.
    pub fn block_plan(&mut self, plan: &[Push]) {
        let clause: Vec<Lit> = plan
            .iter()
            .enumerate()
            .map(|(t, push)| {
                let (_, p) = self.pushes[t]
                    .iter()
                    .find(|(q, _)| q == push)
                    .expect("push of a decoded plan");
                !*p
            })
            .collect();
        self.cnf.clause(clause);
    }

    /// The sets of squares an assignment calls reachable though the player cannot walk
    /// there (one per time and connected component). Empty when the plan is real.
    pub fn unfounded_sets(&self, values: &[bool], horizon: usize) -> Vec<Vec<usize>> {
        let n = self.level.num_cells();
        let mut sets = Vec::new();
        let mut player = self.level.player();
        for t in 0..horizon {
            let blocked: Vec<bool> = self.box_at[t]
                .iter()
                .map(|b| b.is_some_and(|b| b.eval(values)))
                .collect();
            let mut walkable = vec![false; n];
            let mut stack = vec![player];
            walkable[player] = true;
            while let Some(c) = stack.pop() {
                for d in Dir::ALL {
                    if let Some(m) = self.level.neighbour(c, d) {
                        if !walkable[m] && !blocked[m] {
                            walkable[m] = true;
                            stack.push(m);
                        }
                    }
                }
            }
            let unfounded: Vec<bool> = (0..n)
                .map(|c| self.reach[t][c].eval(values) && !walkable[c])
                .collect();
            let mut seen = vec![false; n];
            for c in 0..n {
                if !unfounded[c] || seen[c] {
                    continue;
                }
                let mut component = vec![c];
                seen[c] = true;
                let mut i = 0;
                while i < component.len() {
                    let x = component[i];
                    i += 1;
                    for d in Dir::ALL {
                        if let Some(m) = self.level.neighbour(x, d) {
                            if unfounded[m] && !seen[m] {
                                seen[m] = true;
                                component.push(m);
                            }
                        }
                    }
                }
                component.sort_unstable();
                sets.push(component);
            }
            if let Some(&(push, _)) = self.pushes[t].iter().find(|(_, p)| p.eval(values)) {
                player = push.from;
            }
        }
        sets.sort();
        sets.dedup();
        sets
    }
}

/// The fixed order of pushes used to pick one order of commuting pushes.
fn push_key(push: &Push) -> usize {
    push.from * 4 + push.dir.index()
}

/// The shortest self-supporting cycles, learned up front because nearly every candidate
/// plan would otherwise lean on one: two neighbouring squares, and 2x2 blocks of squares.
fn short_cycles(level: &Level) -> Vec<Vec<usize>> {
    let mut sets = Vec::new();
    for c in 0..level.num_cells() {
        for dir in [Dir::Right, Dir::Down] {
            if let Some(n) = level.neighbour(c, dir) {
                sets.push(vec![c, n]);
            }
        }
        let block = level.neighbour(c, Dir::Right).and_then(|r| {
            let d = level.neighbour(c, Dir::Down)?;
            let rd = level.neighbour(r, Dir::Down)?;
            Some(vec![c, r, d, rd])
        });
        sets.extend(block);
    }
    sets
}

/// Every 2x2 block whose squares are walls or live squares, with at least one square
/// that is not a goal: boxes filling its live squares could never move again.
fn freeze_blocks(level: &Level, analysis: &Analysis) -> Vec<Vec<usize>> {
    use crate::grid::Cell;
    let mut blocks = Vec::new();
    for r in 0..level.rows().saturating_sub(1) {
        'block: for c in 0..level.cols().saturating_sub(1) {
            let mut cells = Vec::new();
            for pos in [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] {
                let pos = Cell::new(pos.0, pos.1);
                match level.cell_at(pos) {
                    Some(cell) if !analysis.dead[cell] => cells.push(cell),
                    Some(_) => continue 'block,
                    None if level.is_wall(pos) => {}
                    None => continue 'block,
                }
            }
            if !cells.is_empty() && !cells.iter().all(|&cell| level.is_goal(cell)) {
                blocks.push(cells);
            }
        }
    }
    blocks
}
