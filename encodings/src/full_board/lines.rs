//! A lower bound on the number of moves by covering cells with lines.
//!
//! A move covers cells of one row segment (a maximal horizontal run of open cells) or one
//! column segment, and moves alternate between horizontal and vertical (a move stops with
//! the cell ahead blocked and the cell behind visited). So a game of `K` moves has
//! `⌈K/2⌉` moves on one axis and `⌊K/2⌋` on the other. Every open cell but the start lies
//! on the segment of the move that entered it, and the start lies on the segment of the
//! first move (which leaves it along its row or column). So in a game of at least one
//! move the segments of the horizontal moves (at most `H` row segments) and of the
//! vertical ones (at most `V` column segments) cover every open cell. `LineCover` asks
//! whether such a cover exists for given `H` and `V`; the smallest `K` for which one does
//! is a sound lower bound (on an open rectangle it is exact: `2 * min(rows, cols) - 1`).
//!
//! Variables: one per row segment and one per column segment; clauses: one per cell
//! plus two unary counters.

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
        for i in 0..index.len() {
            cnf.clause([row[row_run[i]], col[col_run[i]]]);
        }
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
