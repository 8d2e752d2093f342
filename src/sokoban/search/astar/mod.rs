//! A best-first (A*) search over pushes that proves its plan push-optimal.
//!
//! **Positions.** A position is the set of box squares plus the player's region,
//! represented by its smallest square: walking is free, every edge of the search is one
//! push, and `g` is the number of pushes so far.
//!
//! **The heuristic** `h` is the matching bound (`heuristic`), taken in the current
//! position; it is admissible and consistent. With a consistent heuristic and unit
//! costs, a position is never reached more cheaply after it has been expanded: no
//! reopening is needed (until the split bound below joins in), and the first solved
//! position found is push-optimal. `h = 0` exactly when every box stands on a goal, so
//! a solved child is recognised when it is generated: its parent was not solved, so
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
//! - a freeze deadlock (`freeze`): the pushed box can no longer move along either axis,
//!   in a frozen group with a box off a goal.
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
//! **The perimeter bound** (see `perimeter`). A search still running after
//! `PerimeterOptions::after` positions searches back by pulls from the solved positions, and
//! grows that search to half its own positions each time it doubles: a position in the
//! table needs exactly its pushes to go, one missing needs more than the complete
//! layers. Taken when a position comes off the open list, like the split, and not
//! consistent either (the same reopening keeps the optimum).
//!
//! The children of a position come from `expand`, shared with the split bound's half
//! searches; the open list is `open`.
//!
//! **Memory.** Box sets are packed bitsets in one arena; an open-addressing table of
//! `u32` indices finds a position again; per position about `8 x words + 15` bytes plus
//! the table and the open list. `Limits::max_states` stops the search ("gave up"),
//! reporting the least `f` of the open list as the bound proven.

use super::corral::{Corrals, Pruning};
use super::expand::{for_each_child, Skip};
use super::flood::Flood;
use super::freeze::Freeze;
use super::heuristic::{Heuristic, MAX_CELLS};
use super::open::Open;
use super::pairs::{excess_raised, PairBound, PairScratch, PairTable};
use super::perimeter::Perimeter;
use super::positions::{pack, PositionTable};
use super::split::Split;
use super::static_unsolvable;
use crate::sokoban::{Limits, Outcome, Solution};
use gridsat_encodings::grid::Cell;
use gridsat_encodings::sokoban::{Analysis, Level, Square};
use std::ops::ControlFlow;
use std::time::Instant;

mod layer;
mod settings;
use layer::{Layer, LayerEnd};
pub use settings::{Options, PerimeterOptions, SearchStats, LAYER_AFTER, PAIR_BYTES, SPLIT_AFTER};

