//! The search behind counting: DPLL with unit propagation and chronological
//! backtracking, splitting the remaining formula into independent components and caching
//! each sub-problem's projected count (the scheme of exact model counters such as
//! sharpSAT). No clause is ever learnt or added, so nothing slows down as solutions pile
//! up.
//!
//! Decisions are taken on projected variables, in projection order (for a puzzle:
//! row-major cells, which makes the cache act like a dynamic program over rows), after
//! the auxiliary variables that are AND gates of projected variables (`gate_order`). A
//! component with no projected variable left counts 1 if it is satisfiable and 0 if not;
//! with the foundation's encodings unit propagation has already fixed every auxiliary
//! variable by then, so that check is free. On arbitrary CNFs it is a plain DPLL search
//! for one witness: correct, but exponential in the worst case.

use super::dag::{Dag, Edge, Node, NodeId, FALSE, TRUE};
use super::number::Count;
use gridsat_encodings::cnf::{Cardinality, Cnf, Lit, Var};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Counters a caller may print to see what the search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Decisions on projected variables.
    pub decisions: u64,
    /// Literals set by decisions and unit propagation.
    pub assignments: u64,
    /// Sub-problems found in the cache instead of being searched again.
    pub cache_hits: u64,
    /// Sub-problems stored in the cache.
    pub cache_entries: u64,
    /// Times the cache reached its size limit and was emptied.
    pub cache_clears: u64,
    /// Component analyses (a walk over the whole remaining sub-problem).
    pub component_analyses: u64,
    /// Component analyses that found more than one part.
    pub splits: u64,
    /// Components without projected variables that needed a satisfiability search.
    pub witness_searches: u64,
    /// Cached sub-problems without solutions.
    pub dead_ends: u64,
    /// Decisions both of whose branches had no solution.
    pub dead_decisions: u64,
    /// Auxiliary variables recognised as AND gates of projected variables, which the
    /// search decides before the projected variables (see `gate_order`).
    pub gates: u64,
}

/// Identifies a residual formula: the sum of the hashes of its variables and of its
/// unsatisfied clauses of length >= 3 (see `Search::components`). Sums make the key
/// order-free and let a decision update it from the literals it set.
type Key = (u64, u64);

fn add(a: Key, b: Key) -> Key {
    (a.0.wrapping_add(b.0), a.1.wrapping_add(b.1))
}

fn sub(a: Key, b: Key) -> Key {
    (a.0.wrapping_sub(b.0), a.1.wrapping_sub(b.1))
}

/// A sub-problem: unassigned variables connected by clauses not yet satisfied.
struct Component {
    vars: Vec<u32>,
    key: Key,
}

const NO_RANK: u32 = u32::MAX;

/// When a search stops early because it looks hopeless: once at least `min_dead_decisions`
/// of its decisions had no solution on either branch and they outnumber those with
/// solutions `ratio` to one or more (checked after every decision; zero and zero give
/// up at the first). A formula with few solutions hidden in a large
/// space looks like that (every sub-problem but those on the few solutions' paths is a
/// dead end), and a CDCL solver finds those few solutions far faster than an
/// exhaustive search without learning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GiveUp {
    pub min_dead_decisions: u64,
    pub ratio: u64,
}

#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// An entry takes 64 bytes and the table keeps up to twice as many slots: about 1 GiB.
const MAX_CACHE_ENTRIES: usize = 1 << 23;

/// Component analysis walks the whole sub-problem, the dominant cost of a decision. When
/// an analysis finds no split, the next one waits twice as many decisions (up to this, which measured best on twonot2);
/// a split brings analysis back to every decision. Skipping is always sound: a
/// sub-problem that is in fact disconnected is counted correctly by branching, only
/// without the savings of multiplying its parts.
const MAX_ANALYSIS_GAP: u32 = 32;

/// When analyses rarely split (fewer than one in `RARE_SPLITS`, after `RARE_SPLITS`
/// analyses), the gap jumps to this instead: Battleship puzzle10's formula splits
/// in 3 of 1,720 analyses, whose walks cost 13% of its time.
const MAX_ANALYSIS_GAP_RARE: u32 = 1024;
const RARE_SPLITS: u64 = 64;

/// Keys cost a walk over the clauses each decision satisfied (a quarter of Battleship
/// puzzle10's time) and pay off only through cache hits. Every `.0` sub-problems
/// cached, if so far there were fewer hits than one per `.1` entries, the search stops
/// keying and caching the sub-problem after each decision for good and caches only at
/// component analyses.
/// Star Battle twonot2 hits about half the time and keeps its cache; puzzle10 hits
/// about one in ten (and its hits save 8% of its decisions).
const CACHE_TRIAL: (u64, u64) = (4096, 5);

pub(super) struct Search<const NATIVE: bool> {
    num_vars: usize,
    /// Literals of the clauses of length >= 3 ("long"), reordered in place for watching.
    lits: Vec<Lit>,
    starts: Vec<u32>,
    /// Per variable: the long clauses it occurs in.
    long_by_var: Vec<Vec<u32>>,
    /// Per literal code: the long clauses it occurs in.
    long_by_lit: Vec<Vec<u32>>,
    /// Per variable: the other literal of each binary clause it occurs in.
    partners: Vec<Vec<Lit>>,
    /// Per literal code: long clauses whose first two literals include it, each with a
    /// blocker (another literal of the clause: when it is true the clause is skipped
    /// without being read).
    watches: Vec<Vec<Watch>>,
    /// Per literal code: what must be true when this literal is false (binary clauses).
    implications: Vec<Vec<Lit>>,
    /// Per literal code: the other two literals of each clause of length 3 it occurs
    /// in, read whenever it becomes false. Most long clauses of cardinality encodings
    /// have length 3, and two value reads beat moving watches around. (They are long
    /// clauses all the same for components and keys.)
    ternary: Vec<Vec<(Lit, Lit)>>,
    /// Per literal code: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    trail: Vec<Lit>,
    queue_head: usize,
    /// Per variable: its position on the trail while it is assigned. Which long clauses
    /// an assignment satisfied is worked out from these when a key is needed
    /// (`child_key`), not tracked at every assignment: most propagations end in a
    /// conflict and never need a key.
    position: Vec<u32>,
    /// Per variable: its position in the decision order, or `NO_RANK` for variables
    /// never decided. Decided are the projected variables, in projection order, after
    /// the gates of `gate_order`.
    rank: Vec<u32>,
    /// Per variable: whether it is projected (a free one doubles the count).
    projected: Vec<bool>,
    var_hash: Vec<Key>,
    clause_hash: Vec<Key>,
    units: Vec<Lit>,
    trivially_unsat: bool,
    var_stamp: Vec<u32>,
    clause_stamp: Vec<u32>,
    stamp: u32,
    cache: HashMap<Key, (Count, NodeId), BuildHasherDefault<KeyHasher>>,
    /// Entries the cache may hold before it is emptied (`MAX_CACHE_ENTRIES`).
    cache_limit: usize,
    dag: Dag,
    stats: SearchStats,
    give_up: Option<GiveUp>,
    /// Whether the sub-problem after each decision is looked up in the cache (which
    /// needs its key); else only those after a component analysis are. See
    /// `CACHE_TRIAL`.
    cache_decisions: bool,
    /// Set when `give_up` fired: every pending call then returns at once.
    gave_up: bool,
    /// The formula's cardinality constraints (`Cnf::cardinalities`), propagated by
    /// counting instead of through their clauses, which the search leaves out together
    /// with their auxiliary variables.
    cards: Vec<NativeCard>,
    /// Literals of the native constraints, `NativeCard::start..end` each.
    card_lits: Vec<Lit>,
    /// Per literal code: the native constraints it occurs in, once per occurrence.
    card_occ: Vec<Vec<u32>>,
    /// Per variable: the native constraints it occurs in, each once.
    card_by_var: Vec<Vec<u32>>,
    card_stamp: Vec<u32>,
    /// Scratch for `child_key`: per constraint, literals made true and false since the
    /// mark, and the constraints touched.
    card_delta: Vec<(u32, u32)>,
    card_touched: Vec<u32>,
}

