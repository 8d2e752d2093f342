//! `gridsat bench full-board`: the SAT encodings of Full Board (segments tied to the
//! line cover, segments alone, successor; each with every SAT solver), without the
//! bounded search, and the command's whole pipeline; the minimum and every minimum game.
//!
//! The encodings run as `full-board --no-search --sequential` does (the segments
//! choices without the successor's parallel refutation), so that each choice is one
//! encoding on one thread; `pipeline` is `full-board` as it runs by default.

use super::file_name;
use crate::bench::runner::{Answer, Contest, Sample};
use crate::bench::{BenchArgs, EXAMPLES};
use crate::full_board::cli::read_maps;
use crate::full_board::context::{Options, Progress};
use crate::full_board::formula::game_formula;
use crate::full_board::solve::solve_watched;
use crate::full_board::verdict::Verdict;
use crate::limits::Budget;
use gridsat_encodings::full_board::{Board, Encoding};
use std::path::PathBuf;
use std::time::Instant;

/// Compare the Full Board encodings (and the SAT solvers) on the maps of map files.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub bench: BenchArgs,
}

impl Args {
    pub fn contest(&self) -> FullBoardContest {
        FullBoardContest
    }
}

pub struct FullBoardContest;

/// The options of each choice.
fn options_of(name: &str) -> Options {
    let encodings_alone = Options {
        bounded_search: false,
        parallel_refutation: false,
        ..Options::default()
    };
    match name {
        "segments" => encodings_alone,
        "segments-untied" => Options {
            cover_tie: false,
            ..encodings_alone
        },
        "successor" => Options {
            encoding: Encoding::Successor,
            ..encodings_alone
        },
        _ => Options::default(),
    }
}

impl Contest for FullBoardContest {
    type Case = Board;
    type Option = &'static str;

    fn puzzle(&self) -> &'static str {
        "Full Board"
    }

    fn cases(&self, files: &[PathBuf]) -> anyhow::Result<Vec<(String, Board)>> {
        let mut cases = Vec::new();
        for path in files {
            for map in read_maps(path)? {
                cases.push((format!("{}:{}", file_name(path), map.line), map.board));
            }
        }
        Ok(cases)
    }

    fn options(&self) -> Vec<(String, &'static str, bool)> {
        ["segments", "segments-untied", "successor", "pipeline"]
            .into_iter()
            .map(|name| (name.to_string(), name, true))
            .collect()
    }

    fn run(&self, board: &Board, choice: &'static str, budget: &Budget) -> anyhow::Result<Sample> {
        let options = options_of(choice);
        let progress = Progress::default();
        let began = Instant::now();
        let verdict = solve_watched(board, &options, budget.remaining(), progress.clone())?;
        let proof = began.elapsed();
        let mut sample = Sample::default();
        match verdict {
            Verdict::GaveUp(_) => return Ok(sample),
            Verdict::NoSolution(_) => {
                sample.first = Some(proof);
                sample.answer = Some(Answer::new("no solution", "none"));
            }
            Verdict::Solved { moves, games, .. } => {
                // The bounded search lists its games at once, reporting none as it goes.
                let first = progress.snapshot().first_game_at;
                sample.first = Some(first.map_or(proof, |t| t.duration_since(began)));
                let mut plans: Vec<String> =
                    games.iter().map(|g| format!("{:?}", g.plan)).collect();
                plans.sort();
                let count = games.len();
                let games = if count == 1 { "game" } else { "games" };
                sample.answer = Some(Answer::new(
                    format!("{moves} moves, {count} {games}"),
                    format!("{moves} moves: {}", plans.join(" ")),
                ));
                // The formula of the minimum, built once more to time the encoding alone.
                let began = Instant::now();
                if let Ok(cnf) = game_formula(board, &options, moves) {
                    sample.encode = Some(began.elapsed());
                    sample.variables = Some(cnf.num_vars());
                    sample.clauses = Some(cnf.num_clauses());
                }
            }
        }
        sample.proof = Some(proof);
        Ok(sample)
    }
}
