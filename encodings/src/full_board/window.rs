//! What any winning game looks like inside a small window of the board: a relaxation
//! that shows where a game must begin or end.
//!
//! Take a rectangle `W` of the board and a winning game. The game visits every open
//! cell of `W` once, so restricted to `W` it is a set of path fragments: each fragment
//! enters `W` through its boundary from an open cell outside (or begins at the game's
//! start) and leaves the same way (or stops at the game's end). Inside `W` the rolling
//! rule holds as far as `W` can see it: a ball that entered a cell rolling in direction
//! `d` rolls on in `d` unless the next cell is an obstacle, the board's edge, a cell
//! visited earlier, or lies outside `W` (whose state is unknown, so stopping is allowed).
//! The encoding states exactly these facts, and nothing about the cells outside:
//!
//! - `step[c][d]` for `c` and `c + d` both open in `W`: the ball moves from `c` straight
//!   to `c + d` (the two are consecutive in the game). For an open neighbour `c + d`
//!   outside `W`, a free `leave_out[c][d]` (the ball steps out of `W` there) and a free
//!   `enter_in[c][d]` (the ball steps from `c - d` into `c` rolling in `d`).
//! - `start[c]`, `end[c]`: the game begins or ends on `c`.
//! - Every cell of `W` is entered exactly once (from a neighbour in `W`, from outside,
//!   or it is the start) and left exactly once (to a neighbour, to outside, or it is
//!   the end); it is never left back towards the open outside cell it came from.
//! - `before(c, c')`, one variable per unordered pair, transitive (no 3-cycle): the
//!   order in which the game visits the cells of `W`. A step goes to the next cell in
//!   this order (`step[c][d]` makes every cell after `c` other than `c + d` come after
//!   `c + d` too). The start comes before every other cell of `W`, the end after.
//! - The rolling rule: entered `c` rolling in `d`, with `c + d` open and in `W`, the ball
//!   steps on to `c + d` or `c + d` was visited before `c`.
//!
//! Soundness: a winning game gives a solution. Set `step`, `leave_out`, `enter_in`,
//! `start`, `end` from the game's consecutive cells, and `before` from the game's order.
//! Each open cell is visited once, entered from its predecessor (if any) and left to its
//! successor (if any), never back to its predecessor; consecutive cells of `W` are
//! consecutive in the restricted order; the start is the game's first cell and the end
//! its last; and the game's ball stops at `c` (entered rolling in `d`) only when `c + d`
//! is an obstacle, off the board, or visited earlier. So if the formula is unsatisfiable
//! with no `start` and no `end` in `W`, every winning game begins or ends in `W`; more
//! precisely, every endpoint of a winning game that lies in `W` is one of the cells `c`
//! for which the formula is satisfiable with `start[c] | end[c]`. A window of one dead
//! end cell (its only open neighbour outside the window, so it must be entered and left
//! through the same cell) is the dead-end rule. Windows that each need an endpoint
//! and that no two cells can all meet refute a map: a game has two endpoints.
//!
//! Size for a window of `w` open cells: `w(w-1)/2` order variables, at most `4w` step
//! and boundary variables, `2w` endpoint variables; `w(w-1)(w-2)/3` transitivity clauses,
//! at most `4w(w-2)` for steps to the next cell, `2(w-1)` per endpoint, and a few per
//! cell for exactly-one and the rolling rule.

use super::{Board, Cell, Dir};
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};

/// What lies next to a window cell in some direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Beside {
    /// An obstacle or the board's edge.
    Blocked,
    /// An open cell of the window (its number).
    Inside(usize),
    /// An open cell outside the window.
    Outside,
}

/// The relaxation over one window (see the module documentation).
#[derive(Clone, Debug)]
pub struct Window {
    cells: Vec<Cell>,
    /// `start[i]`, `end[i]` for the window's open cells (in `cells` order).
    start: Vec<Lit>,
    end: Vec<Lit>,
    enter: Vec<[Option<Lit>; 4]>,
    leave: Vec<[Option<Lit>; 4]>,
    order: Vec<Vec<Option<Lit>>>,
}

