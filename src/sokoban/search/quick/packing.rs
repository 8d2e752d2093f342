//! The packing order: in which order the goals should be filled, found backwards from
//! the solved position.
//!
//! In a goal room with one way in, a box on a goal near the entrance shuts the goals
//! behind it off: those must be filled first. Played backwards (pulls instead of
//! pushes, from every goal boxed), the order shows itself: the boxes the player can pull
//! out of the goal area first are the ones filled last. So the goals are peeled in
//! *layers*: layer after layer, every boxed goal whose box can be pulled back to a square
//! where a box starts (off the goals) with the other remaining boxes in place is taken
//! out together. Filling goes the other way: the last layer peeled is filled first.
//! Within a layer the order does not matter (each of its boxes could be pulled out with
//! all the others still there). Pulling back to a starting square, not just off the
//! goals, matters in a room with a second door that only the player can use (XSokoban
//! 15: a box pulled out through it is stuck in a pocket no box can come from, so the
//! goal behind that door must be filled from inside the room, early). When no box can
//! be pulled that far, a layer takes the boxes that can be pulled off the goals.
//!
//! Goal by goal (`PackingOrder::goal_by_goal`), each layer keeps only one of the goals
//! it would take: the one nearest the player outside, so the goals near a room's door
//! are filled last. Within a layer the order may matter after all (a goal can be
//! reachable only past another of its own layer): one goal at a time, the packing
//! advisor aims at a single goal, and the shortfall (`capacity`) walls up every goal
//! filled before the next. Neither order is better everywhere (on XSokoban, 90 plans
//! only goal by goal, 39 and 87 only by layers), so the quick thread runs a search
//! with each (`turns::quick_thread`).
//!
//! This is a guide, not a rule: the other boxes are ignored and the player is assumed
//! to come from where most boxes stand. When the peeling gets stuck, or goals and boxes
//! are not as many (the final position is then not fixed), every goal is in one layer.

use super::super::flood::Flood;
use gridsat_encodings::sokoban::{Dir, Level};
use std::collections::VecDeque;

/// The layer of each goal square, 0 first to fill (`None` off the goals).
#[derive(Clone, Debug)]
pub(super) struct PackingOrder {
    layer: Vec<Option<u16>>,
}

impl PackingOrder {
    /// The layer of the goal on `cell` (0 for a square that is not a goal).
    pub(super) fn layer(&self, cell: usize) -> u16 {
        self.layer[cell].unwrap_or(0)
    }

    /// The order of `level`; see the module comment.
    pub(super) fn new(level: &Level) -> PackingOrder {
        PackingOrder::peeled(level, false)
    }

    /// The order of `level` with one goal in each layer (`Options::goal_by_goal`): of
    /// the goals a layer would take, the one nearest the player outside.
    pub(super) fn goal_by_goal(level: &Level) -> PackingOrder {
        PackingOrder::peeled(level, true)
    }

    fn peeled(level: &Level, goal_by_goal: bool) -> PackingOrder {
        let n = level.num_cells();
        let flat = || {
            let mut layer = vec![None; n];
            for &g in level.goals() {
                layer[g] = Some(0);
            }
            PackingOrder { layer }
        };
        if level.goals().len() != level.boxes().len() {
            return flat();
        }
        let mut boxed = vec![false; n];
        for &g in level.goals() {
            boxed[g] = true;
        }
        let mut starts = vec![false; n];
        for &b in level.boxes() {
            starts[b] = !level.is_goal(b);
        }
        let off_goals: Vec<bool> = (0..n).map(|c| !level.is_goal(c)).collect();
        let mut peeled: Vec<Vec<usize>> = Vec::new();
        let mut remaining: Vec<usize> = level.goals().to_vec();
        let mut flood = Flood::new(n);
        let mut pulls = Pulls::new(n);
        while !remaining.is_empty() {
            let Some(outside) = outside_square(level, &boxed, &mut flood) else {
                return flat();
            };
            // A box that can be pulled back to where a box starts, else off the goals.
            let mut layer = Vec::new();
            for arrive in [&starts, &off_goals] {
                layer = remaining
                    .iter()
                    .copied()
                    .filter(|&g| pulls.reaches(level, &mut boxed, g, outside, arrive, &mut flood))
                    .collect();
                if !layer.is_empty() {
                    break;
                }
            }
            if layer.is_empty() {
                return flat();
            }
            if goal_by_goal && layer.len() > 1 {
                // The goal nearest the player outside is peeled, so filled last.
                let dist = walk_distances(level, &boxed, outside);
                let near = |g: usize| {
                    Dir::ALL
                        .iter()
                        .filter_map(|&d| level.neighbour(g, d))
                        .map(|p| dist[p])
                        .min()
                        .unwrap_or(u32::MAX)
                };
                let first = *layer.iter().min_by_key(|&&g| near(g)).expect("not empty");
                layer = vec![first];
            }
            for &g in &layer {
                boxed[g] = false;
            }
            remaining.retain(|g| !layer.contains(g));
            peeled.push(layer);
        }
        let layers = peeled.len() as u16;
        let mut layer = vec![None; n];
        for (k, goals) in peeled.iter().enumerate() {
            for &g in goals {
                layer[g] = Some(layers - 1 - k as u16);
            }
        }
        PackingOrder { layer }
    }
}

