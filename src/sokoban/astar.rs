//! A best-first (A*) search over pushes that proves its plan push-optimal.
//!
//! **Positions.** A position is the set of box squares plus the player's region,
//! represented by its smallest square: walking is free, every edge of the search is one
//! push, and `g` is the number of pushes so far.
//!
//! **The heuristic** `h` is the matching bound of `Analysis`, taken in the current
//! position: a minimum-cost assignment of the boxes to distinct goals, where a box costs
//! the pushes a *lone* box needs from its square, with the player on its actual side,
//! to the goal. It is *admissible*: in any plan each box ends on its own goal and needs
//! at least its lone pushes (other boxes only block). It is *consistent*
//! (`h(parent) <= 1 + h(child)`): a push changes only the pushed box's row of the cost
//! matrix (the player never walks through a box that does not move, so every other box
//! keeps its side), and a lone box's distance to any goal drops by at most one per
//! push, so any assignment of the child costs at most one less in the parent. With a
//! consistent heuristic and unit costs, a position is never reached more cheaply after
//! it has been expanded: no reopening is needed (until the split bound below joins in),
//! and the first solved position found is push-optimal. `h = 0` exactly when every box
//! stands on a goal (a lone box needs no push only on the goal itself), so a solved
//! child is recognised when it is generated: its parent was not solved, so
//! `f(parent) >= g(parent) + 1 = f(child)`, and `f(parent)` is the least `f` in the
//! open list, which is a lower bound on every plan (the open list always holds a
//! position of an optimal plan with `f` at most the optimum, since pruning only drops
//! positions that cannot be completed).
//!
//! **Pruning** (each drops only positions from which no plan exists, so neither the
//! optimum nor "unsolvable" changes):
//! - a push onto a dead square (no goal reachable from it by a lone box);
//! - an infinite matching: some box cannot reach any goal from its side, or the boxes
//!   cannot be given distinct goals they can reach (see above: a lower bound);
//! - a freeze deadlock: the pushed box can no longer move along either axis, blocked
//!   by walls, by dead squares on both sides of an axis (a push either way would put it
//!   on a dead square) or by other boxes that are themselves blocked in the same sense,
//!   and one box of that frozen group is off a goal. The first push of a box of the
//!   group would need both neighbours along its axis free and non-dead, which the group
//!   never allows while none of its boxes has moved: so none ever moves, and the box off
//!   a goal stays off it.
//!
//! **The split bound** (see `split`). A search still running after `SPLIT_AFTER`
//! positions adds a second bound if it beats the matching on the start: the optimum of
//! the boxes on each side of a straight cut, each side alone, summed. It sees boxes
//! getting in each other's way, which the matching does not, but it costs a small search
//! per half, so it is evaluated lazily: a child is stored with its matching bound (or
//! its parent's bound less one, if larger: path maximum), and the split is computed
//! when the position comes off the open list; if it is larger, the position goes back
//! with the larger `f`. The split is not consistent, so a position reached with fewer
//! pushes after its expansion is expanded again. The least `f` taken off the open list
//! is still a lower bound on every plan (the bounds are admissible), and a solved child
//! is still recognised when generated: its parent's bound was at least 1, so `g + 1`
//! is at most the parent's `f`. When the half searches cost more than `SPLIT_WORTH`
//! times the search itself, the split is dropped and the search goes on without it.
//!
//! **Memory.** Box sets are packed bitsets in one arena; an open-addressing table of
//! `u32` indices finds a position again; per position about `8 x words + 15` bytes plus
//! the table and the open list. `Limits::max_states` stops the search ("gave up"),
//! reporting the least `f` of the open list as the bound proven.

use super::corral::{Corrals, Pruning};
use super::flood::Flood;
use super::positions::{pack, PositionTable};
use super::split::Split;
use super::{Limits, Outcome, Solution};
use gridsat_encodings::grid::Cell;
use gridsat_encodings::sokoban::analysis::{SideTable, UNREACHABLE};
use gridsat_encodings::sokoban::matching::Matcher;
use gridsat_encodings::sokoban::{Analysis, Dir, Level, Push, Square};
use std::collections::VecDeque;
use std::ops::ControlFlow;

/// Levels with more squares than this are not searched (the side table would take
/// `cells^2` bytes).
const MAX_CELLS: usize = 8192;

