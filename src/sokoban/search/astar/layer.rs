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
//! A solved child ends the workers, and the search goes on alone from where it was: it
//! finds that plan itself, with its path (the workers keep none), and proves it optimal
//! as usual.

use super::super::corral::{Corrals, Pruning};
use super::super::expand::{for_each_child, Skip};
use super::super::flood::Flood;
use super::super::freeze::Freeze;
use super::super::heuristic::Heuristic;
use super::super::pairs::{excess_raised, PairBound, PairScratch, PairTable};
use super::super::positions::{hash_of, pack, squares, PositionTable};
use crate::sokoban::Limits;
use gridsat_encodings::sokoban::{Analysis, Level};
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Shards of the table of new positions: enough that two workers rarely wait for one.
const SHARDS: usize = 64;

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
    /// A solved child: the search goes on alone and finds it.
    Solved,
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

/// Where a position of the layer is kept: in the search's table, or new to the layer.
#[derive(Clone, Copy, Debug)]
enum Place {
    Stored(u32),
    New(u32, u32),
}

/// A position to expand, with its pushes, its bound and whether that includes the pair
/// bound already.
#[derive(Clone, Copy, Debug)]
struct Item {
    place: Place,
    g: u32,
    h: u16,
    paired: bool,
}

/// A shard of the positions new to the layer, with their fewest pushes (0: dead) and
/// bounds.
struct Shard {
    table: PositionTable,
    g: Vec<u32>,
    h: Vec<u16>,
}

const RUNNING: u8 = 0;
const SOLVED: u8 = 1;
const STOPPED: u8 = 2;
const LOWERED: u8 = 3;

/// What the workers share.
struct Shared {
    shards: Vec<Mutex<Shard>>,
    queue: Mutex<Queue>,
    /// Items made and not yet expanded (queued or being expanded): the layer is done
    /// when it is 0.
    pending: AtomicUsize,
    state: AtomicU8,
    stopped: Mutex<Option<String>>,
    stored: AtomicUsize,
}

