//! `gridsat bench sokoban`: the SAT search with all its optional clause families, with
//! each one left out and with none, A*, and the portfolio (the SAT choices with every
//! SAT solver); the push optimum and the fewest moves among those plans.

use super::file_name;
use crate::bench::runner::{Answer, Contest, Sample};
use crate::bench::{BenchArgs, EXAMPLES};
use crate::input::{read_puzzle_file, InputError};
use crate::limits::Budget;
use crate::sokoban::cli::{solve_level, Method, Strategy};
use crate::sokoban::parse::{parse_levels, LevelEntry, LevelFormat};
use crate::sokoban::report::LevelReport;
use crate::sokoban::search::{astar, portfolio::Portfolio, sat::SatOptions};
use crate::sokoban::{Limits, Outcome};
use gridsat_encodings::sokoban::{Analysis, PlanEncoding, Pruning};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Compare the Sokoban searches (and the SAT solvers) on the levels of level files.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Only level N of each file (1-based) [default: every level].
    #[arg(long, value_name = "N", value_parser = crate::cli::numbers::positive)]
    pub level: Option<usize>,

    #[command(flatten)]
    pub bench: BenchArgs,
}

impl Args {
    pub fn contest(&self) -> SokobanContest {
        SokobanContest { level: self.level }
    }
}

pub struct SokobanContest {
    level: Option<usize>,
}

/// The choices: a method, and for SAT the clause families.
const CHOICES: [&str; 9] = [
    "sat",
    "sat-no-closure",
    "sat-no-cover",
    "sat-no-goalsum",
    "sat-no-commute",
    "sat-no-undo",
    "sat-bare",
    "astar",
    "portfolio",
];

fn strategy_of(name: &str) -> Strategy {
    let all = Pruning::default();
    let pruning = match name {
        "sat-no-closure" => Pruning {
            reach_closure: false,
            ..all
        },
        "sat-no-cover" => Pruning {
            goal_cover: false,
            ..all
        },
        "sat-no-goalsum" => Pruning {
            goal_sum_steps: 0,
            ..all
        },
        "sat-no-commute" => Pruning {
            commute: false,
            ..all
        },
        "sat-no-undo" => Pruning {
            no_undo: false,
            ..all
        },
        "sat-bare" => Pruning {
            reach_closure: false,
            goal_cover: false,
            goal_sum_steps: 0,
            commute: false,
            no_undo: false,
        },
        _ => all,
    };
    let method = match name {
        "astar" => Method::Astar,
        "portfolio" => Method::Portfolio,
        _ => Method::Sat,
    };
    Strategy {
        method,
        // Quick plans need not be optimal: bench compares the searches that prove.
        quick: false,
        sat: SatOptions {
            pruning,
            trace: false,
        },
        astar: astar::Options::default(),
    }
}

impl Contest for SokobanContest {
    type Case = LevelEntry;
    type Option = &'static str;

    fn puzzle(&self) -> &'static str {
        "Sokoban"
    }

    fn cases(&self, files: &[PathBuf]) -> anyhow::Result<Vec<(String, LevelEntry)>> {
        let mut cases = Vec::new();
        for path in files {
            let text = read_puzzle_file(path)?;
            let entries = parse_levels(&text, LevelFormat::Auto, self.level)
                .map_err(|e| InputError::new(path, e))?;
            for entry in entries {
                cases.push((format!("{} #{}", file_name(path), entry.number), entry));
            }
        }
        Ok(cases)
    }

    fn options(&self) -> Vec<(String, &'static str, bool)> {
        CHOICES
            .into_iter()
            .map(|name| (name.to_string(), name, name != "astar"))
            .collect()
    }

    fn run(
        &self,
        entry: &LevelEntry,
        choice: &'static str,
        budget: &Budget,
    ) -> anyhow::Result<Sample> {
        let strategy = strategy_of(choice);
        let limits = Limits {
            budget: budget.clone(),
            max_states: strategy.method.default_max_states(),
            ..Limits::default()
        };
        let (outcome, run) = solve_level(&entry.level, strategy, &limits, &Portfolio::default())?;
        let mut sample = Sample::default();
        if let Some(size) = run.encoding.filter(|s| s.variables > 0) {
            sample.variables = Some(size.variables);
            sample.clauses = Some(size.clauses);
        }
        let decided = !matches!(outcome, Outcome::GaveUp { .. });
        let report = LevelReport::checked(entry, outcome, run, false)?;
        if !decided {
            return Ok(sample);
        }
        sample.proof = Some(Duration::from_secs_f64(report.seconds));
        sample.first = Some(Duration::from_secs_f64(
            report.push_seconds.unwrap_or(report.seconds),
        ));
        sample.answer = Some(match (report.pushes, report.moves) {
            (Some(pushes), Some(moves)) => {
                if strategy.method != Method::Astar && pushes > 0 {
                    sample.encode = Some(encode_time(entry, strategy.sat.pruning, pushes));
                }
                let proven = if report.moves_minimal {
                    ""
                } else {
                    " (fewest not proven)"
                };
                Answer {
                    text: format!("{pushes} pushes, {moves} moves{proven}"),
                    key: format!("{pushes} pushes"),
                    proven_detail: report.moves_minimal.then(|| format!("{moves} moves")),
                }
            }
            _ => Answer::new("unsolvable", "unsolvable"),
        });
        Ok(sample)
    }
}

/// The time to build the plan encoding of `pushes` steps from nothing (the search grows
/// it a horizon at a time and learns loop clauses besides, so its own encoding time is
/// spread over its solver calls).
fn encode_time(entry: &LevelEntry, pruning: Pruning, pushes: usize) -> Duration {
    let began = Instant::now();
    let analysis = Analysis::new(&entry.level);
    let mut encoding = PlanEncoding::with_pruning(&entry.level, &analysis, pruning);
    encoding.extend_to(pushes);
    began.elapsed()
}
