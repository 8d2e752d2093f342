//! What can be known about a level before searching: how many pushes a lone box needs
//! between two squares, which squares are dead (no goal can be reached from them by
//! pushing), which squares a box can reach in `t` pushes, and an admissible lower bound
//! on the number of pushes (a minimum-cost matching of boxes to goals, solved by
//! `matching`).
//!
//! Every figure ignores the other boxes and whether the player can get behind a box,
//! so each is optimistic: a lower bound on the truth, which is what pruning needs.

use super::matching::{matching_with_potentials, FORBIDDEN};
use super::{Dir, Level, Push};
use std::collections::VecDeque;

/// Pushes a lone box needs; `UNREACHABLE` when it cannot be done at all, which in a
/// matching of boxes to goals is a pair no assignment may use.
pub const UNREACHABLE: u32 = FORBIDDEN;

#[derive(Clone, Debug)]
pub struct Analysis {
    /// `to_goal[g][c]`: pushes to bring a lone box from cell `c` to goal number `g`,
    /// with the player on the best side of it.
    pub to_goal: Vec<Vec<u32>>,
    /// Pushes from `c` to the nearest goal, with the player on the best side.
    pub nearest_goal: Vec<u32>,
    /// Fewest pushes that can bring some starting box onto `c`.
    pub from_start: Vec<u32>,
    /// Squares from which no box can ever reach a goal.
    pub dead: Vec<bool>,
    /// Minimum over assignments of distinct goals to boxes of the summed pushes (each box
    /// with the player on its actual side); `None` when no assignment is finite.
    pub lower_bound: Option<u32>,
    /// The potential of the start position (see `push_waste`): at least the matching
    /// bound, at most the pushes of any plan.
    pub start_distance: u32,
    /// `side[c][d]`: which region of the level without `c` the neighbour of `c` in
    /// direction `d` lies in, named by the first direction whose neighbour lies in it
    /// (`NO_SIDE` where there is no neighbour).
    side: Vec<[u8; 4]>,
    /// `nearest[state(c, k)]`: pushes from a lone box on `c` with the player in region
    /// `k` of the level without `c` to the nearest goal.
    nearest: Vec<u32>,
    /// `potential[state]`: the least over goals `g` of the lone box's pushes to `g` minus
    /// `goal_potential[g]` (`None`: no goal reachable). See `push_waste`.
    potential: Vec<Option<i64>>,
    /// `to_state[g][state(c, k)]`: pushes a lone box on `c`, player in region `k`, needs
    /// to reach goal number `g`.
    to_state: Vec<Vec<u32>>,
}

const NO_SIDE: u8 = u8::MAX;

/// A lone box's state: its square and the region (of the level without that square) the
/// player is in. The player can walk anywhere in its region, so this is all that
/// matters about where it stands.
fn state(cell: usize, side: u8) -> usize {
    cell * 4 + usize::from(side)
}

/// Can a box on `cell` be pushed in `dir`: the player's square behind it and the target
/// square in front are both squares of the level.
pub fn pushable(level: &Level, cell: usize, dir: Dir) -> Option<usize> {
    level.neighbour(cell, dir.opposite())?;
    level.neighbour(cell, dir)
}

