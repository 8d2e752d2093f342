//! Map files, as a grammar: blocks of rows between a line `map` and a line `endmap`;
//! `▓` (U+2593) is an obstacle, a space is open. Text outside the blocks is ignored.
//!
//! What is read liberally, because it cannot mean anything else:
//! - a UTF-8 byte-order mark at the start of the file;
//! - LF and CRLF line ends, mixed too (the `\r` is not part of the row);
//! - blanks (spaces, tabs) before and after the words `map` and `endmap`.
//!
//! What is refused, naming the line, because reading it would skip or change a map
//! without a word (a map file's answer is only as good as its reading):
//! - a carriage return that does not end a line (old Mac line ends would make the whole
//!   file one line, and every map vanish);
//! - outside a block, a line holding `▓` (a map whose `map` line was misspelt, which
//!   would otherwise be skipped) and a lone `endmap`;
//! - inside a block, any character but `▓` and the space (a tab, `#`, another block
//!   character), an empty line, rows of different widths, a second `map` line, more
//!   than 60 rows or columns, and a file that ends before `endmap`;
//! - an open strip along an edge of the map beyond a full wall of obstacles, with open
//!   cells inside the wall: the trailing spaces an editor or a copy from a terminal
//!   adds to every row (or a row of spaces before `endmap`). Read as written they are
//!   open cells cut off from the rest, and a 15-move map would become "No solution".
//!   Trailing spaces are otherwise cells like any other: a map need not have a border
//!   (the board's edge stops the ball).

use crate::input::grammar::{fail_at, parse_all, GrammarError, Parsed, Span};
use crate::input::{decode_text, InputError, ParseError};
use gridsat_encodings::full_board::Board;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till};
use nom::character::complete::{char, line_ending, space0};
use nom::combinator::{consumed, eof, map, not, opt, value};
use nom::error::{ErrorKind, ParseError as _};
use nom::multi::many0;
use nom::sequence::{delimited, preceded};
use nom::Parser;
use std::path::Path;

/// The largest board the course allows, in each dimension.
pub const MAX_SIDE: usize = 60;

pub const OBSTACLE: char = '\u{2593}';
pub const OPEN: char = ' ';
const BYTE_ORDER_MARK: char = '\u{feff}';

/// One map of a file, with the rows as written (for the `No solution` echo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapEntry {
    /// 1-based line of the `map` line.
    pub line: usize,
    pub rows: Vec<String>,
    pub board: Board,
}

/// Every map in `text`, in file order.
pub fn parse_maps(text: &str) -> Result<Vec<MapEntry>, ParseError> {
    parse_all(text, file)
}

/// Every map in the bytes of the file `path`: UTF-8 checked, then parsed; errors read
/// `PATH:LINE: problem`.
pub fn read_map_bytes(path: &Path, bytes: Vec<u8>) -> Result<Vec<MapEntry>, InputError> {
    let text = decode_text(path, bytes)?;
    parse_maps(&text).map_err(|e| InputError::new(path, e))
}

/// file = [byte-order mark] { map block | other line } end of file
fn file(input: Span<'_>) -> Parsed<'_, Vec<MapEntry>> {
    let (input, _) = opt(char(BYTE_ORDER_MARK)).parse(input)?;
    let item = alt((map(map_block, Some), value(None, other_line)));
    let (input, items) = many0(preceded(not(eof), item)).parse(input)?;
    let (input, _) = eof(input)?;
    Ok((input, items.into_iter().flatten().collect()))
}

const LONE_CARRIAGE_RETURN: &str =
    "a carriage return (\\r) that does not end a line: map files have LF or CRLF line ends";

/// The end of a line: `\n`, `\r\n`, or the end of the file.
fn line_end(input: Span<'_>) -> Parsed<'_, ()> {
    alt((value((), line_ending), value((), eof))).parse(input)
}

/// A line's text, without its line end.
fn line_text(input: Span<'_>) -> Parsed<'_, Span<'_>> {
    let (rest, text) = take_till(|c| c == '\n' || c == '\r').parse(input)?;
    match line_end(rest) {
        Ok((rest, ())) => Ok((rest, text)),
        Err(_) => Err(fail_at(rest, LONE_CARRIAGE_RETURN)),
    }
}

/// A line holding `word` alone, blanks around it allowed.
fn marker<'a>(
    word: &'static str,
) -> impl Parser<Span<'a>, Output = Span<'a>, Error = GrammarError<'a>> {
    (delimited(space0, tag(word), space0), line_end).map(|(word, ())| word)
}

/// A line outside the blocks: ignored, unless it is a map's piece without its block.
fn other_line(input: Span<'_>) -> Parsed<'_, ()> {
    let (rest, text) = line_text(input)?;
    if marker("endmap").parse(text).is_ok() {
        return Err(fail_at(text, "`endmap` without a `map` line before it"));
    }
    if text.fragment().contains(OBSTACLE) {
        return Err(fail_at(
            text,
            "a map row outside a `map` ... `endmap` block (a map begins with a line `map` \
             alone; is it misspelt?)",
        ));
    }
    Ok((rest, ()))
}

/// One row of a map: its text as written, and its cells (`true` for open).
struct Row<'a> {
    text: Span<'a>,
    cells: Vec<bool>,
}

