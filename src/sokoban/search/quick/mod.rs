//! The quick search: a plan fast, not necessarily with the fewest pushes.
//!
//! It follows FESS, the feature space search of Shoham and Schaeffer (2020). Every
//! position found is placed in a *cell* of a small feature space (`features`: boxes
//! packed in the packing order, boxes packed out of it, areas the player is shut out
//! of, and goals the boxes would fall short of once the packing order's next layer is
//! filled, `capacity`). The search goes round the cells, and in each it expands the
//! position with the least *weight*: the number of moves on its path that no *advisor*
//! suggested. The advisors suggest a few moves per position that improve a feature:
//! the rescue advisor moves a box that must leave before the next layer is filled
//! (`capacity`), the packing advisor brings a box to a goal the packing order fills next
//! (a macro move, many pushes of one box along a box path), the connectivity advisor
//! the push that opens the most areas to the player. Advised moves cost nothing, every other push costs 1,
//! so the search follows the advice deeply while each cell keeps a share of the effort.
//! Ties in a cell go to the smaller matching bound.
//!
//! Its pruning is A*'s (dead squares, freeze deadlocks, an infinite matching,
//! PI-corrals), which drops only positions without a plan; its tunnel macro pushes a
//! box on through a corridor one square wide instead of stopping in it.
//!
//! Nothing it does is a proof: a plan it finds is checked like any other, and when it
//! runs out of positions it says so without calling the level unsolvable (the macros
//! leave some pushes out).

pub mod anytime;
mod bipartite;
mod boxpath;
mod capacity;
mod clearing;
mod features;
mod options;
mod origins;
mod packing;
pub mod plans;
pub mod reverse;
mod sides;
#[cfg(test)]
mod tests;
pub mod turns;
mod weighted;

use super::corral::{Corrals, Pruning};
use super::flood::Flood;
use super::freeze::Freeze;
use super::heuristic::Heuristic;
use super::positions::{pack, pack_moved, PositionTable};
use crate::sokoban::Limits;
use boxpath::{BoxPaths, Player, Way};
use capacity::Capacity;
use features::{Cell, Features};
use gridsat_encodings::sokoban::analysis::UNREACHABLE;
use gridsat_encodings::sokoban::{Analysis, Dir, Level, Push};
use origins::Origins;
use packing::PackingOrder;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

pub use options::Options;
pub use plans::QuickReport;

/// What the quick search did, for reports.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct QuickStats {
    pub stored: usize,
    pub expanded: usize,
    /// Cells of the feature space met, and the most boxes packed in the packing order
    /// in any of them.
    pub cells: usize,
    pub most_packed: usize,
    /// Children dropped as freeze deadlocks, without a finite matching, or by `below`.
    pub frozen: usize,
    pub unmatched: usize,
    pub above: usize,
    /// Children that were positions already stored.
    pub again: usize,
    /// Expansions the corral pruning dropped (a dead corral) or cut to one corral.
    pub dead_corrals: usize,
    pub corral_cuts: usize,
    /// Expansions where the rescue advisor had a move (`capacity`), where the packing
    /// advisor had one, where it had none but the clearing advisor had one, and where
    /// none had.
    pub rescued: usize,
    pub advised: usize,
    pub cleared: usize,
    pub unadvised: usize,
    /// States the advisors' box paths looked at.
    pub box_path_states: usize,
    /// Which search found the plan (`Options::name`); empty without one.
    pub found_by: &'static str,
}

/// How the quick search ended: a plan, or why there is none.
pub type Found = Result<Vec<Push>, String>;

/// Most states a box's moves look at (`Options::box_moves`): every square and side.
const BOX_MOVE_STATES: usize = usize::MAX;

/// A cell's positions waiting to be expanded: least weight, then least matching bound,
/// then the oldest.
type Queue = BinaryHeap<Reverse<(u32, u32, u32)>>;

/// Searches `level` for any plan; see the module comment.
pub fn search(level: &Level, limits: &Limits, options: Options) -> (Found, QuickStats) {
    turns::search(level, limits, &[options])
}

