//! Star Battle puzzles in two formats, as nom grammars.
//!
//! **Course format** (the homework's): whitespace-separated tokens, `ROWS COLS`, then per
//! zone `LABEL COUNT` and COUNT pairs `x y` (x = column, y = row, (0, 0) top-left). A
//! label is any single non-blank character, digits included: the count says how many
//! pairs follow, so `3 4 / 0 6 / 0 0 ...` is unambiguously a zone labelled `0`.
//!
//! **Letter grid** (puzzle sites, r/dailyprogrammer): an optional first line holding the
//! number of stars, then one row of zone letters per line (blanks between letters and
//! blank lines are ignored).
//!
//! The format is told by the first non-blank line: a number (or what starts like one, such
//! as `-3`) followed by more words starts the course format; anything else is a letter
//! grid. A letter grid's row is its letters written together (`aabb`) or one per blank
//! (`a a b b`), never a mix (`size 3 6` is a broken course header, not a row).
//! A first line of digits alone is the star count, unless the grid is square only with
//! it as a row of zone letters (`1122` / `1122` / `3344` / `3344` is a 4 x 4 grid).

use crate::input::grammar::{expecting, fail_at, hinting, number, number_on_line, parse_all, word};
use crate::input::grammar::{GrammarError, Parsed, Span};
use crate::input::{is_invisible, visible, ParseError};
use gridsat_encodings::grid::Cell;
use gridsat_encodings::star_battle::{Puzzle, Zone};
use nom::branch::alt;
use nom::character::complete::{line_ending, multispace0, none_of, space0};
use nom::combinator::{cut, eof, opt, value};
use nom::multi::{many0, many1};
use nom::sequence::{preceded, terminated};
use nom::Parser;

/// A parsed file: the puzzle, and the star count when the file states one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedPuzzle {
    pub puzzle: Puzzle,
    pub stars: Option<usize>,
}

/// Grids larger than this on either side are refused: far beyond any published puzzle,
/// and small enough that the CNF stays in memory.
pub const MAX_SIDE: usize = 512;

pub fn parse(text: &str) -> Result<ParsedPuzzle, ParseError> {
    let first = text.lines().find(|l| !l.trim().is_empty());
    let Some(first) = first else {
        return Err(ParseError::new(1, "the file is empty"));
    };
    let words: Vec<&str> = first.split_whitespace().collect();
    // A number followed by more on the first line can only be the course's `ROWS COLS`
    // (a letter grid's first line is its star count alone, or a row of letters).
    let numeric = |w: &str| {
        let w = w.strip_prefix(['-', '+']).unwrap_or(w);
        w.starts_with(|c: char| c.is_ascii_digit())
    };
    if words.len() >= 2 && numeric(words[0]) {
        let puzzle = parse_all(text, course_file)?;
        return Ok(ParsedPuzzle {
            puzzle,
            stars: None,
        });
    }
    let counted = parse_all(text, |i| letter_grid(i, StarLine::Allowed))?;
    let (rows, cols) = (counted.puzzle.rows, counted.puzzle.cols);
    if counted.stars.is_some() && rows != cols && rows + 1 == cols && first.trim().len() == cols {
        return parse_all(text, |i| letter_grid(i, StarLine::Row));
    }
    Ok(counted)
}

/// Whether a letter grid's first line of digits may be its star count.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StarLine {
    Allowed,
    /// Read it as the first row of zone letters.
    Row,
}

/// A zone as written: its label (and where), and its cells (and where each was).
struct ZoneText<'a> {
    label: char,
    at: Span<'a>,
    cells: Vec<(Cell, Span<'a>)>,
}

