//! Solving a CNF: one solution, up to N with blocking clauses, a uniqueness verdict, and
//! the primary variables that are the same in every solution.

use super::backend::{self, SatBackend, SolverError};
use super::count::{Budgeted, Count, Stopped};
use crate::limits::Budget;
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
    /// How many of the source `Cnf`'s clauses the backend holds (see `sync`).
    loaded_clauses: usize,
}

impl Session {
    /// A session on the chosen backend (`backend::choose`; varisat unless `--solver`
    /// said otherwise).
    pub fn new(cnf: &Cnf) -> Session {
        Session::with_backend(cnf, backend::chosen().start())
    }

    pub fn with_backend(cnf: &Cnf, mut backend: Box<dyn SatBackend>) -> Session {
        for clause in cnf.clauses() {
            backend.add_clause(clause);
        }
        Session {
            backend,
            num_vars: cnf.num_vars(),
            projection: cnf.projection().to_vec(),
            loaded_clauses: cnf.num_clauses(),
        }
    }

    /// Loads what was added to `cnf` since the session was built from it (or last
    /// synced): its new clauses, variables and projection variables. This is how an
    /// encoding grows a horizon on one incremental solver. `cnf` must be the formula the
    /// session was built from, only extended since; variables made by `fresh_var` here
    /// must not clash with the ones `cnf` creates, so grow one or the other, not both.
    pub fn sync(&mut self, cnf: &Cnf) {
        for index in self.loaded_clauses..cnf.num_clauses() {
            self.backend.add_clause(cnf.clause_at(index));
        }
        self.loaded_clauses = cnf.num_clauses();
        self.num_vars = self.num_vars.max(cnf.num_vars());
        let known = self.projection.len().min(cnf.projection().len());
        self.projection
            .extend_from_slice(&cnf.projection()[known..]);
    }

    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// Stops a solver call once `budget` has expired, where the backend can be
    /// interrupted (CaDiCaL; see `SatBackend::stop_at`): the call then fails with
    /// `SolverError::Interrupted`. Without it a call runs to its end.
    pub fn stop_at(&mut self, budget: &Budget) {
        self.backend.stop_at(budget);
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
        visit: impl FnMut(&[bool]) -> ControlFlow<()>,
    ) -> Result<u64, SolverError> {
        self.enumerate_under(&[], limit, visit)
    }

    /// `enumerate` restricted to solutions with every literal of `assumptions` true.
    /// The blocking clauses are permanent: they also hold in later calls.
    pub fn enumerate_under(
        &mut self,
        assumptions: &[Lit],
        limit: Option<u64>,
        visit: impl FnMut(&[bool]) -> ControlFlow<()>,
    ) -> Result<u64, SolverError> {
        let found = self.enumerate_until(assumptions, limit, None, visit)?;
        Ok(found.expect("an enumeration without a budget is never stopped"))
    }

    /// `enumerate` within `budget`, which is looked at before every SAT call (and by a
    /// backend that can be interrupted, during it): how many solutions were visited, or
    /// when the budget ran out first, that many as a lower bound. A varisat call cannot
    /// be interrupted (run the whole enumeration under `limits::wait_for` for a hard
    /// deadline).
    pub fn enumerate_within(
        &mut self,
        limit: Option<u64>,
        budget: &Budget,
        visit: impl FnMut(&[bool]) -> ControlFlow<()>,
    ) -> Result<Budgeted<u64>, SolverError> {
        self.enumerate_until(&[], limit, Some(budget), visit)
    }

    pub(super) fn enumerate_until(
        &mut self,
        assumptions: &[Lit],
        limit: Option<u64>,
        budget: Option<&Budget>,
        mut visit: impl FnMut(&[bool]) -> ControlFlow<()>,
    ) -> Result<Budgeted<u64>, SolverError> {
        let mut found = 0;
        if let Some(budget) = budget {
            self.stop_at(budget);
        }
        let stopped = |found| {
            Ok(Err(Stopped {
                at_least: Count::from(found),
            }))
        };
        while limit.is_none_or(|l| found < l) {
            if budget.is_some_and(Budget::expired) {
                return stopped(found);
            }
            let values = match self.solve_under(assumptions) {
                Ok(Some(values)) => values,
                Ok(None) => break,
                Err(SolverError::Interrupted) => return stopped(found),
                Err(e) => return Err(e),
            };
            found += 1;
            self.block(&values);
            if visit(&values).is_break() {
                break;
            }
        }
        Ok(Ok(found))
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
    fn a_budget_is_looked_at_before_every_call() {
        let (cnf, _) = cnf_one_of_three();
        let plenty = Budget::unlimited();
        let mut visited = 0;
        let all = Session::new(&cnf).enumerate_within(None, &plenty, |_| {
            visited += 1;
            ControlFlow::Continue(())
        });
        assert_eq!((all.unwrap(), visited), (Ok(3), 3));
        // Spent after the second solution: two are proven, the third is not looked for.
        let budget = Budget::unlimited();
        let mut visited = 0;
        let stopped = Session::new(&cnf).enumerate_within(None, &budget, |_| {
            visited += 1;
            if visited == 2 {
                budget.cancel();
            }
            ControlFlow::Continue(())
        });
        let at_least = Count::from(2u64);
        assert_eq!((stopped.unwrap(), visited), (Err(Stopped { at_least }), 2));
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
        assert_eq!(
            Session::new(&cnf).uniqueness().unwrap(),
            Uniqueness::NoSolution
        );
        assert_eq!(Session::new(&cnf).determined().unwrap(), None);
    }
}
