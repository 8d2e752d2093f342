//! The fewest moves among the plans with the fewest pushes, once a push-optimal plan of
//! `P` pushes is known (A* proves `P` but not the moves: it treats walking as free).
//!
//! **Positions** are the box set and the player's *exact* square (walking is no longer
//! free). A push of the box on `from` is an edge of cost (1 push, `walk + 1` moves),
//! where `walk` is the length of a shortest walk from the player's square to the square
//! behind the box (one breadth-first search per expanded position gives every walk);
//! after it the player stands on `from`. Between two pushes a shortest walk is always
//! best, so every plan's moves are those of its pushes' edges.
//!
//! **Which plans count.** We want the least moves over plans with exactly `P` pushes
//! (`P` is proven least, so "at most `P`" is the same thing). On such a plan every
//! position is reached by its prefix with the fewest pushes it can be reached with at
//! all (else swapping in a shorter prefix would give a plan with fewer than `P`
//! pushes), and among prefixes with that many pushes, with the fewest moves (else
//! swapping it in would give fewer moves; the rest of the plan starts from the same
//! exact square). So each position needs one *label* only: the lexicographically least
//! (pushes, moves) it has been reached with. A label with the fewest moves but more
//! pushes is not enough: Microban 78, 108, 115, 121 and 134 lose their optimum that way
//! (tests/sokoban_moves.rs).
//!
//! **Order.** Costs are compared lexicographically, (pushes, moves), and the bound of a
//! position is `(hp, hp)`, where `hp` is A*'s matching bound (`heuristic`): every
//! push left is also a move. It is admissible, and consistent in this order: along a
//! push `hp` drops by at most one (`heuristic`), so either it drops by less than the push
//! costs and the first component decides, or by exactly one and then
//! `hp(parent) <= walk + 1 + hp(child)`. The open list takes the least `f = label +
//! (hp, hp)` first, so (as for A* over pushes) a position is expanded with its final
//! label and the first solved position taken out has the least (pushes, moves): `P`
//! pushes and the fewest moves among them. A position is dropped when `pushes + hp > P`
//! (no plan of `P` pushes passes there with that label) or `moves + hp > M`, where `M`
//! is the moves of the plan we started from (only as good a plan is looked for). A label
//! improved after its position was expanded reopens it; with this bound it never happens
//! (`reopened` stays 0), but it keeps the search exact with any admissible bound.
//! (Ordering by moves alone, `moves + hp`, was measured too: it stores as many positions
//! and re-expands many, e.g. 328,000 of 1.1 million expansions on Microban 112.)
//!
//! **Pruning** as in A* where it is sound for moves: pushes onto dead squares, freeze
//! deadlocks and an infinite matching remove only positions from which no plan exists.
//! Not the PI-corral restriction of A*: it keeps a push-optimal plan, but not
//! necessarily one with the fewest moves.
//!
//! **Budget**: the deadline and cancel flag of `Limits`, and `Limits::max_move_states`
//! positions stored. When it runs out the starting plan is kept and its moves are not
//! proven fewest.

use super::freeze::Freeze;
use super::heuristic::{Heuristic, MAX_CELLS};
use super::positions::{pack, PositionTable};
use crate::sokoban::plan::to_lurd;
use crate::sokoban::{Limits, Solution};
use gridsat_encodings::sokoban::{Analysis, Dir, Level, Push};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::Instant;

/// What the fewest-moves search did, for reports.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MovesReport {
    /// Whether the search ran to the end (the plan's moves are then proven fewest).
    pub proven: bool,
    /// Why it stopped early, when it did.
    pub gave_up: Option<String>,
    /// Moves of the plan before and after the search.
    pub moves_before: usize,
    pub moves_after: usize,
    /// Positions stored (open and closed) and expansions (re-expansions included).
    pub stored: usize,
    pub expanded: usize,
    /// Expansions of a position again after a smaller label reached it (none with the
    /// matching bound, which is consistent: see the module comment).
    pub reopened: usize,
    pub seconds: f64,
}

