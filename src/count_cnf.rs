//! `gridsat count-cnf FILE.cnf`: the projected model count of any DIMACS file, so the
//! engine can be compared with other model counters (sharpSAT, d4, Ganak).
//!
//! The count comes from the counting engine alone (no CDCL probe: the point is to
//! measure the engine). With `--timeout` the engine stops at the deadline and the answer
//! is the number of solutions it proved by then (`at least N`, exit status 4); see
//! `solver::count::search` for why that bound is sound.

use crate::cli::{Exit, Format, LimitArgs, OutputArgs, SolverArgs};
use crate::dimacs::read_dimacs;
use crate::progress::{Progress, Status};
use crate::solver::count::{count_racing, Count, Engine, SearchStats, Solutions};
use gridsat_encodings::cnf::Cnf;
use std::io::Write;
use std::ops::ControlFlow;

/// Count (or list) the models of a DIMACS CNF file, projected on its `c p show` set.
///
/// Without a `c p show V1 V2 ... 0` line every variable is projected. The count goes to
/// standard output as a bare number (`at least N` when --timeout stopped the count).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  gridsat count-cnf formula.cnf\n  gridsat count-cnf --list formula.cnf\n  \
    gridsat count-cnf --order dynamic random-3cnf.cnf\n  \
    gridsat count-cnf --order dynamic --eliminate projected-3cnf.cnf\n  \
    gridsat count-cnf --order fixed --stats puzzle.cnf\n  \
    gridsat count-cnf --timeout 10 --format json formula.cnf\n\n\
    The projection is the union of the file's `c p show V1 V2 ... 0` lines (or `c ind ... 0`);\n\
    without one, every variable is projected (plain model counting).\n\n\
    --timeout bounds the count; once it is done, --list prints every solution.\n\n\
    --solver is taken as on every command, but the count is the counting engine's alone:\n\
    it calls no SAT solver."
)]
pub struct Args {
    /// DIMACS CNF file.
    pub file: std::path::PathBuf,

    /// Also print every solution, one line each: the projection variables as signed
    /// DIMACS literals ending in 0 (`v 1 -2 3 0`), before the count.
    #[arg(long)]
    pub list: bool,

    /// The decision order: `fixed` follows the file's projection (best on puzzle
    /// formulas: the cache becomes a dynamic program over the board's rows), `dynamic`
    /// decides in each sub-problem the variable in the most open clauses (best on
    /// formulas without such structure, such as random CNFs), and `auto` races the two
    /// on two threads, `fixed` as given against `dynamic` with `--eliminate`, and takes
    /// the first count (each with half the cache; `--list` lists in the fixed order).
    /// The count is the same.
    #[arg(long, value_enum, default_value = "auto")]
    pub order: Order,

    /// Before counting, resolve away the variables outside the projection where that
    /// barely grows the formula (bounded variable elimination). The count is the same;
    /// best on formulas with many unprojected variables and no grid behind them (random
    /// CNFs projected on some variables, with `--order dynamic`), bad on puzzle formulas,
    /// whose auxiliary variables the search works through. With `--order auto` it
    /// applies to the fixed order too (the dynamic one always has it there).
    #[arg(long)]
    pub eliminate: bool,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub solver: SolverArgs,
}

/// How the counting engine chooses its next decision (`--order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    Fixed,
    Dynamic,
    Auto,
}

/// Each racer's share of the cache under `--order auto` (half the engine's default).
const RACER_CACHE_BYTES: usize = 1 << 30;

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    run_to(args, std::io::BufWriter::new(std::io::stdout().lock()))
}