/// A free square where the player stands while the goals are peeled: in the region
/// (with the boxed goals as obstacles) holding the most starting boxes off the goals,
/// since the boxes come from there; the player's own region when no box is off a goal.
fn outside_square(level: &Level, boxed: &[bool], flood: &mut Flood) -> Option<usize> {
    let candidates = level
        .boxes()
        .iter()
        .copied()
        .filter(|&b| !boxed[b])
        .chain(std::iter::once(level.player()).filter(|&p| !boxed[p]));
    let mut best: Option<(usize, usize)> = None;
    for c in candidates {
        flood.fill(level, boxed, c);
        let count = level.boxes().iter().filter(|&&b| flood.reached(b)).count();
        if best.is_none_or(|(n, _)| count > n) {
            best = Some((count, c));
        }
    }
    best.map(|(_, c)| c)
        .or_else(|| (0..level.num_cells()).find(|&c| !boxed[c]))
}

/// The player's walking distance from `from` to every square, the `boxed` squares
/// blocked (`u32::MAX`: out of reach).
fn walk_distances(level: &Level, boxed: &[bool], from: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; level.num_cells()];
    dist[from] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for d in Dir::ALL {
            if let Some(n) = level.neighbour(c, d) {
                if !boxed[n] && dist[n] == u32::MAX {
                    dist[n] = dist[c] + 1;
                    queue.push_back(n);
                }
            }
        }
    }
    dist
}

/// Breadth-first search of pulls of one box, the others fixed.
struct Pulls {
    seen: Vec<[bool; 4]>,
    queue: VecDeque<(usize, usize)>,
}

impl Pulls {
    fn new(n: usize) -> Pulls {
        Pulls {
            seen: vec![[false; 4]; n],
            queue: VecDeque::new(),
        }
    }

