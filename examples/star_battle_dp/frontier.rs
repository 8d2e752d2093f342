//! Star Battle counted row by row: a dynamic program over the board's frontier, written
//! apart from the counting engine (no CNF, no solver) so that it can check the engine's
//! counts on boards too large for brute force.
//!
//! The board is filled one row at a time. What the rows still to come need to know of
//! the rows already filled is the *frontier state*:
//! - the stars of the last filled row (a star forbids the three cells below it);
//! - the stars each column holds so far (0..=S);
//! - the stars each zone holds so far (0..=S).
//!
//! Two partial boards with the same state have the same completions, so the DP keeps,
//! per state, the number of partial boards that reach it, and extends every state by
//! every row pattern that fits (no two stars side by side in the row, none touching the
//! last row's, no line or zone past S). At the end, the states whose columns and zones
//! are complete count. A state is dropped as soon as it cannot be completed:
//! - a zone whose last row is filled must hold exactly S;
//! - a zone that needs more stars than it has cells left is dead;
//! - under the exact rule, a column that needs more stars than the rows left can hold
//!   (no two stars one above the other: at most `ceil(k / 2)` in `k` rows, `floor(k / 2)`
//!   when the last row has a star in that column) is dead.
//!
//! Dropping a state that has no completion removes no board, so the count is exact.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A board: `rows` x `cols` cells, each in one of `zones` zones (row-major `zone_of`).
#[derive(Clone, Debug)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub zone_of: Vec<usize>,
    pub zones: usize,
}

/// How many stars a row and a column hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    AtMost,
    Exact,
}

/// What the DP did: the count, and the largest number of frontier states it held.
#[derive(Clone, Copy, Debug)]
pub struct Counted {
    pub count: u128,
    pub max_states: usize,
    pub transitions: u64,
}

/// Why a board cannot be counted this way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Row patterns are enumerated as bit masks of a `u32`.
    TooWide(usize),
    /// The frontier state must fit in 128 bits.
    StateTooLarge { bits: usize },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::TooWide(cols) => write!(f, "{cols} columns: at most 24"),
            Refusal::StateTooLarge { bits } => {
                write!(f, "a frontier state of {bits} bits: at most 128")
            }
        }
    }
}

/// The packing of a frontier state into a `u128`: the last row's stars (`cols` bits),
/// then each column's count, then each zone's count (`width` bits each).
struct Layout {
    cols: usize,
    width: u32,
    mask: u128,
}

impl Layout {
    fn col_shift(&self, col: usize) -> u32 {
        self.cols as u32 + col as u32 * self.width
    }

    fn zone_shift(&self, zone: usize) -> u32 {
        self.cols as u32 + (self.cols + zone) as u32 * self.width
    }

    fn get(&self, state: u128, shift: u32) -> u32 {
        ((state >> shift) & self.mask) as u32
    }
}

/// The number of star placements on `board` with `stars` per zone (exactly) and per row
/// and column (`lines`), with no two stars touching, even diagonally.
pub fn count(board: &Board, stars: usize, lines: Lines) -> Result<Counted, Refusal> {
    let (rows, cols) = (board.rows, board.cols);
    if cols > 24 {
        return Err(Refusal::TooWide(cols));
    }
    let width = usize::BITS - stars.leading_zeros();
    let bits = cols + (cols + board.zones) * width as usize;
    if bits > 128 {
        return Err(Refusal::StateTooLarge { bits });
    }
    let layout = Layout {
        cols,
        width,
        mask: (1u128 << width) - 1,
    };
    let s = stars as u32;
    // Per zone: its last row, and per row the cells it still has below that row.
    let mut last_row = vec![None; board.zones];
    let mut cells_below = vec![vec![0u32; board.zones]; rows];
    for (cell, &zone) in board.zone_of.iter().enumerate() {
        let row = cell / cols;
        last_row[zone] = Some(last_row[zone].map_or(row, |r: usize| r.max(row)));
        for below in cells_below.iter_mut().take(row) {
            below[zone] += 1;
        }
    }
    // Zones without cells can never hold S stars (unless S = 0).
    if s > 0 && last_row.iter().any(Option::is_none) {
        return Ok(Counted {
            count: 0,
            max_states: 0,
            transitions: 0,
        });
    }
    let patterns: Vec<u32> = (0u32..1 << cols)
        .filter(|&p| p & (p >> 1) == 0)
        .filter(|p| match lines {
            Lines::AtMost => p.count_ones() <= s,
            Lines::Exact => p.count_ones() == s,
        })
        .collect();

    let mut states: Map = Map::default();
    states.insert(0, 1);
    let mut max_states = 1;
    let mut transitions = 0u64;
    for (row, below) in cells_below.iter().enumerate() {
        let mut next: Map = Map::default();
        let zone_row = &board.zone_of[row * cols..(row + 1) * cols];
        let rows_left = (rows - 1 - row) as u32;
        for (&state, &ways) in &states {
            let last = (state & ((1u128 << cols) - 1)) as u32;
            let blocked = last | last << 1 | last >> 1;
            'pattern: for &pattern in &patterns {
                if pattern & blocked != 0 {
                    continue;
                }
                transitions += 1;
                let mut nstate = state >> cols << cols | u128::from(pattern);
                let mut bits = pattern;
                while bits != 0 {
                    let col = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let shift = layout.col_shift(col);
                    if layout.get(nstate, shift) == s {
                        continue 'pattern;
                    }
                    nstate += 1 << shift;
                    let zone = zone_row[col];
                    let shift = layout.zone_shift(zone);
                    if layout.get(nstate, shift) == s {
                        continue 'pattern;
                    }
                    nstate += 1 << shift;
                }
                if !completable(&layout, board, nstate, row, &last_row, below, s) {
                    continue;
                }
                if lines == Lines::Exact {
                    for col in 0..cols {
                        let need = s - layout.get(nstate, layout.col_shift(col));
                        let room = if pattern >> col & 1 == 1 {
                            rows_left / 2
                        } else {
                            rows_left.div_ceil(2)
                        };
                        if need > room {
                            continue 'pattern;
                        }
                    }
                }
                let slot = next.entry(nstate).or_insert(0);
                *slot = slot.checked_add(ways).expect("more than 2^128 boards");
            }
        }
        max_states = max_states.max(next.len());
        states = next;
    }
    // Every zone was checked at its last row; columns must be complete under the exact
    // rule (the check above leaves no room for a missing star after the last row).
    let count = states
        .values()
        .try_fold(0u128, |sum, &ways| sum.checked_add(ways))
        .expect("more than 2^128 boards");
    Ok(Counted {
        count,
        max_states,
        transitions,
    })
}

/// Whether the zones of `state`, after `row` is filled, can still reach S: a zone whose
/// last row is `row` holds exactly S, the others need no more than the cells they have
/// below.
fn completable(
    layout: &Layout,
    board: &Board,
    state: u128,
    row: usize,
    last_row: &[Option<usize>],
    cells_below: &[u32],
    s: u32,
) -> bool {
    (0..board.zones).all(|zone| {
        let held = layout.get(state, layout.zone_shift(zone));
        match last_row[zone] {
            Some(last) if last == row => held == s,
            Some(last) if last < row => true,
            _ => s - held <= cells_below[zone],
        }
    })
}

type Map = HashMap<u128, u128, BuildHasherDefault<StateHasher>>;

/// A multiplicative hash of the packed state (SipHash would dominate the profile).
#[derive(Default)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn write_u128(&mut self, x: u128) {
        let folded = (x as u64) ^ ((x >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (folded ^ (folded >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 ^= self.0 >> 32;
    }
}