/// `ROWS COLS` then zones, to the end of the file.
fn course_file(input: Span<'_>) -> Parsed<'_, Puzzle> {
    let (input, _) = multispace0(input)?;
    let size_at = input;
    let (input, rows) =
        expecting(|| "the number of rows (a whole number)".into(), number).parse(input)?;
    let (input, cols) = cut(expecting(
        || "the number of columns (a whole number)".into(),
        number,
    ))
    .parse(input)?;
    check_size(rows, cols, size_at)?;
    let (input, zones) = many0(|i| zone(i, rows, cols)).parse(input)?;
    let (rest, _) = expecting(
        || "a zone label (one character) or the end of the file".into(),
        preceded(multispace0, eof),
    )
    .parse(input)?;
    Ok((rest, assemble(rows, cols, zones, rest)?))
}

/// `LABEL COUNT` and COUNT pairs `x y`. Once a label is read, the rest must follow.
fn zone(input: Span<'_>, rows: usize, cols: usize) -> Parsed<'_, ZoneText<'_>> {
    let (input, at) = word(input)?;
    let mut chars = at.fragment().chars();
    let label = chars.next().expect("a word is never empty");
    if chars.next().is_some() {
        return Err(fail_at(
            at,
            format!(
                "zone label '{}' is longer than one character",
                at.fragment()
            ),
        ));
    }
    check_label(label, at)?;
    // A digit label may be a cell pair that a too small count left over.
    let hint = move || {
        format!(
            "'{label}' was read as a zone label: if it starts a cell pair instead, the zone \
             before it declares too few cells"
        )
    };
    let rest_of_zone = |input| zone_cells(input, label, at, rows, cols);
    let (input, cells) = if label.is_ascii_digit() {
        hinting(hint, rest_of_zone).parse(input)?
    } else {
        rest_of_zone(input)?
    };
    Ok((input, ZoneText { label, at, cells }))
}

/// A zone's `COUNT` and its COUNT pairs `x y`.
fn zone_cells<'a>(
    input: Span<'a>,
    label: char,
    at: Span<'a>,
    rows: usize,
    cols: usize,
) -> Parsed<'a, Vec<(Cell, Span<'a>)>> {
    let (input, count) = cut(expecting(
        || format!("the cell count of zone '{label}' (a whole number)"),
        number::<usize>,
    ))
    .parse(input)?;
    if count == 0 {
        return Err(fail_at(
            at,
            format!("zone '{label}' has no cells; every zone needs at least one"),
        ));
    }
    let mut cells = Vec::new();
    let mut input = input;
    for k in 1..=count {
        let what = |axis: &'static str| {
            move || format!("the {axis} of cell {k} of zone '{label}' (it declares {count} cells)")
        };
        let (rest, _) = multispace0(input)?;
        let cell_at = rest;
        let (rest, x) = cut(expecting(what("x coordinate"), number::<usize>)).parse(rest)?;
        let (rest, y) = cut(expecting(what("y coordinate"), number::<usize>)).parse(rest)?;
        if x >= cols || y >= rows {
            return Err(fail_at(
                cell_at,
                format!(
                    "cell (x={x}, y={y}) of zone '{label}' is outside the grid ({rows} rows, \
                     {cols} columns; x < {cols}, y < {rows})"
                ),
            ));
        }
        cells.push((Cell::new(y, x), cell_at));
        input = rest;
    }
    Ok((input, cells))
}

/// The zones as a puzzle: every cell in exactly one zone, every label once.
fn assemble<'a>(
    rows: usize,
    cols: usize,
    zones: Vec<ZoneText<'a>>,
    end: Span<'a>,
) -> Result<Puzzle, nom::Err<GrammarError<'a>>> {
    if zones.is_empty() {
        return Err(fail_at(
            end,
            "the file describes no zone; at least one is needed",
        ));
    }
    let mut owner: Vec<Option<(char, u32)>> = vec![None; rows * cols];
    for (k, zone) in zones.iter().enumerate() {
        if let Some(first) = zones[..k].iter().find(|z| z.label == zone.label) {
            return Err(fail_at(
                zone.at,
                format!(
                    "zone label '{}' is used twice (first on line {})",
                    zone.label,
                    first.at.location_line()
                ),
            ));
        }
        for &(cell, at) in &zone.cells {
            let slot = &mut owner[cell.row * cols + cell.col];
            if let Some((other, line)) = *slot {
                return Err(fail_at(
                    at,
                    format!(
                        "cell (x={}, y={}) is in zone '{}' but already in zone '{other}' (line {line})",
                        cell.col, cell.row, zone.label
                    ),
                ));
            }
            *slot = Some((zone.label, at.location_line()));
        }
    }
    if let Some(i) = owner.iter().position(Option::is_none) {
        return Err(fail_at(
            end,
            format!(
                "cell (x={}, y={}) belongs to no zone (every cell needs one)",
                i % cols,
                i / cols
            ),
        ));
    }
    Ok(Puzzle {
        rows,
        cols,
        zones: zones
            .into_iter()
            .map(|z| Zone {
                label: z.label,
                cells: z.cells.into_iter().map(|(c, _)| c).collect(),
            })
            .collect(),
    })
}

