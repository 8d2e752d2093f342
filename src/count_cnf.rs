//! `gridsat count-cnf FILE.cnf`: the projected model count of any DIMACS file, so the
//! engine can be compared with other model counters (sharpSAT, d4, Ganak).

use crate::cli::Exit;
use crate::dimacs::parse_dimacs;
use crate::input::{read_puzzle_file, InputError};
use crate::solver::count::{count_with_stats, Solutions};
use std::io::Write;
use std::ops::ControlFlow;

/// Count (or list) the models of a DIMACS CNF file, projected on its `c p show` set.
///
/// Without a `c p show V1 V2 ... 0` line every variable is projected. The count goes to
/// standard output as a bare number.
///
/// Examples:
///   gridsat count-cnf formula.cnf
///   gridsat count-cnf --list formula.cnf     # one solution per line, DIMACS literals
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  gridsat count-cnf formula.cnf\n  gridsat count-cnf --list formula.cnf\n\n\
    The projection is the union of the file's `c p show V1 V2 ... 0` lines; without one,\n\
    every variable is projected (plain model counting)."
)]
pub struct Args {
    /// DIMACS CNF file.
    pub file: std::path::PathBuf,
    /// Also print every solution, one line each: the projection variables as signed
    /// DIMACS literals ending in 0 (`v 1 -2 3 0`), before the count.
    #[arg(long)]
    pub list: bool,
    /// Print what the search did (decisions, cache use) to standard error.
    #[arg(long)]
    pub stats: bool,
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let text = read_puzzle_file(&args.file)?;
    let cnf = parse_dimacs(&text).map_err(|e| InputError::new(&args.file, e))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (count, stats) = if args.list {
        let solutions = Solutions::compile(&cnf);
        // Each projected variable's two spellings, made once: listings run to millions.
        let spelled: Vec<(usize, [String; 2])> = cnf
            .projection()
            .iter()
            .map(|v| {
                (
                    v.index(),
                    [format!(" -{}", v.dimacs()), format!(" {}", v.dimacs())],
                )
            })
            .collect();
        let mut failure = None;
        let mut rejected = false;
        let mut line = String::new();
        let _ = solutions.for_each(|values| {
            // A listed assignment must be a model; anything else is our bug.
            if !cnf.is_satisfied_by(values) {
                rejected = true;
                return ControlFlow::Break(());
            }
            line.clear();
            line.push('v');
            for (index, words) in &spelled {
                line.push_str(&words[usize::from(values[*index])]);
            }
            line.push_str(" 0");
            match writeln!(out, "{line}") {
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
        (solutions.count().clone(), solutions.stats())
    } else {
        count_with_stats(&cnf)
    };
    writeln!(out, "{count}")?;
    out.flush()?;
    if args.stats {
        eprintln!(
            "variables {}, clauses {}, projected {}; {:?}",
            cnf.num_vars(),
            cnf.num_clauses(),
            cnf.projection().len(),
            stats
        );
    }
    Ok(Exit::Solved)
}