/// The split bound is given up when its half searches have stored more than this many
/// times the positions of the search itself (and `SPLIT_AFTER`): on levels with long
/// plans the halves are nearly as hard as the whole, and the bound barely sharper.
const SPLIT_WORTH: usize = 4;

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
    if let Some(reason) = static_unsolvable(level, &analysis) {
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
    mut options: Options,
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
    // Whether the pair bound was taken (it depends on the position alone).
    let mut paired: Vec<bool> = vec![false];
    let mut packed = Vec::with_capacity(words);
    pack(&occupied, &mut packed);
    store.find_or_insert(&packed, start_player as u16);
    let mut open = Open::default();
    open.push(h0, h0, 0);
    let mut box_list: Vec<usize> = Vec::new();
    let mut bound = h0;
    let mut status_seen = 0;
    let mut perimeter: Option<Perimeter> = None;
    // The expansions and raised bounds when the perimeter last grew.
    let mut grown_at = (0, 0);
    let mut next_growth = options.perimeter.map_or(0, |p| p.after);
    let parity_of = |g: u32| (h0 + g) % 2;
    let mut pair_scratch = PairScratch::default();
    let pairs = (options.pair_bytes > 0)
        .then(|| {
            let started = Instant::now();
            let table = PairTable::new(level, &analysis.dead, options.pair_bytes, limits);
            stats.pair_seconds = started.elapsed().as_secs_f64();
            table
        })
        .flatten();
    stats.pair_bytes = pairs.as_ref().map_or(0, PairTable::bytes);
    if pairs.is_some() {
        // The pair bound sees most of what the perimeter sees, for a fraction of the
        // cost (Microban II 109: 78 s with the pairs alone, 92 s with both; 126: 31 s
        // either way).
        options.perimeter = None;
    }
    let raised = |e: u32| excess_raised(e, boxes_equal_goals);
    // The least bound of a child cut at the ceiling: with the open list empty, a bound
    // on every plan.
    let mut least_cut = u32::MAX;
    // A child's boxes in its matching's row order, for its pair bound.
    let mut child_boxes: Vec<usize> = Vec::new();
    while let Some((f, i)) = open.pop() {
        // Stale entries: the position was expanded, or queued again with a smaller `f`.
        if closed[i] || f != g_of[i] + u32::from(h_of[i]) {
            continue;
        }
        if f > bound {
            bound = f;
            limits.known.bound_proven(bound as usize);
        }
        let gave_up = |reason: String| Outcome::GaveUp {
            reason,
            no_plan_below: bound as usize,
        };
        // Past the ceiling: so is every position left (the open list gives the least
        // f first).
        let ceiling = limits.ceiling();
        if f > ceiling.pushes {
            let reason = ceiling.reason.into();
            let no_plan_below = least_cut.min(f) as usize;
            return (
                Outcome::GaveUp {
                    reason,
                    no_plan_below,
                },
                stats,
            );
        }
        // The last layer under the ceiling: on every core (see `layer`). The split bound,
        // when in use, prunes more than a second core would gain.
        if f + 2 > ceiling.pushes
            && options.layer_workers > 1
            && stats.layer_workers == 0
            && store.len() >= options.layer_after
            && !matches!(split, SplitState::On(_))
        {
            let layer = Layer {
                level,
                analysis,
                pairs: pairs.as_ref(),
                pi_corrals: options.pi_corrals,
                store: &store,
                g_of: &g_of,
                h_of: &h_of,
                paired: &paired,
                f,
                ceiling: ceiling.pushes,
                limits,
            };
            let open_now: Vec<usize> = (0..store.len())
                .filter(|&j| !closed[j] && g_of[j] + u32::from(h_of[j]) <= ceiling.pushes)
                .collect();
            let (end, report) = layer.run(&open_now, options.layer_workers, &heuristic);
            stats.add_layer(options.layer_workers, &report);
            least_cut = least_cut.min(report.least_cut);
            match end {
                // Every position within the ceiling expanded: what is left in the open
                // list is past it.
                LayerEnd::Exhausted => open_now.into_iter().for_each(|j| closed[j] = true),
                // No plan has fewer than `f` pushes: one of `f` is optimal.
                LayerEnd::Solved(plan) if plan.len() <= f as usize => {
                    stats.stored = store.len();
                    stats.layer_plans += 1;
                    return (Outcome::Solved(Solution::push_optimal(plan, false)), stats);
                }
                // A longer plan (more boxes than goals: the layer took children one
                // push past `f`): the search goes on alone and finds the optimum; or,
                // the ceiling lowered past the layer, ends with `f` as its bound.
                LayerEnd::Solved(_) | LayerEnd::Lowered => open.push(f, u32::from(h_of[i]), i),
                LayerEnd::Stopped(reason) => return (gave_up(reason), stats),
            }
            continue;
        }
        if stats.expanded % 1024 == 0 {
            if limits.expired() {
                return (gave_up("time limit".into()), stats);
            }
            if let Some(status) = limits.budget.status().filter(|s| s.due(&mut status_seen)) {
                let stored = store.len();
                status.post(
                    "astar",
                    format!("no plan under {bound} pushes ({stored} positions)"),
                );
            }
        }
        // The perimeter's positions count against the limit too: it bounds the memory.
        if store.len() + perimeter.as_ref().map_or(0, Perimeter::len) > limits.max_states {
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
        if let Some(settings) = options.perimeter.filter(|_| store.len() > next_growth) {
            // The search back grows with the search, to a share of its positions, so
            // that it never costs more than a share of its time; and it is dropped when
            // it raised almost no bound while the search doubled (its layers are too
            // shallow for the bounds in play).
            let since = (stats.expanded, stats.perimeter_raised);
            let (expanded, raised) = (since.0 - grown_at.0, since.1 - grown_at.1);
            if perimeter.is_some() && settings.worth > 0 && raised * settings.worth < expanded {
                perimeter = None;
                options.perimeter = None;
            } else {
                if perimeter.is_none() {
                    perimeter = Perimeter::new(level);
                }
                if let Some(p) = &mut perimeter {
                    let started = Instant::now();
                    p.grow(store.len() * settings.percent / 100, limits);
                    (stats.perimeter_positions, stats.perimeter_depth) = (p.len(), p.depth());
                    stats.perimeter_seconds += started.elapsed().as_secs_f64();
                }
                next_growth = 2 * store.len();
                grown_at = since;
            }
        }
        // A position takes the perimeter bound when it comes off the open list: most
        // stored positions never do, and need no look-up.
        if let Some(p) = &perimeter {
            match p.bound(store.key(i), u32::from(h_of[i]), parity_of(g)) {
                None => {
                    stats.perimeter_deadlocks += 1;
                    closed[i] = true;
                    continue;
                }
                Some(h) if h > u32::from(h_of[i]) => {
                    stats.perimeter_raised += 1;
                    h_of[i] = clamp(h);
                    open.push(g + u32::from(h_of[i]), u32::from(h_of[i]), i);
                    continue;
                }
                Some(_) => {}
            }
        }
        // Any square of the player's region gives each box the same side; the region
        // itself is filled only when the position is expanded. The parent's matching,
        // when still kept, is repaired rather than solved again.
        let player = usize::from(store.player_of(i));
        let Some(matching) = heuristic.expand_from(i, store.parent_of(i), &box_list, player) else {
            unreachable!("a stored position has a finite bound");
        };
        // The pair bound, like the others, when the position comes off the open list.
        if let Some(pairs) = pairs.as_ref().filter(|_| !paired[i]) {
            paired[i] = true;
            match pairs.bound(&mut pair_scratch, &box_list, player, heuristic.matrix()) {
                PairBound::Dead => {
                    stats.pair_deadlocks += 1;
                    closed[i] = true;
                    continue;
                }
                // With a box per goal the pushes to go keep the matching's parity.
                PairBound::Excess(e) if matching + raised(e) > u32::from(h_of[i]) => {
                    stats.pair_raised += 1;
                    h_of[i] = clamp(matching + raised(e));
                    open.push(g + u32::from(h_of[i]), u32::from(h_of[i]), i);
                    continue;
                }
                PairBound::Excess(_) => {}
            }
        }
        closed[i] = true;
        stats.expanded += 1;
        flood.fill(level, &occupied, player);
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
        // A child past the ceiling is not made: no plan worth finding goes through it,
        // and on hard levels most children are such. Its bound is the larger of its
        // matching and this position's bound less one, and the latter is within the
        // ceiling (this position's `f` is), so its matching tells.
        let mut skip = Skip::above(ceiling.pushes.saturating_sub(g + 1));
        let solved = for_each_child(
            level,
            &analysis.dead,
            (&mut child_flood, &mut freeze, &mut heuristic),
            &mut occupied,
            &box_list,
            (&flood, player),
            only,
            &mut skip,
            |push, occupied, player, matching, heuristic| {
                // The lazy bounds (split, perimeter) are taken when the child comes off
                // the open list; until then the parent's, less one push, holds too (path
                // maximum; with the matching alone it never raises a bound).
                let mut h = match matching {
                    0 => 0,
                    _ => matching.max(u32::from(h_of[i]).saturating_sub(1)),
                };
                debug_assert!(g + 1 + h <= ceiling.pushes);
                // Two boxes that cannot both reach goals even alone: checked for the
                // pushed box before the child is stored.
                let target = level.neighbour(push.from, push.dir).expect("pushed");
                if let Some(pairs) = &pairs {
                    if pairs.stuck((push.from, target), &box_list, player) {
                        stats.pair_deadlocks += 1;
                        return ControlFlow::Continue(());
                    }
                }
                pack(occupied, &mut packed);
                let (j, new) = store.find_or_insert(&packed, player as u16);
                if new {
                    store.set_origin(j, i, push);
                    g_of.push(g + 1);
                    h_of.push(clamp(h));
                    closed.push(false);
                    evaluated.push(false);
                    paired.push(false);
                }
                if h == 0 {
                    return ControlFlow::Break(j);
                }
                // A new child takes the pair bound now, from its matching as `child`
                // left it: one raised past the ceiling, or dead, never enters the open
                // list (most of the pair bounds raise a position out of the last layer).
                if let Some(pairs) = pairs.as_ref().filter(|_| new) {
                    paired[j] = true;
                    let k = box_list
                        .iter()
                        .position(|&b| b == push.from)
                        .expect("pushed");
                    child_boxes.clone_from(&box_list);
                    child_boxes[k] = target;
                    let pair_bound = heuristic.with_child_matrix((k, target, player), |m| {
                        pairs.bound(&mut pair_scratch, &child_boxes, player, m)
                    });
                    match pair_bound {
                        PairBound::Dead => {
                            // Stored, but never opened nor reached again more cheaply.
                            stats.pair_deadlocks += 1;
                            closed[j] = true;
                            g_of[j] = 0;
                            return ControlFlow::Continue(());
                        }
                        PairBound::Excess(e) if matching + raised(e) > h => {
                            stats.pair_raised += 1;
                            h = matching + raised(e);
                            h_of[j] = clamp(h);
                        }
                        PairBound::Excess(_) => {}
                    }
                    if g + 1 + h > ceiling.pushes {
                        stats.ceiling_cuts += 1;
                        least_cut = least_cut.min(g + 1 + h);
                        return ControlFlow::Continue(());
                    }
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
        stats.ceiling_cuts += skip.count;
        if skip.count > 0 {
            least_cut = least_cut.min(g + 1 + skip.least);
        }
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
    if least_cut < u32::MAX {
        let reason = limits.ceiling().reason.into();
        let no_plan_below = least_cut as usize;
        return (
            Outcome::GaveUp {
                reason,
                no_plan_below,
            },
            stats,
        );
    }
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
