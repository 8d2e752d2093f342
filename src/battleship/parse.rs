//! The course's puzzle format, as a nom grammar, statement by statement.
//!
//! ```text
//! board 4 5              rows, columns
//! rows 4 0 2 1           one sum per row, or ?
//! cols 1 2 1 2 1         one sum per column, or ?
//! cruiser                one ship per line (or unknown)
//! constraint 0 2 <       row, column, one of o < > ^ v X _
//! ```
//! A statement is one line: its first word says which, and from there the line must be
//! that statement (`cut`). Blank lines and blanks at the ends of lines are ignored.
//! `board` must come before `rows`, `cols` and `constraint` (they are checked against
//! its size); ships may come anywhere.

use crate::input::grammar::{expecting, fail_at, number_on_line, parse_all};
use crate::input::grammar::{GrammarError, Parsed, Span};
use crate::input::ParseError;
use gridsat_encodings::battleship::{FleetShip, Hint, Piece, Puzzle, ShipType};
use gridsat_encodings::grid::Cell;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{line_ending, space0, space1};
use nom::combinator::{all_consuming, cut, eof, map, peek, value};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::Parser;

/// The largest board side accepted: far beyond any real puzzle (they are 4 to 15 wide),
/// and small enough that the encoding (up to 13 placements per cell) stays within memory.
pub const MAX_BOARD_SIDE: usize = 100;

/// Parses puzzle text; errors carry the 1-based line at fault.
pub fn parse_puzzle(text: &str) -> Result<Puzzle, ParseError> {
    let puzzle = parse_all(text, file)?;
    Ok(puzzle)
}

/// One line of the file.
#[derive(Clone, Debug)]
enum Statement {
    Board(usize, usize),
    Rows(Vec<Option<usize>>),
    Cols(Vec<Option<usize>>),
    Ship(FleetShip),
    Constraint(Hint),
    Blank,
}

/// Every statement to the end of the file, assembled into a puzzle.
fn file(input: Span<'_>) -> Parsed<'_, Puzzle> {
    let mut puzzle = PuzzleText::default();
    let mut input = input;
    while !input.fragment().is_empty() {
        let at = input;
        let (rest, statement) = terminated(
            |i| statement(i, puzzle.board),
            cut(expecting(|| "the end of the line".into(), line_end)),
        )
        .parse(input)?;
        puzzle.add(statement, at)?;
        input = rest;
    }
    Ok((input, puzzle.finish(input)?))
}

/// Blanks, then the end of the line (or of the file).
fn line_end(input: Span<'_>) -> Parsed<'_, ()> {
    preceded(space0, alt((value((), line_ending), value((), eof)))).parse(input)
}

/// A word within the line: a run of non-blank characters.
fn word(input: Span<'_>) -> Parsed<'_, Span<'_>> {
    take_till1(|c: char| c.is_whitespace()).parse(input)
}

/// The keyword `name` as a whole word.
fn keyword<'a>(
    name: &'static str,
) -> impl Parser<Span<'a>, Output = Span<'a>, Error = GrammarError<'a>> {
    terminated(tag(name), peek(alt((space1, line_ending, eof))))
}

/// One statement; `board` is the board size read so far.
fn statement(input: Span<'_>, board: Option<(usize, usize)>) -> Parsed<'_, Statement> {
    let (input, _) = space0(input)?;
    if line_end(input).is_ok() {
        return Ok((input, Statement::Blank));
    }
    let before = |what: &'static str| {
        move |i| match board {
            Some(size) => Ok((i, size)),
            None => Err(fail_at(i, format!("'{what}' before the 'board' line"))),
        }
    };
    alt((
        preceded(keyword("board"), cut(board_size)),
        preceded(
            (keyword("rows"), before("rows")),
            cut(map(
                |i| sums(i, "row", board.map_or(0, |b| b.0)),
                Statement::Rows,
            )),
        ),
        preceded(
            (keyword("cols"), before("cols")),
            cut(map(
                |i| sums(i, "column", board.map_or(0, |b| b.1)),
                Statement::Cols,
            )),
        ),
        preceded(
            (keyword("constraint"), before("constraint")),
            cut(|i| constraint(i, board.unwrap_or((0, 0)))),
        ),
        ship,
    ))
    .parse(input)
}

