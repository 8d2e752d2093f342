//! `gridsat battleship`: the seed program's command line and the modern one, with the
//! conventions of `gridsat star-battle` (flags, texts, JSON shape, exit status).

use super::parse::parse_puzzle;
use super::render::{json_solution, write_board, write_ships, write_solution};
use super::solve::{
    count_solutions, determined, list_solutions, uniqueness, Listing, Rejected, Verdict,
};
use crate::cli::Exit;
use crate::input::{read_puzzle_file, InputError};
use crate::modes::{Format, ModeArgs};
use anyhow::bail;
use gridsat_encodings::battleship::{
    encode, fleet_counter_bound, pairwise_sum_clauses, Encoded, FleetShip, Options, Puzzle,
};
use gridsat_encodings::card::CardEncoding;
use serde_json::json;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

const EXAMPLES: &str = "\
Examples:
  The seed program's command line (one solution, or all of them and their number):
    gridsat battleship examples/battleship/puzzle_sample.txt
    gridsat battleship examples/battleship/puzzle_sample.txt find_all_solutions

  The modern interface:
    gridsat battleship examples/battleship/puzzle10.txt --count
    gridsat battleship examples/battleship/puzzle6.txt --all --limit 3
    gridsat battleship examples/battleship/puzzle9_constraints.txt --unique
    gridsat battleship examples/battleship/puzzle_sample.txt --determined --format json
    gridsat battleship examples/battleship/puzzle10.txt --card totalizer --dimacs p10.cnf --stats

Exit status: 0 a solution was found (with --unique: exactly one); 1 no solution (with
--unique: none or several); 2 bad input or usage; 3 internal error (a solution failed
the independent rule check).

--determined marks: '#' always ship, '.' always water, '?' depends on the solution.
--card chooses the encoding of the row and column sums; the fleet counts always use the
sequential counter.

Solutions are distinct boards: swapping two ships of one type is not a new solution, and
an `unknown` ship is whatever length (1 to 7) its cells have.";

/// The largest `fleet_counter_bound` accepted: a 10x10 puzzle with 10 ships needs 14,300;
/// near this bound (a 40x40 board, 30 ships: 645,000) gridsat takes about 320 MB.
pub const MAX_FLEET_COUNTER_BOUND: u128 = 1_000_000;

/// The most clauses `--card pairwise` may build for the sums (about 100 MB of clauses).
pub const MAX_PAIRWISE_CLAUSES: u128 = 10_000_000;

/// Battleship solitaire: place the fleet so that every row and column holds the given
/// number of ship cells, no two ships touch (not even diagonally), and every cell hint
/// holds.
///
/// Reads the seed's format: `board R C`, `rows` and `cols` sums (numbers or `?`), one ship
/// per line (submarine, destroyer, cruiser, battleship, carrier, cargo, tanker, unknown),
/// then `constraint ROW COL CH` hints with CH one of `o < > ^ v X _`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Puzzle file.
    pub puzzle: PathBuf,

    /// The seed program's flag: print every solution, then `Found N solution(s)`.
    #[arg(value_name = "find_all_solutions", value_parser = ["find_all_solutions"])]
    pub find_all_solutions: Option<String>,

    #[command(flatten)]
    pub modes: ModeArgs,
}

impl Args {
    /// The arguments of `gridsat battleship PUZZLE [find_all_solutions]`.
    pub fn seed(puzzle: PathBuf, find_all_solutions: bool) -> Args {
        Args {
            puzzle,
            find_all_solutions: find_all_solutions.then(|| "find_all_solutions".to_string()),
            modes: ModeArgs::default(),
        }
    }

    fn modern_mode(&self) -> bool {
        self.modes.any_mode() || self.modes.format == Format::Json
    }
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = run_to(args, &mut out);
    out.flush()?;
    match result {
        Ok(code) => Ok(code),
        Err(e) if e.downcast_ref::<Rejected>().is_some() => {
            eprintln!("gridsat: {e:#}");
            Ok(Exit::Internal)
        }
        Err(e) => Err(e),
    }
}

