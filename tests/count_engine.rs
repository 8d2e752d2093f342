//! The counting engine against brute force and against blocking-clause enumeration.
//!
//! The brute forces here share nothing with the engine or the encoder: one tries every
//! assignment of a small CNF, the other places stars cell by cell checking the Star
//! Battle rules directly.

mod common;
use common::Rng;
use gridsat::limits::Budget;
use gridsat::solver::count::{
    count_solutions, count_solutions_within, list_solutions, Count, Engine, Solutions,
};
use gridsat::solver::{count_all_within, AllSolutions, Session, Stopped};
use gridsat_encodings::cnf::{Cnf, Lit, Var};
use gridsat_encodings::star_battle::{encode, LineRule, Options, Puzzle, Zone};
use gridsat_encodings::{CardEncoding, Cell};
use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// A random CNF over `n` variables with a random projection (possibly empty or all).
fn random_cnf(rng: &mut Rng) -> Cnf {
    let mut cnf = Cnf::new();
    let n = 1 + rng.below(12);
    let projected_percent = [0, 30, 60, 100][rng.below(4)];
    for _ in 0..n {
        if rng.chance(projected_percent) {
            cnf.primary_var();
        } else {
            cnf.fresh_var();
        }
    }
    let clauses = rng.below(3 * n + 2);
    for _ in 0..clauses {
        let len = 1 + rng.below(4).min(rng.below(4)) + usize::from(rng.chance(70));
        let lits: Vec<Lit> = (0..len)
            .map(|_| Lit::new(Var::from_index(rng.below(n)), rng.chance(50)))
            .collect();
        cnf.clause(lits);
    }
    cnf
}

/// The projected solutions of `cnf` by trying all 2^n assignments.
fn brute_force(cnf: &Cnf) -> BTreeSet<Vec<bool>> {
    let n = cnf.num_vars();
    let mut found = BTreeSet::new();
    for bits in 0u64..1 << n {
        let values: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
        if cnf.is_satisfied_by(&values) {
            found.insert(project(cnf, &values));
        }
    }
    found
}

fn project(cnf: &Cnf, values: &[bool]) -> Vec<bool> {
    cnf.projection().iter().map(|v| values[v.index()]).collect()
}

/// Every solution the engine lists, checked to be a model and collected projected.
fn engine_listing(cnf: &Cnf) -> Vec<Vec<bool>> {
    let mut listed = Vec::new();
    let result = list_solutions(cnf, |values| {
        assert_eq!(values.len(), cnf.num_vars());
        assert!(cnf.is_satisfied_by(values), "listed a non-model of {cnf:?}");
        listed.push(project(cnf, values));
        ControlFlow::Continue(())
    });
    assert!(result.is_continue());
    listed
}

fn blocking_clause_listing(cnf: &Cnf) -> BTreeSet<Vec<bool>> {
    let mut found = BTreeSet::new();
    Session::new(cnf)
        .enumerate(None, |values| {
            found.insert(project(cnf, values));
            ControlFlow::Continue(())
        })
        .unwrap();
    found
}

fn as_set(listed: &[Vec<bool>]) -> BTreeSet<Vec<bool>> {
    let set: BTreeSet<Vec<bool>> = listed.iter().cloned().collect();
    assert_eq!(set.len(), listed.len(), "a solution was listed twice");
    set
}

/// The engine's count, its compiled count and its listing all equal the brute force's
/// solutions of `cnf`; true when there is at least one.
fn engine_agrees_with_brute_force(cnf: &Cnf) -> bool {
    let expected = brute_force(cnf);
    let count = count_solutions(cnf);
    assert_eq!(
        count,
        expected.len() as u128,
        "count of {}",
        cnf.to_dimacs_string()
    );
    let compiled = Solutions::compile(cnf);
    assert_eq!(compiled.count(), &count);
    let listed = engine_listing(cnf);
    assert_eq!(
        as_set(&listed),
        expected,
        "listing of {}",
        cnf.to_dimacs_string()
    );
    !expected.is_empty()
}

