//! The puzzles' contests, one file each: their cases and choices, and one timed run.
//! Star Battle and Battleship share the run of a board puzzle (`board`).

pub mod battleship;
pub mod board;
pub mod full_board;
pub mod sokoban;
pub mod star_battle;

use std::path::Path;

/// A file's name for the tables: its last component.
pub fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
