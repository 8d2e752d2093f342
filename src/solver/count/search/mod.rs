//! The search behind counting: DPLL with unit propagation and chronological
//! backtracking, splitting the remaining formula into independent components and caching
//! each sub-problem's projected count (the scheme of exact model counters such as
//! sharpSAT). The counting search learns nothing, so nothing slows down as solutions
//! pile up; only the witness searches (below) learn, each in a store of its own.
//!
//! The parts, each in its own module:
//! - `propagate`: the formula as the search holds it (clauses indexed for unit
//!   propagation, native cardinality constraints, the assignment and its trail);
//! - `components`: splitting a sub-problem into independent components, and the keys
//!   that identify sub-problems;
//! - `cache`: the counts of sub-problems already seen, under their keys;
//! - `eliminate`: resolving unprojected variables away before the search, when asked;
//! - `gates`: the auxiliary variables decided before the projected ones;
//! - `learn`: conflict analysis and the learnt clauses of a witness search;
//! - this module: the search itself (decide, split, multiply, add), and where it stops.
//!
//! Decisions are taken on projected variables, in projection order (for a puzzle:
//! row-major cells, which makes the cache act like a dynamic program over rows), after
//! the auxiliary variables that are AND gates of projected variables (`gate_order`). A
//! component with no projected variable left counts 1 if it is satisfiable and 0 if not;
//! with the foundation's encodings unit propagation has already fixed every auxiliary
//! variable by then, so that check is free. On arbitrary CNFs it is a CDCL search for one
//! witness (`learn`: 1-UIP clauses, backjumping), whose learnt clauses never leave it.
//! Measured on random 3-CNF projected on half its variables, those searches rarely
//! conflict (1 conflict per 10-50 witness searches at n = 50-75): their time is in the
//! count around them, so the learning costs there about as much as it saves.
//!
//! # Stopping early, with a proven lower bound
//!
//! A search may be stopped before its end: by a budget (`Limits::budget`, a deadline or
//! a cancel flag, polled every `POLL_INTERVAL` steps, a step being a decision of the
//! count or of a witness search), or by the give-up rule (`GiveUp`, checked after every
//! decision). Once a stop is pending, every function of the search returns at once, and
//! the count it returns is a lower bound on the exact count of its sub-problem instead of
//! that count. It is a sound bound because each way a count is made keeps it one, by
//! induction from the innermost call outwards:
//! - a decision adds the counts of its two branches, which count disjoint sets of
//!   projected solutions (they differ on the decided variable, or for a gate on a
//!   function of projected variables): a branch that finished adds its exact count, the
//!   interrupted one its lower bound, a branch never explored nothing, so the sum is at
//!   most the exact sum;
//! - a component analysis multiplies the counts of the components (and 2 per free
//!   projected variable). A product is bounded below by the product of lower bounds only
//!   when every factor has one: a component not yet counted may have no solution at all
//!   and make the whole product 0. So the bound is the product of the finished factors
//!   (exact), the interrupted factor's bound and the later factors' counts when the cache
//!   knows them all (exact, see below), and 0 when it does not;
//! - a witness search counts 1 only when it found a witness, else 0;
//! - the cache stores only counts that were finished before the stop (a stopped search
//!   never stores what it unwinds with), so a hit is always exact.
//!
//! Additions and products of natural numbers are monotone, so bounds of the parts give
//! a bound of the whole; at the root it is the `at_least` of `Interrupted`. A search that
//! is not stopped returns exact counts everywhere, with the same statistics as before
//! the polls were added (a poll reads the clock, nothing else).

mod cache;
mod components;
mod eliminate;
mod gates;
mod learn;
mod live;
mod propagate;
#[cfg(test)]
mod tests;

