//! gridsat-encodings: everything that turns a puzzle model into CNF.
//!
//! Pure: no files, no terminal, no solver. A puzzle module states its rules over
//! grid-shaped literal arrays (`grid`) and cardinality constraints (`card`), and
//! returns a `Cnf` plus a map from variables back to puzzle meaning.

pub mod battleship;
pub mod card;
pub mod cnf;
pub mod full_board;
pub mod grid;
pub mod sokoban;
pub mod star_battle;

pub use card::CardEncoding;
pub use cnf::{Cnf, Lit, Var};
pub use grid::{Cell, LitGrid};
