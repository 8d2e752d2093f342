//! Solving a Star Battle puzzle through the shared solver layer. Every placement that
//! leaves this module has passed `verify`.

use super::verify::verify;
use crate::solver::count::Count;
use crate::solver::{count_all, AllSolutions, Session, SolverError, Uniqueness};
use gridsat_encodings::star_battle::{encode, Encoded, LineRule, Options, Puzzle, Stars};
use gridsat_encodings::CardEncoding;
use std::ops::ControlFlow;

/// A puzzle together with the rules it is solved under.
#[derive(Clone, Debug)]
pub struct Problem {
    pub puzzle: Puzzle,
    pub stars: usize,
    pub rule: LineRule,
    pub card: CardEncoding,
}

#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error("the puzzle has {0} solutions: too many to list and sort in memory; use --count, or --limit N for some of them")]
    TooMany(String),
    #[error("internal error: the solver produced a placement that breaks the rules ({0}); please report this puzzle")]
    Rejected(super::verify::Violation),
}

/// None, one, or several solutions (two witnesses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    NoSolution,
    Unique(Stars),
    Multiple(Stars, Stars),
}

impl Problem {
    pub fn options(&self) -> Options {
        Options {
            stars: self.stars,
            line_rule: self.rule,
            card: self.card,
        }
    }

    pub fn encode(&self) -> Encoded {
        encode(&self.puzzle, &self.options())
    }

    fn checked(&self, encoded: &Encoded, values: &[bool]) -> Result<Stars, SolveError> {
        let stars = encoded.decode(values);
        verify(&self.puzzle, self.stars, self.rule, &stars).map_err(SolveError::Rejected)?;
        Ok(stars)
    }

    pub fn solve_one(&self) -> Result<Option<Stars>, SolveError> {
        let encoded = self.encode();
        match Session::new(&encoded.cnf).solve()? {
            None => Ok(None),
            Some(values) => self.checked(&encoded, &values).map(Some),
        }
    }

    /// Up to `limit` solutions (all when `None`), verified, in the documented order (see
    /// `order_solutions`).
    pub fn solve_all(&self, limit: Option<u64>) -> Result<Vec<Stars>, SolveError> {
        Ok(self.collect(limit)?.iter().collect())
    }

    /// Every solution (or, with a limit, that many of them), each verified, packed one
    /// bit per cell and sorted in the documented order.
    ///
    /// All solutions come from `AllSolutions` (the counting engine: millions list in
    /// seconds; blocking clauses when the engine gives up on a few). A limit uses
    /// blocking clauses alone, which answer a few solutions at once even where a full
    /// count is out of reach.
    pub fn collect(&self, limit: Option<u64>) -> Result<SolutionList, SolveError> {
        let encoded = self.encode();
        let cells = self.puzzle.rows * self.puzzle.cols;
        let mut list = SolutionList::new(self.puzzle.rows, self.puzzle.cols);
        let mut failure = None;
        let mut keep = |values: &[bool]| match self.checked(&encoded, values) {
            Ok(stars) => {
                list.push(&stars);
                ControlFlow::Continue(())
            }
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        };
        match limit {
            Some(limit) => {
                Session::new(&encoded.cnf).enumerate(Some(limit), keep)?;
            }
            None => {
                let solutions = AllSolutions::find(&encoded.cnf)?;
                let bytes = solutions
                    .count()
                    .to_u128()
                    .map(|n| n.saturating_mul(SolutionList::bytes_per_solution(cells) as u128));
                if bytes.is_none_or(|b| b > MAX_LIST_BYTES) {
                    return Err(SolveError::TooMany(solutions.count().to_string()));
                }
                // Only the cells are read: the counters' registers are not filled in.
                let _ = solutions.for_each_without_counters(&mut keep);
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        list.sort();
        Ok(list)
    }

    /// The number of solutions.
    pub fn count(&self) -> Result<Count, SolveError> {
        Ok(count_all(&self.encode().cnf)?)
    }

    pub fn uniqueness(&self) -> Result<Verdict, SolveError> {
        let encoded = self.encode();
        Ok(match Session::new(&encoded.cnf).uniqueness()? {
            Uniqueness::NoSolution => Verdict::NoSolution,
            Uniqueness::Unique(a) => Verdict::Unique(self.checked(&encoded, &a)?),
            Uniqueness::Multiple(a, b) => {
                Verdict::Multiple(self.checked(&encoded, &a)?, self.checked(&encoded, &b)?)
            }
        })
    }

    /// Per cell: `Some(true)` a star in every solution, `Some(false)` a star in none,
    /// `None` it depends. `None` overall when there is no solution.
    pub fn determined(&self) -> Result<Option<Vec<Option<bool>>>, SolveError> {
        let encoded = self.encode();
        let mut session = Session::new(&encoded.cnf);
        // The projection is exactly the star grid, row-major (see the encoder).
        debug_assert_eq!(encoded.cnf.projection().len(), encoded.stars.all().len());
        Ok(session.determined()?)
    }
}

/// Listing keeps every solution in memory to sort it; past this many bytes of packed
/// boards (about 30 million 14 x 14 boards) it refuses rather than exhaust memory.
const MAX_LIST_BYTES: u128 = 1 << 30;

/// Solutions packed one bit per cell, most significant bit first, so that comparing the
/// words compares the boards cell by cell in row-major order.
pub struct SolutionList {
    rows: usize,
    cols: usize,
    words: usize,
    bits: Vec<u64>,
    order: Vec<usize>,
}

impl SolutionList {
    fn new(rows: usize, cols: usize) -> SolutionList {
        SolutionList {
            rows,
            cols,
            words: (rows * cols).div_ceil(64),
            bits: Vec::new(),
            order: Vec::new(),
        }
    }

    fn bytes_per_solution(cells: usize) -> usize {
        cells.div_ceil(64) * 8 + std::mem::size_of::<usize>()
    }

    fn push(&mut self, stars: &Stars) {
        let start = self.bits.len();
        self.bits.resize(start + self.words, 0);
        for (i, _) in stars.star.iter().enumerate().filter(|(_, &s)| s) {
            self.bits[start + i / 64] |= 1 << (63 - i % 64);
        }
        self.order.push(self.order.len());
    }

    fn board(&self, index: usize) -> &[u64] {
        &self.bits[index * self.words..(index + 1) * self.words]
    }

    /// Puts the solutions in the documented order (see `order_solutions`).
    fn sort(&mut self) {
        let mut order = std::mem::take(&mut self.order);
        order.sort_unstable_by(|&a, &b| self.board(b).cmp(self.board(a)));
        self.order = order;
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The solutions in order, unpacked one at a time.
    pub fn iter(&self) -> impl Iterator<Item = Stars> + '_ {
        let cells = self.rows * self.cols;
        self.order.iter().map(move |&k| {
            let board = self.board(k);
            Stars {
                rows: self.rows,
                cols: self.cols,
                star: (0..cells)
                    .map(|i| board[i / 64] >> (63 - i % 64) & 1 == 1)
                    .collect(),
            }
        })
    }
}

/// The order gridsat lists solutions in: compare the boards cell by cell in row-major
/// order; at the first cell where they differ, the board with a star there comes first.
pub fn order_solutions(solutions: &mut [Stars]) {
    solutions.sort_by(|a, b| b.star.cmp(&a.star));
}
