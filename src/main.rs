//! The `gridsat` command line: one subcommand per puzzle.

use clap::{Parser, Subcommand};
use gridsat::cli::Exit;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gridsat",
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
    #[command(subcommand)]
    Bench(gridsat::bench::Command),
    /// Generate puzzles with exactly one solution (proven), reproducible from a seed.
    #[command(subcommand)]
    Generate(Generate),
}

#[derive(Subcommand)]
enum Generate {
    /// Star Battle: an N x N grid, S stars per zone, row and column.
    StarBattle(gridsat::star_battle::generate::Args),
    /// Battleship: an R x C board and a fleet.
    Battleship(gridsat::battleship::generate::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
    };
    Exit::report(result).into()
}
