//! An independent rule checker: given a puzzle and the ships of a claimed solution, says
//! whether every rule of the puzzle holds. It shares no code with the encoder; it works on
//! the board itself (which ship owns each cell), the way a person would check a solution.

use gridsat_encodings::battleship::{
    FleetShip, Orientation, Piece, Placement, Puzzle, MAX_SHIP_LENGTH,
};

/// The first rule a claimed solution breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Violation(pub String);

fn fail<T>(message: String) -> Result<T, Violation> {
    Err(Violation(message))
}

/// Checks every rule: ships on the board, none overlapping or touching (even at a
/// corner), row and column sums, the fleet, and every cell hint.
pub fn check(puzzle: &Puzzle, ships: &[Placement]) -> Result<(), Violation> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    // owner[r][c] = index of the ship on that cell (one flat row-major array: this
    // runs on every listed solution).
    let mut owner = Owners {
        cols,
        cells: vec![None; rows * cols],
    };
    for (index, ship) in ships.iter().enumerate() {
        if !(1..=MAX_SHIP_LENGTH).contains(&ship.length) {
            return fail(format!("ship {ship:?} has length {}", ship.length));
        }
        for k in 0..ship.length {
            let (r, c) = match ship.orientation {
                Orientation::Horizontal => (ship.top_left.row, ship.top_left.col + k),
                Orientation::Vertical => (ship.top_left.row + k, ship.top_left.col),
            };
            if r >= rows || c >= cols {
                return fail(format!("ship {ship:?} leaves the board"));
            }
            if let Some(other) = owner.at(r, c) {
                return fail(format!("ships {:?} and {ship:?} overlap", ships[other]));
            }
            owner.cells[r * cols + c] = Some(index);
        }
    }

    for r in 0..rows {
        for c in 0..cols {
            let Some(me) = owner.at(r, c) else { continue };
            for nr in r.saturating_sub(1)..=(r + 1).min(rows - 1) {
                for nc in c.saturating_sub(1)..=(c + 1).min(cols - 1) {
                    if let Some(other) = owner.at(nr, nc) {
                        if other != me {
                            return fail(format!(
                                "ships {:?} and {:?} touch at ({r}, {c}) and ({nr}, {nc})",
                                ships[me], ships[other]
                            ));
                        }
                    }
                }
            }
        }
    }

    for (r, sum) in puzzle.row_sums.iter().enumerate() {
        let count = (0..cols).filter(|&c| owner.at(r, c).is_some()).count();
        if let Some(sum) = *sum {
            if count != sum {
                return fail(format!("row {r} holds {count} ship cells, not {sum}"));
            }
        }
    }
    for (c, sum) in puzzle.col_sums.iter().enumerate() {
        let count = (0..rows).filter(|&r| owner.at(r, c).is_some()).count();
        if let Some(sum) = *sum {
            if count != sum {
                return fail(format!("column {c} holds {count} ship cells, not {sum}"));
            }
        }
    }

    // Fleet: every named ship is on the board; `unknown` ships account for the rest.
    let mut placed = [0usize; MAX_SHIP_LENGTH + 1];
    for ship in ships {
        placed[ship.length] += 1;
    }
    let mut named = [0usize; MAX_SHIP_LENGTH + 1];
    for ship in &puzzle.fleet {
        if let FleetShip::Known(t) = ship {
            named[t.length()] += 1;
        }
    }
    for length in 1..=MAX_SHIP_LENGTH {
        if placed[length] < named[length] {
            return fail(format!(
                "{} ship(s) of length {length} on the board, the fleet names {}",
                placed[length], named[length]
            ));
        }
    }
    if ships.len() != puzzle.fleet.len() {
        return fail(format!(
            "{} ships on the board, the fleet has {}",
            ships.len(),
            puzzle.fleet.len()
        ));
    }

    for hint in &puzzle.hints {
        let (r, c) = (hint.cell.row, hint.cell.col);
        let seen = match owner.at(r, c) {
            None => Piece::Water,
            Some(index) => piece_of(&ships[index], r, c),
        };
        if seen != hint.piece {
            return fail(format!(
                "cell ({r}, {c}) should be '{}' but is '{}'",
                hint.piece.symbol(),
                seen.symbol()
            ));
        }
    }
    Ok(())
}

/// The index of the ship on each cell, row-major.
struct Owners {
    cols: usize,
    cells: Vec<Option<usize>>,
}

impl Owners {
    fn at(&self, r: usize, c: usize) -> Option<usize> {
        self.cells[r * self.cols + c]
    }
}

/// Which part of `ship` the cell `(r, c)` (on the ship) is.
fn piece_of(ship: &Placement, r: usize, c: usize) -> Piece {
    if ship.length == 1 {
        return Piece::Submarine;
    }
    let offset = (r - ship.top_left.row) + (c - ship.top_left.col);
    let last = ship.length - 1;
    match (ship.orientation, offset) {
        (Orientation::Horizontal, 0) => Piece::LeftEnd,
        (Orientation::Horizontal, k) if k == last => Piece::RightEnd,
        (Orientation::Vertical, 0) => Piece::TopEnd,
        (Orientation::Vertical, k) if k == last => Piece::BottomEnd,
        _ => Piece::Middle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridsat_encodings::battleship::{Hint, ShipType};
    use gridsat_encodings::grid::Cell;

    fn ship(r: usize, c: usize, length: usize, orientation: Orientation) -> Placement {
        Placement {
            top_left: Cell::new(r, c),
            length,
            orientation,
        }
    }

    fn sample() -> Puzzle {
        use FleetShip::Known;
        Puzzle {
            rows: 4,
            cols: 5,
            row_sums: vec![Some(4), Some(0), Some(2), Some(1)],
            col_sums: vec![Some(1), Some(2), Some(1), Some(2), Some(1)],
            fleet: vec![
                Known(ShipType::Cruiser),
                Known(ShipType::Destroyer),
                Known(ShipType::Submarine),
                Known(ShipType::Submarine),
            ],
            hints: vec![],
        }
    }

    fn solution_a() -> Vec<Placement> {
        use Orientation::*;
        vec![
            ship(0, 0, 3, Horizontal),
            ship(0, 4, 1, Horizontal),
            ship(2, 1, 1, Horizontal),
            ship(2, 3, 2, Vertical),
        ]
    }

    #[test]
    fn accepts_the_seed_solution_and_rejects_broken_ones() {
        let puzzle = sample();
        assert_eq!(check(&puzzle, &solution_a()), Ok(()));

        let mut touching = solution_a();
        touching[1] = ship(1, 4, 1, Orientation::Horizontal);
        assert!(check(&puzzle, &touching).is_err());

        let mut short_fleet = solution_a();
        short_fleet.pop();
        assert!(check(&puzzle, &short_fleet).is_err());

        let mut hinted = puzzle.clone();
        hinted.hints.push(Hint {
            cell: Cell::new(0, 2),
            piece: Piece::LeftEnd,
        });
        let err = check(&hinted, &solution_a()).unwrap_err();
        assert!(err.0.contains("should be '<' but is '>'"), "{err}");
    }
}
