//! Times the `soukoban` crate's A* on one level of an XSB file, for the comparison in
//! docs/sokoban.md. Kept outside the gridsat workspace (its own `[workspace]` table), so
//! CI never builds it and gridsat never depends on soukoban.
//!
//! Usage: soukoban-compare LEVELS.xsb N [push-optimal|quick] (N 1-based; default
//! push-optimal). `quick` is soukoban's `Strategy::Quick` (its A* turned greedy: a plan
//! fast, not the fewest pushes). Prints one line: `level N solved PUSHES SECONDS` or
//! `level N failed REASON SECONDS`, after replaying soukoban's plan. The time limit is
//! the caller's (one process per level, killed at the limit).

use soukoban::level::Level;
use soukoban::solver::{Algorithm, Solver, Strategy};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, n, strategy) = match args.as_slice() {
        [file, n] => (file, n, Strategy::PushOptimal),
        [file, n, s] if s == "push-optimal" => (file, n, Strategy::PushOptimal),
        [file, n, s] if s == "quick" => (file, n, Strategy::Quick),
        _ => {
            eprintln!("usage: soukoban-compare LEVELS.xsb N [push-optimal|quick]");
            std::process::exit(2);
        }
    };
    let n: usize = n.parse().expect("N is a level number");
    let text = std::fs::read_to_string(file).expect("readable level file");
    let mut level = Level::load_nth_from_str(&text, n - 1).expect("a level soukoban can parse");
    let started = Instant::now();
    let solver = Solver::new(level.map().clone(), strategy);
    let result = solver.search(Algorithm::AStar);
    let seconds = started.elapsed().as_secs_f64();
    match result {
        Ok(actions) => {
            let pushes = actions.shifts();
            level
                .execute_batch(actions.iter().map(|a| a.direction()))
                .expect("soukoban's plan replays");
            assert!(level.is_solved(), "soukoban's plan solves the level");
            println!("level {n} solved {pushes} {seconds:.3}");
        }
        Err(e) => println!("level {n} failed {e:?} {seconds:.3}"),
    }
}
