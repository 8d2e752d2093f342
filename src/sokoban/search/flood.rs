//! The player's region in a position: the squares the player reaches without pushing.

use gridsat_encodings::sokoban::{Dir, Level};

/// A flood fill that stamps the squares it reaches, so that consecutive fills need no
/// clearing: one per search, reused for every position.
pub struct Flood {
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<usize>,
}

impl Flood {
    /// A flood for levels of `squares` squares.
    pub fn new(squares: usize) -> Flood {
        Flood {
            stamp: vec![0; squares],
            current: 0,
            stack: Vec::new(),
        }
    }

    /// Marks the squares the player reaches from `from` around the `occupied` ones;
    /// returns the smallest (the region's name in a position's key).
    pub fn fill(&mut self, level: &Level, occupied: &[bool], from: usize) -> usize {
        self.current += 1;
        self.stamp[from] = self.current;
        self.stack.clear();
        self.stack.push(from);
        let mut smallest = from;
        while let Some(c) = self.stack.pop() {
            smallest = smallest.min(c);
            for &n in level.adjacent(c) {
                let n = n as usize;
                if self.stamp[n] != self.current && !occupied[n] {
                    self.stamp[n] = self.current;
                    self.stack.push(n);
                }
            }
        }
        smallest
    }

    /// Whether the last fill reached `c`.
    pub fn reached(&self, c: usize) -> bool {
        self.stamp[c] == self.current
    }

    /// The smallest square of the player's region after the box on `from` moves to
    /// `target` (`occupied` already updated) with the player on `player`: told by
    /// `region` (the old region's fill, its smallest square `smallest`; see
    /// `after_push`) when it can be, else filled here. The flag says whether it was
    /// filled, so that this flood holds the region's squares.
    pub fn fill_after(
        &mut self,
        region: &Flood,
        level: &Level,
        occupied: &[bool],
        (from, target): (usize, usize),
        (player, smallest): (usize, usize),
    ) -> (usize, bool) {
        match region.after_push(level, occupied, from, target, smallest) {
            Some(told) => {
                debug_assert_eq!(told, self.fill(level, occupied, player));
                (told, false)
            }
            None => (self.fill(level, occupied, player), true),
        }
    }

    /// The smallest square of the player's region after the box on `from` moves to
    /// `target` (`occupied` already updated), from this flood's last fill (the region
    /// before, whose smallest square is `smallest`), when it can be told without a new
    /// fill; `None` when it cannot. The box moves by one push, by pushes along squares
    /// of the old region (a macro move), or by a pull; the player ends on `from` or on a
    /// square of the old region other than `target`.
    ///
    /// If every free square next to `from` was in the old region, no other area joins
    /// it. If `target` was outside the old region (a push of one square), nothing of it
    /// is lost: the region is the old one and `from`, which the player stands on. If
    /// `target` was inside, the new box could cut the region in two; it does not when
    /// the free squares next to `target` are joined around it, through one run of free
    /// squares in its ring of eight (each ring square touches the next). Then the region
    /// is the old one less `target` plus `from`, and its smallest square is known unless
    /// `target` was the smallest. `from` is in it: after pushes it touches the square
    /// behind it or the next square on the way, both in the old region; after a pull it
    /// is next to `target`, and the ring test fails when it is joined to nothing else.
    pub fn after_push(
        &self,
        level: &Level,
        occupied: &[bool],
        from: usize,
        target: usize,
        smallest: usize,
    ) -> Option<usize> {
        let joins_other_area = Dir::ALL.iter().any(|&d| {
            level
                .neighbour(from, d)
                .is_some_and(|n| !occupied[n] && !self.reached(n))
        });
        if joins_other_area {
            return None;
        }
        if self.reached(target) && (smallest == target || !ring_joined(level, occupied, target)) {
            return None;
        }
        Some(smallest.min(from))
    }
}

/// The player's region after a pull, told from the region before (`Flood::after_pull`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pulled {
    /// The region's smallest square.
    pub smallest: usize,
    /// Whether the region holds the square the box left; it holds the squares of the
    /// region before but the box's new one.
    pub holds_left: bool,
}

impl Pulled {
    /// Whether the region holds `c`, given the region before in `before` and the pull
    /// of the box from `left` to `to`.
    pub fn reached(&self, before: &Flood, (left, to): (usize, usize), c: usize) -> bool {
        match c == left {
            true => self.holds_left,
            false => c != to && before.reached(c),
        }
    }
}

