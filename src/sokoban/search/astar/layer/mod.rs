//! A*'s last layer, on every core.
//!
//! With a ceiling (a plan known, or `--max-pushes`) the search's last layer is the `f`
//! after which no child stays under it: `f = ceiling`, or with a box per goal
//! `f >= ceiling - 1`, since then every bound keeps the parity of the pushes to go (see
//! `pairs`) and a child's `f` is its parent's or two more. On hard levels that layer is
//! most of the work (Microban II 109 under its 42-push plan: 5.2 of 6.1 million
//! expansions at `f = 40`), and a proof needs all of it: no plan exists within the
//! ceiling exactly when no position reached from the open positions within the
//! ceiling, each with its fewest pushes, has a solved child. So the open positions are
//! handed to one worker per core, which expand them and what they reach, sharing a
//! table of the positions new to the layer (in shards, each behind its own lock) and a
//! queue ordered as A*'s open list orders a layer (`Queue`): where the plan known is not
//! optimal, the shorter plan comes about as soon as A* alone would find it.
//!
//! A worker expands as the search does (the matching bound, the pair bound, PI-corrals,
//! freeze deadlocks; not the split or perimeter bounds, which only prune more: the
//! search does not hand over a layer while the split bound is in use). A position the
//! search stored already is left alone unless reached with fewer pushes (it was
//! expanded, is open and handed over, or is dead or past the ceiling); one new to the
//! layer is expanded again only when reached with fewer pushes.
//!
//! A solved child ends the workers with its plan: each position new to the layer keeps
//! the position it was reached from (in the search's table or a shard) and the push,
//! 12 bytes, so the plan is read back to a position of the search's and on from there.
//! Its pushes are at least the layer's `f`, the bound proven when the layer was handed
//! over; a plan of exactly that many is optimal and ends the search. A longer one (with
//! more boxes than goals, where the layer takes children one push past it) does not: the
//! search goes on alone from where it was, as A* would, and finds the optimum itself.

mod shared;

use super::super::corral::{Corrals, Pruning};
use super::super::expand::{for_each_child, Skip};
use super::super::flood::Flood;
use super::super::freeze::Freeze;
use super::super::heuristic::Heuristic;
use super::super::pairs::{excess_raised, PairBound, PairScratch, PairTable};
use super::super::positions::{pack, squares, PositionTable};
use super::clamp;
use crate::sokoban::Limits;
use gridsat_encodings::sokoban::{Analysis, Level, Push};
use shared::{Item, Place, Shared};
use std::ops::ControlFlow;

/// What the search hands the workers: the level, its bounds and what it stored.
pub(super) struct Layer<'a> {
    pub level: &'a Level,
    pub analysis: &'a Analysis,
    pub pairs: Option<&'a PairTable>,
    pub pi_corrals: bool,
    pub store: &'a PositionTable,
    pub g_of: &'a [u32],
    pub h_of: &'a [u16],
    pub paired: &'a [bool],
    /// The layer's `f`, and the ceiling when it was handed over: children whose `f`
    /// passes the ceiling are not wanted (nor, when another search finds a shorter
    /// plan meanwhile, those past the lower ceiling).
    pub f: u32,
    pub ceiling: u32,
    pub limits: &'a Limits,
}

/// How the layer ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum LayerEnd {
    /// Every position of the layer expanded, none with a solved child.
    Exhausted,
    /// A solved child, and the plan to it from the first position.
    Solved(Vec<Push>),
    /// Another search found a plan that puts the layer past the ceiling.
    Lowered,
    /// The time or size limit.
    Stopped(String),
}

/// What the workers did, for the search's stats.
#[derive(Debug, Default)]
pub(super) struct LayerReport {
    pub expanded: usize,
    pub stored: usize,
    pub corral_expansions: usize,
    pub corral_deadlocks: usize,
    pub pair_raised: usize,
    pub pair_deadlocks: usize,
    pub ceiling_cuts: usize,
    /// The least `f` of a child past the ceiling (`u32::MAX`: none).
    pub least_cut: u32,
}

impl LayerReport {
    fn add(&mut self, other: &LayerReport) {
        self.expanded += other.expanded;
        self.corral_expansions += other.corral_expansions;
        self.corral_deadlocks += other.corral_deadlocks;
        self.pair_raised += other.pair_raised;
        self.pair_deadlocks += other.pair_deadlocks;
        self.ceiling_cuts += other.ceiling_cuts;
        self.least_cut = self.least_cut.min(other.least_cut);
    }
}

