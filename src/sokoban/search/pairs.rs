//! The pair bound: what two boxes cost *together*, added to the matching bound where
//! they get in each other's way.
//!
//! The matching bound prices each box alone. Two boxes that block each other (side by
//! side against a wall, one in the other's only corridor) need more pushes together
//! than alone, and the matching never sees it. The pair table holds, for every two
//! squares, every player square and every two goals, the exact pushes of those two
//! boxes *alone in the level* to those goals: a breadth-first search by pulls back
//! from the two goals (as in `perimeter`, with only two boxes), one per goal pair.
//!
//! **Combining it with the matching soundly.** A pair alone needs at least what it
//! needs among the other boxes (they only block), so in any plan, with each box `b`
//! ending on goal `s(b)`, the pushes are at least `pair(s) + the sum of d(b, s(b))
//! over the boxes outside the pair`, where `d` is the lone-box cost of the matching.
//! The matching's dual values `u` (boxes) and `v` (goals) satisfy `d(b, g) >= u(b) +
//! v(g)` and sum to the matching bound `M`, so that sum is at least `M` plus the
//! pair's *excess* `pair(s(b1), s(b2)) - u(b1) - u(b2) - v(s(b1)) - v(s(b2))`, and so
//! at least `M` plus the least excess over the goal pairs. Pairs without a common box
//! add their excesses (each minimised over its own goals, a relaxation): `M` plus the
//! excesses of any disjoint pairs is a lower bound. And a pair that reaches no two
//! goals even alone is a deadlock.
//!
//! The excess of a pair is found from the goal pairs cheapest by reduced cost first,
//! and stops as soon as the reduced costs alone reach the best excess: most pairs stop
//! at their first look-up, an excess of 0.

use gridsat_encodings::sokoban::analysis::UNREACHABLE;
use gridsat_encodings::sokoban::{Dir, Level};

use crate::sokoban::Limits;

/// A pair that reaches no two goals: stored as the largest byte.
const NEVER: u8 = u8::MAX;

pub(super) struct PairTable {
    layout: Layout,
    goals: Vec<usize>,
    /// For goals `g1 < g2`, at `pair_index(g1, g2) * layout.size()`: the pushes of a
    /// box on `a` to `g1` and one on `b` to `g2` with the player on `p`, at
    /// `layout.index(a, b, p)` (capped below `NEVER`, still a bound).
    pushes: Vec<u8>,
    /// The least of `pushes` over the goal pairs, either box on either goal: `NEVER`
    /// when the two boxes can never both stand on goals.
    any: Vec<u8>,
}

/// Scratch for `PairTable::bound`, one per thread: the table itself is only read, and
/// threads share it.
#[derive(Default)]
pub(super) struct PairScratch {
    reduced: Vec<(i64, u16)>,
    u: Vec<i64>,
    sorted: Vec<bool>,
    excesses: Vec<(u32, usize, usize)>,
    used: Vec<bool>,
}

/// Where a placement of two boxes and the player is kept: the boxes on live squares
/// only (a box on a dead square reaches no goal, and a pull never puts one there),
/// the player on any square.
struct Layout {
    squares: usize,
    /// Each square's number among the live squares (`u32::MAX`: dead).
    live: Vec<u32>,
    lives: usize,
}

impl Layout {
    fn new(level: &Level, dead: &[bool]) -> Layout {
        let mut lives = 0;
        let live = (0..level.num_cells())
            .map(|c| {
                if dead[c] {
                    u32::MAX
                } else {
                    lives += 1;
                    lives as u32 - 1
                }
            })
            .collect();
        Layout {
            squares: level.num_cells(),
            live,
            lives,
        }
    }

    /// Placements per goal pair.
    fn size(&self) -> usize {
        self.lives * self.lives * self.squares
    }