/// map block = `map` line, { row }, `endmap` line. The rows are read one at a time so
/// that each is checked against those before it, and a problem is reported at the
/// first line that has one.
fn map_block(input: Span<'_>) -> Parsed<'_, MapEntry> {
    let (mut input, start) = marker("map").parse(input)?;
    let start_line = start.location_line() as usize;
    let mut rows: Vec<Row> = Vec::new();
    loop {
        if let Ok((rest, _)) = marker("endmap").parse(input) {
            return Ok((rest, map_entry(start, rows)?));
        }
        let (rest, row) = row(input, start_line).map_err(|e| match e {
            nom::Err::Error(_) => fail_at(start, "map without `endmap` (the file ends inside it)"),
            other => other,
        })?;
        check_size(&rows, &row)?;
        rows.push(row);
        input = rest;
    }
}

/// row = { `▓` | ` ` } line end, at least one cell. Fails softly (to say "no `endmap`")
/// only at the end of the file.
fn row(input: Span<'_>, map_line: usize) -> Parsed<'_, Row<'_>> {
    if input.fragment().is_empty() {
        return Err(nom::Err::Error(GrammarError::from_error_kind(
            input,
            ErrorKind::Eof,
        )));
    }
    if marker("map").parse(input).is_ok() {
        return Err(fail_at(
            input,
            format!("a `map` line inside the map of line {map_line}: its `endmap` is missing"),
        ));
    }
    let cell = alt((value(false, char(OBSTACLE)), value(true, char(OPEN))));
    let (rest, (text, cells)) = consumed(many0(cell)).parse(input)?;
    match line_end(rest) {
        Ok(_) if cells.is_empty() => {
            Err(fail_at(text, "empty line inside a map (missing `endmap`?)"))
        }
        Ok((rest, ())) => Ok((rest, Row { text, cells })),
        Err(_) => Err(fail_at(rest, bad_character(rest, map_line))),
    }
}

fn bad_character(at: Span<'_>, map_line: usize) -> String {
    let bad = at.fragment().chars().next().unwrap_or(' ');
    if bad == '\r' {
        return LONE_CARRIAGE_RETURN.to_string();
    }
    format!(
        "unexpected character {bad:?} (U+{:04X}) at column {}: a map row holds only \
         '{OBSTACLE}' (obstacle) and ' ' (open), and the map of line {map_line} ends with a \
         line `endmap`",
        bad as u32,
        at.get_utf8_column()
    )
}

/// The limits a row must keep, given the rows before it.
fn check_size<'a>(rows: &[Row<'a>], row: &Row<'a>) -> Result<(), nom::Err<GrammarError<'a>>> {
    if let Some(first) = rows.first() {
        if row.cells.len() != first.cells.len() {
            return Err(fail_at(
                row.text,
                format!(
                    "map is not rectangular: this row has {} cells, the first row has {}",
                    row.cells.len(),
                    first.cells.len()
                ),
            ));
        }
    }
    if row.cells.len() > MAX_SIDE {
        return Err(fail_at(
            row.text,
            format!(
                "map row has {} cells; at most {MAX_SIDE} are allowed",
                row.cells.len()
            ),
        ));
    }
    if rows.len() == MAX_SIDE {
        return Err(fail_at(
            row.text,
            format!("map has more than {MAX_SIDE} rows"),
        ));
    }
    Ok(())
}

/// The map of `rows`, once its `endmap` is read.
fn map_entry<'a>(
    start: Span<'a>,
    rows: Vec<Row<'a>>,
) -> Result<MapEntry, nom::Err<GrammarError<'a>>> {
    if rows.is_empty() {
        return Err(fail_at(start, "map has no rows"));
    }
    if let Some(message) = edge_strip(&rows) {
        return Err(fail_at(rows[message.0].text, message.1));
    }
    let cols = rows[0].cells.len();
    let board = Board::new(
        rows.len(),
        cols,
        rows.iter().flat_map(|r| r.cells.iter().copied()).collect(),
    );
    Ok(MapEntry {
        line: start.location_line() as usize,
        rows: rows.iter().map(|r| r.text.fragment().to_string()).collect(),
        board,
    })
}

