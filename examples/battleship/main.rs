//! Benchmark: list every solution of Battleship puzzles with gridsat and with the plain
//! C++ backtracker of `shared/baselines/battleship.cpp`, in the same run, and print a
//! markdown table of CPU times and their ratio.
//!
//! ```sh
//! g++ -O2 -o target/bs-baseline ../shared/baselines/battleship.cpp
//! cargo run --release --example battleship -- --baseline target/bs-baseline --runs 5 \
//!     examples/battleship/puzzle10.txt examples/battleship/puzzle9.txt
//! ```
//! Both sides run the seed's command line, `PUZZLE find_all_solutions`, printing every
//! board (gridsat into a sink, in this process; the baseline as a child process with its
//! standard output sent to /dev/null). Runs alternate between the two so that a change
//! in machine load hits both. CPU time is read from Linux's /proc: this process's own
//! (nanoseconds, /proc/thread-self/schedstat) and its waited-for children's (clock
//! ticks, /proc/self/stat), so the table is Linux-only.

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
    /// Runs per program and puzzle; the table shows the median (gridsat) and the mean
    /// (children, whose CPU time the kernel reports in clock ticks).
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Cardinality encoding of the sums.
    #[arg(long, default_value = "sequential")]
    card: CardEncoding,
    /// Puzzle files.
    #[arg(default_values = ["examples/battleship/puzzle10.txt"])]
    puzzles: Vec<PathBuf>,
}

/// CPU time this thread (the whole single-threaded benchmark) has used.
fn own_cpu() -> Duration {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("/proc/thread-self/schedstat (Linux) is needed for CPU times");
    let ns: u64 = text.split_whitespace().next().unwrap().parse().unwrap();
    Duration::from_nanos(ns)
}

/// CPU time used by waited-for children (user + system), at clock-tick resolution.
fn children_cpu() -> Duration {
    let text = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &text[text.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // cutime and cstime are fields 16 and 17 of stat(5), i.e. 13 and 14 after `state`.
    let ticks: u64 = fields[13].parse::<u64>().unwrap() + fields[14].parse::<u64>().unwrap();
    let hz = clock_ticks_per_second();
    Duration::from_secs_f64(ticks as f64 / hz)
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
    println!("| puzzle | solutions | gridsat CPU s (median of {r}) | baseline CPU s (mean of {r}) | baseline solve_seconds (median) | gridsat / baseline |", r = bench.runs);
    println!("|---|---|---|---|---|---|");
    for puzzle in &bench.puzzles {
        let args = Args {
            card: bench.card,
            ..Args::seed(puzzle.clone(), true)
        };
        let mut ours = Vec::new();
        let mut theirs_cpu = Duration::ZERO;
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
                theirs_cpu += children_cpu() - before;
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
        let ours = median(ours);
        let name = puzzle.file_stem().unwrap_or_default().to_string_lossy();
        let solutions = count
            .trim_start_matches("Found ")
            .trim_end_matches(" solution(s)");
        if bench.baseline.is_some() {
            let theirs = theirs_cpu.as_secs_f64() / bench.runs as f64;
            println!(
                "| {name} | {solutions} | {ours:.3} | {theirs:.3} | {:.3} | {:.1} |",
                median(theirs_solve),
                ours / theirs
            );
        } else {
            println!("| {name} | {solutions} | {ours:.3} | - | - | - |");
        }
    }
    Ok(())
}
