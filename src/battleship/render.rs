//! Drawing solutions: the seed's text (ship lines and board) and JSON.
//!
//! Sums of 10 or more: a row sum is simply written out after the right border. Column
//! sums are written below the board one digit per line, right-aligned, so that every
//! digit stays under its own column:
//! ```text
//! +------------+
//! ...
//! +------------+
//!            11
//!  2314?1234012
//! ```
//! (the last two columns have sums 11 and 12). A `?` sum is drawn as `?`.

use gridsat_encodings::battleship::{Orientation, Placement, Puzzle};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{self, Write};

/// The drawing character of every cell, row-major: ` ` water, `o` submarine, `<` `>` `^`
/// `v` ship ends, `X` middle cells.
pub fn board_symbols(puzzle: &Puzzle, ships: &[Placement]) -> Vec<char> {
    let mut board = vec![' '; puzzle.rows * puzzle.cols];
    for ship in ships {
        let last = ship.length - 1;
        for (k, cell) in ship.cells().enumerate() {
            board[cell.row * puzzle.cols + cell.col] = match (ship.orientation, k) {
                _ if ship.length == 1 => 'o',
                (Orientation::Horizontal, 0) => '<',
                (Orientation::Horizontal, k) if k == last => '>',
                (Orientation::Vertical, 0) => '^',
                (Orientation::Vertical, k) if k == last => 'v',
                _ => 'X',
            };
        }
    }
    board
}

fn sum_text(sum: Option<usize>) -> String {
    sum.map_or_else(|| "?".to_string(), |s| s.to_string())
}

/// `type row col [horizontal|vertical]`, the seed's ship line.
pub fn ship_line(ship: &Placement) -> String {
    let mut line = String::new();
    push_ship_line(&mut line, ship);
    line
}

fn push_ship_line(text: &mut String, ship: &Placement) {
    let name = ship.ship_type().map_or("?", |t| t.name());
    let _ = write!(text, "{name} {} {}", ship.top_left.row, ship.top_left.col);
    if ship.length > 1 {
        text.push_str(match ship.orientation {
            Orientation::Horizontal => " horizontal",
            Orientation::Vertical => " vertical",
        });
    }
}

/// `Solution:`, the ship lines and the board drawing, as the seed prints them.
pub fn write_solution(
    out: &mut impl Write,
    puzzle: &Puzzle,
    ships: &[Placement],
) -> io::Result<()> {
    writeln!(out, "Solution:")?;
    write_ships(out, puzzle, ships)
}

/// The ship lines and the board drawing.
///
/// Composed in memory and written at once: listing every solution of a puzzle prints
/// thousands of boards, and one write per piece cost a sixth of puzzle10's listing.
pub fn write_ships(out: &mut impl Write, puzzle: &Puzzle, ships: &[Placement]) -> io::Result<()> {
    let mut text = String::with_capacity(24 * ships.len() + (puzzle.rows + 4) * (puzzle.cols + 8));
    for ship in ships {
        push_ship_line(&mut text, ship);
        text.push('\n');
    }
    push_board(&mut text, puzzle, &board_symbols(puzzle, ships));
    out.write_all(text.as_bytes())
}

/// A framed grid of one character per cell, with the sums (the seed's board drawing).
pub fn write_board(out: &mut impl Write, puzzle: &Puzzle, symbols: &[char]) -> io::Result<()> {
    let mut text = String::new();
    push_board(&mut text, puzzle, symbols);
    out.write_all(text.as_bytes())
}

fn push_board(text: &mut String, puzzle: &Puzzle, symbols: &[char]) {
    let border = |text: &mut String| {
        text.push('+');
        text.extend(std::iter::repeat_n('-', puzzle.cols));
        text.push_str("+\n");
    };
    border(text);
    for (r, sum) in puzzle.row_sums.iter().enumerate() {
        text.push('|');
        text.extend(&symbols[r * puzzle.cols..(r + 1) * puzzle.cols]);
        text.push('|');
        match sum {
            Some(s) => {
                let _ = write!(text, "{s}");
            }
            None => text.push('?'),
        }
        text.push('\n');
    }
    border(text);
    for line in column_sum_lines(&puzzle.col_sums) {
        text.push(' ');
        text.push_str(line.trim_end());
        text.push('\n');
    }
}

/// The column sums, one digit per column and line, right-aligned (one line when every
/// sum has one digit).
fn column_sum_lines(sums: &[Option<usize>]) -> Vec<String> {
    let texts: Vec<String> = sums.iter().map(|&s| sum_text(s)).collect();
    let height = texts.iter().map(|t| t.len()).max().unwrap_or(1).max(1);
    (0..height)
        .map(|line| {
            texts
                .iter()
                .map(|t| {
                    let pad = height - t.len();
                    if line < pad {
                        ' '
                    } else {
                        t.as_bytes()[line - pad] as char
                    }
                })
                .collect()
        })
        .collect()
}

/// A solution as JSON: the ships and the board rows.
#[derive(Serialize)]
pub struct JsonSolution {
    pub ships: Vec<JsonShip>,
    pub board: Vec<String>,
}

#[derive(Serialize)]
pub struct JsonShip {
    #[serde(rename = "type")]
    pub ship_type: &'static str,
    pub length: usize,
    pub row: usize,
    pub col: usize,
    /// `None` for submarines.
    pub orientation: Option<&'static str>,
}

pub fn json_solution(puzzle: &Puzzle, ships: &[Placement]) -> JsonSolution {
    let board = board_symbols(puzzle, ships);
    JsonSolution {
        ships: ships
            .iter()
            .map(|ship| JsonShip {
                ship_type: ship.ship_type().map_or("?", |t| t.name()),
                length: ship.length,
                row: ship.top_left.row,
                col: ship.top_left.col,
                orientation: (ship.length > 1).then_some(match ship.orientation {
                    Orientation::Horizontal => "horizontal",
                    Orientation::Vertical => "vertical",
                }),
            })
            .collect(),
        board: board
            .chunks(puzzle.cols)
            .map(|row| row.iter().collect())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_column_sums_stack_digits_under_their_columns() {
        let lines = column_sum_lines(&[Some(2), Some(11), None, Some(10)]);
        assert_eq!(lines, [" 1 1", "21?0"]);
        assert_eq!(column_sum_lines(&[Some(1), Some(2)]), ["12"]);
    }
}
