//! Sokoban end to end: known push-optimal counts, SAT against an independent
//! breadth-first search on random small levels, unsolvable levels, both input formats,
//! bad inputs, and the command line's outputs and exit statuses.

use gridsat::sokoban::check::replay;
use gridsat::sokoban::parse::{parse_levels, LevelFormat};
use gridsat::sokoban::plan::to_lurd;
use gridsat::sokoban::search::{bfs, sat};
use gridsat::sokoban::{Limits, Outcome};
use gridsat_encodings::sokoban::Level;

mod common;
use common::sokoban::{assert_bfs_exhausts, gridsat_sokoban, level, Room};
use common::Rng;

const MICROBAN_1_10: &str = include_str!("../examples/sokoban/microban-1-10.xsb");
const COURSE: &str = include_str!("../examples/sokoban/course.txt");
const CORRIDOR: &str = include_str!("../examples/sokoban/unsolvable.xsb");

fn sat(level: &Level, limits: &Limits) -> Outcome {
    sat::solve(level, limits, &mut |_| {}).unwrap()
}

/// Pushes of a solved outcome, after checking the plan with the referee.
fn verified_pushes(level: &Level, outcome: &Outcome) -> Option<usize> {
    match outcome {
        Outcome::Solved(s) => {
            let lurd = to_lurd(level, &s.pushes).unwrap();
            let replayed = replay(level, &lurd).unwrap();
            assert_eq!(replayed.pushes, s.pushes.len());
            Some(replayed.pushes)
        }
        _ => None,
    }
}

#[test]
fn first_microban_levels_have_their_known_push_counts() {
    let known = [8, 3, 13, 7, 6, 29, 6, 32, 10, 21];
    let limits = Limits {
        max_plans: 1,
        ..Limits::default()
    };
    for (i, &pushes) in known.iter().enumerate() {
        let level = level(MICROBAN_1_10, i + 1);
        assert_eq!(
            verified_pushes(&level, &bfs::search(&level, &limits)),
            Some(pushes),
            "bfs, level {}",
            i + 1
        );
        let outcome = sat(&level, &limits);
        assert_eq!(
            verified_pushes(&level, &outcome),
            Some(pushes),
            "sat, level {}",
            i + 1
        );
    }
}

#[test]
fn fewest_moves_among_push_optimal_plans_on_level_1() {
    // Level 1: 8 pushes; the fewest moves over all plans is 33, and a plan with 8 pushes
    // achieves it, so the fewest among push-optimal plans must be exactly 33.
    let level = level(MICROBAN_1_10, 1);
    let Outcome::Solved(s) = sat(&level, &Limits::default()) else {
        panic!("level 1 is solvable")
    };
    assert!(s.push_optimal && s.moves_minimal);
    assert_eq!(to_lurd(&level, &s.pushes).unwrap().len(), 33);
}

/// Rooms of 4x4 to 5x5 inside squares, 1 or 2 boxes, no spare goal.
const ROOM: Room = Room {
    max_rows: 5,
    max_cols: 5,
    max_boxes: 2,
    wall_one_in: 9,
    spare_goal_one_in: None,
    boxed_goal_one_in: 5,
};

#[test]
fn sat_agrees_with_breadth_first_search_on_random_levels() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let limits = Limits {
        max_pushes: Some(14),
        max_plans: 1,
        ..Limits::default()
    };
    let (mut solved, mut unsolved, mut checked) = (0, 0, 0);
    while checked < 300 {
        let Some(level) = ROOM.draw(&mut rng) else {
            continue;
        };
        checked += 1;
        let by_bfs = bfs::search(&level, &limits);
        let by_sat = sat(&level, &limits);
        let (b, s) = (
            verified_pushes(&level, &by_bfs),
            verified_pushes(&level, &by_sat),
        );
        match (&by_bfs, &by_sat) {
            (Outcome::Solved(_), _) => {
                solved += 1;
                assert_eq!(s, b, "{level:?}");
            }
            // BFS proved there is no plan (at all, or within the push limit): SAT must
            // not find one, nor claim a bound the push limit does not allow.
            (Outcome::Unsolvable { .. }, Outcome::Unsolvable { .. }) => unsolved += 1,
            // SAT proved every horizon up to the limit empty, and perhaps more (parity,
            // a lower bound past the limit): never past the real optimum, which BFS
            // without the limit finds.
            (
                Outcome::Unsolvable { .. } | Outcome::GaveUp { .. },
                Outcome::GaveUp { no_plan_below, .. },
            ) => {
                unsolved += 1;
                assert!(*no_plan_below >= 15, "{no_plan_below} on {level:?}");
                let unlimited = bfs::search(&level, &Limits::default());
                if let Outcome::Solved(s) = &unlimited {
                    assert!(*no_plan_below <= s.pushes.len(), "{level:?}");
                }
            }
            // A static argument of the SAT side (a box that can never reach a goal with
            // the player walking around it) can see past the push limit: BFS without
            // the limit must exhaust the level.
            (Outcome::GaveUp { .. }, Outcome::Unsolvable { .. }) => {
                unsolved += 1;
                assert_bfs_exhausts(&level);
            }
            (_, other) => panic!("bfs {by_bfs:?}, sat {other:?} on {level:?}"),
        }
    }
    // The generator must exercise both sides.
    assert!(
        solved > 40 && unsolved > 10,
        "{solved} solved, {unsolved} unsolved"
    );
}