impl Shared {
    /// Ends the layer with `state`, unless it has ended already (the first end counts).
    fn stop(&self, state: u8, reason: Option<String>) {
        let first =
            self.state
                .compare_exchange(RUNNING, state, Ordering::AcqRel, Ordering::Acquire);
        if first.is_ok() {
            if let Some(reason) = reason {
                *self.stopped.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason);
            }
        }
    }

    fn running(&self) -> bool {
        self.state.load(Ordering::Acquire) == RUNNING
    }

    /// The next item, waiting while others still expand some; `None` when the layer
    /// is done or stopped.
    fn next(&self) -> Option<Item> {
        loop {
            if !self.running() {
                return None;
            }
            if let Some(item) = self.queue.lock().unwrap_or_else(|e| e.into_inner()).pop() {
                return Some(item);
            }
            if self.pending.load(Ordering::Acquire) == 0 {
                return None;
            }
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}

/// The items to expand, as A*'s open list orders a layer: least bound first (the
/// deepest: on a level whose plan known is not optimal, the shorter plan is found as
/// soon as A* alone would find it), then the oldest.
#[derive(Default)]
struct Queue {
    by_h: Vec<VecDeque<Item>>,
    /// No item is queued with a smaller bound.
    min_h: usize,
}

impl Queue {
    fn push(&mut self, item: Item) {
        let h = usize::from(item.h);
        if self.by_h.len() <= h {
            self.by_h.resize_with(h + 1, VecDeque::new);
        }
        self.min_h = self.min_h.min(h);
        self.by_h[h].push_back(item);
    }

    fn pop(&mut self) -> Option<Item> {
        while let Some(queue) = self.by_h.get_mut(self.min_h) {
            if let Some(item) = queue.pop_front() {
                return Some(item);
            }
            self.min_h += 1;
        }
        None
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
        let mut queue = Queue::default();
        open.iter()
            .map(|&i| Item {
                place: Place::Stored(i as u32),
                g: self.g_of[i],
                h: self.h_of[i],
                paired: self.paired[i],
            })
            .for_each(|item| queue.push(item));
        let words = self.level.num_cells().div_ceil(64);
        let shared = Shared {
            shards: (0..SHARDS)
                .map(|_| {
                    Mutex::new(Shard {
                        table: PositionTable::new(words),
                        g: Vec::new(),
                        h: Vec::new(),
                    })
                })
                .collect(),
            pending: AtomicUsize::new(open.len()),
            queue: Mutex::new(queue),
            state: AtomicU8::new(RUNNING),
            stopped: Mutex::new(None),
            stored: AtomicUsize::new(0),
        };
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
        report.stored = shared.stored.load(Ordering::Acquire);
        let end = match shared.state.load(Ordering::Acquire) {
            SOLVED => LayerEnd::Solved,
            LOWERED => LayerEnd::Lowered,
            STOPPED => LayerEnd::Stopped(
                shared
                    .stopped
                    .into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .unwrap_or_else(|| "time limit".into()),
            ),
            _ => LayerEnd::Exhausted,
        };
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
            // The children count before their parent stops counting: `pending` is 0
            // only when nothing is left.
            if !children.is_empty() {
                shared.pending.fetch_add(children.len(), Ordering::AcqRel);
                let mut queue = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
                children.drain(..).for_each(|child| queue.push(child));
            }
            shared.pending.fetch_sub(1, Ordering::AcqRel);
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
            Place::New(s, i) => {
                let shard = shared.shards[s as usize]
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                let (words, player) = shard.table.key(i as usize);
                self.packed.clear();
                self.packed.extend_from_slice(words);
                player
            }
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
            shared.stop(LOWERED, None);
            return;
        }
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
            shared.stop(STOPPED, Some("time limit".into()));
            return;
        }
        let stored = layer.store.len() + shared.stored.load(Ordering::Relaxed);
        if stored > layer.limits.max_states {
            let reason = format!("size limit ({} positions)", layer.limits.max_states);
            shared.stop(STOPPED, Some(reason));
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
                    0 => return ControlFlow::Break(()),
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
                let Some((s, j, before)) = insert(shared, key, g + 1, hc) else {
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
                            set(shared, (s, j), 0, hc);
                            return ControlFlow::Continue(());
                        }
                        PairBound::Excess(e) if matching + raised(e) > hc => {
                            report.pair_raised += 1;
                            hc = matching + raised(e);
                            set(shared, (s, j), g + 1, hc);
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
        if solved.is_break() {
            shared.stop(SOLVED, None);
        }
    }

    fn cut(&mut self, f: u32) {
        self.report.ceiling_cuts += 1;
        self.report.least_cut = self.report.least_cut.min(f);
    }
}

/// Stores a position new to the layer reached with `g` pushes and bound `h`: its shard,
/// number and the bound it had (a pair bound taken before), or `None` when it was
/// reached before with as few pushes.
fn insert(
    shared: &Shared,
    (words, player): (&[u64], u16),
    g: u32,
    h: u32,
) -> Option<(u32, u32, u32)> {
    let s = (hash_of(words, player) >> 20) as usize % SHARDS;
    let mut shard = shared.shards[s].lock().unwrap_or_else(|e| e.into_inner());
    let (j, new) = shard.table.find_or_insert(words, player);
    if new {
        shard.g.push(g);
        shard.h.push(clamp(h));
        shared.stored.fetch_add(1, Ordering::Relaxed);
    } else if g < shard.g[j] {
        shard.g[j] = g;
        shard.h[j] = shard.h[j].max(clamp(h));
    } else {
        return None;
    }
    Some((s as u32, j as u32, u32::from(shard.h[j])))
}

/// Records the fewest pushes (0: dead) and bound of a position new to the layer.
fn set(shared: &Shared, (s, j): (u32, u32), g: u32, h: u32) {
    let mut shard = shared.shards[s as usize]
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    shard.g[j as usize] = g;
    shard.h[j as usize] = shard.h[j as usize].max(clamp(h));
}

fn clamp(h: u32) -> u16 {
    u16::try_from(h).unwrap_or(u16::MAX)
}
