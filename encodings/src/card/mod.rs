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

mod pairwise;
mod sequential;
mod sorting_network;
mod totalizer;

use crate::cnf::{Cardinality, Cnf, Lit};

/// Which CNF encoding a cardinality constraint uses. For `n` inputs and a counter
/// truncated at `m` (see the module docs):
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

impl CardEncoding {
    pub const ALL: [CardEncoding; 4] = [
        CardEncoding::Pairwise,
        CardEncoding::SequentialCounter,
        CardEncoding::Totalizer,
        CardEncoding::SortingNetwork,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            CardEncoding::Pairwise => "pairwise",
            CardEncoding::SequentialCounter => "sequential",
            CardEncoding::Totalizer => "totalizer",
            CardEncoding::SortingNetwork => "sorting-network",
        }
    }

    pub fn from_name(name: &str) -> Option<CardEncoding> {
        CardEncoding::ALL.into_iter().find(|e| e.name() == name)
    }

    pub fn at_most(self, cnf: &mut Cnf, lits: &[Lit], k: usize) {
        self.between(cnf, lits, 0, k);
    }

    pub fn at_least(self, cnf: &mut Cnf, lits: &[Lit], k: usize) {
        self.between(cnf, lits, k, lits.len());
    }

    pub fn exactly(self, cnf: &mut Cnf, lits: &[Lit], k: usize) {
        self.between(cnf, lits, k, k);
    }

    /// `lo <= (number of true literals) <= hi`, with one shared counter for both bounds.
    pub fn between(self, cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
        let n = lits.len();
        let hi = hi.min(n);
        if lo > hi {
            cnf.clause([]);
            return;
        }
        if lo == 0 && hi == n {
            return;
        }
        // Bounds that fix every input need no counter, whatever the encoding.
        if hi == 0 {
            for &l in lits {
                cnf.clause([!l]);
            }
            return;
        }
        if lo == n {
            for &l in lits {
                cnf.clause([l]);
            }
            return;
        }
        if self == CardEncoding::Pairwise {
            pairwise::between(cnf, lits, lo, hi);
            return;
        }
        let m = if hi < n { hi + 1 } else { lo };
        let outputs = self.unary_counter(cnf, lits, m);
        debug_assert_eq!(outputs.len(), m);
        if lo >= 1 {
            cnf.clause([outputs[lo - 1]]);
        }
        if hi < n {
            cnf.clause([!outputs[hi]]);
        }
    }

    /// `between`, recorded as well in `cnf.cardinalities()`, so that an engine with native
    /// cardinality constraints (the counting engine) can propagate it directly over
    /// `lits` instead of through the counter's clauses and auxiliary variables. The
    /// clauses written are exactly those of `between`.
    pub fn constrain(self, cnf: &mut Cnf, lits: &[Lit], lo: usize, hi: usize) {
        let (clauses, vars) = (cnf.num_clauses(), cnf.num_vars());
        self.between(cnf, lits, lo, hi);
        cnf.record_cardinality(Cardinality {
            lits: lits.to_vec(),
            lo,
            hi: hi.min(lits.len()),
            encoding: self,
            clauses: clauses..cnf.num_clauses(),
            aux: vars..cnf.num_vars(),
        });
    }

    /// The values of the auxiliary variables `between(cnf, lits, lo, hi)` created (numbered
    /// from `first_aux`, in creation order), computed from the values of `lits` in
    /// `values` and written there. Mirrors `between`: only a counter creates variables.
    pub(crate) fn fill_counter(
        self,
        lits: &[Lit],
        lo: usize,
        hi: usize,
        first_aux: usize,
        values: &mut [bool],
    ) {
        let n = lits.len();
        let hi = hi.min(n);
        if lo > hi || (lo == 0 && hi == n) || hi == 0 || lo == n {
            return;
        }
        let m = if hi < n { hi + 1 } else { lo };
        match self {
            CardEncoding::Pairwise => {}
            CardEncoding::SequentialCounter => sequential::fill(lits, m, first_aux, values),
            CardEncoding::Totalizer => totalizer::fill(lits, m, first_aux, values),
            CardEncoding::SortingNetwork => sorting_network::fill(lits, m, first_aux, values),
        }
    }

    /// Outputs `o_1..o_m` (index `j-1` holds `o_j`) with `o_j <-> at least j inputs true`.
    /// Requires `1 <= m <= lits.len()`.
    pub fn unary_counter(self, cnf: &mut Cnf, lits: &[Lit], m: usize) -> Vec<Lit> {
        assert!(m >= 1 && m <= lits.len());
        match self {
            CardEncoding::Pairwise => pairwise::unary(cnf, lits, m),
            CardEncoding::SequentialCounter => sequential::unary(cnf, lits, m),
            CardEncoding::Totalizer => totalizer::unary(cnf, lits, m),
            CardEncoding::SortingNetwork => sorting_network::unary(cnf, lits, m),
        }
    }
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
