//! Sokoban: the warehouse model, its static analysis (push distances, dead squares, the
//! matching lower bound: `analysis`, `matching`) and the SAT encoding of a plan of `T`
//! pushes (`encode`).
//!
//! A `Level` knows only the squares the player can ever stand on or push a box onto: the
//! floor reachable from the player's start when boxes are ignored. Everything else (walls,
//! floor outside the walls) is outside the level.

pub mod analysis;
pub mod encode;
pub mod matching;

pub use analysis::Analysis;
pub use encode::{Horizon, PlanEncoding, Pruning};

use crate::grid::Cell;

/// A direction of a walk step or a push (the grid's four directions).
pub use crate::grid::Dir;

/// One push: the box standing on `from` moves one square in `dir` (the player stands on
/// the square before `from` and ends on `from`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Push {
    pub from: usize,
    pub dir: Dir,
}

/// What one grid position holds, as read from a level file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Square {
    pub wall: bool,
    pub goal: bool,
    pub boxed: bool,
    pub player: bool,
}

/// Why a grid is not a playable level. `row` is the grid row at fault (0-based), if one is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    pub row: Option<usize>,
    pub message: String,
}

impl LevelError {
    fn at(row: usize, message: impl Into<String>) -> LevelError {
        LevelError {
            row: Some(row),
            message: message.into(),
        }
    }

    fn whole(message: impl Into<String>) -> LevelError {
        LevelError {
            row: None,
            message: message.into(),
        }
    }
}

/// A Sokoban level. Squares of the level ("cells") are numbered `0..num_cells()` in
/// row-major order; `position`/`cell_at` translate to grid coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    rows: usize,
    cols: usize,
    walls: Vec<bool>,
    positions: Vec<Cell>,
    index: Vec<Option<usize>>,
    neighbours: Vec<[Option<usize>; 4]>,
    /// Each cell's neighbours that are squares, packed: `adjacent[4 * cell..]`, the
    /// first `degree[cell]` of them. Floods walk these without asking about walls.
    adjacent: Vec<u32>,
    degree: Vec<u8>,
    goals: Vec<usize>,
    boxes: Vec<usize>,
    player: usize,
}

