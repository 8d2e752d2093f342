//! Random small Star Battle puzzles, both rules: the SAT path (encode, enumerate, verify)
//! must find exactly the solutions a plain backtracking search finds. The search below
//! is written from the rules alone and shares nothing with the encoder.

mod common;
use common::Rng;
use gridsat::answer::repair::Report;
use gridsat::answer::{find, Answer};
use gridsat::cli::Mode;
use gridsat::limits::Budget;
use gridsat::star_battle::check::check as verify;
use gridsat::star_battle::puzzle::StarBattle;
use gridsat_encodings::grid::Cell;
use gridsat_encodings::star_battle::{LineRule, Puzzle, Stars, Zone};
use gridsat_encodings::CardEncoding;
use std::sync::Arc;

/// The documented order: at the first cell (row-major) where two boards differ, the
/// one with a star there comes first.
fn order_solutions(solutions: &mut [Stars]) {
    solutions.sort_by(|a, b| b.star.cmp(&a.star));
}

/// Every solution through the answer layer, in its order.
fn solve_all(puzzle: &StarBattle) -> Vec<Stars> {
    let answer = find(
        Arc::new(puzzle.clone()),
        Mode::All { limit: None },
        &Budget::unlimited(),
    );
    let Answer::All {
        boards,
        more: false,
    } = answer.unwrap()
    else {
        panic!("not a complete listing");
    };
    boards
        .iter()
        .map(|star| Stars {
            rows: puzzle.puzzle.rows,
            cols: puzzle.puzzle.cols,
            star,
        })
        .collect()
}

fn count(puzzle: &StarBattle) -> u128 {
    match find(
        Arc::new(puzzle.clone()),
        Mode::Count { limit: None },
        &Budget::unlimited(),
    ) {
        Ok(Answer::Count {
            count,
            at_least: false,
        }) => count.to_u128().unwrap(),
        other => panic!("not a complete count: {other:?}"),
    }
}

fn determined(puzzle: &StarBattle) -> Option<Vec<Option<bool>>> {
    match find(
        Arc::new(puzzle.clone()),
        Mode::Determined,
        &Budget::unlimited(),
    ) {
        Ok(Answer::Determined(cells)) => cells,
        other => panic!("not a determined answer: {other:?}"),
    }
}

/// A random partition of a rows x cols grid into at most `max_zones` labelled zones
/// (zones need not be contiguous for the rules to make sense).
fn random_puzzle(rng: &mut Rng) -> Puzzle {
    let rows = 1 + rng.below(5);
    let cols = 1 + rng.below(5);
    let max_zones = 1 + rng.below(rows.max(cols) + 1);
    let mut zones: Vec<Zone> = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let k = rng.below(max_zones);
            let label = (b'A' + k as u8) as char;
            match zones.iter_mut().find(|z| z.label == label) {
                Some(z) => z.cells.push(Cell::new(r, c)),
                None => zones.push(Zone {
                    label,
                    cells: vec![Cell::new(r, c)],
                }),
            }
        }
    }
    Puzzle { rows, cols, zones }
}

