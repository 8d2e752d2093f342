//! Battleship solitaire: the puzzle's own parts. `parse` reads the course's format,
//! `puzzle` states the rules for the answer layer (its CNF comes from the encodings
//! crate), `ships` reads the ships off a board of ship cells, `check` is the independent
//! rule checker, `draw` the ship lines and the framed board, `file` writes a puzzle in
//! the course's format and `url` reads and writes it as a puzz.link URL, `course` the
//! course program's command line, `cli` the command.

pub mod check;
pub mod cli;
pub mod course;
pub mod draw;
pub mod file;
pub mod generate;
pub mod parse;
pub mod puzzle;
pub mod repair;
pub mod ships;
pub mod url;