#[test]
fn count_and_listing_match_brute_force_on_random_cnfs() {
    let mut rng = Rng(0x5eed_cafe_f00d_0001);
    let mut nonzero = 0;
    for _ in 0..3000 {
        let cnf = random_cnf(&mut rng);
        nonzero += usize::from(engine_agrees_with_brute_force(&cnf));
    }
    // The generator must exercise both outcomes, or the test proves little.
    assert!(nonzero > 500 && nonzero < 2900, "{nonzero} satisfiable");
}

/// Clauses longer than 16 literals ("wide") are settled in keys by counting their true
/// literals and searched for new watches round from where the last search stopped (one
/// clause of 100,000 literals was quadratic): random formulas with several of them, and
/// short clauses that falsify their prefixes, against the brute force.
#[test]
fn wide_clauses_count_exactly() {
    let mut rng = Rng(0x5eed_cafe_f00d_0017);
    let mut nonzero = 0;
    for _ in 0..24 {
        let mut cnf = Cnf::new();
        let n = 17 + rng.below(2);
        let projected_percent = [30, 100][rng.below(2)];
        for _ in 0..n {
            if rng.chance(projected_percent) {
                cnf.primary_var();
            } else {
                cnf.fresh_var();
            }
        }
        for _ in 0..1 + rng.below(4) {
            let mut vars: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                vars.swap(i, rng.below(i + 1));
            }
            let len = 17 + rng.below(n - 16);
            let lits: Vec<Lit> = vars[..len]
                .iter()
                .map(|&v| Lit::new(Var::from_index(v), rng.chance(50)))
                .collect();
            cnf.clause(lits);
        }
        for _ in 0..rng.below(2 * n) {
            let len = 1 + rng.below(3);
            let lits: Vec<Lit> = (0..len)
                .map(|_| Lit::new(Var::from_index(rng.below(n)), rng.chance(50)))
                .collect();
            cnf.clause(lits);
        }
        nonzero += usize::from(engine_agrees_with_brute_force(&cnf));
    }
    assert!(nonzero > 4 && nonzero < 24, "{nonzero} satisfiable");
}

/// A random CNF whose auxiliary variables are AND gates of 3 to 5 literals over projected
/// variables, which the engine decides before the projected variables. Some "gates" miss
/// one of their binary clauses, so they are not functions of their inputs and must not be
/// decided; some gates are also constrained further by random clauses.
fn random_gated_cnf(rng: &mut Rng) -> Cnf {
    let mut cnf = Cnf::new();
    let inputs = 3 + rng.below(7);
    let cells: Vec<Var> = (0..inputs).map(|_| cnf.primary_var()).collect();
    let mut all: Vec<Var> = cells.clone();
    for _ in 0..1 + rng.below(5) {
        let fan_in = 3 + rng.below(3).min(inputs - 3);
        let mut chosen = cells.clone();
        for i in 0..fan_in {
            chosen.swap(i, i + rng.below(inputs - i));
        }
        let lits: Vec<Lit> = chosen[..fan_in]
            .iter()
            .map(|&v| Lit::new(v, rng.chance(60)))
            .collect();
        let gate = cnf.fresh_var();
        all.push(gate);
        let broken = rng.chance(20).then(|| rng.below(fan_in));
        for (i, &lit) in lits.iter().enumerate() {
            if broken != Some(i) {
                cnf.clause([gate.negative(), lit]);
            }
        }
        cnf.clause(std::iter::once(gate.positive()).chain(lits.iter().map(|&l| !l)));
    }
    for _ in 0..rng.below(2 * inputs) {
        let len = 1 + rng.below(3) + usize::from(rng.chance(50));
        let lits: Vec<Lit> = (0..len)
            .map(|_| Lit::new(all[rng.below(all.len())], rng.chance(50)))
            .collect();
        cnf.clause(lits);
    }
    cnf
}

