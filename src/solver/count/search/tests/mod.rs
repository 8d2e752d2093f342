use super::*;

/// The witness search's learning (`learn.rs`), against the same brute force.
mod learning;

/// Resolving unprojected variables away first (`eliminate.rs`), against the same brute force.
mod eliminate;

/// Rows of a grid where each row holds at most one true cell and adjacent rows may
/// not both use the same column: many sub-problems, many cache hits.
fn grid_cnf(rows: usize, cols: usize) -> Cnf {
    let mut cnf = Cnf::new();
    let grid = gridsat_encodings::LitGrid::primary(&mut cnf, rows, cols);
    for r in 0..rows {
        let row = grid.row(r);
        gridsat_encodings::CardEncoding::SequentialCounter.at_most(&mut cnf, &row, 1);
        if r + 1 < rows {
            for c in 0..cols {
                cnf.clause([!grid.get(r, c), !grid.get(r + 1, c)]);
            }
        }
    }
    cnf
}

/// A row is empty or uses one column, which the next row may not use: a dynamic
/// program over the previous row's column.
fn expected(rows: usize, cols: usize) -> u128 {
    // State: the column used by the previous row, or none.
    let mut ways = vec![0u128; cols + 1];
    ways[cols] = 1;
    for _ in 0..rows {
        let mut next = vec![0u128; cols + 1];
        for (previous, &w) in ways.iter().enumerate() {
            for (column, slot) in next.iter_mut().enumerate() {
                // `cols` is the empty row, always allowed.
                if column == cols || column != previous {
                    *slot += w;
                }
            }
        }
        ways = next;
    }
    ways.iter().sum()
}

#[test]
fn a_tiny_cache_that_keeps_emptying_still_counts_exactly() {
    let cnf = grid_cnf(7, 4);
    let full = Search::<false>::new(&cnf, true, Limits::default())
        .run()
        .unwrap();
    assert_eq!(full.count, expected(7, 4));
    assert!(full.stats.cache_hits > 0);
    let mut small = Search::<false>::new(&cnf, true, Limits::default());
    small.cache.limit = 3;
    let outcome = small.run().unwrap();
    assert_eq!(outcome.count, expected(7, 4));
    assert!(outcome.stats.cache_evictions > 0);
}

/// Projected solutions by brute force: every assignment, its projection kept when
/// it satisfies every clause.
fn brute_force(cnf: &Cnf) -> std::collections::BTreeSet<Vec<bool>> {
    let n = cnf.num_vars();
    (0u32..1 << n)
        .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|values| cnf.is_satisfied_by(values))
        .map(|values| cnf.projection().iter().map(|v| values[v.index()]).collect())
        .collect()
}

/// Counts and lists with the given search, checking every listed assignment.
fn listed<const NATIVE: bool>(
    cnf: &Cnf,
    search: Search<NATIVE>,
) -> (Count, std::collections::BTreeSet<Vec<bool>>) {
    let outcome = search.run().expect("no give-up rule");
    let mut seen = std::collections::BTreeSet::new();
    if outcome.root.child != FALSE {
        let mut values = vec![false; cnf.num_vars()];
        outcome.dag.set(&outcome.root.lits, &mut values);
        let _ = outcome
            .dag
            .walk(outcome.root.child, &mut values, &mut |values| {
                // The search left out the counters of native constraints.
                for card in cnf.cardinalities() {
                    card.fill_aux(values);
                }
                assert!(cnf.is_satisfied_by(values));
                let projected: Vec<bool> =
                    cnf.projection().iter().map(|v| values[v.index()]).collect();
                assert!(seen.insert(projected), "a solution listed twice");
                std::ops::ControlFlow::Continue(())
            });
    }
    (outcome.count, seen)
}

/// A seeded generator (xorshift) of numbers below a bound, so failures reproduce.
fn below_from(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |below| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % below
    }
}

