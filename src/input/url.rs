//! puzz.link URLs, the pieces every puzzle's URL is made of: the sites, the size, bit
//! fields packed five to a character, and numbers with runs of empty cells. The formats
//! are the pzprjs editor's (puzz.link, pzv.jp and pzprxs.vercel.app share them):
//!
//! ```text
//! https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk
//!                     ^kind      ^cols/rows/ then the puzzle's own fields
//! ```
//!
//! A puzzle's URL is read with nom over the URL text, so an error says at which
//! character the URL goes wrong and what was expected there.

use super::grammar::{fail_at, GrammarError, Parsed, Span};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::combinator::{cut, opt};
use nom::error::context;
use nom::Parser;

/// The sites whose editors write these URLs, as they appear after `http(s)://`.
pub const SITES: [&str; 3] = ["puzz.link/p?", "pzv.jp/p.html?", "pzprxs.vercel.app/p?"];

/// The site gridsat writes.
pub const WRITE_SITE: &str = "https://puzz.link/p?";

/// Whether `text` is a puzzle URL rather than a file name.
pub fn is_url(text: &str) -> bool {
    let text = text.trim();
    text.starts_with("http://")
        || text.starts_with("https://")
        || SITES.iter().any(|s| text.starts_with(s))
}

/// A URL that cannot be read, and where it goes wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct UrlError {
    pub url: String,
    /// 1-based character position of the problem.
    pub position: usize,
    pub message: String,
}

impl UrlError {
    fn describe(&self) -> String {
        format!(
            "{}: at character {}: {}",
            self.url, self.position, self.message
        )
    }
}

/// Reads a whole URL of the puzzle `kind` (`"starbattle"`), its size and its fields, with
/// `body` (given the columns and rows); anything after the fields is an error.
pub fn read<T>(
    url: &str,
    kind: &str,
    body: impl for<'a> Fn(Span<'a>, usize, usize) -> Parsed<'a, T>,
) -> Result<T, UrlError> {
    let text = url.trim();
    whole_url(Span::new(text), kind, &body)
        .map(|(_, value)| value)
        .map_err(|e| match e {
            nom::Err::Error(e) | nom::Err::Failure(e) => to_url_error(text, &e),
            nom::Err::Incomplete(_) => UrlError {
                url: text.to_string(),
                position: text.chars().count() + 1,
                message: "the URL ends too early".into(),
            },
        })
}

fn whole_url<'a, T>(
    input: Span<'a>,
    kind: &str,
    body: &impl Fn(Span<'a>, usize, usize) -> Parsed<'a, T>,
) -> Parsed<'a, T> {
    let (input, _) = site(input)?;
    let (input, found) = context(
        "the puzzle's kind followed by '/'",
        take_while1(|c: char| c.is_ascii_alphanumeric()),
    )
    .parse(input)?;
    if *found.fragment() != kind {
        return Err(fail_at(
            found,
            format!(
                "this is a '{}' URL; this command reads '{kind}' URLs",
                found.fragment()
            ),
        ));
    }
    let (input, _) = cut(context("'/' after the puzzle's kind", tag("/"))).parse(input)?;
    let (input, (cols, rows)) = size(input)?;
    let (input, value) = body(input, cols, rows)?;
    if !input.fragment().is_empty() {
        return Err(fail_at(
            input,
            format!(
                "unexpected '{}' after the end of the puzzle",
                input.fragment()
            ),
        ));
    }
    Ok((input, value))
}

fn to_url_error(url: &str, e: &GrammarError<'_>) -> UrlError {
    let position = e.at.get_utf8_column();
    let rest = e.at.fragment();
    let found = match rest.chars().next() {
        None => "the end of the URL".to_string(),
        Some(c) => format!("'{c}'"),
    };
    let mut message = match (&e.message, &e.expected) {
        (Some(m), _) => m.clone(),
        (None, Some(expected)) => format!("expected {expected}, found {found}"),
        (None, None) => format!("unexpected {found}"),
    };
    if let Some(hint) = &e.hint {
        message.push_str(&format!(" ({hint})"));
    }
    UrlError {
        url: url.to_string(),
        position,
        message,
    }
}

