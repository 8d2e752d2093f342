//! varisat, a CDCL solver in pure Rust: the default backend, always built. Its calls
//! cannot be interrupted (`stop_at` is the trait's no-op).

use super::{SatBackend, SolverError};
use gridsat_encodings::cnf::Lit;

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

    fn model(&mut self, num_vars: usize) -> Vec<bool> {
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
