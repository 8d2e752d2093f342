//! The A* search and the SAT + A* portfolio: push counts against the separate
//! breadth-first search on random small levels (solvable and unsolvable), the bound
//! reported when a limit stops A*, the Microban 1-10 optima, and the command line.

use gridsat::sokoban::check::replay;
use gridsat::sokoban::plan::to_lurd;
use gridsat::sokoban::search::astar::SearchStats;
use gridsat::sokoban::search::portfolio::{self, Winner};
use gridsat::sokoban::search::sat::SatOptions;
use gridsat::sokoban::search::{astar, bfs};
use gridsat::sokoban::{Limits, Outcome};
use gridsat_encodings::sokoban::analysis::push_parity;
use gridsat_encodings::sokoban::Level;

mod common;
use common::sokoban::{gridsat_sokoban, level, Room};
use common::Rng;

const MICROBAN_1_10: &str = include_str!("../examples/sokoban/microban-1-10.xsb");
const CORRIDOR: &str = include_str!("../examples/sokoban/unsolvable.xsb");

/// Pushes of a solved outcome, after checking the plan with the referee.
fn verified_pushes(level: &Level, outcome: &Outcome) -> Option<usize> {
    match outcome {
        Outcome::Solved(s) => {
            assert!(s.push_optimal);
            let lurd = to_lurd(level, &s.pushes).unwrap();
            let replayed = replay(level, &lurd).unwrap();
            assert_eq!(replayed.pushes, s.pushes.len());
            Some(replayed.pushes)
        }
        _ => None,
    }
}

/// Asserts that two searches agree on `level`: both solved with the same (replayed)
/// number of pushes, or both proved it unsolvable. True when solved.
fn same_verdict(level: &Level, first: &Outcome, second: &Outcome) -> bool {
    match (first, second) {
        (Outcome::Solved(_), Outcome::Solved(_)) => {
            assert_eq!(
                verified_pushes(level, first),
                verified_pushes(level, second),
                "{level:?}"
            );
            true
        }
        (Outcome::Unsolvable { .. }, Outcome::Unsolvable { .. }) => false,
        _ => panic!("{first:?} against {second:?} on {level:?}"),
    }
}

fn astar(level: &Level, limits: &Limits) -> Outcome {
    astar::search(level, limits).0
}

/// Rooms of 4x4 to 6x6 with up to 3 boxes, scattered walls (which make freeze
/// deadlocks), sometimes a spare goal or a box starting on a goal.
const ROOM: Room = Room {
    max_rows: 6,
    max_cols: 6,
    max_boxes: 3,
    wall_one_in: 6,
    spare_goal_one_in: Some(5),
    boxed_goal_one_in: 5,
};

#[test]
fn astar_agrees_with_breadth_first_search_on_random_levels() {
    let mut rng = Rng::new(0x5EED_A57A_2026);
    let (mut solved, mut unsolvable, mut checked) = (0, 0, 0);
    while checked < 1500 {
        let Some(level) = ROOM.draw(&mut rng) else {
            continue;
        };
        checked += 1;
        let by_bfs = bfs::search(&level, &Limits::default());
        let by_astar = astar(&level, &Limits::default());
        if same_verdict(&level, &by_bfs, &by_astar) {
            solved += 1;
        } else {
            unsolvable += 1;
        }
    }
    assert!(
        solved > 300 && unsolvable > 100,
        "{solved} solved, {unsolvable} unsolvable"
    );
}