#[test]
fn deciding_and_gates_first_keeps_counts_and_listings_exact() {
    let mut rng = Rng(0x5eed_cafe_f00d_0003);
    let mut nonzero = 0;
    for _ in 0..2000 {
        let cnf = random_gated_cnf(&mut rng);
        nonzero += usize::from(engine_agrees_with_brute_force(&cnf));
    }
    assert!(nonzero > 300 && nonzero < 1900, "{nonzero} satisfiable");
}

#[test]
fn the_search_decides_recognised_gates_only() {
    // x0..x2 projected; g = x0 & !x1 & x2 is a gate; h misses `!h | x2`, so it is not.
    let mut cnf = Cnf::new();
    let x: Vec<Var> = (0..3).map(|_| cnf.primary_var()).collect();
    let g = cnf.fresh_var();
    let h = cnf.fresh_var();
    let body = [x[0].positive(), x[1].negative(), x[2].positive()];
    for (output, skip) in [(g, None), (h, Some(2))] {
        for (i, &lit) in body.iter().enumerate() {
            if skip != Some(i) {
                cnf.clause([output.negative(), lit]);
            }
        }
        cnf.clause(std::iter::once(output.positive()).chain(body.iter().map(|&l| !l)));
    }
    let compiled = Solutions::compile(&cnf);
    assert_eq!(compiled.stats().gates, 1);
    // h is free when the body is false, yet every assignment of x0..x2 is one solution.
    assert_eq!(compiled.count(), &8u128);
}

#[test]
fn listing_matches_blocking_clause_enumeration_on_random_cnfs() {
    let mut rng = Rng(0x0bad_5eed_1234_5678);
    for _ in 0..300 {
        let cnf = random_cnf(&mut rng);
        assert_eq!(as_set(&engine_listing(&cnf)), blocking_clause_listing(&cnf));
    }
}

