//! Every winning game of at most `K` moves, by a depth-first search over games that
//! prunes with three sound counting arguments: a proof that no shorter game exists
//! (or the list of all short games) where the line cover is tight.
//!
//! The search plays every start cell and, after each move, both directions of the other
//! axis (moves alternate between horizontal and vertical: a move stops with the cell
//! ahead blocked and the cell behind visited). Before expanding a position it asks
//! whether the rest of the game could still win within the moves left; if not, the
//! subtree is skipped. Let `U` be the unvisited open cells, `b` the ball's cell, and `h`
//! and `v` the most horizontal and vertical moves the remaining `R` moves can contain
//! (`⌈R/2⌉` on the axis of the next move, `⌊R/2⌋` on the other; before the first move
//! both splits are tried). The rest of a winning game enters every cell of `U` once:
//!
//! - **Runs, to a fixed point.** A horizontal move enters consecutive cells of one row,
//!   all unvisited when it is made, hence all inside one maximal horizontal run of `U`
//!   (runs only shrink as cells are visited); a vertical move enters at most one cell of
//!   a row. So the row runs some horizontal move enters (at most `h` of them) and the
//!   column runs some vertical move enters (at most `v`) together cover `U`. Call a run
//!   *needed* when every such cover contains it. If `k` column runs are known to be
//!   needed, a row run with more than `v - k` cells off those columns is needed: left
//!   out, each of those cells (all in different columns) would need its own column run
//!   besides the `k`. The same holds with the axes swapped; the rule is applied to both
//!   axes until nothing changes, and more than `h` needed row runs or `v` needed column
//!   runs is a dead position. Its first round is "a row run longer than `v` needs a
//!   horizontal move", the line cover's pigeonhole at the start of a game; re-applied
//!   after every move it forces most turns on boards where the cover is tight, which
//!   the SAT encodings do not find on their own.
//! - **Dead ends.** The rest of the game is a path from `b` through every cell of `U`,
//!   stepping between neighbours, so a cell of `U` with no neighbour in `U` or at `b`
//!   cannot be reached, and one with exactly one can only be the path's last cell: at
//!   most one such cell.
//! - **Connectivity.** Every cell of `U` is reachable from `b` through cells of `U`.
//!
//! Each test only rejects positions from which no winning game of the remaining length
//! exists, so every winning game of at most `K` moves is found, and every game found is
//! played by the rules (the search rolls the ball itself). The answer is therefore a
//! proof: an empty list proves that no game of at most `K` moves wins. If moreover no
//! branch was cut by the move limit or by the run test (`limit_mattered` false), the
//! search would run the same for every larger `K` (more moves left only weaken the run
//! test: a needed run's excess over the spare moves can only fall as `h` and `v` grow,
//! so the fixed point's needed sets shrink), so no game of any length wins.
//!
//! A finished search also returns its **frontier**: the positions its move limit or run
//! test cut. Dead ends and connectivity do not depend on the limit, so every winning
//! game longer than the limit passes through a frontier position (its first position
//! that was not expanded), and `games_beyond` continues the search from there with a
//! larger limit instead of repeating it; with a game's `n - 1` moves as the limit it
//! lists every winning game of any length. On set-2018 large map 1 (a 48 x 48 room with
//! five isolated obstacles) nearly every subtree dies by connectivity within about 100
//! nodes, so the search at 95 moves (157,520 nodes) and its continuation from the 3,818
//! cut positions (8,072 nodes) prove that no game of any length wins.
//!
//! The search is exponential in general; a budget bounds it, and running out of budget
//! proves nothing. It is fast exactly where the SAT encodings are slow: when the moves
//! left barely cover the rows and columns left, most turns are forced (on the 3-block
//! rooms of the course's large maps the search visits about 30 nodes per start cell).
//!
//! Cost per node: a few passes over the smallest rectangle holding the unvisited cells
//! (labelling the runs, one or two per round of the fixed point, the degrees) and one
//! flood fill.

use super::{Board, Cell, Dir, Plan};

/// What the search established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bounded {
    /// Every winning game of at most the asked number of moves, sorted (empty: none).
    Complete(Vec<Plan>),
    /// The budget ran out before the search was complete: nothing is proven.
    OverBudget,
}

/// The outcome and the work spent: nodes expanded, and nodes times board cells (the
/// unit of the budget, since every node costs a pass over the board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    pub outcome: Bounded,
    /// Some branch was cut by a test that depends on the move limit (the limit itself
    /// or the run test). When none was, the search is the same for every larger limit
    /// (the run test only weakens as the limit grows), so an empty list proves that no
    /// game of any length wins.
    pub limit_mattered: bool,
    pub nodes: u64,
    pub work: u64,
    /// Where the work went: which test cut how many positions, nodes per depth.
    pub profile: Profile,
    /// The positions (start cell and moves so far) that the move limit or the run test
    /// cut, or `None` when there were more than `FRONTIER_CAP`. Every winning game longer
    /// than the limit passes through one of them (see `games_beyond`).
    pub frontier: Option<Vec<Plan>>,
}

