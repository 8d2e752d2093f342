//! The rescue advisor: when the boxes off the goals could no longer fill every empty
//! goal once the packing order's next layer is filled, a box that must move first is
//! moved (after FESS's out-of-plan feature, Shoham and Schaeffer 2020).
//!
//! FESS counts boxes in areas the packing is about to shut off. Counting them one at a
//! time misses XSokoban 41, where every box can still reach some goal but too many
//! reach only the same few: once the goal room's bottom row is filled, the player's
//! loop is shut and the six boxes on the right reach only the four goals of the left
//! column; two of them must first go up the corridor to where the other goals are
//! filled from. So the check is a matching (`Capacity::shortfall`): each empty goal of
//! the next layer against the boxes that reach it now, each empty goal of a later
//! layer against the boxes that reach it with the next layer's goals walled up. Reach
//! is a lone box's (the other boxes lifted) pushed by a player who walks round the
//! walls, from the side of the box the player is on. When the boxes fall short, one
//! the matching leaves over is brought, with the other boxes fixed, to a square from
//! which it reaches a goal that the boxes matched now could leave to it.

use super::super::flood::Flood;
use super::bipartite::Bipartite;
use super::boxpath::Player;
use super::packing::PackingOrder;
use super::{Child, Search};
use gridsat_encodings::sokoban::{Dir, Level};
use std::collections::VecDeque;

/// The side of a square that is a wall (or a walled-up goal).
const NONE: u8 = u8::MAX;

/// Most boxes left over by the matching that the advisor tries to move.
const RESCUE_CANDIDATES: usize = 6;

/// Lone-box reach with the goals of the first layers walled up, per number of walled
/// layers, each built when first needed.
pub(super) struct Capacity<'a> {
    level: &'a Level,
    order: &'a PackingOrder,
    walled: Vec<Option<Walled>>,
    flood: Flood,
    matched: Matched,
}

/// Lone-box reach with some goals walled up.
struct Walled {
    /// `side[c][d]`: the region, among the free squares with a box on `c`, of the square
    /// next to `c` towards `d` (`NONE`: a wall).
    side: Vec<[u8; 4]>,
    /// `reach[k][c]`: the regions next to `c` (as bits) from which a lone box on `c` can
    /// be pushed onto goal number `k` (none when that goal is walled up).
    reach: Vec<Vec<u8>>,
}

/// A maximum matching of the boxes off the goals (`free`, numbers in the box list) to
/// the empty goals (goal number, walled layers): row `x` of `graph` is box `free[x]`,
/// column `e` goal `empty[e]`, connected when the box reaches the goal. Kept between
/// positions for its buffers.
#[derive(Default)]
struct Matched {
    empty: Vec<(usize, usize)>,
    free: Vec<usize>,
    graph: Bipartite,
    size: usize,
}

impl Matched {
    fn deficit(&self) -> usize {
        self.empty.len() - self.size
    }
}

/// Boxes the matching leaves over, and the empty goals (goal number, walled layers)
/// that a box brought within their reach would let the matching fill.
pub(super) struct Shortfall {
    pub(super) boxes: Vec<usize>,
    goals: Vec<(usize, usize)>,
}

