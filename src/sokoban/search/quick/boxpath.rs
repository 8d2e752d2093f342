//! Box paths: the pushes that bring one box to a target square while every other box
//! stays where it is, for the macro moves of the quick search.
//!
//! A best-first search over the box's square and the side the player is on (the square
//! it pushed from), ordered by pushes so far plus the lone-box distance to the nearest
//! target (a lower bound, so the first path found is a shortest one). The start floods
//! the player's region around the boxes; every later state, with the player next to
//! the box, asks which other sides of the box it reaches (`sides`: one depth-first
//! search of the free squares per path, not a flood per state).

use super::super::flood::Flood;
use super::sides::Sides;
use gridsat_encodings::sokoban::analysis::UNREACHABLE;
use gridsat_encodings::sokoban::{Analysis, Dir, Level, Push};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How the box moves: pushed by the player behind it (a forward search), or pulled by
/// the player in front of it, who steps back (the reverse search).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Way {
    Push,
    Pull,
}

/// Reusable scratch space for box paths.
pub(super) struct BoxPaths {
    /// `came[c * 4 + d]`: the state the box on `c` (player on the side `d`) was pushed
    /// from, stamped with the search it belongs to.
    /// The last one is the start state (`start`).
    came: Vec<(u32, u32)>,
    /// The square the box of the last search started on.
    from: usize,
    /// How the box of the last search moved.
    way: Way,
    stamp: u32,
    open: BinaryHeap<Reverse<(u32, u32, u32)>>,
    flood: Flood,
    /// The sides of the box the player walks between, for the free squares of this
    /// search (the moving box lifted), once a state past the start needs them.
    sides: Sides,
    sides_built: bool,
    /// States looked at by every search so far (each floods the player's region: the
    /// box paths' share of a quick search's work).
    pub(super) looked: usize,
}

const START: u32 = u32::MAX;

/// Where the player starts a box path: on a square (its region then filled), or in a
/// region the caller has already filled for the same boxes (an expansion's, which every
/// box's moves start from).
#[derive(Clone, Copy)]
pub(super) enum Player<'r> {
    At(usize),
    In(&'r Flood),
}

impl BoxPaths {
    /// Begins a search of the box on `from` (the states of earlier searches forgotten):
    /// its start state, which is none of the
    /// `(square, side)` states (the player is wherever it is), so that the box pushed
    /// back onto `from` is a state of its own.
    fn start(&mut self, from: usize, way: Way) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.came.iter_mut().for_each(|c| *c = (0, 0));
            self.stamp = 1;
        }
        let start = (self.came.len() - 1) as u32;
        self.came[start as usize] = (self.stamp, START);
        self.from = from;
        self.way = way;
        self.sides_built = false;
        start
    }

    /// The box's square in `state`.
    fn cell_of(&self, state: u32) -> usize {
        if state as usize == self.came.len() - 1 {
            self.from
        } else {
            state as usize / 4
        }
    }

    /// The states one push (or pull, by the search's `Way`) of the box away from
    /// `state` that this search has not met, never onto a square marked `dead`, the
    /// other boxes of `occupied` fixed (the box itself lifted from it) and the player in
    /// the region of `player` in the start state: `take(square the box goes to, state)`
    /// says whether each is kept, and a kept one is marked as reached from `state`.
    fn successors(
        &mut self,
        level: &Level,
        dead: &[bool],
        occupied: &mut [bool],
        state: u32,
        player: Player,
        mut take: impl FnMut(usize, u32) -> bool,
    ) {
        let cell = self.cell_of(state);
        // Whether the player, in its region around the box on `cell`, reaches `behind`.
        let walker = if state as usize == self.came.len() - 1 {
            if let Player::At(player) = player {
                occupied[cell] = true;
                self.flood.fill(level, occupied, player);
                occupied[cell] = false;
            }
            None
        } else {
            if !self.sides_built {
                self.sides.build(level, occupied, self.from);
                self.sides_built = true;
            }
            let side = Dir::ALL[state as usize % 4];
            let walker = level
                .neighbour(cell, side)
                .expect("the player stands there");
            Some(self.sides.part(level, cell, walker))
        };
        let start_region = match player {
            Player::At(_) => &self.flood,
            Player::In(region) => region,
        };
        let reaches = |behind: usize| match walker {
            None => start_region.reached(behind),
            Some(part) => !occupied[behind] && self.sides.part(level, cell, behind) == part,
        };
        for dir in Dir::ALL {
            let (next, to) = match self.way {
                Way::Push => {
                    let Some((behind, to)) = level.push_squares(cell, dir) else {
                        continue;
                    };
                    if !reaches(behind) || occupied[to] {
                        continue;
                    }
                    // After the push the player stands on `cell`, on the side opposite
                    // `dir`.
                    ((to * 4 + dir.opposite().index()) as u32, to)
                }
                Way::Pull => {
                    // The player stands on `to` and steps back to `back`, the box
                    // following it onto `to`: the player is then on the side `dir`.
                    let Some(to) = level.neighbour(cell, dir) else {
                        continue;
                    };
                    let Some(back) = level.neighbour(to, dir) else {
                        continue;
                    };
                    if !reaches(to) || occupied[back] {
                        continue;
                    }
                    ((to * 4 + dir.index()) as u32, to)
                }
            };
            if dead[to] {
                continue;
            }
            if self.came[next as usize].0 != self.stamp && take(to, next) {
                self.came[next as usize] = (self.stamp, state);
            }
        }
    }
}

