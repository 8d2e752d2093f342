//! The perimeter bound: the exact pushes still needed by the positions near the solved
//! ones, found by a breadth-first search of pulls back from them.
//!
//! A pull is a push run backwards (the box follows the player, who steps back), so the
//! positions `k` pulls from a solved position are those with a plan of `k` pushes, and a
//! breadth-first search by pulls from every solved position (the boxes on the goals,
//! the player in any region they leave) finds each position's fewest pushes to go, layer
//! by layer. Once layer `k` is fully stored, a position missing from the table needs
//! more than `k` pushes, and with the push parity (fixed by the box squares: each push
//! moves one box one square) at least the next count of its parity.
//!
//! So A* takes `max(matching, perimeter)`: the matching bound of a position close to
//! the goals by its lone-box distances but not in the table is raised past the
//! perimeter's depth. That is where the matching bound is weakest: late in a search
//! that must exhaust a layer of `f`, most positions have many pushes behind them and a
//! small matching bound, and most of them are far from solved (Microban II 109).
//! The bound is admissible but not consistent (a position just outside the perimeter
//! may have a child deep inside), which A* handles as it does the split bound: it takes
//! the path maximum and reopens positions reached more cheaply.

use super::flood::Flood;
use super::positions::{pack, PositionTable};
use crate::sokoban::Limits;
use gridsat_encodings::sokoban::{Dir, Level};

pub(super) struct Perimeter<'a> {
    level: &'a Level,
    table: PositionTable,
    /// The pushes still needed by each stored position.
    to_go: Vec<u8>,
    /// The next position to expand (the search back is breadth first).
    next: usize,
    /// Every position needing at most this many pushes is in the table.
    complete: u32,
    /// The expanded position's region, and scratch for its children's.
    flood: Flood,
    scratch: Flood,
    occupied: Vec<bool>,
}

impl<'a> Perimeter<'a> {
    /// The solved positions, one per region the boxes on the goals leave; `None` with
    /// more goals than boxes (solved positions would be every choice of goals).
    pub(super) fn new(level: &'a Level) -> Option<Self> {
        if level.boxes().len() != level.goals().len() {
            return None;
        }
        let n = level.num_cells();
        let mut perimeter = Perimeter {
            level,
            table: PositionTable::new(n.div_ceil(64)),
            to_go: Vec::new(),
            next: 0,
            complete: 0,
            flood: Flood::new(n),
            scratch: Flood::new(n),
            occupied: vec![false; n],
        };
        for &g in level.goals() {
            perimeter.occupied[g] = true;
        }
        let mut packed = Vec::new();
        pack(&perimeter.occupied, &mut packed);
        let mut seen = vec![false; n];
        for c in 0..n {
            if perimeter.occupied[c] || seen[c] {
                continue;
            }
            let name = perimeter.flood.fill(level, &perimeter.occupied, c);
            (0..n)
                .filter(|&s| perimeter.flood.reached(s))
                .for_each(|s| seen[s] = true);
            perimeter.table.find_or_insert(&packed, name as u16);
            perimeter.to_go.push(0);
        }
        Some(perimeter)
    }

    /// Positions stored.
    pub(super) fn len(&self) -> usize {
        self.table.len()
    }

    /// The pushes to go up to which the table holds every position (`u32::MAX`: the
    /// search back has ended, and the table holds every position with a plan).
    pub(super) fn depth(&self) -> u32 {
        self.complete
    }

    /// Goes on searching back until `max_positions` are stored, the limits expire or
    /// the layers run out.
    pub(super) fn grow(&mut self, max_positions: usize, limits: &Limits) {
        let level = self.level;
        let mut boxes = Vec::new();
        let mut packed = Vec::new();
        while self.next < self.table.len() && self.complete != u32::MAX {
            let depth = self.to_go[self.next];
            if u32::from(depth) != self.complete {
                // Every position of the last layer was expanded: the next is complete.
                self.complete = u32::from(depth);
            }
            // (Counts to go are bytes: the search back stops at the last one.)
            if depth == u8::MAX
                || self.table.len() >= max_positions
                || (self.next.is_multiple_of(1024) && limits.expired())
            {
                return;
            }
            let i = self.next;
            self.table.unpack(i, &mut self.occupied, &mut boxes);
            let name = self
                .flood
                .fill(level, &self.occupied, usize::from(self.table.player_of(i)));
            for &b in &boxes {
                for dir in Dir::ALL {
                    // The player on `p` next to the box steps back to `q`; the box follows.
                    let Some(p) = level.neighbour(b, dir) else {
                        continue;
                    };
                    let Some(q) = level.neighbour(p, dir) else {
                        continue;
                    };
                    if !self.flood.reached(p) || self.occupied[q] {
                        continue;
                    }
                    self.occupied[b] = false;
                    self.occupied[p] = true;
                    pack(&self.occupied, &mut packed);
                    let region = self.flood.after_pull(
                        &mut self.scratch,
                        level,
                        &self.occupied,
                        (b, p),
                        q,
                        name,
                    );
                    let child = match region {
                        Ok(pulled) => pulled.smallest,
                        Err(smallest) => smallest,
                    };
                    if self.table.find_or_insert(&packed, child as u16).1 {
                        self.to_go.push(depth + 1);
                    }
                    self.occupied[p] = false;
                    self.occupied[b] = true;
                }
            }
            self.next += 1;
        }
        if self.next == self.table.len() {
            // The layers ran out: every position with a plan is in the table.
            self.complete = u32::MAX;
        }
    }

