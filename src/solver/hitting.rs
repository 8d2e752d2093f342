//! A smallest hitting set: the fewest elements that meet every one of some sets, found
//! with the SAT solver (a selector per element, a clause per set, and "at most k
//! selectors", for k = 1, 2, ... until it is satisfiable). The repair reports use it in
//! an implicit hitting-set loop: each witness that a repair does not exclude yet adds
//! the set of places that would exclude it.

use super::Session;
use super::SolverError;
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::cnf::Cnf;

/// The indices (into `0..universe`) of a smallest set meeting every set of `sets`, in
/// increasing order; `None` when some set is empty (nothing meets it).
pub fn smallest_hitting_set(
    universe: usize,
    sets: &[Vec<usize>],
) -> Result<Option<Vec<usize>>, SolverError> {
    if sets.iter().any(Vec::is_empty) {
        return Ok(None);
    }
    if sets.is_empty() {
        return Ok(Some(Vec::new()));
    }
    for k in 1..=universe {
        let mut cnf = Cnf::new();
        let chosen: Vec<_> = (0..universe)
            .map(|_| cnf.primary_var().positive())
            .collect();
        for set in sets {
            cnf.clause(set.iter().map(|&e| chosen[e]));
        }
        CardEncoding::SequentialCounter.at_most(&mut cnf, &chosen, k);
        if let Some(values) = Session::new(&cnf).solve()? {
            return Ok(Some(
                (0..universe).filter(|&e| chosen[e].eval(&values)).collect(),
            ));
        }
    }
    // Every element chosen meets every (non-empty) set.
    Ok(Some((0..universe).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest size by trying every subset.
    fn brute_force(universe: usize, sets: &[Vec<usize>]) -> usize {
        (0u32..1 << universe)
            .filter(|bits| sets.iter().all(|s| s.iter().any(|&e| bits >> e & 1 == 1)))
            .map(u32::count_ones)
            .min()
            .unwrap() as usize
    }

    #[test]
    fn it_is_as_small_as_the_smallest_subset_that_meets_every_set() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..200 {
            let universe = 1 + next(8);
            let sets: Vec<Vec<usize>> = (0..1 + next(6))
                .map(|_| {
                    let mut s: Vec<usize> = (0..1 + next(3)).map(|_| next(universe)).collect();
                    s.sort();
                    s.dedup();
                    s
                })
                .collect();
            let found = smallest_hitting_set(universe, &sets).unwrap().unwrap();
            assert!(sets.iter().all(|s| s.iter().any(|e| found.contains(e))));
            assert_eq!(found.len(), brute_force(universe, &sets), "{sets:?}");
        }
        assert_eq!(smallest_hitting_set(3, &[vec![0], vec![]]).unwrap(), None);
    }
}
