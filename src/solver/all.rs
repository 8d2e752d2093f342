//! Counting and listing ALL solutions: the right tool for each size of answer.
//!
//! The counting engine (`count`) lists millions of solutions without blocking clauses,
//! but it learns nothing from conflicts, so a puzzle with a handful of solutions hidden in
//! a large search space (twonot2 with S=3: one solution) can take it minutes, where a
//! CDCL solver with blocking clauses answers in milliseconds. So the engine goes first
//! under a give-up rule (`GIVE_UP`: many decisions without solutions, few with); only
//! when it gives up does the CDCL solver look for up to `PROBE + 1` solutions, and only
//! when there are more does the engine start again, this time to the end.
//!
//! The engine used to come second, after the CDCL probe, which cost every listing with
//! more than `PROBE` solutions the probe's time (Battleship puzzle10: 0.11 s of 0.44 s).
//!
//! Within a budget (`count_all_within`, `AllSolutions::find_within`) each of the three
//! steps looks at it: the engine every thousand decisions or so, the probe before every
//! SAT call. When it runs out, the answer is the best proven lower bound: the engine's
//! (see `count::search`), or the number of distinct solutions the probe found, or
//! `PROBE + 1` once the probe has found that many. A single SAT call cannot be
//! interrupted; a caller that needs a hard deadline runs the whole request under
//! `limits::wait_for`.

use super::count::{Budgeted, Count, Engine, GiveUp, Solutions, Stopped};
use super::session::{Assignment, Session};
use super::SolverError;
use crate::limits::Budget;
use gridsat_encodings::cnf::Cnf;
use std::ops::ControlFlow;

/// Solutions found with blocking clauses when the engine gave up. At a few thousand
/// solutions per second this bounds the probe to about a tenth of a second.
pub const PROBE: u64 = 256;

/// When the first, bounded engine run gives up: after 20,000 decisions without a
/// solution on either branch, if they outnumber those with solutions 16 to 1.
/// Battleship puzzle10 ends at about 2 to 1 (3,754 solutions), Star Battle twonot2 S=1
/// with fewer dead decisions than live ones; twonot2 S=3 (one solution) has almost
/// nothing but dead ends and gives up after a fraction of a second.
pub const GIVE_UP: GiveUp = GiveUp {
    min_dead_decisions: 20_000,
    ratio: 16,
};

/// Every solution of a CNF, distinct on its projection.
// One value per command, moved rarely: boxing the compiled variant would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum AllSolutions {
    /// At most `PROBE` solutions, found by the CDCL solver after the engine gave up.
    Enumerated(Vec<Assignment>),
    /// Compiled by the counting engine.
    Compiled(Solutions),
}

impl AllSolutions {
    pub fn find(cnf: &Cnf) -> Result<AllSolutions, SolverError> {
        let all = AllSolutions::find_with(cnf, GIVE_UP, None)?;
        Ok(all.expect("without a budget the search runs to the end"))
    }

    /// `find` within `budget`: every solution, or when the budget runs out first, the
    /// number of solutions proven by then (the solutions themselves are dropped). The
    /// engine and the probe's SAT calls look at the budget; a single SAT call cannot be
    /// interrupted (see `limits::wait_for`).
    pub fn find_within(cnf: &Cnf, budget: &Budget) -> Result<Budgeted<AllSolutions>, SolverError> {
        AllSolutions::find_with(cnf, GIVE_UP, Some(budget))
    }

    fn find_with(
        cnf: &Cnf,
        give_up: GiveUp,
        budget: Option<&Budget>,
    ) -> Result<Budgeted<AllSolutions>, SolverError> {
        let engine = engine(cnf, budget);
        let bound = match engine.clone().give_up(give_up).compile().0 {
            Ok(solutions) => return Ok(Ok(AllSolutions::Compiled(solutions))),
            Err(stopped) => stopped.at_least,
        };
        Ok(match probe(cnf, budget, bound)? {
            Probe::Few(few) => Ok(AllSolutions::Enumerated(few)),
            Probe::Many(bound) => engine
                .compile()
                .0
                .map(AllSolutions::Compiled)
                .map_err(|stopped| at_least(bound, stopped)),
            Probe::Stopped(stopped) => Err(stopped),
        })
    }

    pub fn count(&self) -> Count {
        match self {
            AllSolutions::Enumerated(few) => Count::from(few.len() as u64),
            AllSolutions::Compiled(solutions) => solutions.count().clone(),
        }
    }

    /// Calls `visit` once per solution (a full assignment, indexed by variable) until it
    /// breaks.
    pub fn for_each(&self, mut visit: impl FnMut(&[bool]) -> ControlFlow<()>) -> ControlFlow<()> {
        match self {
            AllSolutions::Enumerated(few) => {
                for values in few {
                    visit(values)?;
                }
                ControlFlow::Continue(())
            }
            AllSolutions::Compiled(solutions) => solutions.for_each(visit),
        }
    }

