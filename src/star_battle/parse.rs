//! Reading Star Battle puzzles in two formats.
//!
//! **Seed format** (the homework's): whitespace-separated tokens, `ROWS COLS`, then per
//! zone `LABEL COUNT` and COUNT pairs `x y` (x = column, y = row, (0, 0) top-left).
//!
//! **Letter grid** (puzzle sites, r/dailyprogrammer): an optional first line holding the
//! number of stars, then one row of zone letters per line.
//!
//! The format is told by the first non-blank line: a number followed by more words starts
//! the seed format; anything else is a letter grid.

use crate::input::ParseError;
use gridsat_encodings::grid::Cell;
use gridsat_encodings::star_battle::{Puzzle, Zone};
use nom::bytes::complete::take_till1;
use nom::character::complete::multispace0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

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
        return Err(ParseError::new(0, "the file is empty"));
    };
    let words: Vec<&str> = first.split_whitespace().collect();
    // A number followed by more on the first line can only be the seed's `ROWS COLS`
    // (a letter grid's first line is its star count alone, or a row of letters).
    let is_seed = words.len() >= 2 && words[0].parse::<u64>().is_ok();
    if is_seed {
        parse_seed(text).map(|puzzle| ParsedPuzzle {
            puzzle,
            stars: None,
        })
    } else {
        parse_letter_grid(text)
    }
}

/// One whitespace-separated word and the line it stands on.
#[derive(Copy, Clone, Debug)]
struct Token<'a> {
    text: &'a str,
    line: usize,
}

fn word(input: &str) -> IResult<&str, &str> {
    preceded(multispace0, take_till1(char::is_whitespace)).parse(input)
}

/// Streams tokens with their line numbers, so a huge file is never held as a token list.
struct Tokens<'a> {
    rest: &'a str,
    line: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens {
            rest: text,
            line: 1,
        }
    }

    /// The line of the last token read, for "end of file" errors.
    fn line(&self) -> usize {
        self.line
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let (rest, text) = word(self.rest).ok()?;
        let consumed = self.rest.len() - rest.len() - text.len();
        self.line += self.rest[..consumed].matches('\n').count();
        self.rest = rest;
        Some(Token {
            text,
            line: self.line,
        })
    }
}

struct SeedReader<'a> {
    tokens: Tokens<'a>,
}

impl<'a> SeedReader<'a> {
    fn next(&mut self, what: &str) -> Result<Token<'a>, ParseError> {
        self.tokens.next().ok_or_else(|| {
            ParseError::new(
                self.tokens.line(),
                format!("expected {what}, found the end of the file"),
            )
        })
    }

    fn number(&mut self, what: &str) -> Result<(usize, usize), ParseError> {
        let token = self.next(what)?;
        let value = token.text.parse::<usize>().map_err(|_| {
            ParseError::new(
                token.line,
                format!("expected {what} (a whole number), found '{}'", token.text),
            )
        })?;
        Ok((value, token.line))
    }
}

fn parse_seed(text: &str) -> Result<Puzzle, ParseError> {
    let mut reader = SeedReader {
        tokens: Tokens::new(text),
    };
    let (rows, line) = reader.number("the number of rows")?;
    let (cols, _) = reader.number("the number of columns")?;
    check_size(rows, cols, line)?;

    let mut owner: Vec<Option<(char, usize)>> = vec![None; rows * cols];
    let mut zones: Vec<Zone> = Vec::new();
    let mut label_lines: Vec<(char, usize)> = Vec::new();
    while let Some(token) = reader.tokens.next() {
        let label = zone_label(token, zones.last(), &label_lines)?;
        let (count, count_line) = reader.number(&format!("the cell count of zone '{label}'"))?;
        if count == 0 {
            return Err(ParseError::new(
                count_line,
                format!("zone '{label}' has no cells; every zone needs at least one"),
            ));
        }
        let mut cells = Vec::new();
        for k in 1..=count {
            let what = |axis: &str| {
                format!("the {axis} of cell {k} of zone '{label}' (it declares {count} cells)")
            };
            let (x, x_line) = reader.number(&what("x coordinate"))?;
            let (y, _) = reader.number(&what("y coordinate"))?;
            if x >= cols || y >= rows {
                return Err(ParseError::new(
                    x_line,
                    format!(
                        "cell (x={x}, y={y}) of zone '{label}' is outside the grid \
                         ({rows} rows, {cols} columns; x < {cols}, y < {rows})"
                    ),
                ));
            }
            let slot = &mut owner[y * cols + x];
            if let Some((other, other_line)) = *slot {
                return Err(ParseError::new(
                    x_line,
                    format!(
                        "cell (x={x}, y={y}) is in zone '{label}' but already in zone \
                         '{other}' (line {other_line})"
                    ),
                ));
            }
            *slot = Some((label, x_line));
            cells.push(Cell::new(y, x));
        }
        label_lines.push((label, token.line));
        zones.push(Zone { label, cells });
    }
    if zones.is_empty() {
        return Err(ParseError::new(
            reader.tokens.line(),
            "the file describes no zone; at least one is needed",
        ));
    }
    if let Some(i) = owner.iter().position(Option::is_none) {
        return Err(ParseError::new(
            reader.tokens.line(),
            format!(
                "cell (x={}, y={}) belongs to no zone (every cell needs one)",
                i % cols,
                i / cols
            ),
        ));
    }
    Ok(Puzzle { rows, cols, zones })
}

