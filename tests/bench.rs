//! `gridsat bench`, end to end: on the corpus every choice (every encoding, clause family
//! and search, with every SAT solver this build has) gives the same answer, and that
//! answer is the one the puzzle's own command, the course's expected outputs or the
//! independent optimal-solution table give; the CSV and the JSON parse and say the same;
//! the SVG chart renders with a bar per choice in the choice's colour.
//!
//! Built with `--features cadical`, the same tests compare CaDiCaL with varisat.

mod common;

use common::render::Image;
use common::{gridsat, root, stderr, stdout, write_temp};
use serde_json::Value;
use std::collections::BTreeMap;

/// The SAT solvers this build has, as `bench` names them.
fn solvers() -> Vec<&'static str> {
    if cfg!(feature = "cadical") {
        vec!["varisat", "cadical"]
    } else {
        vec!["varisat"]
    }
}

/// Every choice a puzzle's bench must run: SAT options once per solver, the rest once.
fn every_choice(sat: &[&str], other: &[&str]) -> Vec<String> {
    let mut all = Vec::new();
    for option in sat {
        all.extend(solvers().iter().map(|s| format!("{option}/{s}")));
    }
    all.extend(other.iter().map(|o| o.to_string()));
    all
}

const CARDS: [&str; 4] = ["pairwise", "sequential", "totalizer", "sorting-network"];

/// `gridsat bench ARGS --runs 1 --format json`, which must agree (exit 0); its report.
fn bench_json(args: &[&str]) -> Value {
    let mut all = vec!["bench"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--runs", "1", "--format", "json"]);
    let out = gridsat(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).expect("the JSON parses");
    assert_eq!(report["disagreements"], Value::Array(vec![]), "{args:?}");
    report
}

/// Per case, the answer every choice gave (each choice present once and decided).
fn answers(report: &Value, choices: &[String]) -> BTreeMap<String, String> {
    let rows = report["rows"].as_array().expect("rows");
    let cases = report["cases"].as_array().expect("cases");
    assert_eq!(rows.len(), cases.len() * choices.len());
    let mut answers = BTreeMap::new();
    for (case, chunk) in cases.iter().zip(rows.chunks(choices.len())) {
        let case = case.as_str().unwrap().to_string();
        let labels: Vec<&str> = chunk
            .iter()
            .map(|r| r["choice"].as_str().unwrap())
            .collect();
        assert_eq!(labels, choices, "{case}");
        let mut answer = None;
        for row in chunk {
            assert_eq!(row["case"], case.as_str());
            assert_eq!(row["decided"], true, "{case}: {row}");
            let text = row["answer"].as_str().expect("an answer").to_string();
            let proof = row["proof"]["median_s"].as_f64().expect("a proof time");
            let first = row["first"]["median_s"].as_f64().expect("a first time");
            assert!(0.0 <= first && first <= proof, "{case}: {row}");
            match &answer {
                None => answer = Some(text),
                // The table's words may differ only in what a choice did not prove.
                Some(a) => assert_eq!(
                    a.trim_end_matches(" (fewest not proven)"),
                    text.trim_end_matches(" (fewest not proven)"),
                    "{case}: {row}"
                ),
            }
        }
        answers.insert(case, answer.unwrap());
    }
    answers
}

/// The verdict of `gridsat PUZZLE FILE EXTRA... --unique --format json`, in the bench's words.
fn unique_verdict(puzzle: &str, file: &str, extra: &[&str]) -> String {
    let mut args = vec![puzzle, file];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--unique", "--format", "json"]);
    let out = gridsat(&args);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("the command's JSON parses");
    match json["verdict"].as_str() {
        Some("unique") => "unique",
        Some("none") => "no solution",
        Some("multiple") => "several",
        other => panic!("{file}: verdict {other:?}"),
    }
    .to_string()
}

fn files_in(dir: &str, starting: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(starting) && n.ends_with(".txt"))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_star_battle_choice_agrees_with_the_command_on_the_corpus() {
    let choices = every_choice(&CARDS, &[]);
    for stars in ["1", "2"] {
        let files = files_in("examples/star-battle", "");
        let mut args: Vec<&str> = vec!["star-battle"];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--stars", stars]);
        let answers = answers(&bench_json(&args), &choices);
        assert_eq!(answers.len(), files.len());
        for file in &files {
            let name = file.rsplit('/').next().unwrap();
            let want = unique_verdict(
                "star-battle",
                file,
                &["--stars", stars, "--rule", "at-most"],
            );
            assert_eq!(answers[name], want, "{file} S={stars}");
        }
        if stars == "2" {
            assert_eq!(answers["twonot1.txt"], "unique");
        }
    }
}

#[test]
fn every_battleship_choice_agrees_with_the_command_on_the_corpus() {
    let choices = every_choice(&CARDS, &[]);
    let files = files_in("examples/battleship", "puzzle");
    let mut args: Vec<&str> = vec!["battleship"];
    args.extend(files.iter().map(String::as_str));
    let answers = answers(&bench_json(&args), &choices);
    assert_eq!(answers.len(), files.len());
    for file in &files {
        let name = file.rsplit('/').next().unwrap();
        assert_eq!(
            answers[name],
            unique_verdict("battleship", file, &[]),
            "{file}"
        );
    }
    assert!(answers.values().any(|a| a == "unique"));
    assert!(answers.values().any(|a| a == "several"));
}

/// The first `n` maps of a map file, and the course's expected minimum and game count
/// for each (from its expected output).
fn first_maps(set: &str, n: usize) -> (String, Vec<String>) {
    let maps = common::read(&root().join(format!("examples/full-board/{set}.txt")));
    let text: String = maps
        .split_inclusive("endmap\n")
        .take(n)
        .collect::<Vec<_>>()
        .concat();
    let expected = common::read(&root().join(format!(
        "examples/full-board/expected/{set}_expected_out.txt"
    )));
    let answers = expected
        .split_inclusive("endmap\n")
        .take(n)
        .map(|map| {
            let moves = map.lines().find(|l| l.ends_with(" moves")).unwrap();
            let games = map.lines().filter(|l| *l == "solution").count();
            let word = if games == 1 { "game" } else { "games" };
            format!("{moves}, {games} {word}")
        })
        .collect();
    (text, answers)
}

#[test]
fn every_full_board_choice_agrees_with_the_course_on_small_maps() {
    let choices = every_choice(
        &["segments", "segments-untied", "successor", "pipeline"],
        &[],
    );
    for set in ["set-2018-smallmaps", "set-2016-smallmaps"] {
        let (maps, expected) = first_maps(set, 4);
        let file = write_temp(&maps);
        let path = file.path().to_str().unwrap();
        let report = bench_json(&["full-board", path]);
        let answers = answers(&report, &choices);
        let got: Vec<&String> = report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &answers[c.as_str().unwrap()])
            .collect();
        assert_eq!(got, expected.iter().collect::<Vec<_>>(), "{set}");
    }
}

