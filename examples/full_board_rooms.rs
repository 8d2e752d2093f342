//! Full Board's generated benchmark set (issue 20: every map the course allows, up to
//! 60 x 60, decided within 10 s), and its table of times per family.
//!
//! The families, every board inside a full border of obstacles:
//! - `open rooms`: empty rooms of 2 x 2 to 58 x 58 inside the border (boards up to 60 x 60);
//! - `rooms + K obstacles`: a 58 x 58 room with K = 1, 2, 3, 5, 10, 20 obstacles at random
//!   cells, several seeds;
//! - `random P%`: 58 x 58 inside the border, each cell an obstacle with probability P;
//! - `planted`: a random winning game carved into a board of obstacles (each segment's
//!   stop kept blocked), so that the board has a game (its minimum may be shorter); the
//!   planted game is replayed by the independent check before the board is used.
//!
//! Each map is decided in a child `gridsat full-board FILE --count --format json
//! --timeout BUDGET` process (whole-process wall time; a map given up at the budget is
//! counted as not decided). Prints a Markdown table per family: maps, decided within
//! `--target` seconds (default: the budget), answers, median and slowest seconds;
//! `--each` adds a line per map.
//!
//! ```text
//! cargo build --release --bins --examples
//! target/release/examples/full_board_rooms [--bin target/release/gridsat] [--budget 10] [--target S]
//!     [--seeds 3] [--each] [--write DIR] [--only FAMILY]
//! ```
//!
//! `--write DIR` writes each family as a map file in DIR (and decides nothing), for
//! timing single maps with `/usr/bin/time -v gridsat full-board DIR/FILE`.

use gridsat::full_board::check::replay;
use gridsat_encodings::full_board::{Board, Cell, Dir, Plan};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The course's largest board, border included.
const SIDE: usize = 60;

/// A seeded generator (splitmix64): the same set on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A board as the course writes it: `open[row][col]`.
struct Map {
    name: String,
    open: Vec<Vec<bool>>,
}

impl Map {
    fn text(&self) -> String {
        let mut text = String::from("map\n");
        for row in &self.open {
            text.extend(row.iter().map(|&o| if o { ' ' } else { '▓' }));
            text.push('\n');
        }
        text.push_str("endmap\n");
        text
    }

    fn board(&self) -> Board {
        let (rows, cols) = (self.open.len(), self.open[0].len());
        Board::new(rows, cols, self.open.concat())
    }
}

/// An `inner` x `inner` room inside a border of obstacles.
fn room(inner: usize) -> Vec<Vec<bool>> {
    let side = inner + 2;
    (0..side)
        .map(|r| {
            (0..side)
                .map(|c| r > 0 && c > 0 && r <= inner && c <= inner)
                .collect()
        })
        .collect()
}

fn open_rooms() -> Vec<Map> {
    (2..=SIDE - 2)
        .map(|inner| Map {
            name: format!("room {inner}x{inner}"),
            open: room(inner),
        })
        .collect()
}

fn rooms_with_obstacles(obstacles: usize, seeds: u64) -> Vec<Map> {
    (0..seeds)
        .map(|seed| {
            let mut rng = Rng::new(1000 * obstacles as u64 + seed);
            let mut open = room(SIDE - 2);
            let mut placed = 0;
            while placed < obstacles {
                let (r, c) = (1 + rng.below(SIDE - 2), 1 + rng.below(SIDE - 2));
                if open[r][c] {
                    open[r][c] = false;
                    placed += 1;
                }
            }
            Map {
                name: format!("room 58x58 + {obstacles} obstacles, seed {seed}"),
                open,
            }
        })
        .collect()
}

fn random_boards(percent: usize, seeds: u64) -> Vec<Map> {
    (0..seeds)
        .map(|seed| {
            let mut rng = Rng::new(77_000 + 100 * percent as u64 + seed);
            let mut open = room(SIDE - 2);
            for row in open.iter_mut().take(SIDE - 1).skip(1) {
                for cell in row.iter_mut().take(SIDE - 1).skip(1) {
                    if rng.below(100) < percent {
                        *cell = false;
                    }
                }
            }
            Map {
                name: format!("random {percent}%, seed {seed}"),
                open,
            }
        })
        .collect()
}

