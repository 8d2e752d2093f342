//! A maximum bipartite matching over rows of bits (Kuhn's augmenting paths), its
//! buffers kept between calls.
//!
//! The shortfall (`capacity`) solves one for every new position of a forward search,
//! boxes against empty goals: a fifth of the box-move search's time on XSokoban 74 went
//! there when the graph was a `Vec<Vec<bool>>` built anew each time. Rows of bits make
//! "a column this row reaches and no one has tried yet" one AND per 64 columns, and a
//! greedy first pass matches most rows without a search.

/// A row with no column, or a column with no row.
const NONE: u32 = u32::MAX;

/// A bipartite graph of rows and columns and, after `solve`, a maximum matching.
#[derive(Default)]
pub(super) struct Bipartite {
    columns: usize,
    /// 64-bit words per row.
    words: usize,
    /// Row `r`'s columns: `edges[r * words..(r + 1) * words]`.
    edges: Vec<u64>,
    /// The row matched to each column (`NONE`: none).
    row_of: Vec<u32>,
    /// Columns tried in the current augmenting search, and columns matched.
    seen: Vec<u64>,
    taken: Vec<u64>,
    /// Rows the greedy pass left unmatched.
    unmatched: Vec<usize>,
}

impl Bipartite {
    /// Empties the graph and sets its number of columns.
    pub(super) fn reset(&mut self, columns: usize) {
        self.columns = columns;
        self.words = columns.div_ceil(64);
        self.edges.clear();
    }

    /// Adds a row with no edges; its number.
    pub(super) fn add_row(&mut self) -> usize {
        self.edges.resize(self.edges.len() + self.words, 0);
        self.rows() - 1
    }

    pub(super) fn rows(&self) -> usize {
        self.edges.len().checked_div(self.words).unwrap_or(0)
    }

    pub(super) fn columns(&self) -> usize {
        self.columns
    }

    pub(super) fn connect(&mut self, row: usize, column: usize) {
        self.edges[row * self.words + column / 64] |= 1 << (column % 64);
    }

    pub(super) fn connected(&self, row: usize, column: usize) -> bool {
        self.edges[row * self.words + column / 64] & (1 << (column % 64)) != 0
    }

    /// The row `solve` matched to `column`.
    pub(super) fn row_of(&self, column: usize) -> Option<usize> {
        let r = self.row_of[column];
        (r != NONE).then_some(r as usize)
    }

    /// A maximum matching; its size.
    pub(super) fn solve(&mut self) -> usize {
        let words = self.words;
        self.row_of.clear();
        self.row_of.resize(self.columns, NONE);
        self.taken.clear();
        self.taken.resize(words, 0);
        self.seen.resize(words, 0);
        let mut size = 0;
        let mut unmatched = std::mem::take(&mut self.unmatched);
        unmatched.clear();
        // Greedy first: a free column for each row, where there is one.
        for r in 0..self.rows() {
            let row = &self.edges[r * words..(r + 1) * words];
            match (0..words).find(|&w| row[w] & !self.taken[w] != 0) {
                Some(w) => {
                    let c = w * 64 + (row[w] & !self.taken[w]).trailing_zeros() as usize;
                    self.taken[w] |= 1 << (c % 64);
                    self.row_of[c] = r as u32;
                    size += 1;
                }
                None => unmatched.push(r),
            }
        }
        for &r in &unmatched {
            self.seen.iter_mut().for_each(|w| *w = 0);
            size += usize::from(self.augment(r));
        }
        self.unmatched = unmatched;
        size
    }

    /// Kuhn's step: a column for `r`, taken from its row when that row finds another.
    fn augment(&mut self, r: usize) -> bool {
        for w in 0..self.words {
            loop {
                let open = self.edges[r * self.words + w] & !self.seen[w];
                if open == 0 {
                    break;
                }
                let bit = open & open.wrapping_neg();
                self.seen[w] |= bit;
                let c = w * 64 + bit.trailing_zeros() as usize;
                let other = self.row_of[c];
                if other == NONE || self.augment(other as usize) {
                    self.row_of[c] = r as u32;
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest matching by trying every column for every row in turn.
    fn brute_force(edges: &[Vec<usize>], r: usize, used: &mut Vec<usize>) -> usize {
        if r == edges.len() {
            return 0;
        }
        let mut best = brute_force(edges, r + 1, used);
        for &c in &edges[r] {
            if !used.contains(&c) {
                used.push(c);
                best = best.max(1 + brute_force(edges, r + 1, used));
                used.pop();
            }
        }
        best
    }

    #[test]
    fn the_matching_is_as_large_as_the_best_assignment() {
        // Random graphs of up to 7 rows and up to 140 columns (so rows of one, two
        // and three words), sparse enough for the brute force; each matching against
        // the brute force's size, and every matched pair an edge of a distinct row.
        let mut seed = 12345u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let mut graph = Bipartite::default();
        for _ in 0..2000 {
            let rows = next(8) as usize;
            let columns = 1 + next(140) as usize;
            let per_row = 1 + next(4);
            let edges: Vec<Vec<usize>> = (0..rows)
                .map(|_| {
                    let mut row: Vec<usize> = (0..per_row)
                        .map(|_| next(columns as u64) as usize)
                        .collect();
                    row.sort_unstable();
                    row.dedup();
                    row
                })
                .collect();
            graph.reset(columns);
            for row in &edges {
                let r = graph.add_row();
                row.iter().for_each(|&c| graph.connect(r, c));
            }
            assert_eq!(graph.rows(), rows);
            let size = graph.solve();
            assert_eq!(size, brute_force(&edges, 0, &mut Vec::new()), "{edges:?}");
            let matched: Vec<usize> = (0..columns).filter_map(|c| graph.row_of(c)).collect();
            assert_eq!(matched.len(), size);
            let mut distinct = matched.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), size, "a row matched twice");
            for c in 0..columns {
                if let Some(r) = graph.row_of(c) {
                    assert!(graph.connected(r, c) && edges[r].contains(&c));
                }
            }
        }
    }
}
