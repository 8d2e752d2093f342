//! The `gridsat` command line: one subcommand per puzzle.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gridsat",
    version,
    about = "A SAT-backed solver for grid puzzles",
    after_help = "Every solution is checked by an independent rule checker before it is printed.\n\n\
Exit status, for every command: 0 solved; 1 no solution or proven unsolvable (with\n\
--unique: none or several); 2 bad input or usage; 3 internal error (an answer failed the\n\
independent check: a bug); 4 gave up at a time or size limit.\n\n\
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
    /// Benchmarks: compare CNF encodings on one puzzle.
    #[command(subcommand)]
    Bench(Bench),
}

#[derive(Subcommand)]
enum Bench {
    /// Star Battle: one row per cardinality encoding.
    StarBattle(gridsat::star_battle::bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::StarBattle(args) => gridsat::star_battle::cli::run(args),
        Command::Battleship(args) => gridsat::battleship::cli::run(args),
        Command::FullBoard(args) => gridsat::full_board::cli::run(args),
        Command::Sokoban(args) => gridsat::sokoban::cli::run(args),
        Command::CountCnf(args) => gridsat::count_cnf::run(args),
        Command::Bench(Bench::StarBattle(args)) => gridsat::star_battle::bench::run(args),
    };
    match result {
        Ok(code) => code,
        // A reader that stopped early (`| head`) is not an error worth a message.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("gridsat: {error:#}");
            if is_internal(&error) {
                ExitCode::from(3)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// A bug caught by an independent check: exit status 3 for every command.
fn is_internal(error: &anyhow::Error) -> bool {
    use gridsat::full_board::solve::SolveError as FullBoardError;
    error
        .downcast_ref::<gridsat::error::InternalError>()
        .is_some()
        || matches!(
            error.downcast_ref::<FullBoardError>(),
            Some(FullBoardError::Rejected(_))
        )
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
