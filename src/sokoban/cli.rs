//! `gridsat sokoban`: push-optimal plans for one level or every level of a file.

use super::moves::{self, MovesReport};
use super::parse::{parse_levels, Format, LevelEntry};
use super::plan::to_lurd;
use super::render::board_lines;
use super::simulate::replay;
use super::solve::{solve_with_deadline, EncodingSize, SatOptions};
use super::{astar, bfs, portfolio, Limits, Outcome};
use crate::cli::Exit;
use crate::input::{read_puzzle_file, InputError};
use gridsat_encodings::sokoban::Pruning;
use std::io::Write;
use std::time::{Duration, Instant};

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// SAT encoding with a growing horizon (proves push-optimality).
    Sat,
    /// Plain breadth-first search over pushes (the baseline).
    Bfs,
    /// Best-first (A*) search over pushes with the matching bound and deadlock pruning
    /// (proves push-optimality).
    Astar,
    /// SAT and A* on two threads; the first proof wins.
    Portfolio,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Sat => "sat",
            Method::Bfs => "bfs",
            Method::Astar => "astar",
            Method::Portfolio => "portfolio",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

const AFTER_HELP: &str = "\
Outcomes and exit statuses:
  0  every level solved; pushes are proven minimal
  1  some level proven unsolvable (the reason is printed)
  2  bad input (FILE:LINE: level N: problem)
  3  internal error: a plan failed the independent replay (a bug; please report it)
  4  gave up on some level at --timeout, --max-pushes or a size limit, printing the
     bound proven so far (\"no plan with fewer than 31 pushes\")

Examples:
  gridsat sokoban examples/sokoban/microban-1-10.xsb --level 3
  gridsat sokoban examples/sokoban/seed.txt --boards
  gridsat sokoban levels.xsb --timeout 60 --format json
  gridsat sokoban levels.xsb --level 5 --method astar
  gridsat sokoban levels.xsb --level 5 --method bfs";

/// Finds push-optimal Sokoban plans (fewest pushes, then fewest moves among those).
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Level file: XSB (many levels, `;` titles, blank lines between) or the seed's digit map.
    pub input: std::path::PathBuf,
    /// Solve only level N (1-based); default every level of the file.
    #[arg(long, value_name = "N")]
    pub level: Option<usize>,
    /// Input format.
    #[arg(long, value_enum, default_value = "auto")]
    pub input_format: Format,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Print the board at the start and after every push.
    #[arg(long)]
    pub boards: bool,
    /// Give up on a level after this many seconds, reporting the bound proven so far.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Search method.
    #[arg(long, value_enum, default_value = "portfolio")]
    pub method: Method,
    /// SAT: give up when the formula exceeds this many clauses.
    #[arg(long, default_value_t = 5_000_000)]
    pub max_clauses: usize,
    /// BFS and A*: give up after storing this many positions [default: 5000000 for BFS,
    /// 40000000 for A*, about 45 bytes each for Microban-sized levels].
    #[arg(long, value_name = "N")]
    pub max_states: Option<usize>,
    /// Give up rather than look for plans with more pushes than this.
    #[arg(long, value_name = "N")]
    pub max_pushes: Option<usize>,
    /// SAT: compare at most this many push-optimal plans for the fewest moves.
    #[arg(long, default_value_t = 1000)]
    pub max_plans: usize,
    /// After A* proves the fewest pushes: store at most this many positions in the
    /// search for the fewest moves among those plans (0 skips it; it also stops at
    /// --timeout).
    #[arg(long, value_name = "N", default_value_t = 4_000_000)]
    pub max_move_states: usize,
    /// SAT, for measurements: leave out these optional clause families (all are sound,
    /// so only the time changes; docs/sokoban.md says what each one does).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        value_name = "FAMILY,...",
        help_heading = "Measurement"
    )]
    pub no_prune: Vec<PruneFamily>,
    /// SAT, for measurements: the number of final steps with the goal-distance-sum bound.
    #[arg(long, value_name = "N", help_heading = "Measurement")]
    pub goal_sum_steps: Option<usize>,
    /// A*, for measurements: try every push in every position, without restricting a
    /// position with a PI-corral to the pushes of its boxes (the optimum is the same).
    #[arg(long, help_heading = "Measurement")]
    pub no_corrals: bool,
    /// A*, for measurements: never add the split bound to the matching bound, however
    /// long the search (the optimum is the same).
    #[arg(long, help_heading = "Measurement")]
    pub no_split: bool,
    /// SAT, for measurements: print every solver call (horizon, answer, time, formula size)
    /// on standard error.
    #[arg(long, help_heading = "Measurement")]
    pub trace: bool,
}

