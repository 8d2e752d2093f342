//! `gridsat star-battle`: the seed program's command line and the modern one.

use super::parse::{parse, ParsedPuzzle};
use super::render::{
    board_lines, determined_lines, differing_cells, write_seed_output, JsonSolution,
};
use super::solve::{Problem, SolveError, Verdict};
use crate::cli::Exit;
use crate::input::{read_puzzle_file, InputError};
use crate::modes::{Format, ModeArgs};
use crate::solver::count::Count;
use anyhow::{bail, Context};
use gridsat_encodings::star_battle::LineRule;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

const EXAMPLES: &str = "\
Examples:
  The seed program's command line (result written to OUTPUT; '-' is standard output):
    gridsat star-battle examples/star-battle/custom1.txt out.txt 2 print all_solutions
    gridsat star-battle examples/star-battle/twonot1.txt - 1 count all_solutions

  The modern interface (result on standard output):
    gridsat star-battle examples/star-battle/twonot1.txt --stars 2
    gridsat star-battle examples/star-battle/custom2.txt --stars 2 --rule at-most --all --limit 5
    gridsat star-battle examples/star-battle/twonot1.txt --stars 2 --unique
    gridsat star-battle examples/star-battle/queens8.txt --determined --format json
    gridsat star-battle examples/star-battle/twonot1.txt --stars 2 --card totalizer --dimacs out.cnf

Exit status: 0 a solution was found (with --unique: exactly one); 1 no solution (with
--unique: none or several); 2 bad input or usage; 3 internal error (a solution failed
the independent rule check).

--determined marks: '@' always a star, '.' never a star, '?' depends on the solution.

Solutions are listed in row-major order: at the first cell where two boards differ, the
board with a star there comes first.";

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RuleArg {
    /// At most S stars per row and column (the seed homework's variant).
    AtMost,
    /// Exactly S stars per row and column (the standard puzzle).
    Exact,
}

/// Star Battle: every zone holds exactly S stars, no two stars touch (not even
/// diagonally), and each row and column holds exactly S (standard) or at most S (the
/// seed's variant).
///
/// Reads the seed's format (`ROWS COLS`, then per zone `LABEL COUNT` and COUNT `x y`
/// pairs) or a letter grid (an optional first line with S, then one row of zone letters
/// per line).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Puzzle file.
    pub input: PathBuf,

    /// The seed program's arguments: OUTPUT S count|print one_solution|all_solutions.
    /// With them, rows and columns hold AT MOST S stars unless --rule says otherwise.
    #[arg(value_name = "SEED_ARGS", num_args = 0..=4)]
    pub seed: Vec<String>,

    /// Stars per zone, row and column (S). A letter-grid file may state it on its first line.
    #[arg(long, short)]
    pub stars: Option<usize>,

    /// Row and column rule. Default: exact, or at-most with the seed's arguments.
    #[arg(long, value_enum)]
    pub rule: Option<RuleArg>,

    #[command(flatten)]
    pub modes: ModeArgs,
}

/// What the seed's fourth and fifth arguments ask for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct SeedMode {
    print: bool,
    all: bool,
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let parsed = load(&args.input)?;
    if !args.seed.is_empty() {
        return run_seed(args, parsed);
    }
    let stars = match (args.stars, parsed.stars) {
        (Some(s), _) | (None, Some(s)) => s,
        (None, None) => bail!(
            "{}: give the number of stars with --stars S (the file does not state it)",
            args.input.display()
        ),
    };
    if stars == 0 {
        bail!("--stars must be at least 1");
    }
    args.modes.check()?;
    let problem = Problem {
        puzzle: parsed.puzzle,
        stars,
        rule: rule_of(args.rule, LineRule::Exact),
        card: args.modes.card,
    };
    if args.modes.wants_cnf() {
        args.modes.write_cnf_outputs(&problem.encode().cnf)?;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let result = if args.modes.count {
        print_count(&problem, args.modes.limit, args.modes.format, &mut out)
    } else if args.modes.unique {
        print_uniqueness(&problem, args.modes.format, &mut out)
    } else if args.modes.determined {
        print_determined(&problem, args.modes.format, &mut out)
    } else if args.modes.all {
        print_solutions(&problem, args.modes.limit, args.modes.format, &mut out)
    } else {
        print_solutions(&problem, Some(1), args.modes.format, &mut out)
    };
    out.flush()?;
    finish(result)
}

fn load(path: &Path) -> anyhow::Result<ParsedPuzzle> {
    let text = read_puzzle_file(path)?;
    Ok(parse(&text).map_err(|e| InputError::new(path, e))?)
}

fn rule_of(arg: Option<RuleArg>, default: LineRule) -> LineRule {
    match arg {
        Some(RuleArg::AtMost) => LineRule::AtMost,
        Some(RuleArg::Exact) => LineRule::Exact,
        None => default,
    }
}

