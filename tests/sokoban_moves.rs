//! The fewest-moves search after A* (`gridsat::sokoban::moves`): against a brute force
//! on random small levels, on the first ten Microban levels against the SAT search's
//! proven figures, its budget, and the command line.

use gridsat::limits::Budget;
use gridsat::sokoban::check::replay;
use gridsat::sokoban::plan::to_lurd;
use gridsat::sokoban::search::astar;
use gridsat::sokoban::search::moves::{self, MovesReport};
use gridsat::sokoban::search::portfolio::{self, Winner};
use gridsat::sokoban::search::sat::{self, SatOptions};
use gridsat::sokoban::{Limits, Outcome, Solution};
use gridsat_encodings::sokoban::{Dir, Level};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

mod common;
use common::sokoban::{gridsat_sokoban, level, Room};
use common::Rng;

const MICROBAN_1_10: &str = include_str!("../examples/sokoban/microban-1-10.xsb");

/// The fewest pushes, then the fewest moves among plans with that many pushes, by
/// Dijkstra over single steps: a state is the box set and the player's exact square, a
/// walk step costs (0 pushes, 1 move) and a push (1, 1), compared lexicographically.
/// Shares nothing with the search under test beyond `Level`.
fn brute_force(level: &Level) -> Option<(usize, usize)> {
    type State = (Vec<usize>, usize);
    let solved = |boxes: &[usize]| boxes.iter().all(|&b| level.is_goal(b));
    let start: State = (level.boxes().to_vec(), level.player());
    let mut best: HashMap<State, (usize, usize)> = HashMap::from([(start.clone(), (0, 0))]);
    let mut open = BinaryHeap::from([Reverse(((0, 0), start))]);
    while let Some(Reverse((cost, (boxes, player)))) = open.pop() {
        if best[&(boxes.clone(), player)] < cost {
            continue;
        }
        if solved(&boxes) {
            return Some(cost);
        }
        for dir in Dir::ALL {
            let Some(next) = level.neighbour(player, dir) else {
                continue;
            };
            let mut after = boxes.clone();
            let step = if let Some(k) = boxes.iter().position(|&b| b == next) {
                match level.neighbour(next, dir) {
                    Some(beyond) if !boxes.contains(&beyond) => after[k] = beyond,
                    _ => continue,
                }
                after.sort_unstable();
                (cost.0 + 1, cost.1 + 1)
            } else {
                (cost.0, cost.1 + 1)
            };
            let state = (after, next);
            if best.get(&state).is_none_or(|&b| step < b) {
                best.insert(state.clone(), step);
                open.push(Reverse((step, state)));
            }
        }
    }
    None
}

/// Pushes and moves of a plan, checked by the referee.
fn replayed(level: &Level, solution: &Solution) -> (usize, usize) {
    let lurd = to_lurd(level, &solution.pushes).unwrap();
    let replay = replay(level, &lurd).unwrap();
    (replay.pushes, replay.moves)
}

/// A*'s plan, then the fewest-moves search on it: the plan and the search's report.
fn astar_then_moves(level: &Level, limits: &Limits) -> Option<(Solution, Option<MovesReport>)> {
    match astar::search(level, limits).0 {
        Outcome::Solved(s) => Some(moves::improve(level, s, limits)),
        _ => None,
    }
}

/// Rooms of 4x4 to 6x6 with up to 3 boxes, a few walls, sometimes a spare goal or a box
/// starting on a goal: open enough that walks between pushes vary.
const ROOM: Room = Room {
    max_rows: 6,
    max_cols: 6,
    max_boxes: 3,
    wall_one_in: 7,
    spare_goal_one_in: Some(6),
    boxed_goal_one_in: 6,
};

#[test]
fn fewest_moves_agree_with_a_brute_force_on_random_levels() {
    let mut rng = Rng::new(0x0F3E_3E57_0A0E);
    let (mut checked, mut solved, mut improved) = (0, 0, 0);
    while checked < 400 {
        let Some(level) = ROOM.draw(&mut rng) else {
            continue;
        };
        checked += 1;
        let expected = brute_force(&level);
        let found = astar_then_moves(&level, &Limits::default());
        let Some((solution, report)) = found else {
            assert_eq!(expected, None, "{level:?}");
            continue;
        };
        solved += 1;
        assert!(solution.push_optimal && solution.moves_minimal, "{level:?}");
        let (pushes, moves) = replayed(&level, &solution);
        assert_eq!(Some((pushes, moves)), expected, "{level:?}");
        let report = report.expect("the search ran");
        assert!(report.proven && report.gave_up.is_none());
        assert_eq!(report.moves_after, moves);
        assert!(report.moves_after <= report.moves_before);
        if report.moves_after < report.moves_before {
            improved += 1;
        }
    }
    // Enough solved levels, and enough where A*'s own plan was not the fewest in moves
    // (so the search had something to find).
    assert!(
        solved > 200 && improved > 30,
        "{solved} solved, {improved} improved"
    );
}