/// A random CNF over up to 11 variables, about a third of them not projected, with
/// clauses of 1 to 4 literals (repeated and opposite literals allowed).
fn random_cnf(next: &mut impl FnMut(u64) -> u64) -> Cnf {
    let n = 1 + next(11) as usize;
    let mut cnf = Cnf::new();
    let vars = random_vars(&mut cnf, n, || next(3) != 0);
    let count = next(3 * n as u64 + 1) as usize;
    random_clauses(&mut cnf, &vars, count, next);
    cnf
}

/// `n` fresh variables, each projected when `projected()` says so.
fn random_vars(cnf: &mut Cnf, n: usize, mut projected: impl FnMut() -> bool) -> Vec<Var> {
    (0..n)
        .map(|_| {
            if projected() {
                cnf.primary_var()
            } else {
                cnf.fresh_var()
            }
        })
        .collect()
}

/// `count` clauses of 1 to 4 literals over `vars` (repeated and opposite literals
/// allowed).
fn random_clauses(cnf: &mut Cnf, vars: &[Var], count: usize, next: &mut impl FnMut(u64) -> u64) {
    for _ in 0..count {
        let width = 1 + next(4) as usize;
        let clause: Vec<Lit> = (0..width)
            .map(|_| Lit::new(vars[next(vars.len() as u64) as usize], next(2) == 0))
            .collect();
        cnf.clause(clause);
    }
}

/// Without keys after decisions (what the search falls back to when its cache rarely
/// hits, `CACHE_TRIAL`), counts and listings still equal a brute force, on random
/// CNFs with random projections, and with keys as well.
#[test]
fn caching_only_at_analyses_counts_and_lists_exactly() {
    let mut next = below_from(0x2545_f491_4f6c_dd1d);
    for round in 0..300 {
        let cnf = random_cnf(&mut next);
        let expected = brute_force(&cnf);
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
    }
}

