//! Per-move segments: one layer of variables per move, added one horizon at a time.
//!
//! Over the open cells `c` (n of them) and moves `m = 1..K`:
//! - `start[c]` (primary): the ball starts on `c`; exactly one.
//! - `dir[m][d]` (primary): move `m` rolls in direction `d`; exactly one of four.
//! - `pass[m][c]`: move `m` rolls into `c`. A passed cell is not visited before the move;
//!   it is entered from the cell behind it (the move's origin or a passed cell); a passed
//!   cell whose next cell ahead is open and unvisited is left straight ahead, so a move
//!   is one maximal run.
//! - `at[m][c]`: the ball stops on `c` after move `m` (a passed cell whose next cell is an
//!   obstacle, the edge, or visited); the origin of move `m + 1`, whose first cell
//!   ahead must be passed (a move covers at least one cell). `at[0] = start`.
//! - `visited[m][c] <-> visited[m-1][c] | pass[m][c]`, `visited[0] = start`.
//! - `complete[K]`: every cell is visited after move `K`, the assumption that asks for a
//!   winning game of exactly `K` moves (each move covers a new cell, so a game that is
//!   complete earlier cannot make move `K`).
//!
//! Every auxiliary variable is a function of `start` and `dir`, so solutions counted on
//! the projection are games. Size per move: `3n + 4` variables and at most `25n + 15`
//! clauses (per cell: 3 for `visited`, 2 for pass/at links, at most 5 per direction;
//! 7 for the direction's exactly-one and 8 for alternation), plus one variable and `n`
//! clauses for `complete`; the start costs one exactly-one over `n` literals.

use super::{Board, CellIndex, Direction, Plan};
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};

/// The growing encoding; `add_move` appends the next layer to the caller's `Cnf`.
#[derive(Clone, Debug)]
pub struct Segments {
    index: CellIndex,
    start: Vec<Lit>,
    /// `dirs[m - 1]` for move `m`.
    dirs: Vec<[Lit; 4]>,
    /// `at[m]` for `m = 0..=K`.
    at: Vec<Vec<Lit>>,
    visited: Vec<Vec<Lit>>,
    complete: Vec<Lit>,
}

impl Segments {
    /// Layer 0 (the start) and `complete[0]`.
    pub fn new(cnf: &mut Cnf, board: &Board) -> Segments {
        let index = CellIndex::new(board);
        cnf.begin_group("start");
        let start: Vec<Lit> = (0..index.len())
            .map(|_| cnf.primary_var().positive())
            .collect();
        CardEncoding::SequentialCounter.exactly(cnf, &start, 1);
        cnf.end_group();
        let mut segments = Segments {
            index,
            at: vec![start.clone()],
            visited: vec![start.clone()],
            start,
            dirs: Vec::new(),
            complete: Vec::new(),
        };
        segments.add_complete(cnf);
        segments
    }

    /// The number of move layers so far.
    pub fn horizon(&self) -> usize {
        self.dirs.len()
    }

    /// True when every open cell is visited after move `k` (`k <= horizon()`).
    pub fn complete_after(&self, k: usize) -> Lit {
        self.complete[k]
    }

    fn add_complete(&mut self, cnf: &mut Cnf) {
        let done = cnf.fresh_lit();
        for &v in self.visited.last().expect("layer 0 exists") {
            cnf.implies(done, v);
        }
        self.complete.push(done);
    }

    /// Appends move `horizon() + 1`.
    pub fn add_move(&mut self, cnf: &mut Cnf) {
        let n = self.index.len();
        let m = self.horizon() + 1;
        cnf.begin_group(&format!("move {m}"));
        let dir: [Lit; 4] = std::array::from_fn(|_| cnf.primary_var().positive());
        cnf.clause(dir);
        for a in 0..4 {
            for b in a + 1..4 {
                cnf.clause([!dir[a], !dir[b]]);
            }
        }
        if let Some(previous) = self.dirs.last() {
            // Implied, stated for propagation: a move stops where the cell ahead is
            // blocked and the cell behind is visited, so moves alternate between
            // horizontal and vertical.
            for d in Direction::ALL {
                let same_axis = [dir[d.index()], dir[d.opposite().index()]];
                cnf.clause([!previous[d.index()], !same_axis[0]]);
                cnf.clause([!previous[d.index()], !same_axis[1]]);
            }
        }
        let pass: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
        let at: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
        let visited: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
        let origin = &self.at[m - 1];
        let before = &self.visited[m - 1];
        for c in 0..n {
            // A move covers only cells not visited before it.
            cnf.clause([!pass[c], !before[c]]);
            cnf.implies(at[c], pass[c]);
            cnf.implies(before[c], visited[c]);
            cnf.implies(pass[c], visited[c]);
            cnf.clause([!visited[c], before[c], pass[c]]);
            for d in Direction::ALL {
                let go = dir[d.index()];
                match self.index.neighbour[c][d.opposite().index()] {
                    None => cnf.clause([!pass[c], !go]),
                    Some(b) => cnf.clause([!pass[c], !go, origin[b], pass[b]]),
                }
                match self.index.neighbour[c][d.index()] {
                    None => {
                        // Edge or obstacle ahead: no move starts this way, a run stops.
                        cnf.clause([!origin[c], !go]);
                        cnf.clause([!pass[c], !go, at[c]]);
                    }
                    Some(a) => {
                        cnf.clause([!origin[c], !go, pass[a]]);
                        cnf.clause([!pass[c], !go, before[a], pass[a]]);
                        cnf.clause([!pass[c], !go, !before[a], at[c]]);
                        cnf.clause([!at[c], !go, before[a]]);
                    }
                }
            }
        }
        self.dirs.push(dir);
        self.at.push(at);
        self.visited.push(visited);
        cnf.end_group();
        self.add_complete(cnf);
    }

    /// The game of `k` moves in a solution found under `complete_after(k)`.
    pub fn decode(&self, values: &[bool], k: usize) -> Plan {
        let start = self
            .start
            .iter()
            .position(|l| l.eval(values))
            .expect("exactly one start in every solution");
        let moves = self.dirs[..k]
            .iter()
            .map(|dir| {
                let d = dir
                    .iter()
                    .position(|l| l.eval(values))
                    .expect("exactly one direction per move");
                Direction::ALL[d]
            })
            .collect();
        Plan {
            start: self.index.cells[start],
            moves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_costs_what_the_doc_says() {
        let open = vec![true; 12];
        let board = Board::new(3, 4, open);
        let mut cnf = Cnf::new();
        let mut segments = Segments::new(&mut cnf, &board);
        segments.add_move(&mut cnf);
        let (vars, clauses) = (cnf.num_vars(), cnf.num_clauses());
        segments.add_move(&mut cnf);
        let n = 12;
        assert_eq!(cnf.num_vars() - vars, 3 * n + 4 + 1);
        assert!(cnf.num_clauses() - clauses <= 25 * n + 15 + n);
        assert_eq!(segments.horizon(), 2);
        assert_eq!(cnf.projection().len(), n + 8);
    }
}
