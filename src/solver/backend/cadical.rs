//! CaDiCaL (Armin Biere's CDCL solver, MIT) through the `cadical-sys` binding, which
//! compiles CaDiCaL's C++ sources with the machine's C++ compiler: built only with the
//! cargo feature `cadical`.
//!
//! Unlike varisat it can be stopped inside a call: `stop_at` connects a terminator that
//! CaDiCaL polls while it searches, and a call it stops comes back as
//! `SolverError::Interrupted`. So with CaDiCaL `--timeout` ends the solver's work, not
//! only the wait for it, and a thread that lost a race stops at once.

use super::{SatBackend, SolverError};
use crate::limits::Budget;
use cadical_sys::{CaDiCal, Status, Terminator};
use gridsat_encodings::cnf::Lit;

pub struct Cadical {
    solver: CaDiCal,
    /// Reused for every clause and assumption list (DIMACS literals).
    buffer: Vec<i32>,
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical {
            solver: CaDiCal::new(),
            buffer: Vec::new(),
        }
    }
}

/// Variable `i` is DIMACS variable `i + 1`.
fn to_dimacs(lit: Lit) -> i32 {
    let var = i32::try_from(lit.var().index() + 1).expect("fewer than 2^31 variables");
    if lit.is_positive() {
        var
    } else {
        -var
    }
}

/// Tells CaDiCaL to stop once the budget has expired.
struct BudgetTerminator(Budget);

impl Terminator for BudgetTerminator {
    fn terminated(&mut self) -> bool {
        self.0.expired()
    }
}

impl SatBackend for Cadical {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.buffer.clear();
        self.buffer.extend(clause.iter().map(|&l| to_dimacs(l)));
        self.solver.clause6(&self.buffer);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<bool, SolverError> {
        for &lit in assumptions {
            self.solver.assume(to_dimacs(lit));
        }
        match self.solver.solve() {
            Status::SATISFIABLE => Ok(true),
            Status::UNSATISFIABLE => Ok(false),
            Status::UNKNOWN => Err(SolverError::Interrupted),
        }
    }

    fn model(&mut self, num_vars: usize) -> Vec<bool> {
        // CaDiCaL knows the variables of its clauses; the others are free.
        let known = usize::try_from(self.solver.vars())
            .unwrap_or(0)
            .min(num_vars);
        let mut values = vec![false; num_vars];
        for (index, value) in values.iter_mut().enumerate().take(known) {
            *value = self.solver.val(index as i32 + 1) > 0;
        }
        values
    }

    fn stop_at(&mut self, budget: &Budget) {
        self.solver
            .connect_terminator(BudgetTerminator(budget.clone()));
    }
}
