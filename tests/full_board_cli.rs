//! End-to-end tests of `gridsat full-board`: the course's four map sets byte for byte,
//! the course's stdin interface, edge cases and bad input. The map files under
//! examples/full-board/ are copies of /work/shared/corpus/full-board (see SOURCE.md),
//! the course's expected outputs under examples/full-board/expected/.
//!
//! Exit statuses: a file with a map without a solution exits with 1 (the output is the
//! course's all the same), a missing file with 2.

mod common;
use common::{stdout, write_temp};
use std::path::{Path, PathBuf};
use std::process::Output;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/full-board")
}

/// Runs `gridsat full-board ARGS` with `stdin` as standard input.
fn run(args: &[&str], stdin: &str) -> Output {
    common::gridsat_with_stdin(&[&["full-board"], args].concat(), stdin)
}

fn expected_output(set: &str) -> String {
    std::fs::read_to_string(
        examples()
            .join("expected")
            .join(format!("{set}-smallmaps_expected_out.txt")),
    )
    .unwrap()
}

/// The exit status of a course file: 1 when some map has no solution, else 0.
fn course_status(expected: &str) -> Option<i32> {
    Some(i32::from(expected.contains("\nNo solution\n")))
}

/// The course's interface: the file name on standard input, the exact expected output.
fn assert_course_output(set: &str, extra: &[&str]) {
    let maps = examples().join(format!("{set}-smallmaps.txt"));
    let output = run(extra, &format!("{}\n", maps.display()));
    let expected = expected_output(set);
    assert_eq!(
        output.status.code(),
        course_status(&expected),
        "{set}: {output:?}"
    );
    assert_eq!(stdout(&output), expected, "{set}");
}

#[test]
fn set_2018_byte_exact() {
    assert_course_output("set-2018", &[]);
}

#[test]
fn set_2016_byte_exact() {
    assert_course_output("set-2016", &[]);
}

#[test]
fn set_s16a_byte_exact_from_crlf_input() {
    assert_course_output("set-s16a", &[]);
}

#[test]
fn set_s16b_byte_exact_from_crlf_input() {
    assert_course_output("set-s16b", &[]);
}

/// The bounded search decides every small map before a SAT call; with it off, both
/// encodings must still give the course's output.
#[test]
fn successor_encoding_gives_the_same_output() {
    assert_course_output("set-s16a", &["--encoding", "successor", "--no-search"]);
}

#[test]
fn segments_encoding_without_the_search_gives_the_same_output() {
    for set in ["set-2018", "set-2016", "set-s16a", "set-s16b"] {
        assert_course_output(set, &["--no-search"]);
    }
}

