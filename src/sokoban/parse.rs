//! Level files: XSB and the course's digit map, one or many levels per file, read by a
//! nom grammar of lines.
//!
//! ```text
//! file    = item* EOF
//! item    = blank | comment | board | title
//! blank   = blanks EOL                   (XSB: spaces and tabs; digit map: any blank)
//! comment = ";" text EOL
//! board   = row+                         (a row is never blank)
//! row     = XSB: one or more of "#@+$*.-_ " then EOL; digit map: digits, blanks, EOL
//! title   = any other line, up to EOL
//! EOL     = any "\r", then a newline or the end of the file
//! ```
//!
//! What the items mean (`assemble`): levels are the boards, in order. A comment or a
//! title line (in XSB a line holding any character outside the XSB set, such as
//! Microban 44's `'Duh!'`) names the next board, the last one before it winning; only
//! `Title:` right after a board names that board; `Author:` and `Comment:` lines name
//! nothing. A title line right after a board that is followed by board rows again,
//! with no blank line between, is a stray character inside one board and reported as
//! such. The digit map has no titles: such a line is a bad character. Rows may differ in
//! length; a board becomes a `Level` (which checks the player, the goals and the walls)
//! only when it is asked for, so `--level N` does not check the other levels.

use crate::input::grammar::{fail_at, parse_all, GrammarError, Parsed, Span};
use crate::input::{decode_text, InputError, ParseError};
use gridsat_encodings::sokoban::{Level, Square};
use nom::branch::alt;
use nom::bytes::complete::{take_till, take_while, take_while1};
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{eof, map, not, opt, peek, value};
use nom::multi::{many0, many1};
use nom::sequence::{preceded, terminated};
use nom::Parser;
use std::path::Path;

/// Which text format a level file is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LevelFormat {
    /// Decide from the first board row: digits mean the digit map, anything else XSB.
    Auto,
    /// `#` wall, `@` player, `+` player on goal, `$` box, `*` box on goal, `.` goal.
    Xsb,
    /// The course's digit map: one digit per square, 1 goal + 2 box + 4 player + 8 wall.
    Digits,
}

impl LevelFormat {
    fn name(self) -> &'static str {
        match self {
            LevelFormat::Digits => "digit map",
            _ => "XSB",
        }
    }
}

const XSB_CHARS: &str = "#@+$*.-_ ";

/// One level of a file, with where it came from.
#[derive(Clone, Debug)]
pub struct LevelEntry {
    /// 1-based position in the file.
    pub number: usize,
    pub title: Option<String>,
    /// The file line of the level's first board row.
    pub first_line: usize,
    pub level: Level,
}

/// Reads every level of the file `path` holding `bytes`, or only level `select`
/// (1-based) when given: errors read `FILE:LINE: level N: problem`.
pub fn parse_file(
    path: &Path,
    bytes: Vec<u8>,
    format: LevelFormat,
    select: Option<usize>,
) -> Result<Vec<LevelEntry>, InputError> {
    let text = decode_text(path, bytes)?;
    parse_levels(&text, format, select).map_err(|e| InputError::new(path, e))
}

/// Reads every level of `text`, or only level `select` (1-based) when given; the other
/// levels are then only split off, not checked.
pub fn parse_levels(
    text: &str,
    format: LevelFormat,
    select: Option<usize>,
) -> Result<Vec<LevelEntry>, ParseError> {
    let format = match format {
        LevelFormat::Auto => detect(text),
        f => f,
    };
    let boards = parse_all(text, file(format))?;
    if boards.is_empty() {
        return Err(ParseError::new(0, "no level in the file"));
    }
    if let Some(n) = select {
        if n == 0 || n > boards.len() {
            return Err(ParseError::new(
                0,
                format!(
                    "there is no level {n}: the file has {} level(s)",
                    boards.len()
                ),
            ));
        }
    }
    boards
        .into_iter()
        .enumerate()
        .filter(|(i, _)| select.is_none_or(|n| n == i + 1))
        .map(|(i, board)| {
            let number = i + 1;
            let grid: Vec<Vec<Square>> = board.rows.iter().map(|(_, r)| r.clone()).collect();
            let level = Level::new(&grid).map_err(|e| {
                let line = e.row.map_or(board.first_line, |r| board.rows[r].0);
                ParseError::new(line, format!("level {number}: {}", e.message))
            })?;
            Ok(LevelEntry {
                number,
                title: board.title,
                first_line: board.first_line,
                level,
            })
        })
        .collect()
}