/// `lo <= (true literals among card_lits[start..end]) <= hi`, with the number of its
/// literals now true (`t`) and false (`f`), kept at every assignment and backtrack.
#[derive(Clone, Copy)]
struct NativeCard {
    start: u32,
    end: u32,
    lo: u32,
    hi: u32,
    t: u32,
    f: u32,
}

impl NativeCard {
    fn len(&self) -> u32 {
        self.end - self.start
    }

    /// Whether the constraint still restricts its unassigned literals when `t` of its
    /// literals are true and `f` false. Once it does not, it never does again deeper
    /// down (both bounds only get looser relative to what is left), so like a satisfied
    /// clause it drops out of components and keys.
    fn restricts(&self, t: u32, f: u32) -> bool {
        let open = self.len() - t - f;
        open > 0 && (t < self.lo || t + open > self.hi)
    }
}

/// Counts (and keeps the DAG if `keep_dag`) with the search that suits `cnf`: the one
/// with native cardinality constraints only when the CNF records some, so that formulas
/// without pay nothing for their bookkeeping.
pub(super) fn run(
    cnf: &Cnf,
    keep_dag: bool,
    give_up: Option<GiveUp>,
) -> Result<Outcome, SearchStats> {
    // The registers of a counter must be its own: one that is projected would count
    // as free once its clauses are gone, and one that another clause mentions would
    // lose its definition. Then the constraints are searched through their clauses.
    let mut is_aux = vec![false; cnf.num_vars()];
    let mut replaced = vec![false; cnf.num_clauses()];
    for card in cnf.cardinalities() {
        is_aux[card.aux.clone()].fill(true);
        replaced[card.clauses.clone()].fill(true);
    }
    let shared_aux = cnf.projection().iter().any(|v| is_aux[v.index()])
        || cnf
            .clauses()
            .zip(&replaced)
            .any(|(clause, &r)| !r && clause.iter().any(|l| is_aux[l.var().index()]));
    if cnf.cardinalities().is_empty() || shared_aux {
        Search::<false>::new(cnf, keep_dag, give_up).run()
    } else {
        Search::<true>::new(cnf, keep_dag, give_up).run()
    }
}

/// What `Search::run` found: the count, and the DAG to list solutions from.
pub(super) struct Outcome {
    pub count: Count,
    pub dag: Dag,
    pub root: Edge,
    pub stats: SearchStats,
}

