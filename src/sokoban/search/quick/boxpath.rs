//! Box paths: the pushes that bring one box to a target square while every other box
//! stays where it is, for the macro moves of the quick search.
//!
//! A best-first search over the box's square and the side the player is on (the square
//! it pushed from), ordered by pushes so far plus the lone-box distance to the nearest
//! target (a lower bound, so the first path found is a shortest one). Each state floods
//! the player's region around the boxes to see which pushes are possible.

use super::super::flood::Flood;
use gridsat_encodings::sokoban::analysis::UNREACHABLE;
use gridsat_encodings::sokoban::{Analysis, Dir, Level, Push};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Reusable scratch space for box paths.
pub(super) struct BoxPaths {
    /// `came[c * 4 + d]`: the state the box on `c` (player on the side `d`) was pushed
    /// from, stamped with the search it belongs to.
    came: Vec<(u32, u32)>,
    stamp: u32,
    open: BinaryHeap<Reverse<(u32, u32, u32)>>,
    flood: Flood,
    /// States looked at by every search so far (each floods the player's region: the
    /// box paths' share of a quick search's work).
    pub(super) looked: usize,
}

const START: u32 = u32::MAX;

impl BoxPaths {
    pub(super) fn new(n: usize) -> BoxPaths {
        BoxPaths {
            came: vec![(0, 0); n * 4],
            stamp: 0,
            open: BinaryHeap::new(),
            flood: Flood::new(n),
            looked: 0,
        }
    }

    /// The fewest pushes that bring the box on `from` onto a square marked in `target`
    /// (one with a finite `distance`), the player starting in the region of `player`
    /// and the other boxes of `occupied` fixed; at most `limit` states are looked at.
    /// Dead squares are never entered. `occupied` is left as it was.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn find(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        occupied: &mut [bool],
        from: usize,
        player: usize,
        target: &dyn Fn(usize) -> bool,
        distance: &dyn Fn(usize) -> u32,
        limit: usize,
    ) -> Option<Vec<Push>> {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.came.iter_mut().for_each(|c| *c = (0, 0));
            self.stamp = 1;
        }
        self.open.clear();
        let h0 = distance(from);
        if h0 == UNREACHABLE {
            return None;
        }
        // The start state: side 4 stands for "wherever the player is now".
        let start = (from * 4) as u32;
        self.came[start as usize] = (self.stamp, START);
        self.open.push(Reverse((h0, 0, start)));
        let mut looked = 0;
        let mut found = None;
        occupied[from] = false;
        while let Some(Reverse((_, g, state))) = self.open.pop() {
            looked += 1;
            if looked > limit {
                break;
            }
            let cell = state as usize / 4;
            if target(cell) && state != start {
                found = Some(state);
                break;
            }
            occupied[cell] = true;
            let walker = if state == start {
                player
            } else {
                let side = Dir::ALL[state as usize % 4];
                level
                    .neighbour(cell, side)
                    .expect("the player stands there")
            };
            self.flood.fill(level, occupied, walker);
            occupied[cell] = false;
            for dir in Dir::ALL {
                let Some((behind, to)) = level.push_squares(cell, dir) else {
                    continue;
                };
                if !self.flood.reached(behind) || occupied[to] || analysis.dead[to] {
                    continue;
                }
                let h = distance(to);
                if h == UNREACHABLE {
                    continue;
                }
                // After the push the player stands on `cell`, on the side opposite `dir`.
                let next = (to * 4 + dir.opposite().index()) as u32;
                if self.came[next as usize].0 == self.stamp {
                    continue;
                }
                self.came[next as usize] = (self.stamp, state);
                self.open.push(Reverse((g + 1 + h, g + 1, next)));
            }
        }
        occupied[from] = true;
        self.looked += looked;
        let mut at = found?;
        let mut pushes = Vec::new();
        while self.came[at as usize].1 != START {
            let before = self.came[at as usize].1;
            let cell = before as usize / 4;
            let to = at as usize / 4;
            let dir = Dir::ALL
                .into_iter()
                .find(|&d| level.neighbour(cell, d) == Some(to))
                .expect("a push moves the box one square");
            pushes.push(Push { from: cell, dir });
            at = before;
        }
        pushes.reverse();
        Some(pushes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};

    fn level(text: &str) -> Level {
        parse_levels(text, LevelFormat::Xsb, None).unwrap()[0]
            .level
            .clone()
    }

    #[test]
    fn a_box_goes_round_a_corner_to_its_goal() {
        // Two pushes right, the player round through the top row, two pushes down.
        let l = level("#######\n#     #\n#@$   #\n####  #\n   #. #\n   ####\n");
        let analysis = Analysis::new(&l);
        let mut occupied = vec![false; l.num_cells()];
        for &b in l.boxes() {
            occupied[b] = true;
        }
        let goal = l.goals()[0];
        let mut paths = BoxPaths::new(l.num_cells());
        let path = paths
            .find(
                &l,
                &analysis,
                &mut occupied,
                l.boxes()[0],
                l.player(),
                &|c| c == goal,
                &|c| analysis.to_goal[0][c],
                1000,
            )
            .expect("a path");
        assert_eq!(path.len(), 4, "{path:?}");
        assert!(occupied[l.boxes()[0]]);
    }
}
