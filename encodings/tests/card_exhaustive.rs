//! Every cardinality encoding, every n <= 8, every bound: for each assignment of the
//! inputs, the CNF with the inputs fixed has exactly one model (over ALL variables) when
//! the bound holds and none when it does not. One model, not "some": the auxiliary
//! variables must be a function of the inputs, so that counting over the projection and
//! over all variables agree.

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

    fn encode(self, enc: CardEncoding, cnf: &mut Cnf, lits: &[Lit]) {
        match self {
            Bound::AtMost(k) => enc.at_most(cnf, lits, k),
            Bound::AtLeast(k) => enc.at_least(cnf, lits, k),
            Bound::Exactly(k) => enc.exactly(cnf, lits, k),
            Bound::Between(lo, hi) => enc.between(cnf, lits, lo, hi),
        }
    }
}

fn check(enc: CardEncoding, n: usize, bound: Bound) {
    let mut cnf = Cnf::new();
    let inputs: Vec<Lit> = (0..n).map(|_| cnf.primary_var().positive()).collect();
    bound.encode(enc, &mut cnf, &inputs);
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
            "{enc} n={n} {bound:?} inputs={bits:0n$b}: {got} models",
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

fn exhaustive(enc: CardEncoding) {
    for n in 0..=8 {
        for bound in bounds(n) {
            check(enc, n, bound);
        }
    }
}

#[test]
fn pairwise_is_exact_with_unique_extensions() {
    exhaustive(CardEncoding::Pairwise);
}

#[test]
fn sequential_counter_is_exact_with_unique_extensions() {
    exhaustive(CardEncoding::SequentialCounter);
}

#[test]
fn totalizer_is_exact_with_unique_extensions() {
    exhaustive(CardEncoding::Totalizer);
}

#[test]
fn sorting_network_is_exact_with_unique_extensions() {
    exhaustive(CardEncoding::SortingNetwork);
}

#[test]
fn unary_counter_outputs_mean_at_least_j() {
    for enc in CardEncoding::ALL {
        for n in 1..=6 {
            for m in 1..=n {
                let mut cnf = Cnf::new();
                let inputs: Vec<Lit> = (0..n).map(|_| cnf.primary_var().positive()).collect();
                let outputs = enc.unary_counter(&mut cnf, &inputs, m);
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
                            "{enc} n={n} m={m} o_{} bits={bits:b}",
                            j + 1
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn costs_are_as_documented_for_at_most_one_of_eight() {
    // Pairwise has no auxiliaries and C(8, 2) = 28 clauses; the others add variables.
    let mut cnf = Cnf::new();
    let inputs: Vec<Lit> = (0..8).map(|_| cnf.primary_var().positive()).collect();
    CardEncoding::Pairwise.at_most(&mut cnf, &inputs, 1);
    assert_eq!((cnf.num_vars(), cnf.num_clauses()), (8, 28));
    for enc in [
        CardEncoding::SequentialCounter,
        CardEncoding::Totalizer,
        CardEncoding::SortingNetwork,
    ] {
        let mut cnf = Cnf::new();
        let inputs: Vec<Lit> = (0..8).map(|_| cnf.primary_var().positive()).collect();
        enc.at_most(&mut cnf, &inputs, 1);
        assert!(cnf.num_vars() > 8, "{enc} uses auxiliary variables");
    }
}
