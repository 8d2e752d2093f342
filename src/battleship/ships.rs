//! The ships a board shows. No two ships touch, not even at a corner, so every straight
//! run of ship cells is one ship, and the first of its cells in row-major order is its
//! upper-left end. A board that is no fleet at all (a bent run, a run longer than any
//! ship, ships touching) still reads as runs; the rule checker then rejects it.

use gridsat_encodings::battleship::{Orientation, Placement};
use gridsat_encodings::grid::Cell;

/// The runs of ship cells of a `rows x cols` board (row-major, `true` = ship), in the
/// order of their upper-left cells.
pub fn ships_of(rows: usize, cols: usize, cells: &[bool]) -> Vec<Placement> {
    let mut taken = vec![false; rows * cols];
    let mut ships = Vec::new();
    for row in 0..rows {
        for col in 0..cols {
            let at = |r: usize, c: usize| r < rows && c < cols && cells[r * cols + c];
            if !at(row, col) || taken[row * cols + col] {
                continue;
            }
            let orientation = if !at(row, col + 1) && at(row + 1, col) {
                Orientation::Vertical
            } else {
                Orientation::Horizontal
            };
            let step = |k: usize| match orientation {
                Orientation::Horizontal => (row, col + k),
                Orientation::Vertical => (row + k, col),
            };
            let mut length = 0;
            loop {
                let (r, c) = step(length);
                if !at(r, c) || taken[r * cols + c] {
                    break;
                }
                taken[r * cols + c] = true;
                length += 1;
            }
            ships.push(Placement {
                top_left: Cell::new(row, col),
                length,
                orientation,
            });
        }
    }
    ships
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> (usize, usize, Vec<bool>) {
        let cells = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '#'))
            .collect();
        (rows.len(), rows[0].len(), cells)
    }

    #[test]
    fn runs_become_ships_in_row_major_order() {
        let (r, c, cells) = board(&["###.#", ".....", ".#.#.", "...#."]);
        let ships = ships_of(r, c, &cells);
        let h = Orientation::Horizontal;
        let v = Orientation::Vertical;
        let want = [(0, 0, 3, h), (0, 4, 1, h), (2, 1, 1, h), (2, 3, 2, v)];
        assert_eq!(ships.len(), want.len());
        for (ship, (row, col, length, orientation)) in ships.iter().zip(want) {
            assert_eq!(ship.top_left, Cell::new(row, col));
            assert_eq!((ship.length, ship.orientation), (length, orientation));
        }
    }

    #[test]
    fn a_bent_run_reads_as_two_runs_that_touch() {
        let (r, c, cells) = board(&["##", ".#"]);
        let ships = ships_of(r, c, &cells);
        assert_eq!(ships.len(), 2);
        assert_eq!(ships[1].top_left, Cell::new(1, 1));
    }
}
