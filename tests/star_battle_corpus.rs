//! The course program's command line on the course's puzzle files, against the instructor's
//! expected outputs: byte for byte once the solutions are put in gridsat's order (the
//! course allows any order).

mod common;
use common::{gridsat, read, root, stdout};

/// Splits a course output into its first line and its solution grids, and checks that
/// joining them back gives the file byte for byte (so the split loses nothing).
fn split(text: &str) -> (String, Vec<String>) {
    let mut parts = text.split("\nSolution ");
    let head = parts.next().unwrap().to_string();
    let mut grids = Vec::new();
    for (k, part) in parts.enumerate() {
        let prefix = format!("{}:\n", k + 1);
        assert!(
            part.starts_with(&prefix),
            "solution {} is numbered in order",
            k + 1
        );
        grids.push(part[prefix.len()..].to_string());
    }
    assert_eq!(join(&head, &grids), text);
    (head, grids)
}

fn join(head: &str, grids: &[String]) -> String {
    let mut out = head.to_string();
    for (k, g) in grids.iter().enumerate() {
        out.push_str(&format!("\nSolution {}:\n{g}", k + 1));
    }
    out
}

/// gridsat's documented order: row-major, a star at the first differing cell first.
fn gridsat_order(grids: &mut [String]) {
    grids.sort_by_key(|g| {
        std::cmp::Reverse(
            g.chars()
                .filter(|&c| c != '\n')
                .map(|c| c == '@')
                .collect::<Vec<_>>(),
        )
    });
}

fn run_course(puzzle: &str, stars: &str, mode: &str, solutions: &str) -> String {
    let out = tempfile::NamedTempFile::new().unwrap();
    let path = out.path().to_str().unwrap();
    let input = format!("examples/star-battle/{puzzle}.txt");
    let o = gridsat(&["star-battle", &input, path, stars, mode, solutions]);
    assert!(
        o.status.success(),
        "{puzzle} S={stars}: {}",
        common::stderr(&o)
    );
    assert!(o.stdout.is_empty(), "the course's output goes to the file");
    read(out.path())
}

fn expected(name: &str) -> String {
    read(&root().join("tests/data/star-battle").join(name))
}

#[test]
fn print_all_matches_the_instructor_files_up_to_order() {
    for (puzzle, stars) in [
        ("custom1", 1),
        ("custom1", 2),
        ("custom1", 3),
        ("custom2", 1),
        ("custom2", 2),
        ("custom2", 3),
        ("custom3", 4),
        ("custom3", 5),
        ("sporcle1", 1),
        ("twonot1", 1),
        ("twonot1", 2),
        ("twonot2", 4),
    ] {
        let want = expected(&format!("out_{puzzle}_{stars}_all.txt"));
        let got = run_course(puzzle, &stars.to_string(), "print", "all_solutions");
        let (head, mut grids) = split(&want);
        gridsat_order(&mut grids);
        assert_eq!(got, join(&head, &grids), "{puzzle} S={stars}");
    }
}

#[test]
fn count_all_matches_the_instructor_files() {
    for (puzzle, stars, file) in [
        ("sporcle1", 1, "out_sporcle1_1_all_count.txt"),
        ("twonot1", 1, "out_twonot1_1_all_count.txt"),
        ("twonot2", 4, "out_twonot2_4_all_count.txt"),
    ] {
        let got = run_course(puzzle, &stars.to_string(), "count", "all_solutions");
        assert_eq!(got, expected(file), "{puzzle} S={stars}");
    }
}

#[test]
fn spec_table_counts() {
    for (puzzle, counts) in [
        ("custom1", &[17u64, 3, 0][..]),
        ("custom2", &[50, 142, 16]),
        ("custom3", &[0, 0, 0, 0, 0]),
        ("sporcle1", &[1, 0]),
        ("twonot1", &[1193, 1, 0]),
    ] {
        for (i, want) in counts.iter().enumerate() {
            let got = run_course(puzzle, &(i + 1).to_string(), "count", "all_solutions");
            assert_eq!(
                got,
                format!("Number of solutions: {want}\n"),
                "{puzzle} S={}",
                i + 1
            );
        }
    }
    // twonot2: S=3 has exactly one solution, S=4 none (S=1 is the counting benchmark).
    assert_eq!(
        run_course("twonot2", "3", "count", "all_solutions"),
        "Number of solutions: 1\n"
    );
    assert_eq!(
        run_course("twonot2", "4", "count", "all_solutions"),
        "Number of solutions: 0\n"
    );
}

#[test]
fn one_solution_prints_a_valid_solution_in_the_course_layout() {
    for (puzzle, stars, file) in [
        ("twonot1", 1, "out_twonot1_1_one.txt"),
        ("twonot1", 2, "out_twonot1_2_one.txt"),
        ("twonot2", 1, "out_twonot2_1_one.txt"),
        ("twonot2", 2, "out_twonot2_2_one.txt"),
        ("twonot2", 3, "out_twonot2_3_one_slow.txt"),
    ] {
        let want = expected(file);
        let got = run_course(puzzle, &stars.to_string(), "print", "one_solution");
        let (want_head, want_grids) = split(&want);
        let (got_head, got_grids) = split(&got);
        assert_eq!(got_head, want_head);
        assert_eq!(got_grids.len(), 1);
        // Where the puzzle has several solutions the course's pick may differ from ours; the
        // zones (every non-star character) must be the same, and the rules are checked by
        // the program's verifier before printing (and by the random tests).
        assert_eq!(got_grids[0].len(), want_grids[0].len());
        assert_eq!(
            got_grids[0].matches('@').count(),
            want_grids[0].matches('@').count()
        );
        for (a, b) in got_grids[0].chars().zip(want_grids[0].chars()) {
            assert!(
                a == b || a == '@' || b == '@',
                "{puzzle} S={stars}: labels differ"
            );
        }
        if puzzle == "twonot1" && stars == 2 || puzzle == "twonot2" && stars == 3 {
            assert_eq!(got, want, "the solution is unique, so it must be the same");
        }
        let count = run_course(puzzle, &stars.to_string(), "count", "one_solution");
        assert_eq!(count, "Number of solutions: 1\n");
    }
    assert_eq!(
        run_course("custom3", "1", "print", "one_solution"),
        "Number of solutions: 0\n"
    );
}

#[test]
fn standard_rule_differs_from_the_course_rule_where_the_spec_says() {
    for (puzzle, stars, want) in [
        ("custom1", 1, "0"),
        ("custom2", 2, "0"),
        ("twonot1", 1, "1193"),
        ("sporcle1", 1, "1"),
    ] {
        let o = gridsat(&[
            "star-battle",
            &format!("examples/star-battle/{puzzle}.txt"),
            "--stars",
            &stars.to_string(),
            "--rule",
            "exact",
            "--count",
        ]);
        assert_eq!(
            stdout(&o),
            format!("Number of solutions: {want}\n"),
            "{puzzle}"
        );
    }
}