/// What the search did, for reports.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct SearchStats {
    /// Positions stored (open and closed).
    pub stored: usize,
    /// Positions expanded.
    pub expanded: usize,
    /// Expansions that pushed only the boxes of a PI-corral.
    pub corral_expansions: usize,
    /// Expansions cut because a PI-corral could not be opened.
    pub corral_deadlocks: usize,
    /// Positions stored when the split bound (see `split`) was tried (0: never), and
    /// when it was given up for costing more than it saved (0: never).
    pub split_from: usize,
    pub split_until: usize,
    /// Halves searched for the split bound, and the positions those searches stored.
    pub split_searches: usize,
    pub split_positions: usize,
    /// Children cut because one half of the split has no plan.
    pub split_deadlocks: usize,
    /// Expanded positions expanded again after being reached with fewer pushes (only
    /// with the split bound: the matching bound alone is consistent).
    pub reopened: usize,
}

/// Which optional pruning and bounds the search uses (every setting proves the same
/// optimum).
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Push only the boxes of a PI-corral when the position has one (see `corral`).
    pub pi_corrals: bool,
    /// Once the search has stored this many positions, add the split bound if it beats
    /// the matching bound on the start (see `split`); `None`: never.
    pub split_after: Option<usize>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            pi_corrals: true,
            split_after: Some(SPLIT_AFTER),
        }
    }
}

/// Positions the search stores with the matching bound alone before it tries the split
/// bound: most levels are solved by then, and never pay for the halves' searches.
pub const SPLIT_AFTER: usize = 500_000;

/// The split bound is given up when its half searches have stored more than this many
/// times the positions of the search itself (and `SPLIT_AFTER`): on levels with long
/// plans the halves are nearly as hard as the whole, and the bound barely sharper.
const SPLIT_WORTH: usize = 4;

/// Freeze deadlock detection (see the module comment for why it is sound).
pub(crate) struct Freeze<'a> {
    level: &'a Level,
    dead: &'a [bool],
    /// Boxes being checked or already found frozen in the current check: they count as
    /// walls.
    frozen: Vec<bool>,
    group: Vec<usize>,
    /// Calls left in the current check; when it runs out the answer is "not frozen",
    /// which is always safe.
    budget: usize,
}

impl Freeze<'_> {
    /// Whether the box on `cell` (just pushed there) is part of a frozen group with a
    /// box off a goal.
    pub(crate) fn deadlocked(&mut self, occupied: &[bool], cell: usize) -> bool {
        self.frozen_group(occupied, cell)
            .is_some_and(|group| group.iter().any(|&c| !self.level.is_goal(c)))
    }

    /// The frozen group of the box on `cell`, if it is frozen.
    fn frozen_group(&mut self, occupied: &[bool], cell: usize) -> Option<Vec<usize>> {
        self.budget = 256;
        let frozen = self.is_frozen(occupied, cell);
        let group = frozen.then(|| self.group.clone());
        for c in self.group.drain(..) {
            self.frozen[c] = false;
        }
        group
    }

    fn is_frozen(&mut self, occupied: &[bool], cell: usize) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let mark = self.group.len();
        self.group.push(cell);
        self.frozen[cell] = true;
        let result = self.axis_blocked(occupied, cell, Dir::Left, Dir::Right)
            && self.axis_blocked(occupied, cell, Dir::Up, Dir::Down);
        if !result {
            for c in self.group.drain(mark..) {
                self.frozen[c] = false;
            }
        }
        result
    }

    fn axis_blocked(&mut self, occupied: &[bool], cell: usize, a: Dir, b: Dir) -> bool {
        let (Some(na), Some(nb)) = (self.level.neighbour(cell, a), self.level.neighbour(cell, b))
        else {
            return true;
        };
        if (self.dead[na] && self.dead[nb]) || self.frozen[na] || self.frozen[nb] {
            return true;
        }
        (occupied[na] && self.is_frozen(occupied, na))
            || (occupied[nb] && self.is_frozen(occupied, nb))
    }
}

