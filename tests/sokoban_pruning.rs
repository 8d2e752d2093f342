//! The Sokoban encoding's pruning clause families: each is sound (the SAT optimum equals
//! an independent breadth-first search on many random small levels, with every family on
//! and with each one off), and the commuting-push order really removes plans while
//! keeping at least one of every satisfiable horizon.

use gridsat::sokoban::check::replay;
use gridsat::sokoban::plan::to_lurd;
use gridsat::sokoban::search::{bfs, sat};
use gridsat::sokoban::{Limits, Outcome};
use gridsat::solver::Session;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::sokoban::{Analysis, Level, PlanEncoding, Pruning, Push};

mod common;
use common::sokoban::{assert_bfs_exhausts, level, Room};
use common::Rng;

const MICROBAN_1_10: &str = include_str!("../examples/sokoban/microban-1-10.xsb");

/// Every real plan of exactly `horizon` pushes the encoding admits (at most `limit`),
/// each checked by the referee; `ordered` assumes the commuting-push order.
fn plans(
    level: &Level,
    pruning: Pruning,
    horizon: usize,
    ordered: bool,
    limit: usize,
) -> Vec<Vec<Push>> {
    let analysis = Analysis::new(level);
    let mut encoding = PlanEncoding::with_pruning(level, &analysis, pruning);
    encoding.extend_to(horizon);
    let h = encoding.horizon(horizon);
    let mut session = Session::new(&Cnf::new());
    let mut sent = 0;
    let mut found = Vec::new();
    let mut assumptions = vec![h.goal];
    if ordered {
        assumptions.push(encoding.commute());
    }
    while found.len() < limit {
        for clause in encoding.cnf().clauses().skip(sent) {
            session.add_clause(clause);
        }
        sent = encoding.cnf().num_clauses();
        let Some(values) = session.solve_under(&assumptions).unwrap() else {
            break;
        };
        let sets = encoding.unfounded_sets(&values, horizon);
        if !sets.is_empty() {
            for set in sets {
                encoding.forbid_unfounded(set);
            }
            continue;
        }
        let plan = encoding.decode(&values, horizon);
        let lurd = to_lurd(level, &plan).unwrap();
        assert_eq!(replay(level, &lurd).unwrap().pushes, horizon);
        encoding.block_plan(&plan);
        found.push(plan);
    }
    found
}

#[test]
fn commuting_order_keeps_a_plan_and_removes_others() {
    // Microban 4 and 5 have several push-optimal plans that differ only in the order of
    // independent pushes; the order keeps one of them.
    for (n, pushes) in [(1, 8), (2, 3), (3, 13), (4, 7), (5, 6)] {
        let level = level(MICROBAN_1_10, n);
        let all = plans(&level, Pruning::default(), pushes, false, 1000);
        let ordered = plans(&level, Pruning::default(), pushes, true, 1000);
        assert!(!ordered.is_empty(), "level {n}");
        assert!(ordered.iter().all(|p| all.contains(p)), "level {n}");
        if n >= 4 {
            assert!(
                ordered.len() < all.len(),
                "level {n}: {} of {}",
                ordered.len(),
                all.len()
            );
        }
        // One horizon fewer: no plan at all.
        assert!(plans(&level, Pruning::default(), pushes - 1, false, 1).is_empty());
    }
}

/// The positions (boxes, and the least square of the player's region) of a plan, time by
/// time, by a walk written apart from the encoder.
fn positions(level: &Level, plan: &[Push]) -> Vec<(Vec<usize>, usize)> {
    let mut boxes = level.boxes().to_vec();
    let mut player = level.player();
    let mut out = Vec::new();
    for t in 0..=plan.len() {
        let mut region = vec![player];
        let mut seen = vec![false; level.num_cells()];
        seen[player] = true;
        let mut i = 0;
        while i < region.len() {
            let c = region[i];
            i += 1;
            for d in gridsat_encodings::sokoban::Dir::ALL {
                if let Some(m) = level.neighbour(c, d) {
                    if !seen[m] && !boxes.contains(&m) {
                        seen[m] = true;
                        region.push(m);
                    }
                }
            }
        }
        let mut sorted = boxes.clone();
        sorted.sort_unstable();
        out.push((sorted, *region.iter().min().unwrap()));
        if let Some(push) = plan.get(t) {
            let target = level.neighbour(push.from, push.dir).unwrap();
            let i = boxes.iter().position(|&b| b == push.from).unwrap();
            boxes[i] = target;
            player = push.from;
        }
    }
    out
}

/// Whether some box is pushed and straight back, bringing back the position of two steps
/// before.
fn has_undo(level: &Level, plan: &[Push]) -> bool {
    let positions = positions(level, plan);
    plan.windows(2).enumerate().any(|(t, pair)| {
        pair[1].from == level.neighbour(pair[0].from, pair[0].dir).unwrap()
            && pair[1].dir == pair[0].dir.opposite()
            && positions[t] == positions[t + 2]
    })
}

