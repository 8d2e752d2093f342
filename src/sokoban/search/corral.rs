//! PI-corral pruning: in some positions, only the pushes of some of the boxes need to
//! be tried, and an optimal plan is still among them.
//!
//! **A corral** `K` is a set of squares the player cannot reach: some areas of free
//! squares, each whole (a connected component of the free squares outside the player's
//! region), every box next to them, and possibly more boxes. Every non-wall neighbour of
//! a free square of `K` is in `K` (a free neighbour is in the same area, since one in the
//! player's region would make the square reachable; a box next to it is in `K`). Hence,
//! until a box of `K` is pushed, nothing enters `K`: the player only steps from a square
//! onto a neighbour, and a box only moves onto a free neighbour, so reaching a free
//! square of `K` means standing on a neighbour of it first, which is in `K`: a box of
//! `K` (none has moved) or a free square of `K` (by induction, never entered).
//!
//! **It must be opened** if it holds a box off a goal, or a goal without a box when there
//! are as many goals as boxes: every plan then pushes one of its boxes. Take the first
//! such push in a plan: box `b` of `K`, unmoved, in direction `d`, the player on
//! `b - d` (outside `K`, see above) and `b + d` free.
//!
//! **It is a PI-corral** when, for every box `b` of `K` and direction `d` with `b - d`
//! outside `K` and not a wall, and `b + d` neither a wall nor a dead square (no plan
//! pushes a box onto a dead square):
//! - (I) `b + d` is a square of `K` (outside `K`, the push could leave `K`), and
//! - (P) if `b + d` is a free square of `K`, the push is possible now: `b - d` is in the
//!   player's region.
//!
//! (A box of `K` never moves before the first push of `K`, so `b + d` holding one makes
//! the push impossible.) Then the first push of `K` in any plan is one of the pushes
//! possible now. **Moving it to the front** keeps the plan valid and as long: the pushes
//! before it move boxes outside `K` onto squares outside `K`, so they never needed `b`'s
//! square free nor used `b + d`; after the move `b + d` (unreachable anyway) is taken
//! and `b`'s square is freed, which only widens the player's region, so each of those
//! pushes is still possible; and after them the boxes stand as in the original plan after
//! its first push of `K`, with the player's region the same (the player could walk to
//! `b - d` and onto `b`). So from a position with a PI-corral, some optimal plan starts
//! with a push of the corral's boxes: an A* that tries only those keeps an optimal plan
//! of every position it expands (the same position always gets the same pushes), and a
//! PI-corral with no possible push proves the position dead.
//!
//! **Finding them.** Each area is a seed, with the boxes next to it. A condition broken
//! by a square outside the corral that the player cannot reach either (the square
//! behind a push or its target: another area, or a box) merges that square in (with its
//! whole area and the boxes next to it) and the test starts over, as Festival merges
//! corrals; a condition broken by the player's region ends the seed. Of the PI-corrals
//! that must be opened, the one with the fewest possible pushes is kept.

use super::flood::Flood;
use gridsat_encodings::sokoban::{Dir, Level};

const NONE: u32 = u32::MAX;

/// What a position's corrals allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruning {
    /// No PI-corral: every push must be tried.
    None,
    /// Only pushes of the boxes of the corral found (see `Corrals::in_corral`) need be
    /// tried.
    Corral,
    /// A PI-corral that must be opened cannot be: no plan from this position.
    Dead,
}

/// The outcome of testing a corral.
enum Test {
    Pi {
        pushes: usize,
    },
    /// A condition fails on this square, outside the corral and the player's region:
    /// merge it in.
    Merge(usize),
    /// A condition fails on the player's region.
    Fails,
}

/// The number after `n` for stamping `marks`, which are cleared when the numbers wrap.
fn next_number(n: u32, marks: &mut [u32]) -> u32 {
    if n == u32::MAX {
        marks.iter_mut().for_each(|m| *m = 0);
        1
    } else {
        n + 1
    }
}

/// Scratch space for finding a position's PI-corral, reused for every position.
pub struct Corrals {
    /// The area of each free square outside the player's region (`NONE` for the others).
    area: Vec<u32>,
    /// The squares of every area, area after area: area `a` is
    /// `free[start[a]..start[a + 1]]`.
    free: Vec<usize>,
    start: Vec<usize>,
    stack: Vec<usize>,
    /// The corral being tested: its areas, and its boxes (listed, and marked with the
    /// current test's number).
    in_test: Vec<bool>,
    boxes: Vec<usize>,
    mark: Vec<u32>,
    test_number: u32,
    /// The corral's boxes `boxes[..passed]` meet every condition, with `pushes` possible
    /// pushes among them: a merge never undoes that (see `test`).
    passed: usize,
    pushes: usize,
    /// The boxes of the best PI-corral found so far, marked with `chosen_number`.
    chosen: Vec<u32>,
    chosen_number: u32,
    found: bool,
}

