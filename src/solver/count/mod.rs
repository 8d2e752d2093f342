//! Counting and listing every solution of a CNF, projected on its primary variables,
//! without blocking clauses.
//!
//! The engine is a DPLL search with chronological backtracking that splits the formula
//! into independent components and caches each component's count (see `search`, whose
//! parts are `search::propagate`, `search::components`, `search::cache` and
//! `search::gates`). While it counts it can record what it explored as a decision DAG
//! (see `dag`), from which the solutions are then listed in time proportional to the
//! output. Counts are `Count` (`number`), exact at any size.
//!
//! `Engine` runs it under limits: a `limits::Budget` (a deadline, a cancel flag) and the
//! give-up rule (`GiveUp`). A stopped count is not lost: `Stopped { at_least }` is the
//! number of solutions in the parts of the search that were counted to the end, a proven
//! lower bound (the argument is in `search`'s module docs).
//!
//! Use it for every "how many" and "all of them" request; keep `Session::enumerate`
//! (blocking clauses) for small limits such as a uniqueness check, where one or two SAT
//! calls beat a full count.
//!
//! ```
//! use gridsat::solver::count::{count_solutions, Solutions};
//! use gridsat_encodings::cnf::Cnf;
//! use std::ops::ControlFlow;
//!
//! let mut cnf = Cnf::new();
//! let a = cnf.primary_var().positive();
//! let b = cnf.primary_var().positive();
//! let aux = cnf.or_lit(&[a, b]); // an auxiliary variable, determined by a and b
//! cnf.clause([aux]);
//! assert_eq!(count_solutions(&cnf), 3u128);
//!
//! let solutions = Solutions::compile(&cnf);
//! let mut seen = Vec::new();
//! solutions.for_each(|values| {
//!     seen.push((values[0], values[1]));
//!     ControlFlow::Continue(())
//! });
//! seen.sort();
//! assert_eq!(seen, [(false, true), (true, false), (true, true)]);
//! ```
//!
//! Semantics on arbitrary CNFs: the count is the number of assignments to the
//! projection variables that extend to a model of the whole formula (non-projected
//! variables are existentially quantified, whether or not they are determined). A
//! projected variable that occurs in no clause doubles the count. With an empty
//! projection the count is 1 for a satisfiable formula and 0 otherwise.

mod dag;
mod number;
mod race;
mod search;

pub use number::Count;
pub use race::{count_racing, Raced};
pub use search::{GiveUp, SearchStats};

use crate::limits::Budget;
use gridsat_encodings::cnf::{Cardinality, Cnf};
use std::ops::ControlFlow;

/// Deep searches recurse once per decision (a few hundred bytes a level); run them on a
/// thread with room for about a million levels. Only the pages touched are committed.
const STACK_BYTES: usize = 2 << 30;

