//! `gridsat sokoban --dimacs`: the written formula of a level's plans, read back and
//! solved or counted by code that shares nothing with the search (the DIMACS reader,
//! a fresh solver session, `gridsat count-cnf`, and a brute-force count of plans over
//! the rules alone): satisfiable at the proven optimum, unsatisfiable one push below,
//! and with the push variables projected, as many models as plans.

use gridsat::dimacs::parse_dimacs;
use gridsat::solver::Session;
use gridsat_encodings::sokoban::{Dir, Level};
use std::collections::HashMap;
use std::path::Path;

mod common;
use common::sokoban::{gridsat_sokoban, level};

const MICROBAN_1_10: &str = include_str!("../examples/sokoban/microban-1-10.xsb");
const FILE: &str = "examples/sokoban/microban-1-10.xsb";
/// The push-optimal counts of Microban 1-10.
const OPTIMA: [usize; 10] = [8, 3, 13, 7, 6, 29, 6, 32, 10, 21];

/// Writes the formula of level `n` (extra flags `more`) to `path` and reads it back.
fn written(n: usize, path: &Path, more: &[&str]) -> gridsat_encodings::cnf::Cnf {
    let n = n.to_string();
    let mut args = vec![FILE, "--level", &n, "--dimacs", path.to_str().unwrap()];
    args.extend(more);
    let (code, out, err) = gridsat_sokoban(&args);
    assert!(code == 0 || code == 4, "{out}{err}");
    parse_dimacs(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Whether the formula has a model; when it has, the number of push variables (the
/// projection) it sets, which must be one per step.
fn solve(cnf: &gridsat_encodings::cnf::Cnf) -> Option<usize> {
    let values = Session::new(cnf).solve().unwrap()?;
    assert!(cnf.is_satisfied_by(&values));
    Some(
        cnf.projection()
            .iter()
            .filter(|v| values[v.index()])
            .count(),
    )
}

#[test]
fn formulas_at_the_optimum_are_satisfiable_and_one_push_below_not() {
    let dir = tempfile::tempdir().unwrap();
    for n in [1, 2, 3, 4, 5, 7, 9] {
        let optimum = OPTIMA[n - 1];
        let path = dir.path().join(format!("level-{n}.cnf"));
        // By default the horizon is the proven minimum.
        assert_eq!(solve(&written(n, &path, &[])), Some(optimum), "level {n}");
        for below in [optimum - 1, optimum - 2] {
            let k = below.to_string();
            let cnf = written(n, &path, &["--horizon", &k]);
            assert_eq!(solve(&cnf), None, "level {n}, {below} pushes");
        }
    }
}

/// The number of push sequences of exactly `pushes` pushes that solve `level`, by the
/// rules alone: a push needs the square behind the box in the player's region (walking
/// around the boxes) and a free square in front; walking is free, so a position is the
/// boxes and the player's region. Pruned only by the Manhattan distances of the boxes to
/// their nearest goals, which no plan can beat (a push moves one box one square).
fn brute_force_plans(level: &Level, pushes: usize) -> u64 {
    let mut boxes = level.boxes().to_vec();
    boxes.sort_unstable();
    let mut memo = HashMap::new();
    count(level, boxes, level.player(), pushes, &mut memo)
}

fn count(
    level: &Level,
    boxes: Vec<usize>,
    player: usize,
    left: usize,
    memo: &mut HashMap<(Vec<usize>, usize, usize), u64>,
) -> u64 {
    let manhattan = |a: usize, b: usize| {
        let (p, q) = (level.position(a), level.position(b));
        p.row.abs_diff(q.row) + p.col.abs_diff(q.col)
    };
    let distance: usize = boxes
        .iter()
        .map(|&b| {
            level
                .goals()
                .iter()
                .map(|&g| manhattan(b, g))
                .min()
                .unwrap()
        })
        .sum();
    if distance > left {
        return 0;
    }
    if left == 0 {
        return u64::from(boxes.iter().all(|&b| level.is_goal(b)));
    }
    // The player's region, named by its smallest square.
    let mut region = vec![false; level.num_cells()];
    let mut stack = vec![player];
    region[player] = true;
    while let Some(c) = stack.pop() {
        for d in Dir::ALL {
            if let Some(m) = level.neighbour(c, d) {
                if !region[m] && !boxes.contains(&m) {
                    region[m] = true;
                    stack.push(m);
                }
            }
        }
    }
    let name = region.iter().position(|&r| r).unwrap();
    let key = (boxes.clone(), name, left);
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mut total = 0;
    for (i, &b) in boxes.iter().enumerate() {
        for d in Dir::ALL {
            let (Some(behind), Some(target)) =
                (level.neighbour(b, d.opposite()), level.neighbour(b, d))
            else {
                continue;
            };
            if !region[behind] || boxes.contains(&target) {
                continue;
            }
            let mut next = boxes.clone();
            next[i] = target;
            next.sort_unstable();
            total += count(level, next, b, left - 1, memo);
        }
    }
    memo.insert(key, total);
    total
}

/// `gridsat count-cnf FILE`: the model count projected on the file's `c p show` set.
fn model_count(path: &Path) -> u64 {
    let out = common::gridsat(&["count-cnf", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    common::stdout(&out).trim().parse().unwrap()
}

#[test]
fn model_counts_are_the_plans_a_brute_force_counts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plans.cnf");
    let mut several = 0;
    for n in [1, 2, 4, 5, 7] {
        let optimum = OPTIMA[n - 1];
        let plans = brute_force_plans(&level(MICROBAN_1_10, n), optimum);
        // Without the families that keep one order of a plan's pushes, every plan.
        written(n, &path, &["--no-prune", "commute,undo"]);
        assert_eq!(model_count(&path), plans, "level {n}");
        // With them, at least one plan and no more than there are.
        written(n, &path, &[]);
        let ordered = model_count(&path);
        assert!(
            (1..=plans).contains(&ordered),
            "level {n}: {ordered} of {plans}"
        );
        several += usize::from(plans > 1);
    }
    assert!(several >= 3, "the levels must have several plans to count");
    // Two pushes more than the optimum, without the ban on undoing a push: the plans
    // that waste two pushes are there too.
    let k = (OPTIMA[3] + 2).to_string();
    written(4, &path, &["--no-prune", "commute,undo", "--horizon", &k]);
    assert_eq!(
        model_count(&path),
        brute_force_plans(&level(MICROBAN_1_10, 4), OPTIMA[3] + 2)
    );
}

#[test]
fn unsolvable_and_given_up_levels_write_the_horizon_they_stand_at() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.cnf");
    // The corridor: the matching bound's horizon, unsatisfiable as every horizon is.
    let (code, _, _) = gridsat_sokoban(&[
        "examples/sokoban/unsolvable.xsb",
        "--dimacs",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let cnf = parse_dimacs(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(solve(&cnf), None);
    // Level 3 given up at 10 pushes: the bound proven is 13, the optimum.
    let cnf = written(3, &path, &["--max-pushes", "10"]);
    assert_eq!(solve(&cnf), Some(13));
}

#[test]
fn a_file_of_levels_writes_one_formula_each_with_a_placeholder() {
    let dir = tempfile::tempdir().unwrap();
    let levels: Vec<&str> = MICROBAN_1_10.split("\n\n").collect();
    // Levels 2, 4 and 5 of the file (a block each for the title and the board).
    let text = [
        levels[3], levels[4], levels[7], levels[8], levels[9], levels[10],
    ]
    .join("\n\n");
    let file = common::write_temp(&text);
    let each = dir.path().join("level-{}.cnf");
    let (code, out, err) = gridsat_sokoban(&[
        file.path().to_str().unwrap(),
        "--dimacs",
        each.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    for (n, optimum) in [(1, 3), (2, 7), (3, 6)] {
        let path = dir.path().join(format!("level-{n}.cnf"));
        let cnf = parse_dimacs(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(solve(&cnf), Some(optimum), "level {n}");
    }
    // Without the placeholder only the first level is written, and stderr says so.
    let one = dir.path().join("first.cnf");
    let (code, _, err) = gridsat_sokoban(&[
        file.path().to_str().unwrap(),
        "--dimacs",
        one.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(err.contains("the CNF of item 1 of 3 only"), "{err}");
    let cnf = parse_dimacs(&std::fs::read_to_string(&one).unwrap()).unwrap();
    assert_eq!(solve(&cnf), Some(3));
    // --horizon needs --dimacs.
    let (code, _, err) = gridsat_sokoban(&[FILE, "--level", "1", "--horizon", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--dimacs"), "{err}");
}
