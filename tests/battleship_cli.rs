//! The `gridsat battleship` command line, end to end: the course's exact output, the modern
//! flags, and errors that name the file and line.

mod common;
use common::{stderr, stdout, write_temp};
use std::path::Path;
use std::process::Output;

fn example(name: &str) -> String {
    format!(
        "{}/examples/battleship/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `gridsat battleship ARGS`.
fn gridsat(args: &[&str]) -> Output {
    common::gridsat(&[&["battleship"], args].concat())
}

#[test]
fn one_solution_in_the_course_format() {
    let out = gridsat(&[&example("puzzle_sample_constraints")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "Solution:\n\
         submarine 0 0\n\
         cruiser 0 2 horizontal\n\
         destroyer 2 1 vertical\n\
         submarine 2 3\n\
         +-----+\n\
         |o <X>|4\n\
         |     |0\n\
         | ^ o |2\n\
         | v   |1\n\
         +-----+\n \
         12121\n"
    );
}

#[test]
fn all_solutions_in_the_course_format() {
    let out = gridsat(&[&example("puzzle_sample"), "find_all_solutions"]);
    assert!(out.status.success());
    let text = stdout(&out);
    // Solution (a) of the spec, exactly as the course handout prints it.
    let a = "Solution:\ncruiser 0 0 horizontal\nsubmarine 0 4\nsubmarine 2 1\n\
             destroyer 2 3 vertical\n+-----+\n|<X> o|4\n|     |0\n| o ^ |2\n|   v |1\n\
             +-----+\n 12121\n";
    assert!(text.contains(a), "{text}");
    assert_eq!(text.matches("Solution:\n").count(), 2);
    assert!(text.ends_with("Found 2 solution(s)\n"), "{text}");
}

#[test]
fn modern_listing_numbers_the_solutions() {
    let out = gridsat(&[&example("puzzle_sample"), "--all"]);
    assert!(out.status.success());
    let text = stdout(&out);
    // The order of the solutions is not specified (docs/battleship.md): solution (a)
    // starts with the cruiser, (b) with a submarine in the corner; both are numbered.
    let first = text.starts_with("Solution 1:\ncruiser 0 0 horizontal\n")
        && text.contains("\nSolution 2:\nsubmarine 0 0\n");
    let second = text.starts_with("Solution 1:\nsubmarine 0 0\n")
        && text.contains("\nSolution 2:\ncruiser 0 0 horizontal\n");
    assert!(first || second, "{text}");
    assert!(text.ends_with(" 12121\n\n2 solutions.\n"), "{text}");
}

#[test]
fn unknown_ships_print_the_type_they_took_and_unknown_sums_draw_as_question_marks() {
    let out = gridsat(&[&example("puzzle_sample_unknowns"), "find_all_solutions"]);
    let text = stdout(&out);
    assert!(!text.contains("unknown"), "{text}");
    assert!(
        text.contains("+-----+\n 121?1\nFound 1 solution(s)\n"),
        "{text}"
    );
    assert!(text.contains("|?\n"), "{text}");
}

#[test]
fn no_solutions() {
    let file = write_temp("board 2 2\nrows 2 2\ncols 2 2\ndestroyer\ndestroyer\n");
    let path = file.path().to_str().unwrap();
    for args in [vec![path], vec![path, "find_all_solutions"]] {
        let out = gridsat(&args);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stdout(&out), "No solutions\n");
    }
    for (flag, text) in [
        ("--unique", "No solution.\n"),
        ("--determined", "No solution.\n"),
        ("--count", "Number of solutions: 0\n"),
        ("--all", "0 solutions.\n"),
    ] {
        let out = gridsat(&[path, flag]);
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert_eq!(stdout(&out), text, "{flag}");
    }
}

#[test]
fn count_limit_and_json() {
    assert_eq!(
        stdout(&gridsat(&[&example("puzzle9"), "--count"])),
        "Number of solutions: 152\n"
    );
    assert_eq!(
        stdout(&gridsat(&[&example("puzzle9"), "--count", "--limit", "10"])),
        "Number of solutions: at least 10 (stopped at --limit)\n"
    );
    let out = gridsat(&[&example("puzzle6"), "--count", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(value["count"], 24);
    assert_eq!(value["complete"], true);
    assert_eq!(value["puzzle"]["rows"], 7);
    assert_eq!(value["puzzle"]["fleet"].as_array().unwrap().len(), 7);
    let out = gridsat(&[
        &example("puzzle6"),
        "--all",
        "--limit",
        "3",
        "--format",
        "json",
    ]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(value["count"], 3);
    assert_eq!(value["complete"], false);
    let solutions = value["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 3);
    assert_eq!(solutions[0]["ships"].as_array().unwrap().len(), 7);
    assert_eq!(solutions[0]["board"].as_array().unwrap().len(), 7);
}

#[test]
fn unique_verdicts() {
    let out = gridsat(&[&example("puzzle9_constraints"), "--unique"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).starts_with("Unique solution:\n"),
        "{}",
        stdout(&out)
    );

    let out = gridsat(&[&example("puzzle_sample"), "--unique"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with("Not unique. Two solutions:\nSolution 1:\n"),
        "{text}"
    );
    assert!(text.contains("\nSolution 2:\n"), "{text}");
    // `<X> o` against `o <X>` in row 0, the destroyer's bottom end in row 3.
    assert!(
        text.ends_with(
            "They differ at (row 0, col 1), (row 0, col 3), (row 3, col 1), (row 3, col 3).\n"
        ),
        "{text}"
    );
    let out = gridsat(&[&example("puzzle_sample"), "--unique", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(value["verdict"], "multiple");
    assert_eq!(value["solutions"].as_array().unwrap().len(), 2);
    assert_eq!(value["differing_cells"].as_array().unwrap().len(), 4);
}

#[test]
fn determined_cells() {
    let out = gridsat(&[&example("puzzle_sample"), "--determined"]);
    assert_eq!(
        stdout(&out),
        "+-----+\n\
         |#?#?#|4\n\
         |.....|0\n\
         |.#.#.|2\n\
         |.?.?.|1\n\
         +-----+\n \
         12121\n\
         16 cells determined (5 ship, 11 water), 4 undetermined.\n"
    );
}

#[test]
fn dimacs_output_projects_on_the_cells() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("sample.cnf");
    let out = gridsat(&[
        &example("puzzle_sample"),
        "--card",
        "totalizer",
        "--dimacs",
        cnf.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The CNF goes to the file; the answer still comes on standard output.
    assert!(stdout(&out).starts_with("Solution:\n"));
    let text = std::fs::read_to_string(&cnf).unwrap();
    let expected_show = format!(
        "c p show {} 0\n",
        (1..=20)
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(text.contains(&expected_show), "{text}");
    assert!(text.lines().any(|l| l.starts_with("p cnf ")));
}

#[test]
fn bad_input_names_the_file_and_line() {
    let cases = [
        (
            "board 2 2\nrows 1 1\ncols 1 1\nfrigate\n",
            4,
            "unknown keyword or ship name 'frigate'",
        ),
        (
            "board 2 2\nrows 1 1 1\ncols 1 1\nsubmarine\n",
            2,
            "wrong number of row sums",
        ),
        (
            "board 2 2\nrows 1 1\ncols 1\nsubmarine\n",
            3,
            "wrong number of column sums",
        ),
        (
            "board 2 2\nrows 1 one\ncols 1 1\n",
            2,
            "row sum 'one' is neither a number nor '?'",
        ),
        ("board 2 2\nrows 1 1\ncols -1 1\n", 3, "column sum '-1'"),
        (
            "board 2 2\nrows 1 1\ncols 1 1\nsubmarine\nconstraint 0 2 o\n",
            5,
            "constraint outside the board",
        ),
        (
            "board 2 2\nrows 1 1\ncols 1 1\nsubmarine\nconstraint 5 0 o\n",
            5,
            "constraint outside the board",
        ),
        (
            "board 2 2\nrows 1 1\ncols 1 1\nsubmarine\nconstraint 0 0 *\n",
            5,
            "unknown constraint character '*'",
        ),
        (
            "board 2 2\nrows 1 1\ncols 1 1\nsubmarine\nconstraint 0 0 <>\n",
            5,
            "unknown constraint character",
        ),
        ("board 2 x\n", 1, "number of columns"),
        (
            "board 101 2\n",
            1,
            "number of rows must be a whole number from 1 to 100",
        ),
        (
            "board 2 2\nrows 1 1\ncols 1 1\ncruiser extra\n",
            4,
            "unexpected 'extra'",
        ),
    ];
    for (text, line, message) in cases {
        let file = write_temp(text);
        let path = file.path().to_str().unwrap().to_string();
        let out = gridsat(&[&path]);
        assert_eq!(out.status.code(), Some(2), "{text:?}");
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!("gridsat: {path}:{line}: ")),
            "{text:?}: {err}"
        );
        assert!(err.contains(message), "{text:?}: {err}");
        assert!(out.stdout.is_empty());
    }
    let file = write_temp("board 2 2\ncols 1 1\nsubmarine\n");
    let err = stderr(&gridsat(&[file.path().to_str().unwrap()]));
    assert!(err.contains("no 'rows' line"), "{err}");
    let err = stderr(&gridsat(&[Path::new("/nonexistent/puzzle.txt")
        .to_str()
        .unwrap()]));
    assert!(
        err.contains("/nonexistent/puzzle.txt: cannot open"),
        "{err}"
    );
}

#[test]
fn usage_errors() {
    let sample = example("puzzle_sample");
    for (args, message) in [
        (
            vec![sample.as_str(), "find_all_solutions", "--count"],
            "course's command line",
        ),
        (
            vec![sample.as_str(), "--unique", "--limit", "2"],
            "--limit goes with --all or --count",
        ),
    ] {
        let out = gridsat(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    // A pairwise encoding of a 100-wide row holding 50 ship cells would never fit in
    // memory; it is refused up front.
    let mut text = String::from("board 1 100\nrows 50\ncols");
    text.push_str(&" ?".repeat(100));
    text.push_str("\nsubmarine\n");
    let file = write_temp(&text);
    let out = gridsat(&[file.path().to_str().unwrap(), "--card", "pairwise"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("choose another --card"),
        "{}",
        stderr(&out)
    );
    // 100x100 with 300 unknown ships: refused before building counters of millions of
    // variables.
    let mut text = String::from("board 100 100\nrows");
    text.push_str(&" ?".repeat(100));
    text.push_str("\ncols");
    text.push_str(&" ?".repeat(100));
    text.push('\n');
    text.push_str(&"unknown\n".repeat(300));
    let file = write_temp(&text);
    let out = gridsat(&[file.path().to_str().unwrap(), "--count"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("too large for gridsat's encoding"),
        "{}",
        stderr(&out)
    );
}
