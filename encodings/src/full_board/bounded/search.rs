//! The search itself: the board with a frame, the ball rolled and rolled back, and the
//! depth-first expansion of positions (the pruning tests are in `prune`).

use super::super::{Board, Cell, Dir, Plan};
use super::bits::{bit, Square, MAX_SIDE};
use super::{Profile, FRONTIER_CAP};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Axis {
    Horizontal,
    Vertical,
}

impl Axis {
    pub(super) fn of(dir: Dir) -> Axis {
        match dir {
            Dir::Left | Dir::Right => Axis::Horizontal,
            Dir::Up | Dir::Down => Axis::Vertical,
        }
    }

    pub(super) fn other(self) -> Axis {
        match self {
            Axis::Horizontal => Axis::Vertical,
            Axis::Vertical => Axis::Horizontal,
        }
    }
}

/// Why a search stopped before it was complete.
pub(super) enum Halt {
    /// The budget of work ran out.
    OverBudget,
    /// The caller's stop test said so.
    Stopped,
}

/// How many nodes pass between two calls of the caller's stop test: often enough to
/// stop within a millisecond, rarely enough to cost nothing.
const STOP_POLL: u64 = 1024;

/// The rectangle (rows `top..=bottom`, columns `left..=right`, in framed coordinates)
/// that holds every unvisited cell; it only shrinks along a branch, so each node scans it
/// instead of the whole board.
#[derive(Copy, Clone, Debug)]
pub(super) struct Span {
    pub(super) top: usize,
    pub(super) bottom: usize,
    pub(super) left: usize,
    pub(super) right: usize,
}

/// The board with a one-cell frame of blocked cells, so the ball's neighbours need no
/// bounds checks; cell `p` is `(row + 1) * width + col + 1`.
pub(super) struct Search<'a> {
    pub(super) width: usize,
    /// Open and not yet visited.
    pub(super) free: Vec<bool>,
    /// The same cells as bit masks: `lines[ROWS][r]` has bit `c` for cell `(r, c)`,
    /// `lines[COLS][c]` bit `r` (see `bits`).
    pub(super) lines: [Vec<u64>; 2],
    pub(super) unvisited: usize,
    pub(super) max_moves: usize,
    pub(super) budget_nodes: u64,
    pub(super) nodes: u64,
    pub(super) limit_mattered: bool,
    pub(super) start: usize,
    pub(super) moves: Vec<Dir>,
    /// Cells entered by the moves on the current branch, to undo them.
    pub(super) trail: Vec<usize>,
    pub(super) games: Vec<Plan>,
    /// Scratch for the run test: the runs of each axis; per line of each axis the cells
    /// of its runs that need a move (`needed[ROWS][r]` columns of row `r`); and their
    /// transposes, per line the cells on the other axis's needed runs.
    pub(super) runs: [Vec<Run>; 2],
    pub(super) needed: [Square; 2],
    pub(super) cover: [Square; 2],
    /// Connectivity scratch: per row, the cells reached from the ball.
    pub(super) reach: Vec<u64>,
    pub(super) profile: Profile,
    pub(super) frontier: Option<Vec<Plan>>,
    /// The caller's stop test, asked every `STOP_POLL` nodes.
    stop: &'a dyn Fn() -> bool,
}

#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Run {
    /// The run's row (a row run) or column (a column run), and its cells as a mask of
    /// that line.
    pub(super) line: usize,
    pub(super) cells: u64,
    pub(super) needs_move: bool,
}

/// Axis index of the run scratch: 0 rows (horizontal moves), 1 columns (vertical).
pub(super) const ROWS: usize = 0;
pub(super) const COLS: usize = 1;

impl<'a> Search<'a> {
    pub(super) fn new(
        board: &Board,
        max_moves: usize,
        budget: u64,
        stop: &'a dyn Fn() -> bool,
    ) -> Search<'a> {
        let width = board.cols() + 2;
        let height = board.rows() + 2;
        assert!(
            width <= MAX_SIDE && height <= MAX_SIDE,
            "the bounded search takes boards of at most 60 x 60 cells"
        );
        let mut free = vec![false; width * height];
        let mut lines = [vec![0; height], vec![0; width]];
        let mut open = 0;
        for cell in board.open_cells() {
            let (r, c) = (cell.row + 1, cell.col + 1);
            free[r * width + c] = true;
            lines[ROWS][r] |= bit(c);
            lines[COLS][c] |= bit(r);
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
            runs: [Vec::new(), Vec::new()],
            needed: [[0; 64]; 2],
            cover: [[0; 64]; 2],
            reach: vec![0; height],
            lines,
            profile: Profile::default(),
            frontier: Some(Vec::new()),
            stop,
            free,
        }
    }

    pub(super) fn cell(&self, p: usize) -> Cell {
        Cell::new(p / self.width - 1, p % self.width - 1)
    }

    /// Marks the open cell `p` visited.
    fn take(&mut self, p: usize) {
        let (r, c) = (p / self.width, p % self.width);
        self.free[p] = false;
        self.lines[ROWS][r] &= !bit(c);
        self.lines[COLS][c] &= !bit(r);
        self.unvisited -= 1;
    }

    /// Marks the visited cell `p` unvisited again.
    fn give(&mut self, p: usize) {
        let (r, c) = (p / self.width, p % self.width);
        self.free[p] = true;
        self.lines[ROWS][r] |= bit(c);
        self.lines[COLS][c] |= bit(r);
        self.unvisited += 1;
    }

    fn step(&self, p: usize, dir: Dir) -> usize {
        match dir {
            Dir::Left => p - 1,
            Dir::Right => p + 1,
            Dir::Up => p - self.width,
            Dir::Down => p + self.width,
        }
    }

    pub(super) fn run(&mut self, positions: &[Plan]) -> Result<(), Halt> {
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
            self.take(s);
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
            while let Some(p) = self.trail.pop() {
                self.give(p);
            }
            self.give(s);
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
            self.take(ahead);
            self.trail.push(ahead);
            at = ahead;
        }
    }

    /// Records the current position as cut by the move limit or the run test.
    pub(super) fn cut_by_limit(&mut self) {
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

    fn expand(&mut self, ball: usize, next: Option<Axis>, span: Span) -> Result<(), Halt> {
        self.nodes += 1;
        let depth = self.moves.len();
        if self.profile.nodes_at_depth.len() <= depth {
            self.profile.nodes_at_depth.resize(depth + 1, 0);
        }
        self.profile.nodes_at_depth[depth] += 1;
        if self.nodes > self.budget_nodes {
            return Err(Halt::OverBudget);
        }
        if self.nodes.is_multiple_of(STOP_POLL) && (self.stop)() {
            return Err(Halt::Stopped);
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
            if self.trail.len() == mark {
                continue;
            }
            self.moves.push(dir);
            let result = self.expand(at, Some(Axis::of(dir).other()), span);
            self.moves.pop();
            while self.trail.len() > mark {
                let p = self.trail.pop().expect("a cell entered by this move");
                self.give(p);
            }
            result?;
        }
        Ok(())
    }

    /// The smallest rectangle inside `span` that still holds every free cell (there is
    /// at least one).
    fn shrink(&self, mut span: Span) -> Span {
        let [rows, cols] = &self.lines;
        while rows[span.top] == 0 {
            span.top += 1;
        }
        while rows[span.bottom] == 0 {
            span.bottom -= 1;
        }
        while cols[span.left] == 0 {
            span.left += 1;
        }
        while cols[span.right] == 0 {
            span.right -= 1;
        }
        span
    }
}