#[test]
fn a_stopped_astar_reports_a_bound_no_larger_than_the_optimum() {
    let mut rng = Rng::new(0x00B0_0D5E);
    let mut stopped = 0;
    let mut checked = 0;
    while checked < 400 {
        let Some(level) = ROOM.draw(&mut rng) else {
            continue;
        };
        checked += 1;
        let Outcome::Solved(best) = bfs::search(&level, &Limits::default()) else {
            continue;
        };
        let optimum = best.pushes.len();
        for (max_states, max_pushes) in [(3, None), (20, None), (usize::MAX, Some(optimum / 2))] {
            let limits = Limits {
                max_states,
                max_pushes,
                ..Limits::default()
            };
            match astar(&level, &limits) {
                Outcome::Solved(s) => assert_eq!(s.pushes.len(), optimum, "{level:?}"),
                Outcome::GaveUp { no_plan_below, .. } => {
                    stopped += 1;
                    assert!(no_plan_below <= optimum, "{no_plan_below} on {level:?}");
                    if let Some(m) = max_pushes {
                        assert!(no_plan_below > m, "{no_plan_below} on {level:?}");
                    }
                }
                other => panic!("{other:?} on {level:?}"),
            }
        }
    }
    assert!(stopped > 100, "{stopped} stopped searches");
}

#[test]
fn astar_and_the_portfolio_find_the_first_microban_optima() {
    let known = [8, 3, 13, 7, 6, 29, 6, 32, 10, 21];
    for (i, &pushes) in known.iter().enumerate() {
        let level = level(MICROBAN_1_10, i + 1);
        let limits = Limits {
            max_plans: 1,
            ..Limits::default()
        };
        let by_astar = astar(&level, &limits);
        assert_eq!(
            verified_pushes(&level, &by_astar),
            Some(pushes),
            "level {}",
            i + 1
        );
        let split_at_once = astar::Options {
            split_after: Some(0),
            ..astar::Options::default()
        };
        let (by_split, _) = astar::search_with(&level, &limits, split_at_once);
        assert_eq!(
            verified_pushes(&level, &by_split),
            Some(pushes),
            "level {} with the split bound",
            i + 1
        );
        let result = portfolio::solve(&level, &limits, SatOptions::default()).unwrap();
        assert_eq!(
            verified_pushes(&level, &result.outcome),
            Some(pushes),
            "portfolio, level {}",
            i + 1
        );
        assert!(result.winner.is_some() && result.push_seconds.is_some());
    }
}

#[test]
fn the_portfolio_falls_back_on_sat_when_astar_gives_up() {
    // A* stops at once on its position limit (SAT has no such limit): SAT must prove
    // the optimum, and with the time left its fewest-moves search (level 1: 33 moves,
    // the known minimum, proven).
    let level = level(MICROBAN_1_10, 1);
    let limits = Limits {
        max_states: 1,
        ..Limits::default()
    };
    let result = portfolio::solve(&level, &limits, SatOptions::default()).unwrap();
    assert_eq!(result.winner, Some(Winner::Sat));
    assert_eq!(verified_pushes(&level, &result.outcome), Some(8));
    let Outcome::Solved(s) = &result.outcome else {
        unreachable!("checked above")
    };
    assert!(s.moves_minimal);
    assert_eq!(to_lurd(&level, &s.pushes).unwrap().len(), 33);
}

#[test]
fn the_portfolio_agrees_with_both_searches_on_random_levels() {
    let mut rng = Rng::new(0x0090_427F_0110);
    let limits = Limits {
        max_plans: 1,
        ..Limits::default()
    };
    let mut winners = [0, 0];
    let mut checked = 0;
    while checked < 60 {
        let Some(level) = ROOM.draw(&mut rng) else {
            continue;
        };
        checked += 1;
        let by_bfs = bfs::search(&level, &Limits::default());
        let result = portfolio::solve(&level, &limits, SatOptions::default()).unwrap();
        match (&by_bfs, &result.outcome) {
            (Outcome::Solved(_), Outcome::Solved(_)) => assert_eq!(
                verified_pushes(&level, &result.outcome),
                verified_pushes(&level, &by_bfs),
                "{level:?}"
            ),
            (Outcome::Unsolvable { .. }, Outcome::Unsolvable { .. }) => {}
            (_, other) => panic!("bfs {by_bfs:?}, portfolio {other:?} on {level:?}"),
        }
        match result.winner {
            Some(Winner::Sat) => winners[0] += 1,
            Some(Winner::Astar) => winners[1] += 1,
            None => panic!("nobody proved {level:?}"),
        }
    }
    assert_eq!(winners[0] + winners[1], 60);
}

