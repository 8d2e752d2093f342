//! Resolving away the variables the count does not project on, before the search
//! (`Engine::eliminate`): bounded variable elimination, as in SatELite and in the
//! preprocessing of projected model counters such as Ganak.
//!
//! The count projected on `P` counts the assignments of `P` that extend to a model: it is
//! the model count of `∃(V \ P). F`. Replacing the clauses that contain an unprojected
//! variable `x` by all their non-tautological resolvents on `x` gives a formula equivalent
//! to `∃x. F` (Davis and Putnam), so the projected count is unchanged, exactly. The search
//! then meets fewer witness searches and smaller components: on random 3-CNF projected on
//! half its variables with one clause per variable, every unprojected variable goes, and
//! what is left is a plain count over the projection.
//!
//! It is bounded so that the formula never grows much: a variable goes only when its
//! resolvents are at most `GROWTH` more than the clauses they replace and none is longer
//! than `MAX_RESOLVENT`, and a variable with more than `MAX_PAIRS` pairs of clauses to
//! resolve is not tried. Variables in native cardinality constraints stay (their
//! constraints are not clauses), as do the projected ones.
//!
//! It is not the default: on puzzle formulas the auxiliary variables it removes are the
//! gates and counters through which unit propagation and the fixed decision order work
//! (twonot2's `--dimacs` file counts in 0.6 s as written and gives up after 20 s once
//! they are resolved away).
//!
//! Listing needs a value for every variable: `Eliminated::extend` gives the eliminated
//! ones theirs, last eliminated first, from the clauses each one took with it.

use crate::limits::Budget;
use gridsat_encodings::cnf::{Lit, Var};

/// At most this many clauses more after a variable is resolved away than before.
const GROWTH: usize = 16;
/// No resolvent longer than this (long clauses propagate late and cost in every walk).
const MAX_RESOLVENT: usize = 24;
/// A variable whose positive and negative clauses make more pairs than this is kept:
/// trying it would cost more than it is likely to save.
const MAX_PAIRS: usize = 4096;
/// Variables tried between two looks at the budget (each try costs at most `MAX_PAIRS`
/// resolutions).
const BUDGET_POLL: usize = 64;

/// The variables resolved away, in order, each with the clauses it took with it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Eliminated {
    steps: Vec<(Var, Vec<Vec<Lit>>)>,
}

impl Eliminated {
    /// How many variables were resolved away.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Completes a model of the reduced formula to one of the original: each eliminated
    /// variable, last first, takes the value its removed clauses need. Its resolvents
    /// hold, so if a clause with `x` is false without `x`, every clause with `!x` is
    /// true without `!x`, and `x = true` satisfies them all; else `x = false` does.
    pub fn extend(&self, values: &mut [bool]) {
        for (var, clauses) in self.steps.iter().rev() {
            let needs_true = clauses.iter().any(|clause| {
                clause.contains(&var.positive())
                    && clause.iter().all(|&l| l.var() == *var || !l.eval(values))
            });
            values[var.index()] = needs_true;
        }
    }
}

/// `clauses` over `num_vars` variables with every variable not in `keep` that bounded
/// elimination allows resolved away; the eliminated variables for `Eliminated::extend`.
/// Tautologies are dropped and literals made unique on the way.
///
/// Stops early (with what it resolved so far, which is as sound) once `budget` has run
/// out, so that `--timeout` holds here too; the search then stops at its first poll.
pub(super) fn eliminate(
    num_vars: usize,
    clauses: &[&[Lit]],
    keep: &[bool],
    budget: Option<&Budget>,
) -> (Vec<Vec<Lit>>, Eliminated) {
    let mut state = State::new(num_vars, clauses);
    let mut eliminated = Eliminated::default();
    let mut candidates: Vec<Var> = (0..num_vars)
        .map(Var::from_index)
        .filter(|v| !keep[v.index()])
        .collect();
    // Cheapest first, in passes, until a pass removes nothing: a resolved variable
    // changes its neighbours' costs, and may make one of them possible.
    loop {
        candidates.retain(|&v| state.occurrences(v) > 0);
        candidates.sort_by_cached_key(|&v| state.pairs(v));
        let before = eliminated.len();
        for (tried, &var) in candidates.iter().enumerate() {
            if tried % BUDGET_POLL == 0 && budget.is_some_and(Budget::expired) {
                return (state.into_clauses(), eliminated);
            }
            if let Some(removed) = state.try_eliminate(var) {
                eliminated.steps.push((var, removed));
            }
        }
        if eliminated.len() == before {
            break;
        }
        candidates.retain(|&v| !state.gone[v.index()]);
    }
    (state.into_clauses(), eliminated)
}