/// For every cell, the regions its neighbours fall into once the cell is blocked, each
/// named by the first direction (in `Dir::ALL` order) whose neighbour lies in it.
///
/// Linear in the level's size (a flood per cell would be quadratic: a 200 x 200 room
/// spent most of a minute in it): one depth-first search with low links (Tarjan's articulation points).
/// Without cell `c`, a DFS child `s` of `c` keeps its subtree apart from the rest unless
/// the subtree has an edge above `c` (`low[s] < disc[c]`; never when `c` is a root), in
/// which case it joins the part holding `c`'s parent. Every other neighbour of `c` is an
/// ancestor (in the parent's part) or lies in the subtree of one of `c`'s children.
fn sides(level: &Level) -> Vec<[u8; 4]> {
    const UNSEEN: u32 = u32::MAX;
    let n = level.num_cells();
    let neighbours = |c: usize| Dir::ALL.map(|d| level.neighbour(c, d));
    let mut disc = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut size = vec![1u32; n];
    let mut parent = vec![usize::MAX; n];
    let mut time = 0u32;
    for root in 0..n {
        if disc[root] != UNSEEN {
            continue;
        }
        disc[root] = time;
        low[root] = time;
        time += 1;
        // (cell, index into `Dir::ALL` of the next direction to look at)
        let mut stack = vec![(root, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (c, d) = *top;
            if d < Dir::ALL.len() {
                top.1 += 1;
                let Some(m) = level.neighbour(c, Dir::ALL[d]) else {
                    continue;
                };
                if disc[m] == UNSEEN {
                    disc[m] = time;
                    low[m] = time;
                    time += 1;
                    parent[m] = c;
                    stack.push((m, 0));
                } else if m != parent[c] {
                    low[c] = low[c].min(disc[m]);
                }
            } else {
                stack.pop();
                let p = parent[c];
                if p != usize::MAX {
                    low[p] = low[p].min(low[c]);
                    size[p] += size[c];
                }
            }
        }
    }
    (0..n)
        .map(|c| {
            let children: Vec<usize> = neighbours(c)
                .into_iter()
                .flatten()
                .filter(|&m| parent[m] == c)
                .collect();
            // The part of the level without `c` that neighbour `m` is in: `None` for the
            // part holding `c`'s parent, else the child whose subtree stands apart.
            let part = |m: usize| -> Option<usize> {
                let child = children
                    .iter()
                    .copied()
                    .find(|&s| disc[s] <= disc[m] && disc[m] < disc[s] + size[s])?;
                (low[child] >= disc[c]).then_some(child)
            };
            let around = neighbours(c);
            let parts: [Option<Option<usize>>; 4] = around.map(|m| m.map(part));
            let mut side = [NO_SIDE; 4];
            for (d, here) in parts.iter().enumerate() {
                if let Some(here) = here {
                    let first = parts.iter().position(|p| p.as_ref() == Some(here));
                    side[d] = first.map_or(NO_SIDE, |f| f as u8);
                }
            }
            side
        })
        .collect()
}

/// The region of the level without `cell` that the player (elsewhere) is in.
fn player_side(level: &Level, side: &[[u8; 4]], cell: usize) -> u8 {
    let n = level.num_cells();
    let mut seen = vec![false; n];
    let mut stack = vec![level.player()];
    seen[level.player()] = true;
    while let Some(x) = stack.pop() {
        for m in Dir::ALL.iter().filter_map(|&d| level.neighbour(x, d)) {
            if m != cell && !seen[m] {
                seen[m] = true;
                stack.push(m);
            }
        }
    }
    Dir::ALL
        .iter()
        .find(|&&d| level.neighbour(cell, d).is_some_and(|m| seen[m]))
        .map_or(NO_SIDE, |d| side[cell][d.index()])
}

/// A push of a lone box in state `(cell, k)` in `dir`: the state it leads to, if the
/// player's square behind is in region `k` and the target is a square.
fn push_state(level: &Level, side: &[[u8; 4]], cell: usize, k: u8, dir: Dir) -> Option<usize> {
    let back = dir.opposite().index();
    if side[cell][back] != k {
        return None;
    }
    let target = pushable(level, cell, dir)?;
    // The player ends on `cell`, the target's neighbour opposite `dir`.
    Some(state(target, side[target][back]))
}

/// Pushes a lone box needs from every state to a box on `to` (a breadth-first search of
/// pulls over states).
fn distances_to(level: &Level, side: &[[u8; 4]], to: usize) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; level.num_cells() * 4];
    let mut queue = VecDeque::new();
    for k in side[to].iter().copied().filter(|&k| k != NO_SIDE) {
        if dist[state(to, k)] == UNREACHABLE {
            dist[state(to, k)] = 0;
            queue.push_back((to, k));
        }
    }
    while let Some((c, k)) = queue.pop_front() {
        let d = dist[state(c, k)];
        for dir in Dir::ALL {
            // The box came to `c` from `prev` by a push in `dir`, leaving the player on
            // `prev`, which must lie in region `k`.
            let Some(prev) = level.neighbour(c, dir.opposite()) else {
                continue;
            };
            if side[c][dir.opposite().index()] != k {
                continue;
            }
            if level.neighbour(prev, dir.opposite()).is_none() {
                continue;
            }
            let pk = side[prev][dir.opposite().index()];
            if dist[state(prev, pk)] == UNREACHABLE {
                dist[state(prev, pk)] = d + 1;
                queue.push_back((prev, pk));
            }
        }
    }
    dist
}