impl Flood {
    /// The player's region after the pull of the box on `from` to `to`, the square the
    /// player stood on, the player stepping back to `back` (`occupied` already
    /// updated), from this flood's last fill (the region before, whose smallest square
    /// is `smallest`): `Ok` when it is told without a fill of the whole region, else
    /// `Err` with its smallest square, the region filled into `scratch`.
    ///
    /// `from` joins the region when the player reaches one of its other neighbours.
    /// When it does and it also touches free squares the region did not hold, areas
    /// merge: a fill. Otherwise the region before loses `to`, and gains `from` when
    /// that joins. Losing `to` keeps it in one piece when `to` was a dead end of it (its
    /// one neighbour in the region the square the player steps back to: pulls along a
    /// corridor, a third of all pulls on XSokoban 85, where the ring test of
    /// `after_push` sees the box's old square on the other side and gives up), when the
    /// squares around `to` join (`ring_joined`), or else when a search from `back`
    /// meets every other square of the region next to `to` (`scratch.meets`): it stops
    /// there, usually a few squares away round a pillar, and only a cut walks the whole
    /// part the player is left in, which is the fill needed anyway. The smallest square
    /// is known unless it was `to`.
    pub fn after_pull(
        &self,
        scratch: &mut Flood,
        level: &Level,
        occupied: &[bool],
        (from, to): (usize, usize),
        back: usize,
        smallest: usize,
    ) -> Result<Pulled, usize> {
        let free_around = |c: usize| {
            Dir::ALL
                .into_iter()
                .filter_map(move |d| level.neighbour(c, d))
                .filter(|&n| !occupied[n])
        };
        let holds_left = free_around(from).any(|n| self.reached(n));
        if smallest == to || holds_left && free_around(from).any(|n| !self.reached(n)) {
            return Err(scratch.fill(level, occupied, back));
        }
        let told = Pulled {
            smallest: match holds_left {
                true => smallest.min(from),
                false => smallest,
            },
            holds_left,
        };
        // `from` is free now and the player on the square behind `to`, both next to it.
        let dead_end = free_around(to).count() == 2;
        if dead_end || ring_joined(level, occupied, to) {
            return Ok(told);
        }
        let mut others = [0; 4];
        let mut count = 0;
        for n in free_around(to).filter(|&n| n != from && n != back) {
            others[count] = n;
            count += 1;
        }
        match scratch.meets(level, occupied, back, &others[..count]) {
            None => Ok(told),
            Some(smallest) => Err(smallest),
        }
    }

    /// Searches from `from` around the `occupied` squares, breadth first, until it has
    /// met every square of `others`: `None` then (this flood's marks are a part of the
    /// area only), else, when the area ends first, its smallest square (this flood
    /// holds the whole area, as after `fill`).
    fn meets(
        &mut self,
        level: &Level,
        occupied: &[bool],
        from: usize,
        others: &[usize],
    ) -> Option<usize> {
        self.current += 1;
        self.stamp[from] = self.current;
        self.stack.clear();
        self.stack.push(from);
        let mut unmet = others.len();
        let mut smallest = from;
        let mut next = 0;
        while let Some(&c) = self.stack.get(next) {
            next += 1;
            smallest = smallest.min(c);
            for d in Dir::ALL {
                if let Some(n) = level.neighbour(c, d) {
                    if self.stamp[n] != self.current && !occupied[n] {
                        self.stamp[n] = self.current;
                        self.stack.push(n);
                        if others.contains(&n) {
                            unmet -= 1;
                            if unmet == 0 {
                                return None;
                            }
                        }
                    }
                }
            }
        }
        Some(smallest)
    }
}