/// `board ROWS COLS`.
fn board_size(input: Span<'_>) -> Parsed<'_, Statement> {
    map(
        (|i| board_side(i, "rows"), |i| board_side(i, "columns")),
        |(r, c)| Statement::Board(r, c),
    )
    .parse(input)
}

fn board_side<'a>(input: Span<'a>, what: &'static str) -> Parsed<'a, usize> {
    let (rest, _) = space0(input)?;
    let (after, n) = expecting(
        move || format!("the number of {what} ('board' takes two numbers, rows and columns)"),
        number_on_line::<usize>,
    )
    .parse(rest)?;
    if !(1..=MAX_BOARD_SIDE).contains(&n) {
        return Err(fail_at(
            rest,
            format!(
                "the number of {what} must be a whole number from 1 to {MAX_BOARD_SIDE}, not '{n}'"
            ),
        ));
    }
    Ok((after, n))
}

/// The sums of `expected` rows or columns: numbers, or `?` for unknown.
fn sums<'a>(
    input: Span<'a>,
    what: &'static str,
    expected: usize,
) -> Parsed<'a, Vec<Option<usize>>> {
    let sum = |input: Span<'a>| {
        let (rest, text) = preceded(space1, word).parse(input)?;
        let number = map(number_on_line::<usize>, Some);
        match all_consuming(alt((value(None, tag("?")), number))).parse(text) {
            Ok((_, sum)) => Ok((rest, sum)),
            Err(nom::Err::Failure(e)) => Err(nom::Err::Failure(e)),
            Err(_) => Err(fail_at(
                text,
                format!(
                    "{what} sum '{}' is neither a number nor '?'",
                    text.fragment()
                ),
            )),
        }
    };
    let (rest, found) = many0(sum).parse(input)?;
    if found.len() != expected {
        return Err(fail_at(
            input,
            format!(
                "wrong number of {what} sums: expected {expected}, found {}",
                found.len()
            ),
        ));
    }
    Ok((rest, found))
}

