//! Reading DIMACS CNF, with the projection convention of projected model counters.
//!
//! Accepted:
//! - `c ...` comments anywhere; `c p show V1 V2 ... 0` (also `c ind ... 0`, the
//!   sampling-set form) adds variables to the projection, and may be repeated. Without
//!   any such line every variable is projected.
//! - exactly one `p cnf VARS CLAUSES` header, before the first clause;
//! - clauses as integers ending in `0`, possibly spread over several lines;
//! - a `%` line ends the formula (old SATLIB files close with `%` and `0`).
//!
//! Refused, with the line: a malformed header or token, a variable beyond the header's
//! count, a clause count that differs from the header, a clause left open at the end.

use crate::input::ParseError;
use gridsat_encodings::cnf::{Cnf, Lit, Var};
use nom::bytes::complete::tag;
use nom::character::complete::{i64 as integer, space0, space1, u64 as natural};
use nom::combinator::{all_consuming, opt};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

/// The counter keeps a few hundred bytes per variable and may recurse once per
/// variable: this bound keeps a lying header from asking for gigabytes before a single
/// clause is read, and the search within its stack.
pub const MAX_VARIABLES: usize = 1 << 20;

/// Parses DIMACS text into a `Cnf` whose projection is the `c p show` set (or every
/// variable when there is none).
pub fn parse_dimacs(text: &str) -> Result<Cnf, ParseError> {
    let mut reader = Reader {
        header: None,
        cnf: Cnf::new(),
        clauses: 0,
        open_clause: Vec::new(),
        open_since: 0,
        shown: Vec::new(),
    };
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let number = index + 1;
        if line == "%" {
            break;
        }
        reader.line(line, number)?;
    }
    reader.finish(text.lines().count().max(1))
}

struct Reader {
    header: Option<(usize, usize)>,
    cnf: Cnf,
    clauses: usize,
    open_clause: Vec<Lit>,
    /// Where the clause still open began, for the error at the end of the file.
    open_since: usize,
    shown: Vec<(i64, usize)>,
}

fn header(input: &str) -> IResult<&str, (u64, u64)> {
    all_consuming((
        preceded((tag("p"), space1, tag("cnf"), space1), natural),
        terminated(preceded(space1, natural), space0),
    ))
    .parse(input)
}

fn numbers(input: &str) -> IResult<&str, Vec<i64>> {
    all_consuming(terminated(many0(preceded(space0, integer)), space0)).parse(input)
}

/// `c p show ...` or `c ind ...`: the numbers after the keyword, or `None` for a
/// comment of another kind.
fn projection_line(input: &str) -> Option<&str> {
    let (rest, _) = (tag::<_, _, nom::error::Error<&str>>("c"), space1)
        .parse(input)
        .ok()?;
    let (rest, keyword) = opt(terminated(
        tag::<_, _, nom::error::Error<&str>>("p"),
        space1,
    ))
    .parse(rest)
    .ok()?;
    let keyword_tag = if keyword.is_some() { "show" } else { "ind" };
    let (rest, _) = tag::<_, _, nom::error::Error<&str>>(keyword_tag)
        .parse(rest)
        .ok()?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some(rest)
}

impl Reader {
    fn line(&mut self, line: &str, number: usize) -> Result<(), ParseError> {
        if line.is_empty() {
            return Ok(());
        }
        if line.starts_with('c') {
            if let Some(list) = projection_line(line) {
                let (_, vars) = numbers(list).map_err(|_| {
                    ParseError::new(number, "projection line: expected integers ending in 0")
                })?;
                if vars.last() != Some(&0) {
                    return Err(ParseError::new(number, "projection line must end with 0"));
                }
                for &v in &vars[..vars.len() - 1] {
                    if v <= 0 {
                        return Err(ParseError::new(
                            number,
                            format!("projection lists {v}; variables are positive and only the last number is 0"),
                        ));
                    }
                    self.shown.push((v, number));
                }
            }
            return Ok(());
        }
        if line.starts_with('p') {
            if self.header.is_some() {
                return Err(ParseError::new(number, "a second 'p cnf' header"));
            }
            let (_, (vars, clauses)) = header(line).map_err(|_| {
                ParseError::new(number, "expected the header 'p cnf VARIABLES CLAUSES'")
            })?;
            let vars = usize::try_from(vars)
                .ok()
                .filter(|&v| v <= MAX_VARIABLES)
                .ok_or_else(|| {
                    ParseError::new(
                        number,
                        format!("{vars} variables; at most {MAX_VARIABLES} are supported"),
                    )
                })?;
            let clauses = usize::try_from(clauses)
                .map_err(|_| ParseError::new(number, "too many clauses"))?;
            for _ in 0..vars {
                self.cnf.fresh_var();
            }
            self.header = Some((vars, clauses));
            return Ok(());
        }
        let Some((vars, _)) = self.header else {
            return Err(ParseError::new(
                number,
                "clause before the 'p cnf VARIABLES CLAUSES' header",
            ));
        };
        let (_, ints) = numbers(line).map_err(|_| {
            ParseError::new(
                number,
                format!("expected integers in a clause, found '{line}'"),
            )
        })?;
        for n in ints {
            if n == 0 {
                self.cnf.clause(self.open_clause.drain(..));
                self.clauses += 1;
                continue;
            }
            if n.unsigned_abs() > vars as u64 {
                return Err(ParseError::new(
                    number,
                    format!("literal {n} names a variable beyond the header's {vars}"),
                ));
            }
            if self.open_clause.is_empty() {
                self.open_since = number;
            }
            self.open_clause
                .push(Lit::from_dimacs(n).expect("checked against the header"));
        }
        Ok(())
    }

    fn finish(mut self, last_line: usize) -> Result<Cnf, ParseError> {
        let Some((vars, clauses)) = self.header else {
            return Err(ParseError::new(
                last_line,
                "no 'p cnf VARIABLES CLAUSES' header",
            ));
        };
        if !self.open_clause.is_empty() {
            return Err(ParseError::new(
                self.open_since,
                "the last clause is not terminated by 0",
            ));
        }
        if self.clauses != clauses {
            return Err(ParseError::new(
                last_line,
                format!(
                    "the header announces {clauses} clauses but the file has {}",
                    self.clauses
                ),
            ));
        }
        if self.shown.is_empty() {
            for index in 0..vars {
                self.cnf.project(Var::from_index(index));
            }
        } else {
            let mut seen = vec![false; vars];
            for (v, line) in self.shown {
                let index = (v - 1) as usize;
                if index >= vars {
                    return Err(ParseError::new(
                        line,
                        format!("projection names variable {v} beyond the header's {vars}"),
                    ));
                }
                if !std::mem::replace(&mut seen[index], true) {
                    self.cnf.project(Var::from_index(index));
                }
            }
        }
        Ok(self.cnf)
    }
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
