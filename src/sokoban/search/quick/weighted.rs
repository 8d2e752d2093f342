//! The weighted search: best-first by `pushes + WEIGHT x matching bound` (weighted A*),
//! with A*'s children and pruning (dead squares, freeze deadlocks, an infinite matching,
//! PI-corrals, the pair table's deadlocks) and bound (the matching, raised by the pair
//! table where it is built), and no macros.
//!
//! FESS's advisors pack the goals in an order and avoid moving a packed box again. On a
//! level where every box stands beside its goal but the player can only reach the far
//! boxes through squares that goals and boxes block in turn (Microban II 131: 44 boxes
//! in diagonal lanes), every plan moves boxes onto goals and off them again, which the
//! packing order never advises; the weighted search does not know about orders, only
//! that a position nearer the goals by its bound is worth a few pushes more. It plans 131
//! (88 pushes) and Sasquatch 19, which no other quick search plans.
//!
//! The weight is a narrow choice: on 131 the plan comes after some 10 s with 3, 19 s with
//! 8/3 and 29 s with 5/2, and not within a minute with 2, 10/3, 4, 6 or 10 (measured as
//! A* with a weighted order, 2026-12-07). Why it is so narrow was not measured: with
//! less weight the search spreads wider over the pushes so far, with more it goes deeper
//! into the nearly packed positions first.
//!
//! A position reached again with fewer pushes is expanded again, so that under
//! `Options::below` (which drops the children whose pushes and bound reach it) the
//! search misses no plan: asked for fewer pushes than the optimum plus one, it finds an
//! optimal plan.

use super::{Found, Options};
use crate::sokoban::search::astar::PAIR_BYTES;
use crate::sokoban::search::corral::{Corrals, Pruning};
use crate::sokoban::search::expand::{for_each_child, Skip};
use crate::sokoban::search::flood::Flood;
use crate::sokoban::search::freeze::Freeze;
use crate::sokoban::search::heuristic::Heuristic;
use crate::sokoban::search::open::Open;
use crate::sokoban::search::pairs::{excess_raised, PairBound, PairScratch, PairTable};
use crate::sokoban::search::positions::{pack, PositionTable};
use crate::sokoban::Limits;
use gridsat_encodings::sokoban::{Analysis, Level};
use std::ops::ControlFlow;
use std::time::Instant;

/// How many pushes a push less of the bound is worth (see the module comment).
pub(super) const WEIGHT: u32 = 3;

/// The weighted search and everything it keeps.
pub(super) struct WeightedSearch<'a> {
    level: &'a Level,
    analysis: &'a Analysis,
    below: Option<u32>,
    heuristic: Heuristic<'a>,
    freeze: Freeze<'a>,
    flood: Flood,
    child_flood: Flood,
    corrals: Corrals,
    /// A*'s pair table (`pairs`), built at the first turn where it fits: two boxes
    /// that block each other for good are a deadlock, and their excess raises the
    /// bound (Sasquatch 19 plans in a fifth of the positions with it).
    pairs: Option<Option<PairTable>>,
    pair_scratch: PairScratch,
    boxes_equal_goals: bool,
    store: PositionTable,
    g_of: Vec<u32>,
    h_of: Vec<u32>,
    closed: Vec<bool>,
    /// Least `pushes + WEIGHT x bound`, then least bound, then the oldest.
    open: Open,
    pub(super) expanded: usize,
    occupied: Vec<bool>,
    box_list: Vec<usize>,
    packed: Vec<u64>,
}

