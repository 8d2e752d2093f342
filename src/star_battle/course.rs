//! The course program's command line: `INPUT OUTPUT S count|print one_solution|all_solutions`,
//! its output written to the OUTPUT file (`-`: standard output), byte for byte as the
//! homework's program writes it. Rows and columns hold at most S stars here unless
//! `--rule` says otherwise.

use super::draw::write_course_output;
use super::puzzle::StarBattle;
use crate::answer::{find, Answer};
use crate::cli::{Exit, Mode};
use crate::limits::Budget;
use anyhow::{bail, Context};
use gridsat_encodings::star_battle::Stars;
use std::io::Write;
use std::sync::Arc;

/// What the course's fourth and fifth arguments ask for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CourseMode {
    pub print: bool,
    pub all: bool,
}

/// The course's OUTPUT, S and modes, from the words after INPUT.
pub struct CourseArgs {
    pub output: String,
    pub stars: usize,
    pub mode: CourseMode,
}

impl CourseArgs {
    pub fn parse(words: &[String]) -> anyhow::Result<CourseArgs> {
        if words.len() != 4 {
            bail!(
                "the course's command line takes INPUT OUTPUT S count|print \
                 one_solution|all_solutions; got {} argument(s) after INPUT",
                words.len()
            );
        }
        let stars: usize = words[1].parse().ok().filter(|&s| s >= 1).with_context(|| {
            format!(
                "stars per zone must be a whole number >= 1, got '{}'",
                words[1]
            )
        })?;
        let print = match words[2].as_str() {
            "print" => true,
            "count" => false,
            other => bail!("output mode must be 'count' or 'print', got '{other}'"),
        };
        let all = match words[3].as_str() {
            "all_solutions" => true,
            "one_solution" => false,
            other => {
                bail!("solution mode must be 'one_solution' or 'all_solutions', got '{other}'")
            }
        };
        Ok(CourseArgs {
            output: words[0].clone(),
            stars,
            mode: CourseMode { print, all },
        })
    }
}

/// Answers as the course program does. Every solution is found and checked before the
/// first byte is written, so a failure never leaves half a file behind it.
pub fn run(puzzle: StarBattle, args: &CourseArgs, budget: &Budget) -> anyhow::Result<Exit> {
    let mode = match (args.mode.print, args.mode.all) {
        (false, true) => Mode::Count { limit: None },
        (true, true) => Mode::All { limit: None },
        (_, false) => Mode::One,
    };
    let puzzle = Arc::new(puzzle);
    let answer = find(puzzle.clone(), mode, budget)?;
    let stars = |cells: Vec<bool>| Stars {
        rows: puzzle.puzzle.rows,
        cols: puzzle.puzzle.cols,
        star: cells,
    };
    if let Answer::GaveUp(gave_up) = &answer {
        eprintln!(
            "gridsat: gave up after {:.1} s (--timeout) with at least {} solutions; {} not written",
            gave_up.after.as_secs_f64(),
            gave_up.at_least,
            args.output
        );
        return Ok(Exit::GaveUp);
    }
    // Everything is found and checked by now, so writing as it goes can only fail on I/O;
    // a listing of millions is never held twice in memory.
    let mut out: Box<dyn Write> = if args.output == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        let file = std::fs::File::create(&args.output)
            .with_context(|| format!("{}: cannot write the output file", args.output))?;
        Box::new(file)
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut out);
    match answer {
        Answer::Count { count, .. } => {
            write_course_output(&mut out, &puzzle.puzzle, &count, std::iter::empty())
        }
        Answer::All { boards, .. } => write_course_output(
            &mut out,
            &puzzle.puzzle,
            &boards.len(),
            boards.iter().map(stars),
        ),
        Answer::One(found) => {
            let n = usize::from(found.is_some());
            let shown = found.filter(|_| args.mode.print).map(stars);
            write_course_output(&mut out, &puzzle.puzzle, &n, shown.into_iter())
        }
        Answer::GaveUp(_) | Answer::Unique(_) | Answer::Determined(_) | Answer::Repair(_) => {
            unreachable!("gave up is answered above; the others are not course modes")
        }
    }
    .and_then(|()| out.flush())
    .with_context(|| format!("{}: cannot write the output file", args.output))?;
    // The course program's answer is its file, "Number of solutions: 0" included.
    Ok(Exit::Solved)
}
