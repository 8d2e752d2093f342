//! The split bound: cut the level in two and solve each half's boxes on their own.
//!
//! **The bound.** A straight cut (between two rows or two columns) splits the squares
//! into two parts, and a position's boxes into those on either side. For a set `S` of
//! boxes, `cost(S)` is the fewest pushes that bring them onto goals (any goals) in the
//! level with *only* those boxes, from the player's square. In any plan from the
//! position, keep only the pushes of `S`'s boxes: each is still possible without the
//! other boxes (removing boxes only frees squares, for the pushed box and for the
//! player's walks), and at the end `S`'s boxes stand on goals. So the plan pushes them
//! at least `cost(S)` times; the two halves' boxes are disjoint, so
//! `cost(A) + cost(B)` is a lower bound, and a half with no plan at all proves the
//! position dead.
//!
//! Unlike the matching bound this sees boxes getting in each other's way, inside a
//! half. It is not consistent (a box crossing the cut leaves one half and joins the
//! other), so the search takes the path maximum and reopens positions reached more
//! cheaply (see `astar`).
//!
//! **Half searches.** Each `cost` comes from a small A* over the half's boxes alone
//! (the level's own analysis, dead squares and pruning; only the boxes differ), capped
//! at `HALF_STATES` positions, after which the bound it has proven is used instead: a
//! smaller bound is still a bound. Every search also teaches the memo (`Memo`) about
//! the positions it stored, and the next searches use what it knows, as hierarchical
//! A* caches its abstract searches:
//! - with `C` the half's optimum (or a proven lower bound on it), a position the search
//!   reached after `g` pushes needs at least `C - g` more: fewer would make a plan from
//!   the half's start shorter than `C`;
//! - the positions of the plan found need exactly `C - g` (a suffix of an optimal plan is
//!   optimal);
//! - when the search runs out of positions, every one it stored has no plan.
//!
//! Inside a half search, a position whose exact cost the memo holds ends the search
//! when it comes first off the open list: its `f` is then the least of all, a lower
//! bound, and a plan of that length goes through it.
//!
//! A half's cost depends only on its boxes and the player's region without the other
//! boxes, which is exactly a position of the half's own search: so the memo is keyed by
//! it, and answers across halves, cuts and the whole search.

use super::corral::{Corrals, Pruning};
use super::expand::{for_each_child, Skip};
use super::flood::Flood;
use super::freeze::Freeze;
use super::heuristic::Heuristic;
use super::open::Open;
use super::positions::{pack, PositionTable};
use crate::sokoban::Limits;
use gridsat_encodings::grid::Cell;
use gridsat_encodings::sokoban::{Analysis, Level};
use std::cmp::Reverse;
use std::ops::ControlFlow;

/// Most positions one half search stores: small halves are solved outright, large ones
/// give the bound proven so far.
const HALF_STATES: usize = 1000;
/// The same, on the start position, when choosing the cut.
const START_STATES: usize = 20_000;
/// How cuts compare: the larger bound, then fewer crossings, then fewer boxes more on
/// one side than on the other.
type Rank = (Reverse<u32>, usize, usize);
/// A cut: between rows (true) or columns, before which one.
type Cut = (bool, usize);

/// Most positions the memo holds; past it, it only sharpens what it has.
const MEMO_POSITIONS: usize = 8_000_000;

/// Counts of the half searches, for reports.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SplitStats {
    /// Half searches run.
    pub(crate) searches: usize,
    /// Positions those searches stored.
    pub(crate) positions: usize,
}

/// What is known about the cost of a half position: at least `bound` pushes, exactly
/// when `exact`; `settled`: a half search from it gave up at its cap, so the bound is
/// used as it is rather than searched for again. `DEAD`: no plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Known {
    bound: u32,
    exact: bool,
    settled: bool,
}

const DEAD: Known = Known {
    bound: u32::MAX,
    exact: true,
    settled: true,
};

