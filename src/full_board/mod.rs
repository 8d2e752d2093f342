//! Full Board: read map files, decide each map (the minimum number of moves and every
//! game of that length, or a proof that no game wins), replay every game with an
//! independent check, and print the course's exact text or JSON.
//!
//! - `parse`: the map-file grammar. `cli`: the command. `render`: text and JSON.
//! - `solve`: the pipeline that decides a map, cheapest argument first, with its
//!   time limit; `refute` (sound arguments and the window relaxation, the line cover),
//!   `bounded` (the exhaustive search on two threads), `search` (the SAT searches and
//!   their race); `context` (options, budget, progress) and `verdict` (the answers).
//! - `symmetry`: the board's reflections and turns (one start cell per orbit).
//! - `check`: the independent replay. `formula`: the CNF `--dimacs` writes.

pub mod bounded;
pub mod check;
pub mod cli;
pub mod context;
pub mod formula;
pub mod parse;
pub mod picture;
pub mod refute;
pub mod render;
pub mod search;
pub mod solve;
pub mod symmetry;
pub mod verdict;
