//! `gridsat count-cnf` end to end: counts, listing, JSON, `--timeout`, errors naming file
//! and line, and the DIMACS grammar against seeded mutants of the files the project
//! writes (in process, and a sample through the binary).

mod common;
use common::mutate::{binary_survives, survives};
use common::{read, root, stderr, stdout, Rng};
use gridsat::dimacs::parse_dimacs_bytes;
use std::io::Write;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

fn run(text: &str, extra: &[&str]) -> (Output, String) {
    let mut file = tempfile::Builder::new().suffix(".cnf").tempfile().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    let path = file.path().display().to_string();
    let output = common::gridsat(&[&["count-cnf"], extra, &[path.as_str()]].concat());
    (output, path)
}

#[test]
fn counts_all_models_without_a_show_line() {
    // x1=0 forces x2, x3 free: 2; x1=1 forces x3, x2 free: 2.
    let (out, _) = run("p cnf 3 2\n1 2 0\n-1 3 0\n", &[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "4\n");
}

#[test]
fn honours_the_projection_and_lists_it() {
    let text = "c p show 1 2 0\np cnf 3 2\n1 2 0\n-1 3 0\n";
    let (out, _) = run(text, &[]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "3\n");
    let (out, _) = run(text, &["--list"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.pop(), Some("3"));
    lines.sort();
    assert_eq!(lines, ["v -1 2 0", "v 1 -2 0", "v 1 2 0"]);
}

#[test]
fn unsatisfiable_and_sampling_set_forms() {
    // No model: the count 0, and exit status 1 as for a puzzle without a solution.
    let (out, _) = run("p cnf 1 2\n1 0\n-1 0\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "0\n");
    // `c ind` (the sampling-set spelling) projects like `c p show`: x2 is free here,
    // x3 is forced by x1 | x3 only when x1 is false, so {x1, x2} take all 4 values.
    let (out, _) = run("c ind 1 2 0\np cnf 3 1\n1 3 0\n", &[]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "4\n");
    let (out, _) = run("c ind 1 2 0\np cnf 3 1\n1 3 0\n", &["--list"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 5);
}

#[test]
fn an_empty_projection_has_one_model_when_the_formula_is_satisfiable() {
    // `c p show 0` projects on no variable: every model projects to the empty
    // assignment, so 1 model (not the 3 of the whole formula), or 0 when there is none.
    let (out, _) = run("p cnf 2 1\nc p show 0\n1 2 0\n", &[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "1\n");
    let (out, _) = run("c p show 0\np cnf 1 2\n1 0\n-1 0\n", &[]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "0\n");
    let (out, _) = run("p cnf 2 1\nc p show 0\n1 2 0\n", &["--list"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "v 0\n1\n");
}

#[test]
fn counts_beyond_u64() {
    let (out, _) = run("p cnf 100 0\n", &[]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "1267650600228229401496703205376\n"
    );
}

#[test]
fn errors_name_file_and_line() {
    let (out, path) = run("p cnf 2 1\n1 5 0\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!("{path}:2: literal 5 names a variable beyond")),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn json_gives_the_count_and_the_listing() {
    let text = "c p show 1 2 0\np cnf 3 2\n1 2 0\n-1 3 0\n";
    let (out, _) = run(text, &["--format", "json"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "{\"count\":3,\"complete\":true}\n");
    let (out, _) = run(text, &["--format", "json", "--list"]);
    assert_eq!(
        stdout(&out),
        "{\"solutions\":[[-1,2],[1,-2],[1,2]],\"count\":3,\"complete\":true}\n"
    );
    // Beyond 64 bits the count is a string of digits, which JSON readers keep exact.
    let (out, _) = run("p cnf 70 0\n", &["--format", "json"]);
    assert_eq!(
        stdout(&out),
        "{\"count\":\"1180591620717411303424\",\"complete\":true}\n"
    );
}

#[test]
fn stats_go_to_standard_error() {
    let (out, _) = run("p cnf 3 2\n1 2 0\n-1 3 0\n", &["--stats"]);
    assert_eq!(stdout(&out), "4\n");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    assert_eq!(lines[0], "variables 3, clauses 2, projected 3");
    // The default order races two engines and names the one that answered.
    assert!(lines[1].starts_with("order: auto: "), "{stderr}");
    assert!(lines[1].ends_with("finished first"), "{stderr}");
    assert!(lines[2].starts_with("search: "), "{stderr}");
    assert!(lines[3].starts_with("cache: "), "{stderr}");
    // Words for a reader, not a Rust debug dump.
    assert!(!stderr.contains("SearchStats"), "{stderr}");
}

/// A random 3-CNF of 300 variables and 900 clauses: the engine (no learning) needs far
/// more than a few seconds for it.
fn long_formula() -> String {
    let mut rng = Rng::new(0xc0ff_ee00);
    let mut text = String::from("p cnf 300 900\n");
    for _ in 0..900 {
        for _ in 0..3 {
            let var = 1 + rng.below(300);
            let sign = if rng.chance(50) { "-" } else { "" };
            text.push_str(&format!("{sign}{var} "));
        }
        text.push_str("0\n");
    }
    text
}

/// `--timeout` stops the count at the deadline with the engine's proven bound, `at
/// least N` (or `"complete": false` in JSON), and exit status 4.
#[test]
fn a_timeout_stops_with_at_least_n_and_exit_status_4() {
    let text = long_formula();
    for args in [
        &["--timeout", "0.5"][..],
        &["--timeout", "0.5", "--list"],
        &["--timeout", "0.5", "--format", "json"],
    ] {
        let began = Instant::now();
        let (out, _) = run(&text, args);
        let took = began.elapsed();
        assert_eq!(out.status.code(), Some(4), "{args:?}");
        assert!(took < Duration::from_secs(3), "{args:?} took {took:?}");
        let stdout = stdout(&out);
        let number = if args.contains(&"json") {
            let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(value["complete"], false, "{stdout}");
            value["count"].to_string().trim_matches('"').to_string()
        } else {
            let last = stdout.lines().last().unwrap_or("").to_string();
            assert!(stdout.lines().count() == 1, "{args:?}: {stdout}");
            last.strip_prefix("at least ").expect(&stdout).to_string()
        };
        assert!(number.chars().all(|c| c.is_ascii_digit()), "{stdout}");
    }
    // A count that ends before the deadline is the whole answer.
    let (out, _) = run("p cnf 3 2\n1 2 0\n-1 3 0\n", &["--timeout", "5"]);
    assert_eq!(
        (out.status.code(), stdout(&out)),
        (Some(0), "4\n".to_string())
    );
    // Bad values are refused as usage errors.
    for bad in ["0", "-1", "soon"] {
        let (out, _) = run("p cnf 1 0\n", &["--timeout", bad]);
        assert_eq!(out.status.code(), Some(2), "--timeout {bad}");
    }
}

/// The DIMACS files the project writes (`--dimacs` of a Star Battle and a Battleship
/// puzzle) and one in the old SATLIB layout, with the number of solutions of each.
fn corpus() -> Vec<(String, u128)> {
    [
        ("star-battle-custom1-s1", 17),
        ("star-battle-custom2-s2", 142),
        ("battleship-sample", 2),
        ("satlib-layout", 6),
    ]
    .iter()
    .map(|&(name, count)| {
        let path = root().join(format!("tests/data/dimacs/{name}.cnf"));
        (read(&path), count)
    })
    .collect()
}

#[test]
fn the_corpus_counts_as_its_puzzles_do() {
    for (text, expected) in corpus() {
        let (out, path) = run(&text, &[]);
        assert_eq!(stdout(&out), format!("{expected}\n"), "{path}");
    }
}

#[test]
fn the_grammar_meets_every_mutant_with_a_formula_or_a_located_error() {
    let corpus: Vec<String> = corpus().into_iter().map(|(text, _)| text).collect();
    let name = Path::new("formula.cnf");
    let (accepted, refused) = survives("formula.cnf", &corpus, 1000, 0xd1ac_5eed, |bytes| {
        parse_dimacs_bytes(name, bytes)
    });
    // Both outcomes must occur, or the mutants test nothing.
    assert!(
        accepted > 100 && refused > 1000,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn the_binary_answers_mutants_with_a_documented_exit_status() {
    let corpus: Vec<String> = corpus().into_iter().map(|(text, _)| text).collect();
    binary_survives(&corpus, 50, 0xd1ac, |path| {
        ["count-cnf", path, "--timeout", "1"]
            .map(String::from)
            .to_vec()
    });
}

/// Both decision orders give the count Ganak gives on two random 3-CNFs (one projected),
/// and the same listing on a small formula.
#[test]
fn both_decision_orders_count_alike() {
    for (name, expected) in [
        ("random-50-1.0", "969396710344\n"),
        ("projected-50-2.0", "701818\n"),
    ] {
        let path = format!("tests/data/dimacs/{name}.cnf");
        for order in ["fixed", "dynamic"] {
            let out = common::gridsat(&["count-cnf", &path, "--order", order]);
            assert!(out.status.success(), "{name} {order}");
            assert_eq!(stdout(&out), expected, "{name} {order}");
        }
    }
    let path = "tests/data/dimacs/star-battle-custom2-s2.cnf";
    let list = |order: &str| {
        stdout(&common::gridsat(&[
            "count-cnf",
            path,
            "--list",
            "--order",
            order,
        ]))
    };
    let fixed = list("fixed");
    assert!(fixed.ends_with("142\n"), "{fixed}");
    let sorted = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&fixed), sorted(&list("dynamic")));
}

/// `--eliminate` resolves the unprojected variables away first: the count Ganak gives
/// on a random 3-CNF projected on half its variables (one the engine does not finish
/// in 20 s without it), and on the corpus the same count and listing as without, every
/// listed model completed (count-cnf checks each against the whole formula).
#[test]
fn elimination_counts_and_lists_alike() {
    let path = "tests/data/dimacs/projected-75-1.0.cnf";
    let out = common::gridsat(&[
        "count-cnf",
        path,
        "--order",
        "dynamic",
        "--eliminate",
        "--stats",
    ]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "23140237312\n");
    assert!(
        stderr(&out)
            .contains("elimination: 35 unprojected variables resolved away before the search"),
        "{}",
        stderr(&out)
    );
    let sorted = |out: Output| {
        assert!(out.status.success());
        let mut lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    for name in [
        "star-battle-custom2-s2",
        "battleship-sample",
        "satlib-layout",
    ] {
        let path = format!("tests/data/dimacs/{name}.cnf");
        let with = common::gridsat(&["count-cnf", &path, "--list", "--eliminate"]);
        let without = common::gridsat(&["count-cnf", &path, "--list"]);
        assert_eq!(sorted(with), sorted(without), "{name}");
    }
}

/// The default order races the fixed order against the dynamic one with elimination and
/// answers with the first: the dynamic one on a projected random 3-CNF, the fixed one on
/// a puzzle's formula (twonot2, which the dynamic order does not finish in 20 s).
#[test]
fn the_default_order_answers_with_the_faster_racer() {
    let out = common::gridsat(&[
        "count-cnf",
        "tests/data/dimacs/projected-75-1.0.cnf",
        "--stats",
    ]);
    assert_eq!(stdout(&out), "23140237312\n");
    assert!(
        stderr(&out).contains("order: auto: dynamic with elimination finished first"),
        "{}",
        stderr(&out)
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twonot2.cnf");
    let path = path.to_str().unwrap();
    let board = root().join("examples/star-battle/twonot2.txt");
    let written = common::gridsat(&[
        "star-battle",
        board.to_str().unwrap(),
        "--stars",
        "1",
        "--rule",
        "at-most",
        "--count",
        "--dimacs",
        path,
    ]);
    assert!(written.status.success());
    let out = common::gridsat(&["count-cnf", path, "--stats"]);
    assert_eq!(stdout(&out), "2372207\n");
    assert!(
        stderr(&out).contains("order: auto: fixed finished first"),
        "{}",
        stderr(&out)
    );
}

/// Characters a terminal does not show are named, escaped, with their code point.
#[test]
fn invisible_characters_are_named_in_errors() {
    let (out, path) = run("p cnf 2 1\n1 \u{0}2 0\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr(&out);
    assert!(
        err.contains(&format!("{path}:2: expected a literal")),
        "{err}"
    );
    assert!(err.contains("found '\\0' (U+0000) in '\\02'"), "{err}");
    assert!(!err.contains('\u{0}'), "{err:?}");
    // A no-break space before Battleship's first word (the grammar skips it as a blank
    // and would otherwise say "unexpected 'board'").
    let file = common::write_temp("\u{a0}board 10 10\n");
    let out = common::gridsat(&["battleship", file.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr(&out);
    assert!(err.contains(":1: unexpected '\\u{a0}' (U+00A0)"), "{err}");
}
