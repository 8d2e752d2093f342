//! `gridsat sokoban`: push-optimal plans for one level or every level of a file.

use super::parse::{parse_levels, LevelEntry, LevelFormat};
use super::picture;
use super::report::{LevelReport, Run};
use super::search::formula::{default_horizon, plan_formula};
use super::search::quick::anytime;
use super::search::sat::{solve_until_deadline, SatOptions};
use super::search::{astar, bfs, moves, portfolio};
use super::{Limits, Outcome};
use crate::answer::items::ItemPrinter;
use crate::cli::flags::{print_cnf_size, write_dimacs};
use crate::cli::{CnfArgs, Exit, Format, HorizonArgs, LimitArgs, OutputArgs, SolverArgs};
use crate::input::{read_puzzle_file, InputError};
use crate::progress::{Progress, Status};
use gridsat_encodings::sokoban::{Level, Pruning};
use std::time::Instant;

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
    pub fn name(self) -> &'static str {
        match self {
            Method::Sat => "sat",
            Method::Bfs => "bfs",
            Method::Astar => "astar",
            Method::Portfolio => "portfolio",
        }
    }

    /// The default of `--max-states` for this method.
    pub fn default_max_states(self) -> usize {
        match self {
            Method::Bfs => 5_000_000,
            _ => 40_000_000,
        }
    }
}

/// How a level is searched: the method and its knobs (from the command line, or one of
/// `bench sokoban`'s choices).
#[derive(Copy, Clone, Debug)]
pub struct Strategy {
    pub method: Method,
    /// `--quick`: a plan first, then better ones and the proof (`search::quick::anytime`).
    pub quick: bool,
    pub sat: SatOptions,
    pub astar: astar::Options,
}