/// A line of the file, as the grammar reads it.
#[derive(Clone, Debug, PartialEq)]
enum Item<'a> {
    Blank,
    /// The text after `;`.
    Comment(Span<'a>),
    /// The rows of one board.
    Board(Vec<Span<'a>>),
    /// Any other line.
    Title(Span<'a>),
}

/// A board's rows as squares (with their lines) and its title.
struct Board {
    title: Option<String>,
    first_line: usize,
    rows: Vec<(usize, Vec<Square>)>,
}

fn file<'a>(format: LevelFormat) -> impl FnMut(Span<'a>) -> Parsed<'a, Vec<Board>> {
    move |input| {
        let (rest, items) = terminated(many0(item(format)), eof).parse(input)?;
        Ok((rest, assemble(items, format)?))
    }
}

fn item<'a>(format: LevelFormat) -> impl FnMut(Span<'a>) -> Parsed<'a, Item<'a>> {
    move |input| {
        alt((
            value(Item::Blank, blank(format)),
            map(comment, Item::Comment),
            map(many1(row(format)), Item::Board),
            map(title, Item::Title),
        ))
        .parse(input)
    }
}

/// Any `\r`, then a newline or the end of the file.
fn end_of_line(input: Span<'_>) -> Parsed<'_, ()> {
    value(
        (),
        preceded(
            take_while(|c| c == '\r'),
            alt((value((), char('\n')), value((), eof))),
        ),
    )
    .parse(input)
}

/// Blanks to the end of the line (any whitespace but the newline itself, `\r` too).
fn trailing_blanks(input: Span<'_>) -> Parsed<'_, ()> {
    value(
        (),
        terminated(
            take_while(|c: char| c.is_whitespace() && c != '\n'),
            alt((value((), char('\n')), value((), eof))),
        ),
    )
    .parse(input)
}

/// A line with nothing on it (never the empty rest of the file).
fn blank<'a>(format: LevelFormat) -> impl FnMut(Span<'a>) -> Parsed<'a, ()> {
    move |input| {
        let (input, _) = not(eof).parse(input)?;
        match format {
            LevelFormat::Digits => trailing_blanks(input),
            _ => preceded(space0, end_of_line).parse(input),
        }
    }
}

/// The rest of the line, without its newline.
fn rest_of_line(input: Span<'_>) -> Parsed<'_, Span<'_>> {
    terminated(take_till(|c| c == '\n'), opt(char('\n'))).parse(input)
}

fn comment(input: Span<'_>) -> Parsed<'_, Span<'_>> {
    preceded(char(';'), rest_of_line).parse(input)
}

fn row<'a>(format: LevelFormat) -> impl FnMut(Span<'a>) -> Parsed<'a, Span<'a>> {
    move |input| {
        let (input, _) = not(blank(format)).parse(input)?;
        match format {
            LevelFormat::Digits => terminated(digit1, trailing_blanks).parse(input),
            _ => terminated(take_while1(|c| XSB_CHARS.contains(c)), end_of_line).parse(input),
        }
    }
}

fn title(input: Span<'_>) -> Parsed<'_, Span<'_>> {
    preceded(not(eof), rest_of_line).parse(input)
}

/// The digit map when the first line that is neither blank nor a comment is all digits.
fn detect(text: &str) -> LevelFormat {
    let skipped = many0(alt((
        value((), preceded(not(eof), trailing_blanks)),
        value((), comment),
    )));
    // A digit row may end in blanks, like every row (they are not squares).
    let mut digits_first = preceded(skipped, peek(terminated(digit1, trailing_blanks)));
    match digits_first.parse(Span::new(text)) {
        Ok(_) => LevelFormat::Digits,
        Err(_) => LevelFormat::Xsb,
    }
}

