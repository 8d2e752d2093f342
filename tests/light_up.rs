//! The toy fifth puzzle (examples/light_up/, docs/adding-a-puzzle.md) through the shared
//! answer layer: every mode agrees with a brute force over all placements of lights on
//! small random boards. This is what the `BoardPuzzle` trait promises a new puzzle.

mod common;
#[path = "../examples/light_up/light_up.rs"]
#[allow(dead_code)]
mod light_up;

use common::Rng;
use gridsat::answer::{find, Answer, BoardPuzzle, Verdict};
use gridsat::cli::Mode;
use gridsat::limits::Budget;
use light_up::{LightUp, Square};
use std::sync::Arc;

fn random_board(rng: &mut Rng) -> LightUp {
    let (rows, cols) = (1 + rng.below(4), 1 + rng.below(4));
    let squares = (0..rows * cols)
        .map(|_| match rng.below(10) {
            0 => Square::Wall(None),
            1 => Square::Wall(Some(rng.below(3))),
            _ => Square::White,
        })
        .collect();
    LightUp::new(rows, cols, squares)
}

/// Every placement of lights that the puzzle's own checker accepts.
fn brute_force(puzzle: &LightUp) -> Vec<Vec<bool>> {
    let n = puzzle.rows * puzzle.cols;
    let mut found: Vec<Vec<bool>> = (0..1u32 << n)
        .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|lights| puzzle.check(lights).is_ok())
        .collect();
    // The documented order: a placed cell first at the first difference.
    found.sort_by(|a, b| b.cmp(a));
    found
}

#[test]
fn every_mode_agrees_with_brute_force() {
    let mut rng = Rng::new(4);
    let mut solvable = 0;
    for case in 0..300 {
        let puzzle = Arc::new(random_board(&mut rng));
        let want = brute_force(&puzzle);
        let budget = Budget::unlimited();
        let ask = |mode| find(puzzle.clone(), mode, &budget).unwrap();
        match ask(Mode::All { limit: None }) {
            Answer::All { boards, more } => {
                assert!(!more);
                assert_eq!(boards.iter().collect::<Vec<_>>(), want, "case {case}");
            }
            other => panic!("{other:?}"),
        }
        match ask(Mode::Count { limit: None }) {
            Answer::Count { count, at_least } => {
                assert!(!at_least);
                assert_eq!(count, want.len() as u128, "case {case}");
            }
            other => panic!("{other:?}"),
        }
        match ask(Mode::Unique) {
            Answer::Unique(Verdict::NoSolution) => assert!(want.is_empty(), "case {case}"),
            Answer::Unique(Verdict::Unique(cells)) => assert_eq!(vec![cells], want, "case {case}"),
            Answer::Unique(Verdict::Multiple(a, b)) => {
                assert!(
                    a != b && want.contains(&a) && want.contains(&b),
                    "case {case}"
                )
            }
            other => panic!("{other:?}"),
        }
        match ask(Mode::Determined) {
            Answer::Determined(None) => assert!(want.is_empty()),
            Answer::Determined(Some(cells)) => {
                for (i, cell) in cells.iter().enumerate() {
                    let same = want.iter().all(|s| s[i] == want[0][i]);
                    assert_eq!(*cell, same.then(|| want[0][i]), "case {case} cell {i}");
                }
            }
            other => panic!("{other:?}"),
        }
        solvable += usize::from(!want.is_empty());
    }
    assert!(solvable > 60, "only {solvable} of 300 boards were solvable");
}

#[test]
fn the_file_format_is_read_and_refused_with_lines() {
    let puzzle = light_up::parse("..1\n.#.\n").unwrap();
    assert_eq!((puzzle.rows, puzzle.cols), (2, 3));
    let e = light_up::parse("..1\n.x.\n").unwrap_err();
    assert_eq!(e.line, 2);
    let e = light_up::parse("..1\n..\n").unwrap_err();
    assert_eq!(e.line, 2);
}