/// The most cut positions a search keeps for `games_beyond`.
pub const FRONTIER_CAP: usize = 1 << 18;

/// Counters of a search, for measuring where it spends its nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// Positions cut by the move limit itself.
    pub cut_by_limit: u64,
    /// Positions cut by the run test.
    pub cut_by_runs: u64,
    /// Positions cut by the dead-end test.
    pub cut_by_dead_ends: u64,
    /// Positions cut by the connectivity test.
    pub cut_by_connectivity: u64,
    /// Nodes expanded per number of moves made.
    pub nodes_at_depth: Vec<u64>,
}

impl Profile {
    /// The two profiles' counts added up (searches of disjoint start cells).
    pub fn merge(mut self, other: Profile) -> Profile {
        self.cut_by_limit += other.cut_by_limit;
        self.cut_by_runs += other.cut_by_runs;
        self.cut_by_dead_ends += other.cut_by_dead_ends;
        self.cut_by_connectivity += other.cut_by_connectivity;
        if self.nodes_at_depth.len() < other.nodes_at_depth.len() {
            self.nodes_at_depth.resize(other.nodes_at_depth.len(), 0);
        }
        for (a, b) in self.nodes_at_depth.iter_mut().zip(other.nodes_at_depth) {
            *a += b;
        }
        self
    }
}

/// Every winning game of at most `max_moves` moves on `board`, or `OverBudget` once
/// `budget` units of work (nodes times board cells) are spent.
pub fn games_within(board: &Board, max_moves: usize, budget: u64) -> SearchReport {
    games_from(board, &board.open_cells(), max_moves, budget)
}

/// The same for the games that start on one of `starts` (open cells): the searches from
/// disjoint sets of start cells are independent, so callers may run them in parallel and
/// `merge` the reports.
pub fn games_from(board: &Board, starts: &[Cell], max_moves: usize, budget: u64) -> SearchReport {
    let positions: Vec<Plan> = starts
        .iter()
        .map(|&start| Plan {
            start,
            moves: Vec::new(),
        })
        .collect();
    games_beyond(board, &positions, max_moves, budget)
}

/// Every winning game of at most `max_moves` moves that continues one of `positions`
/// (each a start cell and moves played from it by the rules, none of them a finished
/// game, no position a prefix of another), or `OverBudget`.
///
/// This continues a finished search with a larger limit without repeating it: a
/// search's tests other than the move limit and the run test (dead ends,
/// connectivity) do not depend on the limit, so along every winning game the first
/// position a search with a smaller limit did not expand was cut by the limit or the
/// run test, and is in that search's `frontier` (or the game was found). So when a
/// search with limit `k` finished, its games together with
/// `games_beyond(its frontier, m)` are every winning game of at most `m >= k` moves;
/// with `m = n - 1` (a game enters a new cell with every move) that is every winning
/// game of any length.
pub fn games_beyond(
    board: &Board,
    positions: &[Plan],
    max_moves: usize,
    budget: u64,
) -> SearchReport {
    let mut search = Search::new(board, max_moves, budget);
    let complete = search.run(positions).is_ok();
    let nodes = search.nodes;
    let work = nodes.saturating_mul(search.free.len() as u64);
    let outcome = if complete {
        let mut games = search.games;
        games.sort();
        Bounded::Complete(games)
    } else {
        Bounded::OverBudget
    };
    SearchReport {
        outcome,
        limit_mattered: search.limit_mattered,
        nodes,
        work,
        profile: search.profile,
        frontier: search.frontier,
    }
}

