//! Which sides of a box the player can walk between, for every square the box could be
//! on at once: the articulation points of the free squares (Hopcroft and Tarjan's
//! depth-first search).
//!
//! A box path moves one box while the others stay put, and at each of its states asks
//! which squares next to the box the player reaches from the side it stands on. A flood
//! per state answers that but costs a walk over the whole region, and the box paths
//! were most of the quick search's time (a profile of XSokoban 40: 40 % in their
//! floods). With the other boxes fixed, the free squares form one graph for the whole
//! path; a box on square `b` takes `b` out of it, and two squares next to `b` stay
//! connected exactly when the depth-first search puts them on the same side of `b`:
//! in the same child subtree of `b` that hangs on `b` alone (its lowpoint does not
//! climb above `b`), or both in the rest of the graph. One search of the graph, then
//! each question in a few comparisons. The same search names the player's region at the
//! end of a box move (its smallest square, the name in a position's key), which the box
//! moves' children would otherwise fill to learn.

use gridsat_encodings::sokoban::Level;

const UNSEEN: u32 = 0;
/// The part of the free squares that is not a subtree hanging on the box's square
/// alone.
const REST: usize = usize::MAX;

/// A square in the depth-first search: its discovery time (from 1; `UNSEEN` before),
/// the lowest discovery time reachable from its subtree by one back edge, the last
/// discovery time in its subtree, its parent in the depth-first tree (`NO_PARENT` for
/// the root) and the smallest square of its subtree. Kept together, since the search
/// touches them together.
#[derive(Clone, Copy)]
struct Node {
    disc: u32,
    low: u32,
    last: u32,
    parent: u32,
    smallest: u32,
}

const NO_PARENT: u32 = u32::MAX;

/// The depth-first search of the free squares, kept for questions.
pub(super) struct Sides {
    nodes: Vec<Node>,
    /// `before[t]`: the smallest square discovered before time `t`; `after[t]`: at `t`
    /// or later (`u32::MAX` for none).
    before: Vec<u32>,
    after: Vec<u32>,
    stack: Vec<(u32, u8)>,
    /// The squares the last search reached, in the order discovered, to forget.
    searched: Vec<u32>,
}

impl Sides {
    pub(super) fn new(squares: usize) -> Sides {
        let unseen = Node {
            disc: UNSEEN,
            low: 0,
            last: 0,
            parent: NO_PARENT,
            smallest: 0,
        };
        Sides {
            nodes: vec![unseen; squares],
            before: vec![u32::MAX; squares + 2],
            after: vec![u32::MAX; squares + 2],
            stack: Vec::new(),
            searched: Vec::new(),
        }
    }

    /// Searches the squares not `occupied` that `root` (free) is joined to, forgetting
    /// the last search: a box path never leaves the part of the level its box is in, so
    /// the rest is not searched (on XSokoban 74 the searches were a sixth of the box
    /// moves' time with every part searched).
    pub(super) fn build(&mut self, level: &Level, occupied: &[bool], root: usize) {
        for &c in &self.searched {
            self.nodes[c as usize].disc = UNSEEN;
        }
        self.searched.clear();
        let mut time = 1;
        self.nodes[root] = Node {
            disc: time,
            low: time,
            last: 0,
            parent: NO_PARENT,
            smallest: root as u32,
        };
        self.searched.push(root as u32);
        self.stack.push((root as u32, 0));
        while let Some(&mut (c, ref mut next)) = self.stack.last_mut() {
            if let Some(&n) = level.adjacent(c as usize).get(usize::from(*next)) {
                *next += 1;
                if occupied[n as usize] {
                    continue;
                }
                let seen = self.nodes[n as usize];
                if seen.disc == UNSEEN {
                    time += 1;
                    self.nodes[n as usize] = Node {
                        disc: time,
                        low: time,
                        last: 0,
                        parent: c,
                        smallest: n,
                    };
                    self.searched.push(n);
                    self.stack.push((n, 0));
                } else if n != self.nodes[c as usize].parent {
                    let node = &mut self.nodes[c as usize];
                    node.low = node.low.min(seen.disc);
                }
            } else {
                self.stack.pop();
                let node = &mut self.nodes[c as usize];
                node.last = time;
                let (p, low, smallest) = (node.parent, node.low, node.smallest);
                if p != NO_PARENT {
                    let parent = &mut self.nodes[p as usize];
                    parent.low = parent.low.min(low);
                    parent.smallest = parent.smallest.min(smallest);
                }
            }
        }
        // Discovery times run from 1 to the number of squares searched.
        let found = self.searched.len();
        for (t, &c) in self.searched.iter().enumerate() {
            self.before[t + 2] = self.before[t + 1].min(c);
        }
        self.after[found + 1] = u32::MAX;
        for (t, &c) in self.searched.iter().enumerate().rev() {
            self.after[t + 1] = self.after[t + 2].min(c);
        }
    }

