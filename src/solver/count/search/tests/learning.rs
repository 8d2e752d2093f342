//! The witness search's learning: counts, listings and stops still equal a brute
//! force on formulas whose witness searches meet conflicts.

use super::*;

/// A random 3-CNF over 6 to 16 variables around the satisfiability threshold,
/// projected on its first 0 to 2: the witness searches (and so the learning) do most of
/// the work, and a wrong learnt clause shows as a component wrongly without a model.
fn witness_heavy_cnf(next: &mut impl FnMut(u64) -> u64) -> Cnf {
    let n = 6 + next(11) as usize;
    let shown = next(3) as usize;
    let mut cnf = Cnf::new();
    let vars: Vec<Var> = (0..n)
        .map(|i| {
            if i < shown {
                cnf.primary_var()
            } else {
                cnf.fresh_var()
            }
        })
        .collect();
    for _ in 0..(n * (7 + next(3) as usize)) / 2 {
        let clause: Vec<Lit> = (0..3)
            .map(|_| Lit::new(vars[next(n as u64) as usize], next(2) == 0))
            .collect();
        cnf.clause(clause);
    }
    cnf
}

/// Witness searches that meet conflicts learn from them (1-UIP, jumping back), and
/// counts and listings still equal a brute force, under both orders, with keys after
/// decisions and without; stopped at any step, they prove lower bounds.
#[test]
fn learning_witness_searches_count_list_and_stop_exactly() {
    let mut next = below_from(0x7f4a_7c15_2545_f491);
    let (mut conflicts, mut learnt, mut several) = (0, 0, 0);
    for round in 0..400 {
        let cnf = witness_heavy_cnf(&mut next);
        let expected = brute_force(&cnf);
        let outcome = Search::<false>::new(&cnf, false, Limits::default()).run();
        let stats = outcome.ok().map(|o| o.stats).unwrap_or_default();
        conflicts += stats.conflicts;
        learnt += stats.learnt_clauses;
        several += u64::from(stats.conflicts > stats.witness_searches);
        for (cache_decisions, dynamic_order) in [(true, false), (false, false), (true, true)] {
            let limits = Limits {
                dynamic_order,
                ..Limits::default()
            };
            let mut search = Search::<false>::new(&cnf, true, limits);
            search.cache_decisions = cache_decisions;
            let (count, seen) = listed(&cnf, search);
            let what = format!("round {round}, keys {cache_decisions}, dynamic {dynamic_order}");
            assert_eq!(count, expected.len() as u128, "{what}");
            assert_eq!(seen, expected, "{what}");
        }
        if round % 4 == 0 {
            let exact = expected.len() as u128;
            stopped_at_every_step(exact, &format!("stopped round {round}"), |limits| {
                Search::<false>::new(&cnf, round % 8 == 0, limits)
            });
        }
    }
    assert!(
        conflicts > 250 && learnt > 200 && several > 20,
        "{conflicts} conflicts, {learnt} learnt, {several} searches with several conflicts"
    );
}

/// Native cardinality constraints over unprojected variables give their reasons to
/// the analysis (the literals that made them tight): counts equal a brute force.
#[test]
fn learning_through_native_constraints_counts_exactly() {
    use gridsat_encodings::CardEncoding;
    let mut next = below_from(0x3c6e_f372_fe94_f82b);
    let mut learnt = 0;
    for round in 0..400u64 {
        let n = 4 + next(8) as usize;
        let mut cnf = Cnf::new();
        let base: Vec<Var> = (0..n)
            .map(|i| {
                if i < 2 {
                    cnf.primary_var()
                } else {
                    cnf.fresh_var()
                }
            })
            .collect();
        let mut clauses = Vec::new();
        for _ in 0..n + next(n as u64) as usize {
            let clause: Vec<Lit> = (0..2 + next(2) as usize)
                .map(|_| Lit::new(base[next(n as u64) as usize], next(2) == 0))
                .collect();
            cnf.clause(clause.iter().copied());
            clauses.push(clause);
        }
        let mut bounds = Vec::new();
        for _ in 0..1 + next(3) {
            let width = 2 + next(5) as usize;
            let lits: Vec<Lit> = (0..width)
                .map(|_| Lit::new(base[next(n as u64) as usize], next(3) > 0))
                .collect();
            let lo = next(width as u64) as usize;
            let hi = lo + next(2) as usize;
            CardEncoding::ALL[next(4) as usize].constrain(&mut cnf, &lits, lo, hi);
            bounds.push((lits, lo, hi));
        }
        let formula = CardFormula {
            cnf,
            base,
            bounds,
            clauses,
        };
        let expected = brute_force_cards(&formula);
        for dynamic_order in [false, true] {
            let limits = Limits {
                dynamic_order,
                ..Limits::default()
            };
            let search = Search::<true>::new(&formula.cnf, true, limits);
            let (count, seen) = listed(&formula.cnf, search);
            assert_eq!(count, expected.len() as u128, "round {round}");
            assert_eq!(seen, expected, "round {round}");
        }
        let outcome = Search::<true>::new(&formula.cnf, false, Limits::default()).run();
        learnt += outcome.map(|o| o.stats.learnt_clauses).unwrap_or(0);
    }
    assert!(learnt > 60, "{learnt} clauses learnt");
}