    /// Whether the box on goal `g` can be pulled onto a square marked in `arrive` by a
    /// player coming from `outside`, the other boxes marked in `boxed` staying put.
    fn reaches(
        &mut self,
        level: &Level,
        boxed: &mut [bool],
        g: usize,
        outside: usize,
        arrive: &[bool],
        flood: &mut Flood,
    ) -> bool {
        self.seen.iter_mut().for_each(|s| *s = [false; 4]);
        self.queue.clear();
        // The box is on `g`; the player reaches the squares next to it from outside.
        flood.fill(level, boxed, outside);
        for d in Dir::ALL {
            if let Some(p) = level.neighbour(g, d) {
                if flood.reached(p) {
                    self.seen[g][d.index()] = true;
                    self.queue.push_back((g, p));
                }
            }
        }
        boxed[g] = false;
        let mut found = false;
        'search: while let Some((b, player)) = self.queue.pop_front() {
            boxed[b] = true;
            flood.fill(level, boxed, player);
            boxed[b] = false;
            for d in Dir::ALL {
                // Pull towards `d`: the player on `b + d` steps to `b + 2d`, the box follows.
                let Some(p) = level.neighbour(b, d) else {
                    continue;
                };
                let Some(beyond) = level.neighbour(p, d) else {
                    continue;
                };
                if !flood.reached(p) || boxed[beyond] {
                    continue;
                }
                if arrive[p] {
                    found = true;
                    break 'search;
                }
                // The box now on `p`, the player on `beyond`: name the state by the side
                // the player is on (the direction from the box).
                if !self.seen[p][d.index()] {
                    self.seen[p][d.index()] = true;
                    self.queue.push_back((p, beyond));
                }
            }
        }
        boxed[g] = true;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};

    /// How many layers the order has.
    fn layers(order: &PackingOrder) -> u16 {
        order.layer.iter().flatten().max().map_or(0, |&l| l + 1)
    }

    fn level(text: &str) -> Level {
        parse_levels(text, LevelFormat::Xsb, None).unwrap()[0]
            .level
            .clone()
    }

    #[test]
    fn a_goal_room_is_filled_from_the_back() {
        // A dead-end corridor of three goals: the far end first.
        let l = level("########\n#...   #\n###$$$ #\n  #@   #\n  ######\n");
        let order = PackingOrder::new(&l);
        let layer =
            |r, c| order.layer(l.cell_at(gridsat_encodings::grid::Cell::new(r, c)).unwrap());
        assert_eq!(layers(&order), 3, "{order:?}");
        assert!(
            layer(1, 1) < layer(1, 2) && layer(1, 2) < layer(1, 3),
            "{order:?}"
        );
    }

    #[test]
    fn a_goal_behind_a_door_only_the_player_uses_is_filled_first() {
        // The far goal (1,1) has a second door below it, into a pocket no box can come
        // from: a box pulled out that way is stuck there, so it must be filled from the
        // corridor, before (1,2). Pulled only off the goals, both would be one layer.
        let l = level("##########\n#..  $$ @#\n# ###### #\n#        #\n##########\n");
        let order = PackingOrder::new(&l);
        let layer =
            |r, c| order.layer(l.cell_at(gridsat_encodings::grid::Cell::new(r, c)).unwrap());
        assert_eq!(layers(&order), 2, "{order:?}");
        assert!(layer(1, 1) < layer(1, 2), "{order:?}");
    }

    #[test]
    fn scattered_goals_are_one_layer() {
        let l = level("#######\n#.$ $.#\n#  @  #\n#######\n");
        assert_eq!(layers(&PackingOrder::new(&l)), 1);
    }

    #[test]
    fn goal_by_goal_the_goal_nearest_the_outside_is_filled_last() {
        // Two goals a layer would take together: goal by goal, (1,4), two steps from
        // the boxes, is peeled first and so filled last; (1,1), three steps, first.
        let l = level("########\n#.  .  #\n#      #\n#  $$ @#\n########\n");
        let at = |r, c| l.cell_at(gridsat_encodings::grid::Cell::new(r, c)).unwrap();
        assert_eq!(layers(&PackingOrder::new(&l)), 1);
        let order = PackingOrder::goal_by_goal(&l);
        assert_eq!(layers(&order), 2, "{order:?}");
        assert_eq!((order.layer(at(1, 1)), order.layer(at(1, 4))), (0, 1));
    }

    #[test]
    fn goal_by_goal_every_layer_is_one_goal() {
        // XSokoban 31 and 90, whose goal rooms peel in layers of several goals: goal
        // by goal, as many layers as goals.
        let text = std::fs::read_to_string("examples/sokoban/levels/xsokoban.xsb").unwrap();
        for n in [31, 90] {
            let l = parse_levels(&text, LevelFormat::Auto, Some(n))
                .unwrap()
                .remove(0)
                .level;
            let by_goal = PackingOrder::goal_by_goal(&l);
            assert!(usize::from(layers(&PackingOrder::new(&l))) < l.goals().len());
            assert_eq!(
                usize::from(layers(&by_goal)),
                l.goals().len(),
                "XSokoban {n}"
            );
            let mut seen: Vec<u16> = l.goals().iter().map(|&g| by_goal.layer(g)).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), l.goals().len(), "XSokoban {n}");
        }
    }
}
