//! Conflict-driven learning for the witness search: a component with no projected
//! variable left counts 1 if it is satisfiable, and finding out is a SAT problem, which
//! plain DPLL solves badly on random formulas. So that search is CDCL: on a conflict,
//! 1-UIP analysis over the reasons propagation recorded (`propagate::Reason`, native
//! cardinality constraints included: their reason is the literals that made them tight)
//! gives a learnt clause, the search jumps back to the level where that clause becomes
//! unit, and the clause propagates from then on.
//!
//! Why it cannot change a count: the learnt clauses live here, in a store of their own
//! that component splitting and cache keys never read, and the store is emptied at the
//! start of every witness search. Inside one witness search the assignment outside the
//! component (the "context", level 0 of the analysis) is fixed, and the component is
//! closed (no open clause leads outside it), so every clause learnt is a resolvent of
//! the component's clauses under that context: it holds in every model of the component
//! there, and the search answers exactly whether the component is satisfiable. A clause
//! kept into a later witness search could mention another component's variables, and
//! when that other part has no model its conflicts would wrongly empty this one, whose
//! count the cache then keeps (the "cache pollution" that sharpSAT cleans up
//! afterwards); emptying the store rules that out at no cost in rigour. Jumping back
//! past several levels is sound here because a witness search has no counts to lose;
//! the counting search keeps chronological backtracking.

use super::propagate::{Conflict, Formula, Reason};
use gridsat_encodings::cnf::{Lit, Var};

/// The learnt clauses of one witness search, watched by two literals each (the first
/// two of the clause).
#[derive(Default)]
pub(super) struct Learnt {
    clauses: Vec<Vec<Lit>>,
    /// Per literal code: the learnt clauses watching it.
    watches: Vec<Vec<u32>>,
    /// The literal codes whose watch lists are not empty (what `clear` empties).
    watched: Vec<usize>,
    /// The trail position up to which the learnt clauses have seen the assignments.
    head: usize,
    /// Per variable: marked during an analysis.
    seen: Vec<bool>,
    /// Scratch for the literals of a reason.
    scratch: Vec<Lit>,
}

/// What a witness search did, for `SearchStats`.
#[derive(Default)]
pub(super) struct Tally {
    pub conflicts: u64,
    pub learnt: u64,
}

impl Learnt {
    /// Empties the store, ready for a witness search over `num_vars` variables.
    fn clear(&mut self, num_vars: usize) {
        if self.watches.len() != 2 * num_vars {
            self.watches = vec![Vec::new(); 2 * num_vars];
            self.seen = vec![false; num_vars];
        }
        for code in self.watched.drain(..) {
            self.watches[code].clear();
        }
        self.clauses.clear();
    }

    fn watch(&mut self, lit: Lit, id: u32) {
        let list = &mut self.watches[lit.code()];
        if list.is_empty() {
            self.watched.push(lit.code());
        }
        list.push(id);
    }