const AFTER_HELP: &str = "\
Outcomes and exit statuses (for a file, the first of 3, 4, 5, 1, 0 that some level has):
  0  every level solved; pushes are proven minimal
  1  some level proven unsolvable (the reason is printed)
  2  bad input (FILE:LINE: level N: problem)
  3  internal error: a plan failed the independent replay (a bug; please report it)
  4  gave up on some level at --timeout, --max-pushes or a size limit, printing the
     bound proven so far (\"no plan with fewer than 31 pushes\")
  5  some level has a plan (replayed) not proven push-optimal, printed with the bound
     proven so far (\"pushes: 241 (not proven optimal; no plan has fewer than 223)\")

--dimacs writes the SAT encoding of plans of exactly K pushes: K is --horizon, else the
proven minimum (the plan's pushes); for a level given up on, the bound proven (the least
horizon not refuted); for an unsolvable level, the matching bound (its formula is
unsatisfiable). The assumptions of the search are unit clauses, `c p show` names the
push variables, and the formula is refined first (loop clauses learned until its models
are exactly the plans), within --timeout and --max-plans; docs/sokoban.md has the detail.

Examples:
  gridsat sokoban examples/sokoban/microban-1-10.xsb --level 3
  gridsat sokoban examples/sokoban/course.txt --boards
  gridsat sokoban examples/sokoban/microban-1-10.xsb --timeout 60 --format json
  gridsat sokoban examples/sokoban/microban-1-10.xsb --level 5 --method astar
  gridsat sokoban examples/sokoban/microban-1-10.xsb --level 5 --quick
  gridsat sokoban examples/sokoban/microban-1-10.xsb --quick --timeout 60
  gridsat sokoban examples/sokoban/microban-1-10.xsb --level 5 --method bfs
  gridsat sokoban examples/sokoban/microban-1-10.xsb --level 5 --dimacs level5.cnf
  gridsat sokoban examples/sokoban/microban-1-10.xsb --dimacs level-{}.cnf --horizon 20";

/// Finds push-optimal Sokoban plans (fewest pushes, then fewest moves among those).
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Level file: XSB (many levels, `;` titles, blank lines between) or the course's
    /// digit map.
    pub input: std::path::PathBuf,
    /// Solve only level N (1-based); default every level of the file.
    #[arg(long, value_name = "N", value_parser = crate::cli::numbers::positive)]
    pub level: Option<usize>,
    /// Input format.
    #[arg(long, value_enum, default_value = "auto")]
    pub input_format: LevelFormat,
    /// Print the board at the start and after every push.
    #[arg(long)]
    pub boards: bool,
    /// Search method.
    #[arg(long, value_enum, default_value = "portfolio")]
    pub method: Method,
    /// A plan first, not necessarily with the fewest pushes, beside the bound proven:
    /// the quick search (feature space, goal-room packing order, tunnel macros) and A* on
    /// two threads. Without --timeout the first plan is printed; with it, shorter plans
    /// replace it and A* tries to prove one until the time is up.
    #[arg(long, conflicts_with = "method")]
    pub quick: bool,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub limits: LimitArgs,
    /// SAT: give up when the formula exceeds this many clauses.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 5_000_000,
        help_heading = "Limits"
    )]
    pub max_clauses: usize,
    /// BFS and A*: give up after storing this many positions, A*'s perimeter bound included
    /// [default: 5000000 for BFS, 40000000 for A*, about 45 bytes each for Microban-sized levels].
    #[arg(long, value_name = "N", help_heading = "Limits", value_parser = crate::cli::numbers::count)]
    pub max_states: Option<usize>,
    /// Give up rather than look for plans with more pushes than this.
    #[arg(long, value_name = "N", help_heading = "Limits", value_parser = crate::cli::numbers::count)]
    pub max_pushes: Option<usize>,
    /// SAT: compare at most this many push-optimal plans for the fewest moves; --dimacs:
    /// refine the formula over at most this many plans.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1000,
        help_heading = "Limits"
    )]
    pub max_plans: usize,
    /// After A* proves the fewest pushes: store at most this many positions in the
    /// search for the fewest moves among those plans (0 skips it; it also stops at
    /// --timeout).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 4_000_000,
        help_heading = "Limits"
    )]
    pub max_move_states: usize,

    #[command(flatten)]
    pub cnf: CnfArgs,
    #[command(flatten)]
    pub horizon: HorizonArgs,
    #[command(flatten)]
    pub solver: SolverArgs,

    /// SAT (and --dimacs), for measurements: leave out these optional clause families
    /// (all are sound, so only the time changes; docs/sokoban.md says what each one does).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        value_name = "FAMILY,...",
        help_heading = "Measurement"
    )]
    pub no_prune: Vec<PruneFamily>,
    /// SAT, for measurements: the number of final steps with the goal-distance-sum bound.
    #[arg(long, value_name = "N", help_heading = "Measurement", value_parser = crate::cli::numbers::count)]
    pub goal_sum_steps: Option<usize>,
    /// A*, for measurements: try every push in every position, without restricting a
    /// position with a PI-corral to the pushes of its boxes (the optimum is the same).
    #[arg(long, help_heading = "Measurement")]
    pub no_corrals: bool,
    /// A*, for measurements: never add the split bound to the matching bound, however
    /// long the search (the optimum is the same).
    #[arg(long, help_heading = "Measurement")]
    pub no_split: bool,
    /// A*, for measurements: never search back from the solved positions for the
    /// perimeter bound, however long the search (the optimum is the same).
    #[arg(long, help_heading = "Measurement")]
    pub no_perimeter: bool,
    /// A*, for measurements: never add what pairs of boxes cost together to the
    /// matching bound (the optimum is the same).
    #[arg(long, help_heading = "Measurement")]
    pub no_pairs: bool,
    /// A*, for measurements: expand the last layer under a known plan on one core, not
    /// on every core (the optimum is the same).
    #[arg(long, help_heading = "Measurement")]
    pub one_core_layer: bool,
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
    fn pruning(&self) -> Pruning {
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
        pruning
    }

    fn strategy(&self) -> Strategy {
        Strategy {
            method: self.method,
            quick: self.quick,
            sat: SatOptions {
                pruning: self.pruning(),
                trace: self.output.stats,
            },
            astar: astar::Options {
                pi_corrals: !self.no_corrals,
                split_after: (!self.no_split).then_some(astar::SPLIT_AFTER),
                perimeter: (!self.no_perimeter).then(astar::PerimeterOptions::default),
                pair_bytes: if self.no_pairs { 0 } else { astar::PAIR_BYTES },
                layer_workers: match self.one_core_layer {
                    true => 1,
                    false => astar::Options::default().layer_workers,
                },
                layer_after: astar::LAYER_AFTER,
            },
        }
    }

    /// The limits of one level, its time budget starting now.
    fn limits(&self) -> Limits {
        Limits {
            budget: self.limits.budget(),
            max_states: self.max_states.unwrap_or(self.method.default_max_states()),
            max_clauses: self.max_clauses,
            max_pushes: self.max_pushes,
            max_plans: self.max_plans.max(1),
            max_move_states: self.max_move_states,
            known: Default::default(),
        }
    }
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    run_to(args, std::io::stdout().lock())
}