impl<'a> Capacity<'a> {
    pub(super) fn new(level: &'a Level, order: &'a PackingOrder) -> Capacity<'a> {
        let layers = level
            .goals()
            .iter()
            .map(|&g| usize::from(order.layer(g)) + 1)
            .max()
            .unwrap_or(0);
        Capacity {
            level,
            order,
            walled: (0..=layers).map(|_| None).collect(),
            flood: Flood::new(level.num_cells()),
            matched: Matched::default(),
        }
    }

    /// The reach with the goals of layers below `w` walled up.
    fn walled(&mut self, w: usize) -> &Walled {
        let (level, order) = (self.level, self.order);
        if self.walled[w].is_none() {
            let blocked: Vec<bool> = (0..level.num_cells())
                .map(|c| level.is_goal(c) && usize::from(order.layer(c)) < w)
                .collect();
            self.walled[w] = Some(Walled::new(level, &blocked, &mut self.flood));
        }
        self.walled[w].as_ref().expect("just built")
    }

    /// How many empty goals the boxes of `boxes` off the goals would leave
    /// empty once the goals of layer `frontier` are filled (see the module comment);
    /// `player` holds the player's region.
    pub(super) fn deficit(
        &mut self,
        frontier: u16,
        occupied: &[bool],
        boxes: &[usize],
        player: &Flood,
    ) -> u16 {
        self.matched(frontier, occupied, boxes, player)
            .map_or(0, |m| m.deficit() as u16)
    }

    /// The boxes that fall short and the goals they leave, as `deficit` counts them;
    /// `None` when they do not.
    pub(super) fn shortfall(
        &mut self,
        frontier: u16,
        occupied: &[bool],
        boxes: &[usize],
        player: &Flood,
    ) -> Option<Shortfall> {
        let m = self.matched(frontier, occupied, boxes, player)?;
        if m.deficit() == 0 {
            return None;
        }
        let g = &m.graph;
        let goal_of_box = |x: usize| (0..g.columns()).find(|&e| g.row_of(e) == Some(x));
        // The goals some maximum matching leaves empty: the unmatched ones, and those
        // whose box could move over to one of them.
        let mut could_be_empty: Vec<bool> =
            (0..g.columns()).map(|e| g.row_of(e).is_none()).collect();
        let mut queue: VecDeque<usize> =
            (0..m.empty.len()).filter(|&e| could_be_empty[e]).collect();
        while let Some(e) = queue.pop_front() {
            for x in (0..g.rows()).filter(|&x| g.connected(x, e)) {
                if let Some(other) = goal_of_box(x) {
                    if !could_be_empty[other] {
                        could_be_empty[other] = true;
                        queue.push_back(other);
                    }
                }
            }
        }
        // The boxes some maximum matching leaves over: the unmatched ones, and those
        // whose goal one of them could take instead.
        let mut could_be_left: Vec<bool> = (0..m.free.len())
            .map(|x| goal_of_box(x).is_none())
            .collect();
        let mut queue: VecDeque<usize> = (0..m.free.len()).filter(|&x| could_be_left[x]).collect();
        while let Some(x) = queue.pop_front() {
            for e in (0..g.columns()).filter(|&e| g.connected(x, e)) {
                if let Some(y) = g.row_of(e).filter(|&y| !could_be_left[y]) {
                    could_be_left[y] = true;
                    queue.push_back(y);
                }
            }
        }
        Some(Shortfall {
            boxes: (0..m.free.len())
                .filter(|&x| could_be_left[x])
                .map(|x| m.free[x])
                .collect(),
            goals: (0..m.empty.len())
                .filter(|&e| could_be_empty[e])
                .map(|e| m.empty[e])
                .collect(),
        })
    }

    /// The maximum matching of the boxes off the goals to the empty goals; `None` when
    /// no later layer than `frontier` has an empty goal (nothing is walled up then).
    fn matched(
        &mut self,
        frontier: u16,
        occupied: &[bool],
        boxes: &[usize],
        player: &Flood,
    ) -> Option<&Matched> {
        let (level, order) = (self.level, self.order);
        let f = usize::from(frontier);
        let m = &mut self.matched;
        // Each empty goal, with the number of layers walled up when it is filled.
        m.empty.clear();
        m.empty.extend(
            level
                .goals()
                .iter()
                .enumerate()
                .filter(|&(_, &g)| !occupied[g])
                .map(|(k, &g)| (k, if order.layer(g) == frontier { f } else { f + 1 })),
        );
        if f + 1 >= self.walled.len() || m.empty.iter().all(|&(_, w)| w == f) {
            return None;
        }
        self.walled(f);
        self.walled(f + 1);
        let m = &mut self.matched;
        let tables = [f, f + 1].map(|w| self.walled[w].as_ref().expect("built above"));
        m.free.clear();
        m.free
            .extend((0..boxes.len()).filter(|&i| !level.is_goal(boxes[i])));
        m.graph.reset(m.empty.len());
        for &i in &m.free {
            let b = boxes[i];
            // The player's sides of the box, in either table's regions.
            let sides = tables.map(|t| t.sides_reached(level, b, player));
            let x = m.graph.add_row();
            for (e, &(k, w)) in m.empty.iter().enumerate() {
                if tables[w - f].reach[k][b] & sides[w - f] != 0 {
                    m.graph.connect(x, e);
                }
            }
        }
        m.size = m.graph.solve();
        Some(m)
    }

    /// Whether a lone box on `c`, the player on its side `d`, reaches one of the goals
    /// of `shortfall`.
    fn reaches_any(&self, shortfall: &Shortfall, c: usize, d: Dir) -> bool {
        shortfall.goals.iter().any(|&(k, w)| {
            let table = self.walled[w].as_ref().expect("built by shortfall");
            let side = table.side[c][d.index()];
            side != NONE && table.reach[k][c] & (1 << side) != 0
        })
    }
}

