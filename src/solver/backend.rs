//! The SAT backend trait and its varisat implementation.

use gridsat_encodings::cnf::Lit;

#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    #[error("the SAT solver failed: {0}")]
    Backend(String),
}

/// What the solver layer needs from a SAT solver: incremental clauses, solving under
/// assumptions, and the last model. Another solver can be added by implementing this.
pub trait SatBackend {
    /// Adds a clause permanently.
    fn add_clause(&mut self, clause: &[Lit]);
    /// Solves under `assumptions` (literals taken as true for this call only).
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<bool, SolverError>;
    /// The value of every variable `0..num_vars` in the last satisfying assignment.
    fn model(&self, num_vars: usize) -> Vec<bool>;
}

/// varisat, a CDCL solver in pure Rust.
pub struct Varisat {
    solver: varisat::Solver<'static>,
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat {
            solver: varisat::Solver::new(),
        }
    }
}

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_index(lit.var().index(), lit.is_positive())
}

impl SatBackend for Varisat {
    fn add_clause(&mut self, clause: &[Lit]) {
        use varisat::ExtendFormula;
        let lits: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
        self.solver.add_clause(&lits);
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<bool, SolverError> {
        let lits: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
        self.solver.assume(&lits);
        self.solver
            .solve()
            .map_err(|e| SolverError::Backend(e.to_string()))
    }

    fn model(&self, num_vars: usize) -> Vec<bool> {
        // Variables the solver never saw (in no clause) are free; they read as false.
        let mut values = vec![false; num_vars];
        for lit in self.solver.model().unwrap_or_default() {
            let index = lit.var().index();
            if index < num_vars {
                values[index] = lit.is_positive();
            }
        }
        values
    }
}

