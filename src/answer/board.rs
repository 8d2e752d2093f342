//! What a puzzle whose solutions are boards tells the answer layer: its CNF, how to read
//! and check a solution off the cells, and how to draw it. Everything else (the five
//! modes, their text and JSON, time limits) is written once, in this module's siblings.

use super::svg;
use crate::cli::Format;
use crate::error::InternalError;
use crate::limits::Budget;
use gridsat_encodings::cnf::{Cnf, Lit};

/// A grid puzzle answered by SAT whose solution is a board.
///
/// The contract: the projection of `cnf()` is the board's cells in row-major order
/// (`rows * cols` variables), true where the puzzle places something (a star, a ship
/// part). Two solutions are the same when their cells are; solutions are listed in
/// row-major order of the cells, a placed cell before an empty one.
pub trait BoardPuzzle: Send + Sync + 'static {
    /// A solution in the puzzle's own terms (stars, ships).
    type Solution;

    /// The formula; its projection is the cell grid (see the trait's contract).
    fn cnf(&self) -> &Cnf;

    /// Rows and columns of the board.
    fn size(&self) -> (usize, usize);

    /// The solution these cells show. Cells that show none (a bent ship) are a bug in
    /// the encoding (`InternalError`).
    fn read(&self, cells: &[bool]) -> Result<Self::Solution, InternalError>;

    /// The puzzle's independent rule checker (it shares no code with the encoding): a
    /// solution it rejects is a bug (`InternalError`). Every board is checked before it
    /// joins an answer.
    fn check(&self, solution: &Self::Solution) -> Result<(), InternalError>;

    /// A clause that excludes the board of the model `values` and no other board, for
    /// listings by blocking clauses; `None` (the default) blocks on the cells. A puzzle
    /// whose solutions are fixed by fewer variables than cells says so here (a
    /// Battleship board by its ships).
    fn blocking_clause(&self, _values: &[bool]) -> Option<Vec<Lit>> {
        None
    }

    /// Lines printed above the board (Battleship's ship list); none by default.
    fn notes(&self, _solution: &Self::Solution) -> Vec<String> {
        Vec::new()
    }

    /// The board, one string per row.
    fn board(&self, solution: &Self::Solution) -> Vec<String>;

    /// The board of `--determined`: per cell `Some(placed)` when every solution agrees,
    /// `None` where they differ.
    fn determined_board(&self, cells: &[Option<bool>]) -> Vec<String>;

    /// What a placed and an empty cell are called in the `--determined` summary and its
    /// JSON keys: `["stars", "empty"]`, `["ship", "water"]`.
    fn cell_words(&self) -> [&'static str; 2];

    /// The puzzle as JSON (its size and rules), at the head of every JSON answer.
    fn puzzle_json(&self) -> serde_json::Value;

    /// A solution as JSON.
    fn solution_json(&self, solution: &Self::Solution) -> serde_json::Value;

    /// Paints the board on `board` (already sized, with its grid, and the undecided and
    /// highlighted cells coloured): `cells[i]` is `Some(placed)` for a cell whose value
    /// is known, `None` for one that is not (`--determined`). The default draws a placed
    /// cell as a filled square; a puzzle draws its own marks (stars, ships, zones, sums).
    fn paint(&self, board: &mut svg::Board, cells: &[Option<bool>]) {
        let (_, cols) = self.size();
        for (i, cell) in cells.iter().enumerate() {
            if *cell == Some(true) {
                let (x, y) = board.corner(i / cols, i % cols);
                let inset = svg::CELL * 0.15;
                board.layer.rect(
                    x + inset,
                    y + inset,
                    svg::CELL - 2.0 * inset,
                    svg::CELL - 2.0 * inset,
                    svg::colour::PLACED,
                );
            }
        }
    }

    /// The puzzle's rules and clues that `--repair` may leave out to find which of them
    /// conflict when there is no solution, in the puzzle's words ("row 3: 2 ship cells");
    /// none by default.
    fn rules(&self) -> Vec<String> {
        Vec::new()
    }

    /// Whether the puzzle has a solution when it keeps only the rules `kept[i]` of
    /// `rules()`.
    fn solvable_with(&self, _kept: &[bool]) -> anyhow::Result<bool> {
        Ok(true)
    }

    /// Changes that would make the puzzle unique, `witness` being one of its solutions,
    /// smallest first; the answer layer counts the solutions of each again before it
    /// reports it. None by default.
    fn repairs(&self, _witness: &[bool], _budget: &Budget) -> anyhow::Result<Vec<Proposal<Self>>>
    where
        Self: Sized,
    {
        Ok(Vec::new())
    }

    /// The puzzle itself as `format` asks (`Url`, `Course`, `Grid`: see `Format`), with
    /// its final newline; an error says why it cannot be written so.
    fn write_puzzle(&self, format: Format) -> Result<String, String> {
        Err(format!("this puzzle has no {format:?} form"))
    }
}

/// The cells of a model: the projection's values, in order.
pub fn cells_of(cnf: &Cnf, values: &[bool]) -> Vec<bool> {
    cnf.projection().iter().map(|v| values[v.index()]).collect()
}

/// Checks the trait's contract on a puzzle's formula.
pub fn check_projection<P: BoardPuzzle + ?Sized>(puzzle: &P) -> Result<(), InternalError> {
    let (rows, cols) = puzzle.size();
    let projected = puzzle.cnf().projection().len();
    if projected != rows * cols {
        return Err(InternalError::new(format!(
            "the formula projects {projected} variables, but the board has {rows} x {cols} cells"
        )));
    }
    Ok(())
}

/// The cells where two boards differ, as `[row, col]`, row-major.
pub fn differing_cells(cols: usize, a: &[bool], b: &[bool]) -> Vec<[usize; 2]> {
    a.iter()
        .zip(b)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, _)| [i / cols, i % cols])
        .collect()
}

/// A change to a puzzle that the puzzle proposes for `--repair`, before it is checked
/// (`answer::repair` counts the solutions of every proposal again).
pub struct Proposal<P> {
    /// The changes, in the puzzle's own words ("constraint 0 2 <").
    pub changes: Vec<String>,
    /// The puzzle with the changes made.
    pub puzzle: P,
}
