//! `gridsat full-board`: the course's command line (a file name on standard input) and
//! the modern one (file argument, JSON, uniqueness, limits, encoding choice).

use super::parse::{parse_maps, MapEntry};
use super::render::{json_map, legacy_map, sorted_boards};
use super::solve::{solve, Options, Verdict};
use crate::cli::Exit;
use crate::input::{read_puzzle_file, InputError};
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::full_board::Encoding;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  echo examples/full-board/set-2018-smallmaps.txt | gridsat full-board
      the course's interface: the file name on standard input, its exact output
  gridsat full-board examples/full-board/set-2018-smallmaps.txt --format json
  gridsat full-board maps.txt --unique          is each map's minimum game unique?
  gridsat full-board maps.txt --limit 1 --encoding successor")]
pub struct Args {
    /// Map file; without it, one line naming the file is read from standard input.
    pub input: Option<PathBuf>,
    /// Output: `text` (the course's exact format) or `json`.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    /// Per map, say whether the minimum game is unique (stops after two games).
    #[arg(long)]
    pub unique: bool,
    /// Print at most N minimum games per map (the course prints all of them).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// CNF encoding: `segments` (one layer per move, growing horizon from a proven lower
    /// bound) or `successor` (per-cell successor and visiting order, no horizon). Used
    /// when the bounded search does not decide the map (see --no-search).
    #[arg(long, default_value = "segments", value_parser = ["segments", "successor"])]
    pub encoding: String,
    /// Cardinality encoding of the successor encoding's move counter.
    #[arg(long, default_value = "totalizer", value_parser = ["sequential", "totalizer", "sorting-network"])]
    pub card: String,
    /// Report each solver call (answer, time, formula size) on standard error.
    #[arg(long)]
    pub verbose: bool,
    /// State the segments encoding alone, without tying its moves to a line cover of
    /// the board (slower; for comparing the two).
    #[arg(long)]
    pub no_cover_tie: bool,
    /// Search with one thread: the segments encoding alone, without the successor
    /// encoding's parallel proof that no game exists.
    #[arg(long)]
    pub sequential: bool,
    /// Skip the bounded exhaustive search that raises the line-cover bound (and lists
    /// every minimum game where the cover is tight) before the SAT encodings run.
    #[arg(long)]
    pub no_search: bool,
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let path = match &args.input {
        Some(path) => path.clone(),
        None => {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)?;
            PathBuf::from(line.trim_end_matches(['\n', '\r']))
        }
    };
    let mut stdout = std::io::stdout().lock();
    if !path.is_file() {
        // The course's answer for a missing file.
        write!(stdout, "File not found.\nComplete\n")?;
        return Ok(Exit::NoAnswer);
    }
    let maps = read_maps(&path)?;
    let options = Options {
        encoding: Encoding::from_name(&args.encoding).expect("clap checked the name"),
        limit: if args.unique { Some(2) } else { args.limit },
        card: CardEncoding::from_name(&args.card).expect("clap checked the name"),
        verbose: args.verbose,
        cover_tie: !args.no_cover_tie,
        parallel_refutation: !args.sequential,
        bounded_search: !args.no_search,
    };
    let mut json_maps = Vec::new();
    for map in &maps {
        let began = Instant::now();
        let verdict = solve(&map.board, &options)?;
        let seconds = began.elapsed().as_secs_f64();
        if args.format == "json" {
            let mut value = json_map(map, &verdict, seconds);
            if args.unique {
                value["unique"] = serde_json::json!(uniqueness(&verdict));
            }
            json_maps.push(value);
        } else if args.unique {
            write_unique(&mut stdout, map, &verdict)?;
        } else {
            let mut block = String::new();
            legacy_map(&mut block, map, &verdict);
            stdout.write_all(block.as_bytes())?;
            stdout.flush()?;
            if let Verdict::Solved {
                all_found: false, ..
            } = verdict
            {
                eprintln!(
                    "gridsat: map at line {}: more minimum games exist than --limit prints",
                    map.line
                );
            }
        }
    }
    if args.format == "json" {
        let doc = serde_json::json!({ "file": path.display().to_string(), "maps": json_maps });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else if !args.unique {
        writeln!(stdout, "Complete")?;
    }
    Ok(Exit::Solved)
}

fn read_maps(path: &Path) -> anyhow::Result<Vec<MapEntry>> {
    let text = read_puzzle_file(path)?;
    Ok(parse_maps(&text).map_err(|e| InputError::new(path, e))?)
}

fn uniqueness(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::NoSolution(_) => "no solution",
        Verdict::Solved { games, .. } if games.len() == 1 => "unique",
        Verdict::Solved { .. } => "multiple",
    }
}

fn write_unique(out: &mut impl Write, map: &MapEntry, verdict: &Verdict) -> std::io::Result<()> {
    match verdict {
        Verdict::NoSolution(proof) => {
            writeln!(out, "map at line {}: no solution ({proof})", map.line)
        }
        Verdict::Solved { moves, games, .. } => {
            writeln!(
                out,
                "map at line {}: {}, {moves} moves",
                map.line,
                uniqueness(verdict)
            )?;
            for rows in sorted_boards(&map.board, games) {
                for row in rows {
                    writeln!(out, "{row}")?;
                }
                writeln!(out)?;
            }
            Ok(())
        }
    }
}