/// Maps a solver outcome to the documented exit status.
fn finish(result: Result<bool, anyhow::Error>) -> anyhow::Result<Exit> {
    match result {
        Ok(true) => Ok(Exit::Solved),
        Ok(false) => Ok(Exit::NoAnswer),
        Err(e) => match e.downcast_ref::<SolveError>() {
            Some(SolveError::Rejected(_)) => {
                eprintln!("gridsat: {e:#}");
                Ok(Exit::Internal)
            }
            _ => Err(e),
        },
    }
}

fn run_seed(args: &Args, parsed: ParsedPuzzle) -> anyhow::Result<Exit> {
    if args.seed.len() != 4 {
        bail!(
            "the seed's command line takes INPUT OUTPUT S count|print one_solution|all_solutions; \
             got {} argument(s) after INPUT",
            args.seed.len()
        );
    }
    if args.modes.all
        || args.modes.count
        || args.modes.unique
        || args.modes.determined
        || args.stars.is_some()
        || args.modes.limit.is_some()
    {
        bail!("--all, --count, --unique, --determined, --stars and --limit belong to the modern interface, not the seed's arguments");
    }
    let output = &args.seed[0];
    let stars: usize = args.seed[1]
        .parse()
        .ok()
        .filter(|&s| s >= 1)
        .with_context(|| {
            format!(
                "stars per zone must be a whole number >= 1, got '{}'",
                args.seed[1]
            )
        })?;
    let mode = SeedMode {
        print: match args.seed[2].as_str() {
            "print" => true,
            "count" => false,
            other => bail!("output mode must be 'count' or 'print', got '{other}'"),
        },
        all: match args.seed[3].as_str() {
            "all_solutions" => true,
            "one_solution" => false,
            other => {
                bail!("solution mode must be 'one_solution' or 'all_solutions', got '{other}'")
            }
        },
    };
    let problem = Problem {
        puzzle: parsed.puzzle,
        stars,
        rule: rule_of(args.rule, LineRule::AtMost),
        card: args.modes.card,
    };
    if args.modes.wants_cnf() {
        args.modes.write_cnf_outputs(&problem.encode().cnf)?;
    }
    let result = if output == "-" {
        write_seed(
            &problem,
            mode,
            &mut std::io::BufWriter::new(std::io::stdout().lock()),
        )
    } else {
        let file = std::fs::File::create(output)
            .with_context(|| format!("{output}: cannot create the output file"))?;
        write_seed(&problem, mode, &mut std::io::BufWriter::new(file))
    };
    finish(result.map(|()| true))
}

/// The seed's output. Every solution is found and verified before the first byte is
/// written, so a failure never leaves half a file behind it.
fn write_seed(problem: &Problem, mode: SeedMode, out: &mut impl Write) -> anyhow::Result<()> {
    let puzzle = &problem.puzzle;
    match (mode.print, mode.all) {
        (false, true) => write_seed_output(out, puzzle, &problem.count()?, std::iter::empty())?,
        (true, true) => {
            let all = problem.collect(None)?;
            write_seed_output(out, puzzle, &all.len(), all.iter())?
        }
        (print, false) => {
            let one = problem.solve_one()?;
            let found = usize::from(one.is_some());
            write_seed_output(out, puzzle, &found, one.into_iter().filter(|_| print))?
        }
    }
    out.flush()?;
    Ok(())
}

fn rule_json(problem: &Problem) -> serde_json::Value {
    json!({
        "rows": problem.puzzle.rows,
        "cols": problem.puzzle.cols,
        "stars": problem.stars,
        "rule": problem.rule.name(),
    })
}

fn print_solutions(
    problem: &Problem,
    limit: Option<u64>,
    format: Format,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let solutions = problem.collect(limit)?;
    let n = solutions.len();
    let complete = limit.is_none_or(|l| (n as u64) < l);
    match format {
        Format::Json => {
            // Written one solution at a time: a listing of millions stays small in memory.
            let head = serde_json::to_string_pretty(&json!({"puzzle": rule_json(problem)}))?;
            writeln!(out, "{},", head.trim_end_matches("\n}"))?;
            writeln!(
                out,
                "  \"count\": {n},\n  \"complete\": {complete},\n  \"solutions\": ["
            )?;
            for (k, s) in solutions.iter().enumerate() {
                let sep = if k + 1 < n { "," } else { "" };
                let one = serde_json::to_string(&JsonSolution::new(&problem.puzzle, &s))?;
                writeln!(out, "    {one}{sep}")?;
            }
            writeln!(out, "  ]\n}}")?;
        }
        Format::Text if limit == Some(1) => match solutions.iter().next() {
            None => writeln!(out, "No solution.")?,
            Some(s) => {
                for line in board_lines(&problem.puzzle, &s) {
                    writeln!(out, "{line}")?;
                }
            }
        },
        Format::Text => {
            for (k, s) in solutions.iter().enumerate() {
                writeln!(out, "Solution {}:", k + 1)?;
                for line in board_lines(&problem.puzzle, &s) {
                    writeln!(out, "{line}")?;
                }
                writeln!(out)?;
            }
            let plural = if n == 1 { "" } else { "s" };
            if complete {
                writeln!(out, "{n} solution{plural}.")?;
            } else {
                writeln!(
                    out,
                    "{n} solution{plural} (stopped at --limit {n}; there may be more)."
                )?;
            }
        }
    }
    Ok(n > 0)
}

