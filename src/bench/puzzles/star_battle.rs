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

/// The most clauses the pairwise encoding may take on one puzzle before the bench
/// leaves it out (it is binomial in the line length: a 60 x 60 grid with S = 3 would
/// need billions), as Battleship refuses its pairwise sums.
pub const MAX_PAIRWISE_CLAUSES: u128 = 10_000_000;

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
        board::run(budget, move || {
            if card == CardEncoding::Pairwise {
                let clauses = pairwise_clauses(&puzzle, stars, rule);
                if clauses > MAX_PAIRWISE_CLAUSES {
                    return Err(format!(
                        "pairwise needs about {clauses} clauses (over {MAX_PAIRWISE_CLAUSES})"
                    ));
                }
            }
            Ok(StarBattle::new(puzzle, stars, rule, card))
        })
    }
}

/// The pairwise encoding's clauses for the puzzle's counting rules: per zone exactly S,
/// per row and column at most S (and at least S under the exact rule).
pub fn pairwise_clauses(puzzle: &Puzzle, stars: usize, rule: LineRule) -> u128 {
    let exactly = |n: usize| {
        let at_least = if stars <= n {
            binomial(n, n - stars + 1)
        } else {
            1
        };
        binomial(n, stars + 1).saturating_add(at_least)
    };
    let line = |n: usize| match rule {
        LineRule::AtMost => binomial(n, stars + 1),
        LineRule::Exact => exactly(n),
    };
    let zones = puzzle.zones.iter().fold(0u128, |sum, zone| {
        sum.saturating_add(exactly(zone.cells.len()))
    });
    let lines = (puzzle.rows as u128)
        .saturating_mul(line(puzzle.cols))
        .saturating_add((puzzle.cols as u128).saturating_mul(line(puzzle.rows)));
    zones.saturating_add(lines)
}

/// `C(n, k)`, saturating at `u128::MAX`.
fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c * (n - i) / (i + 1) stays exact: c * (n - i) is divisible by i + 1.
        c = match c.checked_mul((n - i) as u128) {
            Some(product) => product / (i as u128 + 1),
            None => return u128::MAX,
        };
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_saturate() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(5, 6), 0);
        assert_eq!(binomial(60, 30), 118_264_581_564_861_424);
        assert_eq!(binomial(400, 200), u128::MAX);
    }

    /// The estimate is the pairwise encoding's real clause count where the encoding
    /// states exactly the rules (no cell clauses are pairwise): compare on the corpus.
    #[test]
    fn the_pairwise_estimate_bounds_the_formula() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for (file, stars) in [("twonot1.txt", 2), ("custom1.txt", 2), ("queens8.txt", 1)] {
            let parsed = load(&root.join("examples/star-battle").join(file)).unwrap();
            for rule in [LineRule::AtMost, LineRule::Exact] {
                let estimate = pairwise_clauses(&parsed.puzzle, stars, rule);
                let built =
                    StarBattle::new(parsed.puzzle.clone(), stars, rule, CardEncoding::Pairwise);
                let clauses = crate::answer::BoardPuzzle::cnf(&built).num_clauses() as u128;
                assert!(
                    estimate <= clauses,
                    "{file} {rule:?}: {estimate} > {clauses}"
                );
                assert!(
                    clauses <= estimate * 2,
                    "{file} {rule:?}: {clauses} vs {estimate}"
                );
            }
        }
    }
}
