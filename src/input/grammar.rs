//! The pieces every puzzle grammar is written with: nom parsers over a located span, and
//! an error type whose `context` and `cut` become the `FILE:LINE: problem` messages.
//!
//! A grammar states what it expects where (`context("the number of rows", number)`,
//! or `expecting(|| format!(..), ..)` when the words depend on what was read), and
//! `cut` where the input can no longer be anything else; the innermost expectation is
//! what the user reads, with what was found instead: `expected the number of rows (a
//! whole number), found 'x'`. Checks that are not about the shape of the text (a cell
//! outside the grid, a label used twice) fail with a whole message through `fail_at`,
//! at the span they are about.

use super::{is_invisible, visible, ParseError};
use nom::character::complete::{digit1, multispace0, space0};
use nom::error::{ContextError, ErrorKind, FromExternalError};
use nom::sequence::preceded;
use nom::{IResult, Parser};
use std::borrow::Cow;

/// Puzzle text with its position (line and column) at every point.
pub type Span<'a> = nom_locate::LocatedSpan<&'a str>;

/// What every grammar function returns.
pub type Parsed<'a, T> = IResult<Span<'a>, T, GrammarError<'a>>;

/// Where a grammar failed and why: the innermost expectation (from `context` or
/// `expecting`) or a whole message (from `fail_at`).
#[derive(Clone, Debug, PartialEq)]
pub struct GrammarError<'a> {
    pub at: Span<'a>,
    pub expected: Option<Cow<'static, str>>,
    pub message: Option<String>,
    /// A guess at the cause, added after the message in parentheses.
    pub hint: Option<String>,
}

impl<'a> GrammarError<'a> {
    pub fn message(at: Span<'a>, message: impl Into<String>) -> GrammarError<'a> {
        GrammarError {
            at,
            expected: None,
            message: Some(message.into()),
            hint: None,
        }
    }

    /// True when nothing has said yet what was expected here.
    fn is_bare(&self) -> bool {
        self.expected.is_none() && self.message.is_none()
    }

    /// The problem in the user's words, and the 1-based line it is on; `text` is the
    /// whole text the grammar ran on.
    pub fn to_parse_error(&self, text: &str) -> ParseError {
        let (found, line) = found_at(self.at, text);
        let mut message = match (&self.message, &self.expected) {
            (Some(message), _) => message.clone(),
            (None, Some(expected)) => format!("expected {expected}, found {found}"),
            (None, None) => format!("unexpected {found}"),
        };
        if let Some(hint) = &self.hint {
            message.push_str(&format!(" ({hint})"));
        }
        // A message names its own span, unless that is the end of the file.
        let line = if self.message.is_some() && !self.at.fragment().trim().is_empty() {
            self.at.location_line() as usize
        } else {
            line
        };
        ParseError::new(line, message)
    }
}

/// What stands at `at` (the next word, or the end of the file), and its line: the line
/// of that word, or at the end the line of the last text of `text`.
fn found_at(at: Span<'_>, text: &str) -> (String, usize) {
    let rest = *at.fragment();
    let line = at.location_line() as usize;
    // A grammar that reads within a line stops at its end (blanks do not cross lines).
    if rest
        .trim_start_matches([' ', '\t'])
        .starts_with(['\n', '\r'])
    {
        return ("the end of the line".to_string(), line);
    }
    let skipped = rest.len() - rest.trim_start().len();
    // A blank the user cannot see (a no-break space, say) is the thing to name.
    if let Some((at, c)) = rest[..skipped]
        .char_indices()
        .find(|&(_, c)| !matches!(c, ' ' | '\t' | '\n' | '\r'))
    {
        return (visible(c), line + rest[..at].matches('\n').count());
    }
    let word: String = rest[skipped..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .take(40)
        .collect();
    if word.is_empty() {
        let last = 1 + text.trim_end().matches('\n').count();
        return ("the end of the file".to_string(), last.min(line));
    }
    let newlines = rest[..skipped].matches('\n').count();
    match word.chars().find(|&c| is_invisible(c)) {
        Some(c) => (
            format!("{} in '{}'", visible(c), word.escape_debug()),
            line + newlines,
        ),
        None => (format!("'{word}'"), line + newlines),
    }
}

impl<'a> nom::error::ParseError<Span<'a>> for GrammarError<'a> {
    fn from_error_kind(at: Span<'a>, _kind: ErrorKind) -> Self {
        GrammarError {
            at,
            expected: None,
            message: None,
            hint: None,
        }
    }

    fn append(_at: Span<'a>, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two failed alternatives, the one that got further (or said more) explains
    /// the failure better.
    fn or(self, other: Self) -> Self {
        if other.at.location_offset() > self.at.location_offset()
            || (other.at.location_offset() == self.at.location_offset() && self.is_bare())
        {
            other
        } else {
            self
        }
    }
}

impl<'a> ContextError<Span<'a>> for GrammarError<'a> {
    /// The innermost context wins: it names the thing that was being read.
    fn add_context(_at: Span<'a>, context: &'static str, mut other: Self) -> Self {
        if other.is_bare() {
            other.expected = Some(Cow::Borrowed(context));
        }
        other
    }
}

impl<'a, E: std::fmt::Display> FromExternalError<Span<'a>, E> for GrammarError<'a> {
    fn from_external_error(at: Span<'a>, _kind: ErrorKind, e: E) -> Self {
        GrammarError::message(at, e.to_string())
    }
}

