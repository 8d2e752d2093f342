//! The shared flags on `gridsat full-board`: the modes (`--count`, `--determined`,
//! `--unique`, `--limit` without `--all`), `--timeout` (gave up, exit 4, the remaining
//! maps still answered), `--dimacs` (the written formula checked by loading it back),
//! the bounded file-name line, and the map-file rules (what is read liberally, what is
//! refused), each against the course's expected outputs where there is one.

mod common;
use common::{gridsat, stderr, stdout, write_temp};
use gridsat::dimacs::parse_dimacs;
use gridsat::solver::{count_all, Session};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn examples() -> PathBuf {
    common::root().join("examples/full-board")
}

fn small(set: &str) -> String {
    examples()
        .join(format!("{set}-smallmaps.txt"))
        .display()
        .to_string()
}

fn expected_output(set: &str) -> String {
    common::read(
        &examples()
            .join("expected")
            .join(format!("{set}-smallmaps_expected_out.txt")),
    )
}

/// Per map of the course's expected output: its move line and its solution boards
/// (none for "No solution").
fn expected_maps(set: &str) -> Vec<(String, Vec<Vec<String>>)> {
    let text = expected_output(set);
    text.split("endmap\n")
        .filter(|block| block.starts_with("map\n"))
        .map(|block| {
            let second = block.lines().nth(1).unwrap().to_string();
            let mut boards: Vec<Vec<String>> = Vec::new();
            let mut inside = false;
            for line in block.lines() {
                match line {
                    "solution" => {
                        inside = true;
                        boards.push(Vec::new());
                    }
                    "endsolution" => inside = false,
                    row if inside => boards.last_mut().unwrap().push(row.to_string()),
                    _ => {}
                }
            }
            (second, boards)
        })
        .collect()
}

