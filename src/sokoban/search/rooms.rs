//! Test helpers the search modules share: a level's walls with other boxes, goals and
//! player, the breadth-first optimum of a position, and a seeded draw.

use super::bfs;
use crate::sokoban::{Limits, Outcome};
use gridsat_encodings::grid::Cell;
use gridsat_encodings::sokoban::{Level, Square};

/// `level`'s walls with a box on each square where `boxed`, a goal where `goal`, and the
/// player on `player`.
pub(super) fn room(
    level: &Level,
    boxed: impl Fn(usize) -> bool,
    goal: impl Fn(usize) -> bool,
    player: usize,
) -> Level {
    let grid: Vec<Vec<Square>> = (0..level.rows())
        .map(|r| {
            (0..level.cols())
                .map(|c| match level.cell_at(Cell::new(r, c)) {
                    Some(cell) => Square {
                        wall: false,
                        goal: goal(cell),
                        boxed: boxed(cell),
                        player: cell == player,
                    },
                    None => Square {
                        wall: true,
                        ..Square::default()
                    },
                })
                .collect()
        })
        .collect();
    Level::new(&grid).expect("a position of a level is a level")
}

/// The fewest pushes from `level`'s position, `None` if it has no plan.
pub(super) fn optimum(level: &Level) -> Option<u32> {
    match bfs::search(level, &Limits::default()) {
        Outcome::Solved(plan) => Some(plan.pushes.len() as u32),
        Outcome::Unsolvable { .. } => None,
        other => panic!("{other:?}"),
    }
}

/// Draws below `n` from a small generator, the same on every run.
pub(super) fn draws(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % n
    }
}
