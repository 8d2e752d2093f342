//! Boards as XSB text.

use super::check::Board;
use gridsat_encodings::grid::Cell;
use gridsat_encodings::sokoban::Level;

/// The board in XSB: one string per grid row, trailing blanks trimmed.
pub fn board_lines(level: &Level, board: &Board) -> Vec<String> {
    (0..level.rows())
        .map(|r| {
            let line: String = (0..level.cols())
                .map(|c| {
                    let pos = Cell::new(r, c);
                    match level.cell_at(pos) {
                        None if level.is_wall(pos) => '#',
                        None => ' ',
                        Some(cell) => {
                            let goal = level.is_goal(cell);
                            match (board.boxes[cell], board.player == cell, goal) {
                                (true, _, true) => '*',
                                (true, _, false) => '$',
                                (false, true, true) => '+',
                                (false, true, false) => '@',
                                (false, false, true) => '.',
                                (false, false, false) => ' ',
                            }
                        }
                    }
                })
                .collect();
            line.trim_end().to_string()
        })
        .collect()
}