impl Known {
    fn exact(bound: u32) -> Known {
        Known {
            bound,
            exact: true,
            settled: true,
        }
    }

    fn at_least(bound: u32) -> Known {
        Known {
            bound,
            exact: false,
            settled: false,
        }
    }
}

/// Half positions (packed boxes, the region's smallest square) and what is known of
/// their cost.
struct Memo {
    table: PositionTable,
    known: Vec<Known>,
}

impl Memo {
    fn get(&self, words: &[u64], player: u16) -> Option<Known> {
        self.table.find(words, player).map(|i| self.known[i])
    }

    /// Records `known` for the position, keeping the sharper of old and new.
    fn learn(&mut self, words: &[u64], player: u16, known: Known) {
        if let Some(i) = self.table.find(words, player) {
            let old = &mut self.known[i];
            if known.exact {
                *old = known;
            } else if !old.exact {
                old.bound = old.bound.max(known.bound);
                old.settled |= known.settled;
            }
        } else if self.table.len() < MEMO_POSITIONS {
            self.table.find_or_insert(words, player);
            self.known.push(known);
        }
    }
}

/// One half search's working storage, reused from search to search.
struct Scratch<'a> {
    heuristic: Heuristic<'a>,
    freeze: Freeze<'a>,
    flood: Flood,
    child_flood: Flood,
    corrals: Corrals,
    occupied: Vec<bool>,
    boxes: Vec<usize>,
    packed: Vec<u64>,
}

pub(crate) struct Split<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    /// Which part each square is in.
    part: Vec<bool>,
    half_states: usize,
    limits: Limits,
    memo: Memo,
    scratch: Scratch<'a>,
    halves: [Vec<usize>; 2],
    pub(crate) stats: SplitStats,
}