    /// Propagates the learnt clauses over the assignments made since the last call;
    /// `Err` with the clause found false, else whether something was set.
    fn propagate<const NATIVE: bool>(
        &mut self,
        formula: &mut Formula<NATIVE>,
    ) -> Result<bool, u32> {
        let mut assigned = false;
        while self.head < formula.trail.len() {
            let falsified = !formula.trail[self.head];
            self.head += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified.code()]);
            let mut keep = 0;
            let mut result = Ok(());
            for read in 0..watching.len() {
                let id = watching[read];
                if result.is_err() {
                    watching[keep] = id;
                    keep += 1;
                    continue;
                }
                let clause = &mut self.clauses[id as usize];
                if clause[0] == falsified {
                    clause.swap(0, 1);
                }
                let other = clause[0];
                if formula.value[other.code()] == 1 {
                    watching[keep] = id;
                    keep += 1;
                    continue;
                }
                if let Some(k) = (2..clause.len()).find(|&k| formula.value[clause[k].code()] != -1)
                {
                    clause.swap(1, k);
                    let moved = clause[1];
                    // Never the list being read: `moved` is not `falsified`.
                    let list = &mut self.watches[moved.code()];
                    if list.is_empty() {
                        self.watched.push(moved.code());
                    }
                    list.push(id);
                    continue;
                }
                watching[keep] = id;
                keep += 1;
                if formula.value[other.code()] == -1 {
                    result = Err(id);
                } else {
                    formula.imply(other, Reason::Learnt(id));
                    assigned = true;
                }
            }
            watching.truncate(keep);
            self.watches[falsified.code()] = watching;
            result?;
        }
        Ok(assigned)
    }

    /// Propagates the formula and the learnt clauses to a common fixpoint; false on a
    /// conflict, left in `formula.conflict`.
    pub fn propagate_all<const NATIVE: bool>(&mut self, formula: &mut Formula<NATIVE>) -> bool {
        loop {
            if !formula.propagate() {
                return false;
            }
            match self.propagate(formula) {
                Err(id) => {
                    formula.conflict = Conflict::Learnt(id);
                    return false;
                }
                Ok(false) => return true,
                Ok(true) => {}
            }
        }
    }

    pub fn backtrack<const NATIVE: bool>(&mut self, formula: &mut Formula<NATIVE>, mark: usize) {
        formula.backtrack(mark);
        self.head = self.head.min(mark);
    }

    /// The false literals of the conflict or of the reason of `lit`, into `scratch`.
    fn antecedent<const NATIVE: bool>(&mut self, formula: &Formula<NATIVE>, lit: Option<Lit>) {
        self.scratch.clear();
        match lit {
            None => match formula.conflict {
                Conflict::Learnt(id) => self.scratch.extend_from_slice(&self.clauses[id as usize]),
                conflict => formula.conflict_lits(conflict, &mut self.scratch),
            },
            Some(lit) => match formula.reason[lit.var().index()] {
                Reason::Learnt(id) => self.scratch.extend(
                    self.clauses[id as usize]
                        .iter()
                        .filter(|l| l.var() != lit.var()),
                ),
                reason => formula.reason_lits(lit, reason, &mut self.scratch),
            },
        }
    }

    /// 1-UIP analysis of the conflict in `formula.conflict` at the last of `levels`
    /// (the trail marks where each decision level starts): the learnt clause, its
    /// asserting literal first and a literal of the level to jump back to second, and
    /// that level.
    fn analyse<const NATIVE: bool>(
        &mut self,
        formula: &Formula<NATIVE>,
        levels: &[Level],
    ) -> (Vec<Lit>, usize) {
        let level_of = |lit: Lit| {
            let position = formula.position[lit.var().index()] as usize;
            levels.partition_point(|l| l.mark <= position)
        };
        let current = levels.len();
        let mut learnt = vec![Lit::new(Var::from_index(0), true)];
        let mut open = 0;
        let mut index = formula.trail.len();
        let mut resolved: Option<Lit> = None;
        loop {
            self.antecedent(formula, resolved);
            for k in 0..self.scratch.len() {
                let lit = self.scratch[k];
                let var = lit.var().index();
                let level = level_of(lit);
                if self.seen[var] || level == 0 {
                    continue;
                }
                self.seen[var] = true;
                if level == current {
                    open += 1;
                } else {
                    learnt.push(lit);
                }
            }
            let next = loop {
                index -= 1;
                let lit = formula.trail[index];
                if self.seen[lit.var().index()] {
                    break lit;
                }
            };
            self.seen[next.var().index()] = false;
            open -= 1;
            if open == 0 {
                learnt[0] = !next;
                break;
            }
            resolved = Some(next);
        }
        for lit in &learnt[1..] {
            self.seen[lit.var().index()] = false;
        }
        // The literal of the highest level but the current one goes second (watched).
        let mut jump = 0;
        for k in 1..learnt.len() {
            let level = level_of(learnt[k]);
            if level > jump {
                jump = level;
                learnt.swap(1, k);
            }
        }
        (learnt, jump)
    }
}

/// A decision level of the witness search: where it starts on the trail, and the
/// position in `vars` of its decision (every variable before it was assigned then).
pub(super) struct Level {
    pub mark: usize,
    pub cursor: usize,
}

impl Learnt {
    /// Empties the store for a witness search starting on the assignment `formula`
    /// holds (level 0).
    pub fn start<const NATIVE: bool>(&mut self, formula: &Formula<NATIVE>) {
        self.clear(formula.num_vars);
        self.head = formula.trail.len();
    }

    /// After a conflict at the last of `levels` (not level 0): learns its 1-UIP clause,
    /// jumps back to the level where it is unit (undoing the later `levels`), and sets
    /// its asserting literal. Returns the cursor of the first level undone.
    pub fn learn<const NATIVE: bool>(
        &mut self,
        formula: &mut Formula<NATIVE>,
        levels: &mut Vec<Level>,
        tally: &mut Tally,
    ) -> usize {
        let (clause, jump) = self.analyse(formula, levels);
        let undone = &levels[jump];
        let (mark, cursor) = (undone.mark, undone.cursor);
        levels.truncate(jump);
        self.backtrack(formula, mark);
        let id = self.clauses.len() as u32;
        let asserting = clause[0];
        if clause.len() >= 2 {
            self.watch(clause[0], id);
            self.watch(clause[1], id);
        }
        self.clauses.push(clause);
        tally.learnt += 1;
        formula.imply(asserting, Reason::Learnt(id));
        cursor
    }
}
