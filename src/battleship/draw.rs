//! Drawing solutions: the course's text (ship lines and the framed board) and JSON.
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

/// `type row col [horizontal|vertical]`, the course's ship line.
pub fn ship_line(ship: &Placement) -> String {
    let mut line = String::with_capacity(32);
    push_ship_line(&mut line, ship);
    line
}

fn push_ship_line(text: &mut String, ship: &Placement) {
    text.push_str(ship.ship_type().map_or("?", |t| t.name()));
    text.push(' ');
    push_number(text, ship.top_left.row);
    text.push(' ');
    push_number(text, ship.top_left.col);
    if ship.length > 1 {
        text.push_str(match ship.orientation {
            Orientation::Horizontal => " horizontal",
            Orientation::Vertical => " vertical",
        });
    }
}

/// The framed board with its sums, one string per line (the course's board drawing).
/// Built line by line: listing every solution draws thousands of boards.
pub fn board_lines(puzzle: &Puzzle, symbols: &[char]) -> Vec<String> {
    let cols = puzzle.cols;
    let mut border = String::with_capacity(cols + 2);
    border.push('+');
    border.extend(std::iter::repeat_n('-', cols));
    border.push('+');
    let mut lines = Vec::with_capacity(puzzle.rows + 4);
    lines.push(border.clone());
    for (r, sum) in puzzle.row_sums.iter().enumerate() {
        let mut line = String::with_capacity(cols + 6);
        line.push('|');
        line.extend(&symbols[r * cols..(r + 1) * cols]);
        line.push('|');
        match sum {
            Some(s) => push_number(&mut line, *s),
            None => line.push('?'),
        }
        lines.push(line);
    }
    lines.push(border);
    // The column sums, one digit per column and line, right-aligned (one line when
    // every sum has one digit).
    let sums = &puzzle.col_sums;
    let height = sums.iter().map(|&s| sum_width(s)).max().unwrap_or(1);
    for line in 0..height {
        let mut text = String::with_capacity(cols + 1);
        text.push(' ');
        for &sum in sums {
            let pad = height - sum_width(sum);
            text.push(match sum {
                _ if line < pad => ' ',
                None => '?',
                Some(s) => digit(s, height - 1 - line),
            });
        }
        let end = text.trim_end().len().max(1);
        text.truncate(end);
        lines.push(text);
    }
    lines
}

/// Characters of a sum as drawn: its digits, or `?`.
fn sum_width(sum: Option<usize>) -> usize {
    sum.map_or(1, |s| s.checked_ilog10().unwrap_or(0) as usize + 1)
}

/// Decimal digit `k` of `n`, counted from the units (0).
fn digit(n: usize, k: usize) -> char {
    char::from(b'0' + (n / 10usize.pow(k as u32) % 10) as u8)
}

/// `n` in decimal, without the formatting machinery (thousands of boards are drawn).
fn push_number(text: &mut String, n: usize) {
    for k in (0..sum_width(Some(n))).rev() {
        text.push(digit(n, k));
    }
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

    fn drawn(row_sums: Vec<Option<usize>>, col_sums: Vec<Option<usize>>) -> String {
        let puzzle = Puzzle {
            rows: row_sums.len(),
            cols: col_sums.len(),
            row_sums,
            col_sums,
            fleet: vec![],
            hints: vec![],
        };
        let mut lines = board_lines(&puzzle, &vec![' '; puzzle.rows * puzzle.cols]).join("\n");
        lines.push('\n');
        lines
    }

    #[test]
    fn wide_column_sums_stack_digits_under_their_columns() {
        let text = drawn(vec![Some(1)], vec![Some(2), Some(11), None, Some(10)]);
        assert_eq!(text, "+----+\n|    |1\n+----+\n  1 1\n 21?0\n");
        let text = drawn(
            vec![Some(0), Some(105)],
            vec![Some(2), Some(11), None, Some(100)],
        );
        assert_eq!(
            text,
            "+----+\n|    |0\n|    |105\n+----+\n    1\n  1 0\n 21?0\n"
        );
        assert_eq!(
            drawn(vec![None], vec![Some(1), Some(2)]),
            "+--+\n|  |?\n+--+\n 12\n"
        );
    }

    #[test]
    fn numbers_are_written_as_format_writes_them() {
        for n in [0, 7, 10, 99, 100, 12345] {
            let mut s = String::new();
            push_number(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }
}