/// The matching bound of a position (see the module comment); `None` when infinite.
/// The expanded position's matching is solved once; each child differs from it in the
/// pushed box's row only, so with as many goals as boxes the child's matching is
/// repaired from it with one augmenting path (`Matcher::resolve_row`).
pub(crate) struct Heuristic<'a> {
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
    pub(crate) fn expand(&mut self, boxes: &[usize], player: usize) -> Option<u32> {
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

    /// The bound of the child in which box number `k` of the expanded position stands on
    /// `target` and the player's region is represented by `player`.
    pub(crate) fn child(
        &mut self,
        k: usize,
        target: usize,
        player: usize,
        boxes: &[usize],
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
        // The push brought the box one push nearer its goal in the expanded position's
        // matching: that matching, changed in this row only, costs one less, and no
        // matching of the child costs less than that (consistency, module comment).
        let goal = self.goal_of[k];
        let nearer = row[goal] != UNREACHABLE && row[goal] + 1 == self.costs[k][goal];
        if nearer && !cfg!(debug_assertions) {
            self.spare_row = row;
            return Some(self.bound - 1);
        }
        std::mem::swap(&mut row, &mut self.costs[k]);
        let bound = self.parent.resolve_row(&self.costs, k, &mut self.child);
        std::mem::swap(&mut row, &mut self.costs[k]);
        self.spare_row = row;
        debug_assert!(!nearer || bound == Some(self.bound - 1));
        bound
    }
}

/// The open list: least `f` first, then least `h` (deepest first among equals), then the
/// oldest. The heuristic is consistent, so a child's `f` is never below its parent's and
/// the least `f` never decreases: a bucket per `f`, and in it a queue per `h`.
#[derive(Default)]
pub(crate) struct Open {
    by_f: Vec<Bucket>,
    /// No position is open with a smaller `f`.
    f: usize,
}

#[derive(Default)]
struct Bucket {
    by_h: Vec<VecDeque<u32>>,
    /// No position of the bucket is open with a smaller `h`.
    min_h: usize,
}

impl Open {
    pub(crate) fn push(&mut self, f: u32, h: u32, index: usize) {
        let (f, h) = (f as usize, h as usize);
        if self.by_f.len() <= f {
            self.by_f.resize_with(f + 1, Bucket::default);
        }
        // A consistent heuristic never pushes below the current `f`; stay correct anyway.
        self.f = self.f.min(f);
        let bucket = &mut self.by_f[f];
        if bucket.by_h.is_empty() {
            bucket.min_h = h;
        }
        if bucket.by_h.len() <= h {
            bucket.by_h.resize_with(h + 1, VecDeque::new);
        }
        bucket.min_h = bucket.min_h.min(h);
        bucket.by_h[h].push_back(index as u32);
    }

    /// The next position and its `f`.
    pub(crate) fn pop(&mut self) -> Option<(u32, usize)> {
        while let Some(bucket) = self.by_f.get_mut(self.f) {
            while let Some(queue) = bucket.by_h.get_mut(bucket.min_h) {
                if let Some(i) = queue.pop_front() {
                    return Some((self.f as u32, i as usize));
                }
                bucket.min_h += 1;
            }
            // Exhausted: give its memory back.
            *bucket = Bucket::default();
            self.f += 1;
        }
        None
    }
}

/// Searches `level` best-first by `f = pushes + matching bound`; see the module comment.
///
/// Boxes already frozen at the start never move in any plan (the freeze argument of the
/// module comment, applied to the start): a frozen box off a goal proves the level
/// unsolvable, and boxes frozen on goals are turned into walls (their goals with them)
/// before the search, which sharpens the lone-box distances of the others and the dead
/// squares. The plan found in that level is a plan of the original one, square by square.
pub fn search(level: &Level, limits: &Limits) -> (Outcome, SearchStats) {
    search_with(level, limits, Options::default())
}

/// `search` with the given pruning options.
pub fn search_with(level: &Level, limits: &Limits, options: Options) -> (Outcome, SearchStats) {
    if level.num_cells() > MAX_CELLS {
        return search_level(level, limits, options);
    }
    let analysis = Analysis::new(level);
    let mut freeze = Freeze::new(level, &analysis.dead);
    let mut occupied = vec![false; level.num_cells()];
    for &b in level.boxes() {
        occupied[b] = true;
    }
    let mut fixed = vec![false; level.num_cells()];
    for &b in level.boxes() {
        let Some(group) = freeze.frozen_group(&occupied, b) else {
            continue;
        };
        if let Some(&off) = group.iter().find(|&&c| !level.is_goal(c)) {
            let p = level.position(off);
            let reason = format!(
                "the box at row {}, column {} is frozen off a goal (blocked on both axes by walls, dead squares or other frozen boxes)",
                p.row + 1,
                p.col + 1
            );
            return (Outcome::Unsolvable { reason }, SearchStats::default());
        }
        for c in group {
            fixed[c] = true;
        }
    }
    let Some(reduced) = fixed
        .iter()
        .any(|&f| f)
        .then(|| with_walls(level, &fixed))
        .flatten()
    else {
        return search_level(level, limits, options);
    };
    let (outcome, stats) = search_level(&reduced, limits, options);
    let outcome = match outcome {
        Outcome::Solved(mut solution) => {
            for push in &mut solution.pushes {
                push.from = level
                    .cell_at(reduced.position(push.from))
                    .expect("the reduced level's squares are squares of the level");
            }
            Outcome::Solved(solution)
        }
        other => other,
    };
    (outcome, stats)
}