/// Carves a random game of up to `moves` moves into a board of obstacles, starting in
/// the middle: each segment enters only cells not yet carved nor reserved, and the
/// cell beyond its stop is reserved as an obstacle (unless carved: the ball stops
/// before a visited cell too), so the carved cells are exactly the cells the game
/// visits and the game wins.
fn planted(moves: usize, seed: u64) -> Map {
    let mut rng = Rng::new(5_000_000 + 1000 * moves as u64 + seed);
    #[derive(Copy, Clone, PartialEq)]
    enum Mark {
        Free,
        Carved,
        Reserved,
    }
    let inside =
        |r: isize, c: isize| r >= 1 && c >= 1 && r <= SIDE as isize - 2 && c <= SIDE as isize - 2;
    let mut mark = vec![vec![Mark::Free; SIDE]; SIDE];
    let (mut r, mut c) = ((SIDE / 2) as isize, (SIDE / 2) as isize);
    mark[r as usize][c as usize] = Mark::Carved;
    let start = Cell::new(r as usize, c as usize);
    let mut plan = Vec::new();
    let mut last: Option<Dir> = None;
    for _ in 0..moves {
        // A direction of the other axis (or any, first), and a length it can carve.
        let dirs: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| last.is_none_or(|l| (l.delta().0 == 0) != (d.delta().0 == 0)))
            .collect();
        let mut options = Vec::new();
        for dir in dirs {
            let (dr, dc) = dir.delta();
            let mut length = 0;
            while length < 12
                && inside(r + dr * (length + 1), c + dc * (length + 1))
                && mark[(r + dr * (length + 1)) as usize][(c + dc * (length + 1)) as usize]
                    == Mark::Free
            {
                length += 1;
            }
            // Any length: the cell beyond the stop is reserved, carved (visited) or the
            // border, so the ball stops there.
            options.extend((1..=length).map(|l| (dir, l)));
        }
        if options.is_empty() {
            break;
        }
        let (dir, length) = options[rng.below(options.len())];
        let (dr, dc) = dir.delta();
        for _ in 0..length {
            r += dr;
            c += dc;
            mark[r as usize][c as usize] = Mark::Carved;
        }
        let (br, bc) = (r + dr, c + dc);
        if inside(br, bc) && mark[br as usize][bc as usize] == Mark::Free {
            mark[br as usize][bc as usize] = Mark::Reserved;
        }
        plan.push(dir);
        last = Some(dir);
    }
    let open: Vec<Vec<bool>> = mark
        .iter()
        .map(|row| row.iter().map(|&m| m == Mark::Carved).collect())
        .collect();
    let map = Map {
        name: format!("planted, {} moves, seed {seed}", plan.len()),
        open,
    };
    // At the end every carved cell is visited and every other cell is an obstacle, so
    // no move is left: the game ends, and wins.
    let game = Plan { start, moves: plan };
    replay(&map.board(), &game).expect("the planted game wins");
    map
}

fn families(seeds: u64) -> Vec<(String, Vec<Map>)> {
    let mut families = vec![("open rooms 2..58".to_string(), open_rooms())];
    for k in [1, 2, 3, 5, 10, 20] {
        families.push((
            format!("rooms + {k} obstacles"),
            rooms_with_obstacles(k, seeds),
        ));
    }
    for p in [5, 15, 30] {
        families.push((format!("random {p}%"), random_boards(p, seeds)));
    }
    for moves in [40, 120, 400] {
        let maps = (0..seeds).map(|seed| planted(moves, seed)).collect();
        families.push((format!("planted, up to {moves} moves"), maps));
    }
    families
}

struct Run {
    seconds: f64,
    answer: String,
    decided: bool,
}

