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
//!
//! Optionally (`tie_to_cover`) the moves are tied to a line cover with the stop rule
//! (see `lines`): per move and segment, "this move runs along this segment"; the cover
//! is exactly the set of segments run along, bounded per axis for a game of `K` moves.
//! Not all of the cover's variables are functions of the projection (the stop rule's
//! exemptions may be left unset, and the segment literals are pinned to the moves only
//! under `complete[K]`): harmless for enumeration by blocking clauses over the
//! projection, but a model count of the tied formula would count covers, not games.

use super::lines::{LineCover, Lines};
use super::{Board, CellIndex, Dir, Plan};
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
    /// The line cover the moves are tied to, if any (see `tie_to_cover`).
    tie: Option<Tie>,
}

/// The tie between the moves and a line cover: per axis (0: rows, horizontal moves;
/// 1: columns, vertical moves) and segment, whether a move so far ran along it.
#[derive(Clone, Debug)]
struct Tie {
    cover: LineCover,
    used: [Vec<Option<Lit>>; 2],
}

impl Tie {
    fn lines(&self, axis: usize) -> &Lines {
        if axis == 0 {
            self.cover.rows()
        } else {
            self.cover.cols()
        }
    }
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
            tie: None,
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
        self.bound_cover(cnf, self.complete.len() - 1);
    }

    /// Ties the moves to `cover` (stated in the same `cnf`, over the same board): the
    /// cover's segments are exactly those some move runs along (a horizontal move runs
    /// along the row segment of the cells it passes, a vertical one along the column
    /// segment), and a game of exactly `k` moves (under `complete_after(k)`) uses at
    /// most `⌈k/2⌉` row segments and `⌊k/2⌋` column segments when its first move is
    /// horizontal, the other way round when it is vertical (moves alternate between the
    /// axes), and its stop-rule exemptions are its first and last cells. Sound because
    /// the segments of a game's moves form a cover obeying the stop rule with the game's
    /// endpoints exempt (see `lines`): these clauses restate that for the game being
    /// built, so the solver prunes plans whose lines cannot all fit. Call before
    /// `add_move`. Cost per move: one variable per segment and axis and one for "used
    /// so far"; about `2n + 6s` clauses for `s` segments; per horizon `s + n + 6`.
    pub fn tie_to_cover(&mut self, cover: LineCover) {
        assert!(self.dirs.is_empty(), "tie the cover before the first move");
        let used = [
            vec![None; cover.rows().lit.len()],
            vec![None; cover.cols().lit.len()],
        ];
        self.tie = Some(Tie { cover, used });
    }

    /// The tie's clauses for one move: `dir` its direction, `pass` the cells it passes.
    fn tie_move(&mut self, cnf: &mut Cnf, dir: [Lit; 4], pass: &[Lit]) {
        let Some(tie) = &mut self.tie else {
            return;
        };
        for axis in 0..2 {
            let along = if axis == 0 {
                [dir[Dir::Left.index()], dir[Dir::Right.index()]]
            } else {
                [dir[Dir::Up.index()], dir[Dir::Down.index()]]
            };
            let lines = tie.lines(axis).clone();
            let on: Vec<Lit> = lines.lit.iter().map(|_| cnf.fresh_lit()).collect();
            let mut cells = vec![Vec::new(); on.len()];
            for (c, &s) in lines.of_cell.iter().enumerate() {
                cells[s].push(pass[c]);
                for go in along {
                    cnf.clause([!pass[c], !go, on[s]]);
                }
            }
            for (s, &on_s) in on.iter().enumerate() {
                cnf.clause([!on_s, along[0], along[1]]);
                cnf.clause(std::iter::once(!on_s).chain(cells[s].iter().copied()));
                cnf.implies(on_s, lines.lit[s]);
                let used = match tie.used[axis][s] {
                    None => on_s,
                    Some(before) => cnf.or_lit(&[before, on_s]),
                };
                tie.used[axis][s] = Some(used);
            }
        }
    }

    /// The tie's clauses for a game of exactly `k` moves.
    fn bound_cover(&self, cnf: &mut Cnf, k: usize) {
        let (Some(tie), Some(first)) = (&self.tie, self.dirs.first()) else {
            return;
        };
        let cover = &tie.cover;
        let done = self.complete[k];
        let [h0, h1] = [first[Dir::Left.index()], first[Dir::Right.index()]];
        let (more, fewer) = (k.div_ceil(2), k / 2);
        for lit in cover.beyond(more, fewer) {
            cnf.clause([!done, !lit, !h0]);
            cnf.clause([!done, !lit, !h1]);
        }
        for lit in cover.beyond(fewer, more) {
            cnf.clause([!done, !lit, h0, h1]);
        }
        // A segment in the cover is one some move ran along.
        for axis in 0..2 {
            for (s, &lit) in tie.lines(axis).lit.iter().enumerate() {
                match tie.used[axis][s] {
                    Some(used) => cnf.clause([!done, !lit, used]),
                    None => cnf.clause([!done, !lit]),
                }
            }
        }
        // The stop rule's exemptions are the game's first and last cells.
        let last = &self.at[k];
        for (c, (&start, &end)) in self.start.iter().zip(last).enumerate() {
            cnf.clause([!done, !cover.endpoint(c), start, end]);
        }
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
            for d in Dir::ALL {
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
            for d in Dir::ALL {
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
        self.tie_move(cnf, dir, &pass);
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
                Dir::ALL[d]
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
