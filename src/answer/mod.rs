//! Answers, written once for every puzzle: the modes and their renderings.
//!
//! `items` prints the answers for a file of several puzzles (Sokoban levels, Full Board
//! maps) as they come.

pub mod items;