    /// The placement of boxes on `a` and `b` and the player on `p`; `None` with a box
    /// on a dead square.
    fn index(&self, a: usize, b: usize, p: usize) -> Option<usize> {
        let (a, b) = (self.live[a], self.live[b]);
        (a != u32::MAX && b != u32::MAX)
            .then(|| (a as usize * self.lives + b as usize) * self.squares + p)
    }
}

/// What an excess adds to the matching bound: with a box per goal the pushes to go keep
/// the matching's parity, so an odd excess is rounded up.
pub(super) fn excess_raised(excess: u32, boxes_equal_goals: bool) -> u32 {
    match boxes_equal_goals {
        true => excess + excess % 2,
        false => excess,
    }
}

/// What the pair bound added to a position's matching bound.
pub(super) enum PairBound {
    /// The sum of the excesses of the disjoint pairs chosen (0: none).
    Excess(u32),
    /// Two boxes that cannot both reach goals even alone.
    Dead,
}

impl PairTable {
    /// The table for `level` (whose dead squares are `dead`), or `None` when it would
    /// take more than `max_bytes` (or the limits expire while it is built).
    pub(super) fn new(
        level: &Level,
        dead: &[bool],
        max_bytes: usize,
        limits: &Limits,
    ) -> Option<PairTable> {
        let layout = Layout::new(level, dead);
        let goals = level.goals().to_vec();
        let pairs = goals.len() * goals.len().saturating_sub(1) / 2;
        let size = layout.size();
        if pairs == 0 || size.checked_mul(pairs + 1)? > max_bytes {
            return None;
        }
        let mut table = PairTable {
            layout,
            goals,
            pushes: vec![NEVER; size * pairs],
            any: vec![NEVER; size],
        };
        let mut search = PullSearch::default();
        for g1 in 0..table.goals.len() {
            for g2 in g1 + 1..table.goals.len() {
                if limits.expired() {
                    return None;
                }
                let at = table.pair_index(g1, g2) * size;
                let goals = (table.goals[g1], table.goals[g2]);
                let out = &mut table.pushes[at..at + size];
                search.run(level, &table.layout, goals, out);
            }
        }
        let (lives, n) = (table.layout.lives, table.layout.squares);
        for pair in table.pushes.chunks_exact(size) {
            for (s, &c) in pair.iter().enumerate() {
                let (a, b, p) = (s / (lives * n), s / n % lives, s % n);
                for t in [s, (b * lives + a) * n + p] {
                    table.any[t] = table.any[t].min(c);
                }
            }
        }
        Some(table)
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.pushes.len() + self.any.len()
    }

    fn pair_index(&self, g1: usize, g2: usize) -> usize {
        debug_assert!(g1 < g2);
        // Pairs (0,1), (0,2), .., (1,2), ..: those before row g1, then the offset in it.
        let k = self.goals.len();
        g1 * (2 * k - g1 - 1) / 2 + (g2 - g1 - 1)
    }

    /// The pushes of a box on `a` to goal number `g1` and one on `b` to goal `g2` (two
    /// different goals), alone with the player on `p`.
    fn cost(&self, (a, b): (usize, usize), p: usize, (g1, g2): (usize, usize)) -> u8 {
        let ((a, g1), (b, g2)) = if g1 < g2 {
            ((a, g1), (b, g2))
        } else {
            ((b, g2), (a, g1))
        };
        match self.layout.index(a, b, p) {
            Some(s) => self.pushes[self.pair_index(g1, g2) * self.layout.size() + s],
            None => NEVER,
        }
    }

    /// The least pushes of boxes on `a` and `b` to any two goals, alone with the player
    /// on `p`.
    fn least(&self, a: usize, b: usize, p: usize) -> u8 {
        self.layout.index(a, b, p).map_or(NEVER, |s| self.any[s])
    }

    /// Whether, after the box on `from` among `boxes` was pushed to `to`, it and another
    /// box cannot both reach goals, even alone, with the player on `player`: a deadlock
    /// found when a child is made.
    pub(super) fn stuck(&self, (from, to): (usize, usize), boxes: &[usize], player: usize) -> bool {
        boxes
            .iter()
            .any(|&b| b != from && self.least(to, b, player) == NEVER)
    }

