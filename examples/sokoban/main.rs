//! The Sokoban benchmark: runs `gridsat sokoban` once per level and method, each in its
//! own process with a time limit, and prints a Markdown table plus a summary.
//!
//! Usage (after `cargo build --release`; `--help` lists the options):
//!   cargo run --release --example sokoban -- LEVELS.xsb [--timeout 60] [--optimal microban-optimal.tsv]
//!       [--methods portfolio,astar,sat,bfs,quick] [--levels 1-20] [--bin target/release/gridsat]
//!       [--baseline bfs] [--external NAME=RESULTS.txt]
//!
//! The method `quick` runs `gridsat sokoban --quick`: its column counts the levels with a
//! plan (proven push-optimal or not, every plan replayed by gridsat) besides the proven
//! ones; a plan below a known optimum is reported as a mismatch.
//!
//! `--external` adds a column measured by another program, one line per level
//! `level N solved PUSHES SECONDS` (or `level N failed ...`), as printed by
//! tools/soukoban-compare. The summary compares every column with each `--baseline`
//! column (comma-separated; default: the last method): geometric mean of the time ratio on the levels
//! both solved (times floored at 5 ms), and how often each was faster.
//!
//! One process per level: a SAT call cannot be interrupted, so a level that runs out of
//! time is abandoned by exiting its process, which must not slow down the next level.
//! The runs use `--max-plans 1` and `--max-move-states 0`: the benchmark times the proof
//! of push-optimality, not the search for fewer moves that follows it (SAT's, or the
//! one after A*).

use anyhow::Context;
use clap::Parser;
use std::collections::HashMap;
use std::process::Command;
use std::time::Instant;

#[derive(Clone)]
struct Run {
    outcome: String,
    pushes: Option<u64>,
    seconds: f64,
    bound: Option<u64>,
    /// The portfolio's winning search.
    proved_by: Option<String>,
}

impl Run {
    fn solved(&self) -> bool {
        self.outcome == "solved"
    }
}

/// Runs `gridsat sokoban` once per level and method and prints a Markdown table.
#[derive(Parser)]
struct Args {
    /// The level file (XSB or the course's digit map).
    file: String,
    /// Seconds per level and method.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// A table of known optima (tab-separated: level, title, pushes), to check against.
    #[arg(long)]
    optimal: Option<String>,
    /// Methods to run, comma-separated (portfolio, astar, sat, bfs, quick).
    #[arg(long, value_delimiter = ',', default_value = "portfolio,bfs")]
    methods: Vec<String>,
    /// Levels to run, `A-B` or `N` (1-based); default all.
    #[arg(long, value_parser = parse_range)]
    levels: Option<(usize, usize)>,
    /// The gridsat program to run.
    #[arg(long, default_value = "target/release/gridsat")]
    bin: String,
    /// Columns to compare every column with, comma-separated; default the last method.
    #[arg(long)]
    baseline: Option<String>,
    /// A column measured by another program: `NAME=RESULTS.txt` (see the module comment).
    #[arg(long, value_parser = parse_external)]
    external: Vec<(String, String)>,
}

fn parse_range(v: &str) -> Result<(usize, usize), String> {
    let (a, b) = v.split_once('-').unwrap_or((v, v));
    let number = |s: &str| {
        s.parse()
            .map_err(|_| format!("expected A-B or N, got {v:?}"))
    };
    Ok((number(a)?, number(b)?))
}

fn parse_external(v: &str) -> Result<(String, String), String> {
    v.split_once('=')
        .map(|(name, path)| (name.to_string(), path.to_string()))
        .ok_or_else(|| format!("expected NAME=FILE, got {v:?}"))
}

