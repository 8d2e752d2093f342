//! The Sokoban benchmark: runs `gridsat sokoban` once per level and method, each in its
//! own process with a time limit, and prints a Markdown table plus a summary.
//!
//! Usage (after `cargo build --release`):
//!   cargo run --release --example sokoban -- LEVELS.xsb [--timeout 60] [--optimal microban-optimal.tsv]
//!       [--methods sat,bfs] [--levels 1-20] [--bin target/release/gridsat]
//!
//! One process per level: a SAT call cannot be interrupted, so a level that runs out of
//! time is abandoned by exiting its process, which must not slow down the next level.
//! The SAT runs use `--max-plans 1`: the benchmark times the proof of push-optimality,
//! not the search for fewer moves that follows it.

use std::collections::HashMap;
use std::process::Command;
use std::time::Instant;

struct Run {
    outcome: String,
    pushes: Option<u64>,
    seconds: f64,
    bound: Option<u64>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut timeout = 60.0;
    let mut optimal_file = None;
    let mut methods = vec!["sat".to_string(), "bfs".to_string()];
    let mut levels: Option<(usize, usize)> = None;
    let mut bin = "target/release/gridsat".to_string();
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).cloned().expect("option needs a value");
        match args[i].as_str() {
            "--timeout" => timeout = value().parse().expect("--timeout SECONDS"),
            "--optimal" => optimal_file = Some(value()),
            "--methods" => methods = value().split(',').map(str::to_string).collect(),
            "--bin" => bin = value(),
            "--levels" => {
                let v = value();
                let (a, b) = v.split_once('-').unwrap_or((&v, &v));
                levels = Some((
                    a.parse().expect("--levels A-B"),
                    b.parse().expect("--levels A-B"),
                ));
            }
            other => {
                file = Some(other.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let file =
        file.expect("usage: sokoban LEVELS.xsb [--timeout S] [--optimal TSV] [--methods sat,bfs]");
    let optimal: HashMap<usize, u64> = optimal_file
        .map(|f| {
            std::fs::read_to_string(f)
                .expect("readable optimal-push table")
                .lines()
                .skip(1)
                .filter_map(|l| {
                    let cols: Vec<&str> = l.split('\t').collect();
                    Some((cols.first()?.parse().ok()?, cols.get(2)?.parse().ok()?))
                })
                .collect()
        })
        .unwrap_or_default();
    let count = count_levels(&bin, &file);
    let (first, last) = levels.unwrap_or((1, count));
    println!(
        "| level | known optimum | {} |",
        methods
            .iter()
            .map(|m| format!("{m} pushes | {m} seconds"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|---|{}", "---|---|".repeat(methods.len()));
    let mut solved: HashMap<&str, (usize, f64)> = HashMap::new();
    let mut mismatches = Vec::new();
    for level in first..=last.min(count) {
        let mut cells = Vec::new();
        for method in &methods {
            let run = run_level(&bin, &file, level, method, timeout);
            let entry = solved.entry(method.as_str()).or_default();
            let pushes = match (run.outcome.as_str(), run.pushes) {
                ("solved", Some(p)) => {
                    entry.0 += 1;
                    entry.1 += run.seconds;
                    if optimal.get(&level).is_some_and(|&o| o != p) {
                        mismatches.push(format!("level {level}: {method} found {p}"));
                    }
                    p.to_string()
                }
                ("gave-up", _) => format!("≥{} (gave up)", run.bound.unwrap_or(0)),
                (other, _) => other.to_string(),
            };
            cells.push(format!("{pushes} | {:.2}", run.seconds));
        }
        let known = optimal.get(&level).map_or("-".to_string(), u64::to_string);
        println!("| {level} | {known} | {} |", cells.join(" | "));
    }
    println!();
    for method in &methods {
        let (n, secs) = solved.get(method.as_str()).copied().unwrap_or_default();
        println!(
            "{method}: {n} of {} levels solved push-optimally within {timeout} s each; {secs:.1} s in total on the solved ones",
            last.min(count) + 1 - first
        );
    }
    for m in &mismatches {
        println!("MISMATCH with the known optimum: {m}");
    }
}

fn count_levels(bin: &str, file: &str) -> usize {
    // Asking for a level past the end makes gridsat say how many there are.
    let out = Command::new(bin)
        .args(["sokoban", file, "--level", "1000000"])
        .output()
        .expect("gridsat runs");
    let text = String::from_utf8_lossy(&out.stderr);
    text.split("the file has ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("gridsat reports the number of levels")
}

fn run_level(bin: &str, file: &str, level: usize, method: &str, timeout: f64) -> Run {
    let started = Instant::now();
    let out = Command::new(bin)
        .args([
            "sokoban",
            file,
            "--format",
            "json",
            "--max-plans",
            "1",
            "--method",
            method,
        ])
        .args([
            "--level",
            &level.to_string(),
            "--timeout",
            &timeout.to_string(),
        ])
        .output()
        .expect("gridsat runs");
    let wall = started.elapsed().as_secs_f64();
    let parsed: Option<serde_json::Value> = serde_json::from_slice(&out.stdout).ok();
    let Some(report) = parsed.as_ref().and_then(|v| v.get(0)) else {
        return Run {
            outcome: format!("error: {}", String::from_utf8_lossy(&out.stderr).trim()),
            pushes: None,
            seconds: wall,
            bound: None,
        };
    };
    Run {
        outcome: report["outcome"].as_str().unwrap_or("?").to_string(),
        pushes: report["pushes"].as_u64(),
        seconds: report["push_seconds"].as_f64().unwrap_or(wall),
        bound: report["no_plan_below"].as_u64(),
    }
}