/// Whether the free squares next to `cell` (not diagonally) all lie in one run of free
/// squares around it (diagonal squares included), so that `cell` joins nothing they
/// do not join without it.
fn ring_joined(level: &Level, occupied: &[bool], cell: usize) -> bool {
    let free = |c: Option<usize>| c.is_some_and(|c| !occupied[c]);
    // Around `cell` in order: a side, the corner after it, the next side, ...
    // (`Dir::ALL` goes round: left, up, right, down).
    let mut ring = [false; 8];
    for (k, &d) in Dir::ALL.iter().enumerate() {
        let next = Dir::ALL[(k + 1) % 4];
        let side = level.neighbour(cell, d);
        let corner = side.and_then(|s| level.neighbour(s, next)).or_else(|| {
            level
                .neighbour(cell, next)
                .and_then(|s| level.neighbour(s, d))
        });
        ring[2 * k] = free(side);
        ring[2 * k + 1] = free(corner);
    }
    if ring.iter().all(|&f| f) {
        return true;
    }
    let mut runs_with_a_side = 0;
    for start in (0..8).filter(|&i| ring[i] && !ring[(i + 7) % 8]) {
        let mut i = start;
        let mut has_side = false;
        while ring[i] {
            has_side |= i % 2 == 0;
            i = (i + 1) % 8;
        }
        runs_with_a_side += usize::from(has_side);
    }
    runs_with_a_side <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::parse::{parse_levels, LevelFormat};

    /// A room with pillars, corridors and pockets, so that boxes cut regions often.
    const ROOM: &str = "\
#########
# #@#   #
# # # ###
#       #
### # ###
#   #   #
# #   # #
#     $.#
#########
";

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as usize % n
        }
    }

    #[test]
    fn the_squares_a_fill_walks_to_are_the_neighbours_of_every_direction() {
        let text = std::fs::read_to_string("examples/sokoban/levels/xsokoban.xsb").unwrap();
        let mut cells = 0;
        for entry in parse_levels(&text, LevelFormat::Auto, None).unwrap() {
            let level = entry.level;
            for c in 0..level.num_cells() {
                let mut walked: Vec<usize> =
                    level.adjacent(c).iter().map(|&n| n as usize).collect();
                walked.sort_unstable();
                let mut around: Vec<usize> = Dir::ALL
                    .iter()
                    .filter_map(|&d| level.neighbour(c, d))
                    .collect();
                around.sort_unstable();
                assert_eq!(walked, around, "cell {c}");
                cells += 1;
            }
        }
        assert!(cells > 10_000, "{cells}");
    }

    #[test]
    fn a_region_told_after_a_push_a_box_move_or_a_pull_is_the_one_a_fill_finds() {
        let level = parse_levels(ROOM, LevelFormat::Auto, Some(1))
            .unwrap()
            .remove(0)
            .level;
        let n = level.num_cells();
        let (mut before, mut after) = (Flood::new(n), Flood::new(n));
        let mut rng = Rng(7);
        let mut told = [0usize; 3];
        // Pulls told by `after_pull`: also by `after_push`, and not.
        let mut told_pulls = [0usize; 2];
        let mut filled_pulls = 0;
        let mut scratch = Flood::new(n);
        for _ in 0..100_000 {
            let mut occupied = vec![false; n];
            for _ in 0..1 + rng.below(6) {
                occupied[rng.below(n)] = true;
            }
            let free: Vec<usize> = (0..n).filter(|&c| !occupied[c]).collect();
            let boxes: Vec<usize> = (0..n).filter(|&c| occupied[c]).collect();
            let player = free[rng.below(free.len())];
            let smallest = before.fill(&level, &occupied, player);
            let b = boxes[rng.below(boxes.len())];
            let dir = Dir::ALL[rng.below(4)];
            let kind = rng.below(3);
            // (the box's squares before each push or the pull, its target, the
            // player's square at the end)
            let mut squares = vec![b];
            let (target, player_after) = match kind {
                // Pushes in `dir` (one, or several along squares of the old region).
                0 | 1 => {
                    let Some((behind, mut to)) = level.push_squares(b, dir) else {
                        continue;
                    };
                    if !before.reached(behind) || occupied[to] {
                        continue;
                    }
                    let steps = if kind == 0 { 1 } else { 1 + rng.below(4) };
                    for _ in 1..steps {
                        match level.neighbour(to, dir) {
                            Some(next) if !occupied[next] && before.reached(next) => {
                                squares.push(to);
                                to = next;
                            }
                            _ => break,
                        }
                    }
                    (to, *squares.last().unwrap())
                }
                // A pull towards the player on `to`, who steps back to `back`.
                _ => {
                    let Some(to) = level.neighbour(b, dir) else {
                        continue;
                    };
                    let Some(back) = level.neighbour(to, dir) else {
                        continue;
                    };
                    if occupied[to] || occupied[back] || !before.reached(to) {
                        continue;
                    }
                    (to, back)
                }
            };
            // Only the moves the callers ask about: every square on the way in the old
            // region (the first is the box's own).
            if !squares[1..].iter().all(|&s| before.reached(s)) {
                continue;
            }
            occupied[b] = false;
            occupied[target] = true;
            let truth = after.fill(&level, &occupied, player_after);
            let pushed = before.after_push(&level, &occupied, b, target, smallest);
            if let Some(s) = pushed {
                assert_eq!(
                    s, truth,
                    "kind {kind}, box {b} to {target}, occupied {occupied:?}"
                );
                told[kind] += 1;
            }
            if kind == 2 {
                let pulled = before.after_pull(
                    &mut scratch,
                    &level,
                    &occupied,
                    (b, target),
                    player_after,
                    smallest,
                );
                let (s, reached) = match pulled {
                    Ok(pulled) => {
                        told_pulls[usize::from(pushed.is_none())] += 1;
                        let reached: Vec<bool> = (0..n)
                            .map(|c| pulled.reached(&before, (b, target), c))
                            .collect();
                        (pulled.smallest, reached)
                    }
                    Err(s) => {
                        filled_pulls += 1;
                        (s, (0..n).map(|c| scratch.reached(c)).collect())
                    }
                };
                assert_eq!(s, truth, "pull of {b} to {target}");
                for (c, &reached) in reached.iter().enumerate() {
                    assert_eq!(
                        reached,
                        after.reached(c) && !occupied[c],
                        "square {c} after the pull of {b} to {target}, {occupied:?}"
                    );
                }
            }
        }
        // Each kind was told often enough for the comparison to mean something, and
        // pulls `after_push` could not tell too.
        assert!(told.iter().all(|&t| t > 300), "{told:?}");
        assert!(told_pulls.iter().all(|&t| t > 300), "{told_pulls:?}");
        assert!(filled_pulls > 300, "{filled_pulls}");
    }
}
