//! Solving a CNF: one solution, up to N with blocking clauses, a uniqueness verdict, and
//! the primary variables that are the same in every solution.

use super::backend::{SatBackend, SolverError, Varisat};
use gridsat_encodings::cnf::{Cnf, Lit, Var};
use std::ops::ControlFlow;

/// A total assignment, indexed by variable.
pub type Assignment = Vec<bool>;

/// Whether a puzzle has no, one, or several solutions (with two witnesses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    NoSolution,
    Unique(Assignment),
    Multiple(Assignment, Assignment),
}

/// An incremental solver loaded with one CNF. Enumeration and uniqueness compare
/// solutions on the projection set only: auxiliary variables never make two solutions
/// distinct.
pub struct Session {
    backend: Box<dyn SatBackend>,
    num_vars: usize,
    projection: Vec<Var>,
}

impl Session {
    /// A session on the default backend (varisat).
    pub fn new(cnf: &Cnf) -> Session {
        Session::with_backend(cnf, Box::new(Varisat::default()))
    }

    pub fn with_backend(cnf: &Cnf, mut backend: Box<dyn SatBackend>) -> Session {
        for clause in cnf.clauses() {
            backend.add_clause(clause);
        }
        Session {
            backend,
            num_vars: cnf.num_vars(),
            projection: cnf.projection().to_vec(),
        }
    }

    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// A fresh variable, for activation literals added after construction.
    pub fn fresh_var(&mut self) -> Var {
        let v = Var::from_index(self.num_vars);
        self.num_vars += 1;
        v
    }

    pub fn add_clause(&mut self, clause: &[Lit]) {
        for lit in clause {
            if lit.var().index() >= self.num_vars {
                self.num_vars = lit.var().index() + 1;
            }
        }
        self.backend.add_clause(clause);
    }

    /// One solution, or `None` when there is none.
    pub fn solve(&mut self) -> Result<Option<Assignment>, SolverError> {
        self.solve_under(&[])
    }

    /// One solution with every literal of `assumptions` true, or `None`.
    pub fn solve_under(&mut self, assumptions: &[Lit]) -> Result<Option<Assignment>, SolverError> {
        if self.backend.solve_under(assumptions)? {
            Ok(Some(self.backend.model(self.num_vars)))
        } else {
            Ok(None)
        }
    }

    /// Excludes every future solution that agrees with `values` on the projection set.
    pub fn block(&mut self, values: &[bool]) {
        let clause: Vec<Lit> = self
            .projection
            .iter()
            .map(|&v| Lit::new(v, !values[v.index()]))
            .collect();
        self.add_clause(&clause);
    }

    /// Calls `visit` on solutions distinct on the projection set until there are no
    /// more, `limit` were found, or `visit` breaks. Returns how many were visited.
    /// Each solution found is blocked permanently.
    pub fn enumerate(
        &mut self,
        limit: Option<u64>,
        mut visit: impl FnMut(&[bool]) -> ControlFlow<()>,
    ) -> Result<u64, SolverError> {
        let mut found = 0;
        while limit.is_none_or(|l| found < l) {
            let Some(values) = self.solve()? else { break };
            found += 1;
            self.block(&values);
            if visit(&values).is_break() {
                break;
            }
        }
        Ok(found)
    }

    /// None, one, or two distinct solutions (the second differs on the projection set).
    pub fn uniqueness(&mut self) -> Result<Uniqueness, SolverError> {
        let Some(first) = self.solve()? else {
            return Ok(Uniqueness::NoSolution);
        };
        self.block(&first);
        Ok(match self.solve()? {
            None => Uniqueness::Unique(first),
            Some(second) => Uniqueness::Multiple(first, second),
        })
    }

    /// For every projection variable, `Some(value)` when it takes that value in every
    /// solution, `None` when solutions disagree; `Ok(None)` when there is no solution.
    ///
    /// Repeatedly asks for a solution in which some still-undecided candidate flips, and
    /// drops the candidates that did; stops when no candidate can flip. At most one SAT
    /// call per flipped candidate plus one.
    pub fn determined(&mut self) -> Result<Option<Vec<Option<bool>>>, SolverError> {
        let Some(first) = self.solve()? else {
            return Ok(None);
        };
        let mut candidates: Vec<(Var, bool)> = self
            .projection
            .iter()
            .map(|&v| (v, first[v.index()]))
            .collect();
        while !candidates.is_empty() {
            let activation = self.fresh_var().positive();
            let mut clause = vec![!activation];
            clause.extend(candidates.iter().map(|&(v, val)| Lit::new(v, !val)));
            self.add_clause(&clause);
            let result = self.solve_under(&[activation])?;
            // The clause served this one question; retire it.
            self.add_clause(&[!activation]);
            match result {
                None => break,
                Some(other) => candidates.retain(|&(v, val)| other[v.index()] == val),
            }
        }
        let fixed: std::collections::HashMap<Var, bool> = candidates.into_iter().collect();
        Ok(Some(
            self.projection
                .iter()
                .map(|v| fixed.get(v).copied())
                .collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cnf_one_of_three() -> (Cnf, [Lit; 3]) {
        let mut cnf = Cnf::new();
        let v = [cnf.primary_var(), cnf.primary_var(), cnf.primary_var()];
        let l = v.map(|v| v.positive());
        cnf.clause(l);
        for i in 0..3 {
            for j in i + 1..3 {
                cnf.clause([!l[i], !l[j]]);
            }
        }
        (cnf, l)
    }

    #[test]
    fn enumerates_every_projected_solution_once() {
        let (cnf, _) = cnf_one_of_three();
        let mut seen = Vec::new();
        let n = Session::new(&cnf)
            .enumerate(None, |v| {
                seen.push(v[..3].to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(n, 3);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 3);
    }

    #[test]
    fn uniqueness_and_determined() {
        let (mut cnf, l) = cnf_one_of_three();
        assert!(matches!(
            Session::new(&cnf).uniqueness().unwrap(),
            Uniqueness::Multiple(..)
        ));
        cnf.clause([!l[0]]);
        let det = Session::new(&cnf).determined().unwrap().unwrap();
        assert_eq!(det, vec![Some(false), None, None]);
        cnf.clause([!l[1]]);
        assert!(matches!(
            Session::new(&cnf).uniqueness().unwrap(),
            Uniqueness::Unique(_)
        ));
        cnf.clause([!l[2]]);
        assert_eq!(Session::new(&cnf).uniqueness().unwrap(), Uniqueness::NoSolution);
        assert_eq!(Session::new(&cnf).determined().unwrap(), None);
    }
}