/// An open strip along an edge beyond a full wall of obstacles, with open cells inside
/// the wall (see the module documentation): the index of the row to report and why.
fn edge_strip(rows: &[Row<'_>]) -> Option<(usize, String)> {
    let (height, width) = (rows.len(), rows[0].cells.len());
    let open = |r: usize, c: usize| rows[r].cells[c];
    let column_open = |c: usize| (0..height).all(|r| open(r, c));
    let column_wall = |c: usize| (0..height).all(|r| !open(r, c));
    let row_open = |r: usize| (0..width).all(|c| open(r, c));
    let row_wall = |r: usize| (0..width).all(|c| !open(r, c));
    let open_within = |rows_in: std::ops::Range<usize>, cols_in: std::ops::Range<usize>| {
        rows_in.clone().any(|r| cols_in.clone().any(|c| open(r, c)))
    };
    let right = (0..width).rev().take_while(|&c| column_open(c)).count();
    if right > 0
        && right < width
        && column_wall(width - right - 1)
        && open_within(0..height, 0..width - right - 1)
    {
        return Some((
            0,
            format!(
                "every row of this map ends in {right} space(s) after a column of '{OBSTACLE}' \
                 (column {}): read as open cells they are cut off from the rest of the map; \
                 remove the trailing spaces",
                width - right
            ),
        ));
    }
    let left = (0..width).take_while(|&c| column_open(c)).count();
    if left > 0 && left < width && column_wall(left) && open_within(0..height, left + 1..width) {
        return Some((
            0,
            format!(
                "every row of this map begins with {left} space(s) before a column of \
                 '{OBSTACLE}' (column {}): read as open cells they are cut off from the rest \
                 of the map; remove the indentation",
                left + 1
            ),
        ));
    }
    let bottom = (0..height).rev().take_while(|&r| row_open(r)).count();
    if bottom > 0
        && bottom < height
        && row_wall(height - bottom - 1)
        && open_within(0..height - bottom - 1, 0..width)
    {
        return Some((
            height - bottom,
            format!(
                "this map's last {bottom} row(s) are only spaces, below a row of \
                 '{OBSTACLE}': read as open cells they are cut off from the rest of the map; \
                 remove them"
            ),
        ));
    }
    let top = (0..height).take_while(|&r| row_open(r)).count();
    if top > 0 && top < height && row_wall(top) && open_within(top + 1..height, 0..width) {
        return Some((
            0,
            format!(
                "this map's first {top} row(s) are only spaces, above a row of '{OBSTACLE}': \
                 read as open cells they are cut off from the rest of the map; remove them"
            ),
        ));
    }
    None
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

    const SMALL: &str =
        "\u{2593}\u{2593}\u{2593}\u{2593}\n\u{2593}  \u{2593}\n\u{2593}\u{2593}\u{2593}\u{2593}";

    #[test]
    fn markers_may_carry_blanks_and_the_file_a_byte_order_mark() {
        let plain = parse_maps(&format!("map\n{SMALL}\nendmap\n")).unwrap();
        for text in [
            format!("map \n{SMALL}\nendmap\t\n"),
            format!("\u{feff}map\n{SMALL}\nendmap"),
            format!("  map  \r\n{}\r\n endmap \r\n", SMALL.replace('\n', "\r\n")),
        ] {
            let maps = parse_maps(&text).unwrap();
            assert_eq!(maps, plain, "{text:?}");
        }
    }

    #[test]
    fn nothing_that_looks_like_a_map_is_skipped() {
        let cases = [
            (format!("Map\n{SMALL}\nendmap\n"), 2, "outside a `map`"),
            (
                format!("map\n{SMALL}\nendmap\nendmap\n"),
                6,
                "`endmap` without",
            ),
            (format!("map\r{SMALL}\nendmap\n"), 1, "carriage return"),
            (
                format!("map\n{SMALL}\nmap\n{SMALL}\nendmap\n"),
                5,
                "its `endmap` is missing",
            ),
            (format!("map\n{SMALL}\n\nendmap\n"), 5, "empty line"),
            ("map\nendmap\n".to_string(), 1, "no rows"),
            (
                format!("map\n{}\nendmap\n", SMALL.replace('\n', " \n") + " "),
                2,
                "ends in 1 space",
            ),
            (
                format!("map\n  {}\nendmap\n", SMALL.replace('\n', "\n  ")),
                2,
                "begins with 2 space",
            ),
            (format!("map\n{SMALL}\n    \nendmap\n"), 5, "last 1 row"),
            (format!("map\n    \n{SMALL}\nendmap\n"), 2, "first 1 row"),
            ("map\n\u{2593}\t\u{2593}\nendmap\n".to_string(), 2, "'\\t'"),
        ];
        for (text, line, problem) in cases {
            let err = parse_maps(&text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
            assert!(err.message.contains(problem), "{text:?}: {err}");
        }
    }

    #[test]
    fn open_edges_are_cells_when_nothing_walls_them_off() {
        // No border: the board's edge stops the ball; trailing spaces are cells.
        let maps = parse_maps("map\n   \n \u{2593} \nendmap\n").unwrap();
        assert_eq!(maps[0].board.open_cells().len(), 5);
        // A strip beyond a wall with nothing open inside is the map itself.
        let maps = parse_maps("map\n\u{2593} \n\u{2593} \nendmap\n").unwrap();
        assert_eq!(maps[0].board.open_cells().len(), 2);
    }
}
