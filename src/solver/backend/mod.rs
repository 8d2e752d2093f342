//! The SAT backends behind one trait, and the process-wide choice of which one a new
//! `Session` starts.
//!
//! varisat (pure Rust, `varisat.rs`) is always built; CaDiCaL (`cadical.rs`, C++
//! compiled by the build) only with the cargo feature `cadical`. A command chooses once,
//! from `--solver`, before any solving (`choose`); `bench` chooses again before each run
//! it times. The choice is process-wide rather than passed down because every layer
//! makes sessions of its own (the answer layer, the Full Board and Sokoban searches, the
//! counting layer's probe), on threads of their own: one switch reaches them all.

mod varisat;

#[cfg(feature = "cadical")]
mod cadical;

pub use self::varisat::Varisat;

#[cfg(feature = "cadical")]
pub use self::cadical::Cadical;

use crate::limits::Budget;
use gridsat_encodings::cnf::Lit;
use std::sync::atomic::{AtomicU8, Ordering};

#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    #[error("the SAT solver failed: {0}")]
    Backend(String),
    /// The budget given to `SatBackend::stop_at` ran out during the call: no answer.
    #[error("the SAT call was stopped at the time limit")]
    Interrupted,
}

impl SolverError {
    /// True when `error` is (or was caused by) a SAT call stopped at its budget: the
    /// caller then answers with what was proven before, as when the budget runs out
    /// between calls.
    pub fn is_interruption(error: &anyhow::Error) -> bool {
        error
            .chain()
            .any(|e| matches!(e.downcast_ref(), Some(SolverError::Interrupted)))
    }
}

/// What the solver layer needs from a SAT solver: incremental clauses, solving under
/// assumptions, and the last model. Another solver is added by implementing this and
/// naming it in `Backend`.
pub trait SatBackend {
    /// Adds a clause permanently.
    fn add_clause(&mut self, clause: &[Lit]);
    /// Solves under `assumptions` (literals taken as true for this call only).
    /// `Err(SolverError::Interrupted)` when the budget of `stop_at` ran out first.
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<bool, SolverError>;
    /// The value of every variable `0..num_vars` in the last satisfying assignment
    /// (variables the solver never saw read as false).
    fn model(&mut self, num_vars: usize) -> Vec<bool>;
    /// From now on, stop a solver call once `budget` has expired, where the solver can
    /// be interrupted. varisat cannot (the default does nothing): its calls run to the
    /// end, and `limits::wait_for` stops waiting for them instead.
    fn stop_at(&mut self, _budget: &Budget) {}
}

/// The SAT solvers gridsat can be built with; `--solver` names one.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// varisat: CDCL in pure Rust, always built.
    #[default]
    Varisat,
    /// CaDiCaL, through the `cadical-sys` binding: built with `--features cadical`.
    Cadical,
}

impl Backend {
    pub const ALL: [Backend; 2] = [Backend::Varisat, Backend::Cadical];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Varisat => "varisat",
            Backend::Cadical => "cadical",
        }
    }

    /// True when this build contains the backend.
    pub fn is_built(self) -> bool {
        match self {
            Backend::Varisat => true,
            Backend::Cadical => cfg!(feature = "cadical"),
        }
    }

    /// The backends this build contains.
    pub fn built() -> Vec<Backend> {
        Backend::ALL.into_iter().filter(|b| b.is_built()).collect()
    }

    /// A fresh, empty solver.
    pub fn start(self) -> Box<dyn SatBackend> {
        match self {
            Backend::Varisat => Box::new(Varisat::default()),
            #[cfg(feature = "cadical")]
            Backend::Cadical => Box::new(Cadical::default()),
            #[cfg(not(feature = "cadical"))]
            Backend::Cadical => unreachable!("`Backend::from_str` refuses cadical in this build"),
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How to get CaDiCaL into a build that lacks it.
pub const HOW_TO_BUILD_CADICAL: &str = "this gridsat was built without CaDiCaL; build it with \
     `cargo build --release --features cadical` (compiles CaDiCaL's C++ with the \
     machine's C++ compiler)";

impl std::str::FromStr for Backend {
    type Err = String;
    /// A backend by name; one this build lacks is refused here, with how to build it.
    fn from_str(text: &str) -> Result<Backend, String> {
        let backend = Backend::ALL
            .into_iter()
            .find(|b| b.name() == text)
            .ok_or_else(|| format!("unknown SAT solver '{text}' (expected varisat or cadical)"))?;
        if !backend.is_built() {
            return Err(format!("--solver {text}: {HOW_TO_BUILD_CADICAL}"));
        }
        Ok(backend)
    }
}

/// The backend of every `Session::new` from now on (see the module docs).
static CHOSEN: AtomicU8 = AtomicU8::new(0);

/// Makes `backend` the one every new session starts (it must be built: `Backend`'s
/// parser refuses the others).
pub fn choose(backend: Backend) {
    assert!(backend.is_built(), "{backend}: {HOW_TO_BUILD_CADICAL}");
    let index = Backend::ALL.iter().position(|&b| b == backend).unwrap_or(0);
    CHOSEN.store(index as u8, Ordering::SeqCst);
}

/// The backend new sessions start.
pub fn chosen() -> Backend {
    Backend::ALL[CHOSEN.load(Ordering::SeqCst) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_missing_backends_say_how_to_build_them() {
        for backend in Backend::built() {
            assert_eq!(backend.name().parse::<Backend>(), Ok(backend));
        }
        assert!("minisat".parse::<Backend>().is_err());
        if !Backend::Cadical.is_built() {
            let refused = "cadical".parse::<Backend>().unwrap_err();
            assert!(refused.contains("--features cadical"), "{refused}");
        }
    }

    /// Every built backend answers the same small questions, with and without
    /// assumptions, and a spent budget stops the ones that can be stopped.
    #[test]
    fn every_backend_solves_under_assumptions() {
        use gridsat_encodings::cnf::Var;
        let lit = |i: usize, positive: bool| Lit::new(Var::from_index(i), positive);
        for backend in Backend::built() {
            let mut solver = backend.start();
            // x0 or x1; not x0 or x2; x3 appears nowhere.
            solver.add_clause(&[lit(0, true), lit(1, true)]);
            solver.add_clause(&[lit(0, false), lit(2, true)]);
            assert!(solver.solve_under(&[lit(0, true)]).unwrap(), "{backend}");
            let model = solver.model(4);
            assert!(model[0] && model[2] && !model[3], "{backend}: {model:?}");
            assert!(!solver.solve_under(&[lit(0, true), lit(2, false)]).unwrap());
            assert!(solver.solve_under(&[lit(2, false)]).unwrap());
            assert_eq!(&solver.model(3)[..3], &[false, true, false]);
            solver.add_clause(&[lit(1, false)]);
            assert!(!solver.solve_under(&[lit(2, false)]).unwrap());
            assert!(solver.solve_under(&[]).unwrap());
        }
    }
}