/// `context` for expectations whose words depend on what was read ("the cell count of
/// zone 'X'"): `what` is only called when `parser` fails without an expectation.
pub fn expecting<'a, T>(
    what: impl Fn() -> String,
    mut parser: impl Parser<Span<'a>, Output = T, Error = GrammarError<'a>>,
) -> impl FnMut(Span<'a>) -> Parsed<'a, T> {
    move |input| {
        parser.parse(input).map_err(|e| {
            e.map(|mut error| {
                if error.is_bare() {
                    error.expected = Some(Cow::Owned(what()));
                }
                error
            })
        })
    }
}

/// `parser`, with `hint` (a guess at the cause) added to any error it gives.
pub fn hinting<'a, T>(
    hint: impl Fn() -> String,
    mut parser: impl Parser<Span<'a>, Output = T, Error = GrammarError<'a>>,
) -> impl FnMut(Span<'a>) -> Parsed<'a, T> {
    move |input| {
        parser.parse(input).map_err(|e| {
            e.map(|mut error| {
                error.hint.get_or_insert_with(&hint);
                error
            })
        })
    }
}

/// A failure that no alternative may recover from, with a whole message, at `at`.
pub fn fail_at<'a>(at: Span<'a>, message: impl Into<String>) -> nom::Err<GrammarError<'a>> {
    nom::Err::Failure(GrammarError::message(at, message))
}

/// A whole number after any blanks (newlines included). Digits that do not fit fail
/// with "... is too large" rather than a vague expectation.
pub fn number<'a, T: std::str::FromStr>(input: Span<'a>) -> Parsed<'a, T> {
    let (rest, digits) = preceded(multispace0, digit1).parse(input)?;
    Ok((rest, value_of(digits)?))
}

/// A whole number after blanks on the same line only.
pub fn number_on_line<'a, T: std::str::FromStr>(input: Span<'a>) -> Parsed<'a, T> {
    let (rest, digits) = preceded(space0, digit1).parse(input)?;
    Ok((rest, value_of(digits)?))
}

fn value_of<'a, T: std::str::FromStr>(digits: Span<'a>) -> Result<T, nom::Err<GrammarError<'a>>> {
    digits.fragment().parse::<T>().map_err(|_| {
        fail_at(
            digits,
            format!("the number {} is too large", digits.fragment()),
        )
    })
}

/// One word (a run of non-blank characters) after any blanks, newlines included.
pub fn word<'a>(input: Span<'a>) -> Parsed<'a, Span<'a>> {
    preceded(
        multispace0,
        nom::bytes::complete::take_till1(char::is_whitespace),
    )
    .parse(input)
}

/// Runs a grammar over the whole of `text`: its value, or the first problem as a
/// `ParseError` (1-based line, message in the user's words). Text the grammar left
/// unread (blanks aside) is an error too: a file is never read in part silently.
pub fn parse_all<'a, T>(
    text: &'a str,
    mut grammar: impl Parser<Span<'a>, Output = T, Error = GrammarError<'a>>,
) -> Result<T, ParseError> {
    match grammar.parse(Span::new(text)) {
        Ok((rest, _)) if !rest.fragment().trim().is_empty() => {
            let (at, _) = multispace0::<_, GrammarError>(rest).unwrap_or((rest, rest));
            let error = GrammarError {
                expected: Some(Cow::Borrowed("the end of the file")),
                ..nom::error::ParseError::from_error_kind(at, ErrorKind::Eof)
            };
            Err(error.to_parse_error(text))
        }
        Ok((_, value)) => Ok(value),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(e.to_parse_error(text)),
        Err(nom::Err::Incomplete(_)) => Err(ParseError::new(
            text.lines().count().max(1),
            "the file ends too early",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nom::combinator::cut;
    use nom::error::context;

    fn size(input: Span<'_>) -> Parsed<'_, (usize, usize)> {
        let (input, rows) = context("the number of rows (a whole number)", number).parse(input)?;
        let (input, cols) = cut(expecting(
            || format!("the number of columns after {rows} rows (a whole number)"),
            number,
        ))
        .parse(input)?;
        Ok((input, (rows, cols)))
    }

    #[test]
    fn expectations_name_what_was_wanted_and_what_was_found() {
        assert_eq!(parse_all("4 3", size), Ok((4, 3)));
        let e = parse_all("\n\nx 3", size).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(
            e.message,
            "expected the number of rows (a whole number), found 'x'"
        );
        let e = parse_all("4\n\n", size).unwrap_err();
        assert_eq!(e.line, 1);
        assert_eq!(
            e.message,
            "expected the number of columns after 4 rows (a whole number), found the end of the file"
        );
        let e = parse_all("4\n99999999999999999999999", size).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("too large"), "{e}");
        let on_line = |input| number_on_line::<usize>(input);
        let e = parse_all("  \n5", context("a sum", on_line)).unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "expected a sum, found the end of the line")
        );
    }

    #[test]
    fn text_left_unread_is_an_error() {
        let e = parse_all("4 3\n\n5", size).unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (3, "expected the end of the file, found '5'")
        );
        assert_eq!(parse_all("4 3 \n\n", size), Ok((4, 3)));
    }

    #[test]
    fn checks_fail_with_their_own_message_at_their_span() {
        let grammar = |input| {
            let (rest, n) = number::<usize>(input)?;
            if n == 0 {
                return Err(fail_at(input, "zero is not allowed"));
            }
            Ok((rest, n))
        };
        let e = parse_all("0", grammar).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (1, "zero is not allowed"));
    }
}
