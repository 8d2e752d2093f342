//! One horizon's question: every box on a goal after `T` pushes, and the bounds that
//! depend on `T` (distances to the goals, the goal cover, the goal-distance sum, the waste
//! budget), all under the horizon's activation literal.

use super::pruning::Pruning;
use super::timeline::Timeline;
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};
use crate::sokoban::analysis::{Analysis, UNREACHABLE};
use crate::sokoban::Level;

/// A horizon `T`: assume `goal` to ask for a plan of exactly `T` pushes.
#[derive(Copy, Clone, Debug)]
pub struct Horizon {
    pub pushes: usize,
    pub goal: Lit,
}

/// `far[t][g][k - 1]`: no box is within `k - 1` pushes of goal `g` at time `t` (true
/// whenever that holds; see `goal_sum`). Created on demand, shared by the horizons.
pub(super) type Far = Vec<Vec<Vec<Lit>>>;

/// The activation literal of horizon `horizon` (its steps must exist), with its clauses.
pub(super) fn horizon(
    cnf: &mut Cnf,
    level: &Level,
    analysis: &Analysis,
    pruning: &Pruning,
    timeline: &Timeline,
    far: &mut Far,
    horizon: usize,
) -> Horizon {
    Question {
        cnf,
        level,
        analysis,
        pruning,
        timeline,
        far,
    }
    .ask(horizon)
}

/// What one horizon's clauses are stated over.
struct Question<'e> {
    cnf: &'e mut Cnf,
    level: &'e Level,
    analysis: &'e Analysis,
    pruning: &'e Pruning,
    timeline: &'e Timeline,
    far: &'e mut Far,
}

impl Question<'_> {
    /// The activation literal of horizon `horizon` (steps must exist): assuming it asks
    /// for every box on a goal at time `horizon`, and prunes boxes that could not reach a
    /// goal in the pushes left.
    fn ask(&mut self, horizon: usize) -> Horizon {
        assert!(horizon <= self.timeline.steps(), "extend_to(horizon) first");
        let goal = self.cnf.fresh_lit();
        self.cnf
            .begin_group(&format!("horizon {horizon}: every box on a goal"));
        for (t, boxes) in self.timeline.box_at.iter().enumerate().take(horizon + 1) {
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
            for &(push, p) in &self.timeline.pushes[t] {
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
                            self.timeline.box_at[t]
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
                let digits: Vec<Lit> = self.timeline.waste[..horizon]
                    .iter()
                    .flatten()
                    .copied()
                    .collect();
                let budget = budget as usize;
                if budget < digits.len() {
                    let counter = CardEncoding::SequentialCounter.unary_counter(
                        self.cnf,
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
                let near = self.timeline.box_at[t]
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
            let counter = CardEncoding::SequentialCounter.unary_counter(self.cnf, &far, left + 1);
            self.cnf.clause([!goal, !counter[left]]);
        }
        self.cnf.end_group();
    }
}