/// `@` draws a star, so no zone may be called that.
fn check_label<'a>(label: char, at: Span<'a>) -> Result<(), nom::Err<GrammarError<'a>>> {
    if label == '@' {
        return Err(fail_at(
            at,
            "'@' cannot be a zone label: it is how a star is printed",
        ));
    }
    if is_invisible(label) {
        // A zero-width space pasted into a row would otherwise be a zone of its own.
        return Err(fail_at(
            at,
            format!(
                "{} cannot be a zone label: it does not show on the page",
                visible(label)
            ),
        ));
    }
    Ok(())
}

fn check_size<'a>(
    rows: usize,
    cols: usize,
    at: Span<'a>,
) -> Result<(), nom::Err<GrammarError<'a>>> {
    if rows == 0 || cols == 0 {
        return Err(fail_at(
            at,
            format!("the grid must have at least one row and one column, found {rows} x {cols}"),
        ));
    }
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(fail_at(
            at,
            format!("the grid is {rows} x {cols}; at most {MAX_SIDE} x {MAX_SIDE} is supported"),
        ));
    }
    Ok(())
}

/// The end of a line, or of the file.
fn line_end(input: Span<'_>) -> Parsed<'_, ()> {
    preceded(space0, alt((value((), line_ending), value((), eof)))).parse(input)
}

/// Lines holding nothing but blanks.
fn blank_lines(input: Span<'_>) -> Parsed<'_, ()> {
    value((), many0(preceded(space0, line_ending))).parse(input)
}

/// An optional star count on a line of its own, then rows of zone letters.
fn letter_grid(input: Span<'_>, star_line: StarLine) -> Parsed<'_, ParsedPuzzle> {
    let (input, _) = blank_lines(input)?;
    let stars_at = input;
    let (input, stars) = match star_line {
        StarLine::Allowed => opt(terminated(number_on_line::<usize>, line_end)).parse(input)?,
        StarLine::Row => (input, None),
    };
    if stars == Some(0) {
        return Err(fail_at(stars_at, "the star count must be at least 1"));
    }
    let row = preceded(
        blank_lines,
        terminated(
            many1(preceded(
                space0,
                nom::combinator::recognize(many1(none_of(" \t\r\n"))),
            )),
            line_end,
        ),
    );
    let (input, rows) = expecting(|| "a row of zone letters".into(), many1(row)).parse(input)?;
    let (rest, _) = preceded(
        multispace0,
        expecting(
            || "a row of zone letters or the end of the file".into(),
            eof,
        ),
    )
    .parse(input)?;
    let mut grid: Vec<Vec<char>> = Vec::new();
    let mut first_line = 0;
    for row in &rows {
        let at = row[0];
        if row.len() > 1 {
            if let Some(long) = row.iter().find(|w| w.fragment().chars().nth(1).is_some()) {
                return Err(fail_at(
                    at,
                    format!(
                        "this line mixes the word '{}' with single letters: a row of zone \
                         letters is written together (aabb) or one letter per blank (a a b b), \
                         and a course file starts with ROWS COLS (two whole numbers)",
                        long.fragment()
                    ),
                ));
            }
        }
        let cells: Vec<(char, Span<'_>)> = row
            .iter()
            .flat_map(|w| {
                w.fragment()
                    .char_indices()
                    .map(move |(k, c)| (c, nom::Input::take_from(w, k)))
            })
            .collect();
        // Labels first: an invisible one also makes the row look a letter too long.
        for &(label, span) in &cells {
            check_label(label, span)?;
        }
        let letters: Vec<char> = cells.iter().map(|&(c, _)| c).collect();
        if let Some(first) = grid.first() {
            if letters.len() != first.len() {
                return Err(fail_at(
                    at,
                    format!(
                        "row has {} zone letters but the first row (line {first_line}) has {}",
                        letters.len(),
                        first.len()
                    ),
                ));
            }
        } else {
            first_line = at.location_line();
        }
        check_size(grid.len() + 1, letters.len(), at)?;
        grid.push(letters);
    }
    let cols = grid[0].len();
    let mut zones: Vec<Zone> = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for (c, &label) in row.iter().enumerate() {
            let cell = Cell::new(r, c);
            match zones.iter_mut().find(|z| z.label == label) {
                Some(zone) => zone.cells.push(cell),
                None => zones.push(Zone {
                    label,
                    cells: vec![cell],
                }),
            }
        }
    }
    Ok((
        rest,
        ParsedPuzzle {
            puzzle: Puzzle {
                rows: grid.len(),
                cols,
                zones,
            },
            stars,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUSTOM1: &str =
        "4 3\nL 6\n0 0\n1 0\n0 1\n1 1\n0 2\n1 2\nX 6\n2 0\n2 1\n2 2\n0 3\n1 3\n2 3";

    fn err(text: &str) -> ParseError {
        parse(text).expect_err("should be rejected")
    }

    #[test]
    fn reads_the_course_format() {
        let p = parse(CUSTOM1).unwrap();
        assert_eq!((p.puzzle.rows, p.puzzle.cols), (4, 3));
        assert_eq!(p.puzzle.zones.len(), 2);
        assert_eq!(p.puzzle.zones[1].label, 'X');
        // x is the column, y the row.
        assert_eq!(p.puzzle.zones[1].cells[3], Cell::new(3, 0));
        assert_eq!(p.stars, None);
    }

    #[test]
    fn any_single_character_is_a_label_digits_included() {
        let p = parse("1 2\n0 1\n0 0\n7 1\n1 0\n").unwrap();
        let labels: Vec<char> = p.puzzle.zones.iter().map(|z| z.label).collect();
        assert_eq!(labels, ['0', '7']);
        assert_eq!(p.puzzle.zones[1].cells, [Cell::new(0, 1)]);
    }

    #[test]
    fn a_first_row_of_digits_is_a_row_when_only_that_makes_the_grid_square() {
        let p = parse("1122\n1122\n3344\n3344\n").unwrap();
        assert_eq!((p.puzzle.rows, p.puzzle.cols, p.stars), (4, 4, None));
        assert_eq!(p.puzzle.zones.len(), 4);
        let p = parse("1\n1122\n1122\n3344\n3344\n").unwrap();
        assert_eq!((p.puzzle.rows, p.puzzle.cols, p.stars), (4, 4, Some(1)));
        // Not square either way: the digits stay the star count.
        let p = parse("2\nab\nab\n").unwrap();
        assert_eq!((p.puzzle.rows, p.puzzle.cols, p.stars), (2, 2, Some(2)));
    }

    #[test]
    fn a_broken_course_header_is_reported_at_line_1() {
        let e = err("-3 6\na 2 0 0 1 0\n");
        assert_eq!(e.line, 1);
        assert!(e.message.contains("number of rows"), "{}", e.message);
        let e = err("size 3 6\na 2 0 0 1 0\n");
        assert_eq!(e.line, 1);
        assert!(e.message.contains("mixes the word 'size'"), "{}", e.message);
        assert!(e.message.contains("ROWS COLS"), "{}", e.message);
    }

    #[test]
    fn an_invisible_label_is_refused_where_it_stands() {
        let e = err("aab\na\u{200b}bb\nccb\n");
        assert_eq!(e.line, 2);
        assert!(
            e.message
                .contains("'\\u{200b}' (U+200B) cannot be a zone label"),
            "{}",
            e.message
        );
    }

    #[test]
    fn letters_one_per_blank_read_like_letters_together() {
        let spaced = parse("a a b b\na a b b\nc c d d\nc c d d\n").unwrap();
        assert_eq!(spaced, parse("aabb\naabb\nccdd\nccdd\n").unwrap());
    }

    #[test]
    fn crlf_and_trailing_spaces_are_fine() {
        let text = CUSTOM1.replace('\n', "  \r\n");
        assert_eq!(parse(&text).unwrap(), parse(CUSTOM1).unwrap());
    }

    #[test]
    fn reads_a_letter_grid_with_and_without_stars() {
        let p = parse("2\nAAB\nACB\nCCB\n").unwrap();
        assert_eq!(p.stars, Some(2));
        assert_eq!(p.puzzle.zones.len(), 3);
        assert_eq!(
            p.puzzle.zones[2].cells,
            vec![Cell::new(1, 1), Cell::new(2, 0), Cell::new(2, 1)]
        );
        assert_eq!(parse("AB\nAB").unwrap().stars, None);
        let spaced = parse("\n1\r\n A A B \r\n\r\n A C B\r\n").unwrap();
        assert_eq!(spaced.stars, Some(1));
        assert_eq!((spaced.puzzle.rows, spaced.puzzle.cols), (2, 3));
    }

    #[test]
    fn errors_name_the_line() {
        let out_of_grid = CUSTOM1.replace("2 3", "3 3");
        let e = err(&out_of_grid);
        assert_eq!(e.line, 15);
        assert!(e.message.contains("outside the grid"), "{e}");

        let twice = CUSTOM1.replace("2 0\n2 1", "1 1\n2 1");
        let e = err(&twice);
        assert_eq!(e.line, 10);
        assert!(e.message.contains("already in zone 'L' (line 6)"), "{e}");

        let e = err(&CUSTOM1.replace("2 3", ""));
        assert!(
            e.message.contains("x coordinate of cell 6 of zone 'X'"),
            "{e}"
        );

        // A count one short: the sixth pair `2 3` reads as a zone labelled '2' with 3
        // cells, which the file does not have.
        let e = err(&CUSTOM1.replace("X 6", "X 5"));
        assert!(e.message.contains("zone '2' (it declares 3 cells)"), "{e}");
        assert!(e.message.contains("found the end of the file"), "{e}");
        assert!(e.message.contains("declares too few cells"), "{e}");

        let e = err(&CUSTOM1.replace("X 6", "XY 6"));
        assert_eq!(e.line, 9);
        assert!(e.message.contains("longer than one character"), "{e}");

        let e = err(&CUSTOM1.replace(
            "X 6\n2 0\n2 1\n2 2\n0 3\n1 3\n2 3",
            "X 5\n2 0\n2 1\n2 2\n0 3\n1 3",
        ));
        assert!(
            e.message.contains("cell (x=2, y=3) belongs to no zone"),
            "{e}"
        );

        let e = err("4");
        assert!(
            e.message.contains("no grid rows")
                || e.message.contains("columns")
                || e.message.contains("row of zone letters"),
            "{e}"
        );
        let e = err("4 x\n");
        assert_eq!(e.line, 1);
        let e = err("4 3\nL six\n");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("found 'six'"), "{e}");
        let e = err("4 3\n");
        assert!(e.message.contains("no zone"), "{e}");
        let e = err("   \n\n");
        assert!(e.message.contains("empty"), "{e}");
        let e = err("AAB\nAB\n");
        assert_eq!(e.line, 2);
        let e = err("1 1\nL 0\n");
        assert!(e.message.contains("no cells"), "{e}");
        let e = err("1 2\nL 1\n0 0\nL 1\n1 0\n");
        assert!(e.message.contains("used twice"), "{e}");
        let e = err("1000 1000\n");
        assert!(e.message.contains("at most"), "{e}");
        let e = err("2 2\nA 4\n0 0\n1 0\n0 1\n1 1\n@");
        assert!(e.message.contains("'@' cannot be a zone label"), "{e}");
        assert_eq!(e.line, 7);
        let e = err("3\n");
        assert!(e.message.contains("row of zone letters"), "{e}");
    }
}