fn zone_label(
    token: Token<'_>,
    previous: Option<&Zone>,
    seen: &[(char, usize)],
) -> Result<char, ParseError> {
    let mut chars = token.text.chars();
    let label = chars.next().expect("tokens are never empty");
    if token.text.parse::<u64>().is_ok() {
        let hint = match (previous, seen.last()) {
            (Some(zone), Some(&(_, line))) => format!(
                " (does zone '{}' of line {line} have more cell pairs than its count {}?)",
                zone.label,
                zone.cells.len()
            ),
            _ => String::new(),
        };
        return Err(ParseError::new(
            token.line,
            format!(
                "expected a zone label, found the number '{}'{hint}",
                token.text
            ),
        ));
    }
    if chars.next().is_some() {
        return Err(ParseError::new(
            token.line,
            format!("zone label '{}' is longer than one character", token.text),
        ));
    }
    check_label(label, token.line)?;
    if let Some(&(_, line)) = seen.iter().find(|&&(l, _)| l == label) {
        return Err(ParseError::new(
            token.line,
            format!("zone label '{label}' is used twice (first on line {line})"),
        ));
    }
    Ok(label)
}

/// `@` draws a star, so no zone may be called that.
fn check_label(label: char, line: usize) -> Result<(), ParseError> {
    if label == '@' {
        return Err(ParseError::new(
            line,
            "'@' cannot be a zone label: it is how a star is printed",
        ));
    }
    Ok(())
}

fn check_size(rows: usize, cols: usize, line: usize) -> Result<(), ParseError> {
    if rows == 0 || cols == 0 {
        return Err(ParseError::new(
            line,
            format!("the grid must have at least one row and one column, found {rows} x {cols}"),
        ));
    }
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(ParseError::new(
            line,
            format!("the grid is {rows} x {cols}; at most {MAX_SIDE} x {MAX_SIDE} is supported"),
        ));
    }
    Ok(())
}

fn parse_letter_grid(text: &str) -> Result<ParsedPuzzle, ParseError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .peekable();
    let mut stars = None;
    if let Some(&(line, first)) = lines.peek() {
        if first.chars().all(|c| c.is_ascii_digit()) {
            let value: usize = first
                .parse()
                .map_err(|_| ParseError::new(line, format!("star count '{first}' is too large")))?;
            if value == 0 {
                return Err(ParseError::new(line, "the star count must be at least 1"));
            }
            stars = Some(value);
            lines.next();
        }
    }
    let mut rows: Vec<Vec<char>> = Vec::new();
    let mut first_line = 0;
    for (line, text) in lines {
        let row: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if let Some(first) = rows.first() {
            if row.len() != first.len() {
                return Err(ParseError::new(
                    line,
                    format!(
                        "row has {} zone letters but the first row (line {first_line}) has {}",
                        row.len(),
                        first.len()
                    ),
                ));
            }
        } else {
            first_line = line;
        }
        for &c in &row {
            check_label(c, line)?;
        }
        check_size(rows.len() + 1, row.len(), line)?;
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(ParseError::new(
            0,
            "the file has a star count but no grid rows",
        ));
    }
    let cols = rows[0].len();
    let mut zones: Vec<Zone> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
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
    Ok(ParsedPuzzle {
        puzzle: Puzzle {
            rows: rows.len(),
            cols,
            zones,
        },
        stars,
    })
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
    fn reads_the_seed_format() {
        let p = parse(CUSTOM1).unwrap();
        assert_eq!((p.puzzle.rows, p.puzzle.cols), (4, 3));
        assert_eq!(p.puzzle.zones.len(), 2);
        assert_eq!(p.puzzle.zones[1].label, 'X');
        // x is the column, y the row.
        assert_eq!(p.puzzle.zones[1].cells[3], Cell::new(3, 0));
        assert_eq!(p.stars, None);
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

        let e = err(&CUSTOM1.replace("X 6", "X 5"));
        assert!(e.message.contains("found the number '2'"), "{e}");
        assert!(e.message.contains("count 5"), "{e}");

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
            e.message.contains("no grid rows") || e.message.contains("columns"),
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
    }
}
