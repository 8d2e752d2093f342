//! The matching bound of a position, the heuristic of the push searches: a minimum-cost
//! assignment of the boxes to distinct goals, where a box costs the pushes a *lone* box
//! needs from its square, with the player on its actual side, to the goal.
//!
//! It is *admissible*: in any plan each box ends on its own goal and needs at least its
//! lone pushes (other boxes only block). It is *consistent* (`h(parent) <= 1 +
//! h(child)`): a push changes only the pushed box's row of the cost matrix (the player
//! never walks through a box that does not move, so every other box keeps its side), and
//! a lone box's distance to any goal drops by at most one per push, so any assignment of
//! the child costs at most one less in the parent. `h = 0` exactly when every box stands
//! on a goal (a lone box needs no push only on the goal itself).

use super::saved::SavedMatchings;
use gridsat_encodings::sokoban::analysis::{SideTable, UNREACHABLE};
use gridsat_encodings::sokoban::matching::Matcher;
use gridsat_encodings::sokoban::{Analysis, Level};

/// Levels with more squares than this are not searched: the side table takes
/// `cells^2` bytes (and a square must fit a `u16`).
pub(super) const MAX_CELLS: usize = 8192;

/// The matching bound of a position; `None` when infinite.
/// The expanded position's matching is solved once; each child differs from it in the
/// pushed box's row only, so with as many goals as boxes the child's matching is
/// repaired from it with one augmenting path (`Matcher::resolve_row`).
pub(super) struct Heuristic<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    sides: SideTable,
    /// The expanded position's cost matrix (rows in its box order) and its player.
    costs: Vec<Vec<u32>>,
    player: usize,
    parent: Matcher,
    child: Matcher,
    spare_row: Vec<u32>,
    /// The expanded position's bound and the goal its matching gives each box.
    bound: u32,
    goal_of: Vec<usize>,
    /// The matchings of recently expanded positions (`expand_from`), by position number.
    saved: SavedMatchings,
    renumbered: Matcher,
    /// Whether the last child's matching was solved (in `child`), or is the expanded
    /// position's with the pushed box nearer its goal; and the goal each row got.
    child_solved: bool,
    child_goal_of: Vec<usize>,
}

/// The cost of a forbidden pair in the search's matchings: above any finite matching
/// (lone-box distances are below 4 x 8192 and there are at most 8192 boxes).
const FORBIDDEN: i64 = 1 << 40;