impl<const NATIVE: bool> Search<NATIVE> {
    /// With `NATIVE`, the cardinality constraints `cnf` records replace their clauses
    /// (which `run` allows only when their auxiliary variables are their own);
    /// without, they are searched through their clauses like any other.
    pub fn new(cnf: &Cnf, keep_dag: bool, give_up: Option<GiveUp>) -> Self {
        let native: &[Cardinality] = if NATIVE { cnf.cardinalities() } else { &[] };
        let n = cnf.num_vars();
        let mut projected = vec![false; n];
        for var in cnf.projection() {
            projected[var.index()] = true;
        }
        // Clauses of recorded cardinality constraints are replaced by native ones.
        let mut replaced = vec![false; cnf.num_clauses()];
        for card in native {
            replaced[card.clauses.clone()].fill(true);
        }
        let kept: Vec<&[Lit]> = cnf
            .clauses()
            .zip(&replaced)
            .filter(|&(_, &r)| !r)
            .map(|(c, _)| c)
            .collect();
        let gates = gate_order(n, &kept, &projected);
        let mut rank = vec![NO_RANK; n];
        let order = gates.iter().chain(cnf.projection());
        for (position, var) in order.enumerate() {
            if rank[var.index()] == NO_RANK {
                rank[var.index()] = position as u32;
            }
        }
        let var_hash = (0..n as u64)
            .map(|v| (mix(v ^ SEED_VAR_1), mix(v ^ SEED_VAR_2)))
            .collect();
        let mut search = Search {
            num_vars: n,
            lits: Vec::new(),
            starts: vec![0],
            long_by_var: vec![Vec::new(); n],
            long_by_lit: vec![Vec::new(); 2 * n],
            partners: vec![Vec::new(); n],
            watches: vec![Vec::new(); 2 * n],
            implications: vec![Vec::new(); 2 * n],
            ternary: vec![Vec::new(); 2 * n],
            value: vec![0; 2 * n],
            trail: Vec::with_capacity(n),
            queue_head: 0,
            position: vec![0; n],
            rank,
            projected,
            var_hash,
            clause_hash: Vec::new(),
            units: Vec::new(),
            trivially_unsat: false,
            var_stamp: vec![0; n],
            clause_stamp: Vec::new(),
            stamp: 0,
            cache: HashMap::default(),
            cache_limit: MAX_CACHE_ENTRIES,
            dag: Dag::new(keep_dag),
            stats: SearchStats {
                gates: gates.len() as u64,
                ..SearchStats::default()
            },
            give_up,
            cache_decisions: true,
            gave_up: false,
            cards: Vec::new(),
            card_lits: Vec::new(),
            // Only the native search reads these (the other keeps no per-variable cost).
            card_occ: vec![Vec::new(); if NATIVE { 2 * n } else { 0 }],
            card_by_var: vec![Vec::new(); if NATIVE { n } else { 0 }],
            card_stamp: Vec::new(),
            card_delta: Vec::new(),
            card_touched: Vec::new(),
        };
        for card in native {
            let id = search.cards.len() as u32;
            let start = search.card_lits.len() as u32;
            search.card_lits.extend_from_slice(&card.lits);
            for lit in &card.lits {
                search.card_occ[lit.code()].push(id);
                let by_var = &mut search.card_by_var[lit.var().index()];
                if by_var.last() != Some(&id) {
                    by_var.push(id);
                }
            }
            let clamp = |k: usize| u32::try_from(k).unwrap_or(u32::MAX);
            search.cards.push(NativeCard {
                start,
                end: search.card_lits.len() as u32,
                lo: clamp(card.lo),
                hi: clamp(card.hi),
                t: 0,
                f: 0,
            });
        }
        search.card_stamp = vec![0; search.cards.len()];
        search.card_delta = vec![(0, 0); search.cards.len()];
        let mut clause: Vec<Lit> = Vec::new();
        for original in kept {
            clause.clear();
            clause.extend_from_slice(original);
            clause.sort_unstable();
            clause.dedup();
            // Sorted by code, a literal and its negation are neighbours.
            if clause.windows(2).any(|w| w[0] == !w[1]) {
                continue;
            }
            search.add_clause(&clause);
        }
        let long = search.starts.len() - 1;
        search.clause_stamp = vec![0; long];
        search.clause_hash = (0..long as u64)
            .map(|c| (mix(c ^ SEED_CLAUSE_1), mix(c ^ SEED_CLAUSE_2)))
            .collect();
        search
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        match clause.len() {
            0 => self.trivially_unsat = true,
            1 => self.units.push(clause[0]),
            2 => {
                let (a, b) = (clause[0], clause[1]);
                self.implications[a.code()].push(b);
                self.implications[b.code()].push(a);
                self.partners[a.var().index()].push(b);
                self.partners[b.var().index()].push(a);
            }
            _ => {
                let id = (self.starts.len() - 1) as u32;
                self.lits.extend_from_slice(clause);
                self.starts.push(self.lits.len() as u32);
                for lit in clause {
                    self.long_by_var[lit.var().index()].push(id);
                    self.long_by_lit[lit.code()].push(id);
                }
                if let &[a, b, c] = clause {
                    self.ternary[a.code()].push((b, c));
                    self.ternary[b.code()].push((a, c));
                    self.ternary[c.code()].push((a, b));
                    return;
                }
                self.watches[clause[0].code()].push(Watch {
                    clause: id,
                    blocker: clause[1],
                });
                self.watches[clause[1].code()].push(Watch {
                    clause: id,
                    blocker: clause[0],
                });
            }
        }
    }

    /// Counts the solutions projected on the projection set and builds the DAG; when the
    /// search gave up (see `GiveUp`), what it had done by then.
    pub fn run(mut self) -> Result<Outcome, SearchStats> {
        let unsat = Outcome {
            count: Count::ZERO,
            dag: Dag::new(false),
            root: Edge {
                lits: 0..0,
                child: FALSE,
            },
            stats: SearchStats::default(),
        };
        if self.trivially_unsat {
            return Ok(unsat);
        }
        for unit in std::mem::take(&mut self.units) {
            match self.value[unit.code()] {
                1 => {}
                -1 => return Ok(unsat),
                _ => self.assign(unit),
            }
        }
        // A native constraint may force or refute something before any assignment.
        for c in 0..self.cards.len() {
            if !self.settle_card(c as u32) {
                return Ok(unsat);
            }
        }
        if !self.propagate() {
            return Ok(unsat);
        }
        let all: Vec<u32> = (0..self.num_vars as u32).collect();
        let (count, child) = self.split(&all, 1);
        if self.gave_up {
            return Err(self.stats);
        }
        let lits = if child == FALSE {
            0..0
        } else {
            let implied = self.trail.clone();
            self.dag.store_lits(&implied)
        };
        Ok(Outcome {
            count,
            root: Edge { lits, child },
            dag: self.dag,
            stats: self.stats,
        })
    }

    fn is_assigned(&self, var: u32) -> bool {
        self.value[2 * var as usize] != 0
    }

    #[inline(always)]
    fn assign(&mut self, lit: Lit) {
        self.stats.assignments += 1;
        self.value[lit.code()] = 1;
        self.value[(!lit).code()] = -1;
        self.position[lit.var().index()] = self.trail.len() as u32;
        self.trail.push(lit);
        if NATIVE {
            for &c in &self.card_occ[lit.code()] {
                self.cards[c as usize].t += 1;
            }
            for &c in &self.card_occ[(!lit).code()] {
                self.cards[c as usize].f += 1;
            }
        }
    }

    /// Checks native constraint `c` against its counts: false if they break it; when
    /// they reach a bound, assigns its unassigned literals (false at the upper bound,
    /// true at the lower one).
    fn settle_card(&mut self, c: u32) -> bool {
        let card = self.cards[c as usize];
        let n = card.len();
        if card.t > card.hi || card.f.saturating_add(card.lo) > n {
            return false;
        }
        if card.t + card.f == n {
            return true;
        }
        let value = if card.t == card.hi {
            false
        } else if n - card.f == card.lo {
            true
        } else {
            return true;
        };
        for k in card.start..card.end {
            let lit = self.card_lits[k as usize];
            if self.value[lit.code()] == 0 {
                self.assign(if value { lit } else { !lit });
            }
        }
        true
    }

    /// Whether some literal of long clause `id` is true.
    fn is_satisfied(&self, id: u32) -> bool {
        let (start, end) = (self.starts[id as usize], self.starts[id as usize + 1]);
        self.lits[start as usize..end as usize]
            .iter()
            .any(|l| self.value[l.code()] == 1)
    }

