//! The formula as the search holds it, and unit propagation over it.
//!
//! Clauses are indexed by length: binary clauses as implication lists, clauses of length
//! 3 as per-literal pair lists (read whenever the literal becomes false), longer ones
//! with two watched literals and a blocker. The assignment is a value per literal code
//! and a trail; backtracking is chronological (undo the trail to a mark), and nothing is
//! ever added to the formula, so propagation costs the same after a million solutions
//! as after one. Each propagated literal keeps its `Reason`, and a conflict its clause
//! (`Conflict`), for the witness searches' conflict analysis (`learn`), whose learnt
//! clauses live outside this formula.
//!
//! With `NATIVE`, the cardinality constraints the CNF records (`Cnf::cardinalities`)
//! replace their clauses: each keeps how many of its literals are true (`t`) and false
//! (`f`), updated at every assignment and backtrack. Past a bound is a conflict; at a
//! bound with literals left, those literals are forced (false at the upper bound, true
//! at the lower one). That is exactly what unit propagation through a counter's clauses
//! achieves, without its registers, so counts are unchanged. Without `NATIVE` the
//! bookkeeping is compiled out and formulas without records pay nothing for it.

use gridsat_encodings::cnf::{Cardinality, Lit};

/// Why a literal was set by propagation, kept per variable for conflict analysis
/// (`learn`): the clause (or native constraint) that forced it. The literals a reason
/// names are false.
#[derive(Clone, Copy, Debug)]
pub(super) enum Reason {
    /// A decision, or a literal set before the search (never analysed).
    Decision,
    /// The binary clause of the literal and this one.
    Binary(Lit),
    /// The clause of length 3 of the literal and these two.
    Ternary(Lit, Lit),
    /// Long clause `id`.
    Long(u32),
    /// Native constraint `c`, at one of its bounds.
    Card(u32),
    /// Learnt clause `id` of the witness search's store (`learn::Learnt`).
    Learnt(u32),
}

/// The clause that `propagate` found false, as its literals (or where to read them).
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    Binary(Lit, Lit),
    Ternary(Lit, Lit, Lit),
    Long(u32),
    Card(u32),
    Learnt(u32),
}

#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// `lo <= (true literals among card_lits[start..end]) <= hi`, with the number of its
/// literals now true (`t`) and false (`f`), kept at every assignment and backtrack.
#[derive(Clone, Copy)]
pub(super) struct NativeCard {
    pub start: u32,
    pub end: u32,
    lo: u32,
    hi: u32,
    pub t: u32,
    pub f: u32,
}

impl NativeCard {
    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    /// Whether the constraint still restricts its unassigned literals when `t` of its
    /// literals are true and `f` false. Once it does not, it never does again deeper
    /// down (both bounds only get looser relative to what is left), so like a satisfied
    /// clause it drops out of components and keys.
    pub fn restricts(&self, t: u32, f: u32) -> bool {
        let open = self.len() - t - f;
        open > 0 && (t < self.lo || t + open > self.hi)
    }
}

/// Clauses longer than this are "wide": their true literals are counted as they are
/// assigned (see `Formula::true_lits`). Puzzle formulas have almost none.
const WIDE: usize = 16;