    /// `for_each`, except that the counting engine does not compute the auxiliary
    /// variables of recorded cardinality constraints (see
    /// `Solutions::for_each_without_counters`).
    pub fn for_each_without_counters(
        &self,
        visit: impl FnMut(&[bool]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            AllSolutions::Enumerated(_) => self.for_each(visit),
            AllSolutions::Compiled(solutions) => solutions.for_each_without_counters(visit),
        }
    }
}

/// The number of solutions projected on `cnf.projection()`.
pub fn count_all(cnf: &Cnf) -> Result<Count, SolverError> {
    let count = count_all_with(cnf, GIVE_UP, None)?;
    Ok(count.expect("without a budget the search runs to the end"))
}

/// `count_all` within `budget`: the count, or when the budget runs out first, the
/// number of solutions proven by then. As for `AllSolutions::find_within`, a single SAT
/// call of the probe cannot be interrupted.
pub fn count_all_within(cnf: &Cnf, budget: &Budget) -> Result<Budgeted<Count>, SolverError> {
    count_all_with(cnf, GIVE_UP, Some(budget))
}

fn count_all_with(
    cnf: &Cnf,
    give_up: GiveUp,
    budget: Option<&Budget>,
) -> Result<Budgeted<Count>, SolverError> {
    let engine = engine(cnf, budget);
    let bound = match engine.clone().give_up(give_up).count().0 {
        Ok(count) => return Ok(Ok(count)),
        Err(stopped) => stopped.at_least,
    };
    Ok(match probe(cnf, budget, bound)? {
        Probe::Few(few) => Ok(Count::from(few.len() as u64)),
        Probe::Many(bound) => engine.count().0.map_err(|stopped| at_least(bound, stopped)),
        Probe::Stopped(stopped) => Err(stopped),
    })
}

fn engine<'a>(cnf: &'a Cnf, budget: Option<&Budget>) -> Engine<'a> {
    match budget {
        Some(budget) => Engine::new(cnf).budget(budget),
        None => Engine::new(cnf),
    }
}

/// The better of two proven lower bounds.
fn at_least(bound: Count, stopped: Stopped) -> Stopped {
    Stopped {
        at_least: bound.max(stopped.at_least),
    }
}

/// What the CDCL probe found after the engine stopped.
enum Probe {
    /// Every solution: there are at most `PROBE`.
    Few(Vec<Assignment>),
    /// More than `PROBE`: at least this many (the engine's bound may be higher).
    Many(Count),
    /// The budget ran out, with this many proven.
    Stopped(Stopped),
}

