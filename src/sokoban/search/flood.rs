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
            for d in Dir::ALL {
                if let Some(n) = level.neighbour(c, d) {
                    if self.stamp[n] != self.current && !occupied[n] {
                        self.stamp[n] = self.current;
                        self.stack.push(n);
                    }
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
    /// `target` (`occupied` already updated), from this flood's last fill (the region
    /// before, whose smallest square is `smallest`), when it can be told without a new
    /// fill; `None` when it cannot. The box moves by one push, by pushes along squares
    /// of the old region (a macro move), or by a pull; the player ends on `from` or on a
    /// square of the old region other than `target`.
    ///
    /// `from` touches the old region through a free square (the player pushed or pulled
    /// from there). If every free square next to `from` was in the old region, no
    /// other area joins it. If `target` was outside the old region, nothing of it is
    /// lost: the region is the old one and `from`. If `target` was inside, the new box
    /// could cut the region in two; it does not when the free squares next to `target`
    /// are joined around it, through one run of free squares in its ring of eight (each
    /// ring square touches the next). Then the region is the old one less `target` plus
    /// `from`, and its smallest square is known unless `target` was the smallest.
    pub fn after_push(
        &self,
        level: &Level,
        occupied: &[bool],
        from: usize,
        target: usize,
        smallest: usize,
    ) -> Option<usize> {
        let mut touches_region = false;
        for d in Dir::ALL {
            if let Some(n) = level.neighbour(from, d).filter(|&n| !occupied[n]) {
                if !self.reached(n) {
                    // Another area joins.
                    return None;
                }
                touches_region = true;
            }
        }
        if !touches_region {
            return None;
        }
        if self.reached(target) && (smallest == target || !ring_joined(level, occupied, target)) {
            return None;
        }
        Some(smallest.min(from))
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