/// The formula while variables are resolved away: clauses (`None` once removed) and,
/// per literal, the clauses it occurs in (removed ones are dropped when met).
struct State {
    clauses: Vec<Option<Vec<Lit>>>,
    occurs: Vec<Vec<usize>>,
    gone: Vec<bool>,
}

impl State {
    fn new(num_vars: usize, clauses: &[&[Lit]]) -> State {
        let mut state = State {
            clauses: Vec::with_capacity(clauses.len()),
            occurs: vec![Vec::new(); 2 * num_vars],
            gone: vec![false; num_vars],
        };
        for clause in clauses {
            if let Some(clause) = normalised(clause.iter().copied()) {
                state.add(clause);
            }
        }
        state
    }

    fn add(&mut self, clause: Vec<Lit>) {
        let index = self.clauses.len();
        for lit in &clause {
            self.occurs[lit.code()].push(index);
        }
        self.clauses.push(Some(clause));
    }

    /// The live clauses `lit` occurs in (dropping the removed ones from its list).
    fn live(&mut self, lit: Lit) -> Vec<usize> {
        let clauses = &self.clauses;
        let list = &mut self.occurs[lit.code()];
        list.retain(|&c| clauses[c].is_some());
        list.clone()
    }

    fn occurrences(&mut self, var: Var) -> usize {
        self.live(var.positive()).len() + self.live(var.negative()).len()
    }

    fn pairs(&mut self, var: Var) -> usize {
        self.live(var.positive()).len() * self.live(var.negative()).len()
    }

    /// Resolves `var` away if the bounds allow; the clauses it removed.
    fn try_eliminate(&mut self, var: Var) -> Option<Vec<Vec<Lit>>> {
        let with = self.live(var.positive());
        let without = self.live(var.negative());
        if with.len() * without.len() > MAX_PAIRS || with.len() + without.len() == 0 {
            return None;
        }
        let limit = with.len() + without.len() + GROWTH;
        let mut resolvents: Vec<Vec<Lit>> = Vec::new();
        for &p in &with {
            for &n in &without {
                let (p, n) = (self.clause(p), self.clause(n));
                let merged = p.iter().chain(n).copied().filter(|l| l.var() != var);
                let Some(resolvent) = normalised(merged) else {
                    continue;
                };
                if resolvent.len() > MAX_RESOLVENT {
                    return None;
                }
                if !resolvents.contains(&resolvent) {
                    resolvents.push(resolvent);
                    if resolvents.len() > limit {
                        return None;
                    }
                }
            }
        }
        let removed: Vec<Vec<Lit>> = with
            .iter()
            .chain(&without)
            .map(|&c| self.clauses[c].take().expect("a live clause"))
            .collect();
        for resolvent in resolvents {
            self.add(resolvent);
        }
        self.gone[var.index()] = true;
        Some(removed)
    }

    fn clause(&self, index: usize) -> &[Lit] {
        self.clauses[index].as_deref().expect("a live clause")
    }

    fn into_clauses(self) -> Vec<Vec<Lit>> {
        self.clauses.into_iter().flatten().collect()
    }
}

/// The clause of `lits` with each literal once, sorted; `None` for a tautology.
fn normalised(lits: impl Iterator<Item = Lit>) -> Option<Vec<Lit>> {
    let mut clause: Vec<Lit> = lits.collect();
    clause.sort_unstable_by_key(|l| l.code());
    clause.dedup();
    let tautology = clause.windows(2).any(|w| w[0].var() == w[1].var());
    (!tautology).then_some(clause)
}