/// `run`, written to `out`.
pub fn run_to(args: &Args, out: impl std::io::Write) -> anyhow::Result<Exit> {
    args.solver.choose();
    args.output
        .format
        .require("sokoban", &[Format::Text, Format::Json, Format::Svg])?;
    let text = read_puzzle_file(&args.input)?;
    let entries = parse_levels(&text, args.input_format, args.level)
        .map_err(|e| InputError::new(&args.input, e))?;
    let portfolio = portfolio::Portfolio::default();
    let mut printer = ItemPrinter::new(out, args.output.format);
    let progress = match entries.len() {
        1 => Progress::spinner("searching"),
        n => Progress::items(n as u64, "levels"),
    };
    for entry in &entries {
        if crate::limits::interrupted() {
            // Ctrl-C: the level it stopped was printed with its bound; no more.
            break;
        }
        // Each search posts its bound and size; the line shows them while the level runs.
        let status = Status::new();
        let mut limits = args.limits();
        limits.budget = limits.budget.with_status(status.clone());
        let level = entry.number;
        let watch = progress.watch_status(status, move || format!("level {level}"));
        let solved = solve_level(&entry.level, args.strategy(), &limits, &portfolio);
        drop(watch);
        let (outcome, run) = solved?;
        let formula_horizon = default_horizon(&entry.level, &outcome);
        let report = LevelReport::checked(entry, outcome, run, args.boards)?;
        if args.output.stats {
            report.print_stats();
        }
        let json = serde_json::to_value(&report)?;
        progress.suspend(|| {
            printer.item_with_picture(
                report.exit(),
                |out| report.write_text(out),
                || json,
                || vec![picture::level_board(entry, &report)],
            )
        })?;
        progress.inc();
        write_formula(entry, formula_horizon, args, entries.len())?;
    }
    progress.finish();
    Ok(printer.finish(|_| Ok(()), serde_json::Value::Array)?)
}

/// `--dimacs`: the formula of plans of `--horizon` pushes, else of `horizon` (see the
/// help), refined within a time budget of its own.
fn write_formula(
    entry: &LevelEntry,
    horizon: usize,
    args: &Args,
    items: usize,
) -> anyhow::Result<()> {
    let Some(path) = args.cnf.path_for(entry.number, items) else {
        return Ok(());
    };
    let horizon = args.horizon.horizon.unwrap_or(horizon);
    let stats = args.output.stats;
    let formula = plan_formula(&entry.level, horizon, args.pruning(), &args.limits(), stats)?;
    if stats {
        print_cnf_size(
            &format!("level {}, plans of {horizon} pushes", entry.number),
            &formula.cnf,
        );
        eprintln!(
            "level {}: the refinement met {} plan(s) of {horizon} pushes",
            entry.number, formula.plans
        );
    }
    if let Some(why) = &formula.stopped {
        eprintln!(
            "gridsat: {}: the formula of level {} was not refined to the end ({why}): some \
             of its models may lean on the player walking through boxes",
            path.display(),
            entry.number
        );
    }
    write_dimacs(&formula.cnf, &path)
}

/// Searches `level` with `strategy` within `limits`: the outcome (not yet replayed) and
/// how the search went.
pub fn solve_level(
    level: &Level,
    strategy: Strategy,
    limits: &Limits,
    portfolio: &portfolio::Portfolio,
) -> anyhow::Result<(Outcome, Run)> {
    let started = Instant::now();
    let limits = limits.clone();
    let method = strategy.method;
    let mut run = Run {
        method: method.name(),
        ..Run::default()
    };
    if strategy.quick {
        let found = anytime::solve(level, &limits)?;
        run.method = "quick";
        run.proved_by = found.proved_by;
        run.push_seconds = found.push_seconds;
        run.moves_search = found.moves;
        run.search = found.search;
        run.quick = found.quick;
        run.seconds = started.elapsed().as_secs_f64();
        return Ok((found.outcome, run));
    }
    let outcome = match method {
        Method::Sat => {
            let (o, size, first) = solve_until_deadline(level, &limits, strategy.sat)?;
            run.encoding = Some(size);
            run.push_seconds = first;
            o
        }
        Method::Bfs => bfs::search(level, &limits),
        Method::Astar => {
            let (o, stats) = astar::search_with(level, &limits, strategy.astar);
            run.search = Some(stats);
            match o {
                Outcome::Solved(solution) => {
                    run.push_seconds = Some(started.elapsed().as_secs_f64());
                    let (solution, report) = moves::improve(level, solution, &limits);
                    run.moves_search = report;
                    Outcome::Solved(solution)
                }
                o => o,
            }
        }
        Method::Portfolio => {
            let r = portfolio.solve(level, &limits, strategy.sat)?;
            run.proved_by = r.winner.map(portfolio::Winner::name);
            run.moves_search = r.moves;
            run.encoding = Some(r.encoding);
            run.push_seconds = r.push_seconds;
            run.quick = r.quick;
            r.outcome
        }
    };
    if method != Method::Portfolio && !matches!(outcome, Outcome::GaveUp { .. }) {
        run.proved_by = Some(method.name());
    }
    run.seconds = started.elapsed().as_secs_f64();
    // The breadth-first search proves push-optimality when it stops (a portfolio's
    // fallback plan may not be proven).
    if matches!(&outcome, Outcome::Solved(s) if s.push_optimal) {
        run.push_seconds.get_or_insert(run.seconds);
    }
    Ok((outcome, run))
}