use super::dag::{Dag, Edge, Node, NodeId, FALSE, TRUE};
use super::number::Count;
use crate::limits::Budget;
use cache::Cache;
use components::{Component, Components, Key};
pub(crate) use eliminate::Eliminated;
use gates::gate_order;
use gridsat_encodings::cnf::{Cardinality, Cnf, Lit, Var};
use learn::{Learnt, Level, Tally};
use propagate::Formula;
use std::cmp::Reverse;

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
    /// Times the cache reached its size bound and dropped the half of its entries worth
    /// the least.
    pub cache_evictions: u64,
    /// Component analyses (a walk over the whole remaining sub-problem).
    pub component_analyses: u64,
    /// Component analyses that found more than one part.
    pub splits: u64,
    /// Components without projected variables that needed a satisfiability search.
    pub witness_searches: u64,
    /// Conflicts met by the witness searches (each analysed, see `learn`).
    pub conflicts: u64,
    /// Clauses the witness searches learnt from their conflicts.
    pub learnt_clauses: u64,
    /// Cached sub-problems without solutions.
    pub dead_ends: u64,
    /// Decisions both of whose branches had no solution.
    pub dead_decisions: u64,
    /// Auxiliary variables recognised as AND gates of projected variables, which the
    /// search decides before the projected variables (see `gate_order`).
    pub gates: u64,
    /// Unprojected variables resolved away before the search (`Engine::eliminate`).
    pub eliminated: u64,
}

/// Two lines a reader can take in: the search, then the cache and the components
/// (after a line for the elimination, when there was one).
impl std::fmt::Display for SearchStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.eliminated > 0 {
            writeln!(
                f,
                "elimination: {} unprojected variables resolved away before the search",
                self.eliminated
            )?;
        }
        writeln!(
            f,
            "search: {} decisions ({} with no solution on either branch), {} literals set, \
             {} gates decided first, {} witness searches ({} conflicts, {} clauses learnt)",
            self.decisions,
            self.dead_decisions,
            self.assignments,
            self.gates,
            self.witness_searches,
            self.conflicts,
            self.learnt_clauses
        )?;
        write!(
            f,
            "cache: {} entries stored, {} hits, {} without solutions, {} evictions; \
             components: {} analyses, {} splits",
            self.cache_entries,
            self.cache_hits,
            self.dead_ends,
            self.cache_evictions,
            self.component_analyses,
            self.splits
        )
    }
}

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

/// What may stop a search before its end (nothing, by default).
#[derive(Clone, Debug, Default)]
pub(super) struct Limits {
    pub give_up: Option<GiveUp>,
    pub budget: Option<Budget>,
    /// Take at most this many steps, and stop at the next as if the budget ran out: a
    /// deterministic budget, so that tests can stop a search at every point of it.
    pub steps: Option<u64>,
    /// The bound on the cache's memory (`None`: `cache::DEFAULT_CACHE_BYTES`).
    pub cache_bytes: Option<usize>,
    /// Decide, in each sub-problem, the variable in the most clauses not yet satisfied,
    /// instead of the first in the fixed order (see `Engine::dynamic_order`).
    pub dynamic_order: bool,
    /// Resolve away the unprojected variables first (see `eliminate`).
    pub eliminate: bool,
}

/// What `Search::run` found: the count, and the DAG to list solutions from.
pub(super) struct Outcome {
    pub count: Count,
    pub dag: Dag,
    pub root: Edge,
    pub stats: SearchStats,
    /// The variables resolved away before the search, which listing gives values.
    pub eliminated: Eliminated,
}

/// A search that stopped before its end: the number of solutions it proved to exist by
/// then (see the module docs), and what it did (boxed: the error stays small).
#[derive(Debug)]
pub(super) struct Interrupted {
    pub at_least: Count,
    /// The live bound when the stop came (0 after the give-up rule), never above
    /// `at_least`, which also takes the later factors the cache knows (kept for the tests
    /// that check the live bound).
    #[cfg(test)]
    pub live_at_least: Count,
    pub stats: Box<SearchStats>,
}

const NO_RANK: u32 = u32::MAX;

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

/// Steps between two looks at the budget. A step costs a few microseconds (a
/// decision's propagation, and now and then a component analysis), so a search notices
/// an expired budget within milliseconds, while reading the clock stays out of the
/// profile.
const POLL_INTERVAL: u64 = 1024;

/// Counts (and keeps the DAG if `keep_dag`) with the search that suits `cnf`: the one
/// with native cardinality constraints only when the CNF records some, so that formulas
/// without pay nothing for their bookkeeping.
pub(super) fn run(cnf: &Cnf, keep_dag: bool, limits: Limits) -> Result<Outcome, Interrupted> {
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
        Search::<false>::new(cnf, keep_dag, limits).run()
    } else {
        Search::<true>::new(cnf, keep_dag, limits).run()
    }
}

