//! Counting and listing ALL solutions: the right tool for each size of answer.
//!
//! The counting engine (`count`) lists millions of solutions without blocking clauses,
//! but it learns nothing from conflicts, so a puzzle with a handful of solutions hidden in
//! a large search space (twonot2 with S=3: one solution) can take it minutes, where a
//! CDCL solver with blocking clauses answers in milliseconds. So every request first
//! asks the CDCL solver for up to `PROBE + 1` solutions; only when there are more does
//! the engine take over and start afresh.

use super::count::{count_solutions, Count, Solutions};
use super::session::{Assignment, Session};
use super::SolverError;
use gridsat_encodings::cnf::Cnf;
use std::ops::ControlFlow;

/// Solutions found with blocking clauses before the counting engine takes over. At a few
/// thousand solutions per second this bounds the probe to about a tenth of a second.
pub const PROBE: u64 = 256;

/// Every solution of a CNF, distinct on its projection.
pub enum AllSolutions {
    /// At most `PROBE` solutions, found by the CDCL solver.
    Few(Vec<Assignment>),
    /// More, compiled by the counting engine.
    Many(Solutions),
}

impl AllSolutions {
    pub fn find(cnf: &Cnf) -> Result<AllSolutions, SolverError> {
        Ok(match probe(cnf)? {
            Some(few) => AllSolutions::Few(few),
            None => AllSolutions::Many(Solutions::compile(cnf)),
        })
    }

    pub fn count(&self) -> Count {
        match self {
            AllSolutions::Few(few) => Count::from(few.len() as u64),
            AllSolutions::Many(solutions) => solutions.count().clone(),
        }
    }

    /// Calls `visit` once per solution (a full assignment, indexed by variable) until it
    /// breaks.
    pub fn for_each(&self, mut visit: impl FnMut(&[bool]) -> ControlFlow<()>) -> ControlFlow<()> {
        match self {
            AllSolutions::Few(few) => {
                for values in few {
                    visit(values)?;
                }
                ControlFlow::Continue(())
            }
            AllSolutions::Many(solutions) => solutions.for_each(visit),
        }
    }
}

/// The number of solutions projected on `cnf.projection()`.
pub fn count_all(cnf: &Cnf) -> Result<Count, SolverError> {
    Ok(match probe(cnf)? {
        Some(few) => Count::from(few.len() as u64),
        None => count_solutions(cnf),
    })
}

/// All solutions when there are at most `PROBE`, else `None`.
fn probe(cnf: &Cnf) -> Result<Option<Vec<Assignment>>, SolverError> {
    let mut few = Vec::new();
    Session::new(cnf).enumerate(Some(PROBE + 1), |values| {
        few.push(values.to_vec());
        ControlFlow::Continue(())
    })?;
    Ok((few.len() as u64 <= PROBE).then_some(few))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` free projected variables with at most one true: `n + 1` solutions.
    fn at_most_one_of(n: usize) -> Cnf {
        let mut cnf = Cnf::new();
        let lits: Vec<_> = (0..n).map(|_| cnf.primary_var().positive()).collect();
        gridsat_encodings::CardEncoding::SequentialCounter.at_most(&mut cnf, &lits, 1);
        cnf
    }

    #[test]
    fn both_sides_of_the_probe_agree_with_the_formula() {
        for n in [
            0usize,
            5,
            PROBE as usize - 1,
            PROBE as usize,
            PROBE as usize + 7,
        ] {
            let cnf = at_most_one_of(n);
            let all = AllSolutions::find(&cnf).unwrap();
            assert_eq!(
                matches!(all, AllSolutions::Few(_)),
                n < PROBE as usize,
                "n = {n}"
            );
            assert_eq!(all.count(), (n + 1) as u128);
            assert_eq!(count_all(&cnf).unwrap(), (n + 1) as u128);
            let mut seen = std::collections::BTreeSet::new();
            let _ = all.for_each(|values| {
                assert!(cnf.is_satisfied_by(values));
                seen.insert(values[..n].to_vec());
                ControlFlow::Continue(())
            });
            assert_eq!(seen.len(), n + 1);
        }
    }
}