impl Analysis {
    /// Distances are those of a lone box pushed by a player who must walk around it:
    /// the player can reach a square next to the box only inside its own region of the
    /// level without the box's square. Ignoring the other boxes only frees squares, so
    /// in a real plan each box needs at least its lone distance in further pushes; and
    /// since a player never crosses a box that does not move, the region a box's player
    /// is in changes only when that box is pushed.
    pub fn new(level: &Level) -> Analysis {
        let n = level.num_cells();
        let side = sides(level);
        let to_state: Vec<Vec<u32>> = level
            .goals()
            .iter()
            .map(|&g| distances_to(level, &side, g))
            .collect();
        let best_side = |dist: &[u32], c: usize| -> u32 {
            side[c]
                .iter()
                .filter(|&&k| k != NO_SIDE)
                .map(|&k| dist[state(c, k)])
                .min()
                .unwrap_or(UNREACHABLE)
        };
        let to_goal: Vec<Vec<u32>> = to_state
            .iter()
            .map(|dist| (0..n).map(|c| best_side(dist, c)).collect())
            .collect();
        let nearest: Vec<u32> = (0..n * 4)
            .map(|s| to_state.iter().map(|d| d[s]).min().unwrap_or(UNREACHABLE))
            .collect();
        let nearest_goal: Vec<u32> = (0..n).map(|c| best_side(&nearest, c)).collect();
        let dead = nearest_goal.iter().map(|&d| d == UNREACHABLE).collect();

        let start_sides: Vec<u8> = level
            .boxes()
            .iter()
            .map(|&b| player_side(level, &side, b))
            .collect();
        let mut reached = vec![UNREACHABLE; n * 4];
        let mut queue = VecDeque::new();
        for (&b, &k) in level.boxes().iter().zip(&start_sides) {
            if k != NO_SIDE && reached[state(b, k)] == UNREACHABLE {
                reached[state(b, k)] = 0;
                queue.push_back((b, k));
            }
        }
        while let Some((c, k)) = queue.pop_front() {
            let d = reached[state(c, k)];
            for dir in Dir::ALL {
                if let Some(next) = push_state(level, &side, c, k, dir) {
                    if reached[next] == UNREACHABLE {
                        reached[next] = d + 1;
                        queue.push_back((next / 4, (next % 4) as u8));
                    }
                }
            }
        }
        let mut from_start: Vec<u32> = (0..n)
            .map(|c| {
                (0..4)
                    .map(|k| reached[c * 4 + k])
                    .min()
                    .unwrap_or(UNREACHABLE)
            })
            .collect();
        for &b in level.boxes() {
            from_start[b] = 0;
        }
        let at_start = |dist: &[u32], i: usize| -> u32 {
            match start_sides[i] {
                NO_SIDE => UNREACHABLE,
                k => dist[state(level.boxes()[i], k)],
            }
        };
        let costs: Vec<Vec<u32>> = (0..level.boxes().len())
            .map(|i| to_state.iter().map(|d| at_start(d, i)).collect())
            .collect();
        let matching = matching_with_potentials(&costs);
        let lower_bound = matching.as_ref().map(|(total, _)| *total);
        // Goal potentials from the matching's dual, when every goal gets a box; else
        // zero (the potential is then the plain distance to the nearest goal).
        let goal_potential = match matching {
            Some((_, v)) if level.goals().len() == level.boxes().len() => v,
            _ => vec![0; level.goals().len()],
        };
        let potential: Vec<Option<i64>> = (0..n * 4)
            .map(|s| {
                to_state
                    .iter()
                    .zip(&goal_potential)
                    .filter(|(d, _)| d[s] != UNREACHABLE)
                    .map(|(d, &v)| i64::from(d[s]) - v)
                    .min()
            })
            .collect();
        let start_potential: Option<i64> = level
            .boxes()
            .iter()
            .zip(&start_sides)
            .map(|(&b, &k)| (k != NO_SIDE).then(|| potential[state(b, k)]).flatten())
            .sum::<Option<i64>>()
            .map(|p| p + goal_potential.iter().sum::<i64>());
        let start_distance = start_potential.map_or(UNREACHABLE, |p| {
            u32::try_from(p.max(0)).expect("potential fits in u32")
        });
        Analysis {
            to_goal,
            nearest_goal,
            from_start,
            dead,
            lower_bound,
            start_distance,
            side,
            nearest,
            potential,
            to_state,
        }
    }

    /// Pushes a lone box on `cell` needs to reach goal number `goal` (an index into
    /// `level.goals()`) when the player is on the side named `side` (see `SideTable`);
    /// `UNREACHABLE` when it cannot. A lower bound on that box's own pushes in any real
    /// position where the player is on that side of it.
    pub fn pushes_to_goal(&self, goal: usize, cell: usize, side: u8) -> u32 {
        self.to_state[goal][state(cell, side)]
    }

    /// The side of a box on `cell` that a player on `player` is on, for every pair: see
    /// `SideTable`. Takes `num_cells()^2` bytes.
    pub fn side_table(&self, level: &Level) -> SideTable {
        SideTable::new(level, &self.side)
    }