#[test]
fn every_sokoban_choice_agrees_with_the_optimal_table() {
    let choices = every_choice(
        &[
            "sat",
            "sat-no-closure",
            "sat-no-cover",
            "sat-no-goalsum",
            "sat-no-commute",
            "sat-no-undo",
            "sat-bare",
        ],
        &["astar"],
    );
    let choices: Vec<String> = choices
        .into_iter()
        .chain(solvers().iter().map(|s| format!("portfolio/{s}")))
        .collect();
    // Pushes from microban-optimal.tsv; moves the fewest among push-optimal plans (as
    // tests/sokoban_moves.rs establishes). Levels 6, 10 take the SAT search seconds.
    for (level, pushes, moves) in [
        (1, 8, 33),
        (2, 3, 16),
        (3, 13, 41),
        (4, 7, 23),
        (5, 6, 27),
        (9, 10, 30),
    ] {
        let level_arg = level.to_string();
        let report = bench_json(&[
            "sokoban",
            "examples/sokoban/microban-1-10.xsb",
            "--level",
            &level_arg,
        ]);
        let answers = answers(&report, &choices);
        let case = format!("microban-1-10.xsb #{level}");
        assert_eq!(
            answers[&case].trim_end_matches(" (fewest not proven)"),
            format!("{pushes} pushes, {moves} moves"),
            "level {level}"
        );
    }
    let report = bench_json(&["sokoban", "examples/sokoban/unsolvable.xsb"]);
    let answers = answers(&report, &choices);
    assert!(answers.values().all(|a| a == "unsolvable"), "{answers:?}");
}