#[test]
fn listing_stops_when_the_callback_breaks() {
    let mut cnf = Cnf::new();
    for _ in 0..10 {
        cnf.primary_var();
    }
    let mut seen = 0;
    let result = list_solutions(&cnf, |_| {
        seen += 1;
        if seen == 7 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert!(result.is_break());
    assert_eq!(seen, 7);
}

#[test]
fn wide_instances_do_not_overflow() {
    // 70 free projected variables: 2^70 solutions.
    let mut cnf = Cnf::new();
    for _ in 0..70 {
        cnf.primary_var();
    }
    assert_eq!(count_solutions(&cnf), 1u128 << 70);
    assert!(count_solutions(&cnf).to_u64().is_none());

    // 45 independent clauses (a | b): 3^45, about 2.95e21, a product of components.
    let mut cnf = Cnf::new();
    for _ in 0..45 {
        let a = cnf.primary_var().positive();
        let b = cnf.primary_var().positive();
        cnf.clause([a, b]);
    }
    assert_eq!(count_solutions(&cnf), 3u128.pow(45));

    // 130 free variables: beyond u128, printed exactly.
    let mut cnf = Cnf::new();
    for _ in 0..130 {
        cnf.primary_var();
    }
    let count = count_solutions(&cnf);
    assert_eq!(count, Count::pow2(130));
    assert_eq!(
        count.to_string(),
        "1361129467683753853853498429727072845824"
    );
}

#[test]
fn undetermined_auxiliary_variables_are_not_counted() {
    // x projected; y, z auxiliary and free whenever x is true: still 2 solutions.
    let mut cnf = Cnf::new();
    let x = cnf.primary_var().positive();
    let y = cnf.fresh_lit();
    let z = cnf.fresh_lit();
    cnf.clause([x, y]);
    cnf.clause([x, z, !y]);
    assert_eq!(count_solutions(&cnf), 2u128);
    // An auxiliary part that is unsatisfiable whatever x is: 0 solutions.
    cnf.clause([y, z]);
    cnf.clause([!y, z]);
    cnf.clause([y, !z]);
    cnf.clause([!y, !z]);
    assert_eq!(count_solutions(&cnf), 0u128);
    assert!(engine_listing(&cnf).is_empty());
}

/// A Star Battle puzzle through the program's own parser (tested on its own elsewhere).
fn read_star_battle(text: &str) -> Puzzle {
    gridsat::star_battle::parse::parse(text)
        .expect("a corpus puzzle parses")
        .puzzle
}

fn star_battle_count(
    puzzle: &Puzzle,
    stars: usize,
    line_rule: LineRule,
    card: CardEncoding,
) -> Count {
    let options = Options {
        stars,
        line_rule,
        card,
    };
    count_solutions(&encode(puzzle, &options).cnf)
}

#[test]
fn corpus_counts_under_the_course_rule() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/star-battle/");
    for (file, stars, expected) in [
        ("twonot1.txt", 1, 1193u128),
        ("custom1.txt", 1, 17),
        ("custom2.txt", 2, 142),
    ] {
        let puzzle = read_star_battle(&std::fs::read_to_string(format!("{dir}{file}")).unwrap());
        for card in CardEncoding::ALL {
            assert_eq!(
                star_battle_count(&puzzle, stars, LineRule::AtMost, card),
                expected,
                "{file} S={stars} with {card}"
            );
        }
    }
}

/// A random partition of a grid into `zones` connected zones, grown from random seeds.
fn random_puzzle(rng: &mut Rng) -> Puzzle {
    let rows = 2 + rng.below(5);
    let cols = 2 + rng.below(5);
    let zones = 1 + rng.below(rows.max(cols));
    let mut owner: Vec<Option<usize>> = vec![None; rows * cols];
    for z in 0..zones {
        loop {
            let cell = rng.below(rows * cols);
            if owner[cell].is_none() {
                owner[cell] = Some(z);
                break;
            }
        }
    }
    while owner.iter().any(Option::is_none) {
        let cell = rng.below(rows * cols);
        if owner[cell].is_some() {
            continue;
        }
        let (r, c) = (cell / cols, cell % cols);
        let mut neighbours = Vec::new();
        if r > 0 {
            neighbours.push(cell - cols);
        }
        if r + 1 < rows {
            neighbours.push(cell + cols);
        }
        if c > 0 {
            neighbours.push(cell - 1);
        }
        if c + 1 < cols {
            neighbours.push(cell + 1);
        }
        let n = neighbours[rng.below(neighbours.len())];
        owner[cell] = owner[n];
    }
    let zones = (0..zones)
        .map(|z| Zone {
            label: (b'a' + z as u8) as char,
            cells: (0..rows * cols)
                .filter(|&i| owner[i] == Some(z))
                .map(|i| Cell::new(i / cols, i % cols))
                .collect(),
        })
        .collect();
    Puzzle { rows, cols, zones }
}

/// All star placements, found by placing stars cell by cell and checking the rules as
/// stated: zones exactly S, rows and columns at most (or exactly) S, no two touching.
fn brute_force_stars(puzzle: &Puzzle, stars: usize, rule: LineRule) -> BTreeSet<Vec<bool>> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    let labels = puzzle.labels();
    let zone_of: Vec<usize> = labels
        .iter()
        .map(|l| {
            puzzle
                .zones
                .iter()
                .position(|z| Some(z.label) == *l)
                .unwrap()
        })
        .collect();
    let mut found = BTreeSet::new();
    let mut star = vec![false; rows * cols];
    fn place(
        at: usize,
        star: &mut Vec<bool>,
        ctx: (&Puzzle, &[usize], usize, LineRule),
        found: &mut BTreeSet<Vec<bool>>,
    ) {
        let (puzzle, zone_of, s, rule) = ctx;
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        if at == rows * cols {
            let zone_ok = (0..puzzle.zones.len()).all(|z| {
                (0..rows * cols)
                    .filter(|&i| star[i] && zone_of[i] == z)
                    .count()
                    == s
            });
            let line_ok = |count: usize| match rule {
                LineRule::AtMost => count <= s,
                LineRule::Exact => count == s,
            };
            let rows_ok =
                (0..rows).all(|r| line_ok((0..cols).filter(|&c| star[r * cols + c]).count()));
            let cols_ok =
                (0..cols).all(|c| line_ok((0..rows).filter(|&r| star[r * cols + c]).count()));
            if zone_ok && rows_ok && cols_ok {
                found.insert(star.clone());
            }
            return;
        }
        place(at + 1, star, ctx, found);
        let (r, c) = (at / cols, at % cols);
        let touches = (r.saturating_sub(1)..=(r + 1).min(rows - 1))
            .any(|rr| (c.saturating_sub(1)..=(c + 1).min(cols - 1)).any(|cc| star[rr * cols + cc]));
        let row_full = (0..cols).filter(|&cc| star[r * cols + cc]).count() >= s;
        let col_full = (0..rows).filter(|&rr| star[rr * cols + c]).count() >= s;
        let zone_full = (0..rows * cols)
            .filter(|&i| star[i] && zone_of[i] == zone_of[at])
            .count()
            >= s;
        if !touches && !row_full && !col_full && !zone_full {
            star[at] = true;
            place(at + 1, star, ctx, found);
            star[at] = false;
        }
    }
    place(0, &mut star, (puzzle, &zone_of, stars, rule), &mut found);
    found
}