fn on_big_stack<T: Send>(job: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("gridsat-count".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, job)
            .expect("cannot start the counting thread")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A count or listing that was stopped before its end (its budget ran out, or the
/// give-up rule was met), with the number of solutions proven to exist by then: the
/// solutions of the parts of the search that were counted to the end (see the search's
/// module docs for why that is a sound lower bound).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stopped before the end: at least {at_least} solutions")]
pub struct Stopped {
    pub at_least: Count,
}

/// The answer of work done within a budget: the whole answer, or where it stopped.
pub type Budgeted<T> = Result<T, Stopped>;

/// The counting engine with its limits: what may stop it early. Without any it runs to
/// the end, as `count_solutions` and `Solutions::compile` do.
///
/// ```
/// use gridsat::limits::Budget;
/// use gridsat::solver::count::Engine;
/// use gridsat_encodings::cnf::Cnf;
/// use std::time::Duration;
///
/// let mut cnf = Cnf::new();
/// for _ in 0..3 {
///     cnf.primary_var();
/// }
/// let budget = Budget::starting_now(Some(Duration::from_secs(10)));
/// let (count, stats) = Engine::new(&cnf).budget(&budget).count();
/// assert_eq!(count, Ok(8u128.into()));
/// assert_eq!(stats.decisions, 0);
/// ```
#[derive(Clone)]
pub struct Engine<'a> {
    cnf: &'a Cnf,
    limits: search::Limits,
}

impl<'a> Engine<'a> {
    pub fn new(cnf: &'a Cnf) -> Engine<'a> {
        Engine {
            cnf,
            limits: search::Limits::default(),
        }
    }

    /// Stops when `budget` expires (polled every thousand decisions or so).
    pub fn budget(mut self, budget: &Budget) -> Engine<'a> {
        self.limits.budget = Some(budget.clone());
        self
    }

    /// Bounds the memory of the count cache (2 GiB unless said). A smaller cache only
    /// costs time: when full, it keeps the half of its entries worth the most.
    pub fn cache_bytes(mut self, bytes: usize) -> Engine<'a> {
        self.limits.cache_bytes = Some(bytes);
        self
    }

    /// Stops when the search meets the give-up rule.
    /// Decides, in each sub-problem, the variable in the most clauses not yet satisfied
    /// instead of following the fixed order (gates, then the projection). Counts are the
    /// same; the fixed order suits row-major grids (the cache becomes a dynamic program
    /// over rows), the dynamic one formulas without such structure (random CNFs).
    pub fn dynamic_order(mut self, dynamic: bool) -> Engine<'a> {
        self.limits.dynamic_order = dynamic;
        self
    }

    /// Resolves away the variables outside the projection before the search, where
    /// that barely grows the formula (bounded variable elimination; the count is the
    /// same, and listing gives them their values back). Pays on formulas with many
    /// unprojected variables and no structure, such as random CNFs projected on some of
    /// their variables; on puzzle formulas it removes the auxiliary variables that unit
    /// propagation and the fixed order work through, so it is off unless asked for.
    pub fn eliminate(mut self, eliminate: bool) -> Engine<'a> {
        self.limits.eliminate = eliminate;
        self
    }

    pub fn give_up(mut self, rule: GiveUp) -> Engine<'a> {
        self.limits.give_up = Some(rule);
        self
    }

    /// The number of solutions projected on `cnf.projection()`, and what the search
    /// did. Keeps no DAG, so memory is only the component cache.
    pub fn count(&self) -> (Budgeted<Count>, SearchStats) {
        on_big_stack(|| self.count_on_this_thread())
    }

    /// `count` on the calling thread, which must have a stack of `STACK_BYTES`.
    fn count_on_this_thread(&self) -> (Budgeted<Count>, SearchStats) {
        match search::run(self.cnf, false, self.limits.clone()) {
            Ok(outcome) => (Ok(outcome.count), outcome.stats),
            Err(stopped) => (Err(stopped_at(stopped.at_least)), *stopped.stats),
        }
    }

    /// Runs the counting search and keeps the DAG it explored, to list the solutions
    /// from; when stopped, only the bound (the DAG of an unfinished search is not kept).
    pub fn compile(&self) -> (Budgeted<Solutions>, SearchStats) {
        on_big_stack(|| match search::run(self.cnf, true, self.limits.clone()) {
            Ok(outcome) => {
                let stats = outcome.stats;
                (Ok(Solutions::new(self.cnf, outcome)), stats)
            }
            Err(stopped) => (Err(stopped_at(stopped.at_least)), *stopped.stats),
        })
    }
}

fn stopped_at(at_least: Count) -> Stopped {
    Stopped { at_least }
}

/// The number of solutions of `cnf` projected on `cnf.projection()`: assignments to the
/// projection variables that extend to a full model. Keeps no DAG, so memory is only
/// the component cache.
pub fn count_solutions(cnf: &Cnf) -> Count {
    count_with_stats(cnf).0
}

/// `count_solutions`, with what the search did.
pub fn count_with_stats(cnf: &Cnf) -> (Count, SearchStats) {
    let (count, stats) = Engine::new(cnf).count();
    (count.expect("a search without limits finishes"), stats)
}

/// `count_solutions`, or `None` if the search met the `give_up` rule first.
pub fn count_within(cnf: &Cnf, give_up: GiveUp) -> Option<Count> {
    Engine::new(cnf).give_up(give_up).count().0.ok()
}

/// `count_solutions` within `budget`: the count, or the number of solutions proven when
/// the budget ran out.
pub fn count_solutions_within(cnf: &Cnf, budget: &Budget) -> Budgeted<Count> {
    Engine::new(cnf).budget(budget).count().0
}

/// Calls `visit` once per solution (distinct on the projection) until it breaks.
/// Shorthand for `Solutions::compile(cnf).for_each(visit)`.
pub fn list_solutions(cnf: &Cnf, visit: impl FnMut(&[bool]) -> ControlFlow<()>) -> ControlFlow<()> {
    Solutions::compile(cnf).for_each(visit)
}