/// RFC 4180 records: fields split at commas outside quotes, `""` inside quotes a quote.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', true) => quoted = false,
            ('"', false) => {
                assert!(field.is_empty(), "a quote inside an unquoted field");
                quoted = true;
            }
            (',', false) => record.push(std::mem::take(&mut field)),
            ('\n', false) => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (c, _) => field.push(c),
        }
    }
    assert!(
        !quoted && field.is_empty() && record.is_empty(),
        "ends with a line break"
    );
    records
}

#[test]
fn the_csv_parses_and_says_what_the_json_says() {
    let args = [
        "bench",
        "sokoban",
        "examples/sokoban/microban-1-10.xsb",
        "--level",
        "1",
        "--runs",
        "3",
    ];
    let csv = gridsat(&[&args[..], &["--format", "csv"]].concat());
    assert_eq!(csv.status.code(), Some(0), "{}", stderr(&csv));
    let records = parse_csv(&stdout(&csv));
    let header = &records[0];
    let json: Value = serde_json::from_str(&stdout(&gridsat(
        &[&args[..], &["--format", "json"]].concat(),
    )))
    .unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(records.len() - 1, rows.len());
    let column = |record: &Vec<String>, name: &str| -> String {
        let i = header.iter().position(|h| h == name).expect(name);
        record[i].clone()
    };
    for (record, row) in records[1..].iter().zip(rows) {
        assert_eq!(record.len(), header.len(), "{record:?}");
        assert_eq!(column(record, "choice"), row["choice"].as_str().unwrap());
        assert_eq!(column(record, "runs"), "3");
        assert_eq!(column(record, "decided"), "true");
        // The answer holds a comma: quoted, and read back whole.
        assert_eq!(column(record, "answer"), "8 pushes, 33 moves");
        assert_eq!(column(record, "answer"), row["answer"].as_str().unwrap());
        for time in ["first", "proof"] {
            let seconds = |suffix: &str| -> f64 {
                column(record, &format!("{time}{suffix}"))
                    .parse()
                    .unwrap_or_else(|e| panic!("{time}{suffix} in {record:?}: {e}"))
            };
            let (median, min, max) = (seconds("_s"), seconds("_min_s"), seconds("_max_s"));
            assert!(min <= median && median <= max, "{record:?}");
        }
        let solver = column(record, "solver");
        assert_eq!(row["solver"].as_str().unwrap_or(""), solver);
        let option = column(record, "option");
        let label = if solver.is_empty() {
            option
        } else {
            format!("{option}/{solver}")
        };
        assert_eq!(label, column(record, "choice"));
    }
}

/// The Tableau palette the chart gives the choices, in their order.
const PALETTE: [&str; 4] = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2"];

#[test]
fn the_chart_renders_a_bar_per_choice_and_case() {
    let choices = every_choice(&CARDS, &[]);
    // Two files: one group of bars each. Seventeen: the distribution, a bar per choice.
    let two = [
        "examples/battleship/puzzle1.txt",
        "examples/battleship/puzzle10.txt",
    ];
    let many = files_in("examples/battleship", "puzzle");
    for (files, groups) in [
        (two.to_vec(), 2),
        (many.iter().map(|s| s.as_str()).collect(), 1),
    ] {
        let mut args = vec!["bench", "battleship"];
        args.extend(&files);
        args.extend(["--runs", "1", "--format", "svg"]);
        let out = gridsat(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let svg = stdout(&out);
        let image = Image::render(&svg);
        let (width, height) = image.size();
        assert!(width > 600 && height > 100, "{width}x{height}");
        // Each choice's colour fills its legend square and its bars: at least a legend
        // square (12 x 12) plus a one-pixel-tall bar per group.
        let whole = (0.0, 0.0, width as f64, height as f64);
        for (i, choice) in choices.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let pixels = image.count(whole, colour);
            assert!(
                pixels >= 144 + groups * 14,
                "{choice}: {pixels} pixels of {colour}"
            );
            assert!(svg.contains(&format!(">{choice}<")), "{choice} is named");
        }
        if groups == 1 {
            assert!(svg.contains(&format!("{} of {} decided", many.len(), many.len())));
        } else {
            assert!(svg.contains(">puzzle10.txt<"));
        }
    }
}