/// `run`, written to `out`.
pub fn run_to(args: &Args, mut out: impl Write) -> anyhow::Result<Exit> {
    args.solver.choose();
    let status = Status::new();
    let budget = args.limits.budget().with_status(status.clone());
    let cnf = read_dimacs(&args.file)?;
    let engine = Engine::new(&cnf)
        .budget(&budget)
        .dynamic_order(args.order == Order::Dynamic)
        .eliminate(args.eliminate);
    // What `--stats` says about the order: the race's winner under `auto`.
    let mut order_used = match args.order {
        Order::Fixed => "fixed",
        Order::Dynamic => "dynamic",
        Order::Auto => "fixed (under auto, listing is in the fixed order)",
    };
    let progress = Progress::spinner("counting");
    let watch = progress.watch_status(status, String::new);
    let json = args.output.format == Format::Json;
    let (counted, stats) = if args.list {
        if json {
            write!(out, "{{\"solutions\":[")?;
        }
        let (compiled, stats) = engine.compile();
        // The spinner is gone before the first solution is printed.
        drop(watch);
        progress.finish();
        let counted = match compiled {
            Ok(solutions) => {
                list(&cnf, &solutions, json, &mut out)?;
                Ok(solutions.count().clone())
            }
            Err(stopped) => Err(stopped),
        };
        (counted, stats)
    } else if args.order == Order::Auto {
        let racers = [
            engine.clone().cache_bytes(RACER_CACHE_BYTES),
            engine
                .clone()
                .cache_bytes(RACER_CACHE_BYTES)
                .dynamic_order(true)
                .eliminate(true),
        ];
        let raced = count_racing(&racers);
        drop(watch);
        progress.finish();
        order_used = match raced.winner {
            Some(0) => "auto: fixed finished first",
            Some(_) => "auto: dynamic with elimination finished first",
            None => "auto: neither finished, the better bound",
        };
        (raced.count, raced.stats)
    } else {
        let counted = engine.count();
        drop(watch);
        progress.finish();
        counted
    };
    let (count, complete) = match counted {
        Ok(count) => (count, true),
        Err(stopped) => (stopped.at_least, false),
    };
    print_count(&count, complete, json, args.list, &mut out)?;
    out.flush()?;
    if args.output.stats {
        print_stats(&cnf, &stats, complete, order_used);
    }
    // As for every command: no model is "no solution" (1), like a puzzle's count of 0.
    Ok(match (complete, count.is_zero()) {
        (false, _) => Exit::GaveUp,
        (true, true) => Exit::NoAnswer,
        (true, false) => Exit::Solved,
    })
}

/// Every solution, checked against the formula, one line (or one JSON array, inside the
/// document `run` opened) each: the projection variables as signed DIMACS literals.
fn list(cnf: &Cnf, solutions: &Solutions, json: bool, out: &mut impl Write) -> anyhow::Result<()> {
    // Each projected variable's two spellings, made once: listings run to millions.
    let (open, separator, close) = if json {
        ("[", ",", "]")
    } else {
        ("v", " ", " 0")
    };
    let spelled: Vec<(usize, [String; 2])> = cnf
        .projection()
        .iter()
        .map(|v| {
            (
                v.index(),
                [format!("-{}", v.dimacs()), format!("{}", v.dimacs())],
            )
        })
        .collect();
    let mut failure = None;
    let mut rejected = false;
    let mut line = String::new();
    let mut first = true;
    let _ = solutions.for_each(|values| {
        // A listed assignment must be a model; anything else is our bug.
        if !cnf.is_satisfied_by(values) {
            rejected = true;
            return ControlFlow::Break(());
        }
        line.clear();
        if json && !std::mem::take(&mut first) {
            line.push(',');
        }
        line.push_str(open);
        for (k, (index, words)) in spelled.iter().enumerate() {
            if !json || k > 0 {
                line.push_str(separator);
            }
            line.push_str(&words[usize::from(values[*index])]);
        }
        line.push_str(close);
        let written = if json {
            write!(out, "{line}")
        } else {
            writeln!(out, "{line}")
        };
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if rejected {
        return Err(crate::error::InternalError::new(
            "the engine listed an assignment that is not a model",
        )
        .into());
    }
    if let Some(e) = failure {
        return Err(e.into());
    }
    Ok(())
}

/// The count: a bare number, `at least N` when the count was stopped; in JSON, the
/// number (a string of digits beyond 64 bits, which JSON readers keep exact) and whether
/// it is complete, closing the document that `list` opened.
fn print_count(
    count: &Count,
    complete: bool,
    json: bool,
    listed: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    if !json {
        let at_least = if complete { "" } else { "at least " };
        writeln!(out, "{at_least}{count}")?;
        return Ok(());
    }
    let number = match count.to_u64() {
        Some(n) => serde_json::json!(n),
        None => serde_json::json!(count.to_string()),
    };
    let fields = format!("\"count\":{number},\"complete\":{complete}}}");
    if listed {
        writeln!(out, "],{fields}")?;
    } else {
        writeln!(out, "{{{fields}")?;
    }
    Ok(())
}

/// `--stats`: the formula's size and what the search did, on standard error.
fn print_stats(cnf: &Cnf, stats: &SearchStats, complete: bool, order: &str) {
    let stopped = if complete {
        ""
    } else {
        " (stopped at the time limit)"
    };
    eprintln!(
        "variables {}, clauses {}, projected {}{stopped}\norder: {order}\n{stats}",
        cnf.num_vars(),
        cnf.num_clauses(),
        cnf.projection().len(),
    );
}