impl Window {
    /// The window of rows `top..=bottom` and columns `left..=right` (clipped to the
    /// board), stated in `cnf`.
    pub fn new(
        cnf: &mut Cnf,
        board: &Board,
        top: usize,
        left: usize,
        bottom: usize,
        right: usize,
    ) -> Window {
        let bottom = bottom.min(board.rows().saturating_sub(1));
        let right = right.min(board.cols().saturating_sub(1));
        let inside = |c: Cell| (top..=bottom).contains(&c.row) && (left..=right).contains(&c.col);
        let cells: Vec<Cell> = (top..=bottom)
            .flat_map(|r| (left..=right).map(move |c| Cell::new(r, c)))
            .filter(|&c| board.is_open(c))
            .collect();
        let number = |c: Cell| cells.iter().position(|&x| x == c);
        let w = cells.len();
        let beside: Vec<[Beside; 4]> = cells
            .iter()
            .map(|&c| {
                Dir::ALL.map(|d| match board.open_neighbour(c, d) {
                    None => Beside::Blocked,
                    Some(x) if inside(x) => Beside::Inside(number(x).expect("open, inside")),
                    Some(_) => Beside::Outside,
                })
            })
            .collect();

        // The visiting order: before[i][j] for i != j, one variable per pair.
        let mut order = vec![vec![None::<Lit>; w]; w];
        for (i, j) in (0..w).flat_map(|i| (i + 1..w).map(move |j| (i, j))) {
            let lit = cnf.fresh_lit();
            order[i][j] = Some(lit);
            order[j][i] = Some(!lit);
        }
        let before = |i: usize, j: usize| order[i][j].expect("distinct cells");
        for i in 0..w {
            for j in i + 1..w {
                for k in j + 1..w {
                    // No 3-cycle either way round: the order is transitive.
                    cnf.clause([!before(i, j), !before(j, k), !before(k, i)]);
                    cnf.clause([!before(j, i), !before(k, j), !before(i, k)]);
                }
            }
        }

        // leave[i][d]: the ball goes from cell i in direction d (to a window cell or
        // outside); enter[i][d]: the ball comes into cell i rolling in direction d.
        let mut leave = vec![[None::<Lit>; 4]; w];
        for i in 0..w {
            for d in Dir::ALL {
                if beside[i][d.index()] != Beside::Blocked {
                    leave[i][d.index()] = Some(cnf.fresh_lit());
                }
            }
        }
        let mut enter = vec![[None::<Lit>; 4]; w];
        for i in 0..w {
            for d in Dir::ALL {
                enter[i][d.index()] = match beside[i][d.opposite().index()] {
                    Beside::Blocked => None,
                    Beside::Inside(j) => leave[j][d.index()],
                    Beside::Outside => Some(cnf.fresh_lit()),
                };
            }
        }
        let start: Vec<Lit> = (0..w).map(|_| cnf.fresh_lit()).collect();
        let end: Vec<Lit> = (0..w).map(|_| cnf.fresh_lit()).collect();

        for i in 0..w {
            let ways_in: Vec<Lit> = enter[i]
                .iter()
                .flatten()
                .copied()
                .chain([start[i]])
                .collect();
            CardEncoding::Pairwise.exactly(cnf, &ways_in, 1);
            let ways_out: Vec<Lit> = leave[i].iter().flatten().copied().chain([end[i]]).collect();
            CardEncoding::Pairwise.exactly(cnf, &ways_out, 1);
            for j in (0..w).filter(|&j| j != i) {
                cnf.clause([!start[i], before(i, j)]);
                cnf.clause([!end[i], before(j, i)]);
            }
            for d in Dir::ALL {
                let (Some(into), Some(back)) =
                    (enter[i][d.index()], leave[i][d.opposite().index()])
                else {
                    continue;
                };
                // Never back to the cell the ball came from.
                cnf.clause([!into, !back]);
            }
            for d in Dir::ALL {
                let Beside::Inside(j) = beside[i][d.index()] else {
                    continue;
                };
                let step = leave[i][d.index()].expect("open neighbour");
                // A step goes to the next cell of the order.
                for k in (0..w).filter(|&k| k != i && k != j) {
                    cnf.clause([!step, !before(i, k), before(j, k)]);
                }
                cnf.implies(step, before(i, j));
                // The rolling rule: entered rolling in d, roll on unless j was visited.
                if let Some(into) = enter[i][d.index()] {
                    cnf.clause([!into, step, before(j, i)]);
                }
            }
        }
        Window {
            cells,
            start,
            end,
            enter,
            leave,
            order,
        }
    }

    /// The window's open cells, in the order of `endpoint`.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Assumptions: no game begins or ends in the window.
    pub fn no_endpoint(&self) -> Vec<Lit> {
        self.start.iter().chain(&self.end).map(|&l| !l).collect()
    }

    /// `(start, end)` literals of the `i`-th open cell.
    pub fn endpoint(&self, i: usize) -> (Lit, Lit) {
        (self.start[i], self.end[i])
    }
}

impl Window {
    /// Each open cell's place in the window's order, how the ball came in and went out
    /// (a direction letter, `S` start, `E` end) in a solution: for reports and tests.
    pub fn describe(&self, values: &[bool]) -> Vec<(Cell, usize, char, char)> {
        let w = self.cells.len();
        (0..w)
            .map(|i| {
                let rank = (0..w)
                    .filter(|&j| j != i && self.order[j][i].expect("distinct").eval(values))
                    .count();
                let dir_of = |lits: &[Option<Lit>; 4], endpoint: Lit, mark: char| {
                    if endpoint.eval(values) {
                        return mark;
                    }
                    Dir::ALL
                        .into_iter()
                        .find(|d| lits[d.index()].is_some_and(|l| l.eval(values)))
                        .map_or('?', |d| d.letter())
                };
                (
                    self.cells[i],
                    rank,
                    dir_of(&self.enter[i], self.start[i], 'S'),
                    dir_of(&self.leave[i], self.end[i], 'E'),
                )
            })
            .collect()
    }
}