/// Every placement, by trying star / no star cell by cell in row-major order and
/// backing out as soon as a row, column or zone is over S or two stars touch.
fn brute_force(p: &Puzzle, s: usize, rule: LineRule) -> Vec<Vec<bool>> {
    let zone_of: Vec<usize> = {
        let mut z = vec![0; p.rows * p.cols];
        for (i, zone) in p.zones.iter().enumerate() {
            for c in &zone.cells {
                z[c.row * p.cols + c.col] = i;
            }
        }
        z
    };
    let mut found = Vec::new();
    let mut star = vec![false; p.rows * p.cols];
    fn go(
        i: usize,
        p: &Puzzle,
        s: usize,
        rule: LineRule,
        zone_of: &[usize],
        star: &mut Vec<bool>,
        found: &mut Vec<Vec<bool>>,
    ) {
        let n = p.rows * p.cols;
        if i == n {
            let count = |f: &dyn Fn(usize) -> bool| (0..n).filter(|&j| star[j] && f(j)).count();
            let zones_ok = (0..p.zones.len()).all(|z| count(&|j| zone_of[j] == z) == s);
            let lines_ok = |found: usize| match rule {
                LineRule::AtMost => found <= s,
                LineRule::Exact => found == s,
            };
            let rows_ok = (0..p.rows).all(|r| lines_ok(count(&|j| j / p.cols == r)));
            let cols_ok = (0..p.cols).all(|c| lines_ok(count(&|j| j % p.cols == c)));
            if zones_ok && rows_ok && cols_ok {
                found.push(star.clone());
            }
            return;
        }
        go(i + 1, p, s, rule, zone_of, star, found);
        let (r, c) = ((i / p.cols) as isize, (i % p.cols) as isize);
        let touches = (-1..=1).any(|dr| {
            (-1..=1).any(|dc| {
                let (nr, nc) = (r + dr, c + dc);
                (dr, dc) != (0, 0)
                    && nr >= 0
                    && nc >= 0
                    && (nr as usize) < p.rows
                    && (nc as usize) < p.cols
                    && star[nr as usize * p.cols + nc as usize]
            })
        });
        let over = |f: &dyn Fn(usize) -> bool| (0..n).filter(|&j| star[j] && f(j)).count() >= s;
        if touches
            || over(&|j| j / p.cols == r as usize)
            || over(&|j| j % p.cols == c as usize)
            || over(&|j| zone_of[j] == zone_of[i])
        {
            return;
        }
        star[i] = true;
        go(i + 1, p, s, rule, zone_of, star, found);
        star[i] = false;
    }
    go(0, p, s, rule, &zone_of, &mut star, &mut found);
    found
}

/// A puzzle built around a planted one-star-per-zone placement, so it has at least one
/// solution under the seed's rule: stars in distinct, non-touching rows and columns, each
/// the seed of a zone that then grows into random neighbouring cells.
fn planted_puzzle(rng: &mut Rng) -> Puzzle {
    let rows = 2 + rng.below(4);
    let cols = 2 + rng.below(4);
    let mut seeds: Vec<Cell> = Vec::new();
    for r in 0..rows {
        let c = rng.below(cols);
        let free = seeds
            .iter()
            .all(|s| s.col != c && (s.row.abs_diff(r) > 1 || s.col.abs_diff(c) > 1));
        if free && rng.chance(80) {
            seeds.push(Cell::new(r, c));
        }
    }
    if seeds.is_empty() {
        seeds.push(Cell::new(0, 0));
    }
    common::zones::grown(rng, rows, cols, &seeds)
}

#[test]
fn sat_solutions_equal_brute_force_on_random_puzzles() {
    let mut rng = Rng::new(2022);
    let mut nonzero = 0;
    for case in 0..400 {
        let planted = case % 2 == 0;
        let puzzle = if planted {
            planted_puzzle(&mut rng)
        } else {
            random_puzzle(&mut rng)
        };
        let stars = if planted { 1 } else { 1 + rng.below(2) };
        let rule = if rng.chance(50) {
            LineRule::AtMost
        } else {
            LineRule::Exact
        };
        let card = CardEncoding::ALL[case % 4];
        let mut want: Vec<Stars> = brute_force(&puzzle, stars, rule)
            .into_iter()
            .map(|star| Stars {
                rows: puzzle.rows,
                cols: puzzle.cols,
                star,
            })
            .collect();
        order_solutions(&mut want);
        let problem = StarBattle::new(puzzle.clone(), stars, rule, card);
        let got = solve_all(&problem);
        assert_eq!(
            got, want,
            "case {case}: {puzzle:?} S={stars} {rule:?} {card}"
        );
        assert_eq!(count(&problem), want.len() as u128, "case {case}");
        for s in &got {
            assert_eq!(verify(&puzzle, stars, rule, s), Ok(()));
        }
        nonzero += usize::from(!want.is_empty());
    }
    // The generator must produce solvable puzzles often enough for the test to mean something.
    assert!(
        nonzero > 120,
        "only {nonzero} of 400 random puzzles were solvable"
    );
}

