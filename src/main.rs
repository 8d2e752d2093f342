//! The `gridsat` command line: one subcommand per puzzle.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "gridsat", version, about = "A SAT-backed solver for grid puzzles")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Star Battle: zones, S stars each, no two touching.
    StarBattle(gridsat::star_battle::cli::Args),
    /// Sokoban: proven push-optimal plans (fewest pushes, then fewest moves).
    Sokoban(gridsat::sokoban::cli::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::StarBattle(args) => gridsat::star_battle::cli::run(args),
        Command::Sokoban(args) => gridsat::sokoban::cli::run(args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("gridsat: {error:#}");
            ExitCode::from(2)
        }
    }
}
