//! The one solver layer every puzzle uses: a SAT backend behind a trait, and on top of it
//! solving, enumeration with blocking clauses, uniqueness and determined cells.
//!
//! The backend is varisat, or CaDiCaL in a build with the `cadical` feature, chosen once
//! per process (`backend::choose`, from `--solver`).
//!
//! Puzzles never talk to a SAT solver: they hand a `Cnf` to a `Session` (one solution,
//! uniqueness, determined cells, a few solutions) or to `AllSolutions` / `count_all`
//! (every solution, or their number: the counting engine in `count`, with blocking
//! clauses as the fallback when the engine meets mostly dead ends and the answer is a
//! few solutions).
//!
//! Every request that may take long has a form that takes a `limits::Budget`
//! (`count_all_within`, `AllSolutions::find_within`, `Session::enumerate_within`,
//! `count::Engine::budget`): its answer is `Budgeted<T>`, the whole answer or `Stopped {
//! at_least }`, the number of solutions proven when the budget ran out.

mod all;
pub mod backend;
mod session;

pub use all::{count_all, count_all_within, AllSolutions, PROBE};
pub use backend::{Backend, SatBackend, SolverError, Varisat};
pub use session::{Assignment, Session, Uniqueness};

pub mod count;
pub mod hitting;

pub use count::{Budgeted, Stopped};