    /// `key` minus the variables assigned since trail position `mark` and the long
    /// clauses they satisfied (each once: at its first true literal on the trail), with
    /// the native constraints they touched keyed by their new counts.
    fn child_key(&mut self, key: Key, mark: usize) -> Key {
        let mut child = key;
        let with_cards = if NATIVE { mark } else { self.trail.len() };
        for lit in &self.trail[with_cards..] {
            for (code, positive) in [(lit.code(), true), ((!*lit).code(), false)] {
                for &c in &self.card_occ[code] {
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
            let card = &self.cards[c as usize];
            let (dt, df) = std::mem::take(&mut self.card_delta[c as usize]);
            if card.restricts(card.t - dt, card.f - df) {
                child = sub(child, card_key(c, card.t - dt));
            }
            if card.restricts(card.t, card.f) {
                child = add(child, card_key(c, card.t));
            }
        }
        self.card_touched.clear();
        for (at, lit) in self.trail.iter().enumerate().skip(mark) {
            child = sub(child, self.var_hash[lit.var().index()]);
            for &id in &self.long_by_lit[lit.code()] {
                let (start, end) = (self.starts[id as usize], self.starts[id as usize + 1]);
                let earlier = self.lits[start as usize..end as usize].iter().any(|l| {
                    self.value[l.code()] == 1 && (self.position[l.var().index()] as usize) < at
                });
                if !earlier {
                    child = sub(child, self.clause_hash[id as usize]);
                }
            }
        }
        child
    }

    fn backtrack(&mut self, mark: usize) {
        if mark >= self.trail.len() {
            return;
        }
        if NATIVE {
            for &lit in &self.trail[mark..] {
                for &c in &self.card_occ[lit.code()] {
                    self.cards[c as usize].t -= 1;
                }
                for &c in &self.card_occ[(!lit).code()] {
                    self.cards[c as usize].f -= 1;
                }
            }
        }
        for lit in self.trail.drain(mark..) {
            self.value[lit.code()] = 0;
            self.value[(!lit).code()] = 0;
        }
        self.queue_head = mark;
    }

    /// Unit propagation to a fixpoint; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.queue_head < self.trail.len() {
            let falsified = !self.trail[self.queue_head];
            self.queue_head += 1;
            // Native constraints first: an over-full row or column is the commonest
            // conflict, and finding it costs less than the clauses' work.
            if NATIVE && !self.settle_cards(falsified) {
                return false;
            }

            let implied = std::mem::take(&mut self.implications[falsified.code()]);
            let mut ok = true;
            for &lit in &implied {
                match self.value[lit.code()] {
                    1 => {}
                    -1 => {
                        ok = false;
                        break;
                    }
                    _ => self.assign(lit),
                }
            }
            self.implications[falsified.code()] = implied;
            if !ok {
                return false;
            }

            let pairs = std::mem::take(&mut self.ternary[falsified.code()]);
            let mut ok = true;
            for &(b, c) in &pairs {
                let (vb, vc) = (self.value[b.code()], self.value[c.code()]);
                if vb == 1 || vc == 1 {
                    continue;
                }
                match (vb, vc) {
                    (-1, -1) => {
                        ok = false;
                        break;
                    }
                    (-1, _) => self.assign(c),
                    (_, -1) => self.assign(b),
                    _ => {}
                }
            }
            self.ternary[falsified.code()] = pairs;
            if !ok {
                return false;
            }

            let mut watching = std::mem::take(&mut self.watches[falsified.code()]);
            let (mut read, mut write) = (0, 0);
            let mut conflict = false;
            while read < watching.len() {
                let watch = watching[read];
                read += 1;
                if self.value[watch.blocker.code()] == 1 {
                    watching[write] = watch;
                    write += 1;
                    continue;
                }
                let id = watch.clause;
                let start = self.starts[id as usize] as usize;
                let end = self.starts[id as usize + 1] as usize;
                if self.lits[start] == falsified {
                    self.lits.swap(start, start + 1);
                }
                let other = self.lits[start];
                let kept = Watch {
                    clause: id,
                    blocker: other,
                };
                if self.value[other.code()] == 1 {
                    watching[write] = kept;
                    write += 1;
                    continue;
                }
                let replacement = (start + 2..end).find(|&k| self.value[self.lits[k].code()] != -1);
                if let Some(k) = replacement {
                    self.lits.swap(start + 1, k);
                    self.watches[self.lits[start + 1].code()].push(kept);
                    continue;
                }
                watching[write] = kept;
                write += 1;
                if self.value[other.code()] == -1 {
                    conflict = true;
                    while read < watching.len() {
                        watching[write] = watching[read];
                        write += 1;
                        read += 1;
                    }
                } else {
                    self.assign(other);
                }
            }
            watching.truncate(write);
            self.watches[falsified.code()] = watching;
            if conflict {
                return false;
            }
        }
        true
    }

    /// The native constraints' part of `propagate`, for a literal just processed
    /// (`falsified` is its negation); false on a conflict. Out of line, so that
    /// formulas without native constraints keep `propagate` as small as it was.
    ///
    /// A literal made true can only bring its constraints to their upper bound, one
    /// made false to their lower bound: only those at that bound need settling.
    #[inline(never)]
    fn settle_cards(&mut self, falsified: Lit) -> bool {
        for (code, made_true) in [((!falsified).code(), true), (falsified.code(), false)] {
            // By index: settling assigns literals but never changes occurrence lists.
            for i in 0..self.card_occ[code].len() {
                let c = self.card_occ[code][i];
                let card = &self.cards[c as usize];
                // Past the bound is a conflict; at it, with literals left, they are
                // forced.
                let open = card.t + card.f < card.len();
                let act = if made_true {
                    card.t > card.hi || (card.t == card.hi && open)
                } else {
                    let least = card.f.saturating_add(card.lo);
                    least > card.len() || (least == card.len() && open)
                };
                if act && !self.settle_card(c) {
                    return false;
                }
            }
        }
        true
    }