#[test]
fn unsolvable_levels_are_proven_so_and_say_why() {
    // A box in a corner off the goals: a dead square.
    let corner = "#####\n#$ .#\n#  @#\n#####\n";
    match sat(&level(corner, 1), &Limits::default()) {
        Outcome::Unsolvable { reason } => {
            assert!(reason.contains("row 2, column 2"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // The corridor: nothing static helps; the exhaustive arguments do.
    let corridor = level(CORRIDOR, 1);
    match sat(&corridor, &Limits::default()) {
        Outcome::Unsolvable { reason } => assert!(reason.contains("never repeats"), "{reason}"),
        other => panic!("{other:?}"),
    }
    match bfs::search(&corridor, &Limits::default()) {
        Outcome::Unsolvable { reason } => assert!(reason.contains("visited all"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn both_formats_read_the_same_level() {
    let xsb = "#######\n#. * .#\n#  $  #\n#*$ $*#\n# .$. #\n#@ *  #\n#######\n";
    assert_eq!(level(COURSE, 1), level(xsb, 1));
    assert_eq!(
        parse_levels(COURSE, LevelFormat::Digits, None)
            .unwrap()
            .len(),
        1
    );
    let course = level(COURSE, 1);
    let limits = Limits::default();
    assert_eq!(
        verified_pushes(&course, &sat(&course, &limits)),
        verified_pushes(&course, &bfs::search(&course, &limits))
    );
}

#[test]
fn multi_level_files_keep_titles_and_numbers() {
    let text = "; My set\n\n; 1\n\n#####\n#@$.#\n#####\n\n'Duh!'\n\n#####\n#.$@#\n#####\nTitle: Second\n\n";
    let levels = parse_levels(text, LevelFormat::Auto, None).unwrap();
    assert_eq!(levels.len(), 2);
    assert_eq!(levels[0].title.as_deref(), Some("1"));
    assert_eq!(levels[0].first_line, 5);
    assert_eq!(levels[1].title.as_deref(), Some("'Duh!'"));
    assert_eq!(levels[1].number, 2);
    let second = parse_levels(text, LevelFormat::Auto, Some(2)).unwrap();
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].level, levels[1].level);
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(
        parse_levels(&crlf, LevelFormat::Auto, None).unwrap().len(),
        2
    );
}

#[test]
fn bad_inputs_name_the_level_and_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("#####\n#$ .#\n#####\n", 1, "level 1: no player"),
        (
            "#####\n#@$.#\n#@  #\n#####\n",
            3,
            "level 1: a second player",
        ),
        (
            "######\n#@$$.#\n######\n",
            1,
            "fewer goals (1) than boxes (2)",
        ),
        (
            "#####\n#@$.#\n# X #\n#####\n",
            3,
            "level 1: 'X' at column 3",
        ),
        (
            "#####\n#@$.\n#####\n",
            2,
            "level 1: the level is not closed",
        ),
        ("88888\n84217\n88888\n", 2, "level 1: '7' at column 5"),
        (
            "; a\n\n#####\n#@$.#\n#####\n\n#####\n#@$.#\n# #\n",
            9,
            "level 2: the level is not closed",
        ),
    ];
    for &(text, line, needle) in cases {
        let err = parse_levels(text, LevelFormat::Auto, None).unwrap_err();
        assert_eq!(err.line, line, "{text:?}: {err}");
        assert!(err.message.contains(needle), "{text:?}: {err}");
    }
    let err = parse_levels("#####\n#@$.#\n#####\n", LevelFormat::Auto, Some(2)).unwrap_err();
    assert!(err.message.contains("no level 2"), "{err}");
}

#[test]
fn command_line_outcomes_have_distinct_exit_statuses() {
    let (code, out, _) = gridsat_sokoban(&["examples/sokoban/microban-1-10.xsb", "--level", "2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("pushes: 3 (proven push-optimal)"), "{out}");
    assert!(out.contains("moves: 16"), "{out}");

    let (code, out, _) = gridsat_sokoban(&["examples/sokoban/unsolvable.xsb", "--method", "bfs"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("proven unsolvable"), "{out}");

    let args = [
        "examples/sokoban/microban-1-10.xsb",
        "--level",
        "3",
        "--max-pushes",
        "10",
    ];
    let (code, out, _) = gridsat_sokoban(&args);
    assert_eq!(code, 4, "{out}");
    // The matching bound (lone-box pushes with the player walking around the box)
    // already proves 13, the optimum, past the limit of 10.
    assert!(out.contains("no plan with fewer than 13 pushes"), "{out}");

    let (code, _, err) = gridsat_sokoban(&["examples/sokoban/microban-1-10.xsb", "--level", "11"]);
    assert_eq!(code, 2);
    assert!(err.contains("there is no level 11"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.xsb");
    std::fs::write(&bad, "; 1\n\n#####\n#@$.#\n#@  #\n#####\n").unwrap();
    let (code, _, err) = gridsat_sokoban(&[bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.xsb:5: level 1: a second player"), "{err}");
}

#[test]
fn json_and_boards_show_the_replayed_plan() {
    let (code, out, _) = gridsat_sokoban(&[
        "examples/sokoban/microban-1-10.xsb",
        "--level",
        "1",
        "--format",
        "json",
        "--boards",
    ]);
    assert_eq!(code, 0);
    let reports: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &reports[0];
    assert_eq!(r["outcome"], "solved");
    assert_eq!(r["pushes"], 8);
    assert_eq!(r["moves"], 33);
    assert_eq!(r["push_optimal"], true);
    let lurd = r["lurd"].as_str().unwrap();
    assert_eq!(lurd.chars().filter(char::is_ascii_uppercase).count(), 8);
    let boards = r["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 9);
    assert_eq!(boards[0][3], "#*@  #");
    let last: Vec<&str> = boards[8]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(!last.concat().contains('$'), "{last:?}");

    let (code, out, _) = gridsat_sokoban(&["examples/sokoban/course.txt", "--boards"]);
    assert_eq!(code, 0);
    assert!(out.contains("start:\n#######\n#. * .#\n"), "{out}");
}

#[test]
fn measurement_flags_change_the_search_not_the_answer() {
    // The flags are the SAT search's, so it runs alone (in the default portfolio A*
    // may finish before SAT reaches the optimum's horizon).
    let level = [
        "examples/sokoban/microban-1-10.xsb",
        "--level",
        "4",
        "--method",
        "sat",
    ];
    let (code, plain, _) = gridsat_sokoban(&level);
    assert_eq!(code, 0, "{plain}");
    let pushes = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("pushes:"))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no pushes line in {out}"))
    };
    let mut bare = level.to_vec();
    bare.extend(["--no-prune", "closure,cover,goalsum,commute", "--stats"]);
    let (code, out, err) = gridsat_sokoban(&bare);
    assert_eq!(code, 0, "{out}");
    assert_eq!(pushes(&out), pushes(&plain));
    // The statistics name every solver call: shorter horizons refuted, the optimum satisfied.
    let optimum: usize = pushes(&out)["pushes: ".len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap();
    let mut satisfied_at_optimum = false;
    for call in err.lines().filter(|l| l.starts_with("horizon ")) {
        let horizon: usize = call.split_whitespace().nth(1).unwrap().parse().unwrap();
        if horizon < optimum {
            assert!(call.contains(": UNSAT in"), "{err}");
        } else {
            satisfied_at_optimum |= horizon == optimum && call.contains(": SAT in");
        }
    }
    assert!(satisfied_at_optimum, "{err}");

    let (code, _, err) = gridsat_sokoban(&[level[0], "--no-prune", "everything"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'everything'"), "{err}");
}

#[test]
fn timeouts_are_finite_positive_seconds_and_end_in_a_bound() {
    for bad in ["1e20", "inf", "NaN", "0", "-5"] {
        let flag = format!("--timeout={bad}");
        let (code, _, err) = gridsat_sokoban(&["examples/sokoban/course.txt", &flag]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("invalid value"), "{bad}: {err}");
    }
    // Microban 78 (33 pushes) is far beyond the SAT search in a tenth of a second: it
    // gives up with the bound it proved, which no plan beats.
    let args = "tests/data/microban-moves.xsb --level 1 --method sat --timeout 0.1";
    let (code, out, _) = gridsat_sokoban(&args.split(' ').collect::<Vec<_>>());
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("gave up after"), "{out}");
    assert!(out.contains("(time limit)"), "{out}");
    let bound: usize = out
        .split("no plan with fewer than ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no bound in {out}"));
    assert!((1..=33).contains(&bound), "{out}");
}

/// An open room too large for A*, with half a second: the report names what each search
/// did, and either the bound the SAT search proved or that none was proven ("fewer than
/// 0 pushes" would prove nothing).
#[test]
fn a_run_that_proves_no_bound_says_so() {
    let n = 200;
    let mut rows: Vec<Vec<char>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    if r == 0 || c == 0 || r == n - 1 || c == n - 1 {
                        '#'
                    } else {
                        ' '
                    }
                })
                .collect()
        })
        .collect();
    rows[2][2] = '@';
    rows[100][100] = '$';
    rows[180][180] = '.';
    let text: String = rows
        .iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect();
    let file = common::write_temp(&text);
    let (status, out, _) = gridsat_sokoban(&[file.path().to_str().unwrap(), "--timeout", "0.5"]);
    assert_eq!(status, 4, "{out}");
    assert!(out.contains("astar: the level has more than"), "{out}");
    assert!(out.contains("sat: time limit"), "{out}");
    // Within 0.5 s the SAT search may or may not refute its first horizon (the lone
    // box's 160 pushes), depending on the machine: either the bound or none, never 0.
    let end = out.trim_end();
    assert!(
        end.ends_with("no lower bound proven")
            || end.ends_with("no plan with fewer than 160 pushes"),
        "{out}"
    );
    assert!(!out.contains("fewer than 0"), "{out}");
}