/// `level` with the boxes on the squares marked in `walls` (and their goals) made walls;
/// `None` if that is not a level (e.g. no box left, or a goal cut off from the player).
fn with_walls(level: &Level, walls: &[bool]) -> Option<Level> {
    let grid: Vec<Vec<Square>> = (0..level.rows())
        .map(|r| {
            (0..level.cols())
                .map(|c| {
                    let pos = Cell::new(r, c);
                    match level.cell_at(pos) {
                        Some(cell) if walls[cell] => Square {
                            wall: true,
                            ..Square::default()
                        },
                        Some(cell) => Square {
                            wall: false,
                            goal: level.is_goal(cell),
                            boxed: level.boxes().contains(&cell),
                            player: level.player() == cell,
                        },
                        None => Square {
                            wall: level.is_wall(pos),
                            ..Square::default()
                        },
                    }
                })
                .collect()
        })
        .collect();
    Level::new(&grid).ok()
}

fn search_level(level: &Level, limits: &Limits, options: Options) -> (Outcome, SearchStats) {
    let n = level.num_cells();
    if n > MAX_CELLS {
        let outcome = Outcome::GaveUp {
            reason: format!("the level has more than {MAX_CELLS} squares, too many for A*"),
            no_plan_below: 0,
        };
        return (outcome, SearchStats::default());
    }
    let analysis = Analysis::new(level);
    if let Some(reason) = super::solve::static_unsolvable(level, &analysis) {
        return (Outcome::Unsolvable { reason }, SearchStats::default());
    }
    search_bounded(level, &analysis, limits, options)
}

/// Where the split bound stands in a search.
enum SplitState<'a> {
    /// Not tried yet: the search is still small.
    Waiting,
    On(Box<Split<'a>>),
    /// Not sharper than the matching on the start, or given up for costing too much.
    Off,
}

