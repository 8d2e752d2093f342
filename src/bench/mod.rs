//! `gridsat bench PUZZLE FILE...`: every choice a puzzle has, timed on the same cases
//! with the answers compared, so that encodings, clause families, searches and SAT
//! solvers can be weighed without reading the source.
//!
//! The parts, one job each: `runner` (the `Contest` a puzzle implements, the runs, the
//! agreement check, the summary), `timing` (medians, spreads, geometric means),
//! `puzzles` (one file per puzzle: its cases and choices), `render` (Markdown, CSV, JSON
//! and an SVG chart) and `svg` (the few SVG elements the chart is drawn with).
//!
//! The bench has its own output format (`BenchFormat`): the answers' `cli::Format` is
//! about puzzles' solutions, this one about tables of times.

pub mod puzzles;
pub mod render;
pub mod runner;
pub mod svg;
pub mod timing;

use crate::cli::{Exit, LimitArgs};
use crate::error::InternalError;
use crate::solver::Backend;
use std::io::Write;
use std::path::PathBuf;

/// One subcommand per puzzle.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Star Battle: the cardinality encodings, finding a solution and proving it unique.
    StarBattle(puzzles::star_battle::Args),
    /// Battleship: the cardinality encodings of the row and column sums, finding a
    /// solution and proving it unique.
    Battleship(puzzles::battleship::Args),
    /// Full Board: the segments encoding with and without the cover tie, the successor
    /// encoding, and the whole pipeline; the minimum and every minimum game.
    FullBoard(puzzles::full_board::Args),
    /// Sokoban: SAT with all clause families and with each one left out, A*, and the
    /// portfolio; the push optimum and its fewest moves.
    Sokoban(puzzles::sokoban::Args),
}

/// How a bench is printed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchFormat {
    /// Markdown tables: one row per file and choice, then a summary per choice.
    #[default]
    Md,
    /// One CSV row per file and choice (times in seconds).
    Csv,
    /// One JSON document: the rows, the summary and the disagreements.
    Json,
    /// An SVG chart of the time to the proof per choice.
    Svg,
}

/// The flags every bench takes. `--timeout` is the shared flag, with the bench's meaning
/// of giving up: a run past it is "not decided", and the bench goes on.
#[derive(Clone, Debug, clap::Args)]
#[command(mut_arg("timeout", |arg| arg.help(TIMEOUT_HELP)))]
pub struct BenchArgs {
    /// Puzzle files (a file of several maps or levels is one case per map or level).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Fresh runs per choice and case: the tables give the median, least and greatest.
    #[arg(long, value_name = "N", default_value_t = 5, alias = "repeat",
          value_parser = crate::cli::numbers::positive_u32)]
    pub runs: u32,

    /// Output format.
    #[arg(long, value_enum, default_value_t = BenchFormat::Md)]
    pub format: BenchFormat,

    /// SAT solvers to compare, e.g. `varisat,cadical` [default: every one built in].
    #[arg(long, value_name = "SOLVER,...", value_delimiter = ',')]
    pub solver: Vec<Backend>,

    /// Run only these choices: option names (every solver) or labels such as
    /// `totalizer/cadical` [default: all].
    #[arg(long = "choice", value_name = "NAME,...", value_delimiter = ',')]
    pub choices: Vec<String>,

    /// The choice the summary's time ratios are relative to [default: the first].
    #[arg(long, value_name = "NAME")]
    pub reference: Option<String>,

    #[command(flatten)]
    pub limits: LimitArgs,
}

const TIMEOUT_HELP: &str = "Stop each run (one choice on one map, level or file) after \
SECONDS: it counts as not decided, slower than every run that finished";

pub const EXAMPLES: &str = "\
Examples:
  gridsat bench star-battle examples/star-battle/twonot1.txt --stars 2
  gridsat bench star-battle examples/star-battle/*.txt --stars 1 --runs 3 --format csv
  gridsat bench battleship examples/battleship/puzzle10.txt --solver varisat,cadical
  gridsat bench full-board examples/full-board/set-2018-smallmaps.txt --runs 1 --format svg > fb.svg
  gridsat bench sokoban examples/sokoban/microban-1-10.xsb --runs 1 --timeout 10 --reference astar

Every run starts from nothing (encode, solve, check). A time is the median of --runs runs,
with the least and the greatest; a run that did not finish within --timeout counts as
slower than all. 'first' is the first answer (a solution, a minimum game, a push-optimal
plan), 'proof' the whole answer proven (uniqueness; every minimum game; the push optimum
and the fewest moves among those plans). Over several cases the summary gives, per
choice, the cases decided and the geometric mean of its proof time over the reference
choice's, on the cases both decided.

Exit status: 0 every choice agreed; 2 bad input or usage; 3 two choices gave different
answers (a bug: the table is printed, then the disagreement).";

/// Runs the bench `command` asks for and prints its report.
pub fn run(command: &Command) -> anyhow::Result<Exit> {
    let (report, format) = match command {
        Command::StarBattle(args) => (
            runner::bench(&args.contest()?, &args.bench)?,
            args.bench.format,
        ),
        Command::Battleship(args) => (
            runner::bench(&args.contest(), &args.bench)?,
            args.bench.format,
        ),
        Command::FullBoard(args) => (
            runner::bench(&args.contest(), &args.bench)?,
            args.bench.format,
        ),
        Command::Sokoban(args) => (
            runner::bench(&args.contest(), &args.bench)?,
            args.bench.format,
        ),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    render::write(&report, format, &mut out)?;
    out.flush()?;
    verdict(&report)
}

/// Solved when every choice agreed; an internal error (status 3) naming the
/// disagreements otherwise: two correct choices cannot answer differently.
pub fn verdict(report: &runner::Report) -> anyhow::Result<Exit> {
    if !report.disagreements.is_empty() {
        return Err(InternalError::new(format!(
            "the choices disagree: {}",
            report.disagreements.join("; ")
        ))
        .into());
    }
    Ok(Exit::Solved)
}