    /// How many of the pushes left a push wastes, for the waste budget.
    ///
    /// The potential `P` of a position is the sum over the boxes of `potential[state of
    /// the box]` plus the sum over goals of `goal_potential`. It is a lower bound on the
    /// pushes left: in a real plan each box ends on its own goal `g(box)` (as many goals
    /// as boxes, or the potentials are zero), needing at least `to_goal[g(box)]` pushes of its own, and
    /// `potential[state] <= to_goal[g] - goal_potential[g]` for every `g`; summing over
    /// the boxes gives `P <= pushes left`. At the start `P` equals the matching bound
    /// (the goal potentials are the matching's dual), and at the end `P <= 0`. A push
    /// changes only the pushed box's term, by at least `-1` (a push moves a lone box's
    /// distance to each goal by at least `-1`), and the box's states before and after are
    /// fixed by the push (the player's side of a box changes only when it is pushed).
    /// So `waste = 1 + potential[after] - potential[before] >= 0`, and over a plan of `T`
    /// pushes the wastes add up to `T - P(start) + P(end) <= T - P(start)`: the budget.
    /// `None` when no goal can be reached from the box's state before or after: such a
    /// push is never part of a plan.
    pub fn push_waste(&self, level: &Level, push: Push) -> Option<u32> {
        let k = self.side[push.from][push.dir.opposite().index()];
        if k == NO_SIDE {
            return None;
        }
        let before = self.potential[state(push.from, k)]?;
        let after = self.potential[push_state(level, &self.side, push.from, k, push.dir)?]?;
        Some(u32::try_from(1 + after - before).expect("a push gains at most one"))
    }

    /// The pushed box's distance to its nearest goal right after `push` (its state is
    /// fixed by the push), or `UNREACHABLE`.
    pub fn distance_after(&self, level: &Level, push: Push) -> u32 {
        let k = self.side[push.from][push.dir.opposite().index()];
        if k == NO_SIDE {
            return UNREACHABLE;
        }
        push_state(level, &self.side, push.from, k, push.dir)
            .map_or(UNREACHABLE, |s| self.nearest[s])
    }
}

/// For every square `c` and every other square `p`, which region of the level without
/// `c` the square `p` lies in, named as `Analysis` names the sides of a box on `c`. With
/// a box on `c` and the player anywhere in its walkable region, this is the box's side:
/// the player's whole region lies in one region of the level without `c`, since the
/// player never walks through the box.
#[derive(Clone, Debug)]
pub struct SideTable {
    cells: usize,
    labels: Vec<u8>,
}

impl SideTable {
    fn new(level: &Level, side: &[[u8; 4]]) -> SideTable {
        let n = level.num_cells();
        let mut labels = vec![NO_SIDE; n * n];
        let mut stack = Vec::new();
        for c in 0..n {
            let row = &mut labels[c * n..(c + 1) * n];
            for dir in Dir::ALL {
                let Some(start) = level.neighbour(c, dir) else {
                    continue;
                };
                if row[start] != NO_SIDE {
                    continue;
                }
                let label = side[c][dir.index()];
                row[start] = label;
                stack.push(start);
                while let Some(x) = stack.pop() {
                    for m in Dir::ALL.iter().filter_map(|&d| level.neighbour(x, d)) {
                        if m != c && row[m] == NO_SIDE {
                            row[m] = label;
                            stack.push(m);
                        }
                    }
                }
            }
        }
        SideTable { cells: n, labels }
    }

    /// The side of a box on `cell` the player on `player` is on (`player != cell`).
    pub fn side(&self, cell: usize, player: usize) -> u8 {
        self.labels[cell * self.cells + player]
    }
}

