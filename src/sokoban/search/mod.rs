//! The searches for push-optimal plans, and what they share.
//!
//! Two searches prove their answers: the SAT search over a growing horizon (`sat`) and
//! the best-first search over pushes (`astar`); `portfolio` runs both side by side.
//! `bfs` is the plain breadth-first baseline (and the tests' oracle), and `moves` the
//! search for the fewest moves among the push-optimal plans that follows A*.
//! `formula` writes the SAT encoding of one horizon as a standalone CNF. `quick` proves
//! nothing: it finds a plan fast (`--quick`), beside A* for the bound (`quick::anytime`).
//!
//! The push searches (A*, the split bound's half searches, the fewest-moves search) are
//! built from small parts, one file each: positions and their table (`positions`), the
//! player's region (`flood`), the matching bound (`heuristic`, which repairs lately
//! expanded positions' matchings, `saved`), freeze deadlocks
//! (`freeze`), PI-corrals (`corral`), the expansion of a position into its children
//! (`expand`), the open list (`open`), the split bound (`split`) and the perimeter bound
//! (`perimeter`).

pub mod astar;
pub mod bfs;
mod corral;
mod expand;
mod flood;
pub mod formula;
mod freeze;
mod heuristic;
pub mod moves;
mod open;
mod pairs;
mod perimeter;
pub mod portfolio;
mod positions;
pub mod quick;
#[cfg(test)]
mod rooms;
pub mod sat;
mod saved;
mod split;

use gridsat_encodings::sokoban::{Analysis, Level};

/// A proof that no plan exists, from the static analysis alone: a box on a dead square,
/// or no assignment of the boxes to distinct goals they can each reach.
pub fn static_unsolvable(level: &Level, analysis: &Analysis) -> Option<String> {
    for &b in level.boxes() {
        if analysis.dead[b] {
            let p = level.position(b);
            return Some(format!(
                "the box at row {}, column {} can never be pushed onto a goal",
                p.row + 1,
                p.col + 1
            ));
        }
    }
    if analysis.lower_bound.is_none() {
        return Some("the boxes cannot be matched to distinct goals they can each reach".into());
    }
    None
}