/// Replaces a push-optimal `solution` by one with the fewest moves among the plans with
/// as many pushes, proven, when the search finishes within `limits`; otherwise returns
/// it unchanged (its moves not proven fewest). A solution already proven fewest in moves
/// or not proven push-optimal is returned as is, with no report (as is every solution
/// when `limits.max_move_states` is 0).
pub fn improve(
    level: &Level,
    solution: Solution,
    limits: &Limits,
) -> (Solution, Option<MovesReport>) {
    if !solution.push_optimal || solution.moves_minimal || limits.max_move_states == 0 {
        return (solution, None);
    }
    let Ok(lurd) = to_lurd(level, &solution.pushes) else {
        // A wrong plan: keep it, so that the referee reports it.
        return (solution, None);
    };
    let started = Instant::now();
    let moves_before = lurd.chars().count();
    let (found, stats) = search(level, solution.pushes.len(), moves_before, limits);
    let mut report = MovesReport {
        proven: false,
        gave_up: None,
        moves_before,
        moves_after: moves_before,
        stored: stats.stored,
        expanded: stats.expanded,
        reopened: stats.reopened,
        seconds: 0.0,
    };
    let solution = match found {
        Ok((pushes, moves)) => {
            report.proven = true;
            report.moves_after = moves;
            Solution::push_optimal(pushes, true)
        }
        Err(reason) => {
            report.gave_up = Some(reason);
            solution
        }
    };
    report.seconds = started.elapsed().as_secs_f64();
    (solution, Some(report))
}

#[derive(Default)]
struct Stats {
    stored: usize,
    expanded: usize,
    reopened: usize,
}

/// Every position found (in the shared table) with its label, its bound and whether it
/// was expanded, indexed alike.
struct Positions {
    table: PositionTable,
    pushes: Vec<u32>,
    moves: Vec<u32>,
    bound: Vec<u32>,
    closed: Vec<bool>,
}

