//! A rectangular grid of literals: the shape most puzzle rules are stated over.
//!
//! Above `cnf`: a grid is a view of literals, and only its constructor `LitGrid::primary`
//! needs the builder (to make the variables), so the builder never names a grid.

use crate::cnf::Cnf;
use crate::lit::Lit;

/// A cell position, `row` first (row 0 is the top).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

impl Cell {
    pub fn new(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }
}

/// One of the four directions on a grid, in the order the Full Board arrows are numbered
/// (U+2190 + index) and LURD letters are listed: left, up, right, down.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    Left,
    Up,
    Right,
    Down,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Left, Dir::Up, Dir::Right, Dir::Down];

    pub fn index(self) -> usize {
        self as usize
    }

    /// `(row step, column step)` of one step.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Left => (0, -1),
            Dir::Up => (-1, 0),
            Dir::Right => (0, 1),
            Dir::Down => (1, 0),
        }
    }

    pub fn opposite(self) -> Dir {
        Dir::ALL[(self.index() + 2) % 4]
    }

    /// One upper-case letter: `L`, `U`, `R`, `D`.
    pub fn letter(self) -> char {
        ['L', 'U', 'R', 'D'][self.index()]
    }

    pub fn from_letter(letter: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.letter() == letter)
    }

    /// LURD notation: lower case for a walk step, upper case for a push.
    pub fn lurd(self, push: bool) -> char {
        if push {
            self.letter()
        } else {
            self.letter().to_ascii_lowercase()
        }
    }

    /// A LURD letter's direction and whether it is a push (upper case).
    pub fn from_lurd(c: char) -> Option<(Dir, bool)> {
        Dir::from_letter(c.to_ascii_uppercase()).map(|d| (d, c.is_ascii_uppercase()))
    }
}

/// Whether `cells` form one piece, cells joined by a common edge (no cells: one piece).
/// Zones of a Star Battle are such pieces.
pub fn edge_connected(cells: &[Cell]) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    let inside: std::collections::HashSet<Cell> = cells.iter().copied().collect();
    let mut seen = std::collections::HashSet::from([first]);
    let mut stack = vec![first];
    while let Some(cell) = stack.pop() {
        for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
            let next = (
                cell.row.checked_add_signed(dr),
                cell.col.checked_add_signed(dc),
            );
            if let (Some(r), Some(c)) = next {
                let n = Cell::new(r, c);
                if inside.contains(&n) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
    }
    seen.len() == inside.len()
}

/// Literals laid out row-major over `rows x cols` cells.
#[derive(Clone, Debug)]
pub struct LitGrid {
    rows: usize,
    cols: usize,
    lits: Vec<Lit>,
}

impl LitGrid {
    pub fn new(rows: usize, cols: usize, lits: Vec<Lit>) -> LitGrid {
        assert_eq!(lits.len(), rows * cols, "grid size mismatch");
        LitGrid { rows, cols, lits }
    }

    /// A grid of fresh primary variables of `cnf`, row-major: a puzzle's own unknowns,
    /// one per cell.
    pub fn primary(cnf: &mut Cnf, rows: usize, cols: usize) -> LitGrid {
        let lits = (0..rows * cols)
            .map(|_| cnf.primary_var().positive())
            .collect();
        LitGrid::new(rows, cols, lits)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn at(&self, cell: Cell) -> Lit {
        self.lits[cell.row * self.cols + cell.col]
    }

    pub fn get(&self, row: usize, col: usize) -> Lit {
        self.lits[row * self.cols + col]
    }

    /// All literals, row-major.
    pub fn all(&self) -> &[Lit] {
        &self.lits
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| Cell::new(r, c)))
    }

    pub fn row(&self, row: usize) -> Vec<Lit> {
        self.lits[row * self.cols..(row + 1) * self.cols].to_vec()
    }

    pub fn col(&self, col: usize) -> Vec<Lit> {
        (0..self.rows).map(|r| self.get(r, col)).collect()
    }

    /// Every row's literals, top to bottom.
    pub fn row_lines(&self) -> impl Iterator<Item = Vec<Lit>> + '_ {
        (0..self.rows).map(move |r| self.row(r))
    }

    /// Every column's literals, left to right.
    pub fn col_lines(&self) -> impl Iterator<Item = Vec<Lit>> + '_ {
        (0..self.cols).map(move |c| self.col(c))
    }

    /// The literals of the given cells, in the order given.
    pub fn select<'a, I: IntoIterator<Item = &'a Cell>>(&self, cells: I) -> Vec<Lit> {
        cells.into_iter().map(|&c| self.at(c)).collect()
    }

    /// Each unordered pair of cells that touch by an edge or a corner, once.
    pub fn king_adjacent_pairs(&self) -> Vec<(Lit, Lit)> {
        let mut pairs = Vec::new();
        for cell in self.cells() {
            // Right, down-left, down, down-right: every touching pair is met exactly once.
            for (dr, dc) in [(0isize, 1isize), (1, -1), (1, 0), (1, 1)] {
                if let Some(other) = self.offset(cell, dr, dc) {
                    pairs.push((self.at(cell), self.at(other)));
                }
            }
        }
        pairs
    }

    /// Each unordered pair of cells that share an edge, once.
    pub fn orthogonal_pairs(&self) -> Vec<(Lit, Lit)> {
        let mut pairs = Vec::new();
        for cell in self.cells() {
            for (dr, dc) in [(0isize, 1isize), (1, 0)] {
                if let Some(other) = self.offset(cell, dr, dc) {
                    pairs.push((self.at(cell), self.at(other)));
                }
            }
        }
        pairs
    }

    /// The cell `(dr, dc)` away from `cell`, if it is on the grid.
    pub fn offset(&self, cell: Cell, dr: isize, dc: isize) -> Option<Cell> {
        let r = cell.row.checked_add_signed(dr)?;
        let c = cell.col.checked_add_signed(dc)?;
        (r < self.rows && c < self.cols).then_some(Cell::new(r, c))
    }
}

#[cfg(test)]
mod tests {
    use super::{edge_connected, Cell, LitGrid};
    use crate::cnf::Cnf;

    #[test]
    fn pieces_join_by_edges_not_corners() {
        let cells = |list: &[(usize, usize)]| -> Vec<Cell> {
            list.iter().map(|&(r, c)| Cell::new(r, c)).collect()
        };
        assert!(edge_connected(&[]));
        assert!(edge_connected(&cells(&[(3, 3)])));
        assert!(edge_connected(&cells(&[
            (0, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (2, 0)
        ])));
        assert!(!edge_connected(&cells(&[(0, 0), (1, 1)])), "corners only");
        assert!(!edge_connected(&cells(&[(0, 0), (0, 1), (0, 3)])));
    }

    #[test]
    fn neighbour_pair_counts() {
        let mut cnf = Cnf::new();
        let g = LitGrid::primary(&mut cnf, 3, 4);
        // Horizontal 3*3, vertical 2*4, two diagonals 2*3 each.
        assert_eq!(g.king_adjacent_pairs().len(), 9 + 8 + 6 + 6);
        assert_eq!(g.orthogonal_pairs().len(), 9 + 8);
        assert_eq!(g.col(1).len(), 3);
        assert_eq!(g.row(2).len(), 4);
    }
}