impl Walled {
    fn new(level: &Level, blocked: &[bool], flood: &mut Flood) -> Walled {
        let n = level.num_cells();
        let free = |c: Option<usize>| c.filter(|&c| !blocked[c]);
        let mut occupied = blocked.to_vec();
        let mut side = vec![[NONE; 4]; n];
        for c in (0..n).filter(|&c| !blocked[c]) {
            occupied[c] = true;
            let mut regions = 0;
            for d in Dir::ALL {
                let Some(next) = free(level.neighbour(c, d)) else {
                    continue;
                };
                if side[c][d.index()] != NONE {
                    continue;
                }
                flood.fill(level, &occupied, next);
                for other in Dir::ALL {
                    if free(level.neighbour(c, other)).is_some_and(|o| flood.reached(o)) {
                        side[c][other.index()] = regions;
                    }
                }
                regions += 1;
            }
            occupied[c] = false;
        }
        // Backwards from each goal: a pull moves the box onto the square the player
        // stood on, and the player one further.
        let reach = level
            .goals()
            .iter()
            .map(|&g| {
                let mut seen = vec![0u8; n];
                if blocked[g] {
                    return seen;
                }
                let mut queue = VecDeque::new();
                for &s in side[g].iter().filter(|&&s| s != NONE) {
                    if seen[g] & (1 << s) == 0 {
                        seen[g] |= 1 << s;
                        queue.push_back((g, s));
                    }
                }
                while let Some((c, s)) = queue.pop_front() {
                    for d in Dir::ALL.into_iter().filter(|d| side[c][d.index()] == s) {
                        let p = level.neighbour(c, d).expect("a side with a region");
                        if free(level.neighbour(p, d)).is_none() {
                            continue;
                        }
                        let t = side[p][d.index()];
                        if seen[p] & (1 << t) == 0 {
                            seen[p] |= 1 << t;
                            queue.push_back((p, t));
                        }
                    }
                }
                seen
            })
            .collect();
        Walled { side, reach }
    }

    /// The regions around the box on `b` that the player (the region `player` holds)
    /// stands in: every region when the player touches none of its sides (a lone box
    /// lets the player walk round to any side it can reach, which the real position
    /// does not tell).
    fn sides_reached(&self, level: &Level, b: usize, player: &Flood) -> u8 {
        let mut bits = 0;
        for d in Dir::ALL {
            let s = self.side[b][d.index()];
            if s != NONE && level.neighbour(b, d).is_some_and(|n| player.reached(n)) {
                bits |= 1 << s;
            }
        }
        if bits == 0 {
            u8::MAX
        } else {
            bits
        }
    }
}