/// The boards of the file with their titles, as the module comment says.
fn assemble<'a>(
    items: Vec<Item<'a>>,
    format: LevelFormat,
) -> Result<Vec<Board>, nom::Err<GrammarError<'a>>> {
    let mut boards: Vec<Board> = Vec::new();
    let mut pending_title: Option<String> = None;
    // The previous item was a board.
    let mut after_board = false;
    // A title line right after a board, with no blank line since.
    let mut stray: Option<Span<'a>> = None;
    for item in items {
        match item {
            Item::Blank => {
                after_board = false;
                stray = None;
            }
            Item::Comment(text) | Item::Title(text) => {
                let is_title_line = matches!(item, Item::Title(_));
                if is_title_line && format == LevelFormat::Digits {
                    let level = boards.len() + usize::from(!after_board);
                    return Err(fail_at(text, bad_character(text, format, level)));
                }
                if is_title_line && after_board {
                    stray = Some(text);
                }
                let text = text.fragment().trim();
                match (after_board, text.strip_prefix("Title:")) {
                    (true, Some(name)) => {
                        let board = boards.last_mut().expect("after a board");
                        board.title.get_or_insert_with(|| name.trim().to_string());
                    }
                    _ if !text.is_empty() && !is_metadata(text) => {
                        pending_title = Some(text.to_string());
                    }
                    _ => {}
                }
                after_board = false;
            }
            Item::Board(rows) => {
                if let Some(line) = stray {
                    return Err(fail_at(line, bad_character(line, format, boards.len())));
                }
                let number = boards.len() + 1;
                let rows: Vec<(usize, Vec<Square>)> = rows
                    .iter()
                    .map(|row| Ok((row.location_line() as usize, squares(*row, format, number)?)))
                    .collect::<Result<_, _>>()?;
                boards.push(Board {
                    title: pending_title.take(),
                    first_line: rows[0].0,
                    rows,
                });
                after_board = true;
            }
        }
    }
    Ok(boards)
}

/// The squares of one board row of level `level`.
fn squares<'a>(
    row: Span<'a>,
    format: LevelFormat,
    level: usize,
) -> Result<Vec<Square>, nom::Err<GrammarError<'a>>> {
    row.fragment()
        .chars()
        .enumerate()
        .map(|(col, c)| {
            let square = match format {
                LevelFormat::Digits => digit_square(c),
                _ => xsb_square(c),
            };
            square.ok_or_else(|| fail_at(row, not_a_square(level, c, col, format)))
        })
        .collect()
}

fn is_metadata(text: &str) -> bool {
    ["Author:", "Comment:", "Title:"]
        .iter()
        .any(|p| text.starts_with(p))
}

/// The message for a line that is neither a board row nor a title where one is expected:
/// its first character outside the format's squares (in the digit map, blanks only when
/// nothing else is wrong: they may end a row, not stand inside one).
fn bad_character(line: Span<'_>, format: LevelFormat, level: usize) -> String {
    let text = line.fragment();
    let found = match format {
        LevelFormat::Digits => text
            .chars()
            .enumerate()
            .find(|&(_, c)| !c.is_ascii_digit() && !c.is_whitespace())
            .or_else(|| text.chars().enumerate().find(|&(_, c)| !c.is_ascii_digit())),
        _ => text
            .chars()
            .enumerate()
            .find(|&(_, c)| !XSB_CHARS.contains(c)),
    };
    let (col, c) = found.unwrap_or((0, '?'));
    not_a_square(level, c, col, format)
}

/// `level N: 'c' at column K is not a square of the F format` (an invisible character
/// written as its escape and code point).
fn not_a_square(level: usize, c: char, col: usize, format: LevelFormat) -> String {
    format!(
        "level {level}: {} at column {} is not a square of the {} format",
        crate::input::visible(c),
        col + 1,
        format.name()
    )
}

