//! `gridsat battleship`: the seed's command line and the modern one.
//!
//! Exit status: 0 when the question was answered (including "No solutions"); 1 when
//! `--unique` finds no solution or several; 2 on bad input or an internal error.

use super::parse::parse_puzzle;
use super::render::{json_solution, write_board, write_solution, JsonSolution};
use super::solve::{count_solutions, determined, list_solutions, uniqueness, Listing, Verdict};
use crate::input::{read_puzzle_file, InputError};
use gridsat_encodings::battleship::{encode, pairwise_sum_clauses, Options, Puzzle};
use gridsat_encodings::card::CardEncoding;
use serde_json::json;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  gridsat battleship examples/battleship/puzzle_sample.txt
  gridsat battleship examples/battleship/puzzle_sample.txt find_all_solutions
  gridsat battleship examples/battleship/puzzle10.txt --count
  gridsat battleship examples/battleship/puzzle9_constraints.txt --unique
  gridsat battleship examples/battleship/puzzle_sample.txt --determined
  gridsat battleship examples/battleship/puzzle6.txt --all --limit 3 --format json
  gridsat battleship examples/battleship/puzzle10.txt --card totalizer --dimacs p10.cnf")]
pub struct Args {
    /// Puzzle file (the seed's format: board, rows, cols, ships, constraints).
    pub puzzle: PathBuf,

    /// The seed's flag: print every solution, then `Found N solution(s)` (same as --all).
    #[arg(value_parser = ["find_all_solutions"])]
    pub find_all_solutions: Option<String>,

    /// Print every solution (distinct boards), then `Found N solution(s)`.
    #[arg(long, group = "mode")]
    pub all: bool,

    /// Print only the number of solutions.
    #[arg(long, group = "mode")]
    pub count: bool,

    /// Is the solution unique? Prints the verdict; with several, two of them and the
    /// cells where they differ. Exit status 1 unless unique.
    #[arg(long, group = "mode")]
    pub unique: bool,

    /// Print the cells that are the same in every solution (`#` ship, `.` water, `?`
    /// differs).
    #[arg(long, group = "mode")]
    pub determined: bool,

    /// Stop --all or --count after N solutions.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Cardinality encoding of the row and column sums: pairwise, sequential, totalizer
    /// or sorting-network. (The fleet counts always use the sequential counter.)
    #[arg(long, value_name = "ENCODING", default_value = "sequential")]
    pub card: CardEncoding,

    /// Write the CNF (DIMACS, with a `c p show` projection line over the cells) to FILE
    /// (`-` for standard output) and stop.
    #[arg(long, value_name = "FILE")]
    pub dimacs: Option<PathBuf>,
}

/// The most clauses `--card pairwise` may build for the sums (about 100 MB of clauses).
pub const MAX_PAIRWISE_CLAUSES: u128 = 10_000_000;

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// What the command line asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    One,
    All,
    Count,
    Unique,
    Determined,
}

impl Args {
    pub fn mode(&self) -> Mode {
        if self.count {
            Mode::Count
        } else if self.unique {
            Mode::Unique
        } else if self.determined {
            Mode::Determined
        } else if self.all || self.find_all_solutions.is_some() {
            Mode::All
        } else {
            Mode::One
        }
    }
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let code = run_to(args, &mut out)?;
    out.flush()?;
    Ok(code)
}

/// Reads the puzzle named by `args` and answers on `out`.
pub fn run_to(args: &Args, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let text = read_puzzle_file(&args.puzzle)?;
    let puzzle = parse_puzzle(&text).map_err(|e| InputError::new(&args.puzzle, e))?;
    answer(args, &puzzle, out)
}