/// One quick search and everything it keeps.
struct Search<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    options: Options,
    heuristic: Heuristic<'a>,
    freeze: Freeze<'a>,
    features: Features<'a>,
    capacity: Capacity<'a>,
    flood: Flood,
    child_flood: Flood,
    corrals: Corrals,
    paths: BoxPaths,
    goal: Vec<bool>,
    boxes_equal_goals: bool,
    store: PositionTable,
    g_of: Vec<u32>,
    weight: Vec<u32>,
    closed: Vec<bool>,
    /// Each position's matching bound and cell (an index into `cells`): a position
    /// found again needs neither worked out again.
    h_of: Vec<u32>,
    cell_at: Vec<u32>,
    origins: Origins,
    cell_of: HashMap<Cell, usize>,
    /// Each cell's positions waiting, and its features.
    cells: Vec<Queue>,
    features_of: Vec<Cell>,
    expanded: usize,
    round: Round,
    /// What pruned the children, and how often the packing advisor had a move.
    stats: QuickStats,
    // Scratch.
    occupied: Vec<bool>,
    box_list: Vec<usize>,
    packed: Vec<u64>,
}

/// Where the search is in its round of the cells: the next cell, the number of cells
/// the round visits, and whether it expanded anything yet.
#[derive(Default)]
struct Round {
    next: usize,
    end: usize,
    any: bool,
}

/// What the advisors suggest in a position (a move of box number `k`, as `(k, child)`).
enum Advice {
    Rescue((usize, Child)),
    Pack((usize, Child)),
    Clear((usize, Child)),
    None,
}

/// A child about to be stored: its pushes and weight, and the smallest square of the
/// player's region after them when the move's search knows it (`BoxPaths::every_move`).
struct Child {
    pushes: Vec<Push>,
    advised: bool,
    region: Option<usize>,
}

impl Child {
    /// A child whose region is not known yet.
    fn new(pushes: Vec<Push>, advised: bool) -> Child {
        let region = None;
        Child {
            pushes,
            advised,
            region,
        }
    }
}