fn decide(bin: &str, map: &Map, budget: f64) -> Run {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(map.text().as_bytes()).expect("write map");
    let began = Instant::now();
    let mut child = Command::new(bin)
        .args(["full-board", "--count", "--format", "json", "--timeout"])
        .arg(budget.to_string())
        .arg(file.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run gridsat (build it with cargo build --release)");
    // --timeout stops the search; this only guards against a child that does not.
    let hard = Duration::from_secs_f64(budget + 20.0);
    while child.try_wait().expect("wait").is_none() {
        if began.elapsed() > hard {
            let _ = child.kill();
            let _ = child.wait();
            return Run {
                seconds: began.elapsed().as_secs_f64(),
                answer: "killed".to_string(),
                decided: false,
            };
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let seconds = began.elapsed().as_secs_f64();
    let output = child.wait_with_output().expect("output");
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    let answer = &doc["maps"][0];
    let (answer, decided) = if answer["solved"] == true {
        (format!("{} moves", answer["moves"]), true)
    } else if answer["solved"] == false {
        ("No solution".to_string(), true)
    } else {
        ("gave up".to_string(), false)
    };
    Run {
        seconds,
        answer,
        decided: decided && seconds <= budget,
    }
}

const USAGE: &str = "usage: full_board_rooms [--bin target/release/gridsat] [--budget 10] \
[--target S] [--seeds 3] [--each] [--write DIR] [--only FAMILY]";

/// The usage line after `problem`, and exit status 2.
fn usage(problem: &str) -> ! {
    eprintln!("full_board_rooms: {problem}\n{USAGE}");
    std::process::exit(2)
}

fn main() {
    let mut bin = "target/release/gridsat".to_string();
    let mut budget = 10.0f64;
    let mut target = None;
    let mut seeds = 3u64;
    let mut each = false;
    let mut write = None;
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| usage(&format!("{name} needs a value")))
        };
        let number = |name: &str, text: String| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0)
                .unwrap_or_else(|| usage(&format!("{name} {text}: not a positive number")))
        };
        match arg.as_str() {
            "--bin" => bin = value("--bin"),
            "--budget" => budget = number("--budget", value("--budget")),
            "--target" => target = Some(number("--target", value("--target"))),
            "--seeds" => {
                let text = value("--seeds");
                seeds = text
                    .parse()
                    .unwrap_or_else(|_| usage(&format!("--seeds {text}: not a count")))
            }
            "--write" => write = Some(value("--write")),
            "--only" => only = Some(value("--only")),
            "--each" => each = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                return;
            }
            other => usage(&format!("unknown argument {other}")),
        }
    }
    let target: f64 = target.unwrap_or(budget);
    let families = families(seeds);
    if let Some(dir) = write {
        std::fs::create_dir_all(&dir).expect("create DIR");
        for (name, maps) in &families {
            let file = format!("{dir}/{}.txt", name.replace([' ', ',', '%', '+', '.'], "-"));
            let text: String = maps.iter().map(Map::text).collect();
            std::fs::write(&file, text).expect("write the family");
            println!("{file}: {} maps", maps.len());
        }
        return;
    }
    println!("| family | maps | decided within {target} s | answers | median s | slowest s |");
    println!("|---|---|---|---|---|---|");
    let mut lines = Vec::new();
    for (name, maps) in &families {
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        let mut runs: Vec<Run> = Vec::new();
        for map in maps {
            let run = decide(&bin, map, budget);
            if each {
                lines.push(format!(
                    "{}: {} in {:.2} s",
                    map.name, run.answer, run.seconds
                ));
            }
            runs.push(run);
        }
        let decided = runs
            .iter()
            .filter(|r| r.decided && r.seconds <= target)
            .count();
        let solved = runs.iter().filter(|r| r.answer.ends_with("moves")).count();
        let none = runs.iter().filter(|r| r.answer == "No solution").count();
        let mut times: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let slowest = times[times.len() - 1];
        println!(
            "| {name} | {} | {decided} | {solved} solved, {none} no solution | {median:.2} | {slowest:.2} |",
            maps.len()
        );
    }
    for line in lines {
        println!("{line}");
    }
}