/// Answers the question `args` asks about `puzzle` on `out`.
pub fn answer(args: &Args, puzzle: &Puzzle, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    if args.card == CardEncoding::Pairwise {
        let clauses = pairwise_sum_clauses(puzzle);
        if clauses > MAX_PAIRWISE_CLAUSES {
            anyhow::bail!(
                "{}: the pairwise encoding of these sums needs {} clauses (over {MAX_PAIRWISE_CLAUSES}); \
                 choose another --card",
                args.puzzle.display(),
                if clauses == u128::MAX { "more than 2^128".to_string() } else { clauses.to_string() }
            );
        }
    }
    let encoded = encode(puzzle, &Options { card: args.card });
    if let Some(path) = &args.dimacs {
        if path.as_os_str() == "-" {
            encoded.cnf.write_dimacs(out)?;
        } else {
            let file = std::fs::File::create(path)
                .map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", path.display()))?;
            let mut file = io::BufWriter::new(file);
            encoded.cnf.write_dimacs(&mut file)?;
            file.flush()?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let json = args.format == Format::Json;
    match args.mode() {
        Mode::One | Mode::All => {
            let all = args.mode() == Mode::All;
            let limit = if all { args.limit } else { Some(1) };
            let mut solutions: Vec<JsonSolution> = Vec::new();
            let mut failed_write = None;
            let listing = list_solutions(puzzle, &encoded, limit, |ships| {
                if json {
                    solutions.push(json_solution(puzzle, ships));
                } else if let Err(e) = write_solution(out, puzzle, ships) {
                    failed_write = Some(e);
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            })?;
            if let Some(e) = failed_write {
                return Err(e.into());
            }
            if json {
                let mut value = json!({ "solutions": solutions });
                if all {
                    value["count"] = json!(listing.found);
                    value["complete"] = json!(listing.complete);
                }
                writeln!(out, "{value}")?;
            } else if listing.found == 0 {
                writeln!(out, "No solutions")?;
            } else if all {
                writeln!(
                    out,
                    "Found {} solution(s){}",
                    listing.found,
                    limit_note(&listing)
                )?;
            }
        }
        Mode::Count => {
            let listing = count_solutions(puzzle, &encoded, args.limit)?;
            if json {
                let value = json!({ "count": listing.found, "complete": listing.complete });
                writeln!(out, "{value}")?;
            } else {
                writeln!(out, "{}{}", listing.found, limit_note(&listing))?;
            }
        }
        Mode::Unique => return write_uniqueness(puzzle, &uniqueness(puzzle, &encoded)?, json, out),
        Mode::Determined => {
            let fixed = determined(&encoded)?;
            write_determined(puzzle, fixed.as_deref(), json, out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn limit_note(listing: &Listing) -> &'static str {
    if listing.complete {
        ""
    } else {
        " (stopped at --limit; there are more)"
    }
}

fn write_uniqueness(
    puzzle: &Puzzle,
    verdict: &Verdict,
    json: bool,
    out: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let code = match verdict {
        Verdict::Unique(_) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    };
    if json {
        let value = match verdict {
            Verdict::NoSolution => json!({ "verdict": "none" }),
            Verdict::Unique(a) => {
                json!({ "verdict": "unique", "solution": json_solution(puzzle, a) })
            }
            Verdict::Multiple(a, b, cells) => json!({
                "verdict": "multiple",
                "witnesses": [json_solution(puzzle, a), json_solution(puzzle, b)],
                "differing_cells": cells.iter().map(|c| [c.row, c.col]).collect::<Vec<_>>(),
            }),
        };
        writeln!(out, "{value}")?;
        return Ok(code);
    }
    match verdict {
        Verdict::NoSolution => writeln!(out, "No solutions")?,
        Verdict::Unique(a) => {
            writeln!(out, "Unique solution")?;
            write_solution(out, puzzle, a)?;
        }
        Verdict::Multiple(a, b, cells) => {
            writeln!(out, "Several solutions; two of them:")?;
            write_solution(out, puzzle, a)?;
            write_solution(out, puzzle, b)?;
            let list: Vec<String> = cells
                .iter()
                .map(|c| format!("({}, {})", c.row, c.col))
                .collect();
            writeln!(
                out,
                "They differ in {} cell(s): {}",
                cells.len(),
                list.join(" ")
            )?;
        }
    }
    Ok(code)
}

fn write_determined(
    puzzle: &Puzzle,
    fixed: Option<&[Option<bool>]>,
    json: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let symbols: Option<Vec<char>> = fixed.map(|fixed| {
        fixed
            .iter()
            .map(|f| match f {
                Some(true) => '#',
                Some(false) => '.',
                None => '?',
            })
            .collect()
    });
    match (symbols, json) {
        (None, false) => writeln!(out, "No solutions")?,
        (None, true) => writeln!(out, "{}", json!({ "solvable": false }))?,
        (Some(symbols), false) => {
            let known = symbols.iter().filter(|&&s| s != '?').count();
            writeln!(
                out,
                "Determined cells: {known} of {} (# ship, . water, ? differs)",
                symbols.len()
            )?;
            write_board(out, puzzle, &symbols)?;
        }
        (Some(symbols), true) => {
            let rows: Vec<String> = symbols
                .chunks(puzzle.cols)
                .map(|r| r.iter().collect())
                .collect();
            writeln!(out, "{}", json!({ "solvable": true, "cells": rows }))?;
        }
    }
    Ok(())
}