/// Reads the puzzle named by `args` and answers on `out` (the whole command, minus the
/// mapping of internal errors to exit status 3).
pub fn run_to(args: &Args, out: &mut impl Write) -> anyhow::Result<Exit> {
    if args.find_all_solutions.is_some() && args.modern_mode() {
        bail!("find_all_solutions is the seed's command line; with --all, --count, --unique, --determined or --format, leave it out");
    }
    args.modes.check()?;
    let puzzle = load(&args.puzzle)?;
    let bound = fleet_counter_bound(&puzzle);
    if bound > MAX_FLEET_COUNTER_BOUND {
        bail!(
            "{}: a {}x{} board with {} ships is too large for gridsat's encoding (the fleet \
             counters could take up to {bound} variables; the limit is {MAX_FLEET_COUNTER_BOUND})",
            args.puzzle.display(),
            puzzle.rows,
            puzzle.cols,
            puzzle.fleet.len()
        );
    }
    if args.modes.card == CardEncoding::Pairwise {
        let clauses = pairwise_sum_clauses(&puzzle);
        if clauses > MAX_PAIRWISE_CLAUSES {
            let size = if clauses == u128::MAX {
                "more than 2^128".to_string()
            } else {
                clauses.to_string()
            };
            bail!(
                "{}: the pairwise encoding of these sums needs {size} clauses (over \
                 {MAX_PAIRWISE_CLAUSES}); choose another --card",
                args.puzzle.display()
            );
        }
    }
    let encoded = encode(
        &puzzle,
        &Options {
            card: args.modes.card,
        },
    );
    args.modes.write_cnf_outputs(&encoded.cnf)?;
    let found = if !args.modern_mode() {
        print_seed(&puzzle, &encoded, args.find_all_solutions.is_some(), out)?
    } else if args.modes.count {
        print_count(args, &puzzle, &encoded, out)?
    } else if args.modes.unique {
        print_uniqueness(args, &puzzle, &encoded, out)?
    } else if args.modes.determined {
        print_determined(args, &puzzle, &encoded, out)?
    } else {
        let limit = if args.modes.all {
            args.modes.limit
        } else {
            Some(1)
        };
        print_solutions(args, &puzzle, &encoded, limit, out)?
    };
    Ok(if found { Exit::Solved } else { Exit::NoAnswer })
}

fn load(path: &Path) -> anyhow::Result<Puzzle> {
    let text = read_puzzle_file(path)?;
    Ok(parse_puzzle(&text).map_err(|e| InputError::new(path, e))?)
}

/// The seed's output: one solution, or every solution and `Found N solution(s)`; `No
/// solutions` when there is none.
fn print_seed(
    puzzle: &Puzzle,
    encoded: &Encoded,
    all: bool,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let limit = if all { None } else { Some(1) };
    let mut written = Ok(());
    let listing = list_solutions(puzzle, encoded, limit, |ships| {
        written = write_solution(out, puzzle, ships);
        if written.is_ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })?;
    written?;
    if listing.found == 0 {
        writeln!(out, "No solutions")?;
    } else if all {
        writeln!(out, "Found {} solution(s)", listing.found)?;
    }
    Ok(listing.found > 0)
}

fn puzzle_json(puzzle: &Puzzle) -> serde_json::Value {
    let fleet: Vec<&str> = puzzle
        .fleet
        .iter()
        .map(|ship| match ship {
            FleetShip::Known(t) => t.name(),
            FleetShip::Unknown => "unknown",
        })
        .collect();
    json!({
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "row_sums": puzzle.row_sums,
        "col_sums": puzzle.col_sums,
        "fleet": fleet,
    })
}

