//! What can be known about a level before searching: how many pushes a lone box needs
//! between two squares, which squares are dead (no goal can be reached from them by
//! pushing), which squares a box can reach in `t` pushes, and an admissible lower bound
//! on the number of pushes (a minimum-cost matching of boxes to goals).
//!
//! Every figure ignores the other boxes and whether the player can get behind a box,
//! so each is optimistic: a lower bound on the truth, which is what pruning needs.

use super::{Dir, Level};
use std::collections::VecDeque;

/// Pushes a lone box needs; `UNREACHABLE` when it cannot be done at all.
pub const UNREACHABLE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Analysis {
    /// `to_goal[g][c]`: pushes to bring a lone box from cell `c` to goal number `g`.
    pub to_goal: Vec<Vec<u32>>,
    /// Pushes from `c` to the nearest goal.
    pub nearest_goal: Vec<u32>,
    /// Fewest pushes that can bring some starting box onto `c`.
    pub from_start: Vec<u32>,
    /// Squares from which no box can ever reach a goal.
    pub dead: Vec<bool>,
    /// Minimum over assignments of distinct goals to boxes of the summed `to_goal`;
    /// `None` when no assignment is finite.
    pub lower_bound: Option<u32>,
}

/// Can a box on `cell` be pushed in `dir`: the player's square behind it and the target
/// square in front are both squares of the level.
pub fn pushable(level: &Level, cell: usize, dir: Dir) -> Option<usize> {
    level.neighbour(cell, dir.opposite())?;
    level.neighbour(cell, dir)
}

/// Pushes a lone box needs from `from` to every cell.
fn distances_from(level: &Level, from: usize) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; level.num_cells()];
    let mut queue = VecDeque::from([from]);
    dist[from] = 0;
    while let Some(c) = queue.pop_front() {
        for dir in Dir::ALL {
            if let Some(n) = pushable(level, c, dir) {
                if dist[n] == UNREACHABLE {
                    dist[n] = dist[c] + 1;
                    queue.push_back(n);
                }
            }
        }
    }
    dist
}

/// Pushes a lone box needs from every cell to `to` (a breadth-first search of pulls).
fn distances_to(level: &Level, to: usize) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; level.num_cells()];
    let mut queue = VecDeque::from([to]);
    dist[to] = 0;
    while let Some(c) = queue.pop_front() {
        for dir in Dir::ALL {
            // The box came to `c` from `prev` by a push in `dir`.
            let Some(prev) = level.neighbour(c, dir.opposite()) else {
                continue;
            };
            if pushable(level, prev, dir) == Some(c) && dist[prev] == UNREACHABLE {
                dist[prev] = dist[c] + 1;
                queue.push_back(prev);
            }
        }
    }
    dist
}

impl Analysis {
    pub fn new(level: &Level) -> Analysis {
        let n = level.num_cells();
        let to_goal: Vec<Vec<u32>> = level
            .goals()
            .iter()
            .map(|&g| distances_to(level, g))
            .collect();
        let nearest_goal: Vec<u32> = (0..n)
            .map(|c| to_goal.iter().map(|d| d[c]).min().unwrap_or(UNREACHABLE))
            .collect();
        let dead = nearest_goal.iter().map(|&d| d == UNREACHABLE).collect();
        let mut from_start = vec![UNREACHABLE; n];
        for &b in level.boxes() {
            for (best, d) in from_start.iter_mut().zip(distances_from(level, b)) {
                *best = (*best).min(d);
            }
        }
        let costs: Vec<Vec<u32>> = level
            .boxes()
            .iter()
            .map(|&b| to_goal.iter().map(|d| d[b]).collect())
            .collect();
        let lower_bound = min_cost_matching(&costs);
        Analysis {
            to_goal,
            nearest_goal,
            from_start,
            dead,
            lower_bound,
        }
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
                (p.row + p.col) % 2 == 0
            })
            .count()
    };
    Some((dark(level.goals()) + dark(level.boxes())) % 2)
}

/// The least total cost of giving every row its own column (rows <= columns), with
/// `UNREACHABLE` entries forbidden; `None` when every assignment uses one. The Hungarian
/// method with potentials, O(rows^2 * columns).
pub fn min_cost_matching(costs: &[Vec<u32>]) -> Option<u32> {
    let rows = costs.len();
    if rows == 0 {
        return Some(0);
    }
    let cols = costs[0].len();
    assert!(rows <= cols, "more rows than columns");
    // A forbidden pair costs more than any finite matching can, so a matching that uses
    // one is recognisable by its total.
    let big: i64 = 1 + costs
        .iter()
        .flatten()
        .filter(|&&c| c != UNREACHABLE)
        .map(|&c| i64::from(c))
        .sum::<i64>();
    let cost = |r: usize, c: usize| -> i64 {
        match costs[r][c] {
            UNREACHABLE => big,
            c => i64::from(c),
        }
    };
    // 1-based arrays as in the classic formulation; column 0 is a sentinel.
    let mut u = vec![0i64; rows + 1];
    let mut v = vec![0i64; cols + 1];
    let mut owner = vec![0usize; cols + 1];
    let mut way = vec![0usize; cols + 1];
    for r in 1..=rows {
        owner[0] = r;
        let mut j0 = 0;
        let mut minv = vec![i64::MAX; cols + 1];
        let mut used = vec![false; cols + 1];
        loop {
            used[j0] = true;
            let i0 = owner[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            for j in 1..=cols {
                if !used[j] {
                    let cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=cols {
                if used[j] {
                    u[owner[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if owner[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            owner[j0] = owner[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let total: i64 = (1..=cols)
        .filter(|&j| owner[j] != 0)
        .map(|j| cost(owner[j] - 1, j - 1))
        .sum();
    (total < big).then(|| u32::try_from(total).expect("matching cost fits in u32"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    fn brute_force(costs: &[Vec<u32>]) -> Option<u32> {
        let cols = costs.first().map_or(0, Vec::len);
        (0..cols)
            .permutations(costs.len())
            .filter_map(|perm| {
                perm.iter()
                    .enumerate()
                    .map(|(r, &c)| costs[r][c])
                    .try_fold(0u32, |acc, c| (c != UNREACHABLE).then(|| acc + c))
            })
            .min()
    }

    fn xsb(rows: &[&str]) -> Level {
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
        Level::new(&grid).unwrap()
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
        assert_eq!(push_parity(&xsb(&["######", "#@$ .#", "#    #", "######"])), Some(0));
        // One push: odd.
        assert_eq!(push_parity(&xsb(&["#####", "#@$.#", "#####"])), Some(1));
        // A spare goal: the final position is not fixed.
        assert_eq!(push_parity(&xsb(&["######", "#@$..#", "######"])), None);
    }

    #[test]
    fn matching_agrees_with_brute_force() {
        let mut seed = 0x2545F4914F6CDD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..400 {
            let rows = 1 + (next() % 4) as usize;
            let cols = rows + (next() % 3) as usize;
            let costs: Vec<Vec<u32>> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| match next() % 6 {
                            0 => UNREACHABLE,
                            k => (k * (next() % 7)) as u32,
                        })
                        .collect()
                })
                .collect();
            assert_eq!(min_cost_matching(&costs), brute_force(&costs), "{costs:?}");
        }
    }
}