pub(super) struct Formula<const NATIVE: bool> {
    pub num_vars: usize,
    /// Literals of the clauses of length >= 3 ("long"), reordered in place for watching.
    lits: Vec<Lit>,
    starts: Vec<u32>,
    /// Per variable: the long clauses it occurs in.
    pub long_by_var: Vec<Vec<u32>>,
    /// Per literal code: the long clauses it occurs in.
    pub long_by_lit: Vec<Vec<u32>>,
    /// Per literal code: the wide clauses (longer than `WIDE`) it occurs in, and per long
    /// clause, how many of its literals are true (kept for wide ones only). A key asks
    /// whether a clause was satisfied before an assignment; for a wide clause reading all
    /// its literals every time made one clause of 100,000 literals quadratic.
    wide_by_lit: Vec<Vec<u32>>,
    pub true_lits: Vec<u32>,
    /// Per long clause: where the last search for a new watch stopped, so the next one
    /// starts there and goes round (without it a falsified prefix is read again at every
    /// step: quadratic on a long clause).
    search_from: Vec<u32>,
    /// Per variable: the other literal of each binary clause it occurs in.
    pub partners: Vec<Vec<Lit>>,
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
    pub value: Vec<i8>,
    pub trail: Vec<Lit>,
    queue_head: usize,
    /// Per variable: its position on the trail while it is assigned. Which long clauses
    /// an assignment satisfied is worked out from these when a key is needed
    /// (`Components::child_key`), not tracked at every assignment: most propagations end
    /// in a conflict and never need a key.
    pub position: Vec<u32>,
    units: Vec<Lit>,
    trivially_unsat: bool,
    /// The formula's cardinality constraints (`Cnf::cardinalities`), propagated by
    /// counting instead of through their clauses, which the search leaves out together
    /// with their auxiliary variables.
    pub cards: Vec<NativeCard>,
    /// Literals of the native constraints, `NativeCard::start..end` each.
    pub card_lits: Vec<Lit>,
    /// Per literal code: the native constraints it occurs in, once per occurrence.
    pub card_occ: Vec<Vec<u32>>,
    /// Per variable: the native constraints it occurs in, each once.
    pub card_by_var: Vec<Vec<u32>>,
    /// Literals set by decisions and unit propagation (`SearchStats::assignments`).
    pub assignments: u64,
    /// Per variable: why it was set, while it is assigned by propagation.
    pub reason: Vec<Reason>,
    /// What the last `propagate` that returned false found false.
    pub conflict: Conflict,
}

impl<const NATIVE: bool> Formula<NATIVE> {
    /// The formula over `num_vars` variables made of `clauses` and (with `NATIVE`) the
    /// constraints `native`. Tautologies are dropped and repeated literals merged.
    pub fn new(num_vars: usize, clauses: &[&[Lit]], native: &[Cardinality]) -> Self {
        let n = num_vars;
        let mut formula = Formula {
            num_vars: n,
            lits: Vec::new(),
            starts: vec![0],
            long_by_var: vec![Vec::new(); n],
            long_by_lit: vec![Vec::new(); 2 * n],
            wide_by_lit: vec![Vec::new(); 2 * n],
            true_lits: Vec::new(),
            search_from: Vec::new(),
            partners: vec![Vec::new(); n],
            watches: vec![Vec::new(); 2 * n],
            implications: vec![Vec::new(); 2 * n],
            ternary: vec![Vec::new(); 2 * n],
            value: vec![0; 2 * n],
            trail: Vec::with_capacity(n),
            queue_head: 0,
            position: vec![0; n],
            units: Vec::new(),
            trivially_unsat: false,
            cards: Vec::new(),
            card_lits: Vec::new(),
            // Only the native search reads these (the other keeps no per-variable cost).
            card_occ: vec![Vec::new(); if NATIVE { 2 * n } else { 0 }],
            card_by_var: vec![Vec::new(); if NATIVE { n } else { 0 }],
            assignments: 0,
            reason: vec![Reason::Decision; n],
            conflict: Conflict::Long(0),
        };
        for card in native {
            formula.add_card(card);
        }
        let mut clause: Vec<Lit> = Vec::new();
        for &original in clauses {
            clause.clear();
            clause.extend_from_slice(original);
            clause.sort_unstable();
            clause.dedup();
            // Sorted by code, a literal and its negation are neighbours.
            if clause.windows(2).any(|w| w[0] == !w[1]) {
                continue;
            }
            formula.add_clause(&clause);
        }
        formula
    }