fn print_solutions(
    args: &Args,
    puzzle: &Puzzle,
    encoded: &Encoded,
    limit: Option<u64>,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let json = args.modes.format == Format::Json;
    let mut solutions = Vec::new();
    let mut shown = 0u64;
    let mut written = Ok(());
    let listing = list_solutions(puzzle, encoded, limit, |ships| {
        shown += 1;
        if json {
            solutions.push(json_solution(puzzle, ships));
        } else {
            written = (|| {
                writeln!(out, "Solution {shown}:")?;
                write_ships(out, puzzle, ships)?;
                writeln!(out)
            })();
        }
        if written.is_ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })?;
    written?;
    let n = listing.found;
    if json {
        let value = json!({
            "puzzle": puzzle_json(puzzle),
            "solutions": solutions,
            "count": n,
            "complete": listing.complete,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
    } else if limit == Some(1) && !args.modes.all {
        if n == 0 {
            writeln!(out, "No solution.")?;
        }
    } else {
        let plural = if n == 1 { "" } else { "s" };
        if listing.complete {
            writeln!(out, "{n} solution{plural}.")?;
        } else {
            writeln!(
                out,
                "{n} solution{plural} (stopped at --limit {n}; there are more)."
            )?;
        }
    }
    Ok(n > 0)
}

fn count_text(listing: &Listing) -> String {
    if listing.complete {
        listing.found.to_string()
    } else {
        format!("at least {} (stopped at --limit)", listing.found)
    }
}

fn print_count(
    args: &Args,
    puzzle: &Puzzle,
    encoded: &Encoded,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let listing = count_solutions(puzzle, encoded, args.modes.limit)?;
    match args.modes.format {
        Format::Json => {
            let value = json!({
                "puzzle": puzzle_json(puzzle),
                "count": listing.found,
                "complete": listing.complete,
            });
            writeln!(out, "{value}")?;
        }
        Format::Text => writeln!(out, "Number of solutions: {}", count_text(&listing))?,
    }
    Ok(listing.found > 0)
}

fn print_uniqueness(
    args: &Args,
    puzzle: &Puzzle,
    encoded: &Encoded,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let verdict = uniqueness(puzzle, encoded)?;
    let cells = |cells: &[gridsat_encodings::grid::Cell]| -> Vec<[usize; 2]> {
        cells.iter().map(|c| [c.row, c.col]).collect()
    };
    match args.modes.format {
        Format::Json => {
            let mut value = match &verdict {
                Verdict::NoSolution => json!({ "verdict": "none", "solutions": [] }),
                Verdict::Unique(a) => json!({
                    "verdict": "unique",
                    "solutions": [json_solution(puzzle, a)],
                }),
                Verdict::Multiple(a, b, differing) => json!({
                    "verdict": "multiple",
                    "solutions": [json_solution(puzzle, a), json_solution(puzzle, b)],
                    "differing_cells": cells(differing),
                }),
            };
            value["puzzle"] = puzzle_json(puzzle);
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Format::Text => match &verdict {
            Verdict::NoSolution => writeln!(out, "No solution.")?,
            Verdict::Unique(a) => {
                writeln!(out, "Unique solution:")?;
                write_ships(out, puzzle, a)?;
            }
            Verdict::Multiple(a, b, differing) => {
                writeln!(out, "Not unique. Two solutions:")?;
                for (k, ships) in [a, b].into_iter().enumerate() {
                    writeln!(out, "Solution {}:", k + 1)?;
                    write_ships(out, puzzle, ships)?;
                }
                let list: Vec<String> = differing
                    .iter()
                    .map(|c| format!("(row {}, col {})", c.row, c.col))
                    .collect();
                writeln!(out, "They differ at {}.", list.join(", "))?;
            }
        },
    }
    Ok(matches!(verdict, Verdict::Unique(_)))
}

fn print_determined(
    args: &Args,
    puzzle: &Puzzle,
    encoded: &Encoded,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    let Some(fixed) = determined(encoded)? else {
        match args.modes.format {
            Format::Json => writeln!(
                out,
                "{}",
                json!({ "puzzle": puzzle_json(puzzle), "solvable": false })
            )?,
            Format::Text => writeln!(out, "No solution.")?,
        }
        return Ok(false);
    };
    let symbols: Vec<char> = fixed
        .iter()
        .map(|f| match f {
            Some(true) => '#',
            Some(false) => '.',
            None => '?',
        })
        .collect();
    let ship = symbols.iter().filter(|&&s| s == '#').count();
    let water = symbols.iter().filter(|&&s| s == '.').count();
    let open = symbols.len() - ship - water;
    match args.modes.format {
        Format::Json => {
            let rows: Vec<String> = symbols
                .chunks(puzzle.cols)
                .map(|r| r.iter().collect())
                .collect();
            let pick = |want: char| -> Vec<[usize; 2]> {
                (0..symbols.len())
                    .filter(|&i| symbols[i] == want)
                    .map(|i| [i / puzzle.cols, i % puzzle.cols])
                    .collect()
            };
            let value = json!({
                "puzzle": puzzle_json(puzzle),
                "solvable": true,
                "board": rows,
                "determined_ship": pick('#'),
                "determined_water": pick('.'),
                "undetermined": pick('?'),
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Format::Text => {
            write_board(out, puzzle, &symbols)?;
            writeln!(
                out,
                "{} cells determined ({ship} ship, {water} water), {open} undetermined.",
                ship + water
            )?;
        }
    }
    Ok(true)
}
