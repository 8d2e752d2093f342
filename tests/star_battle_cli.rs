//! The modern Star Battle interface and its errors, end to end on the binary.

mod common;
use common::{gridsat, stderr, stdout, write_temp};

#[test]
fn bad_files_name_the_file_and_line_and_exit_2() {
    let cases = [
        (
            "4 3\nL 6\n0 0\n1 0\n0 1\n1 1\n0 2\n1 2\nX 6\n2 0\n2 1\n2 2\n0 3\n1 3\n9 3\n",
            ":15:",
            "outside the grid",
        ),
        (
            "4 3\nL 6\n0 0\n1 0\n0 1\n1 1\n0 2\n1 2\nX 6\n2 0\n2 1\n2 2\n0 3\n1 3\n1 2\n",
            ":15:",
            "already in zone 'L' (line 8)",
        ),
        (
            "2 2\nA 3\n0 0\n1 0\n0 1\n",
            ":5:",
            "(x=1, y=1) belongs to no zone",
        ),
        (
            "2 2\nAB 4\n0 0\n1 0\n0 1\n1 1\n",
            ":2:",
            "longer than one character",
        ),
        (
            "2 2\nA 4\n0 0\n1 0\n0 1\n",
            ":5:",
            "found the end of the file",
        ),
        (
            "2 2\nA 3\n0 0\n1 0\n0 1\n1 1\n",
            ":6:",
            "the zone before it declares too few cells",
        ),
        ("2\nAB\nABC\n", ":3:", "first row (line 2) has 2"),
    ];
    for (text, line, message) in cases {
        let f = write_temp(text);
        let path = f.path().to_str().unwrap();
        let o = gridsat(&["star-battle", path, "--stars", "1"]);
        assert_eq!(o.status.code(), Some(2), "{text:?}");
        let err = stderr(&o);
        assert!(err.contains(&format!("{path}{line}")), "{err}");
        assert!(err.contains(message), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    let p = "examples/star-battle/custom1.txt";
    for (args, message) in [
        (
            vec!["star-battle", "no/such/file.txt", "--stars", "1"],
            "cannot open",
        ),
        (vec!["star-battle", p], "--stars"),
        (
            vec!["star-battle", p, "-", "1", "show", "all_solutions"],
            "'count' or 'print'",
        ),
        (
            vec!["star-battle", p, "-", "1", "count", "every"],
            "'one_solution' or 'all_solutions'",
        ),
        (
            vec!["star-battle", p, "-", "x", "count", "all_solutions"],
            "stars per zone",
        ),
        (vec!["star-battle", p, "-", "1"], "INPUT OUTPUT S"),
        (
            vec!["star-battle", p, "--stars", "1", "--card", "magic"],
            "unknown cardinality encoding",
        ),
        (
            vec!["star-battle", p, "--stars", "1", "--limit", "3"],
            "--limit goes with --all or --count",
        ),
    ] {
        let o = gridsat(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn uniqueness_verdicts_and_exit_codes() {
    let o = gridsat(&[
        "star-battle",
        "examples/star-battle/twonot1.txt",
        "--stars",
        "2",
        "--unique",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("Unique solution:\n"));

    let o = gridsat(&[
        "star-battle",
        "examples/star-battle/custom1.txt",
        "--stars",
        "2",
        "--rule",
        "at-most",
        "--unique",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(text.starts_with("Not unique. Two solutions:\n"), "{text}");
    assert!(text.contains("They differ at (row"), "{text}");

    let o = gridsat(&[
        "star-battle",
        "examples/star-battle/custom1.txt",
        "--stars",
        "1",
        "--unique",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "No solution.\n");
}

#[test]
fn letter_grid_with_its_own_star_count() {
    let o = gridsat(&[
        "star-battle",
        "examples/star-battle/queens8.txt",
        "--unique",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "unique");
    assert_eq!(v["puzzle"]["rule"], "exact");
    let stars = v["solutions"][0]["stars"].as_array().unwrap();
    assert_eq!(stars.len(), 8);
}

#[test]
fn all_with_limit_and_json_count() {
    let p = "examples/star-battle/custom2.txt";
    let o = gridsat(&[
        "star-battle",
        p,
        "--stars",
        "2",
        "--rule",
        "at-most",
        "--all",
        "--limit",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(text.matches("Solution ").count(), 5);
    assert!(
        text.ends_with("5 solutions (stopped at --limit 5; there are more).\n"),
        "{text}"
    );

    let at_most_2 = ["star-battle", p, "--stars", "2", "--rule", "at-most"];
    let json = |mode: &str| -> serde_json::Value {
        let o = gridsat(&[&at_most_2[..], &[mode, "--format", "json"]].concat());
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let v = json("--all");
    assert_eq!(v["count"], 142);
    assert_eq!(v["complete"], true);
    assert_eq!(v["solutions"].as_array().unwrap().len(), 142);

    let v = json("--count");
    assert_eq!(v["count"], 142);
    assert_eq!(v["complete"], true);

    // A limit bounds a count as it bounds a listing: a lower bound when there are more
    // solutions than the limit, the exact number when not (one solution past the limit
    // is looked for, so a limit equal to the count gives the exact count).
    let count = |limit: &str| {
        let o = gridsat(&[&at_most_2[..], &["--count", "--limit", limit]].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(
        count("100"),
        "Number of solutions: at least 100 (stopped at --limit)\n"
    );
    assert_eq!(count("142"), "Number of solutions: 142\n");
    assert_eq!(
        count("141"),
        "Number of solutions: at least 141 (stopped at --limit)\n"
    );
    assert_eq!(count("143"), "Number of solutions: 142\n");
}

#[test]
fn every_cardinality_encoding_gives_the_same_count() {
    for card in ["pairwise", "sequential", "totalizer", "sorting-network"] {
        let o = gridsat(&[
            "star-battle",
            "examples/star-battle/custom2.txt",
            "--stars",
            "2",
            "--rule",
            "at-most",
            "--count",
            "--card",
            card,
        ]);
        assert_eq!(stdout(&o), "Number of solutions: 142\n", "{card}");
    }
}

#[test]
fn determined_board_marks_fixed_and_open_cells() {
    let o = gridsat(&[
        "star-battle",
        "examples/star-battle/custom1.txt",
        "--stars",
        "2",
        "--rule",
        "at-most",
        "--determined",
    ]);
    assert_eq!(o.status.code(), Some(0));
    // The three solutions (see out_custom1_2_all.txt) share the stars at (0,0) and (2,0)
    // and the empty cells of columns 0 and 1.
    assert_eq!(
        stdout(&o),
        "@.?\n..?\n@.?\n..?\n8 cells determined (2 stars, 6 empty), 4 undetermined.\n"
    );
}

#[test]
fn dimacs_output_has_header_and_projection() {
    let f = tempfile::NamedTempFile::new().unwrap();
    let path = f.path().to_str().unwrap();
    let o = gridsat(&[
        "star-battle",
        "examples/star-battle/custom1.txt",
        "--stars",
        "1",
        "--rule",
        "at-most",
        "--dimacs",
        path,
        "--stats",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(path).unwrap();
    let show: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("c p show"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(show.len(), 3 + 12 + 1, "12 cells projected, then 0");
    let header = text.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let clauses: usize = header.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert_eq!(
        text.lines()
            .filter(|l| l.ends_with(" 0") && !l.starts_with('c'))
            .count(),
        clauses
    );
    assert!(stderr(&o).contains("zones"));
}

/// twonot2 with two stars has far too many solutions to count in a second: `--timeout`
/// ends the run with what was proven (a lower bound) and exit status 4, in every mode
/// that can take that long.
#[test]
fn timeout_gives_up_with_what_was_proven_and_exit_4() {
    let p = "examples/star-battle/twonot2.txt";
    let o = gridsat(&[
        "star-battle",
        p,
        "--stars",
        "2",
        "--count",
        "--timeout",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("Number of solutions: at least "), "{text}");
    assert!(text.contains("gave up at --timeout"), "{text}");

    let o = gridsat(&[
        "star-battle",
        p,
        "--stars",
        "2",
        "--count",
        "--timeout",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(4));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["gave_up"], "time limit");

    // A listing under a limit it cannot reach in time prints the solutions it found, each
    // checked, and says that there are at least that many.
    let o = gridsat(&[
        "star-battle",
        p,
        "--stars",
        "2",
        "--all",
        "--limit",
        "10000000",
        "--timeout",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(4));
    let text = stdout(&o);
    let found = text.matches("Solution ").count();
    assert!(
        text.ends_with(&format!(
            "{found} solutions found; gave up at --timeout after {} s: there are at least {found}, perhaps more.\n",
            text.rsplit("after ").next().unwrap().split(' ').next().unwrap()
        )),
        "{text}"
    );
}

#[test]
fn timeouts_must_be_finite_positive_numbers() {
    for bad in ["0", "-5", "NaN", "inf", "1e20", "soon"] {
        let flag = format!("--timeout={bad}");
        let o = gridsat(&[
            "star-battle",
            "examples/star-battle/twonot1.txt",
            "--stars",
            "2",
            &flag,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("--timeout"), "{bad}: {}", stderr(&o));
    }
}