impl Level {
    /// Builds a level from grid rows (rows may differ in length; a position past the end
    /// of its row is outside). Checks: exactly one player, at least as many goals as
    /// boxes, the player cannot walk off the grid, and no box or goal is walled off from
    /// the player (a box on a goal out of reach is scenery and is ignored).
    pub fn new(grid: &[Vec<Square>]) -> Result<Level, LevelError> {
        let rows = grid.len();
        let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
        let square = |r: usize, c: usize| grid[r].get(c).copied();
        let mut player = None;
        for (r, row) in grid.iter().enumerate() {
            for (c, sq) in row.iter().enumerate() {
                if sq.player {
                    if player.is_some() {
                        return Err(LevelError::at(r, "a second player"));
                    }
                    player = Some(Cell::new(r, c));
                }
            }
        }
        let player = player.ok_or_else(|| LevelError::whole("no player in the level"))?;

        // Flood the floor from the player, ignoring boxes.
        let mut inside = vec![false; rows * cols];
        let mut stack = vec![player];
        inside[player.row * cols + player.col] = true;
        while let Some(p) = stack.pop() {
            for dir in Dir::ALL {
                let (dr, dc) = dir.delta();
                let (nr, nc) = (p.row as isize + dr, p.col as isize + dc);
                let open = nr >= 0
                    && nc >= 0
                    && (nr as usize) < rows
                    && square(nr as usize, nc as usize).is_some();
                if !open {
                    return Err(LevelError::at(
                        p.row,
                        format!(
                            "the level is not closed by walls: the player can walk off at column {}",
                            p.col + 1
                        ),
                    ));
                }
                let (nr, nc) = (nr as usize, nc as usize);
                let sq = square(nr, nc).unwrap_or_default();
                if !sq.wall && !inside[nr * cols + nc] {
                    inside[nr * cols + nc] = true;
                    stack.push(Cell::new(nr, nc));
                }
            }
        }

        let mut walls = vec![false; rows * cols];
        let mut positions = Vec::new();
        let mut index = vec![None; rows * cols];
        let mut goals = Vec::new();
        let mut boxes = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let sq = square(r, c).unwrap_or_default();
                walls[r * cols + c] = sq.wall;
                if inside[r * cols + c] {
                    let id = positions.len();
                    positions.push(Cell::new(r, c));
                    index[r * cols + c] = Some(id);
                    if sq.goal {
                        goals.push(id);
                    }
                    if sq.boxed {
                        boxes.push(id);
                    }
                } else if !sq.wall && (sq.boxed != sq.goal) {
                    let what = if sq.boxed { "box" } else { "goal" };
                    return Err(LevelError::at(
                        r,
                        format!(
                            "the {what} at column {} is walled off from the player",
                            c + 1
                        ),
                    ));
                }
            }
        }
        if goals.len() < boxes.len() {
            return Err(LevelError::whole(format!(
                "fewer goals ({}) than boxes ({})",
                goals.len(),
                boxes.len()
            )));
        }
        if boxes.is_empty() {
            return Err(LevelError::whole("no box in the level"));
        }
        let neighbours: Vec<[Option<usize>; 4]> = positions
            .iter()
            .map(|p| {
                Dir::ALL.map(|dir| {
                    let (dr, dc) = dir.delta();
                    let (nr, nc) = (p.row as isize + dr, p.col as isize + dc);
                    // The flood proved every neighbour of an inside cell is on the grid.
                    index[nr as usize * cols + nc as usize]
                })
            })
            .collect();
        let player = index[player.row * cols + player.col].expect("the player is inside");
        let mut adjacent = vec![0; 4 * positions.len()];
        let mut degree = vec![0; positions.len()];
        for (cell, around) in neighbours.iter().enumerate() {
            for (k, &n) in around.iter().flatten().enumerate() {
                adjacent[4 * cell + k] = n as u32;
                degree[cell] = k as u8 + 1;
            }
        }
        Ok(Level {
            rows,
            cols,
            walls,
            positions,
            index,
            neighbours,
            adjacent,
            degree,
            goals,
            boxes,
            player,
        })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn num_cells(&self) -> usize {
        self.positions.len()
    }

    pub fn is_wall(&self, pos: Cell) -> bool {
        self.walls[pos.row * self.cols + pos.col]
    }

    pub fn position(&self, cell: usize) -> Cell {
        self.positions[cell]
    }

    pub fn cell_at(&self, pos: Cell) -> Option<usize> {
        if pos.row < self.rows && pos.col < self.cols {
            self.index[pos.row * self.cols + pos.col]
        } else {
            None
        }
    }

    /// The cell one step from `cell` in `dir`, if it is a square of the level.
    pub fn neighbour(&self, cell: usize, dir: Dir) -> Option<usize> {
        self.neighbours[cell][dir.index()]
    }

    /// The squares next to `cell` (not diagonally), in no promised order.
    pub fn adjacent(&self, cell: usize) -> &[u32] {
        &self.adjacent[4 * cell..4 * cell + usize::from(self.degree[cell])]
    }

    /// For a push of a box on `cell` in `dir`: the square the player pushes from and the
    /// box's target, if both are squares of the level.
    pub fn push_squares(&self, cell: usize, dir: Dir) -> Option<(usize, usize)> {
        Some((
            self.neighbour(cell, dir.opposite())?,
            self.neighbour(cell, dir)?,
        ))
    }

    pub fn goals(&self) -> &[usize] {
        &self.goals
    }

    pub fn is_goal(&self, cell: usize) -> bool {
        self.goals.contains(&cell)
    }

    /// The boxes at the start, as cells in increasing order.
    pub fn boxes(&self) -> &[usize] {
        &self.boxes
    }

    pub fn player(&self) -> usize {
        self.player
    }
}