fn search_bounded(
    level: &Level,
    analysis: &Analysis,
    limits: &Limits,
    options: Options,
) -> (Outcome, SearchStats) {
    let mut stats = SearchStats::default();
    let n = level.num_cells();
    let mut split = match options.split_after {
        Some(_) => SplitState::Waiting,
        None => SplitState::Off,
    };
    let words = n.div_ceil(64);
    let mut heuristic = Heuristic::new(level, analysis);
    let mut freeze = Freeze::new(level, &analysis.dead);
    let new_flood = || Flood::new(n);
    // One flood for the expanded position's region, one for its children's.
    let mut flood = new_flood();
    let mut child_flood = new_flood();
    let mut corrals = Corrals::new(n);
    let boxes_equal_goals = level.boxes().len() == level.goals().len();
    let mut occupied = vec![false; n];
    for &b in level.boxes() {
        occupied[b] = true;
    }
    let start_player = flood.fill(level, &occupied, level.player());
    let mut start_boxes: Vec<usize> = level.boxes().to_vec();
    start_boxes.sort_unstable();
    let Some(h0) = heuristic.expand(&start_boxes, start_player) else {
        let reason = "the boxes cannot be matched to distinct goals they can each reach".into();
        return (Outcome::Unsolvable { reason }, stats);
    };
    if h0 == 0 {
        return (
            Outcome::Solved(Solution::push_optimal(Vec::new(), false)),
            stats,
        );
    }
    // Every position stored, with its best known `g` and whether it was expanded.
    let mut store = PositionTable::new(words);
    let mut g_of: Vec<u32> = vec![0];
    // The bound each position was stored with: with the split bound it depends on the
    // path that reached the position (path maximum), so it is kept.
    let mut h_of: Vec<u16> = vec![clamp(h0)];
    let mut closed: Vec<bool> = vec![false];
    let mut evaluated: Vec<bool> = vec![false];
    let mut packed = Vec::with_capacity(words);
    pack(&occupied, &mut packed);
    store.find_or_insert(&packed, start_player as u16);
    let mut open = Open::default();
    open.push(h0, h0, 0);
    let mut box_list: Vec<usize> = Vec::new();
    let mut bound = h0;
    while let Some((f, i)) = open.pop() {
        // Stale entries: the position was expanded, or queued again with a smaller `f`.
        if closed[i] || f != g_of[i] + u32::from(h_of[i]) {
            continue;
        }
        bound = bound.max(f);
        let gave_up = |reason: String| Outcome::GaveUp {
            reason,
            no_plan_below: bound as usize,
        };
        if limits.max_pushes.is_some_and(|m| f as usize > m) {
            return (gave_up("push limit".into()), stats);
        }
        if stats.expanded % 1024 == 0 && limits.expired() {
            return (gave_up("time limit".into()), stats);
        }
        if store.len() > limits.max_states {
            let reason = format!("size limit ({} positions)", limits.max_states);
            return (gave_up(reason), stats);
        }
        let g = g_of[i];
        store.unpack(i, &mut occupied, &mut box_list);
        if matches!(split, SplitState::Waiting)
            && options.split_after.is_some_and(|a| store.len() > a)
        {
            let chosen = Split::choose(level, analysis, &start_boxes, start_player, h0, limits);
            split = match chosen {
                Some((_, u32::MAX)) => {
                    let reason =
                        "the boxes on one side of a straight cut cannot be put on goals even alone"
                            .to_string();
                    return (Outcome::Unsolvable { reason }, stats);
                }
                Some((chosen, _)) => SplitState::On(Box::new(chosen)),
                None => SplitState::Off,
            };
            stats.split_from = store.len();
        }
        if let SplitState::On(on) = &split {
            if on.stats.positions > SPLIT_WORTH * store.len().max(SPLIT_AFTER) {
                split = SplitState::Off;
                stats.split_until = store.len();
            }
        }
        if let SplitState::On(split) = &mut split {
            if !evaluated[i] {
                evaluated[i] = true;
                let player = usize::from(store.player_of(i));
                match split.bound(box_list.iter().copied(), player) {
                    None => {
                        stats.split_deadlocks += 1;
                        closed[i] = true;
                        continue;
                    }
                    Some(h) if h > u32::from(h_of[i]) => {
                        h_of[i] = clamp(h);
                        open.push(g + u32::from(h_of[i]), u32::from(h_of[i]), i);
                        continue;
                    }
                    Some(_) => {}
                }
            }
        }
        closed[i] = true;
        stats.expanded += 1;
        let player = flood.fill(level, &occupied, usize::from(store.player_of(i)));
        if heuristic.expand(&box_list, player).is_none() {
            unreachable!("a stored position has a finite bound");
        }
        let pruning = if options.pi_corrals {
            corrals.find(level, &analysis.dead, &occupied, &flood, boxes_equal_goals)
        } else {
            Pruning::None
        };
        match pruning {
            Pruning::None => {}
            Pruning::Corral => stats.corral_expansions += 1,
            Pruning::Dead => {
                stats.corral_deadlocks += 1;
                continue;
            }
        }
        let only = (pruning == Pruning::Corral).then_some(&corrals);
        let solved = for_each_child(
            level,
            &analysis.dead,
            (&mut child_flood, &mut freeze, &mut heuristic),
            &mut occupied,
            &box_list,
            (&flood, player),
            only,
            |push, occupied, player, matching| {
                // The split bound is evaluated lazily, when the child is taken from the
                // open list; until then the parent's less one push holds (path maximum).
                let h = match split {
                    SplitState::On(_) if matching > 0 => {
                        matching.max(u32::from(h_of[i]).saturating_sub(1))
                    }
                    _ => matching,
                };
                pack(occupied, &mut packed);
                let (j, new) = store.find_or_insert(&packed, player as u16);
                if new {
                    store.set_origin(j, i, push);
                    g_of.push(g + 1);
                    h_of.push(clamp(h));
                    closed.push(false);
                    evaluated.push(false);
                }
                if h == 0 {
                    return ControlFlow::Break(j);
                }
                if new {
                    open.push(g + 1 + u32::from(h_of[j]), u32::from(h_of[j]), j);
                } else if g + 1 < g_of[j] {
                    // Only an inconsistent bound (the split) reaches an expanded
                    // position more cheaply; it must then be expanded again.
                    if closed[j] {
                        closed[j] = false;
                        stats.reopened += 1;
                    }
                    g_of[j] = g + 1;
                    h_of[j] = h_of[j].max(clamp(h));
                    store.set_origin(j, i, push);
                    open.push(g + 1 + u32::from(h_of[j]), u32::from(h_of[j]), j);
                }
                ControlFlow::Continue(())
            },
        );
        if let ControlFlow::Break(j) = solved {
            stats.stored = store.len();
            let plan = store.plan_to(j);
            return (Outcome::Solved(Solution::push_optimal(plan, false)), stats);
        }
        stats.stored = store.len();
        if let SplitState::On(split) = &split {
            stats.split_searches = split.stats.searches;
            stats.split_positions = split.stats.positions;
        }
    }
    stats.stored = store.len();
    let reason = format!(
        "the A* search exhausted all {} positions reachable without a deadlock and none is solved",
        store.len()
    );
    (Outcome::Unsolvable { reason }, stats)
}