impl<'a> Search<'a> {
    fn new(
        level: &'a Level,
        analysis: &'a Analysis,
        order: &'a PackingOrder,
        options: Options,
    ) -> Search<'a> {
        let n = level.num_cells();
        let mut goal = vec![false; n];
        for &g in level.goals() {
            goal[g] = true;
        }
        Search {
            level,
            analysis,
            options,
            heuristic: Heuristic::new(level, analysis),
            freeze: Freeze::new(level, &analysis.dead),
            features: Features::new(level, order),
            capacity: Capacity::new(level, order),
            flood: Flood::new(n),
            child_flood: Flood::new(n),
            corrals: Corrals::new(n),
            paths: BoxPaths::new(n),
            goal,
            boxes_equal_goals: level.boxes().len() == level.goals().len(),
            store: PositionTable::new(n.div_ceil(64)),
            g_of: Vec::new(),
            weight: Vec::new(),
            closed: Vec::new(),
            h_of: Vec::new(),
            cell_at: Vec::new(),
            origins: Origins::default(),
            cell_of: HashMap::new(),
            cells: Vec::new(),
            features_of: Vec::new(),
            expanded: 0,
            round: Round::default(),
            stats: QuickStats::default(),
            occupied: vec![false; n],
            box_list: Vec::new(),
            packed: Vec::new(),
        }
    }

    /// Stores the level's start; `Some` when that already settles it (solved, or no
    /// finite matching).
    fn start(&mut self) -> Option<Found> {
        let level = self.level;
        self.occupied.iter_mut().for_each(|o| *o = false);
        for &b in level.boxes() {
            self.occupied[b] = true;
        }
        let start_player = self.flood.fill(level, &self.occupied, level.player());
        self.box_list = level.boxes().to_vec();
        self.box_list.sort_unstable();
        let Some(h0) = self.heuristic.expand(&self.box_list, start_player) else {
            return Some(Err("no finite matching".into()));
        };
        if h0 == 0 {
            return Some(Ok(Vec::new()));
        }
        pack(&self.occupied, &mut self.packed);
        self.store.find_or_insert(&self.packed, start_player as u16);
        self.g_of.push(0);
        self.weight.push(0);
        self.closed.push(false);
        self.origins.set(0, &[]);
        let flood = &self.flood;
        let mut cell = self.features.cell(&self.occupied, |c| flood.reached(c));
        if self.options.shortfall {
            cell.shortfall = self.shortfall(false);
        }
        let c = self.cell_index(cell);
        self.h_of.push(h0);
        self.cell_at.push(c as u32);
        self.queue(c, 0, h0, 0);
        self.round = Round {
            next: 0,
            end: self.cells.len(),
            any: false,
        };
        None
    }

    /// Goes on round the cells until the turn ends at `until` (each round visits the
    /// cells there were when it began, one expansion each); `Some` when the search
    /// ends: a plan, a limit, or no positions left.
    fn turn(&mut self, limits: &Limits, until: Instant) -> Option<Found> {
        while Instant::now() < until {
            if self.round.next == self.round.end {
                if !self.round.any {
                    return Some(Err(format!(
                        "the quick search ran out of positions after {} (its macros leave some pushes out, so this proves nothing)",
                        self.store.len()
                    )));
                }
                self.round = Round {
                    next: 0,
                    end: self.cells.len(),
                    any: false,
                };
            }
            let c = self.round.next;
            self.round.next += 1;
            let Some(i) = self.next_of(c) else {
                continue;
            };
            self.round.any = true;
            if self.expanded.is_multiple_of(64) && limits.expired() {
                return Some(Err("time limit".into()));
            }
            if self.store.len() > limits.max_states {
                return Some(Err(format!("size limit ({} positions)", limits.max_states)));
            }
            if let Some(solved) = self.expand(i) {
                return Some(Ok(self.origins.plan_to(&self.store, solved)));
            }
        }
        None
    }

    /// The next position of cell `c` to expand, if any is left.
    fn next_of(&mut self, c: usize) -> Option<usize> {
        while let Some(Reverse((_, _, i))) = self.cells[c].pop() {
            if !self.closed[i as usize] {
                return Some(i as usize);
            }
        }
        None
    }

    /// The number of `cell` in `cells`, which gets it when it is new.
    fn cell_index(&mut self, cell: Cell) -> usize {
        let next = self.cells.len();
        let c = *self.cell_of.entry(cell).or_insert(next);
        if c == next {
            self.cells.push(Queue::new());
            self.features_of.push(cell);
            let packed = usize::from(cell.packed);
            self.stats.most_packed = self.stats.most_packed.max(packed);
        }
        c
    }

    fn queue(&mut self, c: usize, weight: u32, h: u32, i: usize) {
        self.cells[c].push(Reverse((weight, h, i as u32)));
    }

    /// Expands position `i`: stores its children (advised ones first); returns a solved
    /// child if one turns up.
    fn expand(&mut self, i: usize) -> Option<usize> {
        let level = self.level;
        self.closed[i] = true;
        self.expanded += 1;
        self.store.unpack(i, &mut self.occupied, &mut self.box_list);
        let player = self
            .flood
            .fill(level, &self.occupied, usize::from(self.store.player_of(i)));
        self.heuristic
            .expand_from(i, self.store.parent_of(i), &self.box_list, player)?;
        let pruning = self.corrals.find(
            level,
            &self.analysis.dead,
            &self.occupied,
            &self.flood,
            self.boxes_equal_goals,
        );
        if pruning == Pruning::Dead {
            self.stats.dead_corrals += 1;
            return None;
        }
        let only_corral = pruning == Pruning::Corral;
        self.stats.corral_cuts += usize::from(only_corral);
        let mut children: Vec<(usize, Child)> = Vec::new();
        match self.packing_advice(player) {
            Advice::Rescue(advice) => {
                self.stats.rescued += 1;
                children.push(advice);
            }
            Advice::Pack(advice) => {
                self.stats.advised += 1;
                children.push(advice);
            }
            Advice::Clear(advice) => {
                self.stats.cleared += 1;
                children.push(advice);
            }
            Advice::None => self.stats.unadvised += 1,
        }
        let box_list = std::mem::take(&mut self.box_list);
        for (k, &from) in box_list.iter().enumerate() {
            if only_corral && !self.corrals.in_corral(from) {
                continue;
            }
            if self.options.box_moves {
                let (level, analysis) = (self.level, self.analysis);
                self.paths.every_move(
                    level,
                    &analysis.dead,
                    Way::Push,
                    &mut self.occupied,
                    from,
                    Player::In(&self.flood),
                    BOX_MOVE_STATES,
                    |pushes, region| {
                        let child = Child::new(pushes.to_vec(), false);
                        children.push((k, Child { region, ..child }));
                    },
                );
                continue;
            }
            for dir in Dir::ALL {
                let Some((behind, target)) = level.push_squares(from, dir) else {
                    continue;
                };
                if !self.flood.reached(behind)
                    || self.occupied[target]
                    || self.analysis.dead[target]
                {
                    continue;
                }
                children.push((k, Child::new(self.tunnel(from, dir), false)));
            }
        }
        self.box_list = box_list;
        let weight = self.weight[i];
        let g = self.g_of[i];
        let parent_areas = self.features_of[self.cell_at[i] as usize].areas;
        // Evaluate every child, then mark the one opening the most areas as advised.
        let mut evaluated: Vec<(usize, Child, Cell, u32, usize)> = Vec::new();
        for (k, child) in children {
            let Some((c, h, j)) = self.child(i, k, (&child.pushes, child.region), g) else {
                continue;
            };
            if h == 0 {
                return Some(j);
            }
            evaluated.push((k, child, self.features_of[c], h, j));
        }
        let opener = evaluated
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.1.advised && e.2.areas < parent_areas)
            .min_by_key(|(_, e)| (e.2.areas, e.3))
            .map(|(x, _)| x);
        for (x, (_, child, _, h, j)) in evaluated.into_iter().enumerate() {
            let advised = child.advised || Some(x) == opener;
            let w = weight + u32::from(!advised);
            if w < self.weight[j] || self.weight[j] == u32::MAX {
                self.weight[j] = w;
                self.queue(self.cell_at[j] as usize, w, h, j);
            }
        }
        None
    }

    /// The pushes of box `from` in `dir`, continued through a corridor one square wide
    /// (the player can only follow the box there).
    fn tunnel(&self, from: usize, dir: Dir) -> Vec<Push> {
        let level = self.level;
        let mut pushes = vec![Push { from, dir }];
        let (mut at, mut to) = (from, level.neighbour(from, dir).expect("checked"));
        while !self.goal[to] && in_tunnel(level, at, dir) && in_tunnel(level, to, dir) {
            let Some(next) = level.neighbour(to, dir) else {
                break;
            };
            if self.occupied[next] || self.analysis.dead[next] {
                break;
            }
            pushes.push(Push { from: to, dir });
            (at, to) = (to, next);
        }
        pushes
    }

    /// The child of position `i` after `pushes` (all of box number `k`): stored (or found
    /// again, keeping the shorter way) unless it is a deadlock; its cell, matching bound
    /// and number. `region`: the smallest square of the player's region after them, when
    /// known. `self.occupied` is left as it was.
    fn child(
        &mut self,
        i: usize,
        k: usize,
        (pushes, region): (&[Push], Option<usize>),
        g: u32,
    ) -> Option<(usize, u32, usize)> {
        let level = self.level;
        let from = pushes[0].from;
        let last = *pushes.last().expect("a move has pushes");
        let to = level.neighbour(last.from, last.dir).expect("a legal push");
        let at = last.from;
        self.occupied[from] = false;
        self.occupied[to] = true;
        let result = (|| {
            if self.freeze.deadlocked(&self.occupied, to) {
                self.stats.frozen += 1;
                return None;
            }
            pack_moved(self.store.key(i).0, (from, to), &mut self.packed);
            debug_assert_eq!(self.packed, {
                let mut p = Vec::new();
                pack(&self.occupied, &mut p);
                p
            });
            self.store.prefetch(&self.packed);
            // The player's region: known, or told from the parent's when it can be (the
            // box's squares on the way all in the parent's region), else filled.
            let parent = usize::from(self.store.player_of(i));
            let (smallest, filled) = if let Some(smallest) = region {
                debug_assert_eq!(smallest, self.child_flood.fill(level, &self.occupied, at));
                (smallest, false)
            } else if pushes[1..].iter().all(|p| self.flood.reached(p.from)) {
                let (region, occupied) = (&self.flood, &self.occupied);
                self.child_flood
                    .fill_after(region, level, occupied, (from, to), (at, parent))
            } else {
                (self.child_flood.fill(level, &self.occupied, at), true)
            };
            let moved = pushes.len() as u32;
            let child_g = g + moved;
            // A position found before has the bound and cell it had then.
            let known = self.store.find(&self.packed, smallest as u16);
            let h = match known {
                Some(j) => self.h_of[j],
                None => {
                    let h = self
                        .heuristic
                        .child_after(k, to, smallest, &self.box_list, moved);
                    let Some(h) = h else {
                        self.stats.unmatched += 1;
                        return None;
                    };
                    h
                }
            };
            if self.options.below.is_some_and(|b| child_g + h >= b) {
                self.stats.above += 1;
                return None;
            }
            if let Some(j) = known {
                self.stats.again += 1;
                if child_g < self.g_of[j] {
                    // A shorter way to a known position: keep it (the parent's `g`
                    // stays below the child's, so the origins never form a cycle).
                    self.g_of[j] = child_g;
                    self.origins.set(j, pushes);
                    self.store.set_origin(j, i, pushes[0]);
                }
                return Some((self.cell_at[j] as usize, h, j));
            }
            if !filled {
                // The cell needs the region's squares.
                self.child_flood.fill(level, &self.occupied, at);
            }
            let (j, _) = self.store.find_or_insert(&self.packed, smallest as u16);
            self.g_of.push(child_g);
            self.weight.push(u32::MAX);
            self.closed.push(false);
            self.origins.set(j, pushes);
            self.store.set_origin(j, i, pushes[0]);
            let flood = &self.child_flood;
            let mut cell = self.features.cell(&self.occupied, |c| flood.reached(c));
            if self.options.shortfall {
                let moved = std::mem::replace(&mut self.box_list[k], to);
                cell.shortfall = self.shortfall(true);
                self.box_list[k] = moved;
            }
            let c = self.cell_index(cell);
            self.h_of.push(h);
            self.cell_at.push(c as u32);
            Some((c, h, j))
        })();
        self.occupied[to] = false;
        self.occupied[from] = true;
        result
    }

    /// The packing advisor's move: a box not on a goal brought along its shortest box
    /// path to an empty goal of the packing order's next layer (of the nearest boxes, the
    /// one with the shortest path; when none of them has one, the next nearest box that
    /// has one); when no box tried has a path, the clearing advisor's
    /// move out of the way of the nearest box that has one (`clearing`).
    fn packing_advice(&mut self, player: usize) -> Advice {
        let level = self.level;
        let Some(frontier) = self.features.frontier(&self.occupied) else {
            return Advice::None;
        };
        if self.options.rescue {
            if let Some(advice) = self.rescue_advice(frontier) {
                return Advice::Rescue(advice);
            }
        }
        let targets: Vec<usize> = level
            .goals()
            .iter()
            .enumerate()
            .filter(|&(_, &g)| !self.occupied[g] && self.features.is_next(g, frontier))
            .map(|(k, _)| k)
            .collect();
        let analysis = self.analysis;
        let distance = |c: usize| {
            targets
                .iter()
                .map(|&t| analysis.to_goal[t][c])
                .min()
                .unwrap_or(UNREACHABLE)
        };
        let mut candidates: Vec<(u32, usize)> = self
            .box_list
            .iter()
            .enumerate()
            .filter(|&(_, &b)| !self.goal[b])
            .map(|(k, &b)| (distance(b), k))
            .filter(|&(d, _)| d != UNREACHABLE)
            .collect();
        candidates.sort_unstable();
        let goal_cells: Vec<usize> = targets.iter().map(|&t| level.goals()[t]).collect();
        let is_target = |c: usize| goal_cells.contains(&c);
        let mut best: Option<(usize, Vec<Push>)> = None;
        let nearest = self.options.packing_candidates;
        let tried = nearest + self.options.fallback_candidates;
        for (x, &(_, k)) in candidates.iter().enumerate().take(tried) {
            // Of the nearest, the shortest path; past them, the first box with one.
            if x >= nearest && best.is_some() {
                break;
            }
            let from = self.box_list[k];
            let path = self.paths.find(
                level,
                analysis,
                &mut self.occupied,
                from,
                Player::In(&self.flood),
                &is_target,
                &distance,
                self.options.box_path_states,
            );
            if let Some(path) = path {
                if best.as_ref().is_none_or(|(_, p)| path.len() < p.len()) {
                    best = Some((k, path));
                }
            }
        }
        if let Some((k, pushes)) = best {
            return Advice::Pack((k, Child::new(pushes, true)));
        }
        if self.options.clearing {
            // The nearest box only: trying more costs more than their moves bring.
            for &(_, k) in candidates.iter().take(1) {
                if let Some(advice) = self.clearing_advice(player, k, &is_target, &distance) {
                    return Advice::Clear(advice);
                }
            }
        }
        Advice::None
    }
}

/// Whether `cell`'s two neighbours across `dir` are both outside the level (walls).
fn in_tunnel(level: &Level, cell: usize, dir: Dir) -> bool {
    let (a, b) = match dir {
        Dir::Left | Dir::Right => (Dir::Up, Dir::Down),
        Dir::Up | Dir::Down => (Dir::Left, Dir::Right),
    };
    level.neighbour(cell, a).is_none() && level.neighbour(cell, b).is_none()
}
