//! `gridsat bench star-battle`: the cost of each cardinality encoding on one puzzle.

use super::cli::load;
use super::cli::RuleArg;
use super::puzzle::StarBattle;
use crate::answer::BoardPuzzle;
use crate::cli::Exit;
use crate::solver::{Session, Uniqueness};
use gridsat_encodings::CardEncoding;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Compare the cardinality encodings on one Star Battle puzzle: CNF size, time to the
/// first solution, time to prove uniqueness (median of --repeat fresh runs).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Puzzle file.
    pub input: PathBuf,
    /// Stars per zone, row and column.
    #[arg(long, short)]
    pub stars: Option<usize>,
    /// Row and column rule.
    #[arg(long, value_enum, default_value_t = RuleArg::AtMost)]
    pub rule: RuleArg,
    /// Runs per measurement; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub repeat: usize,
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let parsed = load(&args.input)?;
    let stars = args
        .stars
        .or(parsed.stars)
        .ok_or_else(|| anyhow::anyhow!("give the number of stars with --stars S"))?;
    let rule = args.rule.rule();
    let repeat = args.repeat.max(1);
    println!(
        "Star Battle {} ({}x{}), S={stars}, rule {}; median of {repeat} runs",
        args.input.display(),
        parsed.puzzle.rows,
        parsed.puzzle.cols,
        rule.name()
    );
    println!();
    println!(
        "| encoding | variables | clauses | encode | first solution | prove uniqueness | verdict |"
    );
    println!("|---|---:|---:|---:|---:|---:|---|");
    for card in CardEncoding::ALL {
        let encode = median(repeat, || {
            StarBattle::new(parsed.puzzle.clone(), stars, rule, card);
        });
        let puzzle = StarBattle::new(parsed.puzzle.clone(), stars, rule, card);
        let cnf = puzzle.cnf();
        let first = median(repeat, || {
            Session::new(cnf).solve().expect("solver runs");
        });
        let mut verdict = String::new();
        let unique = median(repeat, || {
            verdict = match Session::new(cnf).uniqueness().expect("solver runs") {
                Uniqueness::NoSolution => "no solution".into(),
                Uniqueness::Unique(_) => "unique".into(),
                Uniqueness::Multiple(..) => "several".into(),
            };
        });
        println!(
            "| {} | {} | {} | {} | {} | {} | {verdict} |",
            card.name(),
            cnf.num_vars(),
            cnf.num_clauses(),
            ms(encode),
            ms(first),
            ms(unique),
        );
    }
    Ok(Exit::Solved)
}

fn median(repeat: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..repeat)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}
