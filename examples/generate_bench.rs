//! The designer's tools measured: the generator's puzzles per second by size (seeds
//! 0..M, each puzzle proven unique as `gridsat generate` proves it), and the time of the
//! `--repair` report on the puzzle files of `examples/` that are not unique (the whole
//! `gridsat` process, so build it first).
//!
//! ```text
//! cargo build --release --bins --examples
//! target/release/examples/generate_bench            # both tables
//! target/release/examples/generate_bench --quick    # fewer seeds, smaller sizes
//! target/release/examples/generate_bench --no-generator   # the repair table alone
//! ```

use gridsat::battleship::generate as battleship;
use gridsat::star_battle::generate as star_battle;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let quick = std::env::args().any(|a| a == "--quick");
    let repairs = !std::env::args().any(|a| a == "--no-repair");
    let generator = !std::env::args().any(|a| a == "--no-generator");
    if generator {
        generator_table(quick)?;
    }
    if !repairs {
        return Ok(());
    }
    repair_table()
}

fn generator_table(quick: bool) -> anyhow::Result<()> {
    let m = |n: u64| if quick { n.div_ceil(4) } else { n };
    println!("| puzzle | size | stars / fleet | puzzles | seconds | puzzles/s | slowest (s) |");
    println!("|---|---|---|---:|---:|---:|---:|");
    let mut star_sizes = vec![(6, 1, m(20)), (8, 1, m(20)), (10, 1, m(20)), (8, 2, m(20))];
    star_sizes.extend([(10, 2, m(20)), (12, 2, m(8)), (14, 3, m(4))]);
    if !quick {
        star_sizes.extend([(14, 2, 4)]);
    }
    for (size, stars, count) in star_sizes {
        let times = timed(count, |seed| {
            star_battle::generate(size, stars, seed).map(drop)
        })?;
        row(
            "Star Battle",
            &format!("{size}x{size}"),
            &stars.to_string(),
            &times,
        );
    }
    for (rows, cols, count) in [
        (6, 6, m(20)),
        (8, 8, m(20)),
        (10, 10, m(20)),
        (15, 15, m(8)),
    ] {
        let ships = battleship::fleet(None, rows, cols)?;
        let fleet = format!("{} ships", ships.len());
        let times = timed(count, |seed| {
            battleship::generate(rows, cols, &ships, seed).map(drop)
        })?;
        row("Battleship", &format!("{rows}x{cols}"), &fleet, &times);
    }
    Ok(())
}

fn repair_table() -> anyhow::Result<()> {
    let gridsat = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/gridsat");
    println!();
    println!("| file | answer | seconds |");
    println!("|---|---|---:|");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let files: [(&str, &str, &[&str]); 9] = [
        ("star-battle", "star-battle/custom1.txt", &["--stars", "1"]),
        ("star-battle", "star-battle/custom3.txt", &["--stars", "1"]),
        ("star-battle", "star-battle/sporcle1.txt", &["--stars", "1"]),
        ("star-battle", "star-battle/twonot1.txt", &["--stars", "1"]),
        ("star-battle", "star-battle/twonot2.txt", &["--stars", "1"]),
        ("battleship", "battleship/puzzle1.txt", &[]),
        ("battleship", "battleship/puzzle4_unknowns.txt", &[]),
        ("battleship", "battleship/puzzle6_unknowns.txt", &[]),
        ("battleship", "battleship/puzzle10.txt", &[]),
    ];
    for (command, file, extra) in files {
        let started = Instant::now();
        let out = Command::new(&gridsat)
            .args([command, root.join(file).to_str().unwrap(), "--repair"])
            .args(extra)
            .args(["--format", "json", "--timeout", "60"])
            .output()?;
        let seconds = started.elapsed().as_secs_f64();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let answer = summary(&json);
        println!("| {file} | {answer} | {seconds:.2} |");
    }
    Ok(())
}

/// The seconds of each of `count` runs, seeds 0, 1, ...
fn timed(count: u64, mut run: impl FnMut(u64) -> anyhow::Result<()>) -> anyhow::Result<Vec<f64>> {
    (0..count)
        .map(|seed| {
            let started = Instant::now();
            run(seed)?;
            Ok(started.elapsed().as_secs_f64())
        })
        .collect()
}

fn row(puzzle: &str, size: &str, what: &str, times: &[f64]) {
    let total: f64 = times.iter().sum();
    let slowest = times.iter().copied().fold(0.0, f64::max);
    println!(
        "| {puzzle} | {size} | {what} | {} | {total:.2} | {:.1} | {slowest:.2} |",
        times.len(),
        times.len() as f64 / total
    );
}

/// What the repair report said, in a few words.
fn summary(json: &serde_json::Value) -> String {
    let verdict = json["verdict"].as_str().unwrap_or("?");
    match json["repairs"].as_array() {
        Some(repairs) => {
            let unique = repairs.iter().filter(|r| r["unique"] == true).count();
            let fewest = repairs
                .iter()
                .map(|r| r["solutions"].clone())
                .min_by_key(|n| n.as_u64());
            format!(
                "{verdict}: {} proposal(s), {unique} making it unique{}",
                repairs.len(),
                fewest.map_or(String::new(), |n| format!(", fewest solutions left {n}"))
            )
        }
        None => verdict.to_string(),
    }
}