#[test]
fn random_star_battles_match_brute_force_and_blocking_clauses() {
    let mut rng = Rng(0x57a7_ba77_1e00_0003);
    let mut with_solutions = 0;
    for round in 0..240 {
        let puzzle = random_puzzle(&mut rng);
        let stars = 1 + rng.below(2);
        let rule = if round % 2 == 0 {
            LineRule::AtMost
        } else {
            LineRule::Exact
        };
        let card = CardEncoding::ALL[rng.below(CardEncoding::ALL.len())];
        let encoded = encode(
            &puzzle,
            &Options {
                stars,
                line_rule: rule,
                card,
            },
        );
        let expected = brute_force_stars(&puzzle, stars, rule);
        let what = format!("{puzzle:?} S={stars} {} {card}", rule.name());
        assert_eq!(
            count_solutions(&encoded.cnf),
            expected.len() as u128,
            "{what}"
        );
        let listed = engine_listing(&encoded.cnf);
        let listed = as_set(&listed);
        assert_eq!(listed, expected, "{what}");
        assert_eq!(listed, blocking_clause_listing(&encoded.cnf), "{what}");
        with_solutions += usize::from(!expected.is_empty());
    }
    assert!(
        with_solutions > 40,
        "only {with_solutions} instances had solutions"
    );
}

/// Within a budget that does not run out, every budgeted request answers exactly what
/// the brute force finds: the engine's count, `count_all_within` and the listing of
/// `AllSolutions::find_within`.
#[test]
fn budgeted_requests_that_finish_are_exact() {
    let mut rng = Rng(0x5eed_cafe_f00d_0005);
    let budget = Budget::starting_now(Some(Duration::from_secs(3600)));
    for _ in 0..500 {
        let cnf = random_cnf(&mut rng);
        let expected = brute_force(&cnf);
        let count = Count::from(expected.len() as u64);
        let what = cnf.to_dimacs_string();
        assert_eq!(
            count_solutions_within(&cnf, &budget),
            Ok(count.clone()),
            "{what}"
        );
        let all = count_all_within(&cnf, &budget).unwrap();
        assert_eq!(all, Ok(count.clone()), "{what}");
        let all = AllSolutions::find_within(&cnf, &budget).unwrap().unwrap();
        assert_eq!(all.count(), count, "{what}");
        let mut listed = Vec::new();
        let _ = all.for_each(|values| {
            assert!(cnf.is_satisfied_by(values));
            listed.push(project(&cnf, values));
            ControlFlow::Continue(())
        });
        assert_eq!(as_set(&listed), expected, "{what}");
    }
}