impl Layer<'_> {
    /// Expands the layer from `open` (the search's open positions in it) on `workers`
    /// threads, each with a heuristic like `heuristic`.
    pub(super) fn run(
        &self,
        open: &[usize],
        workers: usize,
        heuristic: &Heuristic,
    ) -> (LayerEnd, LayerReport) {
        let open = open.iter().map(|&i| Item {
            place: Place::Stored(i as u32),
            g: self.g_of[i],
            h: self.h_of[i],
            paired: self.paired[i],
        });
        let shared = Shared::new(self.level.num_cells().div_ceil(64), open);
        let mut report = LayerReport {
            least_cut: u32::MAX,
            ..LayerReport::default()
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers.max(1))
                .map(|_| {
                    let worker = heuristic.for_worker();
                    let shared = &shared;
                    scope.spawn(move || Worker::new(self, worker).work(shared))
                })
                .collect();
            for handle in handles {
                match handle.join() {
                    Ok(done) => report.add(&done),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
        });
        report.stored = shared.stored();
        let end = shared.end(self.store);
        (end, report)
    }
}

/// One worker's scratch.
struct Worker<'a, 'l> {
    layer: &'l Layer<'a>,
    heuristic: Heuristic<'a>,
    freeze: Freeze<'a>,
    flood: Flood,
    child_flood: Flood,
    corrals: Corrals,
    scratch: PairScratch,
    occupied: Vec<bool>,
    box_list: Vec<usize>,
    child_boxes: Vec<usize>,
    packed: Vec<u64>,
    report: LayerReport,
}

impl<'a, 'l> Worker<'a, 'l> {
    fn new(layer: &'l Layer<'a>, heuristic: Heuristic<'a>) -> Self {
        let n = layer.level.num_cells();
        Worker {
            layer,
            heuristic,
            freeze: Freeze::new(layer.level, &layer.analysis.dead),
            flood: Flood::new(n),
            child_flood: Flood::new(n),
            corrals: Corrals::new(n),
            scratch: PairScratch::default(),
            occupied: vec![false; n],
            box_list: Vec::new(),
            child_boxes: Vec::new(),
            packed: Vec::new(),
            report: LayerReport {
                least_cut: u32::MAX,
                ..LayerReport::default()
            },
        }
    }

    fn work(mut self, shared: &Shared) -> LayerReport {
        let mut children = Vec::new();
        while let Some(item) = shared.next() {
            self.expand(item, shared, &mut children);
            shared.expanded(&mut children);
        }
        self.report
    }

    /// The boxes and player of the item's position, into `occupied` and `box_list`.
    fn unpack(&mut self, place: Place, shared: &Shared) -> usize {
        let player = match place {
            Place::Stored(i) => {
                let (words, player) = self.layer.store.key(i as usize);
                self.packed.clear();
                self.packed.extend_from_slice(words);
                player
            }
            Place::New(s, j) => shared.key_into((s, j), &mut self.packed),
        };
        self.occupied.iter_mut().for_each(|o| *o = false);
        self.box_list.clear();
        for c in squares(&self.packed) {
            self.occupied[c] = true;
            self.box_list.push(c);
        }
        usize::from(player)
    }

