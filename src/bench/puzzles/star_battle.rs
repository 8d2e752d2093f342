//! `gridsat bench star-battle`: the four cardinality encodings (and each SAT solver) on
//! Star Battle puzzles, finding a solution and proving it unique.

use super::{board, file_name};
use crate::bench::runner::{Contest, Sample};
use crate::bench::{BenchArgs, EXAMPLES};
use crate::limits::Budget;
use crate::star_battle::cli::{load, RuleArg};
use crate::star_battle::puzzle::StarBattle;
use gridsat_encodings::star_battle::{LineRule, Puzzle};
use gridsat_encodings::CardEncoding;
use std::path::PathBuf;

/// Compare the cardinality encodings (and the SAT solvers) on Star Battle puzzles.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Stars per zone, row and column [default: the one each file states].
    #[arg(long, short, value_parser = crate::cli::numbers::positive)]
    pub stars: Option<usize>,

    /// Row and column rule.
    #[arg(long, value_enum, default_value_t = RuleArg::AtMost)]
    pub rule: RuleArg,

    #[command(flatten)]
    pub bench: BenchArgs,
}

impl Args {
    pub fn contest(&self) -> anyhow::Result<StarBattleContest> {
        if self.stars == Some(0) {
            anyhow::bail!("--stars must be at least 1");
        }
        Ok(StarBattleContest {
            stars: self.stars,
            rule: self.rule.rule(),
        })
    }
}

pub struct StarBattleContest {
    stars: Option<usize>,
    rule: LineRule,
}

impl Contest for StarBattleContest {
    type Case = (Puzzle, usize);
    type Option = CardEncoding;

    fn puzzle(&self) -> &'static str {
        "Star Battle"
    }

    fn cases(&self, files: &[PathBuf]) -> anyhow::Result<Vec<(String, Self::Case)>> {
        files
            .iter()
            .map(|path| {
                let parsed = load(path)?;
                let stars = self.stars.or(parsed.stars).ok_or_else(|| {
                    anyhow::anyhow!(
                        "{}: give the number of stars with --stars S (the file does not state it)",
                        path.display()
                    )
                })?;
                Ok((file_name(path), (parsed.puzzle, stars)))
            })
            .collect()
    }

    fn options(&self) -> Vec<(String, CardEncoding, bool)> {
        CardEncoding::ALL
            .into_iter()
            .map(|card| (card.name().to_string(), card, true))
            .collect()
    }

    fn run(
        &self,
        case: &Self::Case,
        card: CardEncoding,
        budget: &Budget,
    ) -> anyhow::Result<Sample> {
        let (puzzle, stars) = case.clone();
        let rule = self.rule;
        // Too large an encoding (pairwise on long lines) is left out of the table, with
        // the reason, as the puzzle command refuses it.
        board::run(budget, move || {
            StarBattle::within_limits(puzzle, stars, rule, card)
        })
    }
}
