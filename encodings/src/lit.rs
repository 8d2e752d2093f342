//! Variables and literals: the bottom of the crate, which every other module names.
//!
//! Kept apart from the CNF builder so that modules which only pass literals around (grid
//! shapes, puzzle models) do not depend on how clauses are stored. Variables are numbered
//! from 0 inside the crate; DIMACS numbering (from 1) only appears at the edges
//! (`Var::dimacs`, `Lit::to_dimacs`, `Lit::from_dimacs`).

use std::fmt;
use std::ops::Not;

/// A propositional variable, numbered from 0.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(u32);

impl Var {
    pub fn from_index(index: usize) -> Var {
        Var(u32::try_from(index).expect("more than 2^32 variables"))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The DIMACS number of this variable (1-based).
    pub fn dimacs(self) -> i64 {
        i64::from(self.0) + 1
    }

    pub fn positive(self) -> Lit {
        Lit::new(self, true)
    }

    pub fn negative(self) -> Lit {
        Lit::new(self, false)
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.dimacs())
    }
}

/// A literal: a variable or its negation. Packed as `2 * var + negated`, so literals
/// of one variable are neighbours and `!lit` is a bit flip.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    pub fn new(var: Var, positive: bool) -> Lit {
        Lit(var.0 * 2 + u32::from(!positive))
    }

    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    pub fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }

    pub fn is_negative(self) -> bool {
        !self.is_positive()
    }

    /// Dense index `2 * var + negated`, for arrays indexed by literal.
    pub fn code(self) -> usize {
        self.0 as usize
    }

    pub fn from_code(code: usize) -> Lit {
        Lit(u32::try_from(code).expect("literal code out of range"))
    }

    /// DIMACS form: `+v` or `-v`, variables counted from 1.
    pub fn to_dimacs(self) -> i64 {
        let v = self.var().dimacs();
        if self.is_positive() {
            v
        } else {
            -v
        }
    }

    /// From DIMACS form; `None` for 0 or a number too large for a variable index.
    pub fn from_dimacs(number: i64) -> Option<Lit> {
        if number == 0 {
            return None;
        }
        let index = usize::try_from(number.unsigned_abs() - 1).ok()?;
        if index >= u32::MAX as usize / 2 {
            return None;
        }
        Some(Lit::new(Var::from_index(index), number > 0))
    }

    /// The value of this literal under a total assignment indexed by variable.
    pub fn eval(self, values: &[bool]) -> bool {
        values[self.var().index()] == self.is_positive()
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_round_trips_through_dimacs() {
        for n in [1i64, -1, 7, -7, 1000, -1000] {
            assert_eq!(Lit::from_dimacs(n).unwrap().to_dimacs(), n);
        }
        assert_eq!(Lit::from_dimacs(0), None);
        let v = Var::from_index(3);
        assert_eq!(!v.positive(), v.negative());
        assert!(v.negative().is_negative());
    }
}