/// N queens on an N x N board, one per row and column, at most one per diagonal, the
/// lines stated as native cardinality constraints.
fn queens(n: usize) -> Cnf {
    let mut cnf = Cnf::new();
    let board: Vec<Vec<Lit>> = (0..n)
        .map(|_| (0..n).map(|_| cnf.primary_var().positive()).collect())
        .collect();
    let card = CardEncoding::SequentialCounter;
    let mut lines: Vec<(Vec<Lit>, usize)> = Vec::new();
    for (i, row) in board.iter().enumerate() {
        lines.push((row.clone(), 1));
        lines.push((board.iter().map(|row| row[i]).collect(), 1));
    }
    for d in 0..2 * n - 1 {
        let on = |r: usize, c: isize| (0..n as isize).contains(&c).then(|| board[r][c as usize]);
        let diagonal = (0..n).filter_map(|r| on(r, d as isize - r as isize));
        let anti = (0..n).filter_map(|r| on(r, d as isize + 1 - n as isize + r as isize));
        for line in [diagonal.collect::<Vec<Lit>>(), anti.collect()] {
            if line.len() > 1 {
                lines.push((line, 0));
            }
        }
    }
    for (line, lo) in lines {
        card.constrain(&mut cnf, &line, lo, 1);
    }
    cnf
}

#[test]
fn queens_are_counted_exactly() {
    // The known counts (OEIS A000170).
    for (n, expected) in [(4, 2u128), (5, 10), (6, 4), (8, 92), (10, 724)] {
        assert_eq!(count_solutions(&queens(n)), expected, "{n} queens");
    }
}

/// 16 queens would take the engine minutes (14,772,512 solutions; 13 take a second,
/// each size about five times the one before). Within half a second it stops within a
/// moment of the deadline, with a bound that is positive (whole sub-trees were counted)
/// and at most the true count; `count_all_within` as well.
#[test]
fn a_budgeted_count_of_a_long_search_stops_promptly_with_a_sound_bound() {
    let cnf = queens(16);
    let true_count = 14_772_512u128;
    let half_second = Duration::from_millis(500);
    let began = Instant::now();
    let (counted, stats) = Engine::new(&cnf)
        .budget(&Budget::starting_now(Some(half_second)))
        .count();
    let took = began.elapsed();
    let Err(Stopped { at_least }) = counted else {
        panic!("16 queens counted in {took:?}: {counted:?}");
    };
    assert!(took < half_second + Duration::from_secs(2), "{took:?}");
    let bound = at_least.to_u128().expect("a bound below the count");
    assert!(bound > 0 && bound <= true_count, "at least {bound}");
    assert!(stats.decisions > 0);

    let began = Instant::now();
    let budget = Budget::starting_now(Some(half_second));
    let counted = count_all_within(&cnf, &budget).unwrap();
    let took = began.elapsed();
    let Err(Stopped { at_least }) = counted else {
        panic!("16 queens counted in {took:?}: {counted:?}");
    };
    assert!(took < half_second + Duration::from_secs(2), "{took:?}");
    assert!(at_least.to_u128().is_some_and(|n| n > 0 && n <= true_count));
}

/// The target of `gridsat star-battle examples/star-battle/twonot2.txt --stars 2 --count
/// --timeout 1`: nobody knows the count (the engine ran for 400 s without an answer),
/// but within a second the solver layer stops, a moment after the deadline, with
/// solutions proven.
#[test]
fn twonot2_with_two_stars_stops_at_a_one_second_budget_with_solutions_proven() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/star-battle/");
    let puzzle = read_star_battle(&std::fs::read_to_string(format!("{dir}twonot2.txt")).unwrap());
    for line_rule in [LineRule::Exact, LineRule::AtMost] {
        let options = Options {
            stars: 2,
            line_rule,
            card: CardEncoding::default(),
        };
        let cnf = encode(&puzzle, &options).cnf;
        let began = Instant::now();
        let budget = Budget::starting_now(Some(Duration::from_secs(1)));
        let counted = count_all_within(&cnf, &budget).unwrap();
        let took = began.elapsed();
        let Err(Stopped { at_least }) = counted else {
            panic!("twonot2 S=2 counted in {took:?}: {counted:?}");
        };
        assert!(
            took < Duration::from_secs(3),
            "{} took {took:?}",
            line_rule.name()
        );
        assert!(!at_least.is_zero(), "{}", line_rule.name());
    }
}
