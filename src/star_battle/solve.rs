//! Solving a Star Battle puzzle through the shared solver layer. Every placement that
//! leaves this module has passed `verify`.

use super::verify::verify;
use crate::solver::{Session, SolverError, Uniqueness};
use gridsat_encodings::star_battle::{encode, Encoded, LineRule, Options, Puzzle, Stars};
use gridsat_encodings::CardEncoding;
use std::ops::ControlFlow;

/// A puzzle together with the rules it is solved under.
#[derive(Clone, Debug)]
pub struct Problem {
    pub puzzle: Puzzle,
    pub stars: usize,
    pub rule: LineRule,
    pub card: CardEncoding,
}

#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error("internal error: the solver produced a placement that breaks the rules ({0}); please report this puzzle")]
    Rejected(super::verify::Violation),
}

/// None, one, or several solutions (two witnesses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    NoSolution,
    Unique(Stars),
    Multiple(Stars, Stars),
}

impl Problem {
    pub fn options(&self) -> Options {
        Options {
            stars: self.stars,
            line_rule: self.rule,
            card: self.card,
        }
    }

    pub fn encode(&self) -> Encoded {
        encode(&self.puzzle, &self.options())
    }

    fn checked(&self, encoded: &Encoded, values: &[bool]) -> Result<Stars, SolveError> {
        let stars = encoded.decode(values);
        verify(&self.puzzle, self.stars, self.rule, &stars).map_err(SolveError::Rejected)?;
        Ok(stars)
    }

    pub fn solve_one(&self) -> Result<Option<Stars>, SolveError> {
        let encoded = self.encode();
        match Session::new(&encoded.cnf).solve()? {
            None => Ok(None),
            Some(values) => self.checked(&encoded, &values).map(Some),
        }
    }

    /// Up to `limit` solutions (all when `None`), in the documented order: see
    /// `order_solutions`.
    pub fn solve_all(&self, limit: Option<u64>) -> Result<Vec<Stars>, SolveError> {
        let encoded = self.encode();
        let mut session = Session::new(&encoded.cnf);
        let mut found = Vec::new();
        let mut rejected = None;
        session.enumerate(limit, |values| match self.checked(&encoded, values) {
            Ok(stars) => {
                found.push(stars);
                ControlFlow::Continue(())
            }
            Err(e) => {
                rejected = Some(e);
                ControlFlow::Break(())
            }
        })?;
        if let Some(e) = rejected {
            return Err(e);
        }
        order_solutions(&mut found);
        Ok(found)
    }

    /// The number of solutions.
    pub fn count(&self) -> Result<u128, SolveError> {
        let encoded = self.encode();
        let n = Session::new(&encoded.cnf).enumerate(None, |_| ControlFlow::Continue(()))?;
        Ok(u128::from(n))
    }

    pub fn uniqueness(&self) -> Result<Verdict, SolveError> {
        let encoded = self.encode();
        Ok(match Session::new(&encoded.cnf).uniqueness()? {
            Uniqueness::NoSolution => Verdict::NoSolution,
            Uniqueness::Unique(a) => Verdict::Unique(self.checked(&encoded, &a)?),
            Uniqueness::Multiple(a, b) => {
                Verdict::Multiple(self.checked(&encoded, &a)?, self.checked(&encoded, &b)?)
            }
        })
    }

    /// Per cell: `Some(true)` a star in every solution, `Some(false)` a star in none,
    /// `None` it depends. `None` overall when there is no solution.
    pub fn determined(&self) -> Result<Option<Vec<Option<bool>>>, SolveError> {
        let encoded = self.encode();
        let mut session = Session::new(&encoded.cnf);
        // The projection is exactly the star grid, row-major (see the encoder).
        debug_assert_eq!(encoded.cnf.projection().len(), encoded.stars.all().len());
        Ok(session.determined()?)
    }
}

/// The order gridsat lists solutions in: compare the boards cell by cell in row-major
/// order; at the first cell where they differ, the board with a star there comes first.
pub fn order_solutions(solutions: &mut [Stars]) {
    solutions.sort_by(|a, b| b.star.cmp(&a.star));
}