impl<'a> Split<'a> {
    fn new(level: &'a Level, analysis: &'a Analysis, limits: &Limits) -> Split<'a> {
        let n = level.num_cells();
        let words = n.div_ceil(64);
        Split {
            level,
            analysis,
            part: vec![false; n],
            half_states: HALF_STATES,
            limits: limits.clone(),
            memo: Memo {
                table: PositionTable::new(words),
                known: Vec::new(),
            },
            scratch: Scratch {
                heuristic: Heuristic::new(level, analysis),
                freeze: Freeze::new(level, &analysis.dead),
                flood: Flood::new(n),
                child_flood: Flood::new(n),
                corrals: Corrals::new(n),
                occupied: vec![false; n],
                boxes: Vec::new(),
                packed: Vec::with_capacity(words),
            },
            halves: [Vec::new(), Vec::new()],
            stats: SplitStats::default(),
        }
    }

    /// The split of `level` whose bound on the start position (the `boxes`, the player
    /// on `player`) is largest, with that bound, if it exceeds `matching`. `u32::MAX`:
    /// a half of the start has no plan.
    pub(crate) fn choose(
        level: &'a Level,
        analysis: &'a Analysis,
        boxes: &[usize],
        player: usize,
        matching: u32,
        limits: &Limits,
    ) -> Option<(Split<'a>, u32)> {
        let mut split = Split::new(level, analysis, limits);
        // The start decides which cut (if any) is used: worth a closer look.
        split.half_states = START_STATES;
        let cuts = (1..level.cols())
            .map(|c| (false, c))
            .chain((1..level.rows()).map(|r| (true, r)));
        let mut best: Option<(Rank, Cut)> = None;
        for (by_row, at) in cuts {
            split.cut(by_row, at);
            let first = boxes.iter().filter(|&&b| split.part[b]).count();
            if first == 0 || first == boxes.len() {
                continue;
            }
            let Some(bound) = split.bound(boxes.iter().copied(), player) else {
                // A dead half: the start itself is dead; any cut shows it again.
                return Some((split, u32::MAX));
            };
            if limits.expired() {
                return None;
            }
            // Among equal bounds, the cut that boxes and the player can cross in the
            // fewest places: a box crossing it leaves one half for the other, which is
            // where the bound is weakest.
            let crossings = split.crossings(by_row, at);
            let balance = first.abs_diff(boxes.len() - first);
            let rank = (Reverse(bound), crossings, balance);
            if best.is_none_or(|(r, _)| rank < r) {
                best = Some((rank, (by_row, at)));
            }
        }
        split.half_states = HALF_STATES;
        let ((Reverse(bound), _, _), (by_row, at)) = best?;
        if bound <= matching {
            return None;
        }
        split.cut(by_row, at);
        Some((split, bound))
    }

    /// Pairs of neighbouring squares on either side of the cut before row (or column) `at`.
    fn crossings(&self, by_row: bool, at: usize) -> usize {
        (0..self.level.num_cells())
            .filter(|&cell| {
                let p = self.level.position(cell);
                let (line, next) = if by_row {
                    (p.row, Cell::new(p.row + 1, p.col))
                } else {
                    (p.col, Cell::new(p.row, p.col + 1))
                };
                line + 1 == at && self.level.cell_at(next).is_some()
            })
            .count()
    }

    /// Cuts before row (or column) `at`.
    fn cut(&mut self, by_row: bool, at: usize) {
        for (cell, part) in self.part.iter_mut().enumerate() {
            let p = self.level.position(cell);
            *part = if by_row { p.row < at } else { p.col < at };
        }
    }

    /// `cost` of the boxes on each side of the cut, summed; `None` when a half has no
    /// plan.
    pub(crate) fn bound(
        &mut self,
        boxes: impl Iterator<Item = usize>,
        player: usize,
    ) -> Option<u32> {
        let [mut first, mut second] = std::mem::take(&mut self.halves);
        first.clear();
        second.clear();
        for b in boxes {
            if self.part[b] {
                first.push(b);
            } else {
                second.push(b);
            }
        }
        let total = self
            .cost(&first, player)
            .and_then(|a| Some(a + self.cost(&second, player)?));
        self.halves = [first, second];
        total
    }

    /// The cost of the boxes on `half` (in square order) alone, the player on `player`.
    fn cost(&mut self, half: &[usize], player: usize) -> Option<u32> {
        if half.is_empty() {
            return Some(0);
        }
        let s = &mut self.scratch;
        for &c in half {
            s.occupied[c] = true;
        }
        let region = s.flood.fill(self.level, &s.occupied, player);
        pack(&s.occupied, &mut s.packed);
        for &c in half {
            s.occupied[c] = false;
        }
        let known = match self.memo.get(&s.packed, region as u16) {
            Some(known) if known.settled => known,
            _ => {
                let key = s.packed.clone();
                let known = self.search(half, region);
                self.memo.learn(&key, region as u16, known);
                known
            }
        };
        (known != DEAD).then_some(known.bound)
    }

    /// A* over the boxes on `half` alone from the player's region `region` (see the
    /// module comment); what it found out goes into the memo.
    fn search(&mut self, half: &[usize], region: usize) -> Known {
        self.stats.searches += 1;
        let level = self.level;
        let dead = &self.analysis.dead;
        let boxes_equal_goals = half.len() == level.goals().len();
        let s = &mut self.scratch;
        let memo = &mut self.memo;
        let mut store = PositionTable::new(s.packed.len());
        for &c in half {
            s.occupied[c] = true;
        }
        pack(&s.occupied, &mut s.packed);
        for &c in half {
            s.occupied[c] = false;
        }
        store.find_or_insert(&s.packed, region as u16);
        let remembered = memo.get(&s.packed, region as u16);
        let Some(matching) = s.heuristic.expand(half, region) else {
            memo.learn(&s.packed, region as u16, DEAD);
            return DEAD;
        };
        if matching == 0 {
            // Every box on a goal already.
            return Known::exact(0);
        }
        let h0 = matching.max(remembered.map_or(0, |k| k.bound));
        let mut g_of: Vec<u32> = vec![0];
        let mut h_of: Vec<u32> = vec![h0];
        let mut closed = vec![false];
        let mut exact = vec![false];
        let mut open = Open::default();
        open.push(h0, h0, 0);
        // The half's optimum (or bound), and where the plan found ends.
        let mut result: Option<(Known, Option<usize>)> = None;
        while let Some((f, i)) = open.pop() {
            if closed[i] || f != g_of[i] + h_of[i] {
                continue;
            }
            if exact[i] {
                result = Some((Known::exact(f), Some(i)));
                break;
            }
            if store.len() > self.half_states || self.limits.expired() {
                let settled = Known {
                    settled: true,
                    ..Known::at_least(f)
                };
                result = Some((settled, None));
                break;
            }
            closed[i] = true;
            let g = g_of[i];
            store.unpack(i, &mut s.occupied, &mut s.boxes);
            let player = s
                .flood
                .fill(level, &s.occupied, usize::from(store.player_of(i)));
            if s.heuristic.expand(&s.boxes, player).is_none() {
                unreachable!("a stored position has a finite bound");
            }
            let pruning = s
                .corrals
                .find(level, dead, &s.occupied, &s.flood, boxes_equal_goals);
            if pruning == Pruning::Dead {
                continue;
            }
            let only = (pruning == Pruning::Corral).then_some(&s.corrals);
            let packed = &mut s.packed;
            let solved = for_each_child(
                level,
                dead,
                (&mut s.child_flood, &mut s.freeze, &mut s.heuristic),
                &mut s.occupied,
                &s.boxes,
                (&s.flood, player),
                only,
                &mut Skip::none(),
                |push, occupied, child_player, matching, _| {
                    pack(occupied, packed);
                    let known = memo.get(packed, child_player as u16);
                    if known == Some(DEAD) {
                        return ControlFlow::Continue(());
                    }
                    let mut h = matching.max(h_of[i].saturating_sub(1));
                    let mut is_exact = false;
                    if let Some(known) = known {
                        h = h.max(known.bound);
                        is_exact = known.exact;
                    }
                    let (j, new) = store.find_or_insert(packed, child_player as u16);
                    if new {
                        g_of.push(g + 1);
                        h_of.push(h);
                        closed.push(false);
                        exact.push(is_exact);
                        store.set_origin(j, i, push);
                        open.push(g + 1 + h, h, j);
                    } else if g + 1 < g_of[j] {
                        closed[j] = false;
                        g_of[j] = g + 1;
                        h_of[j] = h_of[j].max(h);
                        store.set_origin(j, i, push);
                        open.push(g + 1 + h_of[j], h_of[j], j);
                    }
                    if matching == 0 {
                        return ControlFlow::Break(j);
                    }
                    ControlFlow::Continue(())
                },
            );
            if let ControlFlow::Break(j) = solved {
                result = Some((Known::exact(g + 1), Some(j)));
                break;
            }
        }
        self.stats.positions += store.len();
        s.occupied.iter_mut().for_each(|o| *o = false);
        let Some((known, end)) = result else {
            // Ran out of positions: none of them has a plan.
            for i in 0..store.len() {
                let (words, player) = store.key(i);
                memo.learn(words, player, DEAD);
            }
            return DEAD;
        };
        // Every stored position is at least `known.bound - g` from a solution.
        for i in 0..store.len() {
            let rest = known.bound.saturating_sub(g_of[i]);
            if rest > h_of[i] {
                let (words, player) = store.key(i);
                memo.learn(words, player, Known::at_least(rest));
            }
        }
        // The plan found: its positions are exactly that far from a solution.
        if let Some(end) = end {
            let mut path = vec![end];
            while let Some(parent) = store.parent_of(*path.last().expect("not empty")) {
                path.push(parent);
            }
            let last = path.len() - 1;
            for (back, &i) in path.iter().enumerate() {
                let (words, player) = store.key(i);
                let done = (last - back) as u32;
                let bound = known.bound - done;
                memo.learn(words, player, Known::exact(bound));
            }
        }
        known
    }
}
