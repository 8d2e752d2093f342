//! Star Battle: the puzzle's own parts. `parse` reads the two file formats, `puzzle`
//! states the rules for the answer layer (its CNF comes from the encodings crate),
//! `check` is the independent rule checker, `draw` the boards and the course's output
//! file, `file` writes a puzzle in the two file formats and `url` reads and writes it as
//! a puzz.link URL, `course` the course program's command line, `cli` the command,
//! `generate` makes unique puzzles. Its encodings are compared by `gridsat bench
//! star-battle` (`crate::bench`).

pub mod check;
pub mod cli;
pub mod course;
pub mod draw;
pub mod file;
pub mod generate;
pub mod parse;
pub mod puzzle;
pub mod repair;
pub mod url;
