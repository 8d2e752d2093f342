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
}