impl SearchReport {
    /// The report of the searches from two disjoint sets of start cells together.
    pub fn merge(self, other: SearchReport) -> SearchReport {
        let outcome = match (self.outcome, other.outcome) {
            (Bounded::Complete(mut a), Bounded::Complete(b)) => {
                a.extend(b);
                a.sort();
                Bounded::Complete(a)
            }
            _ => Bounded::OverBudget,
        };
        SearchReport {
            outcome,
            limit_mattered: self.limit_mattered || other.limit_mattered,
            nodes: self.nodes + other.nodes,
            work: self.work + other.work,
            profile: self.profile.merge(other.profile),
            frontier: match (self.frontier, other.frontier) {
                (Some(mut a), Some(b)) if a.len() + b.len() <= FRONTIER_CAP => {
                    a.extend(b);
                    Some(a)
                }
                _ => None,
            },
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Axis {
    Horizontal,
    Vertical,
}

impl Axis {
    fn of(dir: Dir) -> Axis {
        match dir {
            Dir::Left | Dir::Right => Axis::Horizontal,
            Dir::Up | Dir::Down => Axis::Vertical,
        }
    }

    fn other(self) -> Axis {
        match self {
            Axis::Horizontal => Axis::Vertical,
            Axis::Vertical => Axis::Horizontal,
        }
    }
}

/// The budget ran out.
struct OverBudget;

/// The rectangle (rows `top..=bottom`, columns `left..=right`, in framed coordinates)
/// that holds every unvisited cell; it only shrinks along a branch, so each node scans it
/// instead of the whole board.
#[derive(Copy, Clone, Debug)]
struct Span {
    top: usize,
    bottom: usize,
    left: usize,
    right: usize,
}

/// The board with a one-cell frame of blocked cells, so the ball's neighbours need no
/// bounds checks; cell `p` is `(row + 1) * width + col + 1`.
struct Search {
    width: usize,
    /// Open and not yet visited.
    free: Vec<bool>,
    unvisited: usize,
    max_moves: usize,
    budget_nodes: u64,
    nodes: u64,
    limit_mattered: bool,
    start: usize,
    moves: Vec<Dir>,
    /// Cells entered by the moves on the current branch, to undo them.
    trail: Vec<usize>,
    games: Vec<Plan>,
    /// Scratch for the run test: each free cell's row run and column run, and per run
    /// its length, whether it needs a move, and a count.
    run_of: [Vec<u32>; 2],
    runs: [Vec<Run>; 2],
    /// Flood-fill scratch: `seen[p] == stamp` marks cells reached in this fill.
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<usize>,
    profile: Profile,
    frontier: Option<Vec<Plan>>,
}

#[derive(Copy, Clone, Debug, Default)]
struct Run {
    /// Cells not on a run of the other axis that needs a move.
    uncovered: usize,
    needs_move: bool,
}

/// Axis index of the run scratch: 0 rows (horizontal moves), 1 columns (vertical).
const ROWS: usize = 0;
const COLS: usize = 1;

impl Search {
    fn new(board: &Board, max_moves: usize, budget: u64) -> Search {
        let width = board.cols() + 2;
        let height = board.rows() + 2;
        let mut free = vec![false; width * height];
        let mut open = 0;
        for cell in board.open_cells() {
            let p = (cell.row + 1) * width + cell.col + 1;
            free[p] = true;
            open += 1;
        }
        let cells = (width * height) as u64;
        Search {
            width,
            unvisited: open,
            max_moves,
            budget_nodes: budget / cells.max(1),
            nodes: 0,
            limit_mattered: false,
            start: 0,
            moves: Vec::new(),
            trail: Vec::new(),
            games: Vec::new(),
            run_of: [vec![0; free.len()], vec![0; free.len()]],
            runs: [Vec::new(), Vec::new()],
            seen: vec![0; free.len()],
            stamp: 0,
            stack: Vec::new(),
            profile: Profile::default(),
            frontier: Some(Vec::new()),
            free,
        }
    }

    fn cell(&self, p: usize) -> Cell {
        Cell::new(p / self.width - 1, p % self.width - 1)
    }

    fn step(&self, p: usize, dir: Dir) -> usize {
        match dir {
            Dir::Left => p - 1,
            Dir::Right => p + 1,
            Dir::Up => p - self.width,
            Dir::Down => p + self.width,
        }
    }

    fn run(&mut self, positions: &[Plan]) -> Result<(), OverBudget> {
        let height = self.free.len() / self.width;
        let whole = Span {
            top: 1,
            bottom: height - 2,
            left: 1,
            right: self.width - 2,
        };
        for position in positions {
            let start = position.start;
            let s = (start.row + 1) * self.width + start.col + 1;
            assert!(self.free[s], "a start cell is open");
            self.start = s;
            self.free[s] = false;
            self.unvisited -= 1;
            // Replay the moves (legal by the caller's contract: each enters a cell).
            let mut ball = s;
            for &dir in &position.moves {
                let before = self.trail.len();
                ball = self.roll(ball, dir);
                assert!(self.trail.len() > before, "a position's move enters a cell");
            }
            self.moves.clone_from(&position.moves);
            let next = position.moves.last().map(|&dir| Axis::of(dir).other());
            let result = self.expand(ball, next, whole);
            self.moves.clear();
            for p in self.trail.drain(..) {
                self.free[p] = true;
                self.unvisited += 1;
            }
            self.free[s] = true;
            self.unvisited += 1;
            result?;
        }
        Ok(())
    }

    /// Rolls the ball from `p` in `dir` until it is blocked, marking and recording the
    /// cells it enters; returns where it stops.
    fn roll(&mut self, p: usize, dir: Dir) -> usize {
        let mut at = p;
        loop {
            let ahead = self.step(at, dir);
            if !self.free[ahead] {
                return at;
            }
            self.free[ahead] = false;
            self.unvisited -= 1;
            self.trail.push(ahead);
            at = ahead;
        }
    }

    /// Records the current position as cut by the move limit or the run test.
    fn cut_by_limit(&mut self) {
        self.limit_mattered = true;
        let position = Plan {
            start: self.cell(self.start),
            moves: self.moves.clone(),
        };
        if let Some(frontier) = &mut self.frontier {
            if frontier.len() < FRONTIER_CAP {
                frontier.push(position);
            } else {
                self.frontier = None;
            }
        }
    }

    fn expand(&mut self, ball: usize, next: Option<Axis>, span: Span) -> Result<(), OverBudget> {
        self.nodes += 1;
        let depth = self.moves.len();
        if self.profile.nodes_at_depth.len() <= depth {
            self.profile.nodes_at_depth.resize(depth + 1, 0);
        }
        self.profile.nodes_at_depth[depth] += 1;
        if self.nodes > self.budget_nodes {
            return Err(OverBudget);
        }
        if self.unvisited == 0 {
            self.games.push(Plan {
                start: self.cell(self.start),
                moves: self.moves.clone(),
            });
            return Ok(());
        }
        if self.moves.len() >= self.max_moves {
            self.cut_by_limit();
            self.profile.cut_by_limit += 1;
            return Ok(());
        }
        let span = self.shrink(span);
        if self.hopeless(ball, next, span) {
            return Ok(());
        }
        for dir in Dir::ALL {
            if next.is_some_and(|axis| axis != Axis::of(dir)) {
                continue;
            }
            let mark = self.trail.len();
            let at = self.roll(ball, dir);
            let entered = self.trail.len() - mark;
            if entered == 0 {
                continue;
            }
            self.moves.push(dir);
            let result = self.expand(at, Some(Axis::of(dir).other()), span);
            self.moves.pop();
            for p in self.trail.drain(mark..) {
                self.free[p] = true;
            }
            self.unvisited += entered;
            result?;
        }
        Ok(())
    }

    /// The smallest rectangle inside `span` that still holds every free cell (there is
    /// at least one).
    fn shrink(&self, mut span: Span) -> Span {
        let w = self.width;
        let row_free = |r: usize, s: &Span| (s.left..=s.right).any(|c| self.free[r * w + c]);
        let col_free = |c: usize, s: &Span| (s.top..=s.bottom).any(|r| self.free[r * w + c]);
        while !row_free(span.top, &span) {
            span.top += 1;
        }
        while !row_free(span.bottom, &span) {
            span.bottom -= 1;
        }
        while !col_free(span.left, &span) {
            span.left += 1;
        }
        while !col_free(span.right, &span) {
            span.right -= 1;
        }
        span
    }

    /// True when no winning game of the moves left continues from here (see the module
    /// documentation for why each test is sound).
    fn hopeless(&mut self, ball: usize, next: Option<Axis>, span: Span) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn room(rows: usize, cols: usize) -> Board {
        Board::new(rows, cols, vec![true; rows * cols])
    }

    #[test]
    fn an_open_square_needs_2n_minus_1_moves() {
        // The line cover is exact on an open rectangle: 2 * 4 - 1 = 7 moves.
        let board = room(4, 4);
        assert_eq!(
            games_within(&board, 6, u64::MAX).outcome,
            Bounded::Complete(Vec::new())
        );
        let Bounded::Complete(games) = games_within(&board, 7, u64::MAX).outcome else {
            panic!("no budget limit");
        };
        assert!(!games.is_empty());
        assert!(games.iter().all(|g| g.moves.len() == 7));
    }

    #[test]
    fn one_open_cell_is_the_empty_game() {
        let board = Board::new(1, 2, vec![true, false]);
        let report = games_within(&board, 0, u64::MAX);
        assert_eq!(
            report.outcome,
            Bounded::Complete(vec![Plan {
                start: Cell::new(0, 0),
                moves: Vec::new()
            }])
        );
    }

    #[test]
    fn searches_from_split_starts_merge_into_the_whole() {
        let mut open = vec![true; 25];
        open[12] = false;
        let board = Board::new(5, 5, open);
        let whole = games_within(&board, 12, u64::MAX);
        let cells = board.open_cells();
        let part = |parity: usize| -> Vec<Cell> {
            cells.iter().skip(parity).step_by(2).copied().collect()
        };
        let merged = games_from(&board, &part(0), 12, u64::MAX).merge(games_from(
            &board,
            &part(1),
            12,
            u64::MAX,
        ));
        assert!(matches!(&whole.outcome, Bounded::Complete(g) if !g.is_empty()));
        assert_eq!(merged, whole);
    }

    #[test]
    fn a_small_budget_proves_nothing() {
        let report = games_within(&room(6, 6), 11, 10);
        assert_eq!(report.outcome, Bounded::OverBudget);
    }
}