#[test]
fn astar_proves_the_corridor_unsolvable_by_exhaustion() {
    match astar(&level(CORRIDOR, 1), &Limits::default()) {
        Outcome::Unsolvable { reason } => assert!(reason.contains("exhausted"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // A box in a corner off the goals: the static argument, before any search.
    match astar(
        &level("#####\n#$ .#\n#  @#\n#####\n", 1),
        &Limits::default(),
    ) {
        Outcome::Unsolvable { reason } => assert!(reason.contains("row 2, column 2"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

/// Rooms crowded enough for the player to be shut out of parts of them (PI-corrals).
const CROWDED: Room = Room {
    max_rows: 7,
    max_cols: 7,
    max_boxes: 5,
    wall_one_in: 7,
    spare_goal_one_in: Some(6),
    boxed_goal_one_in: 3,
};

#[test]
fn pi_corral_pruning_keeps_the_optimum_and_the_unsolvable_verdicts() {
    let mut rng = Rng::new(0xC0_22A1_2026);
    // Without the pair bound, which finds many of the same deadlocks first.
    let with_corrals = astar::Options {
        pair_bytes: 0,
        ..astar::Options::default()
    };
    let every_push = astar::Options {
        pi_corrals: false,
        ..with_corrals
    };
    let (mut solved, mut unsolvable, mut checked) = (0, 0, 0);
    let (mut restricted, mut dead) = (0, 0);
    let mut against_bfs = 0;
    while checked < 3000 {
        let Some(level) = CROWDED.draw(&mut rng) else {
            continue;
        };
        checked += 1;
        let limits = Limits::default();
        let (pruned, stats) = astar::search_with(&level, &limits, with_corrals);
        let (full, _) = astar::search_with(&level, &limits, every_push);
        restricted += stats.corral_expansions;
        dead += stats.corral_deadlocks;
        match (&pruned, &full) {
            (Outcome::Solved(_), Outcome::Solved(_)) => {
                solved += 1;
                assert_eq!(
                    verified_pushes(&level, &pruned),
                    verified_pushes(&level, &full),
                    "{level:?}"
                );
            }
            (Outcome::Unsolvable { .. }, Outcome::Unsolvable { .. }) => unsolvable += 1,
            _ => panic!("with corrals {pruned:?}, without {full:?} on {level:?}"),
        }
        // The separate breadth-first search too (slower), on some levels where a corral
        // cut something.
        if (stats.corral_expansions > 0 || stats.corral_deadlocks > 0) && against_bfs < 40 {
            against_bfs += 1;
            let by_bfs = bfs::search(&level, &limits);
            assert_eq!(
                verified_pushes(&level, &by_bfs),
                verified_pushes(&level, &pruned),
                "{level:?}"
            );
            assert_eq!(
                matches!(by_bfs, Outcome::Unsolvable { .. }),
                matches!(pruned, Outcome::Unsolvable { .. }),
                "{level:?}"
            );
        }
    }
    assert!(
        solved > 1500 && unsolvable > 1000 && against_bfs == 40,
        "{solved} solved, {unsolvable} unsolvable, {against_bfs} against BFS"
    );
    assert!(
        restricted > 5000 && dead > 1000,
        "{restricted} restricted expansions, {dead} corral deadlocks"
    );
}

#[test]
fn freeze_deadlocks_are_pruned_without_losing_the_plan() {
    // A box against the top wall is blocked vertically but not horizontally: not
    // frozen, so the plan along the wall (two pushes right) must survive.
    let along_wall = "######\n#@$ .#\n#    #\n######\n";
    let level = level(along_wall, 1);
    assert_eq!(
        verified_pushes(&level, &astar(&level, &Limits::default())),
        Some(2)
    );
    // Two boxes that become a frozen pair (side by side against the top wall, off
    // goals) if pushed up together: the search must prune only that and still find
    // the optimum the breadth-first search finds.
    let pair = "#######\n#  . .#\n# $ $ #\n#  @  #\n#######\n";
    let level = level_of(pair);
    let by_bfs = bfs::search(&level, &Limits::default());
    assert_eq!(
        verified_pushes(&level, &astar(&level, &Limits::default())),
        verified_pushes(&level, &by_bfs)
    );
}

#[test]
fn boxes_frozen_at_the_start_become_walls_or_prove_the_level_unsolvable() {
    // Two boxes side by side against the top wall, off the goals on that wall: neither
    // can ever move. BFS agrees by exhaustion.
    let pair = level_of("#######\n# $$..#\n#     #\n#  @  #\n#######\n");
    match astar(&pair, &Limits::default()) {
        Outcome::Unsolvable { reason } => {
            assert!(reason.contains("frozen off a goal"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        bfs::search(&pair, &Limits::default()),
        Outcome::Unsolvable { .. }
    ));
    // A box on a goal in a corner is a wall for the search; the plan found in the
    // reduced level must be a plan of this one, with the push count BFS finds.
    for text in [
        "#######\n#*    #\n#  $ .#\n# @   #\n#######\n",
        "########\n#**    #\n#** $ .#\n#  @ $.#\n########\n",
    ] {
        let level = level_of(text);
        let by_bfs = bfs::search(&level, &Limits::default());
        assert!(matches!(by_bfs, Outcome::Solved(_)), "{text}");
        assert_eq!(
            verified_pushes(&level, &astar(&level, &Limits::default())),
            verified_pushes(&level, &by_bfs),
            "{text}"
        );
    }
}

fn level_of(text: &str) -> Level {
    level(text, 1)
}

#[test]
fn the_command_line_says_which_method_proved_the_plan() {
    // Without the fewest-moves search after A* (tests/sokoban_moves.rs tests it), the
    // moves are A*'s and not proven.
    let (code, out, _) = gridsat_sokoban(&[
        "examples/sokoban/microban-1-10.xsb",
        "--level",
        "6",
        "--method",
        "astar",
        "--max-move-states",
        "0",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("solved by astar"), "{out}");
    assert!(out.contains("pushes: 29 (proven push-optimal)"), "{out}");
    assert!(out.contains("(not proven fewest)"), "{out}");

    let (code, out, _) = gridsat_sokoban(&[
        "examples/sokoban/microban-1-10.xsb",
        "--level",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}");
    let reports: serde_json::Value = serde_json::from_str(&out).unwrap();
    let report = &reports[0];
    assert_eq!(report["method"], "portfolio");
    assert_eq!(report["pushes"], 7);
    let by = report["proved_by"].as_str().unwrap();
    assert!(by == "sat" || by == "astar", "{by}");

    let (code, out, _) = gridsat_sokoban(&[
        "examples/sokoban/microban-1-10.xsb",
        "--level",
        "6",
        "--method",
        "astar",
        "--max-states",
        "10",
    ]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("size limit (10 positions)"), "{out}");

    let (code, out, _) = gridsat_sokoban(&["examples/sokoban/unsolvable.xsb", "--method", "astar"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("proven unsolvable by astar"), "{out}");
}

/// Rooms wider than ROOM with more boxes, so that a straight cut leaves boxes on both
/// sides and the halves get in their own way.
const WIDE: Room = Room {
    max_rows: 6,
    max_cols: 8,
    max_boxes: 4,
    wall_one_in: 7,
    spare_goal_one_in: Some(5),
    boxed_goal_one_in: 5,
};

/// A* with `options(k)` on the `k`-th of 1,000 random wide rooms drawn from `seed`,
/// against the breadth-first search (`same_verdict` asserts the optimum or the
/// unsolvable verdict), asserting that both kinds were met; A*'s statistics per level.
fn against_breadth_first(seed: u64, options: impl Fn(usize) -> astar::Options) -> Vec<SearchStats> {
    let mut rng = Rng::new(seed);
    let (mut solved, mut unsolvable, mut all_stats) = (0, 0, Vec::new());
    while all_stats.len() < 1000 {
        let Some(level) = WIDE.draw(&mut rng) else {
            continue;
        };
        let (by_astar, stats) =
            astar::search_with(&level, &Limits::default(), options(all_stats.len()));
        all_stats.push(stats);
        let by_bfs = bfs::search(&level, &Limits::default());
        if same_verdict(&level, &by_bfs, &by_astar) {
            solved += 1;
        } else {
            unsolvable += 1;
        }
    }
    assert!(
        solved > 200 && unsolvable > 100,
        "{solved} solved, {unsolvable} unsolvable"
    );
    all_stats
}

#[test]
fn the_split_bound_keeps_the_optimum_and_the_unsolvable_verdicts() {
    // The split from the first position on, instead of after half a million.
    let split_at_once = astar::Options {
        split_after: Some(0),
        ..astar::Options::default()
    };
    let stats = against_breadth_first(0x5_9117_2026, |_| split_at_once);
    let split_on = stats.iter().filter(|s| s.split_searches > 0).count();
    let half_searches: usize = stats.iter().map(|s| s.split_searches).sum();
    let split_dead: usize = stats.iter().map(|s| s.split_deadlocks).sum();
    // The split must have been at work on some levels (it is used only where it beats
    // the matching bound on the start), not merely switched on.
    assert!(
        split_on > 10 && half_searches > 150 && split_dead > 20,
        "split on {split_on} levels, {half_searches} half searches, {split_dead} split deadlocks"
    );
}

#[test]
fn the_perimeter_bound_keeps_the_optimum_and_the_unsolvable_verdicts() {
    // The search back from the first position on, instead of after a million, never
    // dropped; on half the levels as large as the search (it stops at a partial layer),
    // on the others ten times larger, where it often runs out (every position with a
    // plan found, the others dead).
    let perimeter_at_once = |k: usize| astar::Options {
        perimeter: Some(astar::PerimeterOptions {
            after: 0,
            percent: [1000, 100][k % 2],
            worth: 0,
        }),
        pair_bytes: 0,
        ..astar::Options::default()
    };
    let stats = against_breadth_first(0x9e71_2026, perimeter_at_once);
    let raised: usize = stats.iter().map(|s| s.perimeter_raised).sum();
    let dead: usize = stats.iter().map(|s| s.perimeter_deadlocks).sum();
    let partial = stats
        .iter()
        .filter(|s| s.perimeter_positions > 0 && s.perimeter_depth < u32::MAX)
        .count();
    // The perimeter must have been at work, complete and not: raising bounds, and
    // proving positions dead when the search back ran out.
    assert!(
        raised > 300 && dead > 10 && partial > 100,
        "{raised} bounds raised, {dead} positions dead, {partial} levels with a partial perimeter"
    );
}

#[test]
fn the_pair_bound_keeps_the_optimum_and_the_unsolvable_verdicts() {
    // The pair bound alone beside the matching (no split, no perimeter), so that every
    // raised bound and deadlock is its own.
    let pairs_only = |_| astar::Options {
        split_after: None,
        perimeter: None,
        ..astar::Options::default()
    };
    let stats = against_breadth_first(0x9a12_2026, pairs_only);
    let built = stats.iter().filter(|s| s.pair_bytes > 0).count();
    let raised: usize = stats.iter().map(|s| s.pair_raised).sum();
    let dead: usize = stats.iter().map(|s| s.pair_deadlocks).sum();
    assert!(
        built > 400 && raised > 200 && dead > 80,
        "tables on {built} levels, {raised} bounds raised, {dead} positions dead"
    );
}

#[test]
fn a_plan_known_beside_astar_leaves_it_to_prove_no_shorter_one() {
    // The portfolio's quick search shares its plans with A* (`Limits::known`): A* then
    // stores no position past the ceiling, one push under the plan, and ends with the
    // plan's pushes as its bound when no shorter plan exists; with a longer plan known it
    // still finds the optimum. The same ceiling serves `--max-pushes`.
    let mut rng = Rng::new(0xCE11_2026);
    let (mut checked, mut cut) = (0, 0);
    while checked < 300 {
        let Some(level) = WIDE.draw(&mut rng) else {
            continue;
        };
        let Outcome::Solved(best) = bfs::search(&level, &Limits::default()) else {
            continue;
        };
        let optimum = best.pushes.len();
        if optimum == 0 {
            continue;
        }
        checked += 1;
        let step = if push_parity(&level).is_some() { 2 } else { 1 };
        let known = |pushes: usize| {
            let limits = Limits::default();
            limits.known.plan_found(pushes);
            limits
        };
        let at_the_optimum = known(optimum);
        let (outcome, stats) = astar::search(&level, &at_the_optimum);
        cut += stats.ceiling_cuts;
        match outcome {
            Outcome::GaveUp { no_plan_below, .. } => {
                assert_eq!(no_plan_below, optimum, "{level:?}");
            }
            other => panic!("{other:?} with a plan of {optimum} known on {level:?}"),
        }
        assert!(at_the_optimum.known.bound() <= optimum, "{level:?}");
        let longer = known(optimum + step);
        let (outcome, stats) = astar::search(&level, &longer);
        cut += stats.ceiling_cuts;
        assert_eq!(verified_pushes(&level, &outcome), Some(optimum));
        let capped = Limits {
            max_pushes: Some(optimum - 1),
            ..Limits::default()
        };
        match astar(&level, &capped) {
            Outcome::GaveUp { no_plan_below, .. } => assert_eq!(no_plan_below, optimum),
            other => panic!("{other:?} under --max-pushes {} on {level:?}", optimum - 1),
        }
    }
    assert!(cut > 1000, "{cut} children cut at the ceiling");
}

#[test]
fn the_last_layer_on_two_cores_keeps_the_optimum_and_the_bound() {
    // The last layer under a ceiling handed to two workers from the first position on
    // (`layer_after: 0`), against the search on one core and the breadth-first optimum:
    // a plan known at the optimum leaves the bound at the optimum; a longer one known,
    // the optimum found (by the workers, read back along their parents, where the layer
    // is at the optimum; by the search going on alone where it is below: without a push
    // parity the layer takes children one push past it);
    // `--max-pushes` under the optimum, the same bound as on one core. Unsolvable
    // levels: the same verdict as on one core.
    let two = astar::Options {
        layer_workers: 2,
        layer_after: 0,
        ..astar::Options::default()
    };
    let one = astar::Options {
        layer_workers: 1,
        ..two
    };
    let mut rng = Rng::new(0x1A7E_2026);
    let (mut levels, mut exhausted, mut expanded) = (0, 0, 0);
    let (mut theirs, mut handed_back) = (0, 0);
    while levels < 400 {
        let Some(level) = WIDE.draw(&mut rng) else {
            continue;
        };
        levels += 1;
        let optimum = match bfs::search(&level, &Limits::default()) {
            Outcome::Solved(best) => best.pushes.len(),
            _ => {
                // Unsolvable: under any ceiling both searches agree.
                let capped = Limits {
                    max_pushes: Some(12),
                    ..Limits::default()
                };
                let (on_two, stats) = astar::search_with(&level, &capped, two);
                let (on_one, _) = astar::search_with(&level, &capped, one);
                assert_eq!(format!("{on_two:?}"), format!("{on_one:?}"), "{level:?}");
                expanded += stats.layer_expanded;
                continue;
            }
        };
        if optimum == 0 {
            continue;
        }
        let step = if push_parity(&level).is_some() { 2 } else { 1 };
        let known = |pushes: usize| {
            let limits = Limits::default();
            limits.known.plan_found(pushes);
            limits
        };
        let (outcome, stats) = astar::search_with(&level, &known(optimum), two);
        match outcome {
            Outcome::GaveUp { no_plan_below, .. } => assert_eq!(no_plan_below, optimum),
            other => panic!("{other:?} with a plan of {optimum} known on {level:?}"),
        }
        if stats.layer_expanded > 0 {
            exhausted += 1;
            expanded += stats.layer_expanded;
        }
        for longer in [optimum + step, optimum + 2 * step] {
            let (outcome, stats) = astar::search_with(&level, &known(longer), two);
            assert_eq!(
                verified_pushes(&level, &outcome),
                Some(optimum),
                "{level:?}"
            );
            // A plan found after the workers ran: they met a solved child.
            if stats.layer_expanded > 0 {
                match stats.layer_plans {
                    0 => handed_back += 1,
                    _ => theirs += 1,
                }
                expanded += stats.layer_expanded;
            }
        }
        let capped = Limits {
            max_pushes: Some(optimum - 1),
            ..Limits::default()
        };
        let (on_two, stats) = astar::search_with(&level, &capped, two);
        let (on_one, _) = astar::search_with(&level, &capped, one);
        assert_eq!(format!("{on_two:?}"), format!("{on_one:?}"), "{level:?}");
        expanded += stats.layer_expanded;
    }
    // Small rooms mostly start at the optimum (no layer to exhaust) but find plans.
    assert!(
        exhausted > 0 && theirs > 200 && expanded > 1000,
        "{exhausted} layers exhausted, {theirs} plans the workers', {handed_back} handed \
         back, {expanded} expansions by the workers"
    );
}

#[test]
fn the_last_layer_on_two_cores_proves_the_microban_optima() {
    // Every Microban level with its optimum known (microban-optimal.tsv, an independent
    // search) given to A* as a plan found beside it: the last layer on two workers
    // proves no plan shorter; a longer plan known, the workers find the optimum.
    let all = include_str!("../examples/sokoban/levels/microban.xsb");
    let optima = include_str!("../examples/sokoban/levels/microban-optimal.tsv");
    let two = astar::Options {
        layer_workers: 2,
        layer_after: 0,
        ..astar::Options::default()
    };
    let (mut exhausted, mut expanded, mut theirs) = (0, 0, 0);
    for row in optima.lines().skip(1) {
        let fields: Vec<&str> = row.split('\t').collect();
        let (Ok(n), Ok(optimum)) = (fields[0].parse(), fields[2].parse::<usize>()) else {
            continue;
        };
        let level = level(all, n);
        let limits = Limits::default();
        limits.known.plan_found(optimum);
        let (outcome, stats) = astar::search_with(&level, &limits, two);
        match outcome {
            Outcome::GaveUp { no_plan_below, .. } => assert_eq!(no_plan_below, optimum, "{n}"),
            other => panic!("Microban {n}: {other:?} with its optimum {optimum} known"),
        }
        if stats.layer_expanded > 0 {
            exhausted += 1;
            expanded += stats.layer_expanded;
        }
        let step = if push_parity(&level).is_some() { 2 } else { 1 };
        let limits = Limits::default();
        limits.known.plan_found(optimum + step);
        let (outcome, stats) = astar::search_with(&level, &limits, two);
        assert_eq!(verified_pushes(&level, &outcome), Some(optimum), "{n}");
        theirs += stats.layer_plans;
    }
    assert!(
        exhausted > 80 && expanded > 30_000 && theirs > 140,
        "{exhausted} layers exhausted, {expanded} expansions by the workers, {theirs} plans theirs"
    );
}