pub(super) struct Search<const NATIVE: bool> {
    formula: Formula<NATIVE>,
    /// The witness searches' learnt clauses (out of components and keys: see `learn`).
    learnt: Learnt,
    levels: Vec<Level>,
    components: Components,
    cache: Cache,
    /// Per variable: its position in the decision order, or `NO_RANK` for variables
    /// never decided. Decided are the projected variables, in projection order, after
    /// the gates of `gate_order`.
    rank: Vec<u32>,
    /// Per variable: whether it is projected (a free one doubles the count).
    projected: Vec<bool>,
    dag: Dag,
    stats: SearchStats,
    /// The variables resolved away before the search (`Limits::eliminate`).
    eliminated: Eliminated,
    limits: Limits,
    /// Whether the sub-problem after each decision is looked up in the cache (which
    /// needs its key); else only those after a component analysis are. See
    /// `cache::CACHE_TRIAL`.
    cache_decisions: bool,
    /// Set when the search must stop (the budget ran out or the give-up rule was met):
    /// every pending call then returns at once, with a lower bound (see the module docs).
    stop: bool,
    /// Steps taken, and the step at which the limits are polled next.
    steps: u64,
    next_poll: u64,
    /// The live lower bound, posted on the budget's status when someone watches.
    frames: live::Frames,
    status_seen: u64,
    #[cfg(test)]
    live_at_stop: Count,
}

impl<const NATIVE: bool> Search<NATIVE> {
    /// With `NATIVE`, the cardinality constraints `cnf` records replace their clauses
    /// (which `run` allows only when their auxiliary variables are their own);
    /// without, they are searched through their clauses like any other.
    pub fn new(cnf: &Cnf, keep_dag: bool, limits: Limits) -> Self {
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
        let (reduced, eliminated) = if limits.eliminate {
            // Projected variables, and those a native constraint reads, are kept.
            let mut keep = projected.clone();
            for lit in native.iter().flat_map(|card| &card.lits) {
                keep[lit.var().index()] = true;
            }
            eliminate::eliminate(n, &kept, &keep, limits.budget.as_ref())
        } else {
            (Vec::new(), Eliminated::default())
        };
        let kept: Vec<&[Lit]> = if limits.eliminate {
            reduced.iter().map(Vec::as_slice).collect()
        } else {
            kept
        };
        let gates = gate_order(n, &kept, &projected);
        let mut rank = vec![NO_RANK; n];
        let order = gates.iter().chain(cnf.projection());
        for (position, var) in order.enumerate() {
            if rank[var.index()] == NO_RANK {
                rank[var.index()] = position as u32;
            }
        }
        let formula = Formula::new(n, &kept, native);
        Search {
            components: Components::new(&formula),
            formula,
            learnt: Learnt::default(),
            levels: Vec::new(),
            cache: Cache::with_bytes(limits.cache_bytes.unwrap_or(cache::DEFAULT_CACHE_BYTES)),
            rank,
            projected,
            dag: Dag::new(keep_dag),
            stats: SearchStats {
                gates: gates.len() as u64,
                eliminated: eliminated.len() as u64,
                ..SearchStats::default()
            },
            eliminated,
            limits,
            cache_decisions: true,
            stop: false,
            steps: 0,
            // The first step polls: a budget that is already spent stops at once.
            next_poll: 1,
            frames: live::Frames::default(),
            status_seen: 0,
            #[cfg(test)]
            live_at_stop: Count::ZERO,
        }
    }

    /// Counts the solutions projected on the projection set and builds the DAG; when the
    /// search was stopped (see the module docs), the lower bound it proved.
    pub fn run(mut self) -> Result<Outcome, Interrupted> {
        if !self.formula.start() {
            return Ok(Outcome {
                count: Count::ZERO,
                dag: Dag::new(false),
                root: Edge::DEAD,
                stats: SearchStats {
                    eliminated: self.stats.eliminated,
                    ..SearchStats::default()
                },
                eliminated: self.eliminated,
            });
        }
        let all: Vec<u32> = (0..self.formula.num_vars as u32).collect();
        let (count, child) = self.split(&all, 1);
        if self.stop {
            return Err(Interrupted {
                at_least: count,
                #[cfg(test)]
                live_at_least: self.live_at_stop.clone(),
                stats: Box::new(self.stats()),
            });
        }
        let lits = if child == FALSE {
            0..0
        } else {
            let implied = self.formula.trail.clone();
            self.dag.store_lits(&implied)
        };
        Ok(Outcome {
            count,
            root: Edge { lits, child },
            stats: self.stats(),
            dag: self.dag,
            eliminated: self.eliminated,
        })
    }

