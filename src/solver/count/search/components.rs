//! Component analysis and the keys of sub-problems.
//!
//! After some decisions the unassigned variables often fall apart into groups that no
//! unsatisfied clause (and no still-restricting native constraint) connects: their
//! solutions combine freely, so the count of the whole is the product of theirs, and
//! each group is counted on its own (the scheme of sharpSAT, Ganak and d4).
//!
//! A residual formula is fixed by its variable set and by the set of its unsatisfied
//! long clauses: every such clause keeps exactly its literals over the set (the others
//! are false, or the clause would be satisfied or the variable would belong to the set),
//! and a binary clause over two unassigned variables is always present whole. A native
//! constraint that still restricts is fixed by how many of its literals are true. The
//! key of a sub-problem sums 128-bit hashes of those sets (two independent 64-bit sums),
//! so equal keys mean equal residual formulas up to a hash collision, whose odds are
//! about n^2 / 2^128 for n cached sub-problems (the trade-off Ganak makes). Sums make the
//! key order-free, and let a decision update it from the literals it set
//! (`child_key`) instead of walking the sub-problem again.

use super::propagate::Formula;
use gridsat_encodings::cnf::Var;

/// Identifies a residual formula: the sum of the hashes of its variables, of its
/// unsatisfied long clauses and of its restricting native constraints (see the module
/// docs).
pub(super) type Key = (u64, u64);

fn add(a: Key, b: Key) -> Key {
    (a.0.wrapping_add(b.0), a.1.wrapping_add(b.1))
}

fn sub(a: Key, b: Key) -> Key {
    (a.0.wrapping_sub(b.0), a.1.wrapping_sub(b.1))
}

/// A sub-problem: unassigned variables connected by clauses not yet satisfied.
pub(super) struct Component {
    /// Decided variables first, in rank order (`Search::branch` takes the first
    /// unassigned one), then the others.
    pub vars: Vec<u32>,
    pub key: Key,
}

/// The hashes keys are made of, and the scratch of the analysis.
pub(super) struct Components {
    var_hash: Vec<Key>,
    clause_hash: Vec<Key>,
    /// Marks of the current analysis (`stamp`): what it has already reached.
    var_stamp: Vec<u32>,
    clause_stamp: Vec<u32>,
    card_stamp: Vec<u32>,
    stamp: u32,
    /// Scratch for `child_key`: per constraint, literals made true and false since the
    /// mark, and the constraints touched.
    card_delta: Vec<(u32, u32)>,
    card_touched: Vec<u32>,
    /// Scratch for `child_key`: per wide clause, its literals made true since the mark,
    /// and the wide clauses touched.
    wide_new: Vec<u32>,
    wide_touched: Vec<u32>,
}

impl Components {
    pub fn new<const NATIVE: bool>(formula: &Formula<NATIVE>) -> Components {
        let long = formula.long_clauses();
        let cards = formula.cards.len();
        Components {
            var_hash: (0..formula.num_vars as u64)
                .map(|v| (mix(v ^ SEED_VAR_1), mix(v ^ SEED_VAR_2)))
                .collect(),
            clause_hash: (0..long as u64)
                .map(|c| (mix(c ^ SEED_CLAUSE_1), mix(c ^ SEED_CLAUSE_2)))
                .collect(),
            var_stamp: vec![0; formula.num_vars],
            clause_stamp: vec![0; long],
            card_stamp: vec![0; cards],
            stamp: 0,
            card_delta: vec![(0, 0); cards],
            card_touched: Vec::new(),
            wide_new: vec![0; long],
            wide_touched: Vec::new(),
        }
    }

