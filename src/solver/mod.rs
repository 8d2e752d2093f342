//! The one solver layer every puzzle uses: a SAT backend behind a trait, and on top of it
//! solving, enumeration with blocking clauses, uniqueness and determined cells.
//!
//! Puzzles never talk to varisat: they hand a `Cnf` to a `Session`.

mod backend;
mod session;

pub use backend::{SatBackend, SolverError, Varisat};
pub use session::{Session, Uniqueness};

pub mod count;