    fn add_card(&mut self, card: &Cardinality) {
        let id = self.cards.len() as u32;
        let start = self.card_lits.len() as u32;
        self.card_lits.extend_from_slice(&card.lits);
        for lit in &card.lits {
            self.card_occ[lit.code()].push(id);
            let by_var = &mut self.card_by_var[lit.var().index()];
            if by_var.last() != Some(&id) {
                by_var.push(id);
            }
        }
        let clamp = |k: usize| u32::try_from(k).unwrap_or(u32::MAX);
        self.cards.push(NativeCard {
            start,
            end: self.card_lits.len() as u32,
            lo: clamp(card.lo),
            hi: clamp(card.hi),
            t: 0,
            f: 0,
        });
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
                self.true_lits.push(0);
                self.search_from.push(2);
                for lit in clause {
                    self.long_by_var[lit.var().index()].push(id);
                    self.long_by_lit[lit.code()].push(id);
                    if clause.len() > WIDE {
                        self.wide_by_lit[lit.code()].push(id);
                    }
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

    /// The number of long clauses (`0..long_clauses()` are their ids).
    pub fn long_clauses(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether long clause `id` is wide (its true literals are counted in `true_lits`).
    pub fn is_wide(&self, id: u32) -> bool {
        self.starts[id as usize + 1] - self.starts[id as usize] > WIDE as u32
    }

    /// The literals of long clause `id`.
    pub fn long_clause(&self, id: u32) -> &[Lit] {
        let (start, end) = (self.starts[id as usize], self.starts[id as usize + 1]);
        &self.lits[start as usize..end as usize]
    }

    /// Sets the unit clauses and what the native constraints force before any
    /// decision, and propagates; false when that already refutes the formula.
    pub fn start(&mut self) -> bool {
        if self.trivially_unsat {
            return false;
        }
        for unit in std::mem::take(&mut self.units) {
            match self.value[unit.code()] {
                1 => {}
                -1 => return false,
                _ => self.assign(unit),
            }
        }
        // A native constraint may force or refute something before any assignment.
        for c in 0..self.cards.len() {
            if !self.settle_card(c as u32) {
                return false;
            }
        }
        self.propagate()
    }

    pub fn is_assigned(&self, var: u32) -> bool {
        self.value[2 * var as usize] != 0
    }

    /// Sets `lit`, forced by `reason`.
    #[inline(always)]
    pub fn imply(&mut self, lit: Lit, reason: Reason) {
        self.reason[lit.var().index()] = reason;
        self.assign(lit);
    }

    #[inline(always)]
    pub fn assign(&mut self, lit: Lit) {
        self.assignments += 1;
        self.value[lit.code()] = 1;
        self.value[(!lit).code()] = -1;
        self.position[lit.var().index()] = self.trail.len() as u32;
        self.trail.push(lit);
        for &id in &self.wide_by_lit[lit.code()] {
            self.true_lits[id as usize] += 1;
        }
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
            self.conflict = Conflict::Card(c);
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
                self.imply(if value { lit } else { !lit }, Reason::Card(c));
            }
        }
        true
    }

    /// The clauses of `var` that no assignment satisfies yet (binary ones whose other
    /// literal is unassigned, long ones with no true literal), plus its native
    /// constraints: how much deciding it may simplify.
    pub fn open_occurrences(&self, var: u32) -> usize {
        let var = var as usize;
        let binary = self.partners[var]
            .iter()
            .filter(|other| self.value[other.code()] == 0)
            .count();
        let long = self.long_by_var[var]
            .iter()
            .filter(|&&id| !self.is_satisfied(id))
            .count();
        let native = self.card_by_var.get(var).map_or(0, Vec::len);
        binary + long + native
    }

    /// Whether some literal of long clause `id` is true.
    pub fn is_satisfied(&self, id: u32) -> bool {
        self.long_clause(id)
            .iter()
            .any(|l| self.value[l.code()] == 1)
    }

    /// Undoes every assignment from trail position `mark` on.
    pub fn backtrack(&mut self, mark: usize) {
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
            for &id in &self.wide_by_lit[lit.code()] {
                self.true_lits[id as usize] -= 1;
            }
            self.value[lit.code()] = 0;
            self.value[(!lit).code()] = 0;
        }
        self.queue_head = mark;
    }