#[test]
fn determined_cells_agree_with_the_full_solution_list() {
    let mut rng = Rng::new(7);
    for case in 0..150 {
        let puzzle = random_puzzle(&mut rng);
        let rule = if rng.chance(50) {
            LineRule::AtMost
        } else {
            LineRule::Exact
        };
        let problem = StarBattle::new(puzzle.clone(), 1, rule, CardEncoding::Totalizer);
        let all = brute_force(&puzzle, 1, rule);
        let det = determined(&problem);
        match det {
            None => assert!(all.is_empty(), "case {case}"),
            Some(cells) => {
                assert!(!all.is_empty(), "case {case}");
                for (i, cell) in cells.iter().enumerate() {
                    let same = all.iter().all(|s| s[i] == all[0][i]);
                    let want = same.then(|| all[0][i]);
                    assert_eq!(*cell, want, "case {case} cell {i}");
                }
            }
        }
    }
}

#[test]
fn verifier_rejects_every_wrong_placement_the_brute_force_rejects() {
    // On tiny grids, enumerate ALL placements: the verifier accepts exactly the brute
    // force's solutions. This keeps the checker honest independently of the encoder.
    let mut rng = Rng::new(99);
    for _ in 0..60 {
        let mut puzzle = random_puzzle(&mut rng);
        if puzzle.rows * puzzle.cols > 12 {
            puzzle = Puzzle {
                rows: 2,
                cols: 3,
                zones: vec![
                    Zone {
                        label: 'A',
                        cells: vec![Cell::new(0, 0), Cell::new(1, 0), Cell::new(1, 1)],
                    },
                    Zone {
                        label: 'B',
                        cells: vec![Cell::new(0, 1), Cell::new(0, 2), Cell::new(1, 2)],
                    },
                ],
            };
        }
        let n = puzzle.rows * puzzle.cols;
        for rule in [LineRule::AtMost, LineRule::Exact] {
            let good = brute_force(&puzzle, 1, rule);
            for bits in 0..(1u32 << n) {
                let star: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                let accepted = verify(
                    &puzzle,
                    1,
                    rule,
                    &Stars {
                        rows: puzzle.rows,
                        cols: puzzle.cols,
                        star: star.clone(),
                    },
                )
                .is_ok();
                assert_eq!(accepted, good.contains(&star));
            }
        }
    }
}

/// The single-cell moves of a zone border the brute force allows: a cell handed to a
/// zone next to it, its own zone keeping a cell and staying in one piece if it was.
fn border_moves(p: &Puzzle) -> Vec<(usize, usize, usize, usize, Puzzle)> {
    let zone_of = |r: usize, c: usize| {
        p.zones
            .iter()
            .position(|z| z.cells.contains(&Cell::new(r, c)))
            .unwrap()
    };
    let connected = |cells: &[Cell]| {
        let mut seen = vec![cells[0]];
        let mut k = 0;
        while k < seen.len() {
            let a = seen[k];
            for &b in cells {
                if !seen.contains(&b) && a.row.abs_diff(b.row) + a.col.abs_diff(b.col) == 1 {
                    seen.push(b);
                }
            }
            k += 1;
        }
        seen.len() == cells.len()
    };
    let mut moves = Vec::new();
    for r in 0..p.rows {
        for c in 0..p.cols {
            let from = zone_of(r, c);
            let rest: Vec<Cell> = p.zones[from]
                .cells
                .iter()
                .copied()
                .filter(|&x| x != Cell::new(r, c))
                .collect();
            if rest.is_empty() || (connected(&p.zones[from].cells) && !connected(&rest)) {
                continue;
            }
            let mut targets: Vec<usize> = [(0isize, 1isize), (0, -1), (1, 0), (-1, 0)]
                .iter()
                .filter_map(|&(dr, dc)| {
                    let (nr, nc) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
                    (nr < p.rows && nc < p.cols).then(|| zone_of(nr, nc))
                })
                .filter(|&z| z != from)
                .collect();
            targets.sort();
            targets.dedup();
            for to in targets {
                let mut moved = p.clone();
                moved.zones[from].cells.retain(|&x| x != Cell::new(r, c));
                moved.zones[to].cells.push(Cell::new(r, c));
                moves.push((r, c, from, to, moved));
            }
        }
    }
    moves
}

