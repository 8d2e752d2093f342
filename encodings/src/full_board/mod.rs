//! Full Board (LightForce's rolling-ball puzzle): the board model and two CNF encodings
//! of a winning game.
//!
//! Rules, as the encodings state them: the ball starts on an open cell and makes moves;
//! a move rolls in one direction through at least one open, not yet visited cell and
//! stops where the next cell is an obstacle, the board's edge, or a visited cell. The
//! game is won when every open cell has been visited. A winning game is therefore a
//! Hamiltonian path of the open cells made of maximal straight runs.
//!
//! - [`segments`]: one layer of variables per move (where the move ends, which cells it
//!   covers); a horizon `K` is grown one layer at a time on one incremental solver.
//! - [`successor`]: one successor edge per cell and a visiting order (binary time
//!   stamps); no horizon, the number of moves is a cardinality bound over turn cells.
//! - [`lines`]: a lower bound on the moves (and a refutation) by covering the open
//!   cells with row and column segments.
//! - [`bounded`]: every game of at most `K` moves by a pruned exhaustive search, a
//!   proof that no shorter game exists where the line cover is tight.
//! - [`window`]: a relaxation of any game restricted to a window of the board, which
//!   shows where a game must begin or end.

pub mod bounded;
pub mod lines;
pub mod segments;
pub mod successor;
pub mod window;

/// A position on the board, `row` first (row 0 is the top).
pub use crate::grid::Cell;

/// A direction the ball can roll in (the grid's four directions).
pub use crate::grid::Dir;

/// The board: `rows x cols` cells, each open or an obstacle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    open: Vec<bool>,
}

impl Board {
    /// `open` is row-major.
    pub fn new(rows: usize, cols: usize, open: Vec<bool>) -> Board {
        assert_eq!(open.len(), rows * cols, "board size mismatch");
        Board { rows, cols, open }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn is_open(&self, cell: Cell) -> bool {
        cell.row < self.rows && cell.col < self.cols && self.open[cell.row * self.cols + cell.col]
    }

    /// The open cells, row-major.
    pub fn open_cells(&self) -> Vec<Cell> {
        (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| Cell::new(r, c)))
            .filter(|&c| self.is_open(c))
            .collect()
    }

    /// The neighbour of `cell` in direction `dir` if it is on the board and open.
    pub fn open_neighbour(&self, cell: Cell, dir: Dir) -> Option<Cell> {
        let (dr, dc) = dir.delta();
        let next = Cell::new(
            cell.row.checked_add_signed(dr)?,
            cell.col.checked_add_signed(dc)?,
        );
        self.is_open(next).then_some(next)
    }
}

/// A game: where the ball starts and the direction of every move.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Plan {
    pub start: Cell,
    pub moves: Vec<Dir>,
}

/// The open cells numbered `0..n` row-major, with each cell's open neighbours by
/// direction: the index both encodings are stated over.
#[derive(Clone, Debug)]
pub struct CellIndex {
    pub cells: Vec<Cell>,
    /// `neighbour[i][d]`: the number of the open cell next to cell `i` in direction `d`.
    pub neighbour: Vec<[Option<usize>; 4]>,
}

impl CellIndex {
    pub fn new(board: &Board) -> CellIndex {
        let cells = board.open_cells();
        let number: std::collections::HashMap<Cell, usize> =
            cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let neighbour = cells
            .iter()
            .map(|&c| Dir::ALL.map(|d| board.open_neighbour(c, d).map(|n| number[&n])))
            .collect();
        CellIndex { cells, neighbour }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// Which encoding to use; users pick one to compare size and speed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    /// One layer per move; the horizon grows on an incremental solver.
    #[default]
    Segments,
    /// One successor per cell plus binary time stamps; horizon-free.
    Successor,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::Segments, Encoding::Successor];

    pub fn name(self) -> &'static str {
        match self {
            Encoding::Segments => "segments",
            Encoding::Successor => "successor",
        }
    }

    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
    }
}
