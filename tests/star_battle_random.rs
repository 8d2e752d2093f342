//! Random small Star Battle puzzles, both rules: the SAT path (encode, enumerate, verify)
//! must find exactly the solutions a plain backtracking search finds. The search below
//! is written from the rules alone and shares nothing with the encoder.

mod common;
use common::Rng;
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
    let mut owner: Vec<Option<usize>> = vec![None; rows * cols];
    for (k, s) in seeds.iter().enumerate() {
        owner[s.row * cols + s.col] = Some(k);
    }
    while owner.iter().any(Option::is_none) {
        let i = rng.below(rows * cols);
        if owner[i].is_some() {
            continue;
        }
        let (r, c) = (i / cols, i % cols);
        let neighbours = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        let zones: Vec<usize> = neighbours
            .iter()
            .filter(|&&(nr, nc)| nr < rows && nc < cols)
            .filter_map(|&(nr, nc)| owner[nr * cols + nc])
            .collect();
        if !zones.is_empty() {
            owner[i] = Some(zones[rng.below(zones.len())]);
        }
    }
    let zones = (0..seeds.len())
        .map(|k| Zone {
            label: (b'a' + k as u8) as char,
            cells: (0..rows * cols)
                .filter(|&i| owner[i] == Some(k))
                .map(|i| Cell::new(i / cols, i % cols))
                .collect(),
        })
        .collect();
    Puzzle { rows, cols, zones }
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
