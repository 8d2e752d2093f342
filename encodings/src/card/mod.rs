//! Cardinality constraints: at most / at least / exactly k of a set of literals are true.
//!
//! Every encoding but `Pairwise` builds a *unary counter*: outputs `o_1..o_m` with
//! `o_j <-> (at least j inputs are true)`, encoded in both directions, and then fixes one
//! or two outputs with unit clauses. Encoding both directions costs a few clauses more
//! than the usual one-sided versions, but it makes every auxiliary variable a function of
//! the inputs: each input assignment that meets the bound has exactly one extension. The
//! counting engine and `--count` rely on that, and the exhaustive tests check it.
//!
//! `m` is truncated to `max(lo, hi + 1)` where `hi` is the upper and `lo` the lower bound:
//! the counter only needs to tell apart the values the bounds can see.
//!
//! Shape: each encoding is one file holding one unit type whose single `impl` of
//! `CardinalityEncoding` (in `contract`) has its clause writer and the matching value
//! filler side by side; the trait provides `between`, `constrain` and the rest on top of
//! them. `CardEncoding` is only the *selection* (command line names, reports) and
//! dispatches to the types. To add an encoding: write its file (type, `NAME`, `counter`,
//! `fill_counter`, and `bounds`/`fill_bounds` if it states bounds without a counter) and
//! its `mod`/`pub use` lines here, then add one variant to `CardEncoding`, to
//! `CardEncoding::ALL` and to `with_type!`; the tests in `encodings/tests` take one line
//! per encoding.

mod contract;
mod pairwise;
mod sequential;
mod sorting_network;
mod totalizer;

pub use contract::CardinalityEncoding;
pub use pairwise::Pairwise;
pub use sequential::SequentialCounter;
pub use sorting_network::SortingNetwork;
pub use totalizer::Totalizer;

use crate::cnf::Cnf;
use crate::lit::Lit;

/// Which CNF encoding a cardinality constraint uses: each variant selects the type of the
/// same name, whose docs give its cost in detail. For `n` inputs and a counter truncated
/// at `m` (see the module docs):
///
/// | encoding | auxiliary variables | clauses |
/// |---|---|---|
/// | `Pairwise` | 0 | `C(n, hi+1)` for at most `hi`, `C(n, n-lo+1)` for at least `lo` |
/// | `SequentialCounter` | about `n*m` | about `4*n*m` |
/// | `Totalizer` | about `n*log2(n)` (truncated at `m` per node) | about `2*n*m` per tree level |
/// | `SortingNetwork` | `2` per comparator, `O(n log^2 n)` comparators | `6` per comparator |
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CardEncoding {
    /// Binomial: one clause per subset that would break the bound. No auxiliary
    /// variables; exponential in general, the best choice for `k = 1` on short lines.
    Pairwise,
    /// Sinz's sequential counter, in both directions: `s(i,j) <-> at least j of the first i`.
    #[default]
    SequentialCounter,
    /// Bailleux and Boufkhad's totalizer: a balanced tree of unary adders.
    Totalizer,
    /// Batcher's odd-even merge sorting network; the sorted outputs are the unary count.
    SortingNetwork,
}

/// Runs `$body` with the type alias `$E` naming the encoding type `$selection` selects.
macro_rules! with_type {
    ($selection:expr, $E:ident => $body:expr) => {
        match $selection {
            CardEncoding::Pairwise => {
                type $E = Pairwise;
                $body
            }
            CardEncoding::SequentialCounter => {
                type $E = SequentialCounter;
                $body
            }
            CardEncoding::Totalizer => {
                type $E = Totalizer;
                $body
            }
            CardEncoding::SortingNetwork => {
                type $E = SortingNetwork;
                $body
            }
        }
    };
}

impl CardEncoding {
    pub const ALL: [CardEncoding; 4] = [
        CardEncoding::Pairwise,
        CardEncoding::SequentialCounter,
        CardEncoding::Totalizer,
        CardEncoding::SortingNetwork,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        with_type!(self, E => E::NAME)
    }

    pub fn from_name(name: &str) -> Option<CardEncoding> {
        CardEncoding::ALL.into_iter().find(|e| e.name() == name)
    }

    /// See `CardinalityEncoding::at_most`, and so on: the same clauses in the same order.
    pub fn at_most(self, cnf: &mut Cnf, lits: &[Lit], k: usize) {
        with_type!(self, E => E::at_most(cnf, lits, k))
    }

    pub fn at_least(self, cnf: &mut Cnf, lits: &[Lit], k: usize) {
        with_type!(self, E => E::at_least(cnf, lits, k))
    }

    pub fn exactly(self, cnf: &mut Cnf, lits: &[Lit], k: usize) {
        with_type!(self, E => E::exactly(cnf, lits, k))
    }

    /// `lo <= (number of true literals) <= hi`, with one shared counter for both bounds.
    pub fn between(self, cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
        with_type!(self, E => E::between(cnf, lits, lo, hi))
    }

    /// `between`, recorded as well in `cnf.cardinalities()` (see
    /// `CardinalityEncoding::constrain`).
    pub fn constrain(self, cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
        with_type!(self, E => E::constrain(cnf, lits, lo, hi))
    }

    /// See `CardinalityEncoding::estimated_clauses`: at most about how many clauses
    /// `between` writes over `n` inputs, before anything is built.
    pub fn estimated_clauses(self, n: usize, lo: usize, hi: usize) -> u128 {
        with_type!(self, E => E::estimated_clauses(n, lo, hi))
    }

    /// Outputs `o_1..o_m` (index `j-1` holds `o_j`) with `o_j <-> at least j inputs true`.
    /// Requires `1 <= m <= lits.len()`.
    pub fn unary_counter(self, cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
        with_type!(self, E => E::unary_counter(cnf, lits, m))
    }
}

/// `C(n, k)`, saturating at `u128::MAX` (the size of pairwise encodings).
pub fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut value: u128 = 1;
    for i in 0..k {
        // value * (n - i) / (i + 1) stays exact: value * (n - i) is C(n, i + 1) * (i + 1).
        value = match value.checked_mul((n - i) as u128) {
            Some(v) => v / (i as u128 + 1),
            None => return u128::MAX,
        };
    }
    value
}

impl std::fmt::Display for CardEncoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for CardEncoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        CardEncoding::from_name(s).ok_or_else(|| {
            let names: Vec<_> = CardEncoding::ALL.iter().map(|e| e.name()).collect();
            format!(
                "unknown cardinality encoding '{s}' (expected one of: {})",
                names.join(", ")
            )
        })
    }
}