    /// The excess the pairs of `boxes` add to their matching, whose cost matrix is
    /// `costs` (rows in `boxes`' order, then rows of zeros up to one per goal), whose
    /// goal dual values are `v` and which gives box `i` goal `goal_of[i]`, with the
    /// player on `player`.
    pub(super) fn bound(
        &self,
        scratch: &mut PairScratch,
        boxes: &[usize],
        player: usize,
        (costs, v, goal_of): (&[Vec<u32>], &[i64], &[usize]),
    ) -> PairBound {
        let k = self.goals.len();
        // Each box's dual value: the matching is tight on its own goal.
        scratch.u.clear();
        scratch.u.extend((0..boxes.len()).map(|i| {
            let g = goal_of[i];
            i64::from(costs[i][g]) - v[g]
        }));
        // Each box's goals by reduced cost `d - u - v`, in row `i` of `reduced`, sorted
        // when first needed (most pairs cost no more than their lone boxes on their
        // matched goals, and need no other goal).
        // (A row is written whole when sorted, its end marked: no need to clear it.)
        if scratch.reduced.len() < boxes.len() * k {
            scratch.reduced.resize(boxes.len() * k, (i64::MAX, 0));
        }
        scratch.sorted.clear();
        scratch.sorted.resize(boxes.len(), false);
        scratch.excesses.clear();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                let (gi, gj) = (goal_of[i], goal_of[j]);
                let c = self.cost((boxes[i], boxes[j]), player, (gi, gj));
                if c != NEVER && i64::from(c) == i64::from(costs[i][gi]) + i64::from(costs[j][gj]) {
                    continue;
                }
                for r in [i, j] {
                    scratch.sort_row(r, k, &costs[r], v);
                }
                let (u, reduced) = (&scratch.u, &scratch.reduced);
                let row = |r: usize| {
                    reduced[r * k..(r + 1) * k]
                        .iter()
                        .take_while(|e| e.0 != i64::MAX)
                };
                let mut best = i64::MAX;
                'outer: for &(ri, gi) in row(i) {
                    if ri >= best {
                        break;
                    }
                    for &(rj, gj) in row(j) {
                        if ri + rj >= best {
                            continue 'outer;
                        }
                        if gi == gj {
                            continue;
                        }
                        let (gi, gj) = (usize::from(gi), usize::from(gj));
                        let c = self.cost((boxes[i], boxes[j]), player, (gi, gj));
                        if c == NEVER {
                            continue;
                        }
                        let excess = i64::from(c) - u[i] - u[j] - v[gi] - v[gj];
                        debug_assert!(excess >= ri + rj, "a pair costs its lone boxes' pushes");
                        best = best.min(excess);
                    }
                }
                if best == i64::MAX {
                    return PairBound::Dead;
                }
                if best > 0 {
                    scratch.excesses.push((best as u32, i, j));
                }
            }
        }
        // Disjoint pairs, the largest excesses first.
        scratch.excesses.sort_unstable_by(|x, y| y.cmp(x));
        scratch.used.clear();
        scratch.used.resize(boxes.len(), false);
        let mut total = 0;
        for &(excess, i, j) in &scratch.excesses {
            if !scratch.used[i] && !scratch.used[j] {
                scratch.used[i] = true;
                scratch.used[j] = true;
                total += excess;
            }
        }
        PairBound::Excess(total)
    }
}

impl PairScratch {
    /// Row `r` of `reduced`: box `r`'s reachable goals by reduced cost, least first.
    fn sort_row(&mut self, r: usize, k: usize, costs: &[u32], v: &[i64]) {
        if self.sorted[r] {
            return;
        }
        self.sorted[r] = true;
        let u = self.u[r];
        let mine = &mut self.reduced[r * k..(r + 1) * k];
        let mut len = 0;
        for (g, (&c, &vg)) in costs.iter().zip(v).enumerate() {
            if c != UNREACHABLE {
                mine[len] = (i64::from(c) - u - vg, g as u16);
                len += 1;
            }
        }
        mine[..len].sort_unstable();
        if let Some(end) = mine.get_mut(len) {
            *end = (i64::MAX, 0);
        }
    }
}