/// `constraint ROW COL CH`.
fn constraint(input: Span<'_>, (rows, cols): (usize, usize)) -> Parsed<'_, Statement> {
    let arguments = "'constraint' takes a row, a column and a character";
    let (input, row) = expecting(
        || format!("the row ({arguments})"),
        |i| index(i, "row", rows),
    )
    .parse(input)?;
    let (input, col) = expecting(
        || format!("the column ({arguments})"),
        |i| index(i, "column", cols),
    )
    .parse(input)?;
    let (rest, symbol) = expecting(
        || format!("the character ({arguments})"),
        preceded(space1, word),
    )
    .parse(input)?;
    let mut chars = symbol.fragment().chars();
    let piece = match (chars.next().and_then(Piece::from_symbol), chars.next()) {
        (Some(piece), None) => piece,
        _ => {
            return Err(fail_at(
                symbol,
                format!(
                    "unknown constraint character '{}' (expected one of o < > ^ v X _)",
                    symbol.fragment()
                ),
            ))
        }
    };
    Ok((
        rest,
        Statement::Constraint(Hint {
            cell: Cell::new(row, col),
            piece,
        }),
    ))
}

/// A row or column number of a constraint, on the board.
fn index<'a>(input: Span<'a>, what: &'static str, limit: usize) -> Parsed<'a, usize> {
    let (rest, text) = preceded(space1, word).parse(input)?;
    let n = match all_consuming(number_on_line::<usize>).parse(text) {
        Ok((_, n)) => n,
        Err(_) => {
            return Err(fail_at(
                text,
                format!("constraint {what} '{}' is not a number", text.fragment()),
            ))
        }
    };
    if n >= limit {
        return Err(fail_at(
            text,
            format!(
                "constraint outside the board: {what} {n} (the board has {limit} {what}s, \
                 numbered from 0)"
            ),
        ));
    }
    Ok((rest, n))
}

/// A ship's name (or `unknown`), alone on its line.
fn ship(input: Span<'_>) -> Parsed<'_, Statement> {
    let (rest, name) = word(input)?;
    let ship = match *name.fragment() {
        "unknown" => FleetShip::Unknown,
        other => match ShipType::from_name(other) {
            Some(t) => FleetShip::Known(t),
            None => {
                return Err(fail_at(
                    name,
                    format!(
                        "unknown keyword or ship name '{other}' (expected board, rows, cols, \
                         constraint, unknown or a ship: submarine, destroyer, cruiser, \
                         battleship, carrier, cargo, tanker)"
                    ),
                ))
            }
        },
    };
    if let Ok((_, extra)) = preceded(space1, word).parse(rest) {
        return Err(fail_at(
            extra,
            format!(
                "unexpected '{}' after ship name '{}' (one ship per line)",
                extra.fragment(),
                name.fragment()
            ),
        ));
    }
    Ok((rest, Statement::Ship(ship)))
}

/// The statements read so far.
#[derive(Default)]
struct PuzzleText {
    board: Option<(usize, usize)>,
    row_sums: Option<Vec<Option<usize>>>,
    col_sums: Option<Vec<Option<usize>>>,
    fleet: Vec<FleetShip>,
    hints: Vec<Hint>,
    /// The line of each hint, for a later one that contradicts it.
    hint_lines: Vec<u32>,
}

impl PuzzleText {
    fn add<'a>(
        &mut self,
        statement: Statement,
        at: Span<'a>,
    ) -> Result<(), nom::Err<GrammarError<'a>>> {
        let once = |taken: bool, keyword: &str| {
            if taken {
                Err(fail_at(at, format!("a second '{keyword}' line")))
            } else {
                Ok(())
            }
        };
        match statement {
            Statement::Board(r, c) => {
                once(self.board.is_some(), "board")?;
                self.board = Some((r, c));
            }
            Statement::Rows(sums) => {
                once(self.row_sums.is_some(), "rows")?;
                self.row_sums = Some(sums);
            }
            Statement::Cols(sums) => {
                once(self.col_sums.is_some(), "cols")?;
                self.col_sums = Some(sums);
            }
            Statement::Ship(ship) => self.fleet.push(ship),
            Statement::Constraint(hint) => {
                let earlier = self.hints.iter().position(|h| h.cell == hint.cell);
                match earlier {
                    Some(k) if self.hints[k].piece != hint.piece => {
                        return Err(fail_at(
                            at,
                            format!(
                                "this constraint on row {}, column {} contradicts the one on \
                                 line {} (a cell holds one thing)",
                                hint.cell.row, hint.cell.col, self.hint_lines[k]
                            ),
                        ));
                    }
                    // The same constraint again says nothing new.
                    Some(_) => {}
                    None => {
                        self.hints.push(hint);
                        self.hint_lines.push(at.location_line());
                    }
                }
            }
            Statement::Blank => {}
        }
        Ok(())
    }

    fn finish<'a>(self, end: Span<'a>) -> Result<Puzzle, nom::Err<GrammarError<'a>>> {
        let missing = |what: &str| fail_at(end, format!("no '{what}' line"));
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
            (
                "board 2 2\nrows 1 1\ncols 1 1\nconstraint 0 1 o\n\nconstraint 0 1 _\n",
                6,
                "row 0, column 1 contradicts the one on line 4",
            ),
        ];
        for (text, line, needle) in cases {
            let err = parse_puzzle(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
            assert!(err.message.contains(needle), "{text:?}: {err}");
        }
        assert_eq!(parse_puzzle("").unwrap_err().line, 1);
        // The same constraint twice is no contradiction.
        let twice = parse_puzzle(
            "board 2 2\nrows 1 0\ncols 1 0\nsubmarine\nconstraint 0 0 o\nconstraint 0 0 o\n",
        );
        assert_eq!(twice.unwrap().hints.len(), 1);
        let err = parse_puzzle("board 2 2\nrows 1 1\ncols 1 1\nboard 3 3\n").unwrap_err();
        assert_eq!(
            (err.line, err.message.as_str()),
            (4, "a second 'board' line")
        );
    }
}