    fn stats(&self) -> SearchStats {
        SearchStats {
            assignments: self.formula.assignments,
            ..self.stats
        }
    }

    /// Takes a step (see `POLL_INTERVAL`); true when the search must stop now.
    #[inline(always)]
    fn step(&mut self) -> bool {
        self.steps += 1;
        self.steps >= self.next_poll && self.poll()
    }

    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        let last = self.limits.steps.map_or(u64::MAX, |k| k.saturating_add(1));
        self.next_poll = self.steps.saturating_add(POLL_INTERVAL).min(last);
        let spent = self.steps >= last || self.limits.budget.as_ref().is_some_and(Budget::expired);
        if spent {
            self.stop = true;
            #[cfg(test)]
            {
                self.live_at_stop = self.frames.bound();
            }
        }
        self.post_status();
        spent
    }

    /// What the search has proven so far, on the budget's status when a line was read
    /// since the last post.
    fn post_status(&mut self) {
        let Some(status) = self.limits.budget.as_ref().and_then(Budget::status) else {
            return;
        };
        if !status.due(&mut self.status_seen) {
            return;
        }
        status.post(
            "count",
            format!(
                "at least {} solutions ({} decisions, cache {} MB)",
                self.frames.bound(),
                self.stats.decisions,
                self.cache.bytes() >> 20
            ),
        );
    }

    /// The count of the unassigned part of `vars`, found by component analysis: the
    /// product over its components. `gap` is the analysis gap in force.
    fn split(&mut self, vars: &[u32], gap: u32) -> (Count, NodeId) {
        self.frames.open_product();
        let counted = self.split_counted(vars, gap);
        self.frames.close();
        counted
    }

    /// `split`'s work, inside its frame of the live bound.
    fn split_counted(&mut self, vars: &[u32], gap: u32) -> (Count, NodeId) {
        self.stats.component_analyses += 1;
        let (mut components, free) =
            self.components
                .analyse(&self.formula, vars, &self.rank, &self.projected);
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
        for (i, component) in components.iter().enumerate() {
            self.frames.set_product(&count, i + 1 < components.len());
            let (c, node) = self.cached(component.key, |search| {
                search.branch(&component.vars, 0, component.key, gap, 0)
            });
            if self.stop {
                return (
                    self.known_product(count.mul(&c), &components[i + 1..]),
                    FALSE,
                );
            }
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

    /// `partial` times the counts of `rest` when the cache knows every one of them, else
    /// 0: the lower bound of a product whose other factors are not all known (see the
    /// module docs).
    fn known_product(&self, partial: Count, rest: &[Component]) -> Count {
        rest.iter()
            .try_fold(partial, |product, c| {
                Some(product.mul(&self.cache.known(&c.key)?))
            })
            .unwrap_or(Count::ZERO)
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

    /// The count of the sub-problem with this key: from the cache, or computed and
    /// stored (unless the search was stopped meanwhile: a bound is never stored).
    fn cached(
        &mut self,
        key: Key,
        compute: impl FnOnce(&mut Self) -> (Count, NodeId),
    ) -> (Count, NodeId) {
        if let Some(hit) = self.cache.lookup(&key, &mut self.stats) {
            return hit;
        }
        let result = compute(self);
        if self.stop {
            return result;
        }
        let size = self.formula.num_vars - self.formula.trail.len();
        if !self.cache.store(key, result.clone(), size, &mut self.stats) {
            self.cache_decisions = false;
        }
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
        self.frames.open_sum();
        let counted = self.branch_counted(vars, from, key, gap, since);
        self.frames.close();
        counted
    }

    /// `branch`'s work, inside its frame of the live bound.
    fn branch_counted(
        &mut self,
        vars: &[u32],
        from: usize,
        key: Key,
        gap: u32,
        since: u32,
    ) -> (Count, NodeId) {
        let undecided = (from..vars.len())
            .take_while(|&i| self.rank[vars[i] as usize] != NO_RANK)
            .filter(|&i| !self.formula.is_assigned(vars[i]));
        let chosen = if self.limits.dynamic_order {
            // The most occurrences first; on a tie, the first in the order.
            undecided.max_by_key(|&i| (self.formula.open_occurrences(vars[i]), Reverse(i)))
        } else {
            undecided.min()
        };
        let Some(position) = chosen else {
            return self.witness(vars);
        };
        // In the fixed order every variable before the one decided is assigned, so the
        // sub-problems look from the next; in the dynamic order from the start.
        let next = if self.limits.dynamic_order {
            from
        } else {
            position + 1
        };
        if self.step() {
            return (Count::ZERO, FALSE);
        }
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
            let mark = self.formula.trail.len();
            self.formula
                .assign(Lit::new(Var::from_index(var as usize), positive));
            let (count, child) = if !self.formula.propagate() {
                (Count::ZERO, FALSE)
            } else if self.cache_decisions {
                let child_key = self.components.child_key(&self.formula, key, mark);
                self.residual(vars, next, child_key, gap, since + 1)
            } else if since + 1 >= gap {
                self.split(vars, gap)
            } else {
                // No key: nothing below is cached until the next analysis.
                self.branch(vars, next, key, gap, since + 1)
            };
            let lits = if child == FALSE {
                0..0
            } else {
                self.dag.store_lits(&self.formula.trail[mark..])
            };
            self.formula.backtrack(mark);
            total = total.add(&count);
            self.frames.set_sum(&total);
            *edge = Edge { lits, child };
            if self.stop {
                // The finished branch counts exactly, the interrupted one by its bound,
                // a branch never explored not at all.
                return (total, FALSE);
            }
        }
        if total.is_zero() {
            self.stats.dead_decisions += 1;
        }
        if let Some(rule) = self.limits.give_up {
            let dead = self.stats.dead_decisions;
            let live = self.stats.decisions - dead;
            if dead >= rule.min_dead_decisions && dead >= rule.ratio.saturating_mul(live) {
                self.stop = true;
            }
        }
        if total.is_zero() {
            return (Count::ZERO, FALSE);
        }
        (total, self.dag.push(Node::Decision(edges)))
    }

    /// Satisfiability of a sub-problem without projected variables, with one witness.
    /// Stopped before it found one, it counts 0: a lower bound.
    fn witness(&mut self, vars: &[u32]) -> (Count, NodeId) {
        self.stats.witness_searches += 1;
        let mark = self.formula.trail.len();
        if !self.satisfy(vars) {
            return (Count::ZERO, FALSE);
        }
        let found = self.formula.trail[mark..].to_vec();
        self.formula.backtrack(mark);
        if found.is_empty() {
            return (Count::ONE, TRUE);
        }
        let lits = self.dag.store_lits(&found);
        (Count::ONE, self.dag.push(Node::Witness(lits)))
    }

    /// CDCL over the unassigned variables of `vars` (see `learn`); on success the
    /// satisfying assignment stays on the trail, else the trail is as it was. False
    /// when there is none, or when the search was stopped first.
    fn satisfy(&mut self, vars: &[u32]) -> bool {
        let base = self.formula.trail.len();
        self.learnt.start(&self.formula);
        // The levels' vector is reused from one witness search to the next.
        let mut levels = std::mem::take(&mut self.levels);
        levels.clear();
        let mut tally = Tally::default();
        let mut cursor = 0;
        let found = loop {
            if !self.learnt.propagate_all(&mut self.formula) {
                tally.conflicts += 1;
                if levels.is_empty() {
                    break false;
                }
                cursor = self
                    .learnt
                    .learn(&mut self.formula, &mut levels, &mut tally);
                continue;
            }
            while cursor < vars.len() && self.formula.is_assigned(vars[cursor]) {
                cursor += 1;
            }
            if cursor == vars.len() {
                break true;
            }
            if self.step() {
                break false;
            }
            levels.push(Level {
                mark: self.formula.trail.len(),
                cursor,
            });
            let var = Var::from_index(vars[cursor] as usize);
            self.formula.assign(Lit::new(var, false));
        };
        if !found {
            self.learnt.backtrack(&mut self.formula, base);
        }
        self.levels = levels;
        self.stats.conflicts += tally.conflicts;
        self.stats.learnt_clauses += tally.learnt;
        found
    }
}
