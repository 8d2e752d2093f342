//! The least-cost assignment of boxes to distinct goals (the Hungarian method), which
//! gives the matching lower bound on pushes: every box ends on its own goal and needs at
//! least its lone-box pushes to get there. `Matcher` keeps its work arrays between calls
//! and repairs a matching after one row changed, for searches that solve one matching
//! per position.

/// A cost that forbids its pair: no assignment may use it.
pub const FORBIDDEN: u32 = u32::MAX;

/// The least total cost of giving every row its own column (rows <= columns), with
/// `FORBIDDEN` entries left out; `None` when every assignment uses one. The Hungarian
/// method with potentials, O(rows^2 * columns).
pub fn min_cost_matching(costs: &[Vec<u32>]) -> Option<u32> {
    matching_with_potentials(costs).map(|(total, _)| total)
}

/// The least matching cost and column potentials `v` of an optimal dual solution: for
/// square `costs`, `sum over rows r of min over columns c of (costs[r][c] - v[c])`
/// (finite entries only) plus `sum of v` equals the least cost, and for any rows placed
/// on distinct columns the summed `costs - v` plus `sum of v` is at least it.
pub fn matching_with_potentials(costs: &[Vec<u32>]) -> Option<(u32, Vec<i64>)> {
    let mut matcher = Matcher::default();
    let total = matcher.solve(costs)?;
    Some((total, matcher.column_potentials().to_vec()))
}

/// The Hungarian method with its work arrays kept between calls, for searches that
/// solve many small matchings (one per position).
#[derive(Debug, Default)]
pub struct Matcher {
    u: Vec<i64>,
    v: Vec<i64>,
    owner: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
    /// The columns on the augmenting path of `insert_row` (scratch, not copied).
    path: Vec<usize>,
    /// The cost standing for a `FORBIDDEN` pair in the last solve.
    forbidden: i64,
}

impl Clone for Matcher {
    fn clone(&self) -> Matcher {
        let mut copy = Matcher::default();
        copy.clone_from(self);
        copy
    }

    /// Reuses this matcher's arrays (searches save a matching per position).
    fn clone_from(&mut self, source: &Matcher) {
        self.u.clone_from(&source.u);
        self.v.clone_from(&source.v);
        self.owner.clone_from(&source.owner);
        self.way.clone_from(&source.way);
        self.minv.clone_from(&source.minv);
        self.used.clone_from(&source.used);
        self.forbidden = source.forbidden;
    }
}

impl Matcher {
    /// The column potentials of the last `solve` (see `matching_with_potentials`).
    pub fn column_potentials(&self) -> &[i64] {
        self.v.get(1..).unwrap_or(&[])
    }