impl BoxPaths {
    pub(super) fn new(n: usize) -> BoxPaths {
        BoxPaths {
            came: vec![(0, 0); n * 4 + 1],
            from: 0,
            way: Way::Push,
            stamp: 0,
            open: BinaryHeap::new(),
            flood: Flood::new(n),
            sides: Sides::new(n),
            sides_built: false,
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
        player: Player,
        target: &dyn Fn(usize) -> bool,
        distance: &dyn Fn(usize) -> u32,
        limit: usize,
    ) -> Option<Vec<Push>> {
        let target = |c: usize, _: Dir| target(c);
        self.find_with_side(
            level, analysis, occupied, from, player, &target, distance, limit,
        )
    }

    /// `find`, with targets that depend on the side the player ends on too (the
    /// direction from the box's square to the player's).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn find_with_side(
        &mut self,
        level: &Level,
        analysis: &Analysis,
        occupied: &mut [bool],
        from: usize,
        player: Player,
        target: &dyn Fn(usize, Dir) -> bool,
        distance: &dyn Fn(usize) -> u32,
        limit: usize,
    ) -> Option<Vec<Push>> {
        let h0 = distance(from);
        if h0 == UNREACHABLE {
            return None;
        }
        let start = self.start(from, Way::Push);
        let mut open = std::mem::take(&mut self.open);
        open.clear();
        open.push(Reverse((h0, 0, start)));
        let mut looked = 0;
        let mut found = None;
        occupied[from] = false;
        while let Some(Reverse((_, g, state))) = open.pop() {
            looked += 1;
            if looked > limit {
                break;
            }
            if state != start && target(self.cell_of(state), Dir::ALL[state as usize % 4]) {
                found = Some(state);
                break;
            }
            let dead = &analysis.dead;
            self.successors(level, dead, occupied, state, player, |to, next| {
                let h = distance(to);
                if h != UNREACHABLE {
                    open.push(Reverse((g + 1 + h, g + 1, next)));
                }
                h != UNREACHABLE
            });
        }
        self.open = open;
        occupied[from] = true;
        self.looked += looked;
        let mut pushes = Vec::new();
        self.path_to(level, found?, &mut pushes);
        Some(pushes)
    }
}

