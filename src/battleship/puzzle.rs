//! Battleship as a board puzzle of the answer layer: the puzzle, its CNF, and how its
//! boards read (ships from ship cells), check and draw.

use super::check::check;
use super::draw::{board_lines, board_symbols, json_solution, ship_line};
use super::file::course_file;
use super::repair;
use super::ships::ships_of;
use super::url::write_url;
use crate::answer::Proposal;
use crate::answer::{svg, BoardPuzzle};
use crate::cli::Format;
use crate::error::InternalError;
use crate::limits::Budget;
use crate::solver::Session;
use gridsat_encodings::battleship::{
    encode, fleet_counter_bound, pairwise_sum_clauses, Encoded, FleetShip, Options, Orientation,
    Placement, Puzzle,
};
use gridsat_encodings::cnf::{Cnf, Lit};
use gridsat_encodings::CardEncoding;
use serde_json::json;

/// The largest `fleet_counter_bound` accepted: a 10x10 puzzle with 10 ships needs 14,300;
/// near this bound (a 40x40 board, 30 ships: 645,000) gridsat takes about 320 MB.
pub const MAX_FLEET_COUNTER_BOUND: u128 = 1_000_000;

/// The most clauses `--card pairwise` may build for the sums (about 100 MB of clauses).
pub const MAX_PAIRWISE_CLAUSES: u128 = 10_000_000;

/// A puzzle and its formula.
#[derive(Clone, Debug)]
pub struct Battleship {
    pub puzzle: Puzzle,
    pub card: CardEncoding,
    encoded: Encoded,
}

/// A solution: the ships, in the order of their upper-left cells.
pub type Ships = Vec<Placement>;

impl Battleship {
    /// Encodes `puzzle`, unless its encoding would be too large to hold (the message
    /// says why).
    pub fn new(puzzle: Puzzle, card: CardEncoding) -> Result<Battleship, String> {
        let bound = fleet_counter_bound(&puzzle);
        if bound > MAX_FLEET_COUNTER_BOUND {
            return Err(format!(
                "a {}x{} board with {} ships is too large for gridsat's encoding (the fleet \
                 counters could take up to {bound} variables; the limit is {MAX_FLEET_COUNTER_BOUND})",
                puzzle.rows,
                puzzle.cols,
                puzzle.fleet.len()
            ));
        }
        if card == CardEncoding::Pairwise {
            let clauses = pairwise_sum_clauses(&puzzle);
            if clauses > MAX_PAIRWISE_CLAUSES {
                let size = if clauses == u128::MAX {
                    "more than 2^128".to_string()
                } else {
                    clauses.to_string()
                };
                return Err(format!(
                    "the pairwise encoding of these sums needs {size} clauses (over \
                     {MAX_PAIRWISE_CLAUSES}); choose another --card"
                ));
            }
        }
        let encoded = encode(&puzzle, &Options { card });
        Ok(Battleship {
            puzzle,
            card,
            encoded,
        })
    }

    pub fn encoded(&self) -> &Encoded {
        &self.encoded
    }

    /// The symbols of a board of ships (see `draw::board_symbols`).
    fn symbols(&self, ships: &Ships) -> Vec<char> {
        board_symbols(&self.puzzle, ships)
    }
}

impl BoardPuzzle for Battleship {
    type Solution = Ships;

    fn cnf(&self) -> &Cnf {
        &self.encoded.cnf
    }

    fn size(&self) -> (usize, usize) {
        (self.puzzle.rows, self.puzzle.cols)
    }

    fn read(&self, cells: &[bool]) -> Result<Ships, InternalError> {
        Ok(ships_of(self.puzzle.rows, self.puzzle.cols, cells))
    }

    fn check(&self, ships: &Ships) -> Result<(), InternalError> {
        check(&self.puzzle, ships).map_err(|violation| {
            InternalError::new(format!("the rule checker rejected a solution: {violation}"))
        })
    }

    /// "Not all of these ships": every solution places exactly the fleet, so a board
    /// that keeps all of this one's placements is this board. One literal per ship (10
    /// for puzzle10) where blocking on the cells takes one per cell (100), and the
    /// solver's work per solution grows with the blocking clauses it carries: listing
    /// puzzle10 this way took 2.3 s of CPU, against 5.8 s blocking on the cells.
    fn blocking_clause(&self, values: &[bool]) -> Option<Vec<Lit>> {
        Some(
            self.encoded
                .placements
                .iter()
                .filter(|(_, lit)| lit.eval(values))
                .map(|&(_, lit)| !lit)
                .collect(),
        )
    }

    fn notes(&self, ships: &Ships) -> Vec<String> {
        ships.iter().map(ship_line).collect()
    }

    fn board(&self, ships: &Ships) -> Vec<String> {
        board_lines(&self.puzzle, &self.symbols(ships))
    }

    fn determined_board(&self, cells: &[Option<bool>]) -> Vec<String> {
        let symbols: Vec<char> = cells
            .iter()
            .map(|f| match f {
                Some(true) => '#',
                Some(false) => '.',
                None => '?',
            })
            .collect();
        board_lines(&self.puzzle, &symbols)
    }

    fn cell_words(&self) -> [&'static str; 2] {
        ["ship", "water"]
    }