impl Search<'_> {
    /// The goals the boxes of `self.box_list` (standing on `self.occupied`) would fall
    /// short of once the next layer is filled; the player's region is the one
    /// `self.child_flood` holds (a child's) or else `self.flood`'s.
    pub(super) fn shortfall(&mut self, of_child: bool) -> u16 {
        let Some(frontier) = self.features.frontier(&self.occupied) else {
            return 0;
        };
        let player = if of_child {
            &self.child_flood
        } else {
            &self.flood
        };
        self.capacity
            .deficit(frontier, &self.occupied, &self.box_list, player)
    }

    /// The rescue advisor's move (see the module comment): of the boxes the matching
    /// leaves over, the fewest pushes that bring one within reach of a goal it could
    /// take; the player is in the region `self.flood` holds.
    pub(super) fn rescue_advice(&mut self, frontier: u16) -> Option<(usize, Child)> {
        let shortfall =
            self.capacity
                .shortfall(frontier, &self.occupied, &self.box_list, &self.flood)?;
        let mut best: Option<(usize, Vec<_>)> = None;
        for &k in shortfall.boxes.iter().take(RESCUE_CANDIDATES) {
            let capacity = &self.capacity;
            let target = |c: usize, d: Dir| capacity.reaches_any(&shortfall, c, d);
            let path = self.paths.find_with_side(
                self.level,
                self.analysis,
                &mut self.occupied,
                self.box_list[k],
                Player::In(&self.flood),
                &target,
                &|_| 0,
                self.options.box_path_states,
            );
            if let Some(path) = path {
                if best.as_ref().is_none_or(|(_, p)| path.len() < p.len()) {
                    best = Some((k, path));
                }
            }
        }
        let (k, pushes) = best?;
        Some((k, Child::new(pushes, true)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};

    fn xsokoban(n: usize) -> Level {
        let text = std::fs::read_to_string("examples/sokoban/levels/xsokoban.xsb").unwrap();
        parse_levels(&text, LevelFormat::Auto, Some(n))
            .unwrap()
            .remove(0)
            .level
    }

    /// The states (box square, player square) of a lone box from which it can be
    /// pushed onto `g`, the `blocked` squares walls: backwards over explicit player
    /// squares (a walk, or a push undone), with no regions.
    fn brute_force(level: &Level, blocked: &[bool], g: usize) -> Vec<bool> {
        let n = level.num_cells();
        let free = |c: Option<usize>| c.filter(|&c| !blocked[c]);
        let mut seen = vec![false; n * n];
        let mut queue = VecDeque::new();
        for p in (0..n).filter(|&p| p != g && !blocked[p]) {
            seen[g * n + p] = true;
            queue.push_back((g, p));
        }
        while let Some((b, p)) = queue.pop_front() {
            let mut before = Vec::new();
            for d in Dir::ALL {
                // The player walked here from next door.
                if let Some(q) = free(level.neighbour(p, d)).filter(|&q| q != b) {
                    before.push((b, q));
                }
                // The player pushed the box from `p` onto `b` (d points from b to p).
                if level.neighbour(b, d) == Some(p) {
                    if let Some(q) = free(level.neighbour(p, d)) {
                        before.push((p, q));
                    }
                }
            }
            for (b, q) in before {
                if !seen[b * n + q] {
                    seen[b * n + q] = true;
                    queue.push_back((b, q));
                }
            }
        }
        seen
    }

    #[test]
    fn lone_box_reach_by_regions_agrees_with_a_search_over_player_squares() {
        // XSokoban 41 (the corridor, the loop and the goal room of the module comment)
        // and 14, with no goals walled up, the first layers walled, and more.
        for (n, walls) in [(41, [0, 2, 5]), (14, [0, 1, 3])] {
            let level = xsokoban(n);
            let order = PackingOrder::new(&level);
            let mut capacity = Capacity::new(&level, &order);
            let cells = level.num_cells();
            for w in walls {
                let blocked: Vec<bool> = (0..cells)
                    .map(|c| level.is_goal(c) && usize::from(order.layer(c)) < w)
                    .collect();
                let table = capacity.walled(w);
                for (k, &g) in level.goals().iter().enumerate() {
                    if blocked[g] {
                        assert!(table.reach[k].iter().all(|&r| r == 0));
                        continue;
                    }
                    let states = brute_force(&level, &blocked, g);
                    for c in (0..cells).filter(|&c| !blocked[c]) {
                        for d in Dir::ALL {
                            let Some(p) = level.neighbour(c, d).filter(|&p| !blocked[p]) else {
                                continue;
                            };
                            let side = table.side[c][d.index()];
                            assert_eq!(
                                table.reach[k][c] & (1 << side) != 0,
                                states[c * cells + p],
                                "XSokoban {n}, {w} layers walled, goal {:?}, box {:?}, player {:?}",
                                level.position(g),
                                level.position(c),
                                level.position(p)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_right_boxes_of_xsokoban_41_fall_short_of_the_goals_behind_the_corridor() {
        // A box from the top area on the first goal of the bottom row, its second goal
        // next: once that is filled the player's loop is shut, and the six boxes on
        // the right reach only that goal and the four of the left column. One goal
        // falls short, and every box on the right could be the one moved up the
        // corridor.
        let level = xsokoban(41);
        let order = PackingOrder::new(&level);
        let at = |r, c| {
            level
                .cell_at(gridsat_encodings::grid::Cell::new(r, c))
                .unwrap()
        };
        let mut occupied = vec![false; level.num_cells()];
        for &b in level.boxes() {
            occupied[b] = true;
        }
        occupied[at(6, 11)] = false;
        occupied[at(11, 2)] = true;
        assert_eq!(order.layer(at(11, 2)), 0);
        assert_eq!(order.layer(at(11, 3)), 1);
        let mut flood = Flood::new(level.num_cells());
        flood.fill(&level, &occupied, level.player());
        let boxes: Vec<usize> = (0..level.num_cells()).filter(|&c| occupied[c]).collect();
        let mut capacity = Capacity::new(&level, &order);
        let deficit = capacity.deficit(1, &occupied, &boxes, &flood);
        assert_eq!(deficit, 1);
        let shortfall = capacity.shortfall(1, &occupied, &boxes, &flood).unwrap();
        let mut left: Vec<_> = shortfall
            .boxes
            .iter()
            .map(|&i| level.position(boxes[i]))
            .collect();
        left.sort();
        let right: Vec<_> = [(8, 14), (8, 15), (8, 16), (10, 14), (10, 16), (12, 16)]
            .map(|(r, c)| gridsat_encodings::grid::Cell::new(r, c))
            .to_vec();
        assert_eq!(left, right);
        // Up the corridor, the player below, is a square the rescue may end on; the
        // corridor's foot with the player on the right is not.
        assert!(capacity.reaches_any(&shortfall, at(7, 11), Dir::Down));
        assert!(!capacity.reaches_any(&shortfall, at(8, 11), Dir::Right));
        // A box from the right at the corridor's foot, the player beside it on the
        // right: the player cannot get above it to push it down, so the shortfall stays
        // (counting every side of the box as the player's would close it).
        let mut foot = occupied.clone();
        foot[at(8, 14)] = false;
        foot[at(8, 11)] = true;
        flood.fill(&level, &foot, level.player());
        let on_foot: Vec<usize> = (0..level.num_cells()).filter(|&c| foot[c]).collect();
        assert_eq!(capacity.deficit(1, &foot, &on_foot, &flood), 1);
        // Before the first goal is filled nothing is short (the loop stays open).
        let mut start = vec![false; level.num_cells()];
        for &b in level.boxes() {
            start[b] = true;
        }
        flood.fill(&level, &start, level.player());
        let mut boxes = level.boxes().to_vec();
        boxes.sort();
        assert_eq!(capacity.deficit(0, &start, &boxes, &flood), 0);
    }
}