/// The parity every plan's push count has, when the level fixes it: `Some(p)` means every
/// plan has `pushes % 2 == p`.
///
/// Why: colour the squares like a chessboard. A push moves one box to a neighbouring
/// square, which has the other colour, and leaves the other boxes where they are, so the
/// number of boxes on dark squares changes by exactly one per push. With as many goals as
/// boxes the final position is fixed (every goal holds a box), so the number of dark
/// boxes at the end is the number of dark goals, and the push count has the parity of
/// the difference. With spare goals the final dark count varies: `None`.
pub fn push_parity(level: &Level) -> Option<usize> {
    if level.goals().len() != level.boxes().len() {
        return None;
    }
    let dark = |cells: &[usize]| {
        cells
            .iter()
            .filter(|&&c| {
                let p = level.position(c);
                (p.row + p.col).is_multiple_of(2)
            })
            .count()
    };
    Some((dark(level.goals()) + dark(level.boxes())) % 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sides` by its definition: for every cell, a flood of the level without it from
    /// each neighbour in turn.
    fn sides_by_flood(level: &Level) -> Vec<[u8; 4]> {
        let n = level.num_cells();
        let mut mark = vec![usize::MAX; n];
        let mut stamp = 0;
        (0..n)
            .map(|c| {
                let mut side = [NO_SIDE; 4];
                for dir in Dir::ALL {
                    let Some(start) = level.neighbour(c, dir) else {
                        continue;
                    };
                    if side[dir.index()] != NO_SIDE {
                        continue;
                    }
                    stamp += 1;
                    mark[start] = stamp;
                    let mut stack = vec![start];
                    while let Some(x) = stack.pop() {
                        for m in Dir::ALL.iter().filter_map(|&d| level.neighbour(x, d)) {
                            if m != c && mark[m] != stamp {
                                mark[m] = stamp;
                                stack.push(m);
                            }
                        }
                    }
                    for other in Dir::ALL {
                        if level.neighbour(c, other).is_some_and(|m| mark[m] == stamp) {
                            side[other.index()] = dir.index() as u8;
                        }
                    }
                }
                side
            })
            .collect()
    }

    #[test]
    fn sides_equal_a_flood_per_cell_on_random_levels() {
        let mut seed = 0x853c_49e6_748f_ea9b_u64;
        let mut below = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut levels = 0;
        for _ in 0..600 {
            let (rows, cols) = (3 + below(8) as usize, 3 + below(8) as usize);
            let walls = 2 + below(4);
            let mut grid: Vec<Vec<char>> = (0..rows)
                .map(|r| {
                    (0..cols)
                        .map(|c| {
                            let edge = r == 0 || c == 0 || r + 1 == rows || c + 1 == cols;
                            if edge || below(walls) == 0 {
                                '#'
                            } else {
                                ' '
                            }
                        })
                        .collect()
                })
                .collect();
            let open: Vec<(usize, usize)> = (0..rows)
                .flat_map(|r| (0..cols).map(move |c| (r, c)))
                .filter(|&(r, c)| grid[r][c] == ' ')
                .collect();
            if open.len() < 3 {
                continue;
            }
            let pick = |k: u64| open[k as usize % open.len()];
            let (pr, pc) = pick(below(1 << 20));
            grid[pr][pc] = '@';
            let (br, bc) = pick(below(1 << 20));
            if grid[br][bc] != ' ' {
                continue;
            }
            grid[br][bc] = '*';
            let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let Ok(level) = try_xsb(&rows) else {
                continue;
            };
            assert_eq!(sides(&level), sides_by_flood(&level), "{rows:?}");
            levels += 1;
        }
        assert!(levels > 300, "{levels} levels compared");
    }

    fn xsb(rows: &[&str]) -> Level {
        try_xsb(rows).unwrap()
    }

    fn try_xsb(rows: &[&str]) -> Result<Level, crate::sokoban::LevelError> {
        let grid: Vec<Vec<crate::sokoban::Square>> = rows
            .iter()
            .map(|row| {
                row.chars()
                    .map(|c| crate::sokoban::Square {
                        wall: c == '#',
                        goal: matches!(c, '.' | '*' | '+'),
                        boxed: matches!(c, '$' | '*'),
                        player: matches!(c, '@' | '+'),
                    })
                    .collect()
            })
            .collect();
        Level::new(&grid)
    }

    #[test]
    fn dead_squares_distances_and_bound_of_a_small_room() {
        // Squares, row-major: (1,1) (1,2) (1,3) (1,4) / (2,1) (2,2) (2,3) (2,4).
        let level = xsb(&["######", "#@$ .#", "#    #", "######"]);
        let a = Analysis::new(&level);
        // A box can never leave the bottom row or the left wall; the goal's own row
        // lets it slide right onto the goal.
        let dead: Vec<usize> = (0..level.num_cells()).filter(|&c| a.dead[c]).collect();
        assert_eq!(dead, vec![0, 4, 5, 6, 7]);
        assert_eq!(a.nearest_goal[1], 2);
        assert_eq!(a.nearest_goal[2], 1);
        assert_eq!(a.from_start[3], 2);
        assert_eq!(a.lower_bound, Some(2));
    }

    #[test]
    fn parity_of_the_push_count() {
        // One box two pushes from its goal: even.
        assert_eq!(
            push_parity(&xsb(&["######", "#@$ .#", "#    #", "######"])),
            Some(0)
        );
        // One push: odd.
        assert_eq!(push_parity(&xsb(&["#####", "#@$.#", "#####"])), Some(1));
        // A spare goal: the final position is not fixed.
        assert_eq!(push_parity(&xsb(&["######", "#@$..#", "######"])), None);
    }
}
