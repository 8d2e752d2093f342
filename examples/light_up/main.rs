//! `cargo run --example light_up -- PUZZLE [--unique | --count | ...]`: the toy fifth
//! puzzle, wired to the shared flags and the answer layer (docs/adding-a-puzzle.md).

mod light_up;

use clap::Parser;
use gridsat::cli::{CnfArgs, Exit, LimitArgs, Mode, ModeArgs, OutputArgs};
use gridsat::input::{read_puzzle_file, InputError};
use std::sync::Arc;

/// Light Up: lights on white cells, every white cell lit, no light sees another, and
/// numbered walls have that many lights next to them.
#[derive(Parser)]
struct Args {
    /// Puzzle file: rows of `.` (white), `#` (wall) and `0`-`4` (numbered wall).
    input: std::path::PathBuf,
    #[command(flatten)]
    modes: ModeArgs,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    cnf: CnfArgs,
}

fn run(args: &Args) -> anyhow::Result<Exit> {
    let text = read_puzzle_file(&args.input)?;
    let puzzle = light_up::parse(&text).map_err(|e| InputError::new(&args.input, e))?;
    args.cnf
        .write(gridsat::answer::BoardPuzzle::cnf(&puzzle), 1, 1)?;
    let mut out = std::io::stdout().lock();
    let mode = args.modes.mode(Mode::One)?;
    gridsat::answer::answer(
        Arc::new(puzzle),
        mode,
        args.output.format,
        &args.limits.budget(),
        &mut out,
    )
}

fn main() -> std::process::ExitCode {
    Exit::report(run(&Args::parse())).into()
}
