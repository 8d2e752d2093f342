//! Map files: blocks of rows between a line `map` and a line `endmap`; `▓` (U+2593) is an
//! obstacle, a space is open. Text outside the blocks is ignored; `\r` before a line
//! end is dropped, so CRLF and LF files read alike.

use crate::input::ParseError;
use gridsat_encodings::full_board::Board;
use nom::branch::alt;
use nom::character::complete::char;
use nom::combinator::{all_consuming, value};
use nom::multi::many0;
use nom::Parser;

/// The largest board the course allows, in each dimension.
pub const MAX_SIDE: usize = 60;

pub const OBSTACLE: char = '\u{2593}';
pub const OPEN: char = ' ';

/// One map of a file, with the rows as written (for the `No solution` echo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapEntry {
    /// 1-based line of the `map` line.
    pub line: usize,
    pub rows: Vec<String>,
    pub board: Board,
}

/// One row of cells: `true` for open.
fn row_cells(text: &str) -> Result<Vec<bool>, usize> {
    let cell = alt((value(false, char(OBSTACLE)), value(true, char(OPEN))));
    let parsed: nom::IResult<&str, Vec<bool>> = all_consuming(many0(cell)).parse(text);
    match parsed {
        Ok((_, cells)) => Ok(cells),
        Err(_) => {
            // Report the first character that is neither cell kind (1-based column).
            let column = text
                .chars()
                .position(|c| c != OBSTACLE && c != OPEN)
                .unwrap_or(0);
            Err(column + 1)
        }
    }
}

/// Every map in `text`, in file order.
pub fn parse_maps(text: &str) -> Result<Vec<MapEntry>, ParseError> {
    let mut maps = Vec::new();
    // (line of `map`, rows so far, cells so far)
    let mut open_block: Option<(usize, Vec<String>, Vec<bool>)> = None;
    for (number, line) in text.lines().enumerate() {
        let line_no = number + 1;
        match open_block.as_mut() {
            None => {
                if line == "map" {
                    open_block = Some((line_no, Vec::new(), Vec::new()));
                }
            }
            Some((start, rows, cells)) => {
                if line == "endmap" {
                    if rows.is_empty() {
                        return Err(ParseError::new(*start, "map has no rows"));
                    }
                    let cols = rows[0].chars().count();
                    let board = Board::new(rows.len(), cols, std::mem::take(cells));
                    maps.push(MapEntry {
                        line: *start,
                        rows: std::mem::take(rows),
                        board,
                    });
                    open_block = None;
                    continue;
                }
                let row = row_cells(line).map_err(|column| {
                    let bad = line.chars().nth(column - 1).unwrap_or(' ');
                    ParseError::new(
                        line_no,
                        format!(
                            "unexpected character {bad:?} (U+{:04X}) at column {column}: \
                             a map row holds only '{OBSTACLE}' (obstacle) and ' ' (open)",
                            bad as u32
                        ),
                    )
                })?;
                if row.is_empty() {
                    return Err(ParseError::new(
                        line_no,
                        "empty line inside a map (missing `endmap`?)",
                    ));
                }
                if let Some(first) = rows.first() {
                    let width = first.chars().count();
                    if row.len() != width {
                        return Err(ParseError::new(
                            line_no,
                            format!(
                                "map is not rectangular: this row has {} cells, the first row has {width}",
                                row.len()
                            ),
                        ));
                    }
                }
                if row.len() > MAX_SIDE {
                    return Err(ParseError::new(
                        line_no,
                        format!(
                            "map row has {} cells; at most {MAX_SIDE} are allowed",
                            row.len()
                        ),
                    ));
                }
                if rows.len() == MAX_SIDE {
                    return Err(ParseError::new(
                        line_no,
                        format!("map has more than {MAX_SIDE} rows"),
                    ));
                }
                rows.push(line.to_string());
                cells.extend(row);
            }
        }
    }
    if let Some((start, _, _)) = open_block {
        return Err(ParseError::new(start, "map without `endmap`"));
    }
    Ok(maps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lf_and_crlf_alike() {
        let lf = "junk\nmap\n\u{2593} \u{2593}\n   \nendmap\n";
        let crlf = lf.replace('\n', "\r\n");
        let a = parse_maps(lf).unwrap();
        let b = parse_maps(&crlf).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].line, 2);
        assert_eq!(a[0].board.open_cells().len(), 4);
        assert_eq!(a[0].rows, vec!["\u{2593} \u{2593}", "   "]);
    }

    #[test]
    fn names_the_line_of_each_problem() {
        let err = parse_maps("map\n \u{2593}\n  x\nendmap\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("'x'"), "{}", err.message);
        let err = parse_maps("map\n  \n   \nendmap\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("not rectangular"));
        let err = parse_maps("x\nmap\n  \n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("endmap"));
        let wide = format!("map\n{}\nendmap\n", " ".repeat(61));
        assert!(parse_maps(&wide)
            .unwrap_err()
            .message
            .contains("at most 60"));
        let tall = format!("map\n{}endmap\n", " \n".repeat(61));
        assert_eq!(parse_maps(&tall).unwrap_err().line, 62);
    }
}
