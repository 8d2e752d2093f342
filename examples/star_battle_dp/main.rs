//! Counts a Star Battle puzzle with the frontier dynamic program of `frontier.rs`, a
//! second way of counting written apart from the counting engine, to cross-check it.
//!
//! ```sh
//! cargo run --release --example star_battle_dp -- examples/star-battle/twonot2.txt --stars 2
//! cargo run --release --example star_battle_dp -- examples/star-battle/twonot1.txt --stars 1 --rule at-most
//! ```
//!
//! Prints the count on standard output, and the states, transitions and CPU time on
//! standard error. The file is read with Star Battle's own grammar; the rule is
//! `exact` by default, as for `gridsat star-battle` without the course's arguments.

mod frontier;

use clap::Parser;
use frontier::{Board, Lines};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// Puzzle file (either form Star Battle reads).
    puzzle: PathBuf,
    /// Stars per zone, row and column (S); defaults to the file's own, else 1.
    #[arg(long)]
    stars: Option<usize>,
    /// Row and column rule: exact or at-most.
    #[arg(long, default_value = "exact")]
    rule: String,
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("star_battle_dp: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let path = args.puzzle.display();
    let text = std::fs::read_to_string(&args.puzzle).map_err(|e| format!("{path}: {e}"))?;
    let parsed = gridsat::star_battle::parse::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let puzzle = parsed.puzzle;
    let stars = args.stars.or(parsed.stars).unwrap_or(1);
    let lines = match args.rule.as_str() {
        "exact" => Lines::Exact,
        "at-most" => Lines::AtMost,
        other => return Err(format!("--rule: exact or at-most, not '{other}'")),
    };
    let mut zone_of = vec![usize::MAX; puzzle.rows * puzzle.cols];
    for (z, zone) in puzzle.zones.iter().enumerate() {
        for cell in &zone.cells {
            zone_of[cell.row * puzzle.cols + cell.col] = z;
        }
    }
    if zone_of.contains(&usize::MAX) {
        return Err(format!("{path}: a cell belongs to no zone"));
    }
    let board = Board {
        rows: puzzle.rows,
        cols: puzzle.cols,
        zone_of,
        zones: puzzle.zones.len(),
    };
    let start = Instant::now();
    let counted = frontier::count(&board, stars, lines).map_err(|e| format!("{path}: {e}"))?;
    println!("{}", counted.count);
    eprintln!(
        "{} x {}, S={stars}, rule {}: {} frontier states at most, {} transitions, {:.2} s",
        board.rows,
        board.cols,
        args.rule,
        counted.max_states,
        counted.transitions,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