/// The number of solutions; with a limit, counted by listing at most that many (which
/// answers at once where a full count is out of reach), and said to be a lower bound when
/// the limit was reached.
fn print_count(
    problem: &Problem,
    limit: Option<u64>,
    format: Format,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let (count, complete) = match limit {
        None => (problem.count()?, true),
        Some(limit) => {
            let n = problem.collect(Some(limit))?.len() as u64;
            (Count::from(n), n < limit)
        }
    };
    match format {
        Format::Json => {
            // Counts beyond 64 bits go out as a string of digits, which JSON readers keep exact.
            let number = match count.to_u64() {
                Some(n) => json!(n),
                None => json!(count.to_string()),
            };
            let value =
                json!({"puzzle": rule_json(problem), "count": number, "complete": complete});
            writeln!(out, "{value}")?
        }
        Format::Text if complete => writeln!(out, "Number of solutions: {count}")?,
        Format::Text => writeln!(
            out,
            "Number of solutions: at least {count} (stopped at --limit)"
        )?,
    }
    Ok(!count.is_zero())
}

fn print_uniqueness(
    problem: &Problem,
    format: Format,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let verdict = problem.uniqueness()?;
    let p = &problem.puzzle;
    match format {
        Format::Json => {
            let value = match &verdict {
                Verdict::NoSolution => json!({"verdict": "none", "solutions": []}),
                Verdict::Unique(s) => {
                    json!({"verdict": "unique", "solutions": [JsonSolution::new(p, s)]})
                }
                Verdict::Multiple(a, b) => json!({
                    "verdict": "multiple",
                    "solutions": [JsonSolution::new(p, a), JsonSolution::new(p, b)],
                    "differing_cells": differing_cells(a, b),
                }),
            };
            let mut value = value;
            value["puzzle"] = rule_json(problem);
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Format::Text => match &verdict {
            Verdict::NoSolution => writeln!(out, "No solution.")?,
            Verdict::Unique(s) => {
                writeln!(out, "Unique solution:")?;
                for line in board_lines(p, s) {
                    writeln!(out, "{line}")?;
                }
            }
            Verdict::Multiple(a, b) => {
                writeln!(out, "Not unique. Two solutions:")?;
                for (la, lb) in board_lines(p, a).iter().zip(board_lines(p, b)) {
                    writeln!(out, "{la}   {lb}")?;
                }
                let cells: Vec<String> = differing_cells(a, b)
                    .iter()
                    .map(|[r, c]| format!("(row {r}, col {c})"))
                    .collect();
                writeln!(out, "They differ at {}.", cells.join(", "))?;
            }
        },
    }
    Ok(matches!(verdict, Verdict::Unique(_)))
}

fn print_determined(
    problem: &Problem,
    format: Format,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let Some(cells) = problem.determined()? else {
        match format {
            Format::Json => writeln!(
                out,
                "{}",
                json!({"puzzle": rule_json(problem), "solvable": false})
            )?,
            Format::Text => writeln!(out, "No solution.")?,
        }
        return Ok(false);
    };
    let cols = problem.puzzle.cols;
    let pick = |want: Option<bool>| -> Vec<[usize; 2]> {
        cells
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == want)
            .map(|(i, _)| [i / cols, i % cols])
            .collect()
    };
    let (stars, empty, open) = (pick(Some(true)), pick(Some(false)), pick(None));
    match format {
        Format::Json => {
            let value = json!({
                "puzzle": rule_json(problem),
                "solvable": true,
                "board": determined_lines(&problem.puzzle, &cells),
                "determined_stars": stars,
                "determined_empty": empty,
                "undetermined": open,
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Format::Text => {
            for line in determined_lines(&problem.puzzle, &cells) {
                writeln!(out, "{line}")?;
            }
            writeln!(
                out,
                "{} cells determined ({} stars, {} empty), {} undetermined.",
                stars.len() + empty.len(),
                stars.len(),
                empty.len(),
                open.len()
            )?;
        }
    }
    Ok(true)
}