    /// Splits the unassigned variables among `vars` into components.
    ///
    /// A residual formula is fixed by its variable set and by the set of its unsatisfied
    /// long clauses: every such clause keeps exactly its literals over the set (the
    /// others are false, or the clause would be satisfied or the variable would belong to
    /// the set), and a binary clause over two unassigned variables is always present
    /// whole. The key sums 128-bit hashes of both sets (two independent 64-bit sums), so
    /// equal keys mean equal residual formulas up to a hash collision, whose odds are
    /// about n^2 / 2^128 for n cached sub-problems.
    ///
    /// Returns the components with clauses, and the projected variables whose clauses
    /// are all satisfied (each doubles the count).
    fn components(&mut self, vars: &[u32]) -> (Vec<Component>, Vec<Var>) {
        self.stats.component_analyses += 1;
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
            if self.is_assigned(seed) || self.var_stamp[seed as usize] == stamp {
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
                for &other in &self.partners[var] {
                    // The other literal is not false: propagation would have set `var`.
                    if self.value[other.code()] == 0 {
                        clauses += 1;
                        let w = other.var().index();
                        if self.var_stamp[w] != stamp {
                            self.var_stamp[w] = stamp;
                            members.push(w as u32);
                        }
                    }
                }
                let native = if NATIVE {
                    &self.card_by_var[var][..]
                } else {
                    &[]
                };
                for &c in native {
                    if self.card_stamp[c as usize] == stamp {
                        continue;
                    }
                    self.card_stamp[c as usize] = stamp;
                    let card = self.cards[c as usize];
                    if !card.restricts(card.t, card.f) {
                        continue;
                    }
                    clauses += 1;
                    key = add(key, card_key(c, card.t));
                    for lit in &self.card_lits[card.start as usize..card.end as usize] {
                        let w = lit.var().index();
                        if self.value[lit.code()] == 0 && self.var_stamp[w] != stamp {
                            self.var_stamp[w] = stamp;
                            members.push(w as u32);
                        }
                    }
                }
                for &id in &self.long_by_var[var] {
                    if self.clause_stamp[id as usize] == stamp {
                        continue;
                    }
                    self.clause_stamp[id as usize] = stamp;
                    if self.is_satisfied(id) {
                        continue;
                    }
                    clauses += 1;
                    key = add(key, self.clause_hash[id as usize]);
                    let start = self.starts[id as usize] as usize;
                    let end = self.starts[id as usize + 1] as usize;
                    for lit in &self.lits[start..end] {
                        let w = lit.var().index();
                        if self.value[lit.code()] == 0 && self.var_stamp[w] != stamp {
                            self.var_stamp[w] = stamp;
                            members.push(w as u32);
                        }
                    }
                }
            }
            if clauses == 0 {
                if self.projected[seed as usize] {
                    free.push(Var::from_index(seed as usize));
                }
            } else {
                // Decided variables first, in rank order: `branch` takes the first
                // unassigned one.
                members.sort_unstable_by_key(|&v| self.rank[v as usize]);
                components.push(Component { vars: members, key });
            }
        }
        (components, free)
    }

    /// The count of the unassigned part of `vars`, found by component analysis: the
    /// product over its components. `gap` is the analysis gap in force.
    fn split(&mut self, vars: &[u32], gap: u32) -> (Count, NodeId) {
        let (mut components, free) = self.components(vars);
        let parts = components.len() + usize::from(!free.is_empty());
        if parts > 1 {
            self.stats.splits += 1;
        }
        let gap = if parts > 1 {
            1
        } else {
            self.next_analysis_gap(gap)
        };
        let mut count = Count::pow2(free.len());
        let mut children = Vec::with_capacity(parts);
        // Small components first: a zero among them ends the product early.
        components.sort_by_key(|c| c.vars.len());
        for component in &components {
            let (c, node) = self.cached(component.key, |search| {
                search.branch(&component.vars, 0, component.key, gap, 0)
            });
            if c.is_zero() {
                return (Count::ZERO, FALSE);
            }
            count = count.mul(&c);
            children.push(node);
        }
        if !free.is_empty() {
            children.push(self.dag.push(Node::Free(free)));
        }
        let node = match children.len() {
            0 => TRUE,
            1 => children[0],
            _ => self.dag.push(Node::And(children)),
        };
        (count, node)
    }

    /// The gap after an analysis that found no split.
    fn next_analysis_gap(&self, gap: u32) -> u32 {
        if self.splits_are_rare() {
            MAX_ANALYSIS_GAP_RARE
        } else {
            (gap * 2).min(MAX_ANALYSIS_GAP)
        }
    }

    fn splits_are_rare(&self) -> bool {
        let analyses = self.stats.component_analyses;
        analyses >= RARE_SPLITS && self.stats.splits * RARE_SPLITS < analyses
    }

    fn cached(
        &mut self,
        key: Key,
        compute: impl FnOnce(&mut Self) -> (Count, NodeId),
    ) -> (Count, NodeId) {
        if let Some(hit) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            return hit.clone();
        }
        if self.gave_up {
            return (Count::ZERO, FALSE);
        }
        let result = compute(self);
        if self.gave_up {
            // An unfinished count: never cache it.
            return (Count::ZERO, FALSE);
        }
        if self.cache.len() >= self.cache_limit {
            // The cache only saves work: forgetting it keeps every count exact.
            self.cache.clear();
            self.stats.cache_clears += 1;
        }
        self.stats.cache_entries += 1;
        let entries = self.stats.cache_entries;
        if entries.is_multiple_of(CACHE_TRIAL.0) && self.stats.cache_hits * CACHE_TRIAL.1 < entries
        {
            self.cache_decisions = false;
        }
        if result.0.is_zero() {
            self.stats.dead_ends += 1;
        }
        self.cache.insert(key, result.clone());
        result
    }

    /// The count of the unassigned part of `parent` after a decision, whose key is
    /// `key`; `since` decisions were taken since the last component analysis, and the
    /// projected variables of `parent` before `from` are all assigned.
    fn residual(
        &mut self,
        parent: &[u32],
        from: usize,
        key: Key,
        gap: u32,
        since: u32,
    ) -> (Count, NodeId) {
        self.cached(key, |search| {
            if since >= gap {
                search.split(parent, gap)
            } else {
                search.branch(parent, from, key, gap, since)
            }
        })
    }

    /// Counts the sub-problem over the unassigned variables of `vars` (closed: no
    /// unsatisfied clause leads outside) whose key is `key`, by branching on its first
    /// undecided ranked variable. `vars` lists ranked variables first, in rank order, and
    /// those before `from` are known to be assigned (which keeps long chains linear).
    fn branch(
        &mut self,
        vars: &[u32],
        from: usize,
        key: Key,
        gap: u32,
        since: u32,
    ) -> (Count, NodeId) {
        if self.gave_up {
            return (Count::ZERO, FALSE);
        }
        let Some(position) = (from..vars.len())
            .take_while(|&i| self.rank[vars[i] as usize] != NO_RANK)
            .find(|&i| !self.is_assigned(vars[i]))
        else {
            return self.witness(vars);
        };
        let var = vars[position];
        self.stats.decisions += 1;
        // A gap handed down from before splits turned out rare gives way at once.
        let gap = if self.splits_are_rare() {
            gap.max(MAX_ANALYSIS_GAP_RARE)
        } else {
            gap
        };
        let mut total = Count::ZERO;
        let mut edges = [const { Edge::DEAD }; 2];
        for (edge, positive) in edges.iter_mut().zip([false, true]) {
            let mark = self.trail.len();
            self.assign(Lit::new(Var::from_index(var as usize), positive));
            let (count, child) = if !self.propagate() {
                (Count::ZERO, FALSE)
            } else if self.cache_decisions {
                let child_key = self.child_key(key, mark);
                self.residual(vars, position + 1, child_key, gap, since + 1)
            } else if since + 1 >= gap {
                self.split(vars, gap)
            } else {
                // No key: nothing below is cached until the next analysis.
                self.branch(vars, position + 1, key, gap, since + 1)
            };
            let lits = if child == FALSE {
                0..0
            } else {
                self.dag.store_lits(&self.trail[mark..])
            };
            self.backtrack(mark);
            total = total.add(&count);
            *edge = Edge { lits, child };
        }
        if total.is_zero() {
            self.stats.dead_decisions += 1;
        }
        if let Some(rule) = self.give_up {
            let dead = self.stats.dead_decisions;
            let live = self.stats.decisions - dead;
            self.gave_up =
                dead >= rule.min_dead_decisions && dead >= rule.ratio.saturating_mul(live);
        }
        if total.is_zero() {
            return (Count::ZERO, FALSE);
        }
        (total, self.dag.push(Node::Decision(edges)))
    }

    /// Satisfiability of a sub-problem without projected variables, with one witness.
    fn witness(&mut self, vars: &[u32]) -> (Count, NodeId) {
        self.stats.witness_searches += 1;
        let mark = self.trail.len();
        if !self.satisfy(vars, 0) {
            return (Count::ZERO, FALSE);
        }
        let found = self.trail[mark..].to_vec();
        self.backtrack(mark);
        if found.is_empty() {
            return (Count::ONE, TRUE);
        }
        let lits = self.dag.store_lits(&found);
        (Count::ONE, self.dag.push(Node::Witness(lits)))
    }

    /// DPLL over `vars[from..]`; on success the satisfying assignment stays on the trail.
    fn satisfy(&mut self, vars: &[u32], from: usize) -> bool {
        let Some(position) = (from..vars.len()).find(|&i| !self.is_assigned(vars[i])) else {
            return true;
        };
        let var = Var::from_index(vars[position] as usize);
        for positive in [false, true] {
            let mark = self.trail.len();
            self.assign(Lit::new(var, positive));
            if self.propagate() && self.satisfy(vars, position + 1) {
                return true;
            }
            self.backtrack(mark);
        }
        false
    }
}