/// The optional clause families of the SAT encoding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PruneFamily {
    /// The player's reachable squares pinned down exactly (without it there is no
    /// commuting order either).
    Closure,
    /// Every goal has a box within the pushes left.
    Cover,
    /// The goals' distances to their nearest boxes fit the pushes left, in the last steps.
    Goalsum,
    /// Independent pushes of consecutive steps in one fixed order.
    Commute,
    /// No box pushed straight back to the position of two steps before.
    Undo,
}

impl Args {
    fn sat_options(&self) -> SatOptions {
        let mut pruning = Pruning::default();
        if let Some(steps) = self.goal_sum_steps {
            pruning.goal_sum_steps = steps;
        }
        for family in &self.no_prune {
            match family {
                PruneFamily::Closure => pruning.reach_closure = false,
                PruneFamily::Cover => pruning.goal_cover = false,
                PruneFamily::Goalsum => pruning.goal_sum_steps = 0,
                PruneFamily::Commute => pruning.commute = false,
                PruneFamily::Undo => pruning.no_undo = false,
            }
        }
        SatOptions {
            pruning,
            trace: self.trace,
        }
    }
}

/// Everything reported about one level.
#[derive(Debug, serde::Serialize)]
pub struct LevelReport {
    pub level: usize,
    pub title: Option<String>,
    /// "solved", "unsolvable" or "gave-up".
    pub outcome: &'static str,
    pub method: &'static str,
    /// The search that proved the outcome (for the portfolio, the one that won).
    pub proved_by: Option<&'static str>,
    /// Total time on the level.
    pub seconds: f64,
    /// Time until a plan was proven push-optimal (before the search for fewer moves).
    pub push_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lurd: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pushes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<usize>,
    pub push_optimal: bool,
    /// Fewest moves among the push-optimal plans, proven.
    pub moves_minimal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Proven: no plan has fewer pushes.
    pub no_plan_below: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<EncodingSize>,
    /// A*: positions stored and expanded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<astar::SearchStats>,
    /// The fewest-moves search after A* (when it ran): proven or why it stopped, moves
    /// before and after, positions, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_search: Option<MovesReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<Vec<String>>>,
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let text = read_puzzle_file(&args.input)?;
    let entries = parse_levels(&text, args.input_format, args.level)
        .map_err(|e| InputError::new(&args.input, e))?;
    let mut worst = Exit::Solved;
    let mut reports = Vec::new();
    let portfolio = portfolio::Portfolio::default();
    for entry in &entries {
        let report = solve_level(entry, args, &portfolio)?;
        worst = worst.and(match report.outcome {
            "solved" => Exit::Solved,
            "unsolvable" => Exit::NoAnswer,
            _ => Exit::GaveUp,
        });
        if args.format == OutputFormat::Text {
            let mut out = std::io::stdout().lock();
            write!(out, "{}", text_report(&report))?;
            out.flush()?;
        }
        reports.push(report);
    }
    if args.format == OutputFormat::Json {
        writeln!(
            std::io::stdout().lock(),
            "{}",
            serde_json::to_string_pretty(&reports)?
        )?;
    }
    Ok(worst)
}