impl<'a> WeightedSearch<'a> {
    /// The search `options` ask for (only `below` applies to it).
    pub(super) fn new(
        level: &'a Level,
        analysis: &'a Analysis,
        options: &Options,
    ) -> WeightedSearch<'a> {
        let n = level.num_cells();
        WeightedSearch {
            level,
            analysis,
            below: options.below,
            heuristic: Heuristic::new(level, analysis),
            freeze: Freeze::new(level, &analysis.dead),
            flood: Flood::new(n),
            child_flood: Flood::new(n),
            corrals: Corrals::new(n),
            pairs: None,
            pair_scratch: PairScratch::default(),
            boxes_equal_goals: level.boxes().len() == level.goals().len(),
            store: PositionTable::new(n.div_ceil(64)),
            g_of: Vec::new(),
            h_of: Vec::new(),
            closed: Vec::new(),
            open: Open::default(),
            expanded: 0,
            occupied: vec![false; n],
            box_list: Vec::new(),
            packed: Vec::new(),
        }
    }

    pub(super) fn stored(&self) -> usize {
        self.store.len()
    }

    /// Stores the level's start; `Some` when that already settles it (solved, or no
    /// finite matching).
    pub(super) fn start(&mut self) -> Option<Found> {
        let level = self.level;
        self.occupied.iter_mut().for_each(|o| *o = false);
        for &b in level.boxes() {
            self.occupied[b] = true;
        }
        let player = self.flood.fill(level, &self.occupied, level.player());
        self.box_list = level.boxes().to_vec();
        self.box_list.sort_unstable();
        let Some(h0) = self.heuristic.expand(&self.box_list, player) else {
            return Some(Err("no finite matching".into()));
        };
        if h0 == 0 {
            return Some(Ok(Vec::new()));
        }
        pack(&self.occupied, &mut self.packed);
        self.store.find_or_insert(&self.packed, player as u16);
        self.g_of.push(0);
        self.h_of.push(h0);
        self.closed.push(false);
        self.open.push(WEIGHT * h0, h0, 0);
        None
    }

    /// Expands positions until the turn ends at `until`; `Some` when the search ends:
    /// a plan, a limit, or no positions left.
    pub(super) fn turn(&mut self, limits: &Limits, until: Instant) -> Option<Found> {
        if self.pairs.is_none() {
            let dead = &self.analysis.dead;
            self.pairs = Some(PairTable::new(self.level, dead, PAIR_BYTES, limits));
        }
        while Instant::now() < until {
            let Some((key, i)) = self.open.pop() else {
                return Some(Err(format!(
                    "the weighted search ran out of positions after {} (no plan below the one known)",
                    self.store.len()
                )));
            };
            // Stale entries: expanded, or queued again with fewer pushes.
            if self.closed[i] || key != self.g_of[i] + WEIGHT * self.h_of[i] {
                continue;
            }
            if self.expanded.is_multiple_of(64) && limits.expired() {
                return Some(Err("time limit".into()));
            }
            if self.store.len() > limits.max_states {
                return Some(Err(format!("size limit ({} positions)", limits.max_states)));
            }
            if let Some(solved) = self.expand(i) {
                return Some(Ok(self.store.plan_to(solved)));
            }
        }
        None
    }

    /// Expands position `i`: stores its children; returns a solved child if one turns up.
    fn expand(&mut self, i: usize) -> Option<usize> {
        let level = self.level;
        self.closed[i] = true;
        self.expanded += 1;
        let g = self.g_of[i];
        // Under `below`, a child needs `g + 1 + h < below`.
        let most = match self.below {
            Some(below) if below <= g + 1 => return None,
            Some(below) => below - g - 2,
            None => u32::MAX,
        };
        self.store.unpack(i, &mut self.occupied, &mut self.box_list);
        let player = usize::from(self.store.player_of(i));
        self.heuristic
            .expand_from(i, self.store.parent_of(i), &self.box_list, player)?;
        self.flood.fill(level, &self.occupied, player);
        let dead = &self.analysis.dead;
        let (below, boxes_equal_goals) = (self.below, self.boxes_equal_goals);
        let pruning =
            self.corrals
                .find(level, dead, &self.occupied, &self.flood, boxes_equal_goals);
        if pruning == Pruning::Dead {
            return None;
        }
        let only = (pruning == Pruning::Corral).then_some(&self.corrals);
        let (store, g_of, h_of, closed, open) = (
            &mut self.store,
            &mut self.g_of,
            &mut self.h_of,
            &mut self.closed,
            &mut self.open,
        );
        let pairs = self.pairs.as_ref().and_then(Option::as_ref);
        let pair_scratch = &mut self.pair_scratch;
        let box_list = &self.box_list;
        let mut child_boxes = Vec::new();
        let mut packed = std::mem::take(&mut self.packed);
        let solved = for_each_child(
            level,
            dead,
            (&mut self.child_flood, &mut self.freeze, &mut self.heuristic),
            &mut self.occupied,
            box_list,
            (&self.flood, player),
            only,
            &mut Skip::above(most),
            |push, occupied, child_player, mut h, heuristic| {
                let target = level.neighbour(push.from, push.dir).expect("pushed");
                if let Some(pairs) = &pairs {
                    if pairs.stuck((push.from, target), box_list, child_player) {
                        return ControlFlow::Continue(());
                    }
                }
                pack(occupied, &mut packed);
                let (j, new) = store.find_or_insert(&packed, child_player as u16);
                if new {
                    // The pair bound, as A* takes it for a new child.
                    if let Some(pairs) = pairs.filter(|_| h > 0) {
                        let k = box_list.iter().position(|&b| b == push.from);
                        let k = k.expect("pushed");
                        child_boxes.clone_from(box_list);
                        child_boxes[k] = target;
                        let child = (k, target, child_player);
                        let bound = heuristic.with_child_matrix(child, |m| {
                            pairs.bound(pair_scratch, &child_boxes, child_player, m)
                        });
                        match bound {
                            PairBound::Dead => h = u32::MAX,
                            // With a box per goal the pushes to go keep the bound's parity.
                            PairBound::Excess(e) => h += excess_raised(e, boxes_equal_goals),
                        }
                    }
                    store.set_origin(j, i, push);
                    g_of.push(g + 1);
                    h_of.push(h);
                    closed.push(h == u32::MAX);
                    if h == u32::MAX || below.is_some_and(|b| g + 1 + h >= b) {
                        closed[j] = true;
                        return ControlFlow::Continue(());
                    }
                } else if g + 1 < g_of[j] && h_of[j] != u32::MAX {
                    // A shorter path to it: expanded again, its children may now be
                    // under `below` (a plan along the origins never loops: every
                    // position's pushes are more than its origin's).
                    store.set_origin(j, i, push);
                    g_of[j] = g + 1;
                    closed[j] = below.is_some_and(|b| g + 1 + h_of[j] >= b);
                } else {
                    return ControlFlow::Continue(());
                }
                if h == 0 {
                    return ControlFlow::Break(j);
                }
                if !closed[j] {
                    open.push(g_of[j] + WEIGHT * h_of[j], h_of[j], j);
                }
                ControlFlow::Continue(())
            },
        );
        self.packed = packed;
        match solved {
            ControlFlow::Break(j) => Some(j),
            ControlFlow::Continue(()) => None,
        }
    }
}