fn xsb_square(c: char) -> Option<Square> {
    let (wall, goal, boxed, player) = match c {
        '#' => (true, false, false, false),
        '@' => (false, false, false, true),
        '+' => (false, true, false, true),
        '$' => (false, false, true, false),
        '*' => (false, true, true, false),
        '.' => (false, true, false, false),
        ' ' | '-' | '_' => (false, false, false, false),
        _ => return None,
    };
    Some(Square {
        wall,
        goal,
        boxed,
        player,
    })
}

/// 0 floor, 1 goal, 2 box, 3 box on goal, 4 player, 5 player on goal, 8 wall.
fn digit_square(c: char) -> Option<Square> {
    let bits = c.to_digit(10)?;
    if !matches!(bits, 0..=5 | 8) {
        return None;
    }
    Some(Square {
        wall: bits & 8 != 0,
        goal: bits & 1 != 0,
        boxed: bits & 2 != 0,
        player: bits & 4 != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The items of `text` with their text (`B`: blank, `;`: comment, `#`: a board's
    /// rows joined by `/`, `T`: title).
    fn items(text: &str, format: LevelFormat) -> Vec<String> {
        let items = parse_all(text, many0(item(format))).unwrap();
        items
            .iter()
            .map(|item| match item {
                Item::Blank => "B".to_string(),
                Item::Comment(t) => format!(";{}", t.fragment()),
                Item::Board(rows) => {
                    let rows: Vec<&str> = rows.iter().map(|r| *r.fragment()).collect();
                    format!("#{}", rows.join("/"))
                }
                Item::Title(t) => format!("T{}", t.fragment()),
            })
            .collect()
    }

    #[test]
    fn lines_are_read_as_blanks_comments_boards_and_titles() {
        assert_eq!(
            items("  \n; 12\n#@ $.#\n-_ #\n'Duh!'\r\n\t\n", LevelFormat::Xsb),
            ["B", "; 12", "##@ $.#/-_ #", "T'Duh!'\r", "B"]
        );
        // A row ends at its `\r`; a `\r` inside a line makes it a title.
        assert_eq!(
            items("#@$.#\r\n#\r#", LevelFormat::Xsb),
            ["##@$.#", "T#\r#"]
        );
        assert_eq!(
            items("8048 \n;x\n 8\n", LevelFormat::Digits),
            ["#8048", ";x", "T 8"]
        );
    }

    #[test]
    fn the_format_is_told_by_the_first_board_row() {
        assert_eq!(detect("; 1\n\n8888\n"), LevelFormat::Digits);
        assert_eq!(detect("  \n#####\n"), LevelFormat::Xsb);
        // Blanks may end a digit row (issue 20: they made the level vanish as XSB).
        assert_eq!(detect("88 \n"), LevelFormat::Digits);
        assert_eq!(detect("8888\r\n"), LevelFormat::Digits);
    }

    #[test]
    fn a_stray_character_inside_a_board_is_named() {
        let e = parse_levels("#####\n#@$.#\n# X #\n#####\n", LevelFormat::Auto, None);
        let e = e.unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(
            e.message,
            "level 1: 'X' at column 3 is not a square of the XSB format"
        );
        let e = parse_levels("8888\n84\x0118\n", LevelFormat::Digits, None).unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (
                2,
                "level 1: '\\u{1}' (U+0001) at column 3 is not a square of the digit map format"
            )
        );
    }

    #[test]
    fn digit_maps_may_end_rows_in_blanks_but_not_hold_them() {
        let map = "8888888\n8103018\n8002008\n8320238\n8012108\n8403008\n8888888\n";
        let padded = map.replace('\n', "  \n");
        let plain = parse_levels(map, LevelFormat::Auto, None).unwrap();
        let blanks = parse_levels(&padded, LevelFormat::Auto, None).unwrap();
        assert_eq!(blanks.len(), 1);
        assert_eq!(
            format!("{:?}", blanks[0].level),
            format!("{:?}", plain[0].level)
        );
        let holed = map.replacen("8103018", "8 03018", 1);
        let e = parse_levels(&holed, LevelFormat::Auto, None).unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (
                2,
                "level 1: ' ' (space) at column 2 is not a square of the digit map format"
            )
        );
    }
}