/// `--repair` on puzzles with several solutions: every reported move is counted again
/// by the brute force on the moved puzzle; when some move makes the puzzle unique, those
/// are the moves listed, else the one listed leaves the fewest solutions of all moves.
#[test]
fn border_moves_reported_are_counted_again_by_brute_force() {
    let mut rng = Rng::new(77);
    let mut checked = 0;
    for case in 0..400 {
        let puzzle = random_puzzle(&mut rng);
        let rule = if case % 2 == 0 {
            LineRule::AtMost
        } else {
            LineRule::Exact
        };
        if brute_force(&puzzle, 1, rule).len() < 2 {
            continue;
        }
        let sb = Arc::new(StarBattle::new(
            puzzle.clone(),
            1,
            rule,
            CardEncoding::Totalizer,
        ));
        let Answer::Repair(Report::NotUnique { repairs, .. }) =
            find(sb, Mode::Repair, &Budget::unlimited()).unwrap()
        else {
            panic!("case {case}: not a report of several solutions");
        };
        let moves = border_moves(&puzzle);
        let counts: Vec<usize> = moves
            .iter()
            .map(|m| brute_force(&m.4, 1, rule).len())
            .collect();
        let name = |m: &(usize, usize, usize, usize, Puzzle)| {
            format!(
                "move cell (row {}, col {}) from zone '{}' to zone '{}'",
                m.0, m.1, puzzle.zones[m.2].label, puzzle.zones[m.3].label
            )
        };
        for repair in &repairs {
            let k = moves
                .iter()
                .position(|m| repair.changes == [name(m)])
                .unwrap_or_else(|| {
                    panic!("case {case}: {:?} is not a border move", repair.changes)
                });
            assert_eq!(repair.solutions, counts[k] as u128, "case {case}");
        }
        let unique = counts.iter().filter(|&&n| n == 1).count();
        if unique > 0 {
            assert_eq!(repairs.len(), unique.min(10), "case {case}");
            assert!(repairs.iter().all(|r| r.is_unique()), "case {case}");
        } else if let Some(&fewest) = counts.iter().filter(|&&n| n > 0).min() {
            assert_eq!(repairs.len(), 1, "case {case}");
            assert_eq!(repairs[0].solutions, fewest as u128, "case {case}");
        } else {
            assert!(repairs.is_empty(), "case {case}");
        }
        checked += 1;
    }
    assert!(checked > 40, "only {checked} puzzles had several solutions");
}