impl Positions {
    fn new(words: usize) -> Positions {
        Positions {
            table: PositionTable::new(words),
            pushes: Vec::new(),
            moves: Vec::new(),
            bound: Vec::new(),
            closed: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    /// The index of the position, stored with `bound` and no label if new.
    fn find_or_insert(&mut self, words: &[u64], player: u16, bound: u32) -> usize {
        let (i, new) = self.table.find_or_insert(words, player);
        if new {
            self.pushes.push(u32::MAX);
            self.moves.push(u32::MAX);
            self.bound.push(bound);
            self.closed.push(false);
        }
        i
    }
}

/// Shortest walks from one square around the boxes, stamped so that consecutive
/// searches need no clearing.
struct Walks {
    stamp: Vec<u32>,
    distance: Vec<u32>,
    current: u32,
    queue: VecDeque<usize>,
}

impl Walks {
    fn new(squares: usize) -> Walks {
        Walks {
            stamp: vec![0; squares],
            distance: vec![0; squares],
            current: 0,
            queue: VecDeque::new(),
        }
    }

    fn from(&mut self, level: &Level, occupied: &[bool], start: usize) {
        self.current += 1;
        self.stamp[start] = self.current;
        self.distance[start] = 0;
        self.queue.clear();
        self.queue.push_back(start);
        while let Some(c) = self.queue.pop_front() {
            for d in Dir::ALL {
                if let Some(n) = level.neighbour(c, d) {
                    if self.stamp[n] != self.current && !occupied[n] {
                        self.stamp[n] = self.current;
                        self.distance[n] = self.distance[c] + 1;
                        self.queue.push_back(n);
                    }
                }
            }
        }
    }

    /// The length of a shortest walk to `c` from the last start, if there is one.
    fn to(&self, c: usize) -> Option<u32> {
        (self.stamp[c] == self.current).then(|| self.distance[c])
    }
}

/// Open-list entry of a position with its label: least `f = (pushes + bound, moves +
/// bound)` first (lexicographically), then least bound (deepest first).
fn entry(pushes: u32, moves: u32, bound: u32, index: usize) -> Reverse<(u32, u32, u32, u32)> {
    Reverse((pushes + bound, moves + bound, bound, index as u32))
}

/// The fewest moves among plans of `pushes` pushes (the proven least), looking only for
/// plans of at most `moves_bound` moves (one is known). `Ok` with the plan and its moves,
/// or `Err` with the reason the search stopped.
fn search(
    level: &Level,
    pushes: usize,
    moves_bound: usize,
    limits: &Limits,
) -> (Result<(Vec<Push>, usize), String>, Stats) {
    let mut stats = Stats::default();
    let n = level.num_cells();
    if n > MAX_CELLS {
        let reason = format!("the level has more than {MAX_CELLS} squares");
        return (Err(reason), stats);
    }
    let (Ok(max_pushes), Ok(max_moves)) = (u32::try_from(pushes), u32::try_from(moves_bound))
    else {
        return (Err("the plan is too long".into()), stats);
    };
    let analysis = Analysis::new(level);
    let mut heuristic = Heuristic::new(level, &analysis);
    let mut freeze = Freeze::new(level, &analysis.dead);
    let mut walks = Walks::new(n);
    let words = n.div_ceil(64);
    let mut occupied = vec![false; n];
    for &b in level.boxes() {
        occupied[b] = true;
    }
    let mut box_list: Vec<usize> = level.boxes().to_vec();
    box_list.sort_unstable();
    let Some(h0) = heuristic.expand(&box_list, level.player()) else {
        return (Err("the start has no finite bound".into()), stats);
    };
    let mut positions = Positions::new(words);
    let mut packed = Vec::with_capacity(words);
    pack(&occupied, &mut packed);
    let start = positions.find_or_insert(&packed, level.player() as u16, h0);
    positions.pushes[start] = 0;
    positions.moves[start] = 0;
    let mut open = BinaryHeap::new();
    open.push(entry(0, 0, h0, start));
    while let Some(Reverse(key)) = open.pop() {
        let i = key.3 as usize;
        let bound = positions.bound[i];
        let label = (positions.pushes[i], positions.moves[i]);
        if positions.closed[i] || entry(label.0, label.1, bound, i).0 != key {
            continue; // an entry of an older label
        }
        if bound == 0 {
            // Solved (the bound is zero only when every box is on a goal), and its `f`,
            // its label, is the least in the open list.
            debug_assert_eq!(positions.pushes[i], max_pushes);
            stats.stored = positions.len();
            let moves = positions.moves[i] as usize;
            return (Ok((positions.table.plan_to(i), moves)), stats);
        }
        if stats.expanded % 1024 == 0 && limits.expired() {
            stats.stored = positions.len();
            let reason = if limits.budget.is_cancelled() {
                "cancelled"
            } else {
                "time limit"
            };
            return (Err(reason.into()), stats);
        }
        if positions.len() > limits.max_move_states {
            stats.stored = positions.len();
            let reason = format!("size limit, {} positions", limits.max_move_states);
            return (Err(reason), stats);
        }
        positions.closed[i] = true;
        stats.expanded += 1;
        let (g_pushes, g_moves) = (positions.pushes[i], positions.moves[i]);
        positions.table.unpack(i, &mut occupied, &mut box_list);
        let player = usize::from(positions.table.player_of(i));
        if heuristic.expand(&box_list, player).is_none() {
            unreachable!("a stored position has a finite bound");
        }
        walks.from(level, &occupied, player);
        for (k, &from) in box_list.iter().enumerate() {
            for dir in Dir::ALL {
                let Some((behind, target)) = level.push_squares(from, dir) else {
                    continue;
                };
                let Some(walk) = walks.to(behind) else {
                    continue;
                };
                if occupied[target] || analysis.dead[target] {
                    continue;
                }
                let (child_pushes, child_moves) = (g_pushes + 1, g_moves + walk + 1);
                occupied[from] = false;
                occupied[target] = true;
                let child_bound = if freeze.deadlocked(&occupied, target) {
                    None
                } else {
                    heuristic.child(k, target, from, &box_list)
                };
                if let Some(h) = child_bound
                    .filter(|&h| child_pushes + h <= max_pushes && child_moves + h <= max_moves)
                {
                    pack(&occupied, &mut packed);
                    let j = positions.find_or_insert(&packed, from as u16, h);
                    if (child_pushes, child_moves) < (positions.pushes[j], positions.moves[j]) {
                        if positions.closed[j] {
                            positions.closed[j] = false;
                            stats.reopened += 1;
                        }
                        positions.pushes[j] = child_pushes;
                        positions.moves[j] = child_moves;
                        positions.table.set_origin(j, i, Push { from, dir });
                        open.push(entry(child_pushes, child_moves, h, j));
                    }
                }
                occupied[target] = false;
                occupied[from] = true;
            }
        }
    }
    stats.stored = positions.len();
    // The starting plan is within both bounds, so this means a bug.
    (
        Err("the moves search exhausted its positions without a plan (a bug)".into()),
        stats,
    )
}