#[test]
fn file_argument_equals_stdin_interface() {
    let maps = examples().join("set-2016-smallmaps.txt");
    let a = run(&[maps.to_str().unwrap()], "");
    let b = run(&[], &format!("{}\r\n", maps.display()));
    // set-2016 has maps without a solution.
    assert_eq!(a.status.code(), Some(1));
    assert_eq!(b.status.code(), Some(1));
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn missing_file_prints_the_course_message() {
    let output = run(&[], "/no/such/file.txt\n");
    assert_eq!(stdout(&output), "File not found.\nComplete\n");
    assert!(!output.status.success());
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn edge_cases_of_the_spec() {
    // One open cell: 0 moves, `S` alone. No open cell: No solution and the echo. A map
    // without a border: the edge stops the ball. Junk between maps is ignored.
    let text = "\
map
\u{2593}\u{2593}\u{2593}
\u{2593} \u{2593}
\u{2593}\u{2593}\u{2593}
endmap
some notes
map
\u{2593}\u{2593}
endmap
map
   
 \u{2593} 
endmap
";
    let file = write_temp(text);
    let output = run(&[file.path().to_str().unwrap()], "");
    // The second map has no solution.
    assert_eq!(output.status.code(), Some(1), "{:?}", output);
    // The U-shaped map has two dead ends, so the game runs between them either way.
    let expected = "\
map
0 moves
solution
\u{2593}\u{2593}\u{2593}
\u{2593}S\u{2593}
\u{2593}\u{2593}\u{2593}
endsolution
endmap
map
No solution
\u{2593}\u{2593}
endmap
map
3 moves
solution
\u{2190}\u{2190}\u{2191}
F\u{2593}S
endsolution
solution
\u{2191}\u{2192}\u{2192}
S\u{2593}F
endsolution
endmap
Complete
";
    assert_eq!(stdout(&output), expected);
}

#[test]
fn bad_input_names_file_line_and_problem() {
    let cases: [(String, usize, &str); 5] = [
        ("map\n  \n   \nendmap\n".into(), 3, "not rectangular"),
        ("map\n \u{2593}\n #\nendmap\n".into(), 3, "'#'"),
        (
            format!("map\n{}\nendmap\n", " ".repeat(61)),
            2,
            "at most 60",
        ),
        (
            format!("map\n{}endmap\n", "  \n".repeat(61)),
            62,
            "more than 60 rows",
        ),
        ("map\n  \n  \n".into(), 1, "without `endmap`"),
    ];
    for (text, line, problem) in cases {
        let file = write_temp(&text);
        let path = file.path().to_str().unwrap().to_string();
        let output = run(&[&path], "");
        assert_eq!(output.status.code(), Some(2), "{problem}");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(
            err.contains(&format!("{path}:{line}:")) && err.contains(problem),
            "{problem}: {err}"
        );
        assert!(output.stdout.is_empty(), "nothing printed for a bad file");
    }
}

#[test]
fn json_lists_moves_start_and_directions() {
    let file = write_temp("map\n   \n \u{2593} \nendmap\nmap\n\u{2593}\nendmap\n");
    let output = run(&[file.path().to_str().unwrap(), "--format", "json"], "");
    // The second map has no solution.
    assert_eq!(output.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let first = &doc["maps"][0];
    assert_eq!(first["moves"], 3);
    assert_eq!(first["count"], 2);
    assert_eq!(first["all_found"], true);
    assert_eq!(first["solutions"][0]["directions"], "ULD");
    assert_eq!(first["solutions"][0]["start"]["row"], 1);
    assert_eq!(first["solutions"][0]["start"]["col"], 2);
    assert_eq!(first["solutions"][1]["directions"], "URD");
    let second = &doc["maps"][1];
    assert_eq!(second["solved"], false);
    assert_eq!(second["proof"], "the map has no open cell");
}

#[test]
fn unique_agrees_with_the_reference_solution_counts() {
    let maps = examples().join("set-2016-smallmaps.txt");
    let output = run(&[maps.to_str().unwrap(), "--unique"], "");
    // Some maps have no solution or several minimum games.
    assert_eq!(output.status.code(), Some(1));
    let verdicts: Vec<String> = stdout(&output)
        .lines()
        .filter(|l| l.starts_with("map at line"))
        .map(|l| l.split(": ").nth(1).unwrap().to_string())
        .collect();
    // From the reference output: per map, the move line and how many solutions follow.
    let expected: Vec<String> = expected_output("set-2016")
        .split("endmap\n")
        .filter(|block| block.starts_with("map\n"))
        .map(|block| {
            let second = block.lines().nth(1).unwrap();
            match block.matches("endsolution").count() {
                0 => "no solution (".to_string(),
                1 => format!("unique, {second}"),
                _ => format!("multiple, {second}"),
            }
        })
        .collect();
    assert_eq!(verdicts.len(), expected.len());
    for (got, want) in verdicts.iter().zip(&expected) {
        assert!(got.starts_with(want.as_str()), "{got} vs {want}");
    }
}

#[test]
fn limit_prints_at_most_n_games_and_says_so() {
    let file = write_temp("map\n   \n \u{2593} \nendmap\n");
    let output = run(&[file.path().to_str().unwrap(), "--limit", "1"], "");
    assert!(output.status.success());
    assert_eq!(stdout(&output).matches("endsolution").count(), 1);
    assert!(String::from_utf8(output.stderr)
        .unwrap()
        .contains("--limit"));
}

/// A large 3-block map (42 x 42 open room with a 1 x 3 block), decided by the bounded
/// search: the line cover allows 81 moves, the search proves 81 impossible and finds
/// exactly one 82-move game, which the program replays before printing.
#[test]
fn large_three_block_map_is_decided_by_the_bounded_search() {
    let map = examples().join("one-map/set-s16a-large-2.txt");
    let output = run(&[map.to_str().unwrap(), "--format", "json"], "");
    assert!(output.status.success(), "{output:?}");
    let doc: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let answer = &doc["maps"][0];
    assert_eq!(answer["moves"], 82, "{answer}");
    assert_eq!(answer["solutions"].as_array().map(Vec::len), Some(1));
    assert_eq!(answer["all_found"], true);
}

/// set-2018 large map 1 (a 48 x 48 room with five isolated single-cell obstacles):
/// the colour and window arguments do not refute it; the bounded search finds no game
/// of at most 95 moves and, continued from the positions its move limit or run test
/// cut, none of any length: "No solution" by the search's proof, the map echoed.
#[test]
fn room_with_isolated_obstacles_is_refuted_by_the_search() {
    let map = examples().join("one-map/set-2018-large-1.txt");
    let output = run(&[map.to_str().unwrap(), "--verbose"], "");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = std::fs::read_to_string(&map).unwrap();
    let expected = format!(
        "{}Complete\n",
        text.replacen("map\n", "map\nNo solution\n", 1)
    );
    assert_eq!(stdout(&output), expected);
    let log = String::from_utf8(output.stderr).unwrap();
    assert!(
        log.contains("at most 95 moves: none")
            && log.contains("any length")
            && !log.contains("horizon"),
        "{log}"
    );
}

/// An `inner` x `inner` room inside a border, with obstacles at `blocked` (inside
/// coordinates, from 1).
fn room_text(inner: usize, blocked: &[(usize, usize)]) -> String {
    let mut text = String::from("map\n");
    for r in 0..inner + 2 {
        for c in 0..inner + 2 {
            let wall = r == 0 || c == 0 || r > inner || c > inner || blocked.contains(&(r, c));
            text.push(if wall { '▓' } else { ' ' });
        }
        text.push('\n');
    }
    text + "endmap\n"
}

/// Issue 20's open rooms: the largest the course allows (58 x 58 inside its border, so
/// 60 x 60) is decided by the bounded search from one start per orbit of its symmetries:
/// 2 * 58 - 1 moves, the 24 games of every square room, with no SAT call; and a room with
/// one obstacle off its axes (no symmetry) is refuted by the search. Minutes in a debug
/// build, a few seconds in release:
/// `cargo test --release --test full_board_cli -- --ignored open_rooms`.
#[test]
#[ignore]
fn open_rooms_of_the_largest_size_are_decided() {
    let room = write_temp(&room_text(58, &[]));
    let output = run(&[room.path().to_str().unwrap(), "--count", "--verbose"], "");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        stdout(&output),
        "map at line 1: 115 moves, 24 minimum games\n"
    );
    assert!(!common::stderr(&output).contains("segments:"));
    let room = write_temp(&room_text(58, &[(10, 38)]));
    let output = run(&[room.path().to_str().unwrap(), "--count"], "");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(stdout(&output).starts_with("map at line 1: no solution (an exhaustive search"));
}

/// A path that exists but is no map file gets the reader's own message, not the course's
/// "File not found."; no name at all on standard input is said so.
#[test]
fn a_directory_a_device_and_an_empty_name_are_named_as_such() {
    let dir = examples();
    for (path, says) in [
        (
            dir.display().to_string(),
            "is a directory, not a puzzle file",
        ),
        (
            "/dev/zero".to_string(),
            "cannot read: more than 67108864 bytes",
        ),
    ] {
        let out = run(&[&path], "");
        assert_eq!(out.status.code(), Some(2), "{path}");
        assert_eq!(stdout(&out), "", "{path}");
        assert!(
            common::stderr(&out).contains(says),
            "{path}: {}",
            common::stderr(&out)
        );
    }
    let out = run(&[], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains("standard input: no map file named"),
        "{}",
        common::stderr(&out)
    );
}