/// `--repair` on puzzles without a solution: the rules it names have no placement
/// together by brute force, and leaving out any one of them gives one.
#[test]
fn conflicting_rules_are_a_minimal_conflict_by_brute_force() {
    let mut rng = Rng::new(5);
    let mut checked = 0;
    for case in 0..300 {
        let puzzle = random_puzzle(&mut rng);
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        if rows * cols > 12 || !brute_force(&puzzle, 1, LineRule::Exact).is_empty() {
            continue;
        }
        let sb = Arc::new(StarBattle::new(
            puzzle.clone(),
            1,
            LineRule::Exact,
            CardEncoding::Totalizer,
        ));
        let Answer::Repair(Report::Conflict(rules)) =
            find(sb, Mode::Repair, &Budget::unlimited()).unwrap()
        else {
            panic!("case {case}: not a conflict report");
        };
        // Whether some placement keeps every rule named (each rule read back from its words).
        let holds = |rules: &[&String], star: &[bool]| {
            let count =
                |f: &dyn Fn(usize) -> bool| (0..rows * cols).filter(|&j| star[j] && f(j)).count();
            rules.iter().all(|rule| {
                let number = |prefix: &str| {
                    rule.strip_prefix(prefix)?
                        .split(':')
                        .next()?
                        .parse::<usize>()
                        .ok()
                };
                if let Some(label) = rule.strip_prefix("zone '").and_then(|r| r.chars().next()) {
                    let zone = puzzle.zones.iter().find(|z| z.label == label).unwrap();
                    zone.cells
                        .iter()
                        .filter(|c| star[c.row * cols + c.col])
                        .count()
                        == 1
                } else if let Some(r) = number("row ") {
                    count(&|j| j / cols == r) == 1
                } else if let Some(c) = number("column ") {
                    count(&|j| j % cols == c) == 1
                } else {
                    assert_eq!(rule.as_str(), "no two stars touch");
                    (0..rows * cols).all(|a| {
                        (0..rows * cols).all(|b| {
                            a == b
                                || !(star[a] && star[b])
                                || (a / cols).abs_diff(b / cols) > 1
                                || (a % cols).abs_diff(b % cols) > 1
                        })
                    })
                }
            })
        };
        let solvable = |rules: &[&String]| {
            (0u32..1 << (rows * cols)).any(|bits| {
                let star: Vec<bool> = (0..rows * cols).map(|i| bits >> i & 1 == 1).collect();
                holds(rules, &star)
            })
        };
        let all: Vec<&String> = rules.iter().collect();
        assert!(!solvable(&all), "case {case}: {rules:?} have a solution");
        for k in 0..all.len() {
            let mut fewer = all.clone();
            fewer.remove(k);
            assert!(
                solvable(&fewer),
                "case {case}: {rules:?} without {}",
                all[k]
            );
        }
        checked += 1;
    }
    assert!(checked > 30, "only {checked} puzzles had no solution");
}

#[test]
fn generated_puzzles_have_one_solution_by_brute_force_and_come_again_from_their_seed() {
    use gridsat::star_battle::generate::generate;
    for (size, stars, seeds) in [(4, 1, 0..12u64), (5, 1, 0..12), (6, 1, 0..8)] {
        for seed in seeds {
            let (puzzle, planted) = generate(size, stars, seed).unwrap();
            let all = brute_force(&puzzle.puzzle, stars, LineRule::Exact);
            assert_eq!(
                all,
                vec![planted.clone()],
                "{size} x {size}, S={stars}, seed {seed}"
            );
            // Every zone one piece, S planted stars in each.
            for zone in &puzzle.puzzle.zones {
                let starred = zone.cells.iter().filter(|c| planted[c.row * size + c.col]);
                assert_eq!(starred.count(), stars, "seed {seed}: zone {}", zone.label);
                let mut seen = vec![zone.cells[0]];
                let mut k = 0;
                while k < seen.len() {
                    let a = seen[k];
                    for &b in &zone.cells {
                        if !seen.contains(&b) && a.row.abs_diff(b.row) + a.col.abs_diff(b.col) == 1
                        {
                            seen.push(b);
                        }
                    }
                    k += 1;
                }
                assert_eq!(
                    seen.len(),
                    zone.cells.len(),
                    "seed {seed}: zone {} in pieces",
                    zone.label
                );
            }
            let (again, _) = generate(size, stars, seed).unwrap();
            assert_eq!(
                again.puzzle, puzzle.puzzle,
                "seed {seed} gives another puzzle"
            );
        }
    }
    // Two stars need 8 x 8 at least, past the brute force: counted by the engine (which
    // the brute force checks above on smaller boards).
    for seed in 0..4 {
        let (puzzle, _) = generate(8, 2, seed).unwrap();
        assert_eq!(count(&puzzle), 1, "8 x 8, S=2, seed {seed}");
    }
}