/// The lines of the `map` lines of a map file.
fn map_lines(path: &str) -> Vec<usize> {
    common::read(Path::new(path))
        .lines()
        .enumerate()
        .filter(|(_, line)| line.trim() == "map")
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn count_gives_the_number_of_minimum_games_of_each_map() {
    for set in ["set-2018", "set-2016", "set-s16a", "set-s16b"] {
        let maps = expected_maps(set);
        let lines = map_lines(&small(set));
        let output = gridsat(&["full-board", &small(set), "--count"]);
        let no_solution = maps.iter().any(|(second, _)| second == "No solution");
        assert_eq!(output.status.code(), Some(i32::from(no_solution)), "{set}");
        let expected: String = maps
            .iter()
            .zip(&lines)
            .map(|((second, boards), line)| {
                if second == "No solution" {
                    format!("map at line {line}: no solution")
                } else {
                    let games = boards.len();
                    let word = if games == 1 { "game" } else { "games" };
                    format!("map at line {line}: {second}, {games} minimum {word}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let got: String = stdout(&output)
            .lines()
            // The proof of "no solution" follows in parentheses.
            .map(|l| l.split(" (").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(got, expected, "{set}");
        // JSON: the same numbers, and no solutions listed.
        let output = gridsat(&["full-board", &small(set), "--count", "--format", "json"]);
        let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        for (map, (second, boards)) in doc["maps"].as_array().unwrap().iter().zip(&maps) {
            if second == "No solution" {
                assert_eq!(map["solved"], false);
            } else {
                assert_eq!(map["count"], boards.len(), "{set}: {map}");
                assert_eq!(format!("{} moves", map["moves"]), *second);
                assert_eq!(map["all_found"], true);
                assert!(map.get("solutions").is_none(), "{map}");
            }
        }
    }
}

#[test]
fn count_with_a_limit_says_at_least() {
    // set-2016 map 2 (line 11) has three minimum games.
    let output = gridsat(&["full-board", &small("set-2016"), "--count", "--limit", "2"]);
    assert!(
        stdout(&output).contains("map at line 11: 17 moves, at least 2 minimum games\n"),
        "{}",
        stdout(&output)
    );
}

/// The board where the course's solutions agree, '?' where they differ.
fn agreement(boards: &[Vec<String>]) -> Vec<String> {
    let grids: Vec<Vec<Vec<char>>> = boards
        .iter()
        .map(|b| b.iter().map(|row| row.chars().collect()).collect())
        .collect();
    let mut agreed = grids[0].clone();
    for grid in &grids[1..] {
        for (row, other) in agreed.iter_mut().zip(grid) {
            for (mark, theirs) in row.iter_mut().zip(other) {
                if mark != theirs {
                    *mark = '?';
                }
            }
        }
    }
    agreed
        .into_iter()
        .map(|r| r.into_iter().collect())
        .collect()
}

#[test]
fn determined_shows_where_every_minimum_game_agrees() {
    let mut differing = 0;
    for set in ["set-2018", "set-2016", "set-s16a", "set-s16b"] {
        let maps = expected_maps(set);
        let lines = map_lines(&small(set));
        let output = gridsat(&["full-board", &small(set), "--determined"]);
        let mut expected = String::new();
        for ((second, boards), line) in maps.iter().zip(&lines) {
            if second == "No solution" {
                let got = stdout(&output);
                assert!(got.contains(&format!("map at line {line}: no solution (")));
                continue;
            }
            let word = if boards.len() == 1 { "game" } else { "games" };
            expected.push_str(&format!(
                "map at line {line}: {second}, {} minimum {word} ('?' where they differ)\n",
                boards.len()
            ));
            for row in agreement(boards) {
                differing += usize::from(row.contains('?'));
                expected.push_str(&row);
                expected.push('\n');
            }
            expected.push('\n');
        }
        let got: String = stdout(&output)
            .split_inclusive('\n')
            .filter(|l| !l.contains(": no solution ("))
            .collect();
        assert_eq!(got, expected, "{set}");
    }
    assert!(differing > 0, "some map has games that differ");
}

#[test]
fn determined_in_json() {
    let file = write_temp("map\n   \n \u{2593} \nendmap\n");
    let path = file.path().to_str().unwrap();
    let output = gridsat(&["full-board", path, "--determined", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // The two games go round the block either way: every open cell differs.
    assert_eq!(
        doc["maps"][0]["determined"],
        serde_json::json!(["???", "?\u{2593}?"])
    );
    assert_eq!(doc["maps"][0]["count"], 2);
}

#[test]
fn limit_works_without_all_and_all_is_the_default() {
    let path = small("set-s16b");
    let plain = gridsat(&["full-board", &path]);
    let all = gridsat(&["full-board", &path, "--all"]);
    assert_eq!(plain.stdout, all.stdout);
    assert_eq!(stdout(&plain), expected_output("set-s16b"));
    let limited = gridsat(&["full-board", &path, "--limit", "1"]);
    let all_limited = gridsat(&["full-board", &path, "--all", "--limit", "1"]);
    assert_eq!(limited.stdout, all_limited.stdout);
    assert!(stdout(&limited)
        .split("endmap\n")
        .all(|block| block.matches("endsolution").count() <= 1));
}

#[test]
fn unique_exits_with_1_unless_every_map_is_unique() {
    let unique = write_temp("map\n\u{2593}\u{2593}\n\u{2593} \nendmap\n");
    let output = gridsat(&["full-board", unique.path().to_str().unwrap(), "--unique"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "map at line 1: unique, 0 moves\n\u{2593}\u{2593}\n\u{2593}S\n\n"
    );
    let several = write_temp("map\n   \n \u{2593} \nendmap\n");
    let output = gridsat(&["full-board", several.path().to_str().unwrap(), "--unique"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).starts_with("map at line 1: multiple, 3 moves\n"));
}

#[test]
fn timeout_gives_up_on_one_map_and_answers_the_rest() {
    // set-2018 large map 1 takes about 0.6 s (the bounded search refutes it), far past the
    // 0.05 s limit; then a small map.
    let large = common::read(&examples().join("one-map/set-2018-large-1.txt"));
    let file = write_temp(&format!(
        "{large}map\n\u{2593}\u{2593}\n\u{2593} \nendmap\n"
    ));
    let path = file.path().to_str().unwrap();
    let began = Instant::now();
    let output = gridsat(&["full-board", path, "--timeout", "0.05"]);
    assert!(began.elapsed() < Duration::from_secs(20));
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let text = stdout(&output);
    let first = text.split("endmap\n").next().unwrap();
    assert!(
        first.starts_with("map\nGave up (the time limit of 0.05 s): "),
        "{first}"
    );
    // The map is echoed, as for "No solution".
    assert!(first.ends_with(&large[large.find('\n').unwrap() + 1..large.rfind("endmap").unwrap()]));
    assert!(text.ends_with(
        "map\n0 moves\nsolution\n\u{2593}\u{2593}\n\u{2593}S\nendsolution\nendmap\nComplete\n"
    ));
    let output = gridsat(&["full-board", path, "--timeout", "0.05", "--format", "json"]);
    assert_eq!(output.status.code(), Some(4));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let gave_up = &doc["maps"][0];
    assert_eq!(gave_up["solved"], serde_json::Value::Null);
    assert_eq!(gave_up["gave_up"], "the time limit of 0.05 s");
    // Whatever was proven in the time: the line cover's bound is 94.
    let at_least = gave_up["at_least"].as_u64().unwrap();
    assert!(at_least <= 94, "{gave_up}");
    assert!(gave_up["proven"].is_string());
    assert_eq!(doc["maps"][1]["moves"], 0);
    let output = gridsat(&["full-board", path, "--timeout", "0.05", "--count"]);
    assert_eq!(output.status.code(), Some(4));
    let text = stdout(&output);
    let first = text.lines().next().unwrap();
    // On a loaded machine the limit may come before the line cover has proven anything.
    let proven = first
        .strip_prefix("map at line 1: gave up (the time limit of 0.05 s): ")
        .unwrap_or_else(|| panic!("{first}"));
    assert!(
        proven.starts_with("no game has fewer than ") || proven == "nothing was proven yet",
        "{first}"
    );
    assert!(
        text.ends_with("map at line 53: 0 moves, 1 minimum game\n"),
        "{text}"
    );
}

#[test]
fn the_file_name_line_is_read_with_a_bound() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridsat"))
        .arg("full-board")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Far more than the bound, with no line end (like /dev/zero); the program stops
    // reading, so a write may fail with a broken pipe.
    let _ = stdin.write_all(&vec![0u8; 1 << 20]);
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("longer than 4096 bytes"),
        "{}",
        stderr(&output)
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn a_file_name_that_is_not_utf8_is_said_to_come_from_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridsat"))
        .arg("full-board")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"maps-\xff\xfe.txt\n").unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "gridsat: standard input: the map file's name is not UTF-8\n"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn pairwise_is_refused_for_the_move_counter() {
    let output = gridsat(&["full-board", &small("set-2016"), "--card", "pairwise"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--card pairwise"));
}

/// Writes the formula of `map` (a file of one map) with `extra` flags and loads it back.
fn written_formula(map: &Path, extra: &[&str]) -> gridsat_encodings::cnf::Cnf {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("map.cnf");
    let mut args = vec![
        "full-board",
        map.to_str().unwrap(),
        "--dimacs",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = gridsat(&args);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        stderr(&output)
    );
    parse_dimacs(&common::read(&out)).expect("gridsat writes valid DIMACS")
}

/// On every map of set-2016, in both encodings: the formula written at the minimum is
/// satisfiable, the one at minimum - 1 is not, and for a map without a game it is
/// unsatisfiable; the segments formula's projected model count is the number of
/// minimum games the course lists.
#[test]
fn the_dimacs_formula_has_exactly_the_minimum_games() {
    let text = common::read(Path::new(&small("set-2016")));
    let maps: Vec<&str> = text.split("endmap").filter(|m| m.contains("map")).collect();
    let expected = expected_maps("set-2016");
    assert_eq!(maps.len(), expected.len());
    let (mut counted, mut refuted) = (0, 0);
    for (i, (map, (second, boards))) in maps.iter().zip(&expected).enumerate() {
        let file = write_temp(&format!("{}endmap\n", map.trim_start_matches(['\r', '\n'])));
        if second == "No solution" {
            for encoding in ["segments", "successor"] {
                let cnf = written_formula(file.path(), &["--encoding", encoding]);
                assert!(
                    Session::new(&cnf).solve().unwrap().is_none(),
                    "map {i} {encoding}"
                );
            }
            refuted += 1;
            continue;
        }
        let moves: usize = second.trim_end_matches(" moves").parse().unwrap();
        for encoding in ["segments", "successor"] {
            let at_minimum = written_formula(file.path(), &["--encoding", encoding]);
            assert!(
                Session::new(&at_minimum).solve().unwrap().is_some(),
                "map {i} {encoding}"
            );
            let below = (moves - 1).to_string();
            let fewer =
                written_formula(file.path(), &["--encoding", encoding, "--horizon", &below]);
            assert!(
                Session::new(&fewer).solve().unwrap().is_none(),
                "map {i} {encoding}"
            );
            // The successor formula's count is right too, but the counting engine can
            // take minutes on it (its comparators are not functions of the steps).
            if encoding == "segments" {
                let count = count_all(&at_minimum).unwrap().to_u64();
                assert_eq!(count, Some(boards.len() as u64), "map {i}");
            }
        }
        counted += 1;
    }
    assert!(counted >= 5 && refuted >= 1, "{counted} {refuted}");
}

#[test]
fn dimacs_with_a_placeholder_writes_every_map() {
    let dir = tempfile::tempdir().unwrap();
    let pattern = dir.path().join("map-{}.cnf");
    let output = gridsat(&[
        "full-board",
        &small("set-2016"),
        "--count",
        "--dimacs",
        pattern.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    for i in 1..=10 {
        let path = dir.path().join(format!("map-{i}.cnf"));
        let cnf = parse_dimacs(&common::read(&path)).unwrap();
        assert!(cnf.num_clauses() > 0, "map {i}");
    }
    // Without the placeholder only map 1, with a note.
    let single = dir.path().join("one.cnf");
    let output = gridsat(&[
        "full-board",
        &small("set-2016"),
        "--count",
        "--dimacs",
        single.to_str().unwrap(),
    ]);
    assert!(single.exists());
    assert!(
        stderr(&output).contains("put {} in the file name"),
        "{}",
        stderr(&output)
    );
}

/// What the parser reads liberally gives the course's output unchanged; what it refuses
/// names the line.
#[test]
fn map_file_rules_end_to_end() {
    let course = common::read(Path::new(&small("set-2016")));
    let liberal = format!(
        "\u{feff}{}",
        course
            .replace("endmap\n", "endmap  \n")
            .replace("map\n", "map \t\n")
            .replace('\n', "\r\n")
    );
    let file = write_temp(&liberal);
    let output = gridsat(&["full-board", file.path().to_str().unwrap()]);
    assert_eq!(stdout(&output), expected_output("set-2016"));
    // Trailing spaces on every row of the first map: refused at its first row.
    let first_end = course.find("endmap").unwrap();
    let padded: String = course[..first_end]
        .lines()
        .map(|l| {
            if l.contains('\u{2593}') {
                format!("{l} \n")
            } else {
                format!("{l}\n")
            }
        })
        .collect::<String>()
        + &course[first_end..];
    let file = write_temp(&padded);
    let path = file.path().to_str().unwrap();
    let output = gridsat(&["full-board", path]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(&format!("{path}:2: every row of this map ends in 1 space")),
        "{}",
        stderr(&output)
    );
    assert!(output.stdout.is_empty());
}