/// Looks for up to `PROBE + 1` solutions with blocking clauses, after the engine stopped
/// with `bound` solutions proven (when its budget ran out, the probe stops at once).
fn probe(cnf: &Cnf, budget: Option<&Budget>, bound: Count) -> Result<Probe, SolverError> {
    let mut few = Vec::new();
    let found = Session::new(cnf).enumerate_until(&[], Some(PROBE + 1), budget, |values| {
        few.push(values.to_vec());
        ControlFlow::Continue(())
    })?;
    Ok(match found {
        Ok(n) if n <= PROBE => Probe::Few(few),
        Ok(n) => Probe::Many(bound.max(Count::from(n))),
        Err(stopped) => Probe::Stopped(at_least(bound, stopped)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` free projected variables with at most one true: `n + 1` solutions.
    fn at_most_one_of(n: usize) -> Cnf {
        let mut cnf = Cnf::new();
        let lits: Vec<_> = (0..n).map(|_| cnf.primary_var().positive()).collect();
        gridsat_encodings::CardEncoding::SequentialCounter.at_most(&mut cnf, &lits, 1);
        cnf
    }

    /// Gives up at the first sub-problem: forces the CDCL probe.
    const AT_ONCE: GiveUp = GiveUp {
        min_dead_decisions: 0,
        ratio: 0,
    };

    fn check(cnf: &Cnf, all: &AllSolutions, n: usize) {
        assert_eq!(all.count(), (n + 1) as u128);
        let mut seen = std::collections::BTreeSet::new();
        let _ = all.for_each(|values| {
            assert!(cnf.is_satisfied_by(values));
            seen.insert(values[..n].to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(seen.len(), n + 1);
    }

    #[test]
    fn the_engine_answers_when_it_does_not_give_up() {
        for n in [0usize, 5, PROBE as usize + 7] {
            let cnf = at_most_one_of(n);
            let all = AllSolutions::find(&cnf).unwrap();
            assert!(matches!(all, AllSolutions::Compiled(_)), "n = {n}");
            check(&cnf, &all, n);
            assert_eq!(count_all(&cnf).unwrap(), (n + 1) as u128);
        }
    }

    #[test]
    fn both_sides_of_the_probe_agree_with_the_formula_when_the_engine_gives_up() {
        // (Without clauses, n = 0 caches nothing and the engine never gives up.)
        for n in [
            5usize,
            PROBE as usize - 1,
            PROBE as usize,
            PROBE as usize + 7,
        ] {
            let cnf = at_most_one_of(n);
            let all = AllSolutions::find_with(&cnf, AT_ONCE, None)
                .unwrap()
                .unwrap();
            assert_eq!(
                matches!(all, AllSolutions::Enumerated(_)),
                n < PROBE as usize,
                "n = {n}"
            );
            check(&cnf, &all, n);
            assert_eq!(
                count_all_with(&cnf, AT_ONCE, None).unwrap().unwrap(),
                (n + 1) as u128
            );
        }
    }

    /// With a recorded cardinality constraint the engine leaves its counter out:
    /// `for_each` fills the counter in (every listed assignment satisfies the whole
    /// CNF), `for_each_without_counters` lists the same solutions on the projection.
    #[test]
    fn counters_are_filled_in_unless_asked_not_to() {
        let mut cnf = Cnf::new();
        let lits: Vec<_> = (0..6).map(|_| cnf.primary_var().positive()).collect();
        gridsat_encodings::CardEncoding::SequentialCounter.constrain(&mut cnf, &lits, 2, 3);
        let all = AllSolutions::find(&cnf).unwrap();
        assert!(matches!(all, AllSolutions::Compiled(_)));
        // C(6,2) + C(6,3)
        assert_eq!(all.count(), 35u128);
        let (mut full, mut bare) = (Vec::new(), Vec::new());
        let _ = all.for_each(|values| {
            assert!(cnf.is_satisfied_by(values));
            full.push(values[..6].to_vec());
            ControlFlow::Continue(())
        });
        let _ = all.for_each_without_counters(|values| {
            assert!(values[6..].iter().all(|&v| !v));
            bare.push(values[..6].to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(full.len(), 35);
        assert_eq!(full, bare);
    }

    /// A budget that has already run out.
    fn spent() -> Budget {
        let budget = Budget::unlimited();
        budget.cancel();
        budget
    }

    /// Within a budget that does not run out, the answers are the unbudgeted ones, on
    /// both sides of the probe; within a spent one, every path stops with a bound that
    /// is at most the count (here 0: nothing was counted yet).
    #[test]
    fn budgeted_answers_are_exact_or_sound_bounds() {
        let plenty = Budget::unlimited();
        for n in [5usize, PROBE as usize + 7] {
            let cnf = at_most_one_of(n);
            let expected = Count::from(n as u64 + 1);
            for give_up in [GIVE_UP, AT_ONCE] {
                let count = count_all_with(&cnf, give_up, Some(&plenty)).unwrap();
                assert_eq!(count, Ok(expected.clone()), "n = {n}");
                let all = AllSolutions::find_with(&cnf, give_up, Some(&plenty)).unwrap();
                check(&cnf, &all.unwrap(), n);
                let stopped = count_all_with(&cnf, give_up, Some(&spent())).unwrap();
                assert_eq!(
                    stopped,
                    Err(Stopped {
                        at_least: Count::ZERO
                    })
                );
                let stopped = AllSolutions::find_with(&cnf, give_up, Some(&spent())).unwrap();
                assert!(stopped.is_err_and(|s| s.at_least.is_zero()));
            }
        }
    }

    /// A random 3-CNF over `n` projected variables with `m` clauses (xorshift64).
    fn random_3cnf(n: usize, m: usize, mut seed: u64) -> Cnf {
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut cnf = Cnf::new();
        let vars: Vec<_> = (0..n).map(|_| cnf.primary_var()).collect();
        for _ in 0..m {
            let clause: Vec<_> = (0..3)
                .map(|_| {
                    let var = vars[(next() % n as u64) as usize];
                    if next() % 2 == 0 {
                        var.positive()
                    } else {
                        var.negative()
                    }
                })
                .collect();
            cnf.clause(clause);
        }
        cnf
    }

    /// Random 3-SAT past the threshold, decided in a fixed order without learning:
    /// nothing but dead ends. The real rule gives up and the CDCL solver answers.
    #[test]
    fn a_hopeless_search_gives_up_and_the_probe_answers() {
        let cnf = random_3cnf(150, 750, 0x9e37_79b9_7f4a_7c15);
        assert!(crate::solver::count::count_within(&cnf, GIVE_UP).is_none());
        let all = AllSolutions::find(&cnf).unwrap();
        let AllSolutions::Enumerated(few) = &all else {
            panic!("the engine did not give up");
        };
        let mut session = Session::new(&cnf);
        let mut expected = 0;
        session
            .enumerate(None, |_| {
                expected += 1;
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(few.len(), expected);
        assert_eq!(count_all(&cnf).unwrap(), expected as u128);
    }
}
