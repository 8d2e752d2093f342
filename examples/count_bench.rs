//! Benchmark of the counting engine against blocking-clause enumeration
//! (`Session::enumerate`) and, when given, the course's C++ Star Battle backtracker, on
//! the same Star Battle inputs in the same run.
//!
//! ```sh
//! g++ -O2 -o /tmp/sb-baseline tools/baselines/starbattle.cpp
//! cargo run --release --example count_bench -- \
//!     --baseline /tmp/sb-baseline --enumerate-seconds 10 \
//!     corpus/twonot1.txt:1 corpus/custom2.txt:2 corpus/twonot2.txt:1
//! ```
//!
//! Each instance is `FILE:S`. The file is read with Star Battle's own grammar (either
//! form it reads); the rows and columns take the course's "at most S" rule unless
//! `--exact` is given.

use gridsat::limits::Budget;
use gridsat::solver::count::{count_with_stats, Engine, Solutions};
use gridsat::solver::Session;
use gridsat_encodings::star_battle::{encode, LineRule, Options, Puzzle};
use gridsat_encodings::CardEncoding;
use std::ops::ControlFlow;
use std::process::Command;
use std::time::{Duration, Instant};

struct Config {
    baseline: Option<String>,
    enumerate_seconds: f64,
    rule: LineRule,
    card: CardEncoding,
    /// Only the engine's count: for instances whose listing or baseline would not end.
    count_only: bool,
    /// Stop the engine's count after this many seconds (the proven bound is shown).
    count_seconds: Option<f64>,
    /// Write each instance's CNF here as `NAME-S.cnf`, for `gridsat count-cnf` and
    /// other model counters.
    dimacs_dir: Option<String>,
    instances: Vec<(String, usize)>,
}

fn parse_args() -> Result<Config, String> {
    let mut config = Config {
        baseline: None,
        enumerate_seconds: 10.0,
        rule: LineRule::AtMost,
        card: CardEncoding::default(),
        count_only: false,
        count_seconds: None,
        dimacs_dir: None,
        instances: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--baseline" => config.baseline = Some(args.next().ok_or("--baseline needs a path")?),
            "--enumerate-seconds" => {
                config.enumerate_seconds = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--enumerate-seconds needs a number")?
            }
            "--exact" => config.rule = LineRule::Exact,
            "--count-only" => config.count_only = true,
            "--count-seconds" => {
                config.count_only = true;
                config.count_seconds = Some(
                    args.next()
                        .and_then(|s| s.parse().ok())
                        .ok_or("--count-seconds needs a number")?,
                )
            }
            "--write-dimacs" => {
                config.dimacs_dir = Some(args.next().ok_or("--write-dimacs needs a folder")?)
            }
            "--card" => {
                config.card = args.next().ok_or("--card needs a name")?.parse()?;
            }
            _ => {
                let (file, s) = arg
                    .rsplit_once(':')
                    .ok_or_else(|| format!("expected FILE:S, got '{arg}'"))?;
                let s = s.parse().map_err(|_| format!("bad S in '{arg}'"))?;
                config.instances.push((file.to_string(), s));
            }
        }
    }
    if config.instances.is_empty() {
        return Err("usage: count_bench [--baseline PATH] [--enumerate-seconds T] [--exact] [--card NAME] [--count-only] [--count-seconds T] [--write-dimacs DIR] FILE:S...".into());
    }
    Ok(config)
}

fn read_puzzle(path: &str) -> Result<Puzzle, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let parsed = gridsat::star_battle::parse::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    Ok(parsed.puzzle)
}

