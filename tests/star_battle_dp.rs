//! The counting engine against a second way of counting Star Battle written apart from
//! it: the row-by-row frontier dynamic program of `examples/star_battle_dp` (no CNF, no
//! solver). Random boards up to 7 x 7 with one or two stars and both line rules, and
//! the corpus puzzle twonot2 with one star (2,372,207 boards).
//!
//! The figure for two stars (the DP's and the engine's) is a long run, not a test: see
//! `docs/counting.md`.

mod common;
// The test reads only the count, not the DP's own statistics.
#[allow(dead_code)]
#[path = "../examples/star_battle_dp/frontier.rs"]
mod frontier;

use common::Rng;
use frontier::{Board, Lines};
use gridsat::answer::{find, Answer};
use gridsat::cli::Mode;
use gridsat::limits::Budget;
use gridsat::star_battle::puzzle::StarBattle;
use gridsat_encodings::grid::Cell;
use gridsat_encodings::star_battle::{LineRule, Puzzle};
use gridsat_encodings::CardEncoding;
use std::sync::Arc;

fn engine_count(puzzle: &Puzzle, stars: usize, rule: LineRule, card: CardEncoding) -> u128 {
    let problem = StarBattle::new(puzzle.clone(), stars, rule, card);
    match find(
        Arc::new(problem),
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

fn dp_count(puzzle: &Puzzle, stars: usize, rule: LineRule) -> u128 {
    let mut zone_of = vec![usize::MAX; puzzle.rows * puzzle.cols];
    for (z, zone) in puzzle.zones.iter().enumerate() {
        for cell in &zone.cells {
            zone_of[cell.row * puzzle.cols + cell.col] = z;
        }
    }
    let board = Board {
        rows: puzzle.rows,
        cols: puzzle.cols,
        zone_of,
        zones: puzzle.zones.len(),
    };
    let lines = match rule {
        LineRule::AtMost => Lines::AtMost,
        LineRule::Exact => Lines::Exact,
    };
    frontier::count(&board, stars, lines).unwrap().count
}

/// A rows x cols board cut into `zones` zones grown from random seed cells into
/// neighbouring cells, so that zones are contiguous as in real puzzles.
fn random_puzzle(rng: &mut Rng, rows: usize, cols: usize, zones: usize) -> Puzzle {
    let mut seeds: Vec<Cell> = Vec::new();
    while seeds.len() < zones {
        let i = rng.below(rows * cols);
        let cell = Cell::new(i / cols, i % cols);
        if !seeds.contains(&cell) {
            seeds.push(cell);
        }
    }
    common::zones::grown(rng, rows, cols, &seeds)
}

#[test]
fn the_frontier_dp_and_the_engine_agree_on_random_boards() {
    let mut rng = Rng::new(18);
    let mut nonzero = [0; 2];
    for case in 0..300 {
        let stars = 1 + rng.below(2);
        // One star: square boards with n zones, as the puzzles are, and now and then a
        // rectangle with another number of zones. Two stars need about 10 x 10 for
        // square boards to have solutions, too large for the brute force's sizes:
        // rectangles with fewer zones than lines, at most a quarter of their cells
        // (the most stars that do not touch) over S.
        let (rows, cols, zones) = if stars == 1 && rng.chance(80) {
            let n = 4 + rng.below(4);
            (n, n, n)
        } else {
            let (rows, cols) = (3 + rng.below(5), 3 + rng.below(5));
            let room = rows.div_ceil(2) * cols.div_ceil(2) / stars;
            (rows, cols, 1 + rng.below(room))
        };
        let puzzle = random_puzzle(&mut rng, rows, cols, zones);
        let rule = if rng.chance(if stars == 1 { 50 } else { 80 }) {
            LineRule::AtMost
        } else {
            LineRule::Exact
        };
        let card = CardEncoding::ALL[case % CardEncoding::ALL.len()];
        let want = dp_count(&puzzle, stars, rule);
        let got = engine_count(&puzzle, stars, rule, card);
        assert_eq!(
            got, want,
            "case {case}: {puzzle:?} S={stars} {rule:?} {card}"
        );
        nonzero[stars - 1] += usize::from(want > 0);
    }
    // Both kinds must have solutions often enough for the test to mean something.
    assert!(nonzero[0] > 30 && nonzero[1] > 30, "{nonzero:?}");
}

#[test]
fn twonot2_with_one_star_has_2372207_boards_both_ways() {
    let path = common::root().join("examples/star-battle/twonot2.txt");
    let text = common::read(&path);
    let puzzle = gridsat::star_battle::parse::parse(&text).unwrap().puzzle;
    for rule in [LineRule::AtMost, LineRule::Exact] {
        assert_eq!(dp_count(&puzzle, 1, rule), 2_372_207, "{rule:?}");
        assert_eq!(
            engine_count(&puzzle, 1, rule, CardEncoding::default()),
            2_372_207,
            "{rule:?}"
        );
    }
}
