//! The three pruning tests of the bounded search (runs to a fixed point, dead ends,
//! connectivity): each rejects only positions from which no winning game of the moves
//! left exists (the module documentation of `bounded` says why). Each works on the
//! unvisited cells as bit masks (`bits`): a few word operations per row or run.

use super::bits::{bit, fill, lonely, runs, transpose};
use super::search::{Axis, Run, Search, Span, COLS, ROWS};

impl Search<'_> {
    /// True when no winning game of the moves left continues from here (see the module
    /// documentation for why each test is sound).
    pub(super) fn hopeless(&mut self, ball: usize, next: Option<Axis>, span: Span) -> bool {
        let left = self.max_moves - self.moves.len();
        let (more, fewer) = (left.div_ceil(2), left / 2);
        // (h, v): the most horizontal and vertical moves left, per possible next axis.
        let splits: &[(usize, usize)] = match next {
            Some(Axis::Horizontal) => &[(more, fewer)],
            Some(Axis::Vertical) => &[(fewer, more)],
            None => &[(more, fewer), (fewer, more)],
        };
        self.label_runs(span);
        if splits.iter().all(|&(h, v)| self.too_many_runs(h, v)) {
            self.cut_by_limit();
            self.profile.cut_by_runs += 1;
            return true;
        }
        self.dead_ends_or_cut_off(ball, span)
    }

    /// Lists the maximal runs of free cells per axis (all inside `span`).
    fn label_runs(&mut self, span: Span) {
        let [rows, cols] = &mut self.runs;
        rows.clear();
        cols.clear();
        for (runs_of, lines, range) in [
            (rows, &self.lines[ROWS], span.top..=span.bottom),
            (cols, &self.lines[COLS], span.left..=span.right),
        ] {
            for line in range {
                runs_of.extend(runs(lines[line]).map(|cells| Run {
                    line,
                    cells,
                    needs_move: false,
                }));
            }
        }
    }

    /// The run test with `h` horizontal and `v` vertical moves left: runs that need a
    /// move of their own, to a fixed point, against the moves available.
    ///
    /// A newly needed run adds its cells to `needed` of its line; before an axis's turn,
    /// if the other axis's needed cells changed, `cover` is their transpose, so a run's
    /// cells off the other axis's needed runs are one mask and a count. The rounds and
    /// their outcome are those of recounting every cell in every round.
    fn too_many_runs(&mut self, h: usize, v: usize) -> bool {
        let limit = [h, v];
        let mut needing = [0usize; 2];
        for axis in [ROWS, COLS] {
            for run in &mut self.runs[axis] {
                run.needs_move = false;
            }
            self.needed[axis].fill(0);
            self.cover[axis].fill(0);
        }
        // Whether an axis's needed cells changed since the other axis's `cover` was made.
        let mut stale = [false; 2];
        loop {
            let mut changed = false;
            for axis in [ROWS, COLS] {
                let other = 1 - axis;
                if stale[other] {
                    self.cover[axis] = self.needed[other];
                    transpose(&mut self.cover[axis]);
                    stale[other] = false;
                }
                // Cells of this run off the runs already needing a move of the other axis
                // are entered by moves of this axis or by other-axis moves on other runs,
                // at most one cell per such move.
                let spare = limit[other] - needing[other];
                let cover = &self.cover[axis];
                let needed = &mut self.needed[axis];
                for run in self.runs[axis].iter_mut() {
                    if run.needs_move
                        || (run.cells & !cover[run.line]).count_ones() as usize <= spare
                    {
                        continue;
                    }
                    run.needs_move = true;
                    needed[run.line] |= run.cells;
                    needing[axis] += 1;
                    changed = true;
                    stale[axis] = true;
                }
                if needing[axis] > limit[axis] {
                    return true;
                }
            }
            if !changed {
                return false;
            }
        }
    }

    fn dead_ends_or_cut_off(&mut self, ball: usize, span: Span) -> bool {
        let w = self.width;
        let (ball_row, ball_col) = (ball / w, ball % w);
        let rows = &self.lines[ROWS];
        let free = |r: usize| rows[r];
        // The ball's cell counts as a neighbour: the rest of the path leaves from it.
        let with_ball = |r: usize| {
            if r == ball_row {
                rows[r] | bit(ball_col)
            } else {
                rows[r]
            }
        };
        let mut dead_ends = 0;
        for r in span.top..=span.bottom {
            let (none, one) = lonely(free(r), with_ball(r), with_ball(r - 1), with_ball(r + 1));
            if none != 0 {
                dead_ends = 2;
            } else {
                dead_ends += one.count_ones();
            }
            if dead_ends > 1 {
                break;
            }
        }
        if dead_ends > 1 {
            self.profile.cut_by_dead_ends += 1;
            return true;
        }
        // Connectivity: the free cells reached from the ball's neighbours, row by row,
        // each row's reached cells filled to their runs, in sweeps down and up the span
        // until a sweep reaches nothing new.
        let reach = &mut self.reach;
        reach[span.top - 1..=span.bottom + 1].fill(0);
        let ball_bit = bit(ball_col);
        // Each row's reached cells are whole runs (sweeps fill what they add).
        reach[ball_row] = fill(
            (ball_bit << 1 | ball_bit >> 1) & rows[ball_row],
            rows[ball_row],
        );
        for r in [ball_row - 1, ball_row + 1] {
            reach[r] = fill(ball_bit & rows[r], rows[r]);
        }
        let mut changed = true;
        while changed {
            changed = false;
            let down = span.top..=span.bottom;
            for r in down.clone().chain(down.rev()) {
                let seeds = reach[r] | ((reach[r - 1] | reach[r + 1]) & rows[r]);
                if seeds != reach[r] {
                    reach[r] = fill(seeds, rows[r]);
                    changed = true;
                }
            }
        }
        let reached: u32 = reach[span.top..=span.bottom]
            .iter()
            .map(|r| r.count_ones())
            .sum();
        let cut_off = reached as usize != self.unvisited;
        if cut_off {
            self.profile.cut_by_connectivity += 1;
        }
        cut_off
    }
}