impl Heuristic<'_> {
    /// Fills `row` with the pushes from `cell` to every goal with the player on
    /// `player`'s side; false when no goal can be reached.
    fn fill_row(&self, row: &mut Vec<u32>, cell: usize, player: usize) -> bool {
        let side = self.sides.side(cell, player);
        row.clear();
        let goals = self.level.goals().len();
        row.extend((0..goals).map(|g| self.analysis.pushes_to_goal(g, cell, side)));
        row.iter().any(|&c| c != UNREACHABLE)
    }

    /// The bound of the position about to be expanded (kept for its children).
    pub(super) fn expand(&mut self, boxes: &[usize], player: usize) -> Option<u32> {
        let mut costs = std::mem::take(&mut self.costs);
        let goals = self.level.goals().len();
        costs.resize_with(goals.max(boxes.len()), Vec::new);
        let finite = costs
            .iter_mut()
            .zip(boxes)
            .all(|(row, &b)| self.fill_row(row, b, player));
        // With fewer boxes than goals, rows of zeros for the goals left over make the
        // matrix square (same optimum), so that a child's matching is one row re-solved.
        for row in &mut costs[boxes.len().min(goals)..] {
            row.clear();
            row.resize(goals, 0);
        }
        self.costs = costs;
        self.player = player;
        if !finite {
            return None;
        }
        let bound = self
            .parent
            .solve_with_forbidden_cost(&self.costs, FORBIDDEN)?;
        self.bound = bound;
        self.goal_of.resize(self.costs.len(), 0);
        for (row, goal) in self.parent.pairs() {
            self.goal_of[row] = goal;
        }
        Some(bound)
    }

    /// The expanded position's cost matrix (rows in its box order, then rows of zeros
    /// up to one per goal), its matching's goal dual values and the goal it gives each
    /// row (see `pairs`).
    pub(super) fn matrix(&self) -> (&[Vec<u32>], &[i64], &[usize]) {
        (&self.costs, self.parent.column_potentials(), &self.goal_of)
    }

    /// `expand` for the position numbered `index`, reached from the position numbered
    /// `parent` by pushes of one box: when the parent's matching is still kept (it was
    /// expanded lately with `expand_from`) and the matrix is square, it is renumbered to
    /// this position's box order and repaired in the pushed box's row (one augmenting
    /// path instead of one per box). The other boxes keep their rows: the player never
    /// walks through a box that does not move, so each keeps its side.
    pub(super) fn expand_from(
        &mut self,
        index: usize,
        parent: Option<usize>,
        boxes: &[usize],
        player: usize,
    ) -> Option<u32> {
        let repaired = match parent {
            Some(p) if boxes.len() <= self.level.goals().len() => {
                let goals = self.level.goals().len();
                let renumbered = &mut self.renumbered;
                match self.saved.renumbered(p, boxes, goals, renumbered) {
                    Some(k) => self.repair(k, boxes, player),
                    None => None,
                }
            }
            _ => None,
        };
        let bound = match repaired {
            Some(result) => result,
            None => self.expand(boxes, player),
        };
        debug_assert_eq!(bound, {
            let mut fresh = Matcher::default();
            fresh.solve_with_forbidden_cost(&self.costs, FORBIDDEN)
        });
        let bound = bound?;
        self.saved.save(index, boxes, &self.parent);
        Some(bound)
    }

    /// The matching of `boxes` repaired in row `k` from the one renumbered to their
    /// order (`self.renumbered`): the bound (`None` inside when infinite), with the
    /// expanded position's state set as `expand` sets it.
    fn repair(&mut self, k: usize, boxes: &[usize], player: usize) -> Option<Option<u32>> {
        let goals = self.level.goals().len();
        let mut costs = std::mem::take(&mut self.costs);
        costs.resize_with(goals, Vec::new);
        let finite = costs
            .iter_mut()
            .zip(boxes)
            .all(|(row, &b)| self.fill_row(row, b, player));
        for row in &mut costs[boxes.len()..] {
            row.clear();
            row.resize(goals, 0);
        }
        self.costs = costs;
        self.player = player;
        if !finite {
            return Some(None);
        }
        let bound = self
            .renumbered
            .resolve_row(&self.costs, k, &mut self.parent)?;
        self.bound = bound;
        self.goal_of.resize(self.costs.len(), 0);
        for (row, goal) in self.parent.pairs() {
            self.goal_of[row] = goal;
        }
        Some(Some(bound))
    }

    /// The bound of the child in which box number `k` of the expanded position stands on
    /// `target` and the player's region is represented by `player`.
    pub(super) fn child(
        &mut self,
        k: usize,
        target: usize,
        player: usize,
        boxes: &[usize],
    ) -> Option<u32> {
        self.child_after(k, target, player, boxes, 1)
    }

    /// `child` after `pushes` pushes of box number `k` (a macro move of the quick
    /// search). The other boxes still keep their sides: the player walks between the
    /// pushes, never through a box that does not move.
    pub(super) fn child_after(
        &mut self,
        k: usize,
        target: usize,
        player: usize,
        boxes: &[usize],
        pushes: u32,
    ) -> Option<u32> {
        // The other boxes keep their sides (the player never walks through them), so
        // their rows are the expanded position's.
        debug_assert!(
            boxes
                .iter()
                .enumerate()
                .all(|(i, &b)| i == k
                    || self.sides.side(b, player) == self.sides.side(b, self.player))
        );
        let mut row = std::mem::take(&mut self.spare_row);
        if !self.fill_row(&mut row, target, player) {
            self.spare_row = row;
            return None;
        }
        // The pushes brought the box as many pushes nearer its goal in the expanded
        // position's matching: that matching, changed in this row only, costs that much
        // less, and no matching of the child costs less than that (consistency, module
        // comment: at most one less per push).
        let goal = self.goal_of[k];
        let nearer = row[goal] != UNREACHABLE && row[goal] + pushes == self.costs[k][goal];
        if nearer && !cfg!(debug_assertions) {
            self.spare_row = row;
            self.child_solved = false;
            return Some(self.bound - pushes);
        }
        self.child_solved = true;
        std::mem::swap(&mut row, &mut self.costs[k]);
        let bound = self.parent.resolve_row(&self.costs, k, &mut self.child);
        std::mem::swap(&mut row, &mut self.costs[k]);
        self.spare_row = row;
        debug_assert!(!nearer || bound == Some(self.bound - pushes));
        bound
    }

    /// `f` of the last child's matrix (see `matrix`; made by `child` with box number `k`
    /// pushed to `target`, the player on `player`). When its matching was not solved
    /// there, the expanded position's serves: the box came one push nearer its goal, its
    /// row dropped by at most one everywhere (a lone box's pushes drop by at most one per
    /// push) and by exactly one on that goal, so the same goal values with that row's
    /// value one less are still feasible and tight on the same goals.
    pub(super) fn with_child_matrix<R>(
        &mut self,
        (k, target, player): (usize, usize, usize),
        f: impl FnOnce((&[Vec<u32>], &[i64], &[usize])) -> R,
    ) -> R {
        let mut row = std::mem::take(&mut self.spare_row);
        self.fill_row(&mut row, target, player);
        std::mem::swap(&mut row, &mut self.costs[k]);
        let result = if self.child_solved {
            self.child_goal_of.clear();
            self.child_goal_of.resize(self.costs.len(), 0);
            for (r, goal) in self.child.pairs() {
                self.child_goal_of[r] = goal;
            }
            f((
                &self.costs,
                self.child.column_potentials(),
                &self.child_goal_of,
            ))
        } else {
            f((&self.costs, self.parent.column_potentials(), &self.goal_of))
        };
        std::mem::swap(&mut row, &mut self.costs[k]);
        self.spare_row = row;
        result
    }
}

impl<'a> Heuristic<'a> {
    /// A heuristic for another thread: the same level and side table, nothing solved.
    pub(super) fn for_worker(&self) -> Heuristic<'a> {
        Heuristic::with_sides(self.level, self.analysis, self.sides.clone())
    }

    /// The matching bound of `level`'s positions, from its analysis.
    pub(super) fn new(level: &'a Level, analysis: &'a Analysis) -> Heuristic<'a> {
        Heuristic::with_sides(level, analysis, analysis.side_table(level))
    }

    fn with_sides(level: &'a Level, analysis: &'a Analysis, sides: SideTable) -> Heuristic<'a> {
        Heuristic {
            level,
            analysis,
            sides,
            costs: Vec::new(),
            player: 0,
            parent: Matcher::default(),
            child: Matcher::default(),
            spare_row: Vec::new(),
            bound: 0,
            goal_of: Vec::new(),
            saved: SavedMatchings::default(),
            renumbered: Matcher::default(),
            child_solved: false,
            child_goal_of: Vec::new(),
        }
    }
}
