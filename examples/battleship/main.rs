//! Benchmark: list every solution of Battleship puzzles with gridsat and with the plain
//! C++ backtracker of `shared/baselines/battleship.cpp`, in the same run, and print a
//! markdown table of CPU times and their ratio.
//!
//! ```sh
//! g++ -O2 -o target/bs-baseline tools/baselines/battleship.cpp
//! cargo run --release --example battleship -- --baseline target/bs-baseline --runs 5 \
//!     examples/battleship/puzzle10.txt examples/battleship/puzzle9.txt
//! ```
//! Both sides run the seed's command line, `PUZZLE find_all_solutions`, printing every
//! board (gridsat into a sink, in this process; the baseline as a child process with its
//! standard output sent to /dev/null). Runs alternate between the two so that a change
//! in machine load hits both. CPU time (user + system) is read from Linux's
//! /proc/self/stat: this process's own, all threads included (the counting engine runs
//! on a thread of its own), and its waited-for children's, both in clock ticks (10 ms),
//! so the table is Linux-only. The table shows the minimum and the median of the runs.

use clap::Parser;
use gridsat::battleship::cli::{run_to, Args};
use gridsat_encodings::card::CardEncoding;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

#[derive(Parser)]
struct Bench {
    /// The compiled C++ baseline (`g++ -O2 -o bs-baseline battleship.cpp`).
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// Runs per program and puzzle; the table shows the minimum and the median.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Cardinality encoding of the sums.
    #[arg(long, default_value = "sequential")]
    card: CardEncoding,
    /// Puzzle files.
    #[arg(default_values = ["examples/battleship/puzzle10.txt"])]
    puzzles: Vec<PathBuf>,
}

/// User + system CPU time from /proc/self/stat, at clock-tick resolution: this
/// process's own (every thread, finished ones included) and its waited-for children's.
fn cpu_times() -> (Duration, Duration) {
    let text = std::fs::read_to_string("/proc/self/stat")
        .expect("/proc/self/stat (Linux) is needed for CPU times");
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &text[text.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime, stime, cutime, cstime are fields 14 to 17 of stat(5), i.e. 11 to 14 after
    // `state`.
    let ticks = |i: usize, j: usize| {
        let t = fields[i].parse::<u64>().unwrap() + fields[j].parse::<u64>().unwrap();
        Duration::from_secs_f64(t as f64 / clock_ticks_per_second())
    };
    (ticks(11, 12), ticks(13, 14))
}

fn own_cpu() -> Duration {
    cpu_times().0
}

fn children_cpu() -> Duration {
    cpu_times().1
}

fn clock_ticks_per_second() -> f64 {
    // USER_HZ is 100 on every Linux architecture gridsat runs on.
    100.0
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let bench = Bench::parse();
    println!("| puzzle | solutions | gridsat CPU s, min / median of {r} | baseline CPU s, min / median of {r} | baseline solve_seconds (median) | gridsat / baseline (medians) |", r = bench.runs);
    println!("|---|---|---|---|---|---|");
    for puzzle in &bench.puzzles {
        let mut args = Args::course(puzzle.clone(), true);
        args.card.card = Some(bench.card);
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let mut theirs_solve = Vec::new();
        let mut count = String::new();
        for _ in 0..bench.runs {
            let mut out = Vec::new();
            let start = own_cpu();
            run_to(&args, &mut out)?;
            ours.push((own_cpu() - start).as_secs_f64());
            let text = String::from_utf8(out)?;
            count = text.lines().last().unwrap_or("").to_string();

            if let Some(baseline) = &bench.baseline {
                let before = children_cpu();
                let output = Command::new(baseline)
                    .arg(puzzle)
                    .arg("find_all_solutions")
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .output()?;
                theirs.push((children_cpu() - before).as_secs_f64());
                let stderr = String::from_utf8(output.stderr)?;
                // `solve_seconds=0.123 count=3754`
                let field = |key: &str| {
                    stderr
                        .split_whitespace()
                        .find_map(|w| w.strip_prefix(key))
                        .map(str::to_string)
                };
                let solve: f64 = field("solve_seconds=").unwrap_or_default().parse()?;
                theirs_solve.push(solve);
                let their_count = field("count=").unwrap_or_default();
                if !count.contains(&format!("Found {their_count} solution")) {
                    anyhow::bail!(
                        "{}: gridsat says '{count}', the baseline count={their_count}",
                        puzzle.display()
                    );
                }
            }
        }
        let ours_min = ours.iter().copied().fold(f64::INFINITY, f64::min);
        let ours = median(ours);
        let name = puzzle.file_stem().unwrap_or_default().to_string_lossy();
        let solutions = count
            .trim_start_matches("Found ")
            .trim_end_matches(" solution(s)");
        if bench.baseline.is_some() {
            let theirs_min = theirs.iter().copied().fold(f64::INFINITY, f64::min);
            let theirs = median(theirs);
            println!(
                "| {name} | {solutions} | {ours_min:.2} / {ours:.2} | {theirs_min:.2} / {theirs:.2} | {:.3} | {:.1} |",
                median(theirs_solve),
                ours / theirs
            );
        } else {
            println!("| {name} | {solutions} | {ours_min:.2} / {ours:.2} | - | - | - |");
        }
    }
    Ok(())
}