impl Corrals {
    pub fn new(squares: usize) -> Corrals {
        Corrals {
            area: vec![NONE; squares],
            free: Vec::new(),
            start: Vec::new(),
            stack: Vec::new(),
            in_test: Vec::new(),
            boxes: Vec::new(),
            mark: vec![0; squares],
            test_number: 0,
            passed: 0,
            pushes: 0,
            chosen: vec![0; squares],
            chosen_number: 0,
            found: false,
        }
    }

    /// Finds the PI-corral of the position (`occupied` boxes, the player's region the
    /// last fill of `region`) that must be opened with the fewest pushes.
    pub fn find(
        &mut self,
        level: &Level,
        dead: &[bool],
        occupied: &[bool],
        region: &Flood,
        boxes_equal_goals: bool,
    ) -> Pruning {
        self.find_with(level, dead, occupied, region, boxes_equal_goals, false)
    }

    /// `find`; with `restart`, every box is tested again after every merge (as before
    /// the test went on from its first box not passed; kept to check that it finds the
    /// same).
    fn find_with(
        &mut self,
        level: &Level,
        dead: &[bool],
        occupied: &[bool],
        region: &Flood,
        boxes_equal_goals: bool,
        restart: bool,
    ) -> Pruning {
        self.label_areas(level, occupied, region);
        let areas = self.start.len() - 1;
        self.found = false;
        let mut best_pushes = usize::MAX;
        for seed in 0..areas {
            self.test_number = next_number(self.test_number, &mut self.mark);
            self.in_test.clear();
            self.in_test.resize(areas, false);
            self.boxes.clear();
            (self.passed, self.pushes) = (0, 0);
            self.add_area(level, occupied, seed);
            let pushes = loop {
                if restart {
                    (self.passed, self.pushes) = (0, 0);
                }
                match self.test(level, dead, occupied, region) {
                    Test::Merge(square) if occupied[square] => self.add_box(square),
                    Test::Merge(square) => {
                        self.add_area(level, occupied, self.area[square] as usize)
                    }
                    Test::Fails => break None,
                    Test::Pi { pushes } => break Some(pushes),
                }
            };
            let Some(pushes) = pushes else { continue };
            if !self.must_open(level, occupied, boxes_equal_goals) {
                continue;
            }
            if pushes == 0 {
                return Pruning::Dead;
            }
            if pushes < best_pushes {
                best_pushes = pushes;
                self.found = true;
                self.chosen_number = next_number(self.chosen_number, &mut self.chosen);
                for &b in &self.boxes {
                    self.chosen[b] = self.chosen_number;
                }
            }
        }
        if !self.found {
            Pruning::None
        } else {
            Pruning::Corral
        }
    }

    /// Whether the box on `cell` belongs to the corral chosen by the last `find`.
    pub fn in_corral(&self, cell: usize) -> bool {
        self.found && self.chosen[cell] == self.chosen_number
    }

    /// Labels the areas of free squares outside the player's region.
    fn label_areas(&mut self, level: &Level, occupied: &[bool], region: &Flood) {
        self.area.iter_mut().for_each(|a| *a = NONE);
        self.free.clear();
        self.start.clear();
        for first in 0..level.num_cells() {
            if occupied[first] || region.reached(first) || self.area[first] != NONE {
                continue;
            }
            let id = self.start.len() as u32;
            self.start.push(self.free.len());
            self.area[first] = id;
            self.stack.push(first);
            while let Some(c) = self.stack.pop() {
                self.free.push(c);
                for d in Dir::ALL {
                    if let Some(nb) = level.neighbour(c, d) {
                        if !occupied[nb] && !region.reached(nb) && self.area[nb] == NONE {
                            self.area[nb] = id;
                            self.stack.push(nb);
                        }
                    }
                }
            }
        }
        self.start.push(self.free.len());
    }

    fn add_box(&mut self, cell: usize) {
        if self.mark[cell] != self.test_number {
            self.mark[cell] = self.test_number;
            self.boxes.push(cell);
        }
    }

    /// Adds area `a` and the boxes next to it to the corral being tested.
    fn add_area(&mut self, level: &Level, occupied: &[bool], a: usize) {
        self.in_test[a] = true;
        for i in self.start[a]..self.start[a + 1] {
            let c = self.free[i];
            for d in Dir::ALL {
                if let Some(nb) = level.neighbour(c, d) {
                    if occupied[nb] {
                        self.add_box(nb);
                    }
                }
            }
        }
    }