    /// The (row, column) pairs of the last matching, 0-based.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (1..self.owner.len())
            .filter(|&j| self.owner[j] != 0)
            .map(|j| (self.owner[j] - 1, j - 1))
    }

    /// The least matching cost of `costs` (rows <= columns, `FORBIDDEN` pairs left out), or
    /// `None` when every assignment uses a forbidden entry. A forbidden pair costs one
    /// more than all finite entries together, so a matching that uses one is
    /// recognisable by its total and the dual values stay small.
    pub fn solve(&mut self, costs: &[Vec<u32>]) -> Option<u32> {
        let forbidden: i64 = 1 + costs
            .iter()
            .flatten()
            .filter(|&&c| c != FORBIDDEN)
            .map(|&c| i64::from(c))
            .sum::<i64>();
        self.solve_with_forbidden_cost(costs, forbidden)
    }

    /// `solve` with a given cost for forbidden pairs, which must exceed every finite
    /// matching's total (and every later `resolve_row`'s, which keeps it).
    pub fn solve_with_forbidden_cost(&mut self, costs: &[Vec<u32>], forbidden: i64) -> Option<u32> {
        self.forbidden = forbidden;
        let rows = costs.len();
        if rows == 0 {
            self.v.clear();
            return Some(0);
        }
        let cols = costs[0].len();
        assert!(rows <= cols, "more rows than columns");
        let reset = |a: &mut Vec<i64>, len: usize| {
            a.clear();
            a.resize(len, 0);
        };
        // 1-based arrays as in the classic formulation; column 0 is a sentinel.
        reset(&mut self.u, rows + 1);
        reset(&mut self.v, cols + 1);
        self.owner.clear();
        self.owner.resize(cols + 1, 0);
        self.way.clear();
        self.way.resize(cols + 1, 0);
        for r in 1..=rows {
            self.insert_row(costs, r);
        }
        self.total(costs)
    }

    /// After `solve(base)` on a *square* matrix, the least matching cost of `costs`,
    /// which equals `base` except in row `row`, computed into `out` by taking that row
    /// out of the matching and putting it back (one augmenting path instead of one per
    /// row). Sound because the other rows' dual values stay feasible and tight (their
    /// costs did not change), and with as many columns as rows every column ends
    /// matched, so the result is optimal as from scratch.
    pub fn resolve_row(&self, costs: &[Vec<u32>], row: usize, out: &mut Matcher) -> Option<u32> {
        self.copy_solved_into(costs, out);
        let r = row + 1;
        let matched = out
            .owner
            .iter()
            .skip(1)
            .position(|&o| o == r)
            .map(|j| j + 1);
        // Most repairs keep the row's column: when it is still among the row's cheapest
        // by reduced cost, the row's dual value set to that least reduced cost keeps
        // every pair feasible and the matched one tight, so the matching is optimal as
        // it stands (a pass over the row instead of an augmenting path over all).
        let reduced = |j: usize| cost(costs, row, j - 1, self.forbidden) - self.v[j];
        if let Some(m) = matched {
            let least = (1..out.v.len()).map(reduced).min().expect("a column");
            if reduced(m) == least {
                out.u[r] = least;
                return out.total(costs);
            }
            out.owner[m] = 0;
        }
        out.u[r] = 0;
        out.insert_row(costs, r);
        out.total(costs)
    }

    /// `resolve_row` for several `rows` at once: each taken out of the matching and put
    /// back in turn, one augmenting path each (sound for the same reason: the rows
    /// kept stay feasible and tight, and every column ends matched).
    pub fn resolve_rows(
        &self,
        costs: &[Vec<u32>],
        rows: &[usize],
        out: &mut Matcher,
    ) -> Option<u32> {
        self.copy_solved_into(costs, out);
        for o in out.owner.iter_mut().skip(1) {
            if *o != 0 && rows.contains(&(*o - 1)) {
                *o = 0;
            }
        }
        for &row in rows {
            out.u[row + 1] = 0;
            out.insert_row(costs, row + 1);
        }
        out.total(costs)
    }

    /// This solved matching into `out`, checked to be of a square matrix the size of
    /// `costs`, for a repair.
    fn copy_solved_into(&self, costs: &[Vec<u32>], out: &mut Matcher) {
        assert_eq!(
            costs.len(),
            costs[0].len(),
            "resolve_row needs a square matrix"
        );
        assert_eq!(
            self.u.len(),
            costs.len() + 1,
            "resolve_row needs a solved base"
        );
        let copy = |to: &mut Vec<i64>, from: &[i64]| {
            to.clear();
            to.extend_from_slice(from);
        };
        copy(&mut out.u, &self.u);
        copy(&mut out.v, &self.v);
        out.owner.clear();
        out.owner.extend_from_slice(&self.owner);
        out.way.clear();
        out.way.resize(self.way.len(), 0);
        out.forbidden = self.forbidden;
    }

    /// This solved matching with its rows renumbered, into `out`: row `r` becomes row
    /// `map[r]` (`map` a permutation of the rows). The matching, its cost and its dual
    /// values are the same, row for row, so `resolve_row` can start from it for a
    /// matrix whose rows come in the new order.
    pub fn permute_rows_into(&self, map: &[usize], out: &mut Matcher) {
        assert_eq!(self.u.len(), map.len() + 1, "one new place per row");
        out.u.clear();
        out.u.resize(self.u.len(), 0);
        out.u[0] = self.u[0];
        for (r, &to) in map.iter().enumerate() {
            out.u[to + 1] = self.u[r + 1];
        }
        out.v.clear();
        out.v.extend_from_slice(&self.v);
        out.owner.clear();
        out.owner.extend(
            self.owner
                .iter()
                .map(|&o| if o == 0 { 0 } else { map[o - 1] + 1 }),
        );
        out.way.clear();
        out.way.resize(self.way.len(), 0);
        out.forbidden = self.forbidden;
    }

    /// Adds row `r` (1-based) to the matching: one shortest augmenting path over the
    /// reduced costs, adjusting the dual values on the way. The scan over the columns
    /// runs on zipped slices (no index checks) and the dual update only over the columns
    /// the path has used: this is the search's innermost loop (a quarter of the reverse
    /// search's time on XSokoban 29).
    fn insert_row(&mut self, costs: &[Vec<u32>], r: usize) {
        let cols = costs[0].len();
        let forbidden = self.forbidden;
        let (u, v, owner, way) = (&mut self.u, &mut self.v, &mut self.owner, &mut self.way);
        owner[0] = r;
        let mut j0 = 0;
        self.minv.clear();
        self.minv.resize(cols + 1, i64::MAX);
        self.used.clear();
        self.used.resize(cols + 1, false);
        let (minv, used) = (&mut self.minv, &mut self.used);
        let path = &mut self.path;
        path.clear();
        // What has been taken off every unused column's `minv` so far: adding it back
        // when a column is read saves a pass over all of them per step.
        let mut taken: i64 = 0;
        loop {
            used[j0] = true;
            path.push(j0);
            let i0 = owner[j0];
            let row = &costs[i0 - 1][..cols];
            let ui = u[i0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            let columns = row
                .iter()
                .zip(&v[1..=cols])
                .zip(&mut minv[1..=cols])
                .zip(&mut way[1..=cols])
                .zip(&used[1..=cols]);
            for (j, ((((&c, &vj), mj), wj), &done)) in columns.enumerate() {
                if done {
                    continue;
                }
                let c = entry(c, forbidden);
                // `minv` as stored is `taken` above the true value.
                let cur = c - ui - vj + taken;
                if cur < *mj {
                    *mj = cur;
                    *wj = j0;
                }
                if *mj < delta {
                    delta = *mj;
                    j1 = j + 1;
                }
            }
            let delta = delta - taken;
            for &j in path.iter() {
                u[owner[j]] += delta;
                v[j] -= delta;
            }
            taken += delta;
            j0 = j1;
            if owner[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            owner[j0] = owner[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }

    fn total(&self, costs: &[Vec<u32>]) -> Option<u32> {
        let total: i64 = (1..self.owner.len())
            .filter(|&j| self.owner[j] != 0)
            .map(|j| cost(costs, self.owner[j] - 1, j - 1, self.forbidden))
            .sum();
        (total < self.forbidden).then(|| u32::try_from(total).expect("matching cost fits in u32"))
    }
}

fn cost(costs: &[Vec<u32>], r: usize, c: usize, forbidden: i64) -> i64 {
    entry(costs[r][c], forbidden)
}

/// A cost matrix entry as a matching cost: `forbidden` for a `FORBIDDEN` pair.
fn entry(c: u32, forbidden: i64) -> i64 {
    match c {
        FORBIDDEN => forbidden,
        c => i64::from(c),
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    fn brute_force(costs: &[Vec<u32>]) -> Option<u32> {
        let cols = costs.first().map_or(0, Vec::len);
        (0..cols)
            .permutations(costs.len())
            .filter_map(|perm| {
                perm.iter()
                    .enumerate()
                    .map(|(r, &c)| costs[r][c])
                    .try_fold(0u32, |acc, c| (c != FORBIDDEN).then(|| acc + c))
            })
            .min()
    }

    /// A seeded generator (xorshift), so failures reproduce.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn matching_potentials_give_the_matching_cost_back() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..400 {
            let n = 1 + (next() % 4) as usize;
            let costs: Vec<Vec<u32>> = (0..n)
                .map(|_| {
                    (0..n)
                        .map(|_| match next() % 7 {
                            0 => FORBIDDEN,
                            _ => (next() % 12) as u32,
                        })
                        .collect()
                })
                .collect();
            let Some((total, v)) = matching_with_potentials(&costs) else {
                assert_eq!(brute_force(&costs), None);
                continue;
            };
            assert_eq!(Some(total), brute_force(&costs), "{costs:?}");
            let rows: i64 = costs
                .iter()
                .map(|row| {
                    row.iter()
                        .zip(&v)
                        .filter(|(&c, _)| c != FORBIDDEN)
                        .map(|(&c, &p)| i64::from(c) - p)
                        .min()
                        .unwrap()
                })
                .sum();
            assert_eq!(rows + v.iter().sum::<i64>(), i64::from(total), "{costs:?}");
        }
    }

    /// A row of `n` random costs below 15, one in eight forbidden.
    fn random_row(next: &mut impl FnMut() -> u64, n: usize) -> Vec<u32> {
        (0..n)
            .map(|_| match next() % 8 {
                0 => FORBIDDEN,
                _ => (next() % 15) as u32,
            })
            .collect()
    }

    #[test]
    fn repairing_one_row_gives_the_matching_from_scratch() {
        let mut next = xorshift(0xD1B5_4A32_D192_ED03);
        let (mut base, mut repaired) = (Matcher::default(), Matcher::default());
        for _ in 0..600 {
            let n = 1 + (next() % 6) as usize;
            let mut costs: Vec<Vec<u32>> = (0..n).map(|_| random_row(&mut next, n)).collect();
            if base.solve_with_forbidden_cost(&costs, 1 << 40).is_none() {
                continue;
            }
            // A chain of repairs, each from the last: a row changed by at most one in
            // each entry (a push or pull: the repair's short cut keeps the row's column
            // mostly) or, as the repair must not rely on that, any new row.
            for step in 0..4 {
                let row = (next() % n as u64) as usize;
                costs[row] = if step % 2 == 0 {
                    costs[row]
                        .iter()
                        .map(|&c| match (c, next() % 3) {
                            (FORBIDDEN, _) => FORBIDDEN,
                            (c, 0) => c + 1,
                            (c, 1) => c.saturating_sub(1),
                            (c, _) => c,
                        })
                        .collect()
                } else {
                    random_row(&mut next, n)
                };
                let expected = brute_force(&costs);
                assert_eq!(
                    base.resolve_row(&costs, row, &mut repaired),
                    expected,
                    "{costs:?}"
                );
                if expected.is_none() {
                    break;
                }
                std::mem::swap(&mut base, &mut repaired);
            }
        }
    }

    #[test]
    fn repairing_several_rows_gives_the_matching_from_scratch() {
        // Chains of repairs, each of up to three rows changed at once (any new rows),
        // each from the last, against the brute force.
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let (mut base, mut repaired) = (Matcher::default(), Matcher::default());
        for _ in 0..600 {
            let n = 1 + (next() % 6) as usize;
            let mut costs: Vec<Vec<u32>> = (0..n).map(|_| random_row(&mut next, n)).collect();
            if base.solve_with_forbidden_cost(&costs, 1 << 40).is_none() {
                continue;
            }
            for _ in 0..4 {
                let mut rows: Vec<usize> = (0..1 + next() % 3)
                    .map(|_| (next() % n as u64) as usize)
                    .collect();
                rows.sort_unstable();
                rows.dedup();
                for &row in &rows {
                    costs[row] = random_row(&mut next, n);
                }
                let expected = brute_force(&costs);
                assert_eq!(
                    base.resolve_rows(&costs, &rows, &mut repaired),
                    expected,
                    "{costs:?} {rows:?}"
                );
                if expected.is_none() {
                    break;
                }
                std::mem::swap(&mut base, &mut repaired);
            }
        }
    }

    #[test]
    fn a_matching_with_its_rows_renumbered_repairs_like_the_original() {
        let mut next = xorshift(0x94D0_49BB_1331_11EB);
        let (mut base, mut moved, mut repaired) =
            (Matcher::default(), Matcher::default(), Matcher::default());
        for _ in 0..600 {
            let n = 1 + (next() % 6) as usize;
            let costs: Vec<Vec<u32>> = (0..n).map(|_| random_row(&mut next, n)).collect();
            if base.solve_with_forbidden_cost(&costs, 1 << 40).is_none() {
                continue;
            }
            // A random renumbering of the rows, then one row replaced.
            let mut map: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                map.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            let mut renumbered = vec![Vec::new(); n];
            for (r, row) in costs.iter().enumerate() {
                renumbered[map[r]] = row.clone();
            }
            let row = (next() % n as u64) as usize;
            renumbered[row] = random_row(&mut next, n);
            base.permute_rows_into(&map, &mut moved);
            assert_eq!(
                moved.resolve_row(&renumbered, row, &mut repaired),
                brute_force(&renumbered),
                "{costs:?} {map:?}"
            );
        }
    }

    #[test]
    fn matching_agrees_with_brute_force() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for _ in 0..400 {
            let rows = 1 + (next() % 4) as usize;
            let cols = rows + (next() % 3) as usize;
            let costs: Vec<Vec<u32>> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| match next() % 6 {
                            0 => FORBIDDEN,
                            k => (k * (next() % 7)) as u32,
                        })
                        .collect()
                })
                .collect();
            assert_eq!(min_cost_matching(&costs), brute_force(&costs), "{costs:?}");
        }
    }
}