    /// Unit propagation to a fixpoint; false on a conflict.
    pub fn propagate(&mut self) -> bool {
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
                        self.conflict = Conflict::Binary(falsified, lit);
                        ok = false;
                        break;
                    }
                    _ => self.imply(lit, Reason::Binary(falsified)),
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
                        self.conflict = Conflict::Ternary(falsified, b, c);
                        ok = false;
                        break;
                    }
                    (-1, _) => self.imply(c, Reason::Ternary(falsified, b)),
                    (_, -1) => self.imply(b, Reason::Ternary(falsified, c)),
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
                let from = start + self.search_from[id as usize] as usize;
                let unfalsified = |k: &usize| self.value[self.lits[*k].code()] != -1;
                let replacement = (from..end)
                    .find(unfalsified)
                    .or_else(|| (start + 2..from).find(unfalsified));
                if let Some(k) = replacement {
                    self.search_from[id as usize] = (k - start) as u32;
                    self.lits.swap(start + 1, k);
                    self.watches[self.lits[start + 1].code()].push(kept);
                    continue;
                }
                watching[write] = kept;
                write += 1;
                if self.value[other.code()] == -1 {
                    self.conflict = Conflict::Long(id);
                    conflict = true;
                    while read < watching.len() {
                        watching[write] = watching[read];
                        write += 1;
                        read += 1;
                    }
                } else {
                    self.imply(other, Reason::Long(id));
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

    /// Appends to `out` the false literals that forced `lit` by a clause or native
    /// constraint of the formula (`reason` is not `Learnt` nor `Decision`).
    pub fn reason_lits(&self, lit: Lit, reason: Reason, out: &mut Vec<Lit>) {
        match reason {
            Reason::Decision | Reason::Learnt(_) => {}
            Reason::Binary(a) => out.push(a),
            Reason::Ternary(a, b) => out.extend([a, b]),
            Reason::Long(id) => {
                out.extend(self.long_clause(id).iter().filter(|l| l.var() != lit.var()))
            }
            Reason::Card(c) => {
                // Forced true at the lower bound by the false literals set before it,
                // forced false at the upper bound by the true ones.
                let card = self.cards[c as usize];
                let lits = &self.card_lits[card.start as usize..card.end as usize];
                let at_lower = lits.contains(&lit);
                let before = self.position[lit.var().index()];
                for &l in lits {
                    let value = self.value[l.code()];
                    if value == 0 || self.position[l.var().index()] >= before {
                        continue;
                    }
                    match (at_lower, value) {
                        (true, -1) => out.push(l),
                        (false, 1) => out.push(!l),
                        _ => {}
                    }
                }
            }
        }
    }

    /// Appends to `out` the literals, all false, of the clause `propagate` found false
    /// (`conflict` is not `Learnt`).
    pub fn conflict_lits(&self, conflict: Conflict, out: &mut Vec<Lit>) {
        match conflict {
            Conflict::Learnt(_) => {}
            Conflict::Binary(a, b) => out.extend([a, b]),
            Conflict::Ternary(a, b, c) => out.extend([a, b, c]),
            Conflict::Long(id) => out.extend_from_slice(self.long_clause(id)),
            Conflict::Card(c) => {
                // Too many true literals (not all of them true), or too many false
                // ones (not all of them false).
                let card = self.cards[c as usize];
                let lits = &self.card_lits[card.start as usize..card.end as usize];
                let over = card.t > card.hi;
                for &l in lits {
                    match (over, self.value[l.code()]) {
                        (true, 1) => out.push(!l),
                        (false, -1) => out.push(l),
                        _ => {}
                    }
                }
            }
        }
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
}
