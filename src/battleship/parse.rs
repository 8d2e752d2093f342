//! The seed's puzzle format, read with nom, line by line.
//!
//! ```text
//! board 4 5              rows, columns
//! rows 4 0 2 1           one sum per row, or ?
//! cols 1 2 1 2 1         one sum per column, or ?
//! cruiser                one ship per line (or unknown)
//! constraint 0 2 <       row, column, one of o < > ^ v X _
//! ```
//! Blank lines and trailing white space are ignored. `board` must come before `rows`,
//! `cols` and `constraint` (they are checked against its size); ships may come anywhere.

use crate::input::ParseError;
use gridsat_encodings::battleship::{FleetShip, Hint, Piece, Puzzle, ShipType};
use gridsat_encodings::grid::Cell;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1, take_while};
use nom::character::complete::{anychar, digit1};
use nom::combinator::{all_consuming, map, map_res, value};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

/// The largest board side accepted: far beyond any real puzzle (they are 4 to 15 wide),
/// and small enough that the encoding (up to 13 placements per cell) stays within memory.
pub const MAX_BOARD_SIDE: usize = 100;

/// Parses puzzle text; errors carry the 1-based line at fault (0 for a missing line).
pub fn parse_puzzle(text: &str) -> Result<Puzzle, ParseError> {
    let mut builder = Builder::default();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let words = words(line);
        let Some((&keyword, args)) = words.split_first() else {
            continue;
        };
        builder
            .line(keyword, args)
            .map_err(|message| ParseError::new(number, message))?;
    }
    builder.finish()
}

/// The white-space separated words of a line (any white space, so `\r` of CRLF files and
/// trailing spaces are ignored).
fn words(line: &str) -> Vec<&str> {
    let blank = || take_while(|c: char| c.is_whitespace());
    let word = preceded(blank(), take_till1(|c: char| c.is_whitespace()));
    let mut line_parser = terminated(many0(word), blank());
    // `many0` only fails on a word parser that consumes nothing, and `take_till1` always
    // consumes; the fallback is the same split, written without nom.
    line_parser
        .parse(line)
        .map(|(_, words)| words)
        .unwrap_or_else(|_: nom::Err<nom::error::Error<&str>>| line.split_whitespace().collect())
}

/// A non-negative decimal number that fits a `usize`.
fn unsigned(input: &str) -> IResult<&str, usize> {
    map_res(digit1, str::parse::<usize>).parse(input)
}

fn number(word: &str) -> Option<usize> {
    all_consuming(unsigned).parse(word).ok().map(|(_, n)| n)
}

/// A row or column sum: a number, or `?` for unknown.
fn sum(word: &str) -> Option<Option<usize>> {
    let unknown = value(None, tag::<&str, &str, nom::error::Error<&str>>("?"));
    let mut parser = all_consuming(alt((unknown, map(unsigned, Some))));
    parser.parse(word).ok().map(|(_, s)| s)
}

/// A hint character.
fn piece(word: &str) -> Option<Piece> {
    let mut parser = all_consuming(anychar::<&str, nom::error::Error<&str>>);
    let (_, symbol) = parser.parse(word).ok()?;
    Piece::from_symbol(symbol)
}

#[derive(Default)]
struct Builder {
    board: Option<(usize, usize)>,
    row_sums: Option<Vec<Option<usize>>>,
    col_sums: Option<Vec<Option<usize>>>,
    fleet: Vec<FleetShip>,
    hints: Vec<Hint>,
}

impl Builder {
    fn line(&mut self, keyword: &str, args: &[&str]) -> Result<(), String> {
        match keyword {
            "board" => self.board(args),
            "rows" => {
                let (rows, _) = self.size(keyword)?;
                let sums = sums("row", rows, args)?;
                set_once(&mut self.row_sums, sums, keyword)
            }
            "cols" => {
                let (_, cols) = self.size(keyword)?;
                let sums = sums("column", cols, args)?;
                set_once(&mut self.col_sums, sums, keyword)
            }
            "constraint" => self.constraint(args),
            "unknown" => self.ship(FleetShip::Unknown, keyword, args),
            _ => match ShipType::from_name(keyword) {
                Some(t) => self.ship(FleetShip::Known(t), keyword, args),
                None => Err(format!(
                    "unknown keyword or ship name '{keyword}' (expected board, rows, cols, \
                     constraint, unknown or a ship: submarine, destroyer, cruiser, \
                     battleship, carrier, cargo, tanker)"
                )),
            },
        }
    }

    fn board(&mut self, args: &[&str]) -> Result<(), String> {
        let [rows, cols] = args else {
            return Err(format!(
                "'board' takes two numbers (rows, columns), found {} word(s)",
                args.len()
            ));
        };
        let side = |word: &str, what: &str| {
            match number(word) {
            Some(n) if (1..=MAX_BOARD_SIDE).contains(&n) => Ok(n),
            _ => Err(format!(
                "the number of {what} must be a whole number from 1 to {MAX_BOARD_SIDE}, not '{word}'"
            )),
        }
        };
        let size = (side(rows, "rows")?, side(cols, "columns")?);
        set_once(&mut self.board, size, "board")
    }

