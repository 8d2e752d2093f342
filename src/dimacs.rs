//! Reading DIMACS CNF, with the projection convention of projected model counters: a
//! grammar in nom over located spans (`crate::input::grammar`), so that every problem is
//! reported as `FILE:LINE: problem`.
//!
//! ```text
//! file       = preamble header body end
//! preamble   = { blank line | comment }            comments may name the projection
//! header     = "p" "cnf" VARIABLES CLAUSES          one line, exactly once
//! body       = { blank line | comment | literals }  a clause is literals ending in 0,
//!                                                   on one line or over several
//! end        = end of file | "%" line, then anything (old SATLIB files close with
//!              "%" and "0")
//! comment    = "c" ... | "c p show" V1 V2 ... 0 | "c ind" V1 V2 ... 0
//! ```
//!
//! Accepted: blanks (spaces, tabs, carriage returns) around and between tokens; `c p
//! show ... 0` and `c ind ... 0` (the sampling-set form) anywhere, repeated, each
//! adding its variables to the projection (without any, every variable is projected);
//! any other line that starts with `c` is a comment.
//!
//! Refused, at the line of the offending token: a clause before the header, a missing
//! or malformed header, a second header, more than `MAX_VARIABLES` variables, a token
//! that is not a literal, a literal or a projected variable beyond the header's count,
//! a projection line that does not end with its single 0, a clause left open at the end
//! (at the line where it began), and a clause count that differs from the header's (at
//! the header).

use crate::input::grammar::{
    expecting, fail_at, number_on_line, parse_all, GrammarError, Parsed, Span,
};
use crate::input::{decode_text, read_puzzle_file, InputError, ParseError};
use gridsat_encodings::cnf::{Cnf, Lit, Var};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, digit1, satisfy};
use nom::combinator::{cut, eof, map, not, opt, peek, recognize, rest, value};
use nom::error::context;
use nom::multi::{fold_many0, many0};
use nom::sequence::{pair, preceded, terminated};
use nom::Parser;
use nom_locate::position;
use std::path::Path;

/// The counter keeps a few hundred bytes per variable and may recurse once per
/// variable: this bound keeps a lying header from asking for gigabytes before a single
/// clause is read, and the search within its stack.
pub const MAX_VARIABLES: usize = 1 << 20;

/// Parses DIMACS text into a `Cnf` whose projection is the `c p show` set (or every
/// variable when there is none).
pub fn parse_dimacs(text: &str) -> Result<Cnf, ParseError> {
    parse_all(text, file)
}

/// `parse_dimacs` on the bytes of a file named `path`: refuses text that is not UTF-8,
/// and names the file in every error.
pub fn parse_dimacs_bytes(path: &Path, bytes: Vec<u8>) -> Result<Cnf, InputError> {
    let text = decode_text(path, bytes)?;
    parse_dimacs(&text).map_err(|e| InputError::new(path, e))
}

/// Reads and parses a DIMACS file (within the size limit of every input file).
pub fn read_dimacs(path: &Path) -> anyhow::Result<Cnf> {
    let text = read_puzzle_file(path)?;
    Ok(parse_dimacs(&text).map_err(|e| InputError::new(path, e))?)
}

/// Blanks within a line: any white space but the line feed (so a carriage return before
/// it is a blank).
fn blanks(input: Span<'_>) -> Parsed<'_, Span<'_>> {
    take_while(|c: char| c.is_whitespace() && c != '\n').parse(input)
}

fn blanks1(input: Span<'_>) -> Parsed<'_, Span<'_>> {
    take_while1(|c: char| c.is_whitespace() && c != '\n').parse(input)
}