thread_local! {
    /// Stops of `stopped_at_every_step` whose live bound was above 0, on this test's
    /// thread: the live bound must not be sound only trivially either.
    static LIVE_PROVED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Runs `make(limits)` with at most 0, 1, 2, ... steps until it finishes, checking that
/// every stopped run proves a lower bound of `exact` and the finished one counts it.
/// Returns how many runs stopped, and how many of those proved more than 0.
fn stopped_at_every_step<const NATIVE: bool>(
    exact: u128,
    what: &str,
    make: impl Fn(Limits) -> Search<NATIVE>,
) -> (usize, usize) {
    let (mut stopped, mut proved) = (0, 0);
    for steps in 0.. {
        let limits = Limits {
            steps: Some(steps),
            ..Limits::default()
        };
        match make(limits).run() {
            Ok(outcome) => {
                assert_eq!(outcome.count, exact, "{what}, finished after {steps} steps");
                assert!(outcome.stats.decisions <= steps, "{what}");
                return (stopped, proved);
            }
            Err(interrupted) => {
                assert!(
                    interrupted.at_least.to_u128().is_some_and(|n| n <= exact),
                    "{what}: stopped after {steps} steps with at least {} of {exact}",
                    interrupted.at_least
                );
                assert!(interrupted.stats.decisions <= steps, "{what}");
                // The bound a progress line shows never claims more than the stop proved.
                let live = interrupted.live_at_least.to_u128();
                assert!(
                    live.is_some_and(|n| Some(n) <= interrupted.at_least.to_u128()),
                    "{what}: live bound {} above the {} proven after {steps} steps",
                    interrupted.live_at_least,
                    interrupted.at_least
                );
                stopped += 1;
                proved += usize::from(!interrupted.at_least.is_zero());
                LIVE_PROVED
                    .set(LIVE_PROVED.get() + usize::from(!interrupted.live_at_least.is_zero()));
            }
        }
    }
    unreachable!("a search with enough steps finishes")
}

/// A search stopped after any number of steps proves a lower bound of the brute force's
/// count, and the count itself once it has steps enough: on random CNFs (with and
/// without keys after decisions, keeping the DAG or not) and on random formulas with
/// native cardinality constraints. Some stops must prove more than 0, or the bounds
/// would be sound only trivially.
#[test]
fn a_search_stopped_at_any_step_proves_a_lower_bound() {
    let mut next = below_from(0x51ab_0cd3_77e2_9f01);
    let (mut stopped, mut proved) = (0, 0);
    for round in 0..400 {
        let cnf = random_cnf(&mut next);
        let exact = brute_force(&cnf).len() as u128;
        for cache_decisions in [true, false] {
            let what = format!("round {round}, keys {cache_decisions}");
            let (s, p) = stopped_at_every_step(exact, &what, |limits| {
                let limits = Limits {
                    dynamic_order: round % 3 == 0,
                    ..limits
                };
                let mut search = Search::<false>::new(&cnf, round % 2 == 0, limits);
                search.cache_decisions = cache_decisions;
                search
            });
            stopped += s;
            proved += p;
        }
    }
    for round in 0..200u64 {
        let formula = card_formula(0x0dd5_eed5 ^ round.wrapping_mul(0x9e37_79b9), true);
        let exact = brute_force_cards(&formula).len() as u128;
        let what = format!("native round {round}");
        let (s, p) = stopped_at_every_step(exact, &what, |limits| {
            if formula.cnf.cardinalities().is_empty() {
                panic!("{what}: no native constraint")
            }
            Search::<true>::new(&formula.cnf, false, limits)
        });
        stopped += s;
        proved += p;
    }
    let live = LIVE_PROVED.get();
    assert!(
        stopped > 1500 && proved > 700 && live > 300,
        "{stopped} stops, {proved} above 0, {live} with a live bound above 0"
    );
}

/// Independent components: a stop inside one of them proves the product only when the
/// other factors are known, and 0 otherwise, never more than the count.
#[test]
fn a_stop_among_components_bounds_their_product() {
    use gridsat_encodings::CardEncoding;
    // Three blocks of four cells, exactly two true in each: 6^3 solutions, three
    // components after the first analysis.
    let mut cnf = Cnf::new();
    for _ in 0..3 {
        let block: Vec<Lit> = (0..4).map(|_| cnf.primary_var().positive()).collect();
        CardEncoding::SequentialCounter.constrain(&mut cnf, &block, 2, 2);
    }
    let (stopped, proved) = stopped_at_every_step(216, "blocks", |limits| {
        Search::<true>::new(&cnf, false, limits)
    });
    assert!(
        stopped > 3 && proved > 0,
        "{stopped} stops, {proved} above 0"
    );

    // A small satisfiable chain and a larger unsatisfiable part (four pigeons, three
    // holes), which the search meets second: a stop while the chain is counted must
    // not prove the chain's solutions, as the product is 0.
    let mut cnf = Cnf::new();
    let chain: Vec<Lit> = (0..4).map(|_| cnf.primary_var().positive()).collect();
    for pair in chain.windows(2) {
        cnf.clause([pair[0], pair[1]]);
    }
    pigeons(&mut cnf, false);
    let (stopped, proved) = stopped_at_every_step(0, "chain and pigeons", |limits| {
        Search::<false>::new(&cnf, false, limits)
    });
    assert!(stopped > 3 && proved == 0, "{stopped} stops");
}

/// Four pigeons in three holes: unsatisfiable, and unit propagation does not see it.
fn pigeons(cnf: &mut Cnf, aux: bool) -> Vec<Vec<Lit>> {
    let holes: Vec<Vec<Lit>> = (0..4)
        .map(|_| {
            (0..3)
                .map(|_| {
                    if aux {
                        cnf.fresh_lit()
                    } else {
                        cnf.primary_var().positive()
                    }
                })
                .collect()
        })
        .collect();
    for pigeon in &holes {
        cnf.clause(pigeon.iter().copied());
    }
    for (a, first) in holes.iter().enumerate() {
        for second in &holes[a + 1..] {
            for (&x, &y) in first.iter().zip(second) {
                cnf.clause([!x, !y]);
            }
        }
    }
    holes
}

/// A witness search (for a part without projected variables) stopped before it found a
/// witness proves nothing: here there is none, behind a projected variable.
#[test]
fn a_stopped_witness_search_proves_nothing() {
    let mut cnf = Cnf::new();
    let x = cnf.primary_var().positive();
    let holes = pigeons(&mut cnf, true);
    cnf.clause([x, holes[0][0]]);
    let (stopped, _) = stopped_at_every_step(0, "pigeons behind x", |limits| {
        Search::<false>::new(&cnf, false, limits)
    });
    assert!(stopped > 10, "{stopped} stops");
}

/// Random 3-SAT past the threshold: nothing but dead ends. The give-up rule must
/// stop the search whether or not it caches after every decision (without caching,
/// the recursion never passes through the cache, where a search that gave up
/// returns at once).
#[test]
fn a_hopeless_search_gives_up_with_and_without_keys() {
    let mut next = below_from(0x9e37_79b9_7f4a_7c15);
    let mut cnf = Cnf::new();
    let vars: Vec<Var> = (0..150).map(|_| cnf.primary_var()).collect();
    for _ in 0..750 {
        let clause: Vec<Lit> = (0..3)
            .map(|_| Lit::new(vars[next(150) as usize], next(2) == 0))
            .collect();
        cnf.clause(clause);
    }
    let rule = GiveUp {
        min_dead_decisions: 2_000,
        ratio: 16,
    };
    for cache_decisions in [true, false] {
        let mut search = Search::<false>::new(
            &cnf,
            true,
            Limits {
                give_up: Some(rule),
                ..Limits::default()
            },
        );
        search.cache_decisions = cache_decisions;
        let stats = search.run().err().expect("the search gives up").stats;
        // It stops right after the decision that met the rule.
        let limit = rule.min_dead_decisions + rule.min_dead_decisions / rule.ratio + 150;
        assert!(
            stats.decisions <= limit,
            "keys {cache_decisions}: {stats:?}"
        );
    }
}

/// A random formula over `n` base variables (some projected, some gates of three or
/// more projected literals, which the search decides first): random clauses, then
/// random cardinality constraints (any encoding, repeated and negated literals
/// allowed), then more clauses. `native` states the constraints through
/// `CardEncoding::constrain` (recorded: the search propagates them natively), else
/// through `between` (clauses only). Both build the same clauses.
struct CardFormula {
    cnf: Cnf,
    /// The variables not private to a cardinality counter.
    base: Vec<Var>,
    /// Each constraint's literals and bounds, for the brute force.
    bounds: Vec<(Vec<Lit>, usize, usize)>,
    /// The clauses besides the constraints', for the brute force.
    clauses: Vec<Vec<Lit>>,
}

fn card_formula(seed: u64, native: bool) -> CardFormula {
    use gridsat_encodings::CardEncoding;
    let mut next = below_from(seed);
    let n = 1 + next(9) as usize;
    let mut cnf = Cnf::new();
    let mut base: Vec<Var> = (0..n)
        .map(|_| {
            if next(4) == 0 {
                cnf.fresh_var()
            } else {
                cnf.primary_var()
            }
        })
        .collect();
    let projected: Vec<Var> = cnf.projection().to_vec();
    if projected.len() >= 3 && next(2) == 0 {
        let inputs: Vec<Lit> = (0..3 + next(projected.len() as u64 - 2) as usize)
            .map(|_| {
                Lit::new(
                    projected[next(projected.len() as u64) as usize],
                    next(3) > 0,
                )
            })
            .collect();
        base.push(cnf.and_lit(&inputs).var());
    }
    let mut clauses = Vec::new();
    let mut random_clauses = |cnf: &mut Cnf, next: &mut dyn FnMut(u64) -> u64, count| {
        for _ in 0..count {
            let width = 1 + next(4) as usize;
            let clause: Vec<Lit> = (0..width)
                .map(|_| Lit::new(base[next(base.len() as u64) as usize], next(2) == 0))
                .collect();
            cnf.clause(clause.iter().copied());
            clauses.push(clause);
        }
    };
    let count = next(n as u64 + 1);
    random_clauses(&mut cnf, &mut next, count);
    let mut bounds = Vec::new();
    for _ in 0..1 + next(3) {
        let width = 1 + next(6) as usize;
        let lits: Vec<Lit> = (0..width)
            .map(|_| Lit::new(base[next(base.len() as u64) as usize], next(3) > 0))
            .collect();
        let lo = next(width as u64 + 1) as usize;
        let hi = lo + next(width as u64 + 1) as usize;
        // Now and then an impossible or an empty bound.
        let (lo, hi) = match next(20) {
            0 => (hi + 1, hi),
            1 => (0, width + 1),
            _ => (lo, hi),
        };
        let encoding = CardEncoding::ALL[next(4) as usize];
        if native {
            encoding.constrain(&mut cnf, &lits, lo, hi);
        } else {
            encoding.between(&mut cnf, &lits, lo, hi);
        }
        bounds.push((lits, lo, hi));
    }
    let count = next(n as u64 / 2 + 1);
    random_clauses(&mut cnf, &mut next, count);
    CardFormula {
        cnf,
        base,
        bounds,
        clauses,
    }
}

/// Projected solutions by brute force over the base variables: every clause outside
/// the constraints and every bound, evaluated directly (the counters are not read).
fn brute_force_cards(formula: &CardFormula) -> std::collections::BTreeSet<Vec<bool>> {
    let cnf = &formula.cnf;
    let mut found = std::collections::BTreeSet::new();
    let mut values = vec![false; cnf.num_vars()];
    for bits in 0u32..1 << formula.base.len() {
        for (i, v) in formula.base.iter().enumerate() {
            values[v.index()] = bits >> i & 1 == 1;
        }
        let clauses = formula
            .clauses
            .iter()
            .all(|c| c.iter().any(|l| l.eval(&values)));
        // The gate (if any) is held by clauses outside `clauses`: check it too.
        let gates = cnf
            .clauses()
            .enumerate()
            .filter(|(i, _)| {
                !cnf.cardinalities()
                    .iter()
                    .any(|card| card.clauses.contains(i))
            })
            .all(|(_, c)| c.iter().any(|l| l.eval(&values)));
        let bounds = formula.bounds.iter().all(|(lits, lo, hi)| {
            let count = lits.iter().filter(|l| l.eval(&values)).count();
            lo <= &count && &count <= hi
        });
        if clauses && gates && bounds {
            found.insert(cnf.projection().iter().map(|v| values[v.index()]).collect());
        }
    }
    found
}

/// Native cardinality constraints mixed with clauses: counts and listings equal a
/// brute force over the base variables, natively and through the counters' clauses,
/// with keys and caching after every decision and without.
#[test]
fn native_cardinality_constraints_count_and_list_exactly() {
    let mut natively_propagated = 0;
    for round in 0..600u64 {
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (round + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
        let native = card_formula(seed, true);
        let plain = card_formula(seed, false);
        assert_eq!(native.cnf.to_dimacs_string(), plain.cnf.to_dimacs_string());
        assert!(plain.cnf.cardinalities().is_empty());
        let expected = brute_force_cards(&native);
        natively_propagated += native.cnf.cardinalities().len();
        for formula in [&native, &plain] {
            for cache_decisions in [true, false] {
                let natively = !formula.cnf.cardinalities().is_empty();
                // Native constraints also under the dynamic order, in every other round.
                let limits = Limits {
                    dynamic_order: natively && round % 2 == 1,
                    ..Limits::default()
                };
                let (count, seen) = if natively {
                    let mut search = Search::<true>::new(&formula.cnf, true, limits);
                    search.cache_decisions = cache_decisions;
                    listed(&formula.cnf, search)
                } else {
                    let mut search = Search::<false>::new(&formula.cnf, true, Limits::default());
                    search.cache_decisions = cache_decisions;
                    listed(&formula.cnf, search)
                };
                assert_eq!(
                    count,
                    expected.len() as u128,
                    "round {round}, native {natively}, keys {cache_decisions}"
                );
                assert_eq!(seen, expected, "round {round}, native {natively}");
            }
        }
    }
    assert!(natively_propagated >= 600);
}

/// Independent parts, each under its own cardinality constraint, split into
/// components whose counts multiply; a constraint that no longer restricts anything
/// drops out and lets its variables split.
#[test]
fn native_constraints_connect_their_variables_until_they_stop_restricting() {
    use gridsat_encodings::CardEncoding;
    // Three blocks of four cells, exactly two true in each: 6^3.
    let mut cnf = Cnf::new();
    for _ in 0..3 {
        let block: Vec<Lit> = (0..4).map(|_| cnf.primary_var().positive()).collect();
        CardEncoding::SequentialCounter.constrain(&mut cnf, &block, 2, 2);
    }
    let outcome = Search::<true>::new(&cnf, false, Limits::default())
        .run()
        .unwrap();
    assert_eq!(outcome.count, 216u128);
    assert!(outcome.stats.splits >= 1, "{:?}", outcome.stats);
    // At most 3 of 3 restricts nothing: 2^3 solutions, every variable free.
    let mut cnf = Cnf::new();
    let lits: Vec<Lit> = (0..3).map(|_| cnf.primary_var().positive()).collect();
    CardEncoding::Totalizer.constrain(&mut cnf, &lits, 0, 3);
    let outcome = Search::<true>::new(&cnf, false, Limits::default())
        .run()
        .unwrap();
    assert_eq!(outcome.count, 8u128);
    assert_eq!(outcome.stats.decisions, 0);
}

/// Recorded constraints are searched through their clauses by the search without
/// native bookkeeping, and by `run` when a counter register is projected (without
/// its clauses it would count as free).
#[test]
fn recorded_constraints_fall_back_to_their_clauses() {
    use gridsat_encodings::CardEncoding;
    let mut cnf = Cnf::new();
    let lits: Vec<Lit> = (0..4).map(|_| cnf.primary_var().positive()).collect();
    CardEncoding::SequentialCounter.constrain(&mut cnf, &lits, 1, 2);
    // C(4,1) + C(4,2)
    assert_eq!(run(&cnf, false, Limits::default()).unwrap().count, 10u128);
    let plain = Search::<false>::new(&cnf, false, Limits::default())
        .run()
        .unwrap();
    assert_eq!(plain.count, 10u128);
    assert!(
        plain.stats.assignments
            > Search::<true>::new(&cnf, false, Limits::default())
                .run()
                .unwrap()
                .stats
                .assignments
    );
    // A clause on the top register ("at least 2"): 6 left, 11 with projected
    // registers too (each a function of the inputs).
    let aux = cnf.cardinalities()[0].aux.clone();
    let mut shared = cnf.clone();
    shared.clause([Var::from_index(aux.end - 2).positive()]);
    assert_eq!(run(&shared, false, Limits::default()).unwrap().count, 6u128);
    for v in aux {
        cnf.project(Var::from_index(v));
    }
    assert_eq!(run(&cnf, false, Limits::default()).unwrap().count, 10u128);
}

/// One clause of 3,000 literals: `2^3000 - 1` models, found with work linear in the
/// clause (two decisions and a cache hit per literal). Keys must drop the clause exactly
/// once, when its first literal becomes true: a key that drops it again below (or never)
/// names a sub-problem met before differently, and the hits are lost.
#[test]
fn one_wide_clause_is_counted_in_linear_work() {
    let n = 3_000;
    let mut cnf = Cnf::new();
    let lits: Vec<Lit> = (0..n).map(|_| cnf.primary_var().positive()).collect();
    cnf.clause(lits);
    let outcome = Search::<false>::new(&cnf, false, Limits::default())
        .run()
        .unwrap();
    assert!(
        outcome.count.add(&Count::ONE) == Count::pow2(n),
        "wrong count"
    );
    let stats = outcome.stats;
    assert!(stats.decisions <= 2 * n as u64 + 10, "{stats:?}");
    assert!(stats.cache_hits + 10 >= n as u64, "{stats:?}");
}