fn main() -> anyhow::Result<()> {
    let Args {
        file,
        timeout,
        optimal: optimal_file,
        methods,
        levels,
        bin,
        baseline,
        external,
    } = Args::parse();
    let externals: Vec<(String, HashMap<usize, Run>)> = external
        .into_iter()
        .map(|(name, path)| Ok((name, read_external(&path)?)))
        .collect::<anyhow::Result<_>>()?;
    let optimal: HashMap<usize, u64> = match optimal_file {
        Some(f) => std::fs::read_to_string(&f)
            .with_context(|| format!("reading {f}"))?
            .lines()
            .skip(1)
            .filter_map(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                Some((cols.first()?.parse().ok()?, cols.get(2)?.parse().ok()?))
            })
            .collect(),
        None => HashMap::new(),
    };
    let count = count_levels(&bin, &file)?;
    let (first, last) = levels.unwrap_or((1, count));
    let last = last.min(count);
    let columns: Vec<String> = methods
        .iter()
        .cloned()
        .chain(externals.iter().map(|(name, _)| name.clone()))
        .collect();
    let bases: Vec<usize> = match &baseline {
        Some(list) => list
            .split(',')
            .map(|b| {
                columns
                    .iter()
                    .position(|c| c == b)
                    .with_context(|| format!("--baseline {b}: no such column"))
            })
            .collect::<anyhow::Result<_>>()?,
        None => vec![methods.len().saturating_sub(1)],
    };
    println!(
        "| level | known optimum | {} |",
        columns
            .iter()
            .map(|m| format!("{m} pushes | {m} seconds"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|---|{}", "---|---|".repeat(columns.len()));
    // results[column][level]
    let mut results: Vec<HashMap<usize, Run>> = vec![HashMap::new(); columns.len()];
    let mut mismatches = Vec::new();
    for level in first..=last {
        let mut cells = Vec::new();
        for (k, column) in columns.iter().enumerate() {
            let run = match methods.get(k) {
                Some(method) => run_level(&bin, &file, level, method, timeout),
                None => externals[k - methods.len()]
                    .1
                    .get(&level)
                    .cloned()
                    .unwrap_or_else(Run::missing),
            };
            let pushes = match (run.outcome.as_str(), run.pushes) {
                ("solved", Some(p)) => {
                    if optimal.get(&level).is_some_and(|&o| o != p) {
                        mismatches.push(format!("level {level}: {column} found {p}"));
                    }
                    match &run.proved_by {
                        Some(by) if methods.get(k).is_some_and(|m| m == "portfolio") => {
                            format!("{p} ({by})")
                        }
                        _ => p.to_string(),
                    }
                }
                ("not-proven-optimal", Some(p)) => {
                    if optimal.get(&level).is_some_and(|&o| o > p) {
                        mismatches.push(format!("level {level}: {column} planned {p}"));
                    }
                    format!("{p} (≥{}, not proven)", run.bound.unwrap_or(0))
                }
                ("gave-up", _) => format!("≥{} (gave up)", run.bound.unwrap_or(0)),
                (other, _) => other.to_string(),
            };
            cells.push(format!("{pushes} | {:.3}", run.seconds));
            results[k].insert(level, run);
        }
        let known = optimal.get(&level).map_or("-".to_string(), u64::to_string);
        println!("| {level} | {known} | {} |", cells.join(" | "));
    }
    println!();
    let total_levels = last + 1 - first;
    for (k, column) in columns.iter().enumerate() {
        let solved: Vec<&Run> = results[k].values().filter(|r| r.solved()).collect();
        let mut times: Vec<f64> = solved.iter().map(|r| r.seconds).collect();
        times.sort_by(f64::total_cmp);
        let median = if times.is_empty() {
            0.0
        } else if times.len() % 2 == 1 {
            times[times.len() / 2]
        } else {
            (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
        };
        let total: f64 = times.iter().sum::<f64>() + 0.0;
        let within = |limit: f64| times.iter().filter(|&&t| t <= limit).count();
        println!(
            "{column}: {} of {total_levels} levels solved push-optimally within {timeout} s each; median {median:.2} s, {total:.1} s in total on the solved ones; {} within 1 s, {} within 10 s",
            times.len(),
            within(1.0),
            within(10.0)
        );
        let planned: Vec<f64> = results[k]
            .values()
            .filter(|r| r.solved() || r.outcome == "not-proven-optimal")
            .map(|r| r.seconds)
            .collect();
        if planned.len() > times.len() {
            println!(
                "  with a plan (proven or not): {} of {total_levels} levels, {} within 1 s, {} within 10 s",
                planned.len(),
                planned.iter().filter(|&&t| t <= 1.0).count(),
                planned.iter().filter(|&&t| t <= 10.0).count()
            );
        }
        for &base in bases.iter().filter(|&&b| b != k) {
            let both: Vec<(f64, f64)> = (first..=last)
                .filter_map(|l| {
                    let a = results[k].get(&l).filter(|r| r.solved())?;
                    let b = results[base].get(&l).filter(|r| r.solved())?;
                    Some((a.seconds.max(0.005), b.seconds.max(0.005)))
                })
                .collect();
            let geo = (both.iter().map(|(a, b)| (a / b).ln()).sum::<f64>()
                / both.len().max(1) as f64)
                .exp();
            let faster = both.iter().filter(|(a, b)| a < b).count();
            let slower = both.iter().filter(|(a, b)| a > b).count();
            let only: Vec<String> = (first..=last)
                .filter(|l| {
                    results[k].get(l).is_some_and(Run::solved)
                        && !results[base].get(l).is_some_and(Run::solved)
                })
                .map(|l| l.to_string())
                .collect();
            let base_only = (first..=last)
                .filter(|l| {
                    !results[k].get(l).is_some_and(Run::solved)
                        && results[base].get(l).is_some_and(Run::solved)
                })
                .count();
            println!(
                "  vs {}: on the {} levels both solved, time ratio {column}/{} geometric mean {geo:.3}; {column} faster on {faster}, slower on {slower}; solved only by {column}: {} [{}]; only by {}: {base_only}",
                columns[base],
                both.len(),
                columns[base],
                only.len(),
                only.join(" "),
                columns[base],
            );
        }
        if methods.get(k).is_some_and(|m| m == "portfolio") {
            let by = |name: &str| {
                solved
                    .iter()
                    .filter(|r| r.proved_by.as_deref() == Some(name))
                    .count()
            };
            println!("  proved by sat: {}, by astar: {}", by("sat"), by("astar"));
        }
    }
    for m in &mismatches {
        println!("MISMATCH with the known optimum: {m}");
    }
    Ok(())
}

impl Run {
    fn missing() -> Run {
        Run {
            outcome: "not run".into(),
            pushes: None,
            seconds: 0.0,
            bound: None,
            proved_by: None,
        }
    }
}

/// Lines `level N solved PUSHES SECONDS` or `level N failed WHY SECONDS`; a level with no
/// line (its process was killed at the time limit) is absent.
fn read_external(path: &str) -> anyhow::Result<HashMap<usize, Run>> {
    Ok(std::fs::read_to_string(path)
        .with_context(|| format!("reading {path}"))?
        .lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (["level", n, outcome, ..], Some(seconds)) = (words.as_slice(), words.last())
            else {
                return None;
            };
            let solved = *outcome == "solved";
            Some((
                n.parse().ok()?,
                Run {
                    outcome: if solved { "solved" } else { "failed" }.into(),
                    pushes: if solved {
                        words.get(3)?.parse().ok()
                    } else {
                        None
                    },
                    seconds: seconds.parse().ok()?,
                    bound: None,
                    proved_by: None,
                },
            ))
        })
        .collect())
}

fn count_levels(bin: &str, file: &str) -> anyhow::Result<usize> {
    // Asking for a level past the end makes gridsat say how many there are.
    let out = Command::new(bin)
        .args(["sokoban", file, "--level", "1000000"])
        .output()
        .with_context(|| format!("running {bin}"))?;
    let text = String::from_utf8_lossy(&out.stderr);
    text.split("the file has ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("{bin} did not say how many levels {file} has: {text}"))
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
            "--max-move-states",
            "0",
        ])
        .args(match method {
            "quick" => vec!["--quick"],
            _ => vec!["--method", method],
        })
        .args([
            "--level",
            &level.to_string(),
            "--timeout",
            &timeout.to_string(),
        ])
        .output();
    let wall = started.elapsed().as_secs_f64();
    let (stdout, stderr) = match out {
        Ok(out) => (
            out.stdout,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ),
        Err(e) => (Vec::new(), format!("running {bin}: {e}")),
    };
    let parsed: Option<serde_json::Value> = serde_json::from_slice(&stdout).ok();
    let Some(report) = parsed.as_ref().and_then(|v| v.get(0)) else {
        return Run {
            outcome: format!("error: {}", stderr.trim()),
            pushes: None,
            seconds: wall,
            bound: None,
            proved_by: None,
        };
    };
    Run {
        outcome: report["outcome"].as_str().unwrap_or("?").to_string(),
        pushes: report["pushes"].as_u64(),
        // A plan not proven optimal: when the shortest plan was found.
        seconds: report["push_seconds"]
            .as_f64()
            .or(report["quick"]["last_seconds"].as_f64())
            .unwrap_or(wall),
        bound: report["no_plan_below"].as_u64(),
        proved_by: report["proved_by"].as_str().map(str::to_string),
    }
}
