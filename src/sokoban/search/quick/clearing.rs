//! The clearing advisor: when another box stands in the way of a packing move, the
//! pushes that move that box out of the way (after FESS's advisors, Shoham and
//! Schaeffer 2020).
//!
//! The packing advisor brings a box to a goal with every other box fixed, and has no
//! move when another box blocks the box path or the player's way to it. Then the path
//! is found again with the boxes off the goals lifted (all of them, if that is not
//! enough): the squares that path uses (the box's squares, the squares the player
//! pushes from, and the player's walk to the first push) are where a box is in the
//! way. The first such box along the path is moved, along the fewest pushes the
//! player can make with every other box fixed, to a square off that path (never a
//! dead one). The move is advised, so it costs nothing, like the packing move it
//! clears the way for.

use super::boxpath::Player;
use super::{Child, Search};
use gridsat_encodings::sokoban::{Dir, Level, Push};
use std::collections::VecDeque;

/// Most states the search for a clearing move looks at.
const CLEARING_STATES: usize = 500;

impl Search<'_> {
    /// The clearing move for the box number `k` (one the packing advisor could not
    /// bring to a `target` square with the other boxes fixed), if a box is in its way
    /// and can be moved off its path; the player is in the region of `player`.
    pub(super) fn clearing_advice(
        &mut self,
        player: usize,
        k: usize,
        target: &dyn Fn(usize) -> bool,
        distance: &dyn Fn(usize) -> u32,
    ) -> Option<(usize, Child)> {
        let level = self.level;
        let analysis = self.analysis;
        let n = level.num_cells();
        let from = self.box_list[k];
        // The path with the boxes off the goals lifted, else with every box lifted:
        // `standing` marks the boxes the path must go round (the moving box included,
        // as `BoxPaths::find` expects).
        let limit = self.options.box_path_states;
        let mut relaxed = None;
        for keep_goal_boxes in [true, false] {
            let mut standing = vec![false; n];
            for &b in &self.box_list {
                standing[b] = keep_goal_boxes && self.goal[b];
            }
            standing[from] = true;
            relaxed = self.paths.find(
                level,
                analysis,
                &mut standing,
                from,
                Player::At(player),
                target,
                distance,
                limit,
            );
            if relaxed.is_some() {
                break;
            }
        }
        let path = relaxed?;
        let in_the_way = in_the_way(level, &self.occupied, from, player, &path);
        let mut on_path = vec![false; n];
        for &c in &in_the_way {
            on_path[c] = true;
        }
        let blocker = in_the_way
            .iter()
            .copied()
            .find(|&c| c != from && self.occupied[c])?;
        let off_path = |c: usize| !on_path[c];
        let pushes = self.paths.find(
            level,
            analysis,
            &mut self.occupied,
            blocker,
            Player::At(player),
            &off_path,
            &|_| 0,
            CLEARING_STATES,
        )?;
        let kb = self.box_list.iter().position(|&b| b == blocker)?;
        Some((kb, Child::new(pushes, true)))
    }
}

/// The squares the relaxed `path` of the box on `from` uses, in the order it uses
/// them: the player's walk to the first push (over the fewest boxes), then for each
/// push the square pushed from and the box's new square.
fn in_the_way(
    level: &Level,
    occupied: &[bool],
    from: usize,
    player: usize,
    path: &[Push],
) -> Vec<usize> {
    let mut squares = Vec::new();
    if let Some(first) = path.first() {
        let behind = level
            .neighbour(first.from, first.dir.opposite())
            .expect("a push has a square behind it");
        squares.extend(walk_over_fewest_boxes(
            level, occupied, from, player, behind,
        ));
    }
    for push in path {
        let behind = level
            .neighbour(push.from, push.dir.opposite())
            .expect("a push has a square behind it");
        let to = level.neighbour(push.from, push.dir).expect("a legal push");
        squares.push(behind);
        squares.push(to);
    }
    squares
}

/// The squares of a walk from `player` to `to` that crosses the fewest boxes (other
/// than the one on `avoid`, which it never crosses), from `player`'s end; a 0-1
/// breadth-first search, a box square costing 1.
fn walk_over_fewest_boxes(
    level: &Level,
    occupied: &[bool],
    avoid: usize,
    player: usize,
    to: usize,
) -> Vec<usize> {
    let n = level.num_cells();
    let mut cost = vec![u32::MAX; n];
    let mut came = vec![usize::MAX; n];
    let mut queue = VecDeque::new();
    cost[player] = 0;
    queue.push_back(player);
    while let Some(c) = queue.pop_front() {
        if c == to {
            break;
        }
        for d in Dir::ALL {
            let Some(next) = level.neighbour(c, d) else {
                continue;
            };
            if next == avoid {
                continue;
            }
            let step = u32::from(occupied[next]);
            if cost[c] + step < cost[next] {
                cost[next] = cost[c] + step;
                came[next] = c;
                if step == 0 {
                    queue.push_front(next);
                } else {
                    queue.push_back(next);
                }
            }
        }
    }
    if cost[to] == u32::MAX {
        return Vec::new();
    }
    let mut walk = vec![to];
    let mut at = to;
    while came[at] != usize::MAX {
        at = came[at];
        walk.push(at);
    }
    walk.reverse();
    walk
}

#[cfg(test)]
mod tests {
    use super::super::boxpath::Player;
    use super::super::packing::PackingOrder;
    use super::super::{Options, Search};
    use crate::sokoban::parse::{parse_levels, LevelFormat};
    use gridsat_encodings::grid::Cell;
    use gridsat_encodings::sokoban::{Analysis, Dir, Level, Push};

    fn level(text: &str) -> Level {
        parse_levels(text, LevelFormat::Xsb, None).unwrap()[0]
            .level
            .clone()
    }

    #[test]
    fn a_box_in_the_way_of_a_packing_move_is_moved_off_its_path() {
        // The box on (2,5) goes left to the goal on (2,1), but the box on (2,3) is in
        // its way; that one can only go up, onto the goal in the niche.
        let l = level("#########\n###.#####\n#. $ $ @#\n### ### #\n###     #\n#########\n");
        let at = |r, c| l.cell_at(Cell::new(r, c)).unwrap();
        let analysis = Analysis::new(&l);
        let order = PackingOrder::new(&l);
        let mut search = Search::new(&l, &analysis, &order, Options::default());
        for &b in l.boxes() {
            search.occupied[b] = true;
        }
        search.box_list = l.boxes().to_vec();
        search.box_list.sort_unstable();
        let k = search.box_list.iter().position(|&b| b == at(2, 5)).unwrap();
        let goal = at(2, 1);
        let g = l.goals().iter().position(|&c| c == goal).unwrap();
        let distance = |c: usize| analysis.to_goal[g][c];
        // With the other box fixed there is no box path ...
        let blocked = search.paths.find(
            &l,
            &analysis,
            &mut search.occupied,
            at(2, 5),
            Player::At(l.player()),
            &|c| c == goal,
            &distance,
            2000,
        );
        assert_eq!(blocked, None);
        // ... so the clearing advisor moves the other box up, out of the way.
        let (kb, child) = search
            .clearing_advice(l.player(), k, &|c| c == goal, &distance)
            .expect("a clearing move");
        assert_eq!(search.box_list[kb], at(2, 3));
        let up = Push {
            from: at(2, 3),
            dir: Dir::Up,
        };
        assert_eq!(child.pushes, vec![up]);
        assert!(child.advised);
        assert!(search.occupied[at(2, 3)] && search.occupied[at(2, 5)]);
    }
}