    /// Splits the unassigned variables among `vars` into components, ordering each
    /// one's variables by `rank`.
    ///
    /// Returns the components with clauses, and the projected variables whose clauses
    /// are all satisfied (each doubles the count).
    pub fn analyse<const NATIVE: bool>(
        &mut self,
        formula: &Formula<NATIVE>,
        vars: &[u32],
        rank: &[u32],
        projected: &[bool],
    ) -> (Vec<Component>, Vec<Var>) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.var_stamp.fill(0);
            self.clause_stamp.fill(0);
            self.card_stamp.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let mut components = Vec::new();
        let mut free = Vec::new();
        for &seed in vars {
            if formula.is_assigned(seed) || self.var_stamp[seed as usize] == stamp {
                continue;
            }
            self.var_stamp[seed as usize] = stamp;
            let mut members = vec![seed];
            let mut key: Key = (0, 0);
            let mut clauses = 0usize;
            let mut next = 0;
            while next < members.len() {
                let var = members[next] as usize;
                next += 1;
                key = add(key, self.var_hash[var]);
                for &other in &formula.partners[var] {
                    // The other literal is not false: propagation would have set `var`.
                    if formula.value[other.code()] == 0 {
                        clauses += 1;
                        let w = other.var().index();
                        if self.var_stamp[w] != stamp {
                            self.var_stamp[w] = stamp;
                            members.push(w as u32);
                        }
                    }
                }
                let native = if NATIVE {
                    &formula.card_by_var[var][..]
                } else {
                    &[]
                };
                for &c in native {
                    if self.card_stamp[c as usize] == stamp {
                        continue;
                    }
                    self.card_stamp[c as usize] = stamp;
                    let card = formula.cards[c as usize];
                    if !card.restricts(card.t, card.f) {
                        continue;
                    }
                    clauses += 1;
                    key = add(key, card_key(c, card.t));
                    for lit in &formula.card_lits[card.start as usize..card.end as usize] {
                        let w = lit.var().index();
                        if formula.value[lit.code()] == 0 && self.var_stamp[w] != stamp {
                            self.var_stamp[w] = stamp;
                            members.push(w as u32);
                        }
                    }
                }
                for &id in &formula.long_by_var[var] {
                    if self.clause_stamp[id as usize] == stamp {
                        continue;
                    }
                    self.clause_stamp[id as usize] = stamp;
                    if formula.is_satisfied(id) {
                        continue;
                    }
                    clauses += 1;
                    key = add(key, self.clause_hash[id as usize]);
                    for lit in formula.long_clause(id) {
                        let w = lit.var().index();
                        if formula.value[lit.code()] == 0 && self.var_stamp[w] != stamp {
                            self.var_stamp[w] = stamp;
                            members.push(w as u32);
                        }
                    }
                }
            }
            if clauses == 0 {
                if projected[seed as usize] {
                    free.push(Var::from_index(seed as usize));
                }
            } else {
                members.sort_unstable_by_key(|&v| rank[v as usize]);
                components.push(Component { vars: members, key });
            }
        }
        (components, free)
    }

    /// `key` minus the variables assigned since trail position `mark` and the long
    /// clauses they satisfied (each once: at its first true literal on the trail), with
    /// the native constraints they touched keyed by their new counts.
    ///
    /// Out of line: inlined into `Search::branch` it cost 1.4% more instructions there.
    #[inline(never)]
    pub fn child_key<const NATIVE: bool>(
        &mut self,
        formula: &Formula<NATIVE>,
        key: Key,
        mark: usize,
    ) -> Key {
        let mut child = key;
        let trail = &formula.trail;
        let with_cards = if NATIVE { mark } else { trail.len() };
        for lit in &trail[with_cards..] {
            for (code, positive) in [(lit.code(), true), ((!*lit).code(), false)] {
                for &c in &formula.card_occ[code] {
                    let delta = &mut self.card_delta[c as usize];
                    if *delta == (0, 0) {
                        self.card_touched.push(c);
                    }
                    if positive {
                        delta.0 += 1;
                    } else {
                        delta.1 += 1;
                    }
                }
            }
        }
        for &c in &self.card_touched {
            let card = &formula.cards[c as usize];
            let (dt, df) = std::mem::take(&mut self.card_delta[c as usize]);
            if card.restricts(card.t - dt, card.f - df) {
                child = sub(child, card_key(c, card.t - dt));
            }
            if card.restricts(card.t, card.f) {
                child = add(child, card_key(c, card.t));
            }
        }
        self.card_touched.clear();
        for (at, lit) in trail.iter().enumerate().skip(mark) {
            child = sub(child, self.var_hash[lit.var().index()]);
            for &id in &formula.long_by_lit[lit.code()] {
                if formula.is_wide(id) {
                    // Settled below, from counts rather than by reading the clause.
                    if self.wide_new[id as usize] == 0 {
                        self.wide_touched.push(id);
                    }
                    self.wide_new[id as usize] += 1;
                    continue;
                }
                let earlier = formula.long_clause(id).iter().any(|l| {
                    formula.value[l.code()] == 1
                        && (formula.position[l.var().index()] as usize) < at
                });
                if !earlier {
                    child = sub(child, self.clause_hash[id as usize]);
                }
            }
        }
        // A wide clause was open at the mark when every true literal it has now is new.
        for &id in &self.wide_touched {
            let new = std::mem::take(&mut self.wide_new[id as usize]);
            if formula.true_lits[id as usize] == new {
                child = sub(child, self.clause_hash[id as usize]);
            }
        }
        self.wide_touched.clear();
        child
    }
}

/// The key of a native constraint that still restricts, with `t` literals true.
fn card_key(c: u32, t: u32) -> Key {
    let x = u64::from(c) << 32 | u64::from(t);
    (mix(x ^ SEED_CARD_1), mix(x ^ SEED_CARD_2))
}

const SEED_VAR_1: u64 = 0x9e37_79b9_7f4a_7c15;
const SEED_VAR_2: u64 = 0xc2b2_ae3d_27d4_eb4f;
const SEED_CLAUSE_1: u64 = 0x1656_67b1_9e37_79f9;
const SEED_CLAUSE_2: u64 = 0x27d4_eb2f_1656_67c5;
const SEED_CARD_1: u64 = 0x85eb_ca77_c2b2_ae63;
const SEED_CARD_2: u64 = 0x3c6e_f372_fe94_f82b;

/// splitmix64's finaliser: a bijection that spreads every input bit over the output.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