#[test]
fn a_choice_past_the_time_limit_is_not_decided_and_not_an_error() {
    // Level 6 takes the SAT search without its clause families seconds.
    let out = gridsat(&[
        "bench",
        "sokoban",
        "examples/sokoban/microban-1-10.xsb",
        "--level",
        "6",
        "--choice",
        "sat-bare,astar",
        "--solver",
        "varisat",
        "--timeout",
        "0.3",
        "--runs",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // How far the bare search gets in 0.3 s depends on the machine: on a fast one it finds
    // a plan it cannot prove. Either way the row is there and says it was not decided.
    let bare = text
        .lines()
        .find(|line| line.starts_with("| microban-1-10.xsb #6 | sat-bare/varisat | "))
        .unwrap_or_else(|| panic!("no sat-bare row in\n{text}"));
    assert!(
        bare.contains("over limit") || bare.contains("(fewest not proven)"),
        "{text}"
    );
    assert!(!bare.contains("error"), "{text}");
    assert!(text.contains("| astar | - | - | - |"), "{text}");
    assert!(text.contains("29 pushes, 107 moves"), "{text}");
}

#[test]
fn bad_bench_arguments_are_refused_with_status_2() {
    let file = "examples/battleship/puzzle1.txt";
    for (args, says) in [
        (vec!["--choice", "nope"], "--choice nope: no such choice"),
        (
            vec!["--reference", "nope"],
            "--reference nope: no such choice",
        ),
        (vec!["--runs", "0"], "--runs"),
        (vec!["--solver", "minisat"], "unknown SAT solver 'minisat'"),
    ] {
        let mut all = vec!["bench", "battleship", file];
        all.extend(&args);
        let out = gridsat(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    let missing = gridsat(&["bench", "battleship", "no/such/file.txt"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no/such/file.txt"));
    if !cfg!(feature = "cadical") {
        let out = gridsat(&["bench", "battleship", file, "--solver", "cadical"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("--features cadical"),
            "{}",
            stderr(&out)
        );
    }
}

/// `--solver` on every command: the same answer from every solver this build has (the
/// same bytes where the answer is canonical: every solution or game in gridsat's order, a
/// count; for Sokoban, whose plan may be any optimal one, the proven pushes and moves).
#[test]
fn every_command_answers_the_same_with_every_solver() {
    let (map, _) = first_maps("set-2018-smallmaps", 3);
    let maps = write_temp(&map);
    let cnf = tempfile::NamedTempFile::new().unwrap();
    let cnf_path = cnf.path().to_str().unwrap();
    let written = gridsat(&[
        "battleship",
        "examples/battleship/puzzle10.txt",
        "--dimacs",
        cnf_path,
    ]);
    assert_eq!(written.status.code(), Some(0));
    let commands: Vec<Vec<&str>> = vec![
        vec![
            "star-battle",
            "examples/star-battle/twonot2.txt",
            "--stars",
            "3",
            "--all",
        ],
        vec![
            "star-battle",
            "examples/star-battle/twonot1.txt",
            "--stars",
            "2",
            "--unique",
        ],
        vec!["battleship", "examples/battleship/puzzle10.txt", "--count"],
        vec![
            "battleship",
            "examples/battleship/puzzle1.txt",
            "--determined",
        ],
        vec!["full-board", maps.path().to_str().unwrap()],
        vec!["full-board", maps.path().to_str().unwrap(), "--no-search"],
        vec![
            "sokoban",
            "examples/sokoban/microban-1-10.xsb",
            "--level",
            "3",
            "--method",
            "sat",
        ],
        vec!["count-cnf", cnf_path],
    ];
    for command in &commands {
        let answers: Vec<(Option<i32>, String)> = solvers()
            .iter()
            .map(|solver| {
                let out = gridsat(&[&command[..], &["--solver", solver]].concat());
                let text = stdout(&out);
                let text = if command[0] == "sokoban" {
                    text.lines()
                        .filter(|l| l.starts_with("pushes:") || l.starts_with("moves:"))
                        .collect::<Vec<_>>()
                        .join("\n")
                } else {
                    text
                };
                (out.status.code(), text)
            })
            .collect();
        assert!(answers[0].1.len() > 1, "{command:?}: {answers:?}");
        assert!(
            answers.iter().all(|a| *a == answers[0]),
            "{command:?}: {answers:?}"
        );
        // And the default is varisat.
        let default = gridsat(command);
        if command[0] != "sokoban" {
            assert_eq!(stdout(&default), answers[0].1, "{command:?}");
        }
    }
}