/// Gates with fewer inputs are not decided: the registers of cardinality encodings are
/// small gates over cells (two inputs in Star Battle's counters), and deciding them
/// before the cells multiplied the time of twonot2 by 80.
const MIN_GATE_INPUTS: usize = 3;

/// Auxiliary variables that are AND gates of literals over projected variables, in the
/// order the search decides them: most positive inputs first, then by index.
///
/// A gate `g` is recognised from its clauses alone: a clause `g | l1 | ... | ln`
/// (n >= `MIN_GATE_INPUTS`) together with every binary clause `!g | !li` says `g = !l1 & ... & !ln`. Such
/// a `g` is a function of projected variables, so deciding it splits the projected
/// solutions into two disjoint sets and keeps every count exact, although `g` itself is
/// not projected. For Battleship the gates are the ship placements, and deciding long
/// ships first, as a hand-written backtracker does, cuts the dead ends of a cell-by-cell
/// search: a board is a few ships, and most partial boards of cells cannot be completed.
fn gate_order(num_vars: usize, clauses: &[&[Lit]], projected: &[bool]) -> Vec<Var> {
    let pair = |a: Lit, b: Lit| (a.code().min(b.code()), a.code().max(b.code()));
    let binary: HashSet<(usize, usize)> = clauses
        .iter()
        .filter(|c| c.len() == 2)
        .map(|c| pair(c[0], c[1]))
        .collect();
    let mut seen = vec![false; num_vars];
    let mut gates = Vec::new();
    for &clause in clauses.iter().filter(|c| c.len() > MIN_GATE_INPUTS) {
        for &output in clause {
            let var = output.var().index();
            if projected[var] || seen[var] {
                continue;
            }
            let inputs = clause.iter().filter(|&&l| l != output);
            let defines = inputs
                .clone()
                .all(|&l| projected[l.var().index()] && binary.contains(&pair(!output, !l)));
            if defines {
                seen[var] = true;
                let positive = inputs.filter(|l| !l.is_positive()).count();
                gates.push((positive, output.var()));
            }
        }
    }
    gates.sort_by_key(|&(positive, var)| (std::cmp::Reverse(positive), var.index()));
    gates.into_iter().map(|(_, var)| var).collect()
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

/// The cache keys are already well-mixed hashes: use them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = self.0.rotate_left(17) ^ x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of a grid where each row holds at most one true cell and adjacent rows may
    /// not both use the same column: many sub-problems, many cache hits.
    fn grid_cnf(rows: usize, cols: usize) -> Cnf {
        let mut cnf = Cnf::new();
        let grid = gridsat_encodings::LitGrid::primary(&mut cnf, rows, cols);
        for r in 0..rows {
            let row = grid.row(r);
            gridsat_encodings::CardEncoding::SequentialCounter.at_most(&mut cnf, &row, 1);
            if r + 1 < rows {
                for c in 0..cols {
                    cnf.clause([!grid.get(r, c), !grid.get(r + 1, c)]);
                }
            }
        }
        cnf
    }

    /// A row is empty or uses one column, which the next row may not use: a dynamic
    /// program over the previous row's column.
    fn expected(rows: usize, cols: usize) -> u128 {
        // State: the column used by the previous row, or none.
        let mut ways = vec![0u128; cols + 1];
        ways[cols] = 1;
        for _ in 0..rows {
            let mut next = vec![0u128; cols + 1];
            for (previous, &w) in ways.iter().enumerate() {
                for (column, slot) in next.iter_mut().enumerate() {
                    // `cols` is the empty row, always allowed.
                    if column == cols || column != previous {
                        *slot += w;
                    }
                }
            }
            ways = next;
        }
        ways.iter().sum()
    }

    #[test]
    fn a_tiny_cache_that_keeps_emptying_still_counts_exactly() {
        let cnf = grid_cnf(7, 4);
        let full = Search::<false>::new(&cnf, true, None).run().unwrap();
        assert_eq!(full.count, expected(7, 4));
        assert!(full.stats.cache_hits > 0);
        let mut small = Search::<false>::new(&cnf, true, None);
        small.cache_limit = 3;
        let outcome = small.run().unwrap();
        assert_eq!(outcome.count, expected(7, 4));
        assert!(outcome.stats.cache_clears > 0);
    }

    /// Projected solutions by brute force: every assignment, its projection kept when
    /// it satisfies every clause.
    fn brute_force(cnf: &Cnf) -> std::collections::BTreeSet<Vec<bool>> {
        let n = cnf.num_vars();
        (0u32..1 << n)
            .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
            .filter(|values| cnf.is_satisfied_by(values))
            .map(|values| cnf.projection().iter().map(|v| values[v.index()]).collect())
            .collect()
    }

    /// Counts and lists with the given search, checking every listed assignment.
    fn listed<const NATIVE: bool>(
        cnf: &Cnf,
        search: Search<NATIVE>,
    ) -> (Count, std::collections::BTreeSet<Vec<bool>>) {
        let outcome = search.run().expect("no give-up rule");
        let mut seen = std::collections::BTreeSet::new();
        if outcome.root.child != FALSE {
            let mut values = vec![false; cnf.num_vars()];
            outcome.dag.set(&outcome.root.lits, &mut values);
            let _ = outcome
                .dag
                .walk(outcome.root.child, &mut values, &mut |values| {
                    // The search left out the counters of native constraints.
                    for card in cnf.cardinalities() {
                        card.fill_aux(values);
                    }
                    assert!(cnf.is_satisfied_by(values));
                    let projected: Vec<bool> =
                        cnf.projection().iter().map(|v| values[v.index()]).collect();
                    assert!(seen.insert(projected), "a solution listed twice");
                    std::ops::ControlFlow::Continue(())
                });
        }
        (outcome.count, seen)
    }

    /// A seeded generator (xorshift) of numbers below a bound, so failures reproduce.
    fn below_from(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |below| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        }
    }

    /// Without keys after decisions (what the search falls back to when its cache rarely
    /// hits, `CACHE_TRIAL`), counts and listings still equal a brute force, on random
    /// CNFs with random projections, and with keys as well.
    #[test]
    fn caching_only_at_analyses_counts_and_lists_exactly() {
        let mut next = below_from(0x2545_f491_4f6c_dd1d);
        for round in 0..300 {
            let n = 1 + next(11) as usize;
            let mut cnf = Cnf::new();
            let vars: Vec<Var> = (0..n)
                .map(|_| {
                    if next(3) == 0 {
                        cnf.fresh_var()
                    } else {
                        cnf.primary_var()
                    }
                })
                .collect();
            for _ in 0..next(3 * n as u64 + 1) {
                let width = 1 + next(4) as usize;
                let clause: Vec<Lit> = (0..width)
                    .map(|_| Lit::new(vars[next(n as u64) as usize], next(2) == 0))
                    .collect();
                cnf.clause(clause);
            }
            let expected = brute_force(&cnf);
            for cache_decisions in [true, false] {
                let mut search = Search::<false>::new(&cnf, true, None);
                search.cache_decisions = cache_decisions;
                let (count, seen) = listed(&cnf, search);
                assert_eq!(count, expected.len() as u128, "round {round}");
                assert_eq!(seen, expected, "round {round}, keys {cache_decisions}");
            }
        }
    }

    /// Random 3-SAT past the threshold: nothing but dead ends. The give-up rule must
    /// stop the search whether or not it caches after every decision (without caching,
    /// the recursion never passes through the cache, where a search that gave up
    /// returns at once).
    #[test]
    fn a_hopeless_search_gives_up_with_and_without_keys() {
        let mut next = below_from(0x9e37_79b9_7f4a_7c15);
        let mut cnf = Cnf::new();
        let vars: Vec<Var> = (0..150).map(|_| cnf.primary_var()).collect();
        for _ in 0..750 {
            let clause: Vec<Lit> = (0..3)
                .map(|_| Lit::new(vars[next(150) as usize], next(2) == 0))
                .collect();
            cnf.clause(clause);
        }
        let rule = GiveUp {
            min_dead_decisions: 2_000,
            ratio: 16,
        };
        for cache_decisions in [true, false] {
            let mut search = Search::<false>::new(&cnf, true, Some(rule));
            search.cache_decisions = cache_decisions;
            let stats = search.run().err().expect("the search gives up");
            // It stops right after the decision that met the rule.
            let limit = rule.min_dead_decisions + rule.min_dead_decisions / rule.ratio + 150;
            assert!(
                stats.decisions <= limit,
                "keys {cache_decisions}: {stats:?}"
            );
        }
    }

    /// A random formula over `n` base variables (some projected, some gates of three or
    /// more projected literals, which the search decides first): random clauses, then
    /// random cardinality constraints (any encoding, repeated and negated literals
    /// allowed), then more clauses. `native` states the constraints through
    /// `CardEncoding::constrain` (recorded: the search propagates them natively), else
    /// through `between` (clauses only). Both build the same clauses.
    struct CardFormula {
        cnf: Cnf,
        /// The variables not private to a cardinality counter.
        base: Vec<Var>,
        /// Each constraint's literals and bounds, for the brute force.
        bounds: Vec<(Vec<Lit>, usize, usize)>,
        /// The clauses besides the constraints', for the brute force.
        clauses: Vec<Vec<Lit>>,
    }

    fn card_formula(seed: u64, native: bool) -> CardFormula {
        use gridsat_encodings::CardEncoding;
        let mut next = below_from(seed);
        let n = 1 + next(9) as usize;
        let mut cnf = Cnf::new();
        let mut base: Vec<Var> = (0..n)
            .map(|_| {
                if next(4) == 0 {
                    cnf.fresh_var()
                } else {
                    cnf.primary_var()
                }
            })
            .collect();
        let projected: Vec<Var> = cnf.projection().to_vec();
        if projected.len() >= 3 && next(2) == 0 {
            let inputs: Vec<Lit> = (0..3 + next(projected.len() as u64 - 2) as usize)
                .map(|_| {
                    Lit::new(
                        projected[next(projected.len() as u64) as usize],
                        next(3) > 0,
                    )
                })
                .collect();
            base.push(cnf.and_lit(&inputs).var());
        }
        let mut clauses = Vec::new();
        let mut random_clauses = |cnf: &mut Cnf, next: &mut dyn FnMut(u64) -> u64, count| {
            for _ in 0..count {
                let width = 1 + next(4) as usize;
                let clause: Vec<Lit> = (0..width)
                    .map(|_| Lit::new(base[next(base.len() as u64) as usize], next(2) == 0))
                    .collect();
                cnf.clause(clause.iter().copied());
                clauses.push(clause);
            }
        };
        let count = next(n as u64 + 1);
        random_clauses(&mut cnf, &mut next, count);
        let mut bounds = Vec::new();
        for _ in 0..1 + next(3) {
            let width = 1 + next(6) as usize;
            let lits: Vec<Lit> = (0..width)
                .map(|_| Lit::new(base[next(base.len() as u64) as usize], next(3) > 0))
                .collect();
            let lo = next(width as u64 + 1) as usize;
            let hi = lo + next(width as u64 + 1) as usize;
            // Now and then an impossible or an empty bound.
            let (lo, hi) = match next(20) {
                0 => (hi + 1, hi),
                1 => (0, width + 1),
                _ => (lo, hi),
            };
            let encoding = CardEncoding::ALL[next(4) as usize];
            if native {
                encoding.constrain(&mut cnf, &lits, lo, hi);
            } else {
                encoding.between(&mut cnf, &lits, lo, hi);
            }
            bounds.push((lits, lo, hi));
        }
        let count = next(n as u64 / 2 + 1);
        random_clauses(&mut cnf, &mut next, count);
        CardFormula {
            cnf,
            base,
            bounds,
            clauses,
        }
    }

    /// Projected solutions by brute force over the base variables: every clause outside
    /// the constraints and every bound, evaluated directly (the counters are not read).
    fn brute_force_cards(formula: &CardFormula) -> std::collections::BTreeSet<Vec<bool>> {
        let cnf = &formula.cnf;
        let mut found = std::collections::BTreeSet::new();
        let mut values = vec![false; cnf.num_vars()];
        for bits in 0u32..1 << formula.base.len() {
            for (i, v) in formula.base.iter().enumerate() {
                values[v.index()] = bits >> i & 1 == 1;
            }
            let clauses = formula
                .clauses
                .iter()
                .all(|c| c.iter().any(|l| l.eval(&values)));
            // The gate (if any) is held by clauses outside `clauses`: check it too.
            let gates = cnf
                .clauses()
                .enumerate()
                .filter(|(i, _)| {
                    !cnf.cardinalities()
                        .iter()
                        .any(|card| card.clauses.contains(i))
                })
                .all(|(_, c)| c.iter().any(|l| l.eval(&values)));
            let bounds = formula.bounds.iter().all(|(lits, lo, hi)| {
                let count = lits.iter().filter(|l| l.eval(&values)).count();
                lo <= &count && &count <= hi
            });
            if clauses && gates && bounds {
                found.insert(cnf.projection().iter().map(|v| values[v.index()]).collect());
            }
        }
        found
    }

    /// Native cardinality constraints mixed with clauses: counts and listings equal a
    /// brute force over the base variables, natively and through the counters' clauses,
    /// with keys and caching after every decision and without.
    #[test]
    fn native_cardinality_constraints_count_and_list_exactly() {
        let mut natively_propagated = 0;
        for round in 0..600u64 {
            let seed = 0x9e37_79b9_7f4a_7c15 ^ (round + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
            let native = card_formula(seed, true);
            let plain = card_formula(seed, false);
            assert_eq!(native.cnf.to_dimacs_string(), plain.cnf.to_dimacs_string());
            assert!(plain.cnf.cardinalities().is_empty());
            let expected = brute_force_cards(&native);
            natively_propagated += native.cnf.cardinalities().len();
            for formula in [&native, &plain] {
                for cache_decisions in [true, false] {
                    let natively = !formula.cnf.cardinalities().is_empty();
                    let (count, seen) = if natively {
                        let mut search = Search::<true>::new(&formula.cnf, true, None);
                        search.cache_decisions = cache_decisions;
                        listed(&formula.cnf, search)
                    } else {
                        let mut search = Search::<false>::new(&formula.cnf, true, None);
                        search.cache_decisions = cache_decisions;
                        listed(&formula.cnf, search)
                    };
                    assert_eq!(
                        count,
                        expected.len() as u128,
                        "round {round}, native {natively}, keys {cache_decisions}"
                    );
                    assert_eq!(seen, expected, "round {round}, native {natively}");
                }
            }
        }
        assert!(natively_propagated >= 600);
    }

    /// Independent parts, each under its own cardinality constraint, split into
    /// components whose counts multiply; a constraint that no longer restricts anything
    /// drops out and lets its variables split.
    #[test]
    fn native_constraints_connect_their_variables_until_they_stop_restricting() {
        use gridsat_encodings::CardEncoding;
        // Three blocks of four cells, exactly two true in each: 6^3.
        let mut cnf = Cnf::new();
        for _ in 0..3 {
            let block: Vec<Lit> = (0..4).map(|_| cnf.primary_var().positive()).collect();
            CardEncoding::SequentialCounter.constrain(&mut cnf, &block, 2, 2);
        }
        let outcome = Search::<true>::new(&cnf, false, None).run().unwrap();
        assert_eq!(outcome.count, 216u128);
        assert!(outcome.stats.splits >= 1, "{:?}", outcome.stats);
        // At most 3 of 3 restricts nothing: 2^3 solutions, every variable free.
        let mut cnf = Cnf::new();
        let lits: Vec<Lit> = (0..3).map(|_| cnf.primary_var().positive()).collect();
        CardEncoding::Totalizer.constrain(&mut cnf, &lits, 0, 3);
        let outcome = Search::<true>::new(&cnf, false, None).run().unwrap();
        assert_eq!(outcome.count, 8u128);
        assert_eq!(outcome.stats.decisions, 0);
    }

    /// Recorded constraints are searched through their clauses by the search without
    /// native bookkeeping, and by `run` when a counter register is projected (without
    /// its clauses it would count as free).
    #[test]
    fn recorded_constraints_fall_back_to_their_clauses() {
        use gridsat_encodings::CardEncoding;
        let mut cnf = Cnf::new();
        let lits: Vec<Lit> = (0..4).map(|_| cnf.primary_var().positive()).collect();
        CardEncoding::SequentialCounter.constrain(&mut cnf, &lits, 1, 2);
        // C(4,1) + C(4,2)
        assert_eq!(run(&cnf, false, None).unwrap().count, 10u128);
        let plain = Search::<false>::new(&cnf, false, None).run().unwrap();
        assert_eq!(plain.count, 10u128);
        assert!(
            plain.stats.assignments
                > Search::<true>::new(&cnf, false, None)
                    .run()
                    .unwrap()
                    .stats
                    .assignments
        );
        // A clause on the top register ("at least 2"): 6 left, 11 with projected
        // registers too (each a function of the inputs).
        let aux = cnf.cardinalities()[0].aux.clone();
        let mut shared = cnf.clone();
        shared.clause([Var::from_index(aux.end - 2).positive()]);
        assert_eq!(run(&shared, false, None).unwrap().count, 6u128);
        for v in aux {
            cnf.project(Var::from_index(v));
        }
        assert_eq!(run(&cnf, false, None).unwrap().count, 10u128);
    }
}