    fn expand(&mut self, item: Item, shared: &Shared, children: &mut Vec<Item>) {
        let layer = self.layer;
        let player = self.unpack(item.place, shared);
        let (g, mut h) = (item.g, u32::from(item.h));
        let ceiling = layer.ceiling.min(layer.limits.ceiling().pushes);
        if ceiling < layer.f {
            shared.lower();
            return;
        }
        let origin = item.place;
        let Some(matching) = self.heuristic.expand(&self.box_list, player) else {
            return;
        };
        let boxes_equal_goals = layer.level.boxes().len() == layer.level.goals().len();
        let raised = |e: u32| excess_raised(e, boxes_equal_goals);
        if let Some(pairs) = layer.pairs.filter(|_| !item.paired) {
            match pairs.bound(
                &mut self.scratch,
                &self.box_list,
                player,
                self.heuristic.matrix(),
            ) {
                PairBound::Dead => {
                    self.report.pair_deadlocks += 1;
                    return;
                }
                PairBound::Excess(e) if matching + raised(e) > h => {
                    self.report.pair_raised += 1;
                    h = matching + raised(e);
                    if g + h > ceiling {
                        self.cut(g + h);
                        return;
                    }
                }
                PairBound::Excess(_) => {}
            }
        }
        self.report.expanded += 1;
        if self.report.expanded.is_multiple_of(1024) && layer.limits.expired() {
            shared.stop("time limit".into());
            return;
        }
        let stored = layer.store.len() + shared.stored();
        if stored > layer.limits.max_states {
            let reason = format!("size limit ({} positions)", layer.limits.max_states);
            shared.stop(reason);
            return;
        }
        self.flood.fill(layer.level, &self.occupied, player);
        let pruning = match layer.pi_corrals {
            true => self.corrals.find(
                layer.level,
                &layer.analysis.dead,
                &self.occupied,
                &self.flood,
                boxes_equal_goals,
            ),
            false => Pruning::None,
        };
        match pruning {
            Pruning::None => {}
            Pruning::Corral => self.report.corral_expansions += 1,
            Pruning::Dead => {
                self.report.corral_deadlocks += 1;
                return;
            }
        }
        let only = (pruning == Pruning::Corral).then_some(&self.corrals);
        let mut skip = Skip::above(ceiling.saturating_sub(g + 1));
        let (box_list, packed, child_boxes) =
            (&self.box_list, &mut self.packed, &mut self.child_boxes);
        let (report, scratch) = (&mut self.report, &mut self.scratch);
        let solved = for_each_child(
            layer.level,
            &layer.analysis.dead,
            (&mut self.child_flood, &mut self.freeze, &mut self.heuristic),
            &mut self.occupied,
            box_list,
            (&self.flood, player),
            only,
            &mut skip,
            |push, occupied, child_player, matching, heuristic| {
                let mut hc = match matching {
                    0 => return ControlFlow::Break(push),
                    _ => matching.max(h.saturating_sub(1)),
                };
                let target = layer.level.neighbour(push.from, push.dir).expect("pushed");
                if let Some(pairs) = layer.pairs {
                    if pairs.stuck((push.from, target), box_list, child_player) {
                        report.pair_deadlocks += 1;
                        return ControlFlow::Continue(());
                    }
                }
                pack(occupied, packed);
                let key = (&packed[..], child_player as u16);
                // Stored by the search: expanded, open in this layer, dead or past the
                // ceiling, unless reached now with fewer pushes.
                if let Some(j) = layer.store.find(key.0, key.1) {
                    if layer.g_of[j] <= g + 1 {
                        return ControlFlow::Continue(());
                    }
                    hc = hc.max(u32::from(layer.h_of[j]));
                }
                let Some((s, j, before)) = shared.insert(key, (g + 1, hc), (origin, push)) else {
                    return ControlFlow::Continue(());
                };
                hc = hc.max(before);
                if let Some(pairs) = layer.pairs {
                    let k = box_list
                        .iter()
                        .position(|&b| b == push.from)
                        .expect("pushed");
                    child_boxes.clone_from(box_list);
                    child_boxes[k] = target;
                    let bound = heuristic.with_child_matrix((k, target, child_player), |m| {
                        pairs.bound(scratch, child_boxes, child_player, m)
                    });
                    match bound {
                        PairBound::Dead => {
                            report.pair_deadlocks += 1;
                            shared.set((s, j), 0, hc);
                            return ControlFlow::Continue(());
                        }
                        PairBound::Excess(e) if matching + raised(e) > hc => {
                            report.pair_raised += 1;
                            hc = matching + raised(e);
                            shared.set((s, j), g + 1, hc);
                        }
                        PairBound::Excess(_) => {}
                    }
                }
                if g + 1 + hc > ceiling {
                    report.ceiling_cuts += 1;
                    report.least_cut = report.least_cut.min(g + 1 + hc);
                    return ControlFlow::Continue(());
                }
                children.push(Item {
                    place: Place::New(s, j),
                    g: g + 1,
                    h: clamp(hc),
                    paired: layer.pairs.is_some(),
                });
                ControlFlow::Continue(())
            },
        );
        self.report.ceiling_cuts += skip.count;
        if skip.count > 0 {
            self.cut(g + 1 + skip.least);
        }
        if let ControlFlow::Break(push) = solved {
            shared.solve(origin, push);
        }
    }

    fn cut(&mut self, f: u32) {
        self.report.ceiling_cuts += 1;
        self.report.least_cut = self.report.least_cut.min(f);
    }
}
