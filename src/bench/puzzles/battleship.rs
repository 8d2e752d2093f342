//! `gridsat bench battleship`: the four cardinality encodings of the row and column
//! sums (and each SAT solver) on Battleship puzzles, finding a solution and proving it
//! unique.

use super::{board, file_name};
use crate::battleship::cli::load;
use crate::battleship::puzzle::Battleship;
use crate::bench::runner::{Contest, Sample};
use crate::bench::{BenchArgs, EXAMPLES};
use crate::limits::Budget;
use gridsat_encodings::battleship::Puzzle;
use gridsat_encodings::CardEncoding;
use std::path::PathBuf;

/// Compare the cardinality encodings (and the SAT solvers) on Battleship puzzles.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub bench: BenchArgs,
}

impl Args {
    pub fn contest(&self) -> BattleshipContest {
        BattleshipContest
    }
}

pub struct BattleshipContest;

impl Contest for BattleshipContest {
    type Case = Puzzle;
    type Option = CardEncoding;

    fn puzzle(&self) -> &'static str {
        "Battleship"
    }

    fn cases(&self, files: &[PathBuf]) -> anyhow::Result<Vec<(String, Puzzle)>> {
        files
            .iter()
            .map(|path| Ok((file_name(path), load(path)?)))
            .collect()
    }

    fn options(&self) -> Vec<(String, CardEncoding, bool)> {
        CardEncoding::ALL
            .into_iter()
            .map(|card| (card.name().to_string(), card, true))
            .collect()
    }

    fn run(&self, puzzle: &Puzzle, card: CardEncoding, budget: &Budget) -> anyhow::Result<Sample> {
        let puzzle = puzzle.clone();
        // Battleship refuses a pairwise encoding that would be too large itself.
        board::run(budget, move || Battleship::new(puzzle, card))
    }
}