    fn size(&self, keyword: &str) -> Result<(usize, usize), String> {
        self.board
            .ok_or_else(|| format!("'{keyword}' before the 'board' line"))
    }

    fn ship(&mut self, ship: FleetShip, name: &str, args: &[&str]) -> Result<(), String> {
        if let Some(extra) = args.first() {
            return Err(format!(
                "unexpected '{extra}' after ship name '{name}' (one ship per line)"
            ));
        }
        self.fleet.push(ship);
        Ok(())
    }

    fn constraint(&mut self, args: &[&str]) -> Result<(), String> {
        let (rows, cols) = self.size("constraint")?;
        let [row, col, symbol] = args else {
            return Err(format!(
                "'constraint' takes a row, a column and a character, found {} word(s)",
                args.len()
            ));
        };
        let index = |word: &str, what: &str, limit: usize| match number(word) {
            Some(n) if n < limit => Ok(n),
            Some(_) => Err(format!(
                "constraint outside the board: {what} {word} (the board has {limit} {what}s, \
                 numbered from 0)"
            )),
            None => Err(format!("constraint {what} '{word}' is not a number")),
        };
        let cell = Cell::new(index(row, "row", rows)?, index(col, "column", cols)?);
        let piece = piece(symbol).ok_or_else(|| {
            format!("unknown constraint character '{symbol}' (expected one of o < > ^ v X _)")
        })?;
        self.hints.push(Hint { cell, piece });
        Ok(())
    }

    fn finish(self) -> Result<Puzzle, ParseError> {
        let missing = |what: &str| ParseError::new(0, format!("no '{what}' line"));
        let (rows, cols) = self.board.ok_or_else(|| missing("board"))?;
        Ok(Puzzle {
            rows,
            cols,
            row_sums: self.row_sums.ok_or_else(|| missing("rows"))?,
            col_sums: self.col_sums.ok_or_else(|| missing("cols"))?,
            fleet: self.fleet,
            hints: self.hints,
        })
    }
}

fn sums(what: &str, expected: usize, args: &[&str]) -> Result<Vec<Option<usize>>, String> {
    if args.len() != expected {
        return Err(format!(
            "wrong number of {what} sums: expected {expected}, found {}",
            args.len()
        ));
    }
    args.iter()
        .map(|word| {
            sum(word).ok_or_else(|| format!("{what} sum '{word}' is neither a number nor '?'"))
        })
        .collect()
}

fn set_once<T>(slot: &mut Option<T>, value: T, keyword: &str) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("a second '{keyword}' line"));
    }
    *slot = Some(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "board 4 5\nrows 4 0 2 1 \ncols 1 2 1 2 1\ncruiser \ndestroyer\n\
                          submarine\nunknown\nconstraint 0 2 <\n";

    #[test]
    fn reads_the_sample_with_trailing_spaces() {
        let p = parse_puzzle(SAMPLE).unwrap();
        assert_eq!((p.rows, p.cols), (4, 5));
        assert_eq!(p.row_sums, [Some(4), Some(0), Some(2), Some(1)]);
        assert_eq!(p.fleet.len(), 4);
        assert_eq!(p.fleet[3], FleetShip::Unknown);
        assert_eq!(
            p.hints,
            [Hint {
                cell: Cell::new(0, 2),
                piece: Piece::LeftEnd
            }]
        );
    }

    #[test]
    fn question_marks_are_unknown_sums() {
        let p = parse_puzzle("board 1 2\r\nrows ?\r\ncols 1 ?\r\nsubmarine\r\n").unwrap();
        assert_eq!(p.row_sums, [None]);
        assert_eq!(p.col_sums, [Some(1), None]);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("board 2 2\nrows 1 1\ncols 1 1\nfrigate\n", 4, "frigate"),
            (
                "board 2 2\nrows 1\ncols 1 1\n",
                2,
                "wrong number of row sums",
            ),
            ("board 2 2\nrows 1 1\ncols 1 x\n", 3, "'x'"),
            (
                "board 2 2\nrows 1 1\ncols 1 1\nconstraint 2 0 o\n",
                4,
                "outside",
            ),
            (
                "board 2 2\nrows 1 1\ncols 1 1\nconstraint 0 0 Q\n",
                4,
                "'Q'",
            ),
            ("rows 1 1\n", 1, "before"),
            ("board 2\n", 1, "two numbers"),
        ];
        for (text, line, needle) in cases {
            let err = parse_puzzle(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
            assert!(err.message.contains(needle), "{text:?}: {err}");
        }
        assert_eq!(parse_puzzle("").unwrap_err().line, 0);
    }
}