    fn puzzle_json(&self) -> serde_json::Value {
        let fleet: Vec<&str> = self
            .puzzle
            .fleet
            .iter()
            .map(|ship| match ship {
                FleetShip::Known(t) => t.name(),
                FleetShip::Unknown => "unknown",
            })
            .collect();
        json!({
            "rows": self.puzzle.rows,
            "cols": self.puzzle.cols,
            "row_sums": self.puzzle.row_sums,
            "col_sums": self.puzzle.col_sums,
            "fleet": fleet,
        })
    }

    fn solution_json(&self, ships: &Ships) -> serde_json::Value {
        json!(json_solution(&self.puzzle, ships))
    }

    /// Ships as rounded bars (a submarine a disc), water pale, the sums beside and below
    /// the grid, hints framed in grey; when the ships are not known (`--determined`), a
    /// ship cell is a square and an undecided one `?`.
    fn paint(&self, board: &mut svg::Board, cells: &[Option<bool>]) {
        use svg::{colour, CELL};
        let (rows, cols) = (self.puzzle.rows, self.puzzle.cols);
        board.extra_right = 1.0;
        board.extra_below = 1.0;
        for (i, cell) in cells.iter().enumerate() {
            let (r, c) = (i / cols, i % cols);
            match cell {
                Some(false) => {
                    let (x, y) = board.corner(r, c);
                    board
                        .layer
                        .rect(x + 1.0, y + 1.0, CELL - 2.0, CELL - 2.0, colour::EMPTY);
                }
                Some(true) => {}
                None => board.label(r, c, colour::INK, "?"),
            }
        }
        let known: Option<Vec<bool>> = cells.iter().copied().collect();
        match known {
            Some(known) => {
                for ship in ships_of(rows, cols, &known) {
                    let (x, y) = board.corner(ship.top_left.row, ship.top_left.col);
                    let inset = CELL * 0.12;
                    let (w, h) = match ship.orientation {
                        Orientation::Horizontal => (ship.length as f64 * CELL, CELL),
                        Orientation::Vertical => (CELL, ship.length as f64 * CELL),
                    };
                    let (w, h) = (w - 2.0 * inset, h - 2.0 * inset);
                    board
                        .layer
                        .rounded(x + inset, y + inset, w, h, CELL * 0.38, colour::PLACED);
                }
            }
            None => {
                for (i, cell) in cells.iter().enumerate() {
                    if *cell == Some(true) {
                        let (x, y) = board.corner(i / cols, i % cols);
                        let inset = CELL * 0.15;
                        board.layer.rect(
                            x + inset,
                            y + inset,
                            CELL - 2.0 * inset,
                            CELL - 2.0 * inset,
                            colour::PLACED,
                        );
                    }
                }
            }
        }
        for hint in &self.puzzle.hints {
            let (x, y) = board.corner(hint.cell.row, hint.cell.col);
            board
                .layer
                .outline(x + 3.0, y + 3.0, CELL - 6.0, CELL - 6.0, colour::HINT, 2.0);
        }
        let sum = |s: &Option<usize>| s.map_or("?".to_string(), |n| n.to_string());
        for (r, s) in self.puzzle.row_sums.iter().enumerate() {
            board.label(r, cols, colour::INK, &sum(s));
        }
        for (c, s) in self.puzzle.col_sums.iter().enumerate() {
            board.label(rows, c, colour::INK, &sum(s));
        }
    }

    fn rules(&self) -> Vec<String> {
        repair::rules(&self.puzzle)
    }

    fn solvable_with(&self, kept: &[bool]) -> anyhow::Result<bool> {
        let relaxed = Battleship::new(repair::keeping(&self.puzzle, kept), self.card)
            .map_err(anyhow::Error::msg)?;
        Ok(Session::new(relaxed.cnf()).solve()?.is_some())
    }

    fn repairs(&self, witness: &[bool], budget: &Budget) -> anyhow::Result<Vec<Proposal<Self>>> {
        let build = |hinted| Battleship::new(hinted, self.card).map_err(anyhow::Error::msg);
        Ok(repair::fewest_hints(&self.puzzle, witness, budget, build)?
            .into_iter()
            .collect())
    }

    fn write_puzzle(&self, format: Format) -> Result<String, String> {
        match format {
            Format::Url => write_url(&self.puzzle).map(|url| url + "\n"),
            Format::Course => Ok(course_file(&self.puzzle)),
            other => Err(format!(
                "Battleship has no --format {} form",
                format!("{other:?}").to_lowercase()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::board::cells_of;
    use crate::battleship::parse::parse_puzzle;
    use crate::solver::Session;

    const SAMPLE: &str = "board 4 5\nrows 4 0 2 1\ncols 1 2 1 2 1\ncruiser\ndestroyer\n\
                          submarine\nsubmarine\n";

    /// A doctored board is refused as an internal error by the rule checker.
    #[test]
    fn bad_boards_are_rejected() {
        let puzzle =
            Battleship::new(parse_puzzle(SAMPLE).unwrap(), CardEncoding::default()).unwrap();
        let values = Session::new(puzzle.cnf()).solve().unwrap().unwrap();
        let cells = cells_of(puzzle.cnf(), &values);
        let good = puzzle.read(&cells).unwrap();
        assert!(puzzle.check(&good).is_ok());
        assert_eq!(good.len(), 4);

        // A cell flipped: a sum breaks (and a ship is cut or grown).
        for i in 0..cells.len() {
            let mut bad = cells.clone();
            bad[i] = !bad[i];
            let ships = puzzle.read(&bad).unwrap();
            let err = puzzle.check(&ships).unwrap_err();
            assert!(err.to_string().contains("rule checker rejected"), "{err}");
        }
    }
}