    /// The bound of a position already known to need at least `h` pushes, whose plans
    /// all have `parity` pushes modulo 2: its exact pushes to go if stored, else at
    /// least the first count of its parity past the complete layers. `None`: the
    /// position has no plan (the search back ran out of positions without meeting it).
    pub(super) fn bound(
        &self,
        (packed, player): (&[u64], u16),
        h: u32,
        parity: u32,
    ) -> Option<u32> {
        if h > self.complete {
            return Some(h);
        }
        match self.table.find(packed, player) {
            Some(i) => Some(u32::from(self.to_go[i]).max(h)),
            None if self.complete == u32::MAX => None,
            None => {
                let past = self.complete + 1;
                Some(past + (past + parity) % 2)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};
    use crate::sokoban::search::rooms::{draws, optimum, room};
    use gridsat_encodings::sokoban::Analysis;

    /// `level` with its boxes on the `occupied` squares and the player on `player`.
    fn moved(level: &Level, occupied: &[bool], player: usize) -> Level {
        room(level, |c| occupied[c], |c| level.is_goal(c), player)
    }

    /// Small rooms: open, a corridor, a cross where boxes cut the player's regions, and
    /// one with pillars and a pocket.
    const LEVELS: &str = "\
######
#    #
# #@ #
# $* #
# .* #
#    #
######

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

#########
#   #   #
# $   $ #
#  #.#  #
# .@*   #
#  # #$ #
#.      #
#########
";

    #[test]
    fn every_position_searched_back_needs_exactly_its_pushes_to_go() {
        let mut checked = 0;
        for entry in parse_levels(LEVELS, LevelFormat::Auto, None).unwrap() {
            let level = entry.level;
            let mut perimeter = Perimeter::new(&level).unwrap();
            perimeter.grow(3000, &Limits::default());
            let (mut occupied, mut boxes) = (vec![false; level.num_cells()], Vec::new());
            for i in (0..perimeter.len()).step_by(5) {
                perimeter.table.unpack(i, &mut occupied, &mut boxes);
                let player = usize::from(perimeter.table.player_of(i));
                let pushes = optimum(&moved(&level, &occupied, player));
                assert_eq!(pushes, Some(u32::from(perimeter.to_go[i])), "position {i}");
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked} positions checked");
    }

    /// Every plan's parity from the boxes on `occupied`: each push moves one box one
    /// square.
    fn parity(level: &Level, occupied: &[bool]) -> u32 {
        let sum = |cells: &mut dyn Iterator<Item = usize>| {
            cells
                .map(|c| level.position(c))
                .map(|p| p.row + p.col)
                .sum::<usize>()
        };
        let boxes = sum(&mut (0..occupied.len()).filter(|&c| occupied[c]));
        ((boxes + sum(&mut level.goals().iter().copied())) % 2) as u32
    }

    #[test]
    fn a_partial_perimeter_bounds_every_position_by_its_pushes_to_go() {
        let (mut exact, mut past, mut partial) = (0, 0, 0);
        for entry in parse_levels(LEVELS, LevelFormat::Auto, None).unwrap() {
            let level = entry.level;
            let mut full = Perimeter::new(&level).unwrap();
            full.grow(usize::MAX, &Limits::default());
            assert_eq!(full.depth(), u32::MAX);
            let (mut occupied, mut boxes) = (vec![false; level.num_cells()], Vec::new());
            for size in [1, 10, 30, 100, 300, 1000] {
                let mut perimeter = Perimeter::new(&level).unwrap();
                perimeter.grow(size, &Limits::default());
                let depth = perimeter.depth();
                partial += usize::from(depth < u32::MAX);
                for i in 0..full.len() {
                    full.table.unpack(i, &mut occupied, &mut boxes);
                    let to_go = u32::from(full.to_go[i]);
                    let bound = perimeter.bound(full.table.key(i), 0, parity(&level, &occupied));
                    if to_go <= depth {
                        assert_eq!(bound, Some(to_go));
                        exact += 1;
                    } else {
                        let bound = bound.unwrap();
                        assert!(bound > depth && bound <= to_go, "{bound} {to_go} {depth}");
                        past += 1;
                    }
                }
            }
        }
        assert!(
            exact > 1000 && past > 1000 && partial >= 12,
            "{exact} exact, {past} past the perimeter, {partial} partial"
        );
    }

    #[test]
    fn a_perimeter_searched_to_the_end_tells_the_positions_without_a_plan() {
        let mut below = draws(0x5eed_2026);
        let (mut solvable, mut dead) = (0, 0);
        for entry in parse_levels(LEVELS, LevelFormat::Auto, None).unwrap() {
            let level = entry.level;
            let n = level.num_cells();
            let dead_squares = Analysis::new(&level).dead;
            let live: Vec<usize> = (0..n).filter(|&c| !dead_squares[c]).collect();
            let mut perimeter = Perimeter::new(&level).unwrap();
            perimeter.grow(usize::MAX, &Limits::default());
            let mut flood = Flood::new(n);
            let mut key = Vec::new();
            for _ in 0..200 {
                // Boxes off dead squares, so that many positions have a plan.
                let mut occupied = vec![false; n];
                let mut placed = 0;
                while placed < level.goals().len() {
                    let c = live[below(live.len())];
                    placed += usize::from(!std::mem::replace(&mut occupied[c], true));
                }
                let free: Vec<usize> = (0..n).filter(|&c| !occupied[c]).collect();
                let player = free[below(free.len())];
                let name = flood.fill(&level, &occupied, player) as u16;
                pack(&occupied, &mut key);
                let bound = perimeter.bound((&key, name), 0, parity(&level, &occupied));
                let pushes = optimum(&moved(&level, &occupied, player));
                assert_eq!(bound, pushes);
                solvable += usize::from(pushes.is_some());
                dead += usize::from(pushes.is_none());
            }
        }
        assert!(
            solvable > 100 && dead > 100,
            "{solvable} with a plan, {dead} without"
        );
    }
}
