//! Every cardinality encoding, every n <= 8, every bound: for each assignment of the
//! inputs, the CNF with the inputs fixed has exactly one model (over ALL variables) when
//! the bound holds and none when it does not. One model, not "some": the auxiliary
//! variables must be a function of the inputs, so that counting over the projection and
//! over all variables agree.
//!
//! Written once, generic over the encoding type; `tests_for!` at the end makes one module
//! of tests per encoding.

use gridsat_encodings::card::{
    CardinalityEncoding, Pairwise, SequentialCounter, SortingNetwork, Totalizer,
};
use gridsat_encodings::cnf::{Cnf, Lit};
use gridsat_encodings::CardEncoding;

/// Counts models over all variables with a small DPLL (unit propagation, branching on the
/// first unassigned variable). Written for tests only: no learning, no caching.
fn count_models(num_vars: usize, clauses: &[Vec<Lit>]) -> u64 {
    fn go(values: &mut Vec<Option<bool>>, clauses: &[Vec<Lit>]) -> u64 {
        let mut trail = Vec::new();
        // Unit propagation to a fixpoint.
        loop {
            let mut changed = false;
            for clause in clauses {
                let mut unassigned = None;
                let mut free = 0;
                let mut satisfied = false;
                for &lit in clause {
                    match values[lit.var().index()] {
                        Some(v) if v == lit.is_positive() => {
                            satisfied = true;
                            break;
                        }
                        Some(_) => {}
                        None => {
                            free += 1;
                            unassigned = Some(lit);
                        }
                    }
                }
                if satisfied {
                    continue;
                }
                if free == 0 {
                    for v in trail {
                        values[v] = None;
                    }
                    return 0;
                }
                if free == 1 {
                    let lit = unassigned.unwrap();
                    values[lit.var().index()] = Some(lit.is_positive());
                    trail.push(lit.var().index());
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let count = match values.iter().position(|v| v.is_none()) {
            None => 1,
            Some(var) => {
                let mut total = 0;
                for value in [false, true] {
                    values[var] = Some(value);
                    total += go(values, clauses);
                }
                values[var] = None;
                total
            }
        };
        for v in trail {
            values[v] = None;
        }
        count
    }
    go(&mut vec![None; num_vars], clauses)
}

#[derive(Copy, Clone, Debug)]
enum Bound {
    AtMost(usize),
    AtLeast(usize),
    Exactly(usize),
    Between(usize, usize),
}

impl Bound {
    fn holds(self, count: usize) -> bool {
        match self {
            Bound::AtMost(k) => count <= k,
            Bound::AtLeast(k) => count >= k,
            Bound::Exactly(k) => count == k,
            Bound::Between(lo, hi) => lo <= count && count <= hi,
        }
    }

    fn encode<E: CardinalityEncoding>(self, cnf: &mut Cnf, lits: &[Lit]) {
        match self {
            Bound::AtMost(k) => E::at_most(cnf, lits, k),
            Bound::AtLeast(k) => E::at_least(cnf, lits, k),
            Bound::Exactly(k) => E::exactly(cnf, lits, k),
            Bound::Between(lo, hi) => E::between(cnf, lits, lo, hi),
        }
    }
}

fn check<E: CardinalityEncoding>(n: usize, bound: Bound) {
    let mut cnf = Cnf::new();
    let inputs: Vec<Lit> = (0..n).map(|_| cnf.primary_var().positive()).collect();
    bound.encode::<E>(&mut cnf, &inputs);
    let base: Vec<Vec<Lit>> = cnf.clauses().map(|c| c.to_vec()).collect();
    for bits in 0..(1u32 << n) {
        let mut clauses = base.clone();
        for (i, &lit) in inputs.iter().enumerate() {
            clauses.push(vec![if bits >> i & 1 == 1 { lit } else { !lit }]);
        }
        let expected = u64::from(bound.holds(bits.count_ones() as usize));
        let got = count_models(cnf.num_vars(), &clauses);
        assert_eq!(
            got,
            expected,
            "{} n={n} {bound:?} inputs={bits:0n$b}: {got} models",
            E::NAME,
            n = n
        );
    }
}

fn bounds(n: usize) -> Vec<Bound> {
    let mut all = Vec::new();
    for k in 0..=n + 1 {
        all.extend([Bound::AtMost(k), Bound::AtLeast(k), Bound::Exactly(k)]);
        for hi in k..=n + 1 {
            all.push(Bound::Between(k, hi));
        }
    }
    all
}

fn exhaustive<E: CardinalityEncoding>() {
    for n in 0..=8 {
        for bound in bounds(n) {
            check::<E>(n, bound);
        }
    }
}

/// Calls `check(cnf, inputs, m, outputs)` for every unary counter `E` builds over
/// `n <= 6` inputs; the inputs are the variables `0..n`, the counter's own come next.
fn each_counter<E: CardinalityEncoding>(mut check: impl FnMut(&Cnf, &[Lit], usize, &[Lit])) {
    for n in 1..=6 {
        for m in 1..=n {
            let mut cnf = Cnf::new();
            let inputs: Vec<Lit> = (0..n).map(|_| cnf.primary_var().positive()).collect();
            let outputs = E::unary_counter(&mut cnf, &inputs, m);
            check(&cnf, &inputs, m, &outputs);
        }
    }
}

fn unary_counter_outputs_mean_at_least_j<E: CardinalityEncoding>() {
    each_counter::<E>(|cnf, inputs, m, outputs| {
        let n = inputs.len();
        let base: Vec<Vec<Lit>> = cnf.clauses().map(|c| c.to_vec()).collect();
        for bits in 0..(1u32 << n) {
            for (j, &out) in outputs.iter().enumerate() {
                let mut clauses = base.clone();
                for (i, &lit) in inputs.iter().enumerate() {
                    clauses.push(vec![if bits >> i & 1 == 1 { lit } else { !lit }]);
                }
                clauses.push(vec![out]);
                let expected = u64::from(bits.count_ones() as usize > j);
                assert_eq!(
                    count_models(cnf.num_vars(), &clauses),
                    expected,
                    "{} n={n} m={m} o_{} bits={bits:b}",
                    E::NAME,
                    j + 1
                );
            }
        }
    });
}

/// `fill_counter` completes every input assignment to a model of `counter`'s clauses,
/// in which each output means what it should.
fn fill_counter_completes_the_inputs_to_a_model<E: CardinalityEncoding>() {
    each_counter::<E>(|cnf, inputs, m, outputs| {
        let n = inputs.len();
        for bits in 0..(1u32 << n) {
            let mut values = vec![false; cnf.num_vars()];
            for (i, value) in values[..n].iter_mut().enumerate() {
                *value = bits >> i & 1 == 1;
            }
            E::fill_counter(inputs, m, n, &mut values);
            assert!(
                cnf.is_satisfied_by(&values),
                "{} n={n} m={m} bits={bits:b}",
                E::NAME
            );
            for (j, out) in outputs.iter().enumerate() {
                assert_eq!(out.eval(&values), bits.count_ones() as usize > j);
            }
        }
    });
}

/// `(variables, clauses)` of at most one of eight inputs.
fn at_most_one_of_eight<E: CardinalityEncoding>() -> (usize, usize) {
    let mut cnf = Cnf::new();
    let inputs: Vec<Lit> = (0..8).map(|_| cnf.primary_var().positive()).collect();
    E::at_most(&mut cnf, &inputs, 1);
    (cnf.num_vars(), cnf.num_clauses())
}

#[test]
fn costs_are_as_documented_for_at_most_one_of_eight() {
    // Pairwise has no auxiliaries and C(8, 2) = 28 clauses; the others add variables.
    assert_eq!(at_most_one_of_eight::<Pairwise>(), (8, 28));
    for (name, (vars, _)) in [
        (
            SequentialCounter::NAME,
            at_most_one_of_eight::<SequentialCounter>(),
        ),
        (Totalizer::NAME, at_most_one_of_eight::<Totalizer>()),
        (
            SortingNetwork::NAME,
            at_most_one_of_eight::<SortingNetwork>(),
        ),
    ] {
        assert!(vars > 8, "{name} uses auxiliary variables");
    }
}

/// One module of tests per encoding type: adding an encoding adds one line to the call,
/// and `every_selection_is_tested` fails until it does.
macro_rules! tests_for {
    ($($module:ident: $E:ty),* $(,)?) => {
        $(
            mod $module {
                use super::*;

                #[test]
                fn is_exact_with_unique_extensions() {
                    exhaustive::<$E>();
                }

                #[test]
                fn unary_counter_outputs_mean_at_least_j() {
                    super::unary_counter_outputs_mean_at_least_j::<$E>();
                }

                #[test]
                fn fill_counter_completes_the_inputs_to_a_model() {
                    super::fill_counter_completes_the_inputs_to_a_model::<$E>();
                }
            }
        )*

        #[test]
        fn every_selection_is_tested() {
            let tested = [$(<$E as CardinalityEncoding>::NAME),*];
            assert_eq!(CardEncoding::ALL.map(CardEncoding::name), tested);
        }
    };
}

tests_for! {
    pairwise: Pairwise,
    sequential_counter: SequentialCounter,
    totalizer: Totalizer,
    sorting_network: SortingNetwork,
}
