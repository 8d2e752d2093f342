//! The three pruning tests of the bounded search (runs to a fixed point, dead ends,
//! connectivity): each rejects only positions from which no winning game of the moves
//! left exists (the module documentation of `bounded` says why).

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
        if splits.iter().all(|&(h, v)| self.too_many_runs(span, h, v)) {
            self.cut_by_limit();
            self.profile.cut_by_runs += 1;
            return true;
        }
        self.dead_ends_or_cut_off(ball, span)
    }

    /// Numbers the maximal runs of free cells in `span`, per axis, in `run_of`, in one
    /// row-major pass (a cell continues the run of the cell before it on its axis).
    fn label_runs(&mut self, span: Span) {
        let w = self.width;
        self.runs[ROWS].clear();
        self.runs[COLS].clear();
        for r in span.top..=span.bottom {
            for c in span.left..=span.right {
                let p = r * w + c;
                if !self.free[p] {
                    continue;
                }
                for (axis, behind) in [(ROWS, p - 1), (COLS, p - w)] {
                    // The cell behind is outside the span only when it is not free.
                    self.run_of[axis][p] = if self.free[behind] {
                        self.run_of[axis][behind]
                    } else {
                        self.runs[axis].push(Run::default());
                        (self.runs[axis].len() - 1) as u32
                    };
                }
            }
        }
    }

    /// The run test with `h` horizontal and `v` vertical moves left: runs that need a
    /// move of their own, to a fixed point, against the moves available.
    fn too_many_runs(&mut self, span: Span, h: usize, v: usize) -> bool {
        let w = self.width;
        let limit = [h, v];
        let mut needing = [0usize; 2];
        for axis in [ROWS, COLS] {
            for run in &mut self.runs[axis] {
                run.needs_move = false;
            }
        }
        loop {
            let mut changed = false;
            for axis in [ROWS, COLS] {
                let other = 1 - axis;
                let (runs, across_runs) = {
                    let [rows, cols] = &mut self.runs;
                    if axis == ROWS {
                        (rows, &*cols)
                    } else {
                        (cols, &*rows)
                    }
                };
                for run in runs.iter_mut() {
                    run.uncovered = 0;
                }
                for r in span.top..=span.bottom {
                    let cells = r * w + span.left..r * w + span.right + 1;
                    let free = &self.free[cells.clone()];
                    let own = &self.run_of[axis][cells.clone()];
                    let across = &self.run_of[other][cells];
                    for ((&f, &o), &a) in free.iter().zip(own).zip(across) {
                        if f && !across_runs[a as usize].needs_move {
                            runs[o as usize].uncovered += 1;
                        }
                    }
                }
                // Cells of this run off the runs already needing a move of the other axis
                // are entered by moves of this axis or by other-axis moves on other runs,
                // at most one cell per such move.
                let spare = limit[other] - needing[other];
                for run in &mut self.runs[axis] {
                    if !run.needs_move && run.uncovered > spare {
                        run.needs_move = true;
                        needing[axis] += 1;
                        changed = true;
                    }
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
        let mut dead_ends = 0;
        // The ball's cell counts as a neighbour: the rest of the path leaves from it.
        self.free[ball] = true;
        for r in span.top..=span.bottom {
            let (lo, hi) = (r * w + span.left, r * w + span.right + 1);
            let free = &self.free;
            let neighbours = free[lo - 1..hi - 1]
                .iter()
                .zip(&free[lo + 1..hi + 1])
                .zip(free[lo - w..hi - w].iter().zip(&free[lo + w..hi + w]));
            for (i, (&here, ((&left, &right), (&up, &down)))) in
                free[lo..hi].iter().zip(neighbours).enumerate()
            {
                if !here || lo + i == ball {
                    continue;
                }
                match usize::from(left) + usize::from(right) + usize::from(up) + usize::from(down) {
                    0 => dead_ends = 2,
                    1 => dead_ends += 1,
                    _ => {}
                }
            }
            if dead_ends > 1 {
                break;
            }
        }
        self.free[ball] = false;
        if dead_ends > 1 {
            self.profile.cut_by_dead_ends += 1;
            return true;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.stack.clear();
        self.stack.push(ball);
        self.seen[ball] = stamp;
        let mut reached = 0;
        while let Some(p) = self.stack.pop() {
            for q in [p - 1, p + 1, p - w, p + w] {
                if self.free[q] && self.seen[q] != stamp {
                    self.seen[q] = stamp;
                    reached += 1;
                    self.stack.push(q);
                }
            }
        }
        let cut_off = reached != self.unvisited;
        if cut_off {
            self.profile.cut_by_connectivity += 1;
        }
        cut_off
    }
}