#[test]
fn no_undo_removes_back_and_forth_plans_of_longer_horizons_only() {
    // Two pushes more than the optimum: some plans waste them by pushing a box and
    // straight back. The optimal horizon keeps its plans (see the commuting test).
    let without = Pruning {
        no_undo: false,
        ..Pruning::default()
    };
    let mut removed = 0;
    for (n, pushes) in [(2, 3), (5, 6)] {
        let level = level(MICROBAN_1_10, n);
        let all = plans(&level, without, pushes + 2, true, 5000);
        let kept = plans(&level, Pruning::default(), pushes + 2, true, 5000);
        assert!(all.len() < 5000, "level {n}: enumeration cut short");
        assert!(kept.iter().all(|p| all.contains(p)), "level {n}");
        assert!(!kept.iter().any(|p| has_undo(&level, p)), "level {n}");
        let undos = all.iter().filter(|p| has_undo(&level, p)).count();
        assert_eq!(kept.len() + undos, all.len(), "level {n}");
        removed += undos;
    }
    assert!(removed > 0);
}

/// Rooms of 4x4 to 6x5 inside squares, 1 to 3 boxes, sometimes a spare goal.
const ROOM: Room = Room {
    max_rows: 6,
    max_cols: 5,
    max_boxes: 3,
    wall_one_in: 7,
    spare_goal_one_in: Some(6),
    boxed_goal_one_in: 6,
};

/// The SAT search (with `pruning`) and the breadth-first search agree on `count` random
/// levels: the same push count for every level BFS solves (the SAT plan replayed), no
/// SAT plan where BFS proves there is none within the push limit.
fn agree_with_bfs(seed: u64, count: usize, pruning: Option<Pruning>) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let limits = Limits {
        max_pushes: Some(16),
        max_plans: 1,
        ..Limits::default()
    };
    let (mut solved, mut unsolved, mut checked) = (0, 0, 0);
    while checked < count {
        let Some(level) = ROOM.draw(&mut rng) else {
            continue;
        };
        checked += 1;
        let by_bfs = bfs::search(&level, &limits);
        let by_sat = match pruning {
            None => sat::solve(&level, &limits, &mut |_| {}),
            Some(p) => sat::solve_with_pruning(&level, &limits, p, &mut |_| {}),
        }
        .unwrap();
        match (&by_bfs, &by_sat) {
            (Outcome::Solved(b), Outcome::Solved(s)) => {
                solved += 1;
                assert_eq!(s.pushes.len(), b.pushes.len(), "{level:?}");
                assert!(s.push_optimal);
                let lurd = to_lurd(&level, &s.pushes).unwrap();
                assert_eq!(replay(&level, &lurd).unwrap().pushes, s.pushes.len());
            }
            (Outcome::Unsolvable { .. }, Outcome::Unsolvable { .. }) => unsolved += 1,
            // A static argument of the SAT side (a box that can never reach a goal with
            // the player walking around it) can see further than the push limit: BFS
            // without the limit must exhaust the level.
            (Outcome::GaveUp { .. }, Outcome::Unsolvable { .. }) => {
                unsolved += 1;
                assert_bfs_exhausts(&level);
            }
            (
                Outcome::Unsolvable { .. } | Outcome::GaveUp { .. },
                Outcome::GaveUp { no_plan_below, .. },
            ) => {
                unsolved += 1;
                // Parity may skip the horizon 17 straight to 18.
                assert!(
                    (17..=18).contains(no_plan_below),
                    "{no_plan_below} on {level:?}"
                );
            }
            (b, s) => panic!("bfs {b:?}, sat {s:?} on {level:?}"),
        }
    }
    (solved, unsolved)
}

#[test]
fn every_pruning_family_on_agrees_with_breadth_first_search() {
    let (solved, unsolved) = agree_with_bfs(0x5DEE_CE66_D1CE_4E5B, 400, None);
    assert!(
        solved > 100 && unsolved > 20,
        "{solved} solved, {unsolved} unsolved"
    );
}

#[test]
fn each_pruning_family_alone_agrees_with_breadth_first_search() {
    let none = Pruning {
        reach_closure: false,
        goal_cover: false,
        goal_sum_steps: 0,
        commute: false,
        no_undo: false,
    };
    let variants = [
        none,
        Pruning {
            reach_closure: true,
            ..none
        },
        Pruning {
            goal_cover: true,
            ..none
        },
        Pruning {
            goal_sum_steps: 16,
            ..none
        },
        Pruning {
            reach_closure: true,
            commute: true,
            ..none
        },
        Pruning {
            no_undo: true,
            ..none
        },
    ];
    for (i, pruning) in variants.into_iter().enumerate() {
        let (solved, _) = agree_with_bfs(0xA076_1D64_78BD_642F ^ i as u64, 120, Some(pruning));
        assert!(solved > 30, "{pruning:?}: {solved} solved");
    }
}
