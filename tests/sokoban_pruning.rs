//! The Sokoban encoding's pruning clause families: each is sound (the SAT optimum equals
//! an independent breadth-first search on many random small levels, with every family on
//! and with each one off), and the commuting-push order really removes plans while
//! keeping at least one of every satisfiable horizon.

use gridsat::sokoban::parse::{parse_levels, Format};
use gridsat::sokoban::plan::to_lurd;
use gridsat::sokoban::simulate::replay;
use gridsat::sokoban::{bfs, solve, Limits, Outcome};
use gridsat::solver::Session;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::sokoban::{Analysis, Level, PlanEncoding, Pruning, Push, Square};

const MICROBAN_1_10: &str = include_str!("../examples/sokoban/microban-1-10.xsb");

fn level(text: &str, n: usize) -> Level {
    parse_levels(text, Format::Auto, Some(n)).unwrap()[0]
        .level
        .clone()
}

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

/// A deterministic generator (xorshift), seeded per test so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random walled room of 4x4 to 6x5 squares with scattered walls, 1 to 3 boxes (off
/// the edge), as many goals, sometimes a spare goal or a box already on a goal.
fn random_level(rng: &mut Rng) -> Option<Level> {
    let rows = 4 + rng.below(3);
    let cols = 4 + rng.below(2);
    let mut grid = vec![vec![Square::default(); cols + 2]; rows + 2];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, sq) in row.iter_mut().enumerate() {
            sq.wall = r == 0 || c == 0 || r == rows + 1 || c == cols + 1 || rng.below(7) == 0;
        }
    }
    let mut free: Vec<(usize, usize)> = (1..=rows)
        .flat_map(|r| (1..=cols).map(move |c| (r, c)))
        .filter(|&(r, c)| !grid[r][c].wall)
        .collect();
    let boxes = 1 + rng.below(3);
    let mut inner: Vec<(usize, usize)> = free
        .iter()
        .copied()
        .filter(|&(r, c)| r > 1 && c > 1 && r < rows && c < cols)
        .collect();
    if inner.len() < boxes || free.len() < 2 * boxes + 3 {
        return None;
    }
    for _ in 0..boxes {
        let (r, c) = inner.swap_remove(rng.below(inner.len()));
        free.retain(|&f| f != (r, c));
        grid[r][c].boxed = true;
    }
    let goals = boxes + usize::from(rng.below(6) == 0);
    for _ in 0..goals {
        let (r, c) = free.swap_remove(rng.below(free.len()));
        grid[r][c].goal = true;
    }
    if rng.below(6) == 0 {
        let (r, c) = free.swap_remove(rng.below(free.len()));
        grid[r][c].boxed = true;
        grid[r][c].goal = true;
    }
    let (r, c) = free.swap_remove(rng.below(free.len()));
    grid[r][c].player = true;
    Level::new(&grid).ok()
}

/// The SAT search (with `pruning`) and the breadth-first search agree on `count` random
/// levels: the same push count for every level BFS solves (the SAT plan replayed), no
/// SAT plan where BFS proves there is none within the push limit.
fn agree_with_bfs(seed: u64, count: usize, pruning: Option<Pruning>) -> (usize, usize) {
    let mut rng = Rng(seed);
    let limits = Limits {
        max_pushes: Some(16),
        max_plans: 1,
        ..Limits::default()
    };
    let (mut solved, mut unsolved, mut checked) = (0, 0, 0);
    while checked < count {
        let Some(level) = random_level(&mut rng) else {
            continue;
        };
        checked += 1;
        let by_bfs = bfs::search(&level, &limits);
        let by_sat = match pruning {
            None => solve::solve(&level, &limits, &mut |_| {}),
            Some(p) => solve::solve_with_pruning(&level, &limits, p, &mut |_| {}),
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
                let unlimited = bfs::search(&level, &Limits::default());
                assert!(
                    matches!(unlimited, Outcome::Unsolvable { .. }),
                    "{unlimited:?} on {level:?}"
                );
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
    ];
    for (i, pruning) in variants.into_iter().enumerate() {
        let (solved, _) = agree_with_bfs(0xA076_1D64_78BD_642F ^ i as u64, 120, Some(pruning));
        assert!(solved > 30, "{pruning:?}: {solved} solved");
    }
}