/// All solutions of a CNF, compiled once: count them, then list them as often as needed.
pub struct Solutions {
    count: Count,
    num_vars: usize,
    dag: dag::Dag,
    root: dag::Edge,
    stats: SearchStats,
    /// The cardinality constraints with auxiliary variables: the search left those
    /// out, and listing gives them their values.
    counters: Vec<Cardinality>,
    /// The variables resolved away before the search: listing gives them values too.
    eliminated: search::Eliminated,
}

impl Solutions {
    /// Runs the counting search and keeps the DAG it explored.
    pub fn compile(cnf: &Cnf) -> Solutions {
        let compiled = Engine::new(cnf).compile().0;
        compiled.expect("a search without limits finishes")
    }

    /// `compile`, or `None` if the search met the `give_up` rule first.
    pub fn compile_within(cnf: &Cnf, give_up: GiveUp) -> Option<Solutions> {
        Engine::new(cnf).give_up(give_up).compile().0.ok()
    }

    fn new(cnf: &Cnf, outcome: search::Outcome) -> Solutions {
        Solutions {
            count: outcome.count,
            num_vars: cnf.num_vars(),
            dag: outcome.dag,
            root: outcome.root,
            stats: outcome.stats,
            counters: cnf
                .cardinalities()
                .iter()
                .filter(|c| !c.aux.is_empty())
                .cloned()
                .collect(),
            eliminated: outcome.eliminated,
        }
    }

    /// The number of solutions projected on the projection set.
    pub fn count(&self) -> &Count {
        &self.count
    }

    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Nodes in the compiled DAG (a measure of its memory).
    pub fn dag_nodes(&self) -> usize {
        self.dag.len()
    }

    /// Calls `visit` once per solution until it returns `Break`; returns `Break` if it
    /// did. Solutions are distinct on the projection and come in a fixed order:
    /// depth-first, each decided variable false before true, in decision order within
    /// a component (recognised gates first, then the projection order).
    ///
    /// `values` is indexed by variable (`Var::index`) and has `cnf.num_vars()` entries:
    /// a full satisfying assignment of the whole CNF, auxiliary variables included. It
    /// is only valid during the call.
    pub fn for_each(&self, mut visit: impl FnMut(&[bool]) -> ControlFlow<()>) -> ControlFlow<()> {
        // The walk never writes a counter's auxiliary variables (the search left them
        // out), so what a counter filled stays valid while its inputs stay as they were:
        // consecutive solutions differ in few cells, and refilling every counter for
        // each one took 80% of listing twonot2's 2.37 M solutions.
        let offsets: Vec<usize> = std::iter::once(0)
            .chain(self.counters.iter().scan(0, |end, c| {
                *end += c.lits.len();
                Some(*end)
            }))
            .collect();
        let mut inputs = vec![false; *offsets.last().unwrap_or(&0)];
        let mut filled = vec![false; self.counters.len()];
        self.walk(&mut |values| {
            for (k, counter) in self.counters.iter().enumerate() {
                let last = &mut inputs[offsets[k]..offsets[k + 1]];
                let same = filled[k]
                    && counter
                        .lits
                        .iter()
                        .zip(last.iter())
                        .all(|(l, &was)| l.eval(values) == was);
                if !same {
                    counter.fill_aux(values);
                    for (slot, l) in last.iter_mut().zip(&counter.lits) {
                        *slot = l.eval(values);
                    }
                    filled[k] = true;
                }
            }
            visit(values)
        })
    }

    /// `for_each`, except that the auxiliary variables of the cardinality constraints
    /// recorded in the CNF (`Cnf::cardinalities`) are not computed (the native search
    /// leaves them false): for callers that read only other variables (Battleship reads
    /// cells and ships; puzzle10's counters hold 1,000 variables per solution).
    pub fn for_each_without_counters(
        &self,
        mut visit: impl FnMut(&[bool]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.walk(&mut |values| visit(values))
    }

    fn walk(&self, visit: &mut dyn FnMut(&mut [bool]) -> ControlFlow<()>) -> ControlFlow<()> {
        if self.root.child == dag::FALSE {
            return ControlFlow::Continue(());
        }
        debug_assert!(self.dag.is_kept());
        let mut values = vec![false; self.num_vars];
        self.dag.set(&self.root.lits, &mut values);
        self.dag.walk(self.root.child, &mut values, &mut |values| {
            self.eliminated.extend(values);
            visit(values)
        })
    }
}
