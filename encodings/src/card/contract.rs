//! The contract every cardinality encoding meets, and what is built on it once for all.
//!
//! An encoding writes two things that must agree: clauses (`counter`, and `bounds` when
//! it states a bound without a counter) and the values those clauses force on the
//! auxiliary variables (`fill_counter`, `fill_bounds`). Both live in the one `impl` of
//! the encoding's type, so that a change to one is made next to the other. Everything a
//! caller uses (`between`, `constrain`, `unary_counter`, ...) is provided here, so the
//! cases that need no encoding at all are handled in one place and alike for every type.
//!
//! The functions take no `self`: the encodings are stateless unit types, chosen at run
//! time through `CardEncoding` and in generic code (the tests) through a type parameter.

use crate::cnf::{Cardinality, Cnf};
use crate::lit::Lit;

/// A CNF encoding of `lo <= (number of true literals) <= hi`, built from a unary counter.
///
/// Its auxiliary variables must be a function of the inputs: every input assignment that
/// meets the bound has exactly one extension to a model of the clauses, the one
/// `fill_bounds` writes. The counting engine counts over all variables and relies on it.
pub trait CardinalityEncoding {
    /// The name on the command line and in reports (`CardEncoding::name`).
    const NAME: &'static str;

    /// Outputs `o_1..o_m` (index `j-1` holds `o_j`) with `o_j <-> at least j inputs are
    /// true`, encoded in both directions. Called with `1 <= m <= lits.len()`.
    fn counter(cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit>;

    /// The values of the variables `counter(cnf, lits, m)` created, numbered from
    /// `first_aux` in creation order, computed from the values of `lits` in `values`
    /// and written there.
    fn fill_counter(lits: &[Lit], m: usize, first_aux: usize, values: &mut [bool]);

    /// The clauses of a bound that needs an encoding: `lo <= hi`, `hi >= 1`, `lo < n`
    /// and not both `lo == 0` and `hi == n`. By default a counter truncated at
    /// `counter_width` with one or two of its outputs fixed by unit clauses.
    fn bounds(cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
        let n = lits.len();
        let m = counter_width(n, lo, hi);
        let outputs = Self::counter(cnf, lits, m);
        debug_assert_eq!(outputs.len(), m);
        if lo >= 1 {
            cnf.clause([outputs[lo - 1]]);
        }
        if hi < n {
            cnf.clause([!outputs[hi]]);
        }
    }

    /// The values of the variables `bounds(cnf, lits, lo, hi)` created; must be
    /// overridden together with `bounds`.
    fn fill_bounds(lits: &[Lit], lo: usize, hi: usize, first_aux: usize, values: &mut [bool]) {
        Self::fill_counter(lits, counter_width(lits.len(), lo, hi), first_aux, values);
    }

    /// At most about how many clauses `between(n inputs, lo, hi)` writes (saturating):
    /// front ends refuse a formula too large to hold before building it. `counter_clauses`
    /// is the encoding's own count for a counter of width `m`; pairwise overrides this.
    fn estimated_clauses(n: usize, lo: usize, hi: usize) -> u128 {
        let hi = hi.min(n);
        match trivial(n, lo, hi) {
            Some(Trivial::Impossible) => 1,
            Some(Trivial::Free) => 0,
            Some(_) => n as u128,
            None => Self::counter_clauses(n, counter_width(n, lo, hi)).saturating_add(2),
        }
    }

    /// An upper estimate of the clauses of `counter(n inputs, m)`.
    fn counter_clauses(n: usize, m: usize) -> u128;

    /// `counter`, for callers that want the outputs themselves.
    fn unary_counter(cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
        assert!(m >= 1 && m <= lits.len());
        Self::counter(cnf, lits, m)
    }

    fn at_most(cnf: &mut Cnf, lits: &[Lit], k: usize) {
        Self::between(cnf, lits, 0, k);
    }

    fn at_least(cnf: &mut Cnf, lits: &[Lit], k: usize) {
        Self::between(cnf, lits, k, lits.len());
    }

    fn exactly(cnf: &mut Cnf, lits: &[Lit], k: usize) {
        Self::between(cnf, lits, k, k);
    }

    /// `lo <= (number of true literals) <= hi`, with one shared counter for both bounds.
    fn between(cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
        let hi = hi.min(lits.len());
        match trivial(lits.len(), lo, hi) {
            Some(Trivial::Impossible) => cnf.clause([]),
            Some(Trivial::Free) => {}
            Some(Trivial::AllFalse) => {
                for &l in lits {
                    cnf.clause([!l]);
                }
            }
            Some(Trivial::AllTrue) => {
                for &l in lits {
                    cnf.clause([l]);
                }
            }
            None => Self::bounds(cnf, lits, lo, hi),
        }
    }

    /// The values of the auxiliary variables `between(cnf, lits, lo, hi)` created
    /// (numbered from `first_aux`), computed from the values of `lits` in `values`.
    fn fill_between(lits: &[Lit], lo: usize, hi: usize, first_aux: usize, values: &mut [bool]) {
        let hi = hi.min(lits.len());
        if trivial(lits.len(), lo, hi).is_none() {
            Self::fill_bounds(lits, lo, hi, first_aux, values);
        }
    }

    /// `between`, recorded as well in `cnf.cardinalities()`, so that an engine with
    /// native cardinality constraints (the counting engine) can propagate it directly
    /// over `lits` instead of through the counter's clauses and auxiliary variables. The
    /// clauses written are exactly those of `between`.
    fn constrain(cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
        let (clauses, vars) = (cnf.num_clauses(), cnf.num_vars());
        Self::between(cnf, lits, lo, hi);
        cnf.record_cardinality(Cardinality {
            lits: lits.to_vec(),
            lo,
            hi: hi.min(lits.len()),
            encoding: Self::NAME,
            fill: |card, values| {
                Self::fill_between(&card.lits, card.lo, card.hi, card.aux.start, values)
            },
            clauses: clauses..cnf.num_clauses(),
            aux: vars..cnf.num_vars(),
        });
    }
}

/// The counter width a bound needs: `hi + 1` outputs tell "more than `hi`" apart, `lo`
/// outputs tell "at least `lo`"; values beyond are never looked at.
fn counter_width(n: usize, lo: usize, hi: usize) -> usize {
    if hi < n {
        hi + 1
    } else {
        lo
    }
}

/// A bound that fixes the answer without a counter, whatever the encoding.
enum Trivial {
    /// `lo > hi`.
    Impossible,
    /// `0..=n`: every assignment meets it.
    Free,
    /// `hi == 0`.
    AllFalse,
    /// `lo == n`.
    AllTrue,
}

/// `between` and `fill_between` both ask this, so they agree on which bounds create
/// auxiliary variables. `hi` is already at most `n`.
fn trivial(n: usize, lo: usize, hi: usize) -> Option<Trivial> {
    if lo > hi {
        Some(Trivial::Impossible)
    } else if lo == 0 && hi == n {
        Some(Trivial::Free)
    } else if hi == 0 {
        Some(Trivial::AllFalse)
    } else if lo == n {
        Some(Trivial::AllTrue)
    } else {
        None
    }
}
