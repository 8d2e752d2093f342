//! A lower bound on the number of moves by covering cells with lines.
//!
//! A move covers cells of one row segment (a maximal horizontal run of open cells) or one
//! column segment, and moves alternate between horizontal and vertical (a move stops with
//! the cell ahead blocked and the cell behind visited). So a game of `K` moves has
//! `⌈K/2⌉` moves on one axis and `⌊K/2⌋` on the other, and every open cell but the start
//! lies on the segment of some move: the segments of the horizontal moves (at most `H`
//! row segments) and of the vertical ones (at most `V` column segments) cover all open
//! cells but one. `LineCover` asks whether such a cover exists for given `H` and `V`;
//! the smallest `K` for which one does is a sound lower bound.
//!
//! Variables: one per row segment, one per column segment, one per cell ("the uncovered
//! cell"); clauses: one per cell plus an at-most-one and two unary counters.

use super::{Board, CellIndex, Direction};
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};

pub struct LineCover {
    /// `rows_at_least[j]`: at least `j + 1` row segments are used.
    rows_at_least: Vec<Lit>,
    cols_at_least: Vec<Lit>,
}

/// Numbers the maximal runs of open cells along `dir` (Right for rows, Down for
/// columns): `run[i]` for each cell, and how many runs there are.
fn runs(index: &CellIndex, dir: Direction) -> (Vec<usize>, usize) {
    let n = index.len();
    let mut run = vec![usize::MAX; n];
    let mut count = 0;
    for i in 0..n {
        if index.neighbour[i][dir.opposite().index()].is_some() {
            continue;
        }
        // `i` begins a run.
        let mut at = Some(i);
        while let Some(j) = at {
            run[j] = count;
            at = index.neighbour[j][dir.index()];
        }
        count += 1;
    }
    (run, count)
}

impl LineCover {
    pub fn new(cnf: &mut Cnf, board: &Board, card: CardEncoding) -> LineCover {
        let index = CellIndex::new(board);
        let (row_run, row_count) = runs(&index, Direction::Right);
        let (col_run, col_count) = runs(&index, Direction::Down);
        let row: Vec<Lit> = (0..row_count).map(|_| cnf.fresh_lit()).collect();
        let col: Vec<Lit> = (0..col_count).map(|_| cnf.fresh_lit()).collect();
        let uncovered: Vec<Lit> = (0..index.len()).map(|_| cnf.fresh_lit()).collect();
        for i in 0..index.len() {
            cnf.clause([row[row_run[i]], col[col_run[i]], uncovered[i]]);
        }
        card.at_most(cnf, &uncovered, 1);
        let counter = |cnf: &mut Cnf, lits: &[Lit]| {
            if lits.is_empty() {
                Vec::new()
            } else {
                card.unary_counter(cnf, lits, lits.len())
            }
        };
        LineCover {
            rows_at_least: counter(cnf, &row),
            cols_at_least: counter(cnf, &col),
        }
    }

    /// Assumptions for "at most `h` row segments and at most `v` column segments".
    pub fn within(&self, h: usize, v: usize) -> Vec<Lit> {
        let mut lits = Vec::new();
        if let Some(&l) = self.rows_at_least.get(h) {
            lits.push(!l);
        }
        if let Some(&l) = self.cols_at_least.get(v) {
            lits.push(!l);
        }
        lits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Lit;

    /// Brute force over all row/column segment choices of a tiny board.
    fn cover_exists(board: &Board, h: usize, v: usize) -> bool {
        let index = CellIndex::new(board);
        let (row_run, rows) = runs(&index, Direction::Right);
        let (col_run, cols) = runs(&index, Direction::Down);
        (0u32..1 << rows).any(|r| {
            (0u32..1 << cols).any(|c| {
                r.count_ones() as usize <= h
                    && c.count_ones() as usize <= v
                    && (0..index.len())
                        .filter(|&i| r >> row_run[i] & 1 == 0 && c >> col_run[i] & 1 == 0)
                        .count()
                        <= 1
            })
        })
    }

    fn satisfiable(cnf: &Cnf, assumptions: &[Lit]) -> bool {
        // Tiny formulas: try every assignment.
        let n = cnf.num_vars();
        assert!(n <= 24, "{n} variables");
        (0u64..1 << n).any(|bits| {
            let values: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            assumptions.iter().all(|l| l.eval(&values)) && cnf.is_satisfied_by(&values)
        })
    }

    #[test]
    fn cover_matches_brute_force_on_small_boards() {
        // 2 x 2 with one obstacle: 2 row segments, 2 column segments, 3 cells.
        let board = Board::new(2, 2, vec![true, false, true, true]);
        let mut cnf = Cnf::new();
        let cover = LineCover::new(&mut cnf, &board, CardEncoding::Pairwise);
        for h in 0..3 {
            for v in 0..3 {
                assert_eq!(
                    satisfiable(&cnf, &cover.within(h, v)),
                    cover_exists(&board, h, v),
                    "h={h} v={v}"
                );
            }
        }
    }
}
