//! Full Board benchmark: every map of the given files, once per encoding, each run in a
//! child `gridsat full-board` process with a time budget (a run over budget is reported
//! as undecided, never as an answer). Prints a Markdown table with seconds and the ratio
//! to the first encoding listed (the baseline) in the same run. The children run with
//! `--no-search`, so the table compares the encodings, not the bounded search that
//! decides most maps before them.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example full_board_bench -- \
//!     [--bin target/release/gridsat] [--budget 60] [--encodings successor,segments] FILE...
//! cargo run --release --example full_board_bench -- --bounds FILE...
//! ```
//!
//! `--bounds` prints instead, per map, the line-cover lower bound without and with the
//! stop rule at segment ends (see `gridsat_encodings::full_board::lines`) and the time
//! of each, computed in this process.

use gridsat::full_board::parse::parse_maps;
use gridsat::full_board::refute::line_cover;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Run {
    seconds: f64,
    answer: String,
}

fn run_one(bin: &str, map_text: &str, encoding: &str, budget: Duration) -> Run {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(map_text.as_bytes()).expect("write map");
    let began = Instant::now();
    let mut child = Command::new(bin)
        .args([
            "full-board",
            "--format",
            "json",
            "--no-search",
            "--encoding",
            encoding,
        ])
        .arg(file.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run gridsat (build it with cargo build --release)");
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if began.elapsed() > budget {
            let _ = child.kill();
            let _ = child.wait();
            return Run {
                seconds: began.elapsed().as_secs_f64(),
                answer: format!("undecided after {} s", budget.as_secs()),
            };
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let seconds = began.elapsed().as_secs_f64();
    let output = child.wait_with_output().expect("output");
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    let map = &doc["maps"][0];
    let answer = if map["solved"] == true {
        format!("{} moves, {} games", map["moves"], map["count"])
    } else if map["solved"] == false {
        format!("No solution ({})", map["proof"].as_str().unwrap_or(""))
    } else if map["gave_up"].is_string() {
        format!("gave up: {}", map["proven"].as_str().unwrap_or(""))
    } else {
        "error".to_string()
    };
    Run { seconds, answer }
}

fn print_bounds(files: &[String]) {
    println!("| file | map | size | plain cover | s | with the stop rule | s |");
    println!("|---|---|---|---|---|---|---|");
    let show = |bound: Option<usize>| {
        bound.map_or("no cover: No solution".to_string(), |k| {
            format!("{k} moves")
        })
    };
    for file in files {
        let text = std::fs::read_to_string(file).expect("read map file");
        let name = std::path::Path::new(file)
            .file_name()
            .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
        for (i, map) in parse_maps(&text)
            .expect("valid map file")
            .iter()
            .enumerate()
        {
            let began = Instant::now();
            let plain = line_cover(&map.board, false).expect("solver runs");
            let plain_s = began.elapsed().as_secs_f64();
            let began = Instant::now();
            let sharp = line_cover(&map.board, true).expect("solver runs");
            let sharp_s = began.elapsed().as_secs_f64();
            println!(
                "| {name} | {} | {}x{} | {} | {plain_s:.2} | {} | {sharp_s:.2} |",
                i + 1,
                map.board.rows(),
                map.board.cols(),
                show(plain),
                show(sharp)
            );
        }
    }
}

fn main() {
    let mut bounds = false;
    let mut bin = "target/release/gridsat".to_string();
    let mut budget = 60u64;
    let mut encodings = vec!["successor".to_string(), "segments".to_string()];
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bounds" => bounds = true,
            "--bin" => bin = args.next().expect("--bin PATH"),
            "--budget" => {
                budget = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--budget S")
            }
            "--encodings" => {
                encodings = args
                    .next()
                    .expect("--encodings A,B")
                    .split(',')
                    .map(str::to_string)
                    .collect()
            }
            _ => files.push(arg),
        }
    }
    if bounds {
        print_bounds(&files);
        return;
    }
    print!("| file | map | size |");
    for e in &encodings {
        print!(" {e} | {e} s |");
    }
    if encodings.len() > 1 {
        print!(" ratio to {} |", encodings[0]);
    }
    println!();
    println!(
        "|{}",
        "---|".repeat(3 + 2 * encodings.len() + usize::from(encodings.len() > 1))
    );
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read map file");
        let maps = parse_maps(&text).expect("valid map file");
        for (i, map) in maps.iter().enumerate() {
            let map_text = format!("map\n{}\nendmap\n", map.rows.join("\n"));
            let runs: Vec<Run> = encodings
                .iter()
                .map(|e| run_one(&bin, &map_text, e, Duration::from_secs(budget)))
                .collect();
            let name = std::path::Path::new(file)
                .file_name()
                .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
            print!(
                "| {name} | {} | {}x{} |",
                i + 1,
                map.board.rows(),
                map.board.cols()
            );
            for run in &runs {
                print!(" {} | {:.2} |", run.answer, run.seconds);
            }
            if runs.len() > 1 {
                let ratios: Vec<String> = runs[1..]
                    .iter()
                    .map(|r| format!("{:.1}x", r.seconds / runs[0].seconds.max(1e-3)))
                    .collect();
                print!(" {} |", ratios.join(", "));
            }
            println!();
            std::io::stdout().flush().ok();
        }
    }
}