/// A bound is stored in 16 bits; a smaller bound is still a bound.
fn clamp(h: u32) -> u16 {
    u16::try_from(h).unwrap_or(u16::MAX)
}

/// Calls `visit` with every child of the expanded position that is not a deadlock: the
/// push, the child's boxes (in `occupied`, restored afterwards), its player square and
/// matching bound. Only boxes of `only`'s PI-corral are pushed, if given; `region`: the
/// expanded position's region (the flood's last fill) and its name. Stops at the first
/// `Break`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn for_each_child<B>(
    level: &Level,
    dead: &[bool],
    (flood, freeze, heuristic): (&mut Flood, &mut Freeze, &mut Heuristic),
    occupied: &mut [bool],
    box_list: &[usize],
    region: (&Flood, usize),
    only: Option<&Corrals>,
    mut visit: impl FnMut(Push, &[bool], usize, u32) -> ControlFlow<B>,
) -> ControlFlow<B> {
    for (k, &from) in box_list.iter().enumerate() {
        if only.is_some_and(|corral| !corral.in_corral(from)) {
            continue;
        }
        for dir in Dir::ALL {
            let Some((behind, target)) = level.push_squares(from, dir) else {
                continue;
            };
            if !region.0.reached(behind) || occupied[target] || dead[target] {
                continue;
            }
            occupied[from] = false;
            occupied[target] = true;
            let child = expand_child(
                level, flood, freeze, heuristic, occupied, from, target, k, box_list, region,
            );
            let flow = match child {
                Some((player, h)) => visit(Push { from, dir }, occupied, player, h),
                None => ControlFlow::Continue(()),
            };
            occupied[target] = false;
            occupied[from] = true;
            if flow.is_break() {
                return flow;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The child position after pushing the box on `from` to `target` (`occupied` already
/// updated): its player square and matching bound, or `None` when it is a deadlock.
/// `region`: the expanded position's region (the flood's last fill) and its name.
#[allow(clippy::too_many_arguments)]
fn expand_child(
    level: &Level,
    flood: &mut Flood,
    freeze: &mut Freeze,
    heuristic: &mut Heuristic,
    occupied: &[bool],
    from: usize,
    target: usize,
    pushed: usize,
    box_list: &[usize],
    (region, smallest): (&Flood, usize),
) -> Option<(usize, u32)> {
    if freeze.deadlocked(occupied, target) {
        return None;
    }
    let player = match region.after_push(level, occupied, from, target, smallest) {
        Some(player) => {
            debug_assert_eq!(player, flood.fill(level, occupied, from));
            player
        }
        None => flood.fill(level, occupied, from),
    };
    let h = heuristic.child(pushed, target, player, box_list)?;
    Some((player, h))
}

impl<'a> Freeze<'a> {
    /// A freeze check for `level` whose dead squares are marked in `dead`.
    pub(crate) fn new(level: &'a Level, dead: &'a [bool]) -> Freeze<'a> {
        Freeze {
            level,
            dead,
            frozen: vec![false; level.num_cells()],
            group: Vec::new(),
            budget: 0,
        }
    }
}

impl<'a> Heuristic<'a> {
    /// The matching bound of `level`'s positions, from its analysis.
    pub(crate) fn new(level: &'a Level, analysis: &'a Analysis) -> Heuristic<'a> {
        Heuristic {
            level,
            analysis,
            sides: analysis.side_table(level),
            costs: Vec::new(),
            player: 0,
            parent: Matcher::default(),
            child: Matcher::default(),
            spare_row: Vec::new(),
            bound: 0,
            goal_of: Vec::new(),
        }
    }
}
