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
        if splits.iter().all(|&(h, v)| self.too_many_runs(h, v)) {
            self.cut_by_limit();
            self.profile.cut_by_runs += 1;
            return true;
        }
        self.dead_ends_or_cut_off(ball, span)
    }

    /// Numbers the maximal runs of free cells in `span`, per axis, in `run_of`, in one
    /// row-major pass (a cell continues the run of the cell before it on its axis), and
    /// records each run's first cell and length.
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
                for (axis, step) in [(ROWS, 1), (COLS, w)] {
                    // The cell behind is outside the span only when it is not free.
                    let run = if self.free[p - step] {
                        self.run_of[axis][p - step]
                    } else {
                        self.runs[axis].push(Run {
                            first: p as u32,
                            ..Run::default()
                        });
                        (self.runs[axis].len() - 1) as u32
                    };
                    self.run_of[axis][p] = run;
                    // The run ends here: its length, once (no count kept per cell).
                    if !self.free[p + step] {
                        let run = &mut self.runs[axis][run as usize];
                        run.len = ((p - run.first as usize) / step + 1) as u32;
                    }
                }
            }
        }
    }

    /// The run test with `h` horizontal and `v` vertical moves left: runs that need a
    /// move of their own, to a fixed point, against the moves available.
    ///
    /// Each run's count of cells off the other axis's needed runs is kept up to date as
    /// runs become needed (a newly needed run takes one from the count of every run
    /// crossing it), so a round costs a pass over the runs, not over the cells; the
    /// rounds and their outcome are those of recounting every cell in every round.
    fn too_many_runs(&mut self, h: usize, v: usize) -> bool {
        let w = self.width as u32;
        let limit = [h, v];
        let mut needing = [0usize; 2];
        for axis in [ROWS, COLS] {
            for run in &mut self.runs[axis] {
                run.needs_move = false;
                run.uncovered = run.len as usize;
            }
        }
        loop {
            let mut changed = false;
            for axis in [ROWS, COLS] {
                let other = 1 - axis;
                let step = if axis == ROWS { 1 } else { w };
                // Cells of this run off the runs already needing a move of the other axis
                // are entered by moves of this axis or by other-axis moves on other runs,
                // at most one cell per such move.
                let spare = limit[other] - needing[other];
                let [rows, cols] = &mut self.runs;
                let (runs, across) = if axis == ROWS {
                    (rows, cols)
                } else {
                    (cols, rows)
                };
                let across_of = &self.run_of[other];
                for run in runs.iter_mut() {
                    if run.needs_move || run.uncovered <= spare {
                        continue;
                    }
                    run.needs_move = true;
                    needing[axis] += 1;
                    changed = true;
                    // Its cells are now covered for the runs crossing it (whose own
                    // marking waits for the other axis's turn).
                    for k in 0..run.len {
                        let p = (run.first + k * step) as usize;
                        across[across_of[p] as usize].uncovered -= 1;
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
        // Connectivity, over the row runs `label_runs` numbered: a run reached reaches
        // every run above or below one of its cells.
        let rows = &self.runs[ROWS];
        let run_of = &self.run_of[ROWS];
        self.reached_run.clear();
        self.reached_run.resize(rows.len(), false);
        self.stack.clear();
        for q in [ball - 1, ball + 1, ball - w, ball + w] {
            if self.free[q] && !self.reached_run[run_of[q] as usize] {
                self.reached_run[run_of[q] as usize] = true;
                self.stack.push(run_of[q] as usize);
            }
        }
        let mut reached = 0;
        while let Some(i) = self.stack.pop() {
            let run = rows[i];
            reached += run.len as usize;
            let first = run.first as usize;
            for q in (first - w..first - w + run.len as usize)
                .chain(first + w..first + w + run.len as usize)
            {
                if self.free[q] && !self.reached_run[run_of[q] as usize] {
                    self.reached_run[run_of[q] as usize] = true;
                    self.stack.push(run_of[q] as usize);
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
