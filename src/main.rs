//! The `gridsat` command line: one subcommand per puzzle.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use gridsat::cli::Exit;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gridsat",
    disable_help_subcommand = true,
    version,
    about = "A SAT-backed solver for grid puzzles",
    after_help = "Every solution is checked by an independent rule checker before it is printed.\n\n\
Exit status, for every command: 0 solved; 1 no solution or proven unsolvable (with\n\
--unique: none or several); 2 bad input or usage; 3 internal error (an answer failed the\n\
independent check: a bug); 4 gave up at a time or size limit; 5 a plan not proven\n\
optimal (Sokoban --quick); 130 interrupted by Ctrl-C (what was proven so far was printed).\n\n\
Try: gridsat star-battle examples/star-battle/twonot1.txt --stars 2"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Star Battle: zones, S stars each, no two touching.
    StarBattle(gridsat::star_battle::cli::Args),
    /// Battleship solitaire: place the fleet to match row and column sums and hints.
    Battleship(gridsat::battleship::cli::Args),
    /// Full Board: the fewest moves that roll the ball over every open cell, and every
    /// game that achieves them.
    FullBoard(gridsat::full_board::cli::Args),
    /// Sokoban: proven push-optimal plans (fewest pushes, then fewest moves).
    Sokoban(gridsat::sokoban::cli::Args),
    /// Count the models of a DIMACS CNF file, projected on its `c p show` line.
    CountCnf(gridsat::count_cnf::Args),
    /// Every puzzle file under some paths (every level, every map) on several threads:
    /// one JSON line per item, and a summary.
    Batch(gridsat::batch::Args),
    /// Benchmarks: every encoding, search and SAT solver a puzzle has, timed on the same
    /// files, with the answers compared.
    #[command(subcommand, after_help = BENCH_EXAMPLES)]
    Bench(gridsat::bench::Command),
    /// Generate puzzles with exactly one solution (proven), reproducible from a seed.
    #[command(subcommand)]
    Generate(Generate),
    /// A page for puzzle designers: a local web server (127.0.0.1) whose page solves,
    /// checks uniqueness, repairs and generates with this command line.
    Serve(gridsat::serve::Args),
    /// Print the help of gridsat or of one of its commands (`gridsat help sokoban`, the
    /// same as `gridsat sokoban --help`).
    Help {
        /// The command (and subcommand) whose help to print.
        command: Vec<String>,
    },
}

const BENCH_EXAMPLES: &str = "Examples:
  gridsat bench star-battle examples/star-battle/twonot1.txt --stars 2
  gridsat bench battleship examples/battleship/puzzle*.txt --runs 5 --choice totalizer
  gridsat bench full-board examples/full-board/set-2018-smallmaps.txt --runs 1 --format svg > fb.svg
  gridsat bench sokoban examples/sokoban/microban-1-10.xsb --timeout 10 --format csv";

#[derive(Subcommand)]
enum Generate {
    /// Star Battle: an N x N grid, S stars per zone, row and column.
    StarBattle(gridsat::star_battle::generate::Args),
    /// Battleship: an R x C board and a fleet.
    Battleship(gridsat::battleship::generate::Args),
}

/// `gridsat help [COMMAND...]`: the long help of the command named, as `--help` prints it.
fn help(path: &[String]) -> anyhow::Result<Exit> {
    let mut command = gridsat::cli::numbers::accept_negative_values(Cli::command());
    command.build();
    let mut shown = &mut command;
    for name in path {
        let Some(sub) = shown.find_subcommand_mut(name) else {
            anyhow::bail!("'{name}' is not a command (see gridsat --help)");
        };
        shown = sub;
    }
    shown.print_long_help()?;
    Ok(Exit::Solved)
}

fn main() -> ExitCode {
    let command = gridsat::cli::numbers::accept_negative_values(Cli::command());
    let cli = match Cli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    gridsat::limits::stop_on_ctrl_c();
    let result = match &cli.command {
        Command::StarBattle(args) => gridsat::star_battle::cli::run(args),
        Command::Battleship(args) => gridsat::battleship::cli::run(args),
        Command::FullBoard(args) => gridsat::full_board::cli::run(args),
        Command::Sokoban(args) => gridsat::sokoban::cli::run(args),
        Command::CountCnf(args) => gridsat::count_cnf::run(args),
        Command::Batch(args) => gridsat::batch::run(args),
        Command::Bench(command) => gridsat::bench::run(command),
        Command::Generate(Generate::StarBattle(args)) => gridsat::star_battle::generate::run(args),
        Command::Generate(Generate::Battleship(args)) => gridsat::battleship::generate::run(args),
        Command::Serve(args) => gridsat::serve::run(args),
        Command::Help { command } => help(command),
    };
    Exit::report(result).into()
}