    /// With a box on the free square `b` (of the searched part), the part of the other
    /// free squares that `side`, a free square next to `b`, is in: two squares next to `b` are joined
    /// around the box exactly when their parts are equal.
    pub(super) fn part(&self, level: &Level, b: usize, side: usize) -> usize {
        let d = self.nodes[side].disc;
        let b_disc = self.nodes[b].disc;
        for &child in level.adjacent(b) {
            let node = self.nodes[child as usize];
            if node.parent != b as u32 || node.disc == UNSEEN {
                continue;
            }
            if (node.disc..=node.last).contains(&d) {
                // A subtree whose back edges stay below `b` is cut off by the box.
                return if node.low >= b_disc {
                    child as usize
                } else {
                    REST
                };
            }
        }
        REST
    }

    /// With a box on the free square `b` (of the searched part), the smallest square of
    /// the part of the other free squares that `side` is in (a player on `side`: the
    /// name of its region in a position's key). A subtree hanging on `b` alone is a part
    /// of its own; the rest is every square discovered before `b`, after its subtree,
    /// or in a subtree of `b` that climbs above it.
    pub(super) fn smallest_in_part(&self, level: &Level, b: usize, side: usize) -> usize {
        let (box_node, d) = (self.nodes[b], self.nodes[side].disc);
        debug_assert!(box_node.disc != UNSEEN && d != UNSEEN && side != b);
        let before = self.before[box_node.disc as usize];
        let mut rest = before.min(self.after[box_node.last as usize + 1]);
        for &child in level.adjacent(b) {
            let node = self.nodes[child as usize];
            if node.parent != b as u32 || node.disc == UNSEEN {
                continue;
            }
            if node.low < box_node.disc {
                rest = rest.min(node.smallest);
            } else if (node.disc..=node.last).contains(&d) {
                return node.smallest as usize;
            }
        }
        rest as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::LevelEntry;
    use crate::sokoban::parse::{parse_levels, LevelFormat};
    use crate::sokoban::search::flood::Flood;
    use gridsat_encodings::sokoban::Dir;

    /// The XSokoban levels, and a random number generator (xorshift) from `seed`.
    fn levels_and_random(mut seed: u64) -> (Vec<LevelEntry>, impl FnMut() -> u64) {
        let text = std::fs::read_to_string("examples/sokoban/levels/xsokoban.xsb").unwrap();
        let levels = parse_levels(&text, LevelFormat::Auto, None).unwrap();
        let random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        (levels, random)
    }

    #[test]
    fn sides_joined_around_a_box_are_those_a_flood_joins() {
        // Every free square of every level, in the start position and with random
        // boxes added: for each pair of free squares next to it, the parts agree
        // with a flood from one of them with a box on the square.
        let (levels, mut random) = levels_and_random(0x9e37_79b9_7f4a_7c15_u64);
        let mut checked = 0;
        for entry in levels.iter().take(30) {
            let l = &entry.level;
            let n = l.num_cells();
            for round in 0..3 {
                let mut occupied = vec![false; n];
                if round > 0 {
                    for o in occupied.iter_mut() {
                        *o = random() % (3 + round as u64) == 0;
                    }
                }
                let mut sides = Sides::new(n);
                let mut flood = Flood::new(n);
                let free_squares: Vec<usize> = (0..n).filter(|&b| !occupied[b]).collect();
                for b in free_squares {
                    sides.build(l, &occupied, b);
                    let free: Vec<usize> = Dir::ALL
                        .into_iter()
                        .filter_map(|d| l.neighbour(b, d))
                        .filter(|&s| !occupied[s])
                        .collect();
                    occupied[b] = true;
                    for &s in &free {
                        flood.fill(l, &occupied, s);
                        for &t in &free {
                            let joined = sides.part(l, b, s) == sides.part(l, b, t);
                            assert_eq!(joined, flood.reached(t), "square {b} of a level");
                            checked += 1;
                        }
                    }
                    occupied[b] = false;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn the_smallest_square_of_a_part_is_the_one_a_flood_finds() {
        // Searched from one square, with random boxes, and asked about a box on every
        // other square of its part: each free square next to it names the smallest
        // square a flood from there reaches.
        let (levels, mut random) = levels_and_random(0x2545_f491_4f6c_dd1d_u64);
        let (mut checked, mut cut_off) = (0, 0);
        for entry in levels.iter().take(30) {
            let l = &entry.level;
            let n = l.num_cells();
            for round in 0..4 {
                let occupied: Vec<bool> = (0..n)
                    .map(|_| round > 0 && random() % (3 + round as u64) == 0)
                    .collect();
                let free: Vec<usize> = (0..n).filter(|&c| !occupied[c]).collect();
                let root = free[random() as usize % free.len()];
                let mut sides = Sides::new(n);
                sides.build(l, &occupied, root);
                let mut flood = Flood::new(n);
                flood.fill(l, &occupied, root);
                let part: Vec<usize> = free.into_iter().filter(|&c| flood.reached(c)).collect();
                let mut occupied = occupied;
                for &b in &part {
                    occupied[b] = true;
                    for s in Dir::ALL.into_iter().filter_map(|d| l.neighbour(b, d)) {
                        if occupied[s] {
                            continue;
                        }
                        let truth = flood.fill(l, &occupied, s);
                        assert_eq!(sides.smallest_in_part(l, b, s), truth, "box on {b}");
                        cut_off += usize::from(!flood.reached(root) && b != root);
                        checked += 1;
                    }
                    occupied[b] = false;
                }
            }
        }
        assert!(checked > 10_000 && cut_off > 1_000, "{checked} {cut_off}");
    }
}
