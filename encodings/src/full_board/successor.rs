//! Per-cell successor with a visiting order: no horizon.
//!
//! Over the open cells (n of them, `B = bits(n)`):
//! - `step[i][d]` (primary): the ball goes from cell `i` straight to its neighbour in
//!   direction `d`. `first[i]` / `last[i]`: the game starts / ends on `i`.
//!   Every cell has exactly one of {first, an incoming step} and exactly one of
//!   {last, an outgoing step}; exactly one cell is first and one is last.
//! - `time[i]`: `B` bits; `first[i] -> time[i] = 0`, `step[i][d] -> time[j] = time[i] + 1`
//!   (no overflow), so the steps form one path through every cell (no cycle can keep
//!   counting up). Carry prefixes `carry[i][b] = time[i]_0 & ... & time[i]_{b-1}` are
//!   shared by the cell's four steps.
//! - `earlier[j][i]` for neighbours: implies `time[j] < time[i]` (a one-sided
//!   comparator, `B` auxiliaries); one of `earlier[j][i]`, `earlier[i][j]` holds.
//! - Rolling: entering `i` in direction `d` (a step from the cell behind) with an open
//!   neighbour `j` ahead, the ball goes on to `j` unless `j` is earlier:
//!   `step[h][d] -> step[i][d] | earlier[j][i]`. Turning elsewhere is then only possible
//!   at an obstacle, the edge or a visited cell.
//! - `move_start[i]` holds when a step leaves `i` in a direction it did not enter in
//!   (every move begins with such a step); the number of moves is bounded by a unary
//!   counter over them, asked under an assumption.
//!
//! Size: about `4n` step variables, `n(2B + 2)` for times and carries, `4n(B + 1)` for
//! comparators; clauses about `n(16B + 40)` plus the counter.

use super::{Board, CellIndex, Dir, Plan};
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};

#[derive(Clone, Debug)]
pub struct Successor {
    index: CellIndex,
    first: Vec<Lit>,
    step: Vec<[Option<Lit>; 4]>,
    /// `at_least[j]` holds when the game has at least `j + 1` moves.
    at_least: Vec<Lit>,
}

fn bits_for(n: usize) -> usize {
    let mut b = 1;
    while (1usize << b) < n.max(2) {
        b += 1;
    }
    b
}