/// The end of a line: its line feed, or the end of the file.
fn line_end(input: Span<'_>) -> Parsed<'_, ()> {
    value((), alt((tag("\n"), eof))).parse(input)
}

/// What a line of the preamble or the body says.
#[derive(Clone)]
enum Line<'a> {
    /// A blank line or a comment.
    Nothing,
    /// A projection line: its variables, each with its token (`None`: beyond 64 bits).
    Shown(Vec<(Option<u64>, Span<'a>)>),
    /// Literals of clauses, each with its token; `None` is the 0 that ends a clause.
    Literals(Vec<(Option<Lit>, Span<'a>)>),
}

/// A line with nothing but blanks. (It must consume something, or a repetition of it
/// would stand still at the end of the file.)
fn blank_line(input: Span<'_>) -> Parsed<'_, Line<'_>> {
    let line_feed = value((), (blanks, tag("\n")));
    let last = value((), (blanks1, eof));
    value(Line::Nothing, alt((line_feed, last))).parse(input)
}

/// A comment: a projection line, or any other line that starts with `c`.
fn comment(input: Span<'_>) -> Parsed<'_, Line<'_>> {
    preceded(
        blanks,
        alt((
            projection,
            value(
                Line::Nothing,
                (char('c'), take_while(|c| c != '\n'), line_end),
            ),
        )),
    )
    .parse(input)
}

/// `c p show V1 V2 ... 0` or `c ind V1 V2 ... 0`. Once the keyword is read, the line
/// can only be a projection (`cut`).
fn projection(input: Span<'_>) -> Parsed<'_, Line<'_>> {
    let keyword = alt((recognize((tag("p"), blanks1, tag("show"))), tag("ind")));
    let after_keyword = peek(alt((value((), blanks1), line_end)));
    let (input, _) = (char('c'), blanks1, keyword, after_keyword).parse(input)?;
    let (rest, (numbers, end)) = cut(pair(
        many0(preceded(blanks1, signed_number)),
        preceded(
            blanks,
            terminated(
                position,
                context(
                    "a variable of the projection line (whole numbers ending in 0)",
                    line_end,
                ),
            ),
        ),
    ))
    .parse(input)?;
    let Some((((false, Some(0)), _), listed)) = numbers.split_last() else {
        return Err(fail_at(end, "projection line must end with 0"));
    };
    let mut shown = Vec::with_capacity(listed.len());
    for &((negative, magnitude), token) in listed {
        if negative || magnitude == Some(0) {
            return Err(fail_at(
                token,
                format!(
                    "projection lists {}; variables are positive and only the last number is 0",
                    token.fragment()
                ),
            ));
        }
        shown.push((magnitude, token));
    }
    Ok((rest, Line::Shown(shown)))
}

/// A whole number with an optional minus sign, ending at a blank or the end of the line:
/// the sign and the magnitude (`None` beyond 64 bits), with the token.
fn signed_number(input: Span<'_>) -> Parsed<'_, ((bool, Option<u64>), Span<'_>)> {
    let (rest, token) = recognize(terminated(
        (opt(char('-')), digit1),
        not(satisfy(|c| !c.is_whitespace())),
    ))
    .parse(input)?;
    let negative = token.fragment().starts_with('-');
    let magnitude = token.fragment().trim_start_matches('-').parse().ok();
    Ok((rest, ((negative, magnitude), token)))
}

/// The header, `p cnf VARIABLES CLAUSES`: the variable count and the clause count, with
/// the clause count's token (a file with another number of clauses is reported there).
fn header(input: Span<'_>) -> Parsed<'_, (usize, usize, Span<'_>)> {
    let (input, _) = preceded(blanks, char('p')).parse(input)?;
    let (rest, (_, _, vars_at, vars, clauses_at, clauses, _, _)) = cut(context(
        "the header 'p cnf VARIABLES CLAUSES'",
        (
            blanks1,
            tag("cnf"),
            preceded(blanks1, position),
            number_on_line::<u64>,
            preceded(blanks1, position),
            number_on_line::<u64>,
            blanks,
            expecting(|| "the end of the header line".to_string(), line_end),
        ),
    ))
    .parse(input)?;
    let vars = usize::try_from(vars)
        .ok()
        .filter(|&v| v <= MAX_VARIABLES)
        .ok_or_else(|| {
            fail_at(
                vars_at,
                format!("{vars} variables; at most {MAX_VARIABLES} are supported"),
            )
        })?;
    let clauses = usize::try_from(clauses).map_err(|_| fail_at(clauses_at, "too many clauses"))?;
    Ok((rest, (vars, clauses, clauses_at)))
}

/// One literal of a clause, checked against the header's `vars`; `None` for the 0 that
/// ends the clause.
fn literal<'a>(vars: usize) -> impl FnMut(Span<'a>) -> Parsed<'a, (Option<Lit>, Span<'a>)> {
    move |input| {
        let (rest, ((negative, magnitude), token)) = signed_number(input)?;
        let Some(magnitude) = magnitude.filter(|&m| m <= vars as u64) else {
            return Err(fail_at(
                token,
                format!(
                    "literal {} names a variable beyond the header's {vars}",
                    token.fragment()
                ),
            ));
        };
        // At most MAX_VARIABLES: the cast and the negation cannot overflow.
        let number = magnitude as i64;
        let lit = Lit::from_dimacs(if negative { -number } else { number });
        Ok((rest, (lit, token)))
    }
}

/// A line of clause literals (a clause, several, or part of one). Once a literal is
/// read, the line can only hold literals (`cut`).
fn literals<'a>(vars: usize) -> impl FnMut(Span<'a>) -> Parsed<'a, Line<'a>> {
    let what = "a literal (a whole number, negative for a negated variable) or the 0 that ends \
                a clause";
    move |input| {
        let (input, first) = preceded(blanks, literal(vars)).parse(input)?;
        let line = move || {
            let mut line = Vec::with_capacity(8);
            line.push(first);
            line
        };
        let (rest, line) = cut(terminated(
            fold_many0(preceded(blanks1, literal(vars)), line, |mut line, lit| {
                line.push(lit);
                line
            }),
            preceded(blanks, expecting(|| what.to_string(), line_end)),
        ))
        .parse(input)?;
        Ok((rest, Line::Literals(line)))
    }
}

/// A second header in the body.
fn second_header(input: Span<'_>) -> Parsed<'_, Line<'_>> {
    let (_, at) = preceded(blanks, recognize(char('p'))).parse(input)?;
    Err(fail_at(at, "a second 'p cnf' header"))
}

/// The end of the formula: the end of the file, or a `%` line and whatever follows.
fn end(input: Span<'_>) -> Parsed<'_, ()> {
    let percent = value((), (char('%'), blanks, line_end, rest));
    expecting(
        || "a clause (literals ending in 0), a comment, or the end of the file".to_string(),
        preceded(blanks, alt((value((), eof), percent))),
    )
    .parse(input)
}

/// The formula read so far.
struct Body<'a> {
    cnf: Cnf,
    clauses: usize,
    open: Vec<Lit>,
    /// Where the clause still open began.
    open_since: Option<Span<'a>>,
    /// The projection lines' variables; `None` without any projection line (every
    /// variable projected), empty after a `c p show 0` (nothing projected).
    shown: Option<Vec<(Option<u64>, Span<'a>)>>,
}

impl<'a> Body<'a> {
    fn take(mut self, line: Line<'a>) -> Body<'a> {
        match line {
            Line::Nothing => {}
            Line::Shown(shown) => self.shown.get_or_insert_with(Vec::new).extend(shown),
            Line::Literals(literals) => {
                for (lit, token) in literals {
                    if let Some(lit) = lit {
                        self.open_since.get_or_insert(token);
                        self.open.push(lit);
                    } else {
                        self.cnf.clause(self.open.drain(..));
                        self.open_since = None;
                        self.clauses += 1;
                    }
                }
            }
        }
        self
    }

    /// The formula, once the file has ended: the clause count checked against the
    /// header's, the projection against its variables.
    fn finish(
        self,
        vars: usize,
        clauses: usize,
        clauses_at: Span<'a>,
    ) -> Result<Cnf, nom::Err<GrammarError<'a>>> {
        if let Some(at) = self.open_since {
            return Err(fail_at(at, "the last clause is not terminated by 0"));
        }
        if self.clauses != clauses {
            return Err(fail_at(
                clauses_at,
                format!(
                    "the header announces {clauses} clauses but the file has {}",
                    self.clauses
                ),
            ));
        }
        let mut cnf = self.cnf;
        let Some(shown) = self.shown else {
            for index in 0..vars {
                cnf.project(Var::from_index(index));
            }
            return Ok(cnf);
        };
        let mut seen = vec![false; vars];
        for (v, token) in shown {
            let Some(index) = v.filter(|&v| v <= vars as u64).map(|v| v as usize - 1) else {
                return Err(fail_at(
                    token,
                    format!(
                        "projection names variable {} beyond the header's {vars}",
                        token.fragment()
                    ),
                ));
            };
            if !std::mem::replace(&mut seen[index], true) {
                cnf.project(Var::from_index(index));
            }
        }
        Ok(cnf)
    }
}

/// The whole file (see the module docs).
fn file(input: Span<'_>) -> Parsed<'_, Cnf> {
    let beginning = input;
    // The preamble's projection, and where its last comment began (a missing header is
    // reported there).
    let line = (position, alt((map(comment, Some), value(None, blank_line))));
    let (input, (shown, last_comment)) = fold_many0(
        line,
        || (None, None),
        |(mut shown, last), (at, line)| match line {
            Some(Line::Shown(more)) => {
                shown.get_or_insert_with(Vec::new).extend(more);
                (shown, Some(at))
            }
            Some(_) => (shown, Some(at)),
            None => (shown, last),
        },
    )
    .parse(input)?;
    let (input, (vars, clauses, clauses_at)) = match header(input) {
        Err(nom::Err::Error(_)) if input.fragment().trim().is_empty() => {
            let at = last_comment.unwrap_or(beginning);
            return Err(fail_at(at, "no 'p cnf VARIABLES CLAUSES' header"));
        }
        Err(nom::Err::Error(_)) => {
            let (_, at) = preceded(blanks, position).parse(input)?;
            return Err(fail_at(
                at,
                "clause before the 'p cnf VARIABLES CLAUSES' header",
            ));
        }
        other => other?,
    };
    let mut cnf = Cnf::new();
    for _ in 0..vars {
        cnf.fresh_var();
    }
    let mut start = Some(Body {
        cnf,
        clauses: 0,
        open: Vec::new(),
        open_since: None,
        shown,
    });
    let (input, body) = fold_many0(
        alt((literals(vars), blank_line, comment, second_header)),
        move || start.take().expect("the body is read once"),
        Body::take,
    )
    .parse(input)?;
    let (rest, ()) = end(input)?;
    Ok((rest, body.finish(vars, clauses, clauses_at)?))
}
#[cfg(test)]
mod tests {
    use super::*;

    fn lits(cnf: &Cnf) -> Vec<Vec<i64>> {
        cnf.clauses()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect()
    }

    #[test]
    fn reads_clauses_comments_and_projection() {
        let text = "c hello\nc p show 1 3 0\np cnf 3 2\n1 -2\n 3 0 -1\n0\n";
        let cnf = parse_dimacs(text).unwrap();
        assert_eq!(cnf.num_vars(), 3);
        assert_eq!(lits(&cnf), vec![vec![1, -2, 3], vec![-1]]);
        let shown: Vec<usize> = cnf.projection().iter().map(|v| v.index()).collect();
        assert_eq!(shown, vec![0, 2]);
    }

    #[test]
    fn without_show_line_projects_everything_and_accepts_percent_end() {
        let cnf = parse_dimacs("p cnf 2 1\r\n1 2 0\r\n%\r\n0\r\n").unwrap();
        assert_eq!(cnf.projection().len(), 2);
        assert_eq!(lits(&cnf), vec![vec![1, 2]]);
    }

    #[test]
    fn round_trips_our_own_writer() {
        let mut cnf = Cnf::new();
        let a = cnf.primary_var().positive();
        let b = cnf.fresh_lit();
        let c = cnf.primary_var().positive();
        cnf.clause([a, !b]);
        cnf.clause([b, c, !a]);
        let back = parse_dimacs(&cnf.to_dimacs_string()).unwrap();
        assert_eq!(lits(&back), lits(&cnf));
        assert_eq!(back.projection(), cnf.projection());
    }

    fn error(text: &str) -> ParseError {
        parse_dimacs(text).expect_err("should be refused")
    }

    #[test]
    fn blanks_comments_and_the_end_marker_may_come_anywhere() {
        let text = "c a comment\r\n\t p\tcnf\t3 2 \r\n 1 \t -2\r\nc inside a clause\r\n\r\n\
                    3 0 -1 0\n % \n0 x";
        let cnf = parse_dimacs(text).unwrap();
        assert_eq!(lits(&cnf), vec![vec![1, -2, 3], vec![-1]]);
        // A projection line after the header, and a repeated variable.
        let cnf = parse_dimacs("p cnf 3 0\nc p show 3 0\nc ind 1 3 0\n").unwrap();
        let shown: Vec<usize> = cnf.projection().iter().map(|v| v.index()).collect();
        assert_eq!(shown, vec![2, 0]);
        // Other comments that merely look like projections.
        let cnf = parse_dimacs("c p showing 1 0\nc index\ncx\np cnf 2 0\n").unwrap();
        assert_eq!(cnf.projection().len(), 2);
    }

    #[test]
    fn errors_say_what_was_expected_and_what_was_found() {
        let message = |text| error(text).message;
        assert_eq!(
            message("p cnf 2 1\n1 x 0\n"),
            "expected a literal (a whole number, negative for a negated variable) or the 0 \
             that ends a clause, found 'x'"
        );
        assert_eq!(
            message("c x\np cnf two 1\n"),
            "expected the header 'p cnf VARIABLES CLAUSES', found 'two'"
        );
        assert_eq!(
            message("p cnf 2 1 5\n"),
            "expected the end of the header line, found '5'"
        );
        assert_eq!(
            message("c p show 1 x 0\np cnf 2 0\n"),
            "expected a variable of the projection line (whole numbers ending in 0), found 'x'"
        );
        assert_eq!(
            message("p cnf 2 1\n1 2 0\n%foo\n"),
            "expected a clause (literals ending in 0), a comment, or the end of the file, \
             found 'foo'"
        );
        // A wrong clause count is reported at the header that announced it.
        let e = error("p cnf 2 3\n1 0\n2 0\n");
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "the header announces 3 clauses but the file has 2")
        );
        let e = error("p cnf 1 1\n99999999999999999999 0\n");
        assert_eq!(
            e.message,
            "literal 99999999999999999999 names a variable beyond the header's 1"
        );
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(error("1 2 0\n").line, 1);
        assert!(error("1 2 0\n").message.contains("before"));
        assert_eq!(error("c x\np cnf two 1\n").line, 2);
        assert_eq!(error("p cnf 2 1\np cnf 2 1\n").line, 2);
        let e = error("p cnf 2 1\n1 3 0\n");
        assert_eq!((e.line, e.message.contains("beyond")), (2, true));
        let e = error("p cnf 2 1\n1 x 0\n");
        assert_eq!(e.line, 2);
        let e = error("p cnf 2 2\n1 0\n-1\n2\n");
        assert_eq!((e.line, e.message.contains("not terminated")), (3, true));
        let e = error("p cnf 2 3\n1 0\n2 0\n");
        assert!(e.message.contains("announces 3"));
        let e = error("c p show 1 5 0\np cnf 2 0\n");
        assert_eq!((e.line, e.message.contains("beyond")), (1, true));
        assert_eq!(error("c p show 1 2\np cnf 2 0\n").line, 1);
        assert_eq!(error("c p show 1 -2 0\np cnf 2 0\n").line, 1);
        assert!(error("c only comments\n").message.contains("no 'p cnf"));
        assert!(error("").message.contains("no 'p cnf"));
        assert_eq!(error("p cnf 1 1\n99999999999999999999 0\n").line, 2);
        let e = error("p cnf 3000000000 0\n");
        assert_eq!((e.line, e.message.contains("at most")), (1, true));
    }
}
