//! gridsat-encodings: everything that turns a puzzle model into CNF.
//!
//! Pure: no files, no terminal, no solver. A puzzle module states its rules over
//! grid-shaped literal arrays (`grid`) and cardinality constraints (`card`), and
//! returns a `Cnf` plus a map from variables back to puzzle meaning.
//!
//! Layers, each naming only those below it: `lit` (variables, literals), `cnf` (the
//! builder), `grid` and `card` (shapes and cardinality constraints over the builder), then
//! the puzzles.

pub mod battleship;
pub mod card;
pub mod cnf;
pub mod full_board;
pub mod grid;
pub mod lit;
pub mod sokoban;
pub mod star_battle;

pub use card::CardEncoding;
pub use cnf::Cnf;
pub use grid::{Cell, LitGrid};
pub use lit::{Lit, Var};