/// `http(s)://` and one of the `SITES` (the scheme may be left out).
fn site(input: Span<'_>) -> Parsed<'_, ()> {
    let (input, _) = opt(alt((tag("https://"), tag("http://")))).parse(input)?;
    let (rest, _) = alt((tag(SITES[0]), tag(SITES[1]), tag(SITES[2])))
        .parse(input)
        .map_err(|_: nom::Err<GrammarError>| {
            fail_at(
                input,
                format!("expected one of the sites {}", SITES.join(", ")),
            )
        })?;
    Ok((rest, ()))
}

/// `COLS/ROWS/`, each from 1 to `MAX_SIDE`.
fn size(input: Span<'_>) -> Parsed<'_, (usize, usize)> {
    let (input, cols) = side(input, "the number of columns")?;
    let (input, rows) = side(input, "the number of rows")?;
    Ok((input, (cols, rows)))
}

/// The largest side a URL may give; real puzzles are far smaller.
pub const MAX_SIDE: usize = 512;

fn side<'a>(input: Span<'a>, what: &'static str) -> Parsed<'a, usize> {
    let start = input;
    let (input, digits) = cut(context(what, nom::character::complete::digit1)).parse(input)?;
    let value: usize = digits.fragment().parse().unwrap_or(usize::MAX);
    if !(1..=MAX_SIDE).contains(&value) {
        return Err(fail_at(
            start,
            format!(
                "{what} must be from 1 to {MAX_SIDE}, not {}",
                digits.fragment()
            ),
        ));
    }
    let (input, _) = cut(context("'/'", tag("/"))).parse(input)?;
    Ok((input, value))
}

/// A decimal number and the `/` after it (a star count).
pub fn decimal_field<'a>(input: Span<'a>, what: &'static str) -> Parsed<'a, usize> {
    let (input, digits) = cut(context(what, nom::character::complete::digit1)).parse(input)?;
    let value = digits
        .fragment()
        .parse()
        .map_err(|_| fail_at(digits, format!("{what} {} is too large", digits.fragment())))?;
    let (input, _) = cut(context("'/'", tag("/"))).parse(input)?;
    Ok((input, value))
}

/// `count` bits, five to a character `0`-`9`, `a`-`v` (most significant first; the last
/// character's unused bits are zero).
pub fn bits<'a>(input: Span<'a>, count: usize, what: &'static str) -> Parsed<'a, Vec<bool>> {
    let mut out = Vec::with_capacity(count);
    let mut input = input;
    while out.len() < count {
        let at = input;
        let Some(c) = input.fragment().chars().next() else {
            return Err(fail_at(
                at,
                format!(
                    "{what} end early: {count} bits are needed, the URL holds {}",
                    out.len()
                ),
            ));
        };
        let Some(value) = c
            .to_digit(32)
            .filter(|_| c.is_ascii_digit() || c.is_ascii_lowercase())
        else {
            return Err(fail_at(
                at,
                format!("expected a digit of {what} (0-9 or a-v), found '{c}'"),
            ));
        };
        for k in (0..5).rev() {
            if out.len() < count {
                out.push(value >> k & 1 == 1);
            }
        }
        input = nom::bytes::complete::take(1usize).parse(input)?.0;
    }
    Ok((input, out))
}

/// Writes `bits` as `bits` reads them.
pub fn write_bits(bits: &[bool]) -> String {
    bits.chunks(5)
        .map(|chunk| {
            let value = chunk
                .iter()
                .enumerate()
                .fold(0, |v, (k, &b)| v | (u32::from(b) << (4 - k)));
            char::from_digit(value, 32).expect("five bits are a base-32 digit")
        })
        .collect()
}

/// `count` values, each a number (`0`-`f`; `-` and two hex digits; `+` and three) or
/// empty, runs of 1 to 20 empty values being one letter `g` to `z`.
pub fn numbers_with_gaps<'a>(
    input: Span<'a>,
    count: usize,
    what: &'static str,
) -> Parsed<'a, Vec<Option<u32>>> {
    let mut out = Vec::with_capacity(count);
    let mut input = input;
    while out.len() < count {
        let at = input;
        let text = *input.fragment();
        let mut chars = text.chars();
        let hex = |n: usize| -> Option<u32> {
            let digits: String = text.chars().skip(1).take(n).collect();
            (digits.len() == n
                && digits
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()))
            .then(|| u32::from_str_radix(&digits, 16).ok())
            .flatten()
        };
        let (taken, values): (usize, Vec<Option<u32>>) = match chars.next() {
            None => {
                return Err(fail_at(
                    at,
                    format!(
                        "{what} end early: {count} are needed, the URL holds {}",
                        out.len()
                    ),
                ))
            }
            Some(c @ ('0'..='9' | 'a'..='f')) => (1, vec![c.to_digit(16)]),
            Some('-') => match hex(2) {
                Some(n) => (3, vec![Some(n)]),
                None => return Err(fail_at(at, format!("expected two hex digits after '-' in {what}"))),
            },
            Some('+') => match hex(3) {
                Some(n) => (4, vec![Some(n)]),
                None => return Err(fail_at(at, format!("expected three hex digits after '+' in {what}"))),
            },
            Some(c @ 'g'..='z') => (1, vec![None; c as usize - 'g' as usize + 1]),
            Some(c) => {
                return Err(fail_at(
                    at,
                    format!("expected a number or a run of gaps in {what} (0-9, a-z, '-', '+'), found '{c}'"),
                ))
            }
        };
        if out.len() + values.len() > count {
            return Err(fail_at(
                at,
                format!("{what}: this run of gaps goes past the {count} values there are"),
            ));
        }
        out.extend(values);
        input = nom::bytes::complete::take(taken).parse(input)?.0;
    }
    Ok((input, out))
}

