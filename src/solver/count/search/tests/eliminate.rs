//! Resolving away unprojected variables before the search (`eliminate.rs`): counts,
//! listings (completed to full models) and stopped bounds still equal a brute force.

use super::*;
use crate::solver::count::Engine;

/// A random CNF over 4 to 14 variables, about half of them unprojected, with 2/3 to 2
/// clauses per variable of 1 to 4 literals: most unprojected variables can be resolved
/// away, some cannot.
fn elimination_cnf(next: &mut impl FnMut(u64) -> u64) -> Cnf {
    let n = 4 + next(11) as usize;
    let mut cnf = Cnf::new();
    let vars = random_vars(&mut cnf, n, || next(2) == 0);
    let count = (n * (2 + next(5) as usize)) / 3;
    random_clauses(&mut cnf, &vars, count, next);
    cnf
}

/// Counts with and without elimination, and the listing with it, against the brute
/// force: every listed assignment, eliminated variables included, is a model.
fn check_engine(cnf: &Cnf, expected: &std::collections::BTreeSet<Vec<bool>>, what: &str) -> u64 {
    let mut eliminated = 0;
    for dynamic in [false, true] {
        let engine = Engine::new(cnf).eliminate(true).dynamic_order(dynamic);
        let (count, stats) = engine.count();
        assert_eq!(count, Ok(Count::from(expected.len() as u128)), "{what}");
        eliminated += stats.eliminated;
        let solutions = engine.compile().0.expect("no limits");
        assert_eq!(*solutions.count(), expected.len() as u128, "{what}");
        let mut seen = std::collections::BTreeSet::new();
        let _ = solutions.for_each(|values| {
            assert!(cnf.is_satisfied_by(values), "{what}: not a model");
            let projected = cnf.projection().iter().map(|v| values[v.index()]).collect();
            assert!(seen.insert(projected), "{what}: listed twice");
            std::ops::ControlFlow::Continue(())
        });
        assert_eq!(&seen, expected, "{what}");
    }
    eliminated
}

#[test]
fn resolving_unprojected_variables_away_keeps_counts_and_listings() {
    let mut next = below_from(0x1f83_d9ab_5be0_cd19);
    let (mut eliminated, mut with_models) = (0, 0);
    for round in 0..500 {
        let cnf = elimination_cnf(&mut next);
        let expected = brute_force(&cnf);
        with_models += usize::from(!expected.is_empty());
        eliminated += check_engine(&cnf, &expected, &format!("round {round}"));
    }
    // Not vacuous: most formulas have models, and many variables were resolved away.
    assert!(with_models >= 250, "{with_models} formulas with models");
    assert!(eliminated >= 2000, "{eliminated} variables resolved away");
}

/// With native cardinality constraints beside the clauses, their variables stay, and
/// the counters' values are still filled in when listing.
#[test]
fn elimination_leaves_native_constraints_their_variables() {
    let mut eliminated = 0;
    for round in 0..300u64 {
        let seed = 0x6a09_e667_f3bc_c908 ^ (round + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
        // The brute force reads the native records, so it runs on the native formula
        // (the plain one has the same clauses, as `native_cardinality_constraints_…`
        // checks).
        let expected = brute_force_cards(&card_formula(seed, true));
        for native in [true, false] {
            let formula = card_formula(seed, native);
            let what = format!("round {round}, native {native}");
            eliminated += check_engine(&formula.cnf, &expected, &what);
        }
    }
    assert!(eliminated >= 300, "{eliminated} variables resolved away");
}

/// A search on the reduced formula stopped at any step still proves a lower bound of
/// the original's count.
#[test]
fn a_stopped_search_after_elimination_proves_a_lower_bound() {
    let mut next = below_from(0x3c6e_f372_fe94_f82b);
    let mut stopped = 0;
    for _ in 0..300 {
        let cnf = elimination_cnf(&mut next);
        let exact = Count::from(brute_force(&cnf).len() as u128);
        for steps in 0.. {
            let limits = Limits {
                steps: Some(steps),
                eliminate: true,
                ..Limits::default()
            };
            match Search::<false>::new(&cnf, false, limits).run() {
                Ok(outcome) => {
                    assert_eq!(outcome.count, exact);
                    break;
                }
                Err(interrupted) => {
                    assert!(interrupted.at_least <= exact);
                    stopped += 1;
                }
            }
        }
    }
    assert!(stopped >= 200, "{stopped} stops");
}

/// A budget that is already spent stops the elimination before its first variable (and
/// the search at its first poll), with a bound that is still sound.
#[test]
fn a_spent_budget_stops_the_elimination_too() {
    let mut next = below_from(0x510e_527f_ade6_82d1);
    let cnf = (0..)
        .map(|_| elimination_cnf(&mut next))
        .find(|cnf| Engine::new(cnf).eliminate(true).count().1.eliminated > 0)
        .expect("a formula with a variable to resolve away");
    let spent = crate::limits::Budget::starting_now(Some(std::time::Duration::ZERO));
    let (count, stats) = Engine::new(&cnf).eliminate(true).budget(&spent).count();
    assert_eq!(stats.eliminated, 0);
    let exact = Count::from(brute_force(&cnf).len() as u128);
    assert!(count.expect_err("stopped").at_least <= exact);
}
