//! Level files: the seed's digit map and XSB, one or many levels per file.
//!
//! Both formats share one layout: levels are runs of board rows, separated by blank
//! lines; lines starting with `;` are titles or comments. In XSB a line holding any
//! character outside the XSB set is a title (`'Duh!'`, `Title: ...`), so a stray
//! character inside a board shows up as a "title" between two board rows, which is
//! reported as the bad character it is.

use crate::input::ParseError;
use gridsat_encodings::sokoban::{Level, Square};
use nom::branch::alt;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, space0};
use nom::combinator::{all_consuming, map, rest};
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// Which text format a file is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Decide from the first board row: digits mean the digit map, anything else XSB.
    Auto,
    /// `#` wall, `@` player, `+` player on goal, `$` box, `*` box on goal, `.` goal.
    Xsb,
    /// One digit per square: 1 goal + 2 box + 4 player + 8 wall.
    Digits,
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

#[derive(Debug, PartialEq, Eq)]
enum LineKind<'a> {
    Blank,
    Comment(&'a str),
    Row(&'a str),
    /// XSB only: a line with a character outside the XSB set.
    Title(&'a str),
}

fn blank(line: &str) -> IResult<&str, LineKind<'_>> {
    map(all_consuming(space0), |_| LineKind::Blank).parse(line)
}

fn comment(line: &str) -> IResult<&str, LineKind<'_>> {
    map(preceded(char(';'), rest), |t: &str| {
        LineKind::Comment(t.trim())
    })
    .parse(line)
}

fn xsb_row(line: &str) -> IResult<&str, LineKind<'_>> {
    map(
        all_consuming(take_while1(|c| XSB_CHARS.contains(c))),
        LineKind::Row,
    )
    .parse(line)
}

fn digit_row(line: &str) -> IResult<&str, LineKind<'_>> {
    map(
        all_consuming(take_while1(|c: char| c.is_ascii_digit())),
        LineKind::Row,
    )
    .parse(line)
}

fn classify(line: &str, format: Format) -> LineKind<'_> {
    let line = line.trim_end_matches('\r');
    let parsed = match format {
        Format::Digits => alt((blank, comment, digit_row)).parse(line.trim_end()),
        _ => alt((blank, comment, xsb_row)).parse(line),
    };
    match parsed {
        Ok((_, kind)) => kind,
        Err(_) => LineKind::Title(line.trim()),
    }
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

/// A level's rows before they are checked as a level.
struct RawLevel {
    title: Option<String>,
    first_line: usize,
    rows: Vec<(usize, Vec<Square>)>,
}

