//! The one solver layer every puzzle uses: a SAT backend behind a trait, and on top of it
//! solving, enumeration with blocking clauses, uniqueness and determined cells.
//!
//! Puzzles never talk to varisat: they hand a `Cnf` to a `Session` (one solution,
//! uniqueness, determined cells, a few solutions) or to `AllSolutions` / `count_all`
//! (every solution, or their number: the counting engine in `count`, with blocking
//! clauses as the fallback when the engine meets mostly dead ends and the answer is a
//! few solutions).

mod all;
mod backend;
mod session;

pub use all::{count_all, AllSolutions, PROBE};
pub use backend::{SatBackend, SolverError, Varisat};
pub use session::{Assignment, Session, Uniqueness};

pub mod count;
