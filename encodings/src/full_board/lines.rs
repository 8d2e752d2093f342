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
//! The stop rule sharpens the cover. Take a cell `x` at an end of its row segment (its
//! left or right neighbour is blocked) that is neither the game's first nor its last
//! cell. If no vertical move uses `x`'s column segment, a horizontal move covers `x`, so
//! `x` was entered horizontally (the move into `x` then stops at `x`, facing the blocked
//! side, and the next move leaves `x` vertically) or a horizontal move starts at `x`
//! (the previous move, vertical, ended at `x`); either way a vertical move uses `x`'s
//! column segment. So such a cell needs its column segment, and likewise a cell at an
//! end of its column segment needs its row segment, unless it is one of the game's two
//! endpoints. Also, a move covers its origin and at least one more cell, so a segment of
//! one cell carries no move and is never chosen (with the rule above, a dead-end cell
//! must then be an endpoint). If no cover satisfies this for any number of moves, no
//! game of at least one move exists at all: a proof of "No solution".
//!
//! Variables: one per row segment, one per column segment and one per cell (is it an
//! endpoint of the game); clauses: one per cell, one per segment end, an at-most-two
//! over the endpoints, plus two unary counters.

use super::{Board, CellIndex, Dir};
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};

/// The segments along one axis and their literals in the cover.
#[derive(Clone, Debug)]
pub struct Lines {
    /// `lit[s]`: segment `s` is in the cover.
    pub lit: Vec<Lit>,
    /// `of_cell[i]`: the segment of open cell `i` (numbered as in `CellIndex`).
    pub of_cell: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct LineCover {
    /// `rows_at_least[j]`: at least `j + 1` row segments are used.
    rows_at_least: Vec<Lit>,
    cols_at_least: Vec<Lit>,
    rows: Lines,
    cols: Lines,
    /// Per open cell: it is exempt from the stop rule as an endpoint of the game.
    endpoint: Vec<Lit>,
}

/// Numbers the maximal runs of open cells along `dir` (Right for rows, Down for
/// columns): `run[i]` for each cell, and how many runs there are.
fn runs(index: &CellIndex, dir: Dir) -> (Vec<usize>, usize) {
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
    /// The cover with the stop rule at segment ends.
    pub fn new(cnf: &mut Cnf, board: &Board, card: CardEncoding) -> LineCover {
        LineCover::build(cnf, board, card, true)
    }

    /// The plain cover, without the stop rule (weaker; kept to measure what the rule
    /// adds).
    pub fn without_stop_rule(cnf: &mut Cnf, board: &Board, card: CardEncoding) -> LineCover {
        LineCover::build(cnf, board, card, false)
    }

    fn build(cnf: &mut Cnf, board: &Board, card: CardEncoding, stop_rule: bool) -> LineCover {
        let index = CellIndex::new(board);
        let (row_run, row_count) = runs(&index, Dir::Right);
        let (col_run, col_count) = runs(&index, Dir::Down);
        let row: Vec<Lit> = (0..row_count).map(|_| cnf.fresh_lit()).collect();
        let col: Vec<Lit> = (0..col_count).map(|_| cnf.fresh_lit()).collect();
        if stop_rule {
            for (run, lits) in [(&row_run, &row), (&col_run, &col)] {
                let mut length = vec![0usize; lits.len()];
                for &r in run.iter() {
                    length[r] += 1;
                }
                for (lit, len) in lits.iter().zip(length) {
                    if len == 1 {
                        cnf.clause([!*lit]);
                    }
                }
            }
        }
        let endpoint: Vec<Lit> = (0..index.len()).map(|_| cnf.fresh_lit()).collect();
        CardEncoding::SequentialCounter.at_most(cnf, &endpoint, 2);
        for i in 0..index.len() {
            cnf.clause([row[row_run[i]], col[col_run[i]]]);
            if !stop_rule {
                continue;
            }
            let blocked = |d: Dir| index.neighbour[i][d.index()].is_none();
            if blocked(Dir::Left) || blocked(Dir::Right) {
                cnf.clause([col[col_run[i]], endpoint[i]]);
            }
            if blocked(Dir::Up) || blocked(Dir::Down) {
                cnf.clause([row[row_run[i]], endpoint[i]]);
            }
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
            rows: Lines {
                lit: row,
                of_cell: row_run,
            },
            cols: Lines {
                lit: col,
                of_cell: col_run,
            },
            endpoint,
        }
    }

    /// The row segments (horizontal lines).
    pub fn rows(&self) -> &Lines {
        &self.rows
    }

    /// The column segments (vertical lines).
    pub fn cols(&self) -> &Lines {
        &self.cols
    }

    /// The literal "open cell `i` is exempt from the stop rule" (at most two are; in a
    /// cover taken from a game, the game's first and last cells).
    pub fn endpoint(&self, i: usize) -> Lit {
        self.endpoint[i]
    }

    /// Literals that are true when more than `h` row segments or more than `v` column
    /// segments are used (the negations of `within(h, v)`).
    pub fn beyond(&self, h: usize, v: usize) -> Vec<Lit> {
        self.within(h, v).into_iter().map(|l| !l).collect()
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
