//! The board's symmetries (the reflections and quarter turns that map its open cells
//! onto themselves), so that a search need only start from one cell of each orbit.
//!
//! The rules know nothing of orientation: a symmetry of the board maps every game to a
//! game (each move to the move in the mapped direction) and winning games to winning
//! games. So if every game starting on a representative cell of each orbit is known, the
//! images of those games under every symmetry are every game: a game from `s` is the
//! image of the game from `g(s)` (the representative) under `g`'s inverse, itself a
//! symmetry. An open room has eight (a square) or four (a rectangle), which divides
//! the bounded search's work by about as much.

use gridsat_encodings::full_board::{Board, Cell, Dir, Plan};

/// A map of the grid onto itself: first the optional transposition (a square board
/// only), then the optional reversal of the row order and of the column order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
    rows: usize,
    cols: usize,
}

impl Symmetry {
    pub fn cell(&self, cell: Cell) -> Cell {
        let (mut row, mut col) = (cell.row, cell.col);
        if self.transpose {
            (row, col) = (col, row);
        }
        if self.flip_rows {
            row = self.rows - 1 - row;
        }
        if self.flip_cols {
            col = self.cols - 1 - col;
        }
        Cell::new(row, col)
    }

    pub fn dir(&self, dir: Dir) -> Dir {
        let mut dir = dir;
        if self.transpose {
            dir = match dir {
                Dir::Left => Dir::Up,
                Dir::Up => Dir::Left,
                Dir::Right => Dir::Down,
                Dir::Down => Dir::Right,
            };
        }
        dir = match dir {
            Dir::Up if self.flip_rows => Dir::Down,
            Dir::Down if self.flip_rows => Dir::Up,
            Dir::Left if self.flip_cols => Dir::Right,
            Dir::Right if self.flip_cols => Dir::Left,
            other => other,
        };
        dir
    }

    pub fn plan(&self, plan: &Plan) -> Plan {
        Plan {
            start: self.cell(plan.start),
            moves: plan.moves.iter().map(|&d| self.dir(d)).collect(),
        }
    }
}

/// Every symmetry of `board` (the identity first).
pub fn symmetries(board: &Board) -> Vec<Symmetry> {
    let (rows, cols) = (board.rows(), board.cols());
    let transposes: &[bool] = if rows == cols {
        &[false, true]
    } else {
        &[false]
    };
    let mut found = Vec::new();
    for &transpose in transposes {
        for flip_rows in [false, true] {
            for flip_cols in [false, true] {
                let g = Symmetry {
                    transpose,
                    flip_rows,
                    flip_cols,
                    rows,
                    cols,
                };
                let open = board.open_cells();
                if open.iter().all(|&c| board.is_open(g.cell(c))) {
                    found.push(g);
                }
            }
        }
    }
    found
}

/// The open cells that are the least (in row-major order) of their orbit under
/// `group`: one start cell per orbit.
pub fn representatives(board: &Board, group: &[Symmetry]) -> Vec<Cell> {
    board
        .open_cells()
        .into_iter()
        .filter(|&c| group.iter().all(|g| g.cell(c) >= c))
        .collect()
}

/// The images of `plans` under every symmetry of `group`, sorted, each once.
pub fn images(plans: Vec<Plan>, group: &[Symmetry]) -> Vec<Plan> {
    let mut all: Vec<Plan> = plans
        .iter()
        .flat_map(|plan| group.iter().map(move |g| g.plan(plan)))
        .collect();
    all.sort();
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::full_board::check::replay;

    fn room(rows: usize, cols: usize) -> Board {
        Board::new(rows, cols, vec![true; rows * cols])
    }

    #[test]
    fn an_open_square_has_eight_symmetries_a_rectangle_four() {
        assert_eq!(symmetries(&room(5, 5)).len(), 8);
        assert_eq!(symmetries(&room(4, 6)).len(), 4);
        // One obstacle off every axis leaves the identity alone.
        let mut open = vec![true; 25];
        open[1] = false;
        assert_eq!(symmetries(&Board::new(5, 5, open)).len(), 1);
        // A 5 x 5 square's cells fall into six orbits.
        let square = room(5, 5);
        assert_eq!(representatives(&square, &symmetries(&square)).len(), 6);
    }

    #[test]
    fn the_image_of_a_game_is_a_game() {
        let board = room(3, 4);
        let game = Plan {
            start: Cell::new(1, 1),
            moves: vec![Dir::Right, Dir::Up, Dir::Left, Dir::Down, Dir::Right],
        };
        assert!(replay(&board, &game).is_ok());
        let square = room(3, 3);
        let spiral = Plan {
            start: Cell::new(0, 0),
            moves: vec![Dir::Right, Dir::Down, Dir::Left, Dir::Up, Dir::Right],
        };
        for (board, game) in [(board, game), (square, spiral)] {
            let group = symmetries(&board);
            let all = images(vec![game.clone()], &group);
            assert_eq!(all.len(), group.len());
            for image in &all {
                assert!(replay(&board, image).is_ok(), "{image:?}");
            }
        }
    }
}