impl Successor {
    /// Encodes every winning game; `max_counted` caps the move counter (bounds above it
    /// cannot be asked for), `card` picks the counter's encoding.
    pub fn new(cnf: &mut Cnf, board: &Board, card: CardEncoding, max_counted: usize) -> Successor {
        let index = CellIndex::new(board);
        let n = index.len();
        let bits = bits_for(n);
        cnf.begin_group("path");
        let step: Vec<[Option<Lit>; 4]> = (0..n)
            .map(|i| index.neighbour[i].map(|j| j.map(|_| cnf.primary_var().positive())))
            .collect();
        let first: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
        let last: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
        // `entry[i][d]`: the step that enters `i` travelling in direction `d`.
        let entry: Vec<[Option<Lit>; 4]> = (0..n)
            .map(|i| {
                Dir::ALL.map(|d| {
                    index.neighbour[i][d.opposite().index()].and_then(|h| step[h][d.index()])
                })
            })
            .collect();
        for i in 0..n {
            let incoming: Vec<Lit> = std::iter::once(first[i])
                .chain(entry[i].iter().flatten().copied())
                .collect();
            CardEncoding::Pairwise.exactly(cnf, &incoming, 1);
            let outgoing: Vec<Lit> = std::iter::once(last[i])
                .chain(step[i].iter().flatten().copied())
                .collect();
            CardEncoding::Pairwise.exactly(cnf, &outgoing, 1);
        }
        CardEncoding::SequentialCounter.exactly(cnf, &first, 1);
        CardEncoding::SequentialCounter.exactly(cnf, &last, 1);
        cnf.begin_group("order");
        let time: Vec<Vec<Lit>> = (0..n)
            .map(|_| (0..bits).map(|_| cnf.fresh_lit()).collect())
            .collect();
        for i in 0..n {
            for &t in &time[i] {
                cnf.implies(first[i], !t);
            }
            // carry[b]: bits 0..b of time[i] are all one.
            let mut carry = vec![None; bits + 1];
            let mut prefix: Option<Lit> = None;
            for b in 0..=bits {
                carry[b] = prefix;
                if b < bits {
                    prefix = Some(match prefix {
                        None => time[i][0],
                        Some(p) => cnf.and_lit(&[p, time[i][b]]),
                    });
                }
            }
            for d in Dir::ALL {
                let (Some(go), Some(j)) = (step[i][d.index()], index.neighbour[i][d.index()])
                else {
                    continue;
                };
                for b in 0..bits {
                    let (x, y) = (time[i][b], time[j][b]);
                    match carry[b] {
                        // Bit 0 always flips.
                        None => {
                            cnf.clause([!go, x, y]);
                            cnf.clause([!go, !x, !y]);
                        }
                        Some(c) => {
                            cnf.clause([!go, c, !x, y]);
                            cnf.clause([!go, c, x, !y]);
                            cnf.clause([!go, !c, !x, !y]);
                            cnf.clause([!go, !c, x, y]);
                        }
                    }
                }
                cnf.clause([!go, !carry[bits].expect("bits >= 1")]);
            }
        }
        // earlier[i][d]: the neighbour in direction d was visited before i.
        let mut earlier: Vec<[Option<Lit>; 4]> = vec![[None; 4]; n];
        for i in 0..n {
            for d in Dir::ALL {
                if let Some(j) = index.neighbour[i][d.index()] {
                    earlier[i][d.index()] = Some(less_than(cnf, &time[j], &time[i]));
                }
            }
        }
        for i in 0..n {
            for d in Dir::ALL {
                let Some(j) = index.neighbour[i][d.index()] else {
                    continue;
                };
                let (ji, ij) = (
                    earlier[i][d.index()].expect("neighbour exists"),
                    earlier[j][d.opposite().index()].expect("symmetric"),
                );
                if i < j {
                    cnf.clause([ji, ij]);
                    cnf.clause([!ji, !ij]);
                }
                if let Some(go) = step[i][d.index()] {
                    cnf.implies(go, ij);
                }
            }
        }
        cnf.begin_group("rolling");
        let mut move_start = Vec::with_capacity(n);
        for i in 0..n {
            for d in Dir::ALL {
                if let (Some(enter), Some(_)) = (entry[i][d.index()], index.neighbour[i][d.index()])
                {
                    let on = step[i][d.index()].expect("neighbour exists");
                    cnf.clause([!enter, on, earlier[i][d.index()].expect("neighbour exists")]);
                }
            }
            let starts = cnf.fresh_lit();
            for d in Dir::ALL {
                if let Some(go) = step[i][d.index()] {
                    match entry[i][d.index()] {
                        Some(enter) => cnf.clause([!go, enter, starts]),
                        None => cnf.clause([!go, starts]),
                    }
                }
            }
            move_start.push(starts);
        }
        cnf.begin_group("move counter");
        let counted = max_counted.min(n);
        let at_least = if counted == 0 {
            Vec::new()
        } else {
            card.unary_counter(cnf, &move_start, counted)
        };
        cnf.end_group();
        Successor {
            index,
            first,
            step,
            at_least,
        }
    }

    /// A literal that, assumed, allows at most `k` moves; `None` when `k` is beyond the
    /// counter (no bound needed or none available).
    pub fn at_most(&self, k: usize) -> Option<Lit> {
        self.at_least.get(k).map(|&l| !l)
    }

    /// The game in a solution.
    pub fn decode(&self, values: &[bool]) -> Plan {
        let mut at = self
            .first
            .iter()
            .position(|l| l.eval(values))
            .expect("exactly one first cell");
        let start = self.index.cells[at];
        let mut moves: Vec<Dir> = Vec::new();
        for _ in 1..self.index.len() {
            let d = Dir::ALL
                .into_iter()
                .find(|d| self.step[at][d.index()].is_some_and(|l| l.eval(values)))
                .expect("every cell but the last has a step");
            if moves.last() != Some(&d) {
                moves.push(d);
            }
            at = self.index.neighbour[at][d.index()].expect("steps go to neighbours");
        }
        Plan { start, moves }
    }
}

/// A literal that implies `x < y` (unsigned, least significant bit first).
fn less_than(cnf: &mut Cnf, x: &[Lit], y: &[Lit]) -> Lit {
    // below[b]: x < y on bits 0..=b.
    let mut lower: Option<Lit> = None;
    for b in 0..x.len() {
        let here = cnf.fresh_lit();
        cnf.clause([!here, !x[b], y[b]]);
        match lower {
            None => {
                cnf.clause([!here, !x[b]]);
                cnf.clause([!here, y[b]]);
            }
            Some(l) => {
                cnf.clause([!here, !x[b], l]);
                cnf.clause([!here, y[b], l]);
            }
        }
        lower = Some(here);
    }
    lower.expect("at least one bit")
}
