//! `CardinalityEncoding::constrain`: it writes exactly the clauses of `between`, records
//! the constraint with the ranges of its clauses and auxiliary variables, and `fill_aux`
//! completes every input assignment that meets the bound to a model of those clauses.
//! Inputs may repeat a variable or hold both of its literals (the bound counts literal
//! occurrences, as the clauses do). And `CardEncoding`, the selection, writes what the
//! type it selects writes.
//!
//! Written once, generic over the encoding type; `tests_for!` at the end makes one module
//! of tests per encoding.

use gridsat_encodings::card::{
    CardinalityEncoding, Pairwise, SequentialCounter, SortingNetwork, Totalizer,
};
use gridsat_encodings::cnf::{Cnf, Lit, Var};
use gridsat_encodings::CardEncoding;

/// xorshift64: seeded, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn recorded_constraints_complete_to_models_exactly_when_the_bound_holds<E: CardinalityEncoding>() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    for round in 0..400 {
        let num_inputs = 1 + rng.below(5) as usize;
        let width = 1 + rng.below(8) as usize;
        let mut cnf = Cnf::new();
        let inputs: Vec<Var> = (0..num_inputs).map(|_| cnf.primary_var()).collect();
        // Some clause before, so that the recorded ranges do not start at 0.
        cnf.clause([inputs[0].positive(), !inputs[0].positive()]);
        let lits: Vec<Lit> = (0..width)
            .map(|_| {
                Lit::new(
                    inputs[rng.below(num_inputs as u64) as usize],
                    rng.below(2) == 0,
                )
            })
            .collect();
        let lo = rng.below(width as u64 + 2) as usize;
        let hi = rng.below(width as u64 + 2) as usize;
        let mut plain = cnf.clone();
        E::between(&mut plain, &lits, lo, hi);
        let mut recorded = cnf.clone();
        E::constrain(&mut recorded, &lits, lo, hi);
        assert_eq!(plain.to_dimacs_string(), recorded.to_dimacs_string());
        let [card] = recorded.cardinalities() else {
            panic!("one constraint recorded");
        };
        assert_eq!(card.lits, lits);
        assert_eq!(card.encoding, E::NAME);
        assert_eq!((card.lo, card.hi), (lo, hi.min(width)));
        assert_eq!(card.clauses, cnf.num_clauses()..recorded.num_clauses());
        assert_eq!(card.aux, cnf.num_vars()..recorded.num_vars());
        for bits in 0u32..1 << num_inputs {
            let mut values = vec![false; recorded.num_vars()];
            for (i, v) in inputs.iter().enumerate() {
                values[v.index()] = bits >> i & 1 == 1;
            }
            let count = lits.iter().filter(|l| l.eval(&values)).count();
            card.fill_aux(&mut values);
            let holds = lo <= count && count <= hi;
            if holds {
                assert!(
                    recorded.is_satisfied_by(&values),
                    "round {round}, {}, {lits:?} in {lo}..={hi}, bits {bits:b}",
                    E::NAME
                );
            } else {
                assert!(!recorded.is_satisfied_by(&values), "round {round}");
            }
        }
    }
}

/// `selection` (the `CardEncoding` variant) writes, records and fills exactly what `E`
/// does, and is named by `E::NAME`.
fn selection_is_its_type<E: CardinalityEncoding>(selection: CardEncoding) {
    assert_eq!(selection.name(), E::NAME);
    assert_eq!(E::NAME.parse::<CardEncoding>(), Ok(selection));
    for n in 0..=6 {
        for lo in 0..=n + 1 {
            for hi in 0..=n + 1 {
                let mut by_type = Cnf::new();
                let lits: Vec<Lit> = (0..n).map(|_| by_type.primary_var().positive()).collect();
                let mut selected = by_type.clone();
                E::between(&mut by_type, &lits, lo, hi);
                selection.between(&mut selected, &lits, lo, hi);
                assert_eq!(by_type.to_dimacs_string(), selected.to_dimacs_string());
                E::constrain(&mut by_type, &lits, lo, hi);
                selection.constrain(&mut selected, &lits, lo, hi);
                assert_eq!(by_type.to_dimacs_string(), selected.to_dimacs_string());
                let mut values = vec![true; by_type.num_vars()];
                let mut selected_values = values.clone();
                by_type.cardinalities()[0].fill_aux(&mut values);
                selected.cardinalities()[0].fill_aux(&mut selected_values);
                assert_eq!(values, selected_values);
            }
        }
        for m in 1..=n {
            let mut by_type = Cnf::new();
            let lits: Vec<Lit> = (0..n).map(|_| by_type.primary_var().positive()).collect();
            let mut selected = by_type.clone();
            let outputs = E::unary_counter(&mut by_type, &lits, m);
            assert_eq!(selection.unary_counter(&mut selected, &lits, m), outputs);
            assert_eq!(by_type.to_dimacs_string(), selected.to_dimacs_string());
        }
    }
}

/// One module of tests per encoding type and the `CardEncoding` variant that selects it.
macro_rules! tests_for {
    ($($module:ident: $E:ty = $selection:expr),* $(,)?) => {
        $(
            mod $module {
                use super::*;

                #[test]
                fn recorded_constraints_complete_to_models_exactly_when_the_bound_holds() {
                    super::recorded_constraints_complete_to_models_exactly_when_the_bound_holds::<$E>();
                }

                #[test]
                fn selection_is_its_type() {
                    super::selection_is_its_type::<$E>($selection);
                }
            }
        )*
    };
}

tests_for! {
    pairwise: Pairwise = CardEncoding::Pairwise,
    sequential_counter: SequentialCounter = CardEncoding::SequentialCounter,
    totalizer: Totalizer = CardEncoding::Totalizer,
    sorting_network: SortingNetwork = CardEncoding::SortingNetwork,
}