/// Writes `values` as `numbers_with_gaps` reads them (values above 4095 cannot be
/// written: `None`).
pub fn write_numbers_with_gaps(values: &[Option<u32>]) -> Option<String> {
    let mut out = String::new();
    let mut gaps = 0;
    let flush = |out: &mut String, gaps: &mut usize| {
        while *gaps > 0 {
            let run = (*gaps).min(20);
            out.push(char::from(b'g' + (run - 1) as u8));
            *gaps -= run;
        }
    };
    for value in values {
        match value {
            None => gaps += 1,
            Some(n) => {
                flush(&mut out, &mut gaps);
                match n {
                    0..=15 => out.push_str(&format!("{n:x}")),
                    16..=255 => out.push_str(&format!("-{n:02x}")),
                    256..=4095 => out.push_str(&format!("+{n:03x}")),
                    _ => return None,
                }
            }
        }
    }
    flush(&mut out, &mut gaps);
    Some(out)
}

/// `https://puzz.link/p?KIND/COLS/ROWS/` followed by `body`.
pub fn write(kind: &str, cols: usize, rows: usize, body: &str) -> String {
    format!("{WRITE_SITE}{kind}/{cols}/{rows}/{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_bits(url: &str, count: usize) -> Result<Vec<bool>, UrlError> {
        read(url, "test", |input, _, _| bits(input, count, "the borders"))
    }

    #[test]
    fn bits_round_trip_five_to_a_character() {
        let bits_in: Vec<bool> = (0..13).map(|i| i % 3 == 0).collect();
        let text = write_bits(&bits_in);
        assert_eq!(text.len(), 3);
        let url = write("test", 2, 2, &text);
        assert_eq!(read_bits(&url, 13).unwrap(), bits_in);
        assert_eq!(write_bits(&[false, false, false, true, false]), "2");
        assert_eq!(write_bits(&[true, true, true, true, false]), "u");
    }

    #[test]
    fn errors_name_the_character_and_the_problem() {
        let e = read_bits("https://puzz.link/p?test/2/2/2u", 13).unwrap_err();
        assert_eq!(e.position, 32);
        assert!(
            e.message
                .contains("end early: 13 bits are needed, the URL holds 10"),
            "{e}"
        );
        let e = read_bits("https://puzz.link/p?test/2/2/2w9", 13).unwrap_err();
        assert_eq!(e.position, 31);
        assert!(e.message.contains("found 'w'"), "{e}");
        let e = read_bits("https://puzz.link/p?other/2/2/2u9", 13).unwrap_err();
        assert!(e.message.contains("this is a 'other' URL"), "{e}");
        let e = read_bits("https://example.com/p?test/2/2/2u9", 13).unwrap_err();
        assert!(e.message.contains("expected one of the sites"), "{e}");
        let e = read_bits("https://puzz.link/p?test/0/2/2u9", 13).unwrap_err();
        assert!(e.message.contains("from 1 to"), "{e}");
        let e = read_bits("https://puzz.link/p?test/2/2/2u9x", 13).unwrap_err();
        assert!(e.message.contains("unexpected 'x' after the end"), "{e}");
        assert_eq!(e.position, 33);
        for form in [
            "http://pzv.jp/p.html?test/2/2/2u9",
            "pzprxs.vercel.app/p?test/2/2/2u9",
        ] {
            assert!(read_bits(form, 13).is_ok(), "{form}");
        }
    }

    #[test]
    fn numbers_with_gaps_round_trip() {
        let values = vec![
            None,
            Some(1),
            Some(2),
            None,
            None,
            Some(2),
            Some(17),
            Some(300),
        ]
        .into_iter()
        .chain(std::iter::repeat_n(None, 25))
        .collect::<Vec<_>>();
        let text = write_numbers_with_gaps(&values).unwrap();
        assert_eq!(text, "g12h2-11+12czk");
        let url = write("test", 1, 1, &text);
        let back = read(&url, "test", |i, _, _| {
            numbers_with_gaps(i, values.len(), "the sums")
        })
        .unwrap();
        assert_eq!(back, values);
    }
}