impl BoxPaths {
    /// Every move of the box on `from` with the other boxes of `occupied` fixed (FESS's
    /// macro moves): for each square it can be pushed (or pulled, by `way`) to and each
    /// side the player can end on, the fewest pushes (pulls) that get it there, handed to
    /// `each`. The player starts in the region of `player`; squares marked `dead` are
    /// never entered; at most `limit` states are looked at. `occupied` is left as it was.
    /// Each pull is handed as the push that undoes it (the box pushed back where it was
    /// pulled from), in the order of the pulls. Beside the pushes goes the smallest
    /// square of the player's region at the end, when the search asked its sides
    /// (`Sides`, built once any state past the start needed them): the child's key then
    /// needs no fill.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn every_move(
        &mut self,
        level: &Level,
        dead: &[bool],
        way: Way,
        occupied: &mut [bool],
        from: usize,
        player: Player,
        limit: usize,
        mut each: impl FnMut(&[Push], Option<usize>),
    ) {
        // Breadth-first, so the first way to a state is a shortest; the queue is the
        // list of states in the order found.
        let start = self.start(from, way);
        let mut order = vec![start];
        let mut next_up = 0;
        occupied[from] = false;
        while next_up < order.len() && next_up < limit {
            let state = order[next_up];
            next_up += 1;
            self.successors(level, dead, occupied, state, player, |_, next| {
                order.push(next);
                true
            });
        }
        occupied[from] = true;
        self.looked += next_up;
        let mut pushes = Vec::new();
        for &state in &order[1..] {
            self.path_to(level, state, &mut pushes);
            let region = self.sides_built.then(|| {
                let cell = self.cell_of(state);
                let side = Dir::ALL[state as usize % 4];
                let player = level
                    .neighbour(cell, side)
                    .expect("the player stands there");
                self.sides.smallest_in_part(level, cell, player)
            });
            each(&pushes, region);
        }
    }

    /// The pushes of the last search from its start to `state`, into `pushes`.
    fn path_to(&self, level: &Level, mut at: u32, pushes: &mut Vec<Push>) {
        pushes.clear();
        while self.came[at as usize].1 != START {
            let before = self.came[at as usize].1;
            let cell = self.cell_of(before);
            let to = self.cell_of(at);
            let dir = Dir::ALL
                .into_iter()
                .find(|&d| level.neighbour(cell, d) == Some(to))
                .expect("a push moves the box one square");
            pushes.push(match self.way {
                Way::Push => Push { from: cell, dir },
                Way::Pull => Push {
                    from: to,
                    dir: dir.opposite(),
                },
            });
            at = before;
        }
        pushes.reverse();
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
                Player::At(l.player()),
                &|c| c == goal,
                &|c| analysis.to_goal[0][c],
                1000,
            )
            .expect("a path");
        assert_eq!(path.len(), 4, "{path:?}");
        assert!(occupied[l.boxes()[0]]);
    }

    /// The fewest pushes (or pulls) that bring the lone moving box from `from` to each
    /// (square, side the player stands on) with the other boxes fixed, by a 0-1
    /// breadth-first search over the exact squares of box and player (a step costs 0, a
    /// push or pull 1), never into a dead square.
    fn brute_force(
        l: &Level,
        dead: &[bool],
        way: Way,
        from: usize,
    ) -> Vec<((usize, usize), usize)> {
        use std::collections::{HashMap, VecDeque};
        let others: Vec<usize> = l.boxes().iter().copied().filter(|&b| b != from).collect();
        let mut best: HashMap<(usize, usize), usize> = HashMap::new();
        let mut queue = VecDeque::from([(from, l.player(), 0)]);
        let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
        while let Some((b, p, moves)) = queue.pop_front() {
            if seen.get(&(b, p)).is_some_and(|&d| d <= moves) {
                continue;
            }
            seen.insert((b, p), moves);
            for d in Dir::ALL {
                let Some(q) = l.neighbour(p, d) else { continue };
                if others.contains(&q) {
                    continue;
                }
                if q != b {
                    queue.push_front((b, q, moves));
                }
                // Pushed, the box goes on in `d` and the player stands where it was
                // (the side opposite `d`); pulled (the player steps from beside the box
                // away from it), the box takes the player's square and the player is
                // on the side `d`.
                let (to, player, side) = match way {
                    Way::Push if q == b => match l.neighbour(b, d) {
                        Some(to) => (to, b, d.opposite()),
                        None => continue,
                    },
                    Way::Pull if l.neighbour(b, d) == Some(p) => (p, q, d),
                    _ => continue,
                };
                if !others.contains(&to) && !dead[to] {
                    let e = best.entry((to, side.index())).or_insert(moves + 1);
                    *e = (*e).min(moves + 1);
                    queue.push_back((to, player, moves + 1));
                }
            }
        }
        let mut states: Vec<((usize, usize), usize)> = best.into_iter().collect();
        states.sort_unstable();
        states
    }

    /// Where a move of the box on `from` ends (square, the side the player is on) and
    /// its pushes or pulls, checking they follow one another: pushes in order, each
    /// starting where the last one left the box; pulls each the push that undoes it, so
    /// each pull's push ends where the box was before it.
    fn ended(
        l: &Level,
        way: Way,
        from: usize,
        moves: &[Push],
        text: &str,
    ) -> ((usize, usize), usize) {
        let mut at = from;
        for m in moves {
            match way {
                Way::Push => {
                    assert_eq!(m.from, at, "{text}{moves:?}");
                    at = l.neighbour(at, m.dir).unwrap();
                }
                Way::Pull => {
                    assert_eq!(l.neighbour(m.from, m.dir), Some(at), "{text}{moves:?}");
                    at = m.from;
                }
            }
        }
        // Either way the player ends on the side the last push came from.
        let side = moves.last().unwrap().dir.opposite();
        ((at, side.index()), moves.len())
    }

    #[test]
    fn every_move_of_a_box_has_the_fewest_pushes_a_brute_force_finds() {
        let levels = [
            "#######\n#     #\n#@$   #\n####  #\n   #. #\n   ####\n",
            "########\n#  .   #\n# $$ # #\n#  @ $.#\n# .    #\n########\n",
            "#########\n#...$$$.#\n#.#######\n#  $  @#\n#  #####\n########\n",
            "#######\n#.  . #\n# #$# #\n# $@$ #\n#  .  #\n#######\n",
        ];
        for text in levels {
            let l = level(text);
            let analysis = Analysis::new(&l);
            let mut occupied = vec![false; l.num_cells()];
            for &b in l.boxes() {
                occupied[b] = true;
            }
            let mut paths = BoxPaths::new(l.num_cells());
            // Pulls may enter the squares dead for pushes; some other squares are
            // marked dead for them, to see they are kept out.
            let pull_dead: Vec<bool> = (0..l.num_cells()).map(|c| c % 7 == 3).collect();
            for &from in l.boxes() {
                for (way, dead) in [(Way::Push, &analysis.dead), (Way::Pull, &pull_dead)] {
                    let mut found = Vec::new();
                    paths.every_move(
                        &l,
                        dead,
                        way,
                        &mut occupied,
                        from,
                        Player::At(l.player()),
                        usize::MAX,
                        |pushes, _| found.push(ended(&l, way, from, pushes, text)),
                    );
                    found.sort_unstable();
                    assert_eq!(found, brute_force(&l, dead, way, from), "{way:?} {text}");
                    assert!(occupied[from]);
                }
            }
        }
    }
}