/// Reads every level of `text`, or only level `select` (1-based) when given; the other
/// levels are then only split off, not checked.
pub fn parse_levels(
    text: &str,
    format: Format,
    select: Option<usize>,
) -> Result<Vec<LevelEntry>, ParseError> {
    let format = match format {
        Format::Auto => detect(text),
        f => f,
    };
    let mut raws: Vec<RawLevel> = Vec::new();
    let mut current: Option<RawLevel> = None;
    let mut title: Option<String> = None;
    // A title line that ended a board: if board rows follow at once, it was a bad row.
    let mut interrupted: Option<(usize, &str)> = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        match classify(line, format) {
            LineKind::Blank => {
                raws.extend(current.take());
                interrupted = None;
            }
            kind @ (LineKind::Comment(t) | LineKind::Title(t)) => {
                if matches!(kind, LineKind::Title(_)) {
                    if format == Format::Digits {
                        return Err(bad_character(line_no, line, format, raws.len() + 1));
                    }
                    if current.is_some() {
                        interrupted = Some((line_no, line));
                    }
                }
                // `Title:` right after a board names that board; any other text names
                // the next one.
                match (current.take(), t.strip_prefix("Title:").map(str::trim)) {
                    (Some(mut level), Some(name)) => {
                        level.title.get_or_insert_with(|| name.to_string());
                        raws.push(level);
                    }
                    (finished, _) => {
                        raws.extend(finished);
                        if !t.is_empty() && !is_metadata(t) {
                            title = Some(t.to_string());
                        }
                    }
                }
            }
            LineKind::Row(row) => {
                if let Some((bad_line, text)) = interrupted {
                    return Err(bad_character(bad_line, text, format, raws.len()));
                }
                let squares = row
                    .chars()
                    .enumerate()
                    .map(|(col, c)| {
                        let sq = match format {
                            Format::Digits => digit_square(c),
                            _ => xsb_square(c),
                        };
                        sq.ok_or_else(|| {
                            ParseError::new(
                                line_no,
                                format!(
                                    "level {}: '{c}' at column {} is not a square of the {} format",
                                    raws.len() + 1,
                                    col + 1,
                                    format_name(format)
                                ),
                            )
                        })
                    })
                    .collect::<Result<Vec<Square>, ParseError>>()?;
                current
                    .get_or_insert_with(|| RawLevel {
                        title: title.take(),
                        first_line: line_no,
                        rows: Vec::new(),
                    })
                    .rows
                    .push((line_no, squares));
            }
        }
    }
    raws.extend(current.take());
    if raws.is_empty() {
        return Err(ParseError::new(0, "no level in the file"));
    }
    if let Some(n) = select {
        if n == 0 || n > raws.len() {
            return Err(ParseError::new(
                0,
                format!(
                    "there is no level {n}: the file has {} level(s)",
                    raws.len()
                ),
            ));
        }
    }
    raws.into_iter()
        .enumerate()
        .filter(|(i, _)| select.is_none_or(|n| n == i + 1))
        .map(|(i, raw)| {
            let number = i + 1;
            let grid: Vec<Vec<Square>> = raw.rows.iter().map(|(_, r)| r.clone()).collect();
            let level = Level::new(&grid).map_err(|e| {
                let line = e.row.map_or(raw.first_line, |r| raw.rows[r].0);
                ParseError::new(line, format!("level {number}: {}", e.message))
            })?;
            Ok(LevelEntry {
                number,
                title: raw.title,
                first_line: raw.first_line,
                level,
            })
        })
        .collect()
}

fn is_metadata(t: &str) -> bool {
    ["Author:", "Comment:", "Title:"]
        .iter()
        .any(|p| t.starts_with(p))
}

fn format_name(format: Format) -> &'static str {
    match format {
        Format::Digits => "digit map",
        _ => "XSB",
    }
}

fn bad_character(line_no: usize, line: &str, format: Format, level: usize) -> ParseError {
    let allowed: &dyn Fn(char) -> bool = match format {
        Format::Digits => &|c: char| c.is_ascii_digit() || c.is_whitespace(),
        _ => &|c: char| XSB_CHARS.contains(c),
    };
    let (col, c) = line
        .chars()
        .enumerate()
        .find(|&(_, c)| !allowed(c))
        .unwrap_or((0, '?'));
    ParseError::new(
        line_no,
        format!(
            "level {level}: '{c}' at column {} is not a square of the {} format",
            col + 1,
            format_name(format)
        ),
    )
}

/// Digits when the first line that is neither blank nor a comment is all digits.
fn detect(text: &str) -> Format {
    let first = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .find(|l| !l.trim().is_empty() && !l.starts_with(';'));
    match first {
        Some(l) if l.chars().all(|c| c.is_ascii_digit()) => Format::Digits,
        _ => Format::Xsb,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_classified() {
        assert_eq!(classify("  ", Format::Xsb), LineKind::Blank);
        assert_eq!(classify("; 12", Format::Xsb), LineKind::Comment("12"));
        assert_eq!(classify("#@ $.#", Format::Xsb), LineKind::Row("#@ $.#"));
        assert_eq!(classify("'Duh!'", Format::Xsb), LineKind::Title("'Duh!'"));
        assert_eq!(classify("8048", Format::Digits), LineKind::Row("8048"));
    }
}