fn secs(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

fn main() {
    let config = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("count_bench: {e}");
            std::process::exit(2);
        }
    };
    println!(
        "rule: {}, cardinality encoding: {}, blocking-clause budget: {} s",
        config.rule.name(),
        config.card.name(),
        config.enumerate_seconds
    );
    println!("| instance | S | vars | clauses | count | count s | list all s | blocking clauses | baseline count | baseline s | baseline / count |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for (file, s) in &config.instances {
        let puzzle = match read_puzzle(file) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("count_bench: {e}");
                std::process::exit(2);
            }
        };
        let options = Options {
            stars: *s,
            line_rule: config.rule,
            card: config.card,
        };
        let encoded = encode(&puzzle, &options);
        let cnf = &encoded.cnf;
        if let Some(dir) = &config.dimacs_dir {
            let stem = std::path::Path::new(file)
                .file_stem()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let path = format!("{dir}/{stem}-{s}.cnf");
            std::fs::write(&path, cnf.to_dimacs_string())
                .unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        }

        let start = Instant::now();
        let (count, stats) = match config.count_seconds {
            None => count_with_stats(cnf),
            Some(seconds) => {
                let budget = Budget::starting_now(Some(Duration::from_secs_f64(seconds)));
                match Engine::new(cnf).budget(&budget).count() {
                    (Ok(count), stats) => (count, stats),
                    (Err(stopped), stats) => {
                        eprintln!("{file} S={s}: stopped after {seconds} s");
                        (stopped.at_least, stats)
                    }
                }
            }
        };
        let count_time = start.elapsed();
        eprintln!("{file} S={s}: {stats:?}");
        if config.count_only {
            println!(
                "| {file} | {s} | {} | {} | {count} | {} | - | - | - | - | - |",
                cnf.num_vars(),
                cnf.num_clauses(),
                secs(count_time)
            );
            continue;
        }

        // Listing: compile with the DAG, then visit every solution and check it.
        let start = Instant::now();
        let solutions = Solutions::compile(cnf);
        let mut listed = 0u64;
        let mut bad = 0u64;
        let _ = solutions.for_each(|values| {
            listed += 1;
            // Checking every clause of every solution would dominate the timing; sample.
            if listed % 4096 == 1 && !cnf.is_satisfied_by(values) {
                bad += 1;
            }
            ControlFlow::Continue(())
        });
        let list_time = start.elapsed();
        assert_eq!(bad, 0, "listed an assignment that is not a model");
        assert_eq!(
            count.to_u64(),
            Some(listed),
            "listing and counting disagree"
        );

        let blocking = blocking_clauses(cnf, config.enumerate_seconds);
        let (baseline_count, baseline_time) = match &config.baseline {
            Some(path) => run_baseline(path, file, *s, config.rule),
            None => ("-".into(), None),
        };
        let ratio = baseline_time
            .map(|t| {
                format!(
                    "{:.1}x",
                    t.as_secs_f64() / count_time.as_secs_f64().max(1e-6)
                )
            })
            .unwrap_or_else(|| "-".into());
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            std::path::Path::new(file)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| file.clone()),
            s,
            cnf.num_vars(),
            cnf.num_clauses(),
            count,
            secs(count_time),
            secs(list_time),
            blocking,
            baseline_count,
            baseline_time.map(secs).unwrap_or_else(|| "-".into()),
            ratio
        );
    }
}

/// Enumeration with one blocking clause per solution, stopped after `budget` seconds.
fn blocking_clauses(cnf: &gridsat_encodings::Cnf, budget: f64) -> String {
    let start = Instant::now();
    let mut stopped = false;
    let found = Session::new(cnf)
        .enumerate(None, |_| {
            if start.elapsed().as_secs_f64() > budget {
                stopped = true;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .expect("SAT backend failed");
    let t = start.elapsed().as_secs_f64();
    if stopped {
        format!("stopped: {found} in {t:.1} s ({:.0}/s)", found as f64 / t)
    } else {
        format!("{found} in {t:.3} s")
    }
}

/// Runs the C++ baseline in count mode; its time is its own `solve_seconds` report.
fn run_baseline(path: &str, file: &str, s: usize, rule: LineRule) -> (String, Option<Duration>) {
    let mut command = Command::new(path);
    command.args([file, "-", &s.to_string(), "count", "all_solutions"]);
    if rule == LineRule::Exact {
        command.arg("--exact");
    }
    let start = Instant::now();
    match command.output() {
        Ok(out) if out.status.success() => {
            // Prefer the solve time the baseline reports (parsing excluded), as ours is.
            let elapsed = String::from_utf8_lossy(&out.stderr)
                .split_whitespace()
                .find_map(|t| t.strip_prefix("solve_seconds=")?.parse::<f64>().ok())
                .map(Duration::from_secs_f64)
                .unwrap_or_else(|| start.elapsed());
            let text = String::from_utf8_lossy(&out.stdout);
            let count = text.split_whitespace().last().unwrap_or("?").to_string();
            (count, Some(elapsed))
        }
        Ok(out) => (format!("failed: {}", out.status), None),
        Err(e) => (format!("cannot run: {e}"), None),
    }
}