/// The search back from two goals: the pushes of every placement of the two boxes and
/// the player, layer by layer (walking is free, a pull costs one).
#[derive(Default)]
struct PullSearch {
    layer: Vec<u32>,
    next: Vec<u32>,
}

impl PullSearch {
    /// Fills `out` (`layout.size()` bytes, all `NEVER`) for boxes ending on `goals`.
    fn run(&mut self, level: &Level, layout: &Layout, goals: (usize, usize), out: &mut [u8]) {
        let (lives, n) = (layout.lives, layout.squares);
        // The squares by live number, to read a placement back.
        let cells: Vec<usize> = (0..n).filter(|&c| layout.live[c] != u32::MAX).collect();
        self.layer.clear();
        self.next.clear();
        for p in 0..n {
            if p != goals.0 && p != goals.1 {
                let s = layout.index(goals.0, goals.1, p).expect("goals are live");
                out[s] = 0;
                self.layer.push(s as u32);
            }
        }
        let mut depth: u8 = 0;
        while !self.layer.is_empty() {
            let mut k = 0;
            // The layer grows while it is read: walking costs nothing.
            while k < self.layer.len() {
                let s = self.layer[k] as usize;
                k += 1;
                if out[s] != depth {
                    continue;
                }
                let (a, b, p) = (cells[s / (lives * n)], cells[s / n % lives], s % n);
                for dir in Dir::ALL {
                    let Some(q) = level.neighbour(p, dir) else {
                        continue;
                    };
                    if q == a || q == b {
                        // The player next to a box pulls it by stepping back, if free.
                        let Some(back) = level.neighbour(p, dir.opposite()) else {
                            continue;
                        };
                        if back == a || back == b || depth + 1 == NEVER {
                            continue;
                        }
                        let pulled = if q == a {
                            layout.index(p, b, back)
                        } else {
                            layout.index(a, p, back)
                        };
                        // (A pulled box always stands where it can reach a goal.)
                        let Some(t) = pulled else {
                            debug_assert!(false, "a pull onto a dead square");
                            continue;
                        };
                        if out[t] == NEVER {
                            out[t] = depth + 1;
                            self.next.push(t as u32);
                        }
                    } else {
                        let t = layout.index(a, b, q).expect("the boxes stay");
                        if out[t] > depth {
                            // (Possibly found a layer deeper by a pull: walking is cheaper.)
                            out[t] = depth;
                            self.layer.push(t as u32);
                        }
                    }
                }
            }
            std::mem::swap(&mut self.layer, &mut self.next);
            self.next.clear();
            depth += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};
    use crate::sokoban::search::heuristic::Heuristic;
    use crate::sokoban::search::rooms::{draws, optimum, room};
    use gridsat_encodings::sokoban::Analysis;

    /// Small rooms: open with pillars, a corridor with a pocket, a cross.
    const LEVELS: &str = "\
#########
#   #   #
# $   $ #
#  #.#  #
# .@*   #
#  # #$ #
#.      #
#########

########
#      #
# .**$@#
#      #
#####  #
    ####

#######
#  .  #
# #$# #
#.$@$.#
# #$# #
#  .  #
#######
";

    #[test]
    fn the_table_holds_what_two_boxes_alone_need() {
        let mut below = draws(0x9a12_7ab1e);
        let (mut solvable, mut stuck) = (0, 0);
        for entry in parse_levels(LEVELS, LevelFormat::Auto, None).unwrap() {
            let level = entry.level;
            let n = level.num_cells();
            let dead = Analysis::new(&level).dead;
            let table = PairTable::new(&level, &dead, usize::MAX, &Limits::default()).unwrap();
            let goals = level.goals();
            // Boxes mostly off the dead squares, so that many pairs have a plan.
            let live: Vec<usize> = (0..n).filter(|&c| !dead[c]).collect();
            for k in 0..300 {
                let square = |below: &mut dyn FnMut(usize) -> usize| match k % 4 {
                    0 => below(n),
                    _ => live[below(live.len())],
                };
                let (a, b) = (square(&mut below), square(&mut below));
                let (g1, g2) = (below(goals.len()), below(goals.len()));
                let p = below(n);
                if a == b || g1 == g2 || p == a || p == b {
                    continue;
                }
                // The two boxes on `a` and `b`, the goals `g1` and `g2` only: either box
                // may take either goal.
                let (pair, ends) = ([a, b], [goals[g1], goals[g2]]);
                let alone = room(&level, |c| pair.contains(&c), |c| ends.contains(&c), p);
                let best = [(g1, g2), (g2, g1)]
                    .map(|gs| table.cost((a, b), p, gs))
                    .into_iter()
                    .min()
                    .unwrap();
                let expected = optimum(&alone);
                assert_eq!((best != NEVER).then_some(u32::from(best)), expected);
                // The least over every goal pair: a deadlock exactly when no two goals
                // can be reached.
                let any = table.least(a, b, p);
                let freely = optimum(&room(
                    &level,
                    |c| pair.contains(&c),
                    |c| level.is_goal(c),
                    p,
                ));
                assert_eq!((any != NEVER).then_some(u32::from(any)), freely);
                solvable += usize::from(expected.is_some());
                stuck += usize::from(freely.is_none());
            }
        }
        assert!(
            solvable > 200 && stuck > 100,
            "{solvable} with a plan, {stuck} stuck"
        );
    }

    #[test]
    fn the_pair_bound_never_passes_the_pushes_to_go() {
        let mut below = draws(0x09a1_2b0d);
        let (mut raised, mut dead, mut checked) = (0, 0, 0);
        for entry in parse_levels(LEVELS, LevelFormat::Auto, None).unwrap() {
            let level = entry.level;
            let n = level.num_cells();
            let analysis = Analysis::new(&level);
            let live: Vec<usize> = (0..n).filter(|&c| !analysis.dead[c]).collect();
            let table =
                PairTable::new(&level, &analysis.dead, usize::MAX, &Limits::default()).unwrap();
            let mut heuristic = Heuristic::new(&level, &analysis);
            for _ in 0..300 {
                let mut boxes: Vec<usize> = Vec::new();
                while boxes.len() < level.goals().len() {
                    let c = live[below(live.len())];
                    if !boxes.contains(&c) {
                        boxes.push(c);
                    }
                }
                boxes.sort_unstable();
                let player = below(n);
                if boxes.contains(&player) {
                    continue;
                }
                let Some(matching) = heuristic.expand(&boxes, player) else {
                    continue;
                };
                let pushes = optimum(&room(
                    &level,
                    |c| boxes.contains(&c),
                    |c| level.is_goal(c),
                    player,
                ));
                checked += 1;
                match table.bound(
                    &mut PairScratch::default(),
                    &boxes,
                    player,
                    heuristic.matrix(),
                ) {
                    PairBound::Dead => {
                        assert_eq!(pushes, None, "{boxes:?} {player}");
                        dead += 1;
                    }
                    PairBound::Excess(e) => {
                        // Rounded up to the parity of the pushes to go, as A* takes it.
                        let bound = matching + excess_raised(e, true);
                        if let Some(pushes) = pushes {
                            assert!(bound <= pushes, "{matching} + {e} > {pushes}");
                        }
                        raised += usize::from(e > 0);
                    }
                }
            }
        }
        assert!(
            checked > 450 && raised > 40 && dead > 80,
            "{checked} positions, {raised} raised, {dead} dead"
        );
    }
}