    fn inside(&self, occupied: &[bool], c: usize) -> bool {
        if occupied[c] {
            self.mark[c] == self.test_number
        } else {
            self.area[c] != NONE && self.in_test[self.area[c] as usize]
        }
    }

    /// Whether the corral being tested holds a box off a goal, or a goal without a box
    /// when every goal must be filled.
    fn must_open(&self, level: &Level, occupied: &[bool], boxes_equal_goals: bool) -> bool {
        self.boxes.iter().any(|&b| !level.is_goal(b))
            || (boxes_equal_goals
                && (0..self.in_test.len())
                    .filter(|&a| self.in_test[a])
                    .flat_map(|a| &self.free[self.start[a]..self.start[a + 1]])
                    .any(|&c| level.is_goal(c) && !occupied[c]))
    }

    /// Tests the corral being tested (see the module comment), from its first box not
    /// yet passed. A box that met every condition still meets them after a merge: the
    /// corral only grows, so a square inside stays inside, and it never takes a square of
    /// the player's region, so a push counted (its player square reached, outside the
    /// corral) stays possible and counted. Each box is tested again only after a merge
    /// it asked for, instead of every box after every merge (Microban II 131: dozens of
    /// pockets merged one by one, the corrals half the weighted search's time).
    fn test(&mut self, level: &Level, dead: &[bool], occupied: &[bool], region: &Flood) -> Test {
        while let Some(&b) = self.boxes.get(self.passed) {
            let mut pushes = 0;
            for d in Dir::ALL {
                let Some((behind, target)) = level.push_squares(b, d) else {
                    continue;
                };
                if self.inside(occupied, behind) || dead[target] {
                    continue;
                }
                if !self.inside(occupied, target) {
                    return if region.reached(target) {
                        Test::Fails
                    } else {
                        Test::Merge(target)
                    };
                }
                if !occupied[target] {
                    if !region.reached(behind) {
                        return Test::Merge(behind);
                    }
                    pushes += 1;
                }
            }
            self.pushes += pushes;
            self.passed += 1;
        }
        Test::Pi {
            pushes: self.pushes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};
    use crate::sokoban::search::rooms::draws;
    use gridsat_encodings::sokoban::Analysis;

    /// The test going on from its first box not passed finds what testing every box
    /// after every merge found: the same pruning and the same corral, on random
    /// positions of Microban II 131 (its goals are dozens of pockets, merged one by one)
    /// and of XSokoban 1 and 23.
    #[test]
    fn going_on_after_a_merge_finds_what_starting_over_found() {
        let mut below = draws(0xc0_aa1);
        let mut found = [0; 3];
        for (path, n) in [
            ("examples/sokoban/levels/microban-ii.xsb", 131),
            ("examples/sokoban/levels/xsokoban.xsb", 1),
            ("examples/sokoban/levels/xsokoban.xsb", 23),
        ] {
            let text = std::fs::read_to_string(path).unwrap();
            let level = parse_levels(&text, LevelFormat::Auto, Some(n))
                .unwrap()
                .remove(0)
                .level;
            let cells = level.num_cells();
            let dead = Analysis::new(&level).dead;
            let (mut on, mut over) = (Corrals::new(cells), Corrals::new(cells));
            let mut region = Flood::new(cells);
            for k in 0..400 {
                // The level's own start, then boxes moved off it: a few, or at random.
                let mut occupied = vec![false; cells];
                level.boxes().iter().for_each(|&b| occupied[b] = true);
                for _ in 0..[0, 2, 6, cells][k % 4] {
                    let (from, to) = (below(cells), below(cells));
                    if occupied[from] && !occupied[to] {
                        (occupied[from], occupied[to]) = (false, true);
                    }
                }
                let player = below(cells);
                if occupied[player] {
                    continue;
                }
                region.fill(&level, &occupied, player);
                let equal = level.boxes().len() == level.goals().len();
                let pruning = on.find(&level, &dead, &occupied, &region, equal);
                let expected = over.find_with(&level, &dead, &occupied, &region, equal, true);
                assert_eq!(pruning, expected, "level {n}, position {k}");
                for c in 0..cells {
                    assert_eq!(on.in_corral(c), over.in_corral(c), "level {n}, {k}, {c}");
                }
                found[match pruning {
                    Pruning::None => 0,
                    Pruning::Corral => 1,
                    Pruning::Dead => 2,
                }] += 1;
            }
        }
        assert!(
            found.iter().all(|&f| f > 20),
            "none, corral, dead: {found:?}"
        );
    }
}
