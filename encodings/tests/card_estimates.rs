//! Every cardinality encoding's size estimate (`CardEncoding::estimated_clauses`, which
//! front ends use to refuse a formula before building it) is an upper bound on the
//! clauses it really writes, and not a wild one.

use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::cnf::Cnf;

#[test]
fn estimates_bound_the_clauses_written() {
    for encoding in CardEncoding::ALL {
        let mut worst: f64 = 0.0;
        for n in 1..=18 {
            for lo in 0..=n {
                for hi in lo..=n {
                    if encoding.estimated_clauses(n, lo, hi) > 50_000 {
                        continue; // pairwise's middle: too slow to build here
                    }
                    let mut cnf = Cnf::new();
                    let lits: Vec<_> = (0..n).map(|_| cnf.fresh_lit()).collect();
                    encoding.between(&mut cnf, &lits, lo, hi);
                    let real = cnf.num_clauses() as u128;
                    let estimate = encoding.estimated_clauses(n, lo, hi);
                    assert!(
                        real <= estimate,
                        "{encoding} n={n} {lo}..={hi}: {real} clauses, estimated {estimate}"
                    );
                    if real >= 20 {
                        worst = worst.max(estimate as f64 / real as f64);
                    }
                }
            }
        }
        // Loose, but of the right order: a guard that refuses a formula a hundred times
        // smaller than it thinks would refuse real puzzles.
        assert!(
            worst <= 12.0,
            "{encoding}: estimate up to {worst:.1} times the real size"
        );
    }
}

#[test]
fn pairwise_estimates_are_exact_binomials() {
    // At most 2 of 60 cells: C(60, 3) clauses; exactly 3 of 60: C(60, 4) + C(60, 58).
    assert_eq!(CardEncoding::Pairwise.estimated_clauses(60, 0, 2), 34_220);
    assert_eq!(
        CardEncoding::Pairwise.estimated_clauses(60, 3, 3),
        487_635 + 1_770
    );
    assert_eq!(gridsat_encodings::card::binomial(400, 200), u128::MAX);
}