fn solve_level(
    entry: &LevelEntry,
    args: &Args,
    portfolio: &portfolio::Portfolio,
) -> anyhow::Result<LevelReport> {
    let level = &entry.level;
    let started = Instant::now();
    let limits = Limits {
        deadline: args
            .timeout
            .map(|s| started + Duration::from_secs_f64(s.max(0.0))),
        max_states: args.max_states.unwrap_or(match args.method {
            Method::Bfs => 5_000_000,
            _ => 40_000_000,
        }),
        max_clauses: args.max_clauses,
        max_pushes: args.max_pushes,
        max_plans: args.max_plans.max(1),
        max_move_states: args.max_move_states,
        ..Limits::default()
    };
    let mut proved_by = None;
    let mut search = None;
    let mut moves_search = None;
    let (outcome, encoding, push_seconds) = match args.method {
        Method::Sat => {
            let (o, size, first) = solve_with_deadline(level, &limits, args.sat_options())?;
            (o, Some(size), first)
        }
        Method::Bfs => (bfs::search(level, &limits), None, None),
        Method::Astar => {
            let options = astar::Options {
                pi_corrals: !args.no_corrals,
                split_after: (!args.no_split).then_some(astar::SPLIT_AFTER),
            };
            let (o, stats) = astar::search_with(level, &limits, options);
            search = Some(stats);
            let push_seconds = started.elapsed().as_secs_f64();
            match o {
                Outcome::Solved(solution) => {
                    let (solution, report) = moves::improve(level, solution, &limits);
                    moves_search = report;
                    (Outcome::Solved(solution), None, Some(push_seconds))
                }
                o => (o, None, None),
            }
        }
        Method::Portfolio => {
            let r = portfolio.solve(level, &limits, args.sat_options())?;
            proved_by = r.winner.map(portfolio::Winner::name);
            moves_search = r.moves;
            (r.outcome, Some(r.encoding), r.push_seconds)
        }
    };
    if args.method != Method::Portfolio && !matches!(outcome, Outcome::GaveUp { .. }) {
        proved_by = Some(args.method.name());
    }
    let seconds = started.elapsed().as_secs_f64();
    // The breadth-first search proves push-optimality when it stops.
    let push_seconds =
        push_seconds.or_else(|| matches!(outcome, Outcome::Solved(_)).then_some(seconds));
    let mut report = LevelReport {
        level: entry.number,
        title: entry.title.clone(),
        outcome: "",
        method: args.method.name(),
        proved_by,
        seconds,
        push_seconds,
        lurd: None,
        pushes: None,
        moves: None,
        push_optimal: false,
        moves_minimal: false,
        reason: None,
        no_plan_below: None,
        encoding,
        search,
        moves_search,
        boards: None,
    };
    match outcome {
        Outcome::Solved(solution) => {
            let internal = |what: String| {
                crate::error::InternalError::new(format!("level {}: {what}", entry.number))
            };
            let lurd = to_lurd(level, &solution.pushes).map_err(|e| internal(e.to_string()))?;
            // The referee has the last word: a plan it rejects is never printed.
            let replayed = replay(level, &lurd)
                .map_err(|e| internal(format!("the plan {lurd} fails the replay: {e}")))?;
            if replayed.pushes != solution.pushes.len() {
                return Err(internal("the push count changed in the replay".into()).into());
            }
            report.outcome = "solved";
            report.pushes = Some(replayed.pushes);
            report.moves = Some(replayed.moves);
            report.push_optimal = solution.push_optimal;
            report.moves_minimal = solution.moves_minimal;
            report.no_plan_below = Some(replayed.pushes);
            if args.boards {
                report.boards = Some(
                    replayed
                        .boards
                        .iter()
                        .map(|b| board_lines(level, b))
                        .collect(),
                );
            }
            report.lurd = Some(lurd);
        }
        Outcome::Unsolvable { reason } => {
            report.outcome = "unsolvable";
            report.reason = Some(reason);
        }
        Outcome::GaveUp {
            reason,
            no_plan_below,
        } => {
            report.outcome = "gave-up";
            report.reason = Some(reason);
            report.no_plan_below = Some(no_plan_below);
        }
    }
    Ok(report)
}

fn text_report(r: &LevelReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let title = r
        .title
        .as_ref()
        .map(|t| format!(" ({t})"))
        .unwrap_or_default();
    let _ = write!(out, "level {}{title}: ", r.level);
    match r.outcome {
        "solved" => {
            let pushes = r.pushes.unwrap_or(0);
            let moves = r.moves.unwrap_or(0);
            let by = r.proved_by.map(|m| format!(" by {m}")).unwrap_or_default();
            let _ = writeln!(
                out,
                "solved{by} in {:.2} s (push-optimal after {:.2} s)",
                r.seconds,
                r.push_seconds.unwrap_or(r.seconds)
            );
            let push_status = if r.push_optimal {
                "proven push-optimal"
            } else {
                "not proven optimal"
            };
            let _ = writeln!(out, "pushes: {pushes} ({push_status})");
            let move_status = match (&r.moves_minimal, &r.moves_search) {
                (true, _) => "proven fewest among plans with this many pushes".to_string(),
                (false, Some(m)) => format!(
                    "not proven fewest; the fewest-moves search gave up: {}",
                    m.gave_up.as_deref().unwrap_or("unknown reason")
                ),
                (false, None) => "not proven fewest".to_string(),
            };
            let _ = writeln!(out, "moves: {moves} ({move_status})");
            let _ = writeln!(out, "plan: {}", r.lurd.as_deref().unwrap_or(""));
        }
        "unsolvable" => {
            let by = r.proved_by.map(|m| format!(" by {m}")).unwrap_or_default();
            let _ = writeln!(
                out,
                "proven unsolvable{by}: {}",
                r.reason.as_deref().unwrap_or("")
            );
        }
        _ => {
            let _ = writeln!(
                out,
                "gave up after {:.2} s ({}): no plan with fewer than {} pushes",
                r.seconds,
                r.reason.as_deref().unwrap_or(""),
                r.no_plan_below.unwrap_or(0)
            );
        }
    }
    if let Some(boards) = &r.boards {
        for (i, board) in boards.iter().enumerate() {
            if i == 0 {
                let _ = writeln!(out, "start:");
            } else {
                let _ = writeln!(out, "after push {i}:");
            }
            for line in board {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    out.push('\n');
    out
}