#[test]
fn the_first_microban_levels_match_the_sat_searchs_fewest_moves() {
    // Pushes and moves: moves are the fewest among the push-optimal plans. The SAT
    // search proves these itself for levels 1-5 and 7-9 (checked below); for 6 and 10
    // it gives up comparing plans, but 107 and 89 are the fewest moves over *all* plans
    // (microban-optimal.tsv, an independent search), so no push-optimal plan has fewer.
    // Level 5 shows the difference: 25 moves over all plans, 27 with 6 pushes.
    let known = [
        (8, 33),
        (3, 16),
        (13, 41),
        (7, 23),
        (6, 27),
        (29, 107),
        (6, 26),
        (32, 97),
        (10, 30),
        (21, 89),
    ];
    for (i, &expected) in known.iter().enumerate() {
        let level = level(MICROBAN_1_10, i + 1);
        let (solution, _) = astar_then_moves(&level, &Limits::default()).unwrap();
        assert!(solution.moves_minimal, "level {}", i + 1);
        assert_eq!(replayed(&level, &solution), expected, "level {}", i + 1);
        if i + 1 == 6 || i + 1 == 10 {
            continue; // The SAT search needs more than a second to give up on these.
        }
        let Outcome::Solved(by_sat) = sat::solve(&level, &Limits::default(), &mut |_| {}).unwrap()
        else {
            panic!("sat does not solve level {}", i + 1);
        };
        assert!(by_sat.moves_minimal, "level {}", i + 1);
        assert_eq!(replayed(&level, &by_sat), expected, "sat, level {}", i + 1);
    }
}

/// Microban 78, 108, 115, 121 and 134: levels on which a search that kept only the
/// fewest moves per position, instead of the least (pushes, moves) label, misses the
/// optimum (that variant finds 139, 248, 118, 137 and 250 moves): a position first
/// reached with more pushes and fewer moves must give way to its push-optimal label.
/// No random room of the shapes tried showed this.
const LABELLED: &str = include_str!("data/microban-moves.xsb");
const LABELLED_OPTIMA: [(usize, usize); 5] =
    [(33, 137), (68, 246), (29, 116), (47, 133), (76, 246)];

#[test]
fn levels_that_need_the_push_count_in_the_label_get_their_fewest_moves() {
    // The figures are the brute force's (`..._match_the_brute_force` below, ignored
    // because it takes 10 to 40 s a level).
    for (i, &expected) in LABELLED_OPTIMA.iter().enumerate() {
        let level = level(LABELLED, i + 1);
        let (solution, _) = astar_then_moves(&level, &Limits::default()).unwrap();
        assert!(solution.moves_minimal, "level {}", i + 1);
        assert_eq!(replayed(&level, &solution), expected, "level {}", i + 1);
    }
}

#[test]
#[ignore = "slow: the brute force takes 10 to 40 s a level"]
fn levels_that_need_the_push_count_in_the_label_match_the_brute_force() {
    for (i, &expected) in LABELLED_OPTIMA.iter().enumerate() {
        let level = level(LABELLED, i + 1);
        assert_eq!(brute_force(&level), Some(expected), "level {}", i + 1);
    }
}

#[test]
fn the_search_stops_at_its_budget_and_keeps_the_plan_unproven() {
    // Microban 6: A*'s plan has 29 pushes and more than the fewest 107 moves.
    let level = level(MICROBAN_1_10, 6);
    let Outcome::Solved(plan) = astar::search(&level, &Limits::default()).0 else {
        panic!("A* solves Microban 6");
    };
    let before = replayed(&level, &plan);
    assert!(before.1 > 107, "{before:?}");
    let stopped = [
        Limits {
            max_move_states: 5,
            ..Limits::default()
        },
        Limits {
            budget: Budget::until(Some(std::time::Instant::now())),
            ..Limits::default()
        },
    ];
    for (limits, why) in stopped
        .iter()
        .zip(["size limit, 5 positions", "time limit"])
    {
        let (solution, report) = moves::improve(&level, plan.clone(), limits);
        assert!(solution.push_optimal && !solution.moves_minimal);
        assert_eq!(replayed(&level, &solution), before);
        let report = report.unwrap();
        assert!(!report.proven);
        assert_eq!(report.gave_up.as_deref(), Some(why));
    }
    // 0 positions: the search is skipped.
    let skip = Limits {
        max_move_states: 0,
        ..Limits::default()
    };
    let (solution, report) = moves::improve(&level, plan.clone(), &skip);
    assert!(!solution.moves_minimal && report.is_none());
}

#[test]
fn the_portfolio_runs_the_moves_search_when_astar_wins() {
    let level = level(MICROBAN_1_10, 6);
    let result = portfolio::solve(&level, &Limits::default(), SatOptions::default()).unwrap();
    assert_eq!(result.winner, Some(Winner::Astar));
    let Outcome::Solved(solution) = &result.outcome else {
        panic!("{:?}", result.outcome);
    };
    assert!(solution.moves_minimal);
    assert_eq!(replayed(&level, solution), (29, 107));
    let report = result.moves.expect("the moves search ran");
    assert!(report.proven && report.moves_after == 107);
}

#[test]
fn the_command_line_reports_whether_the_moves_are_proven() {
    let file = "examples/sokoban/microban-1-10.xsb";
    let (code, out, _) = gridsat_sokoban(&[file, "--level", "6", "--method", "astar"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("pushes: 29 (proven push-optimal)"), "{out}");
    assert!(
        out.contains("moves: 107 (proven fewest among plans with this many pushes)"),
        "{out}"
    );
    let (code, out, _) = gridsat_sokoban(&[
        file,
        "--level",
        "6",
        "--method",
        "astar",
        "--max-move-states",
        "1",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "(not proven fewest; the fewest-moves search gave up: size limit, 1 positions)"
        ),
        "{out}"
    );
    let (code, out, _) = gridsat_sokoban(&[
        file, "--level", "6", "--method", "astar", "--format", "json",
    ]);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let report = &json[0];
    assert_eq!(report["moves"], 107);
    assert_eq!(report["moves_minimal"], true);
    assert_eq!(report["moves_search"]["proven"], true);
    assert_eq!(report["moves_search"]["moves_after"], 107);
    let push_seconds = report["push_seconds"].as_f64().unwrap();
    assert!(push_seconds <= report["seconds"].as_f64().unwrap());
}
