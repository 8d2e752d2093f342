//! The independent check: the rules of the game replayed step by step, sharing no code
//! with the encodings or the searches; every game the program prints passes `replay`
//! first. Also a plain depth-first search over games, the brute force the tests compare
//! the solver with.

use gridsat_encodings::full_board::{Board, Cell, Dir, Plan};

/// What a replayed game did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub start: Cell,
    /// Every cell the ball entered, in order, with the direction it was rolling.
    pub entered: Vec<(Cell, Dir)>,
}

impl Trace {
    /// Where the ball ends.
    pub fn end(&self) -> Cell {
        self.entered.last().map_or(self.start, |&(c, _)| c)
    }
}

/// Why a plan is not a winning game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleViolation {
    #[error("the start cell ({}, {}) is not an open cell", .0.row, .0.col)]
    StartNotOpen(Cell),
    #[error("move {move_number} ({dir:?}) does not move the ball")]
    EmptyMove { move_number: usize, dir: Dir },
    #[error("{0} open cells are never visited")]
    Unvisited(usize),
}

/// The game being played: visited cells and the ball.
struct Game<'a> {
    board: &'a Board,
    visited: Vec<bool>,
    ball: Cell,
}

impl<'a> Game<'a> {
    fn new(board: &'a Board, start: Cell) -> Game<'a> {
        let mut visited = vec![false; board.rows() * board.cols()];
        visited[start.row * board.cols() + start.col] = true;
        Game {
            board,
            visited,
            ball: start,
        }
    }

    /// The next cell in `dir` if the ball may roll into it: on the board, not an
    /// obstacle, not visited.
    fn free_ahead(&self, dir: Dir) -> Option<Cell> {
        let (row, col) = (self.ball.row as isize, self.ball.col as isize);
        let (row, col) = match dir {
            Dir::Left => (row, col - 1),
            Dir::Up => (row - 1, col),
            Dir::Right => (row, col + 1),
            Dir::Down => (row + 1, col),
        };
        if row < 0 || col < 0 {
            return None;
        }
        let cell = Cell::new(row as usize, col as usize);
        let free = cell.row < self.board.rows()
            && cell.col < self.board.cols()
            && self.board.is_open(cell)
            && !self.visited[cell.row * self.board.cols() + cell.col];
        free.then_some(cell)
    }

    /// Rolls the ball in `dir` until something stops it; the cells entered, or `None`
    /// when the first cell is already blocked.
    fn roll(&mut self, dir: Dir) -> Option<Vec<Cell>> {
        let mut entered = Vec::new();
        while let Some(next) = self.free_ahead(dir) {
            self.visited[next.row * self.board.cols() + next.col] = true;
            self.ball = next;
            entered.push(next);
        }
        (!entered.is_empty()).then_some(entered)
    }

    fn undo(&mut self, entered: &[Cell], back_to: Cell) {
        for c in entered {
            self.visited[c.row * self.board.cols() + c.col] = false;
        }
        self.ball = back_to;
    }
}

fn open_count(board: &Board) -> usize {
    (0..board.rows())
        .flat_map(|r| (0..board.cols()).map(move |c| Cell::new(r, c)))
        .filter(|&c| board.is_open(c))
        .count()
}

/// Plays `plan` on `board`; `Ok` only if every move moves the ball and every open cell
/// ends up visited (then no further move is possible, so the game is over and won).
pub fn replay(board: &Board, plan: &Plan) -> Result<Trace, RuleViolation> {
    if !board.is_open(plan.start) {
        return Err(RuleViolation::StartNotOpen(plan.start));
    }
    let mut game = Game::new(board, plan.start);
    let mut trace = Trace {
        start: plan.start,
        entered: Vec::new(),
    };
    for (i, &dir) in plan.moves.iter().enumerate() {
        let cells = game.roll(dir).ok_or(RuleViolation::EmptyMove {
            move_number: i + 1,
            dir,
        })?;
        trace.entered.extend(cells.into_iter().map(|c| (c, dir)));
    }
    let unvisited = open_count(board) - 1 - trace.entered.len();
    if unvisited > 0 {
        return Err(RuleViolation::Unvisited(unvisited));
    }
    Ok(trace)
}

/// Every winning game with the fewest moves, by exhaustive depth-first search from every
/// start cell (exponential: for small boards and tests). `None` when no game wins.
pub fn brute_force_minimum(board: &Board) -> Option<(usize, Vec<Plan>)> {
    let total = open_count(board);
    if total == 0 {
        return None;
    }
    let mut best: Option<(usize, Vec<Plan>)> = None;
    for start in board.open_cells() {
        let mut game = Game::new(board, start);
        let mut moves = Vec::new();
        search(&mut game, start, total - 1, &mut moves, &mut best);
    }
    best
}

fn search(
    game: &mut Game,
    start: Cell,
    left: usize,
    moves: &mut Vec<Dir>,
    best: &mut Option<(usize, Vec<Plan>)>,
) {
    if left == 0 {
        let plan = Plan {
            start,
            moves: moves.clone(),
        };
        match best {
            Some((k, plans)) if *k == moves.len() => plans.push(plan),
            Some((k, _)) if *k < moves.len() => {}
            _ => *best = Some((moves.len(), vec![plan])),
        }
        return;
    }
    if best.as_ref().is_some_and(|(k, _)| moves.len() >= *k) {
        return;
    }
    for dir in Dir::ALL {
        let from = game.ball;
        if let Some(cells) = game.roll(dir) {
            moves.push(dir);
            search(game, start, left - cells.len(), moves, best);
            moves.pop();
            game.undo(&cells, from);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        let cols = rows[0].chars().count();
        let open = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == ' '))
            .collect();
        Board::new(rows.len(), cols, open)
    }

    #[test]
    fn a_move_rolls_until_blocked_and_must_move() {
        let b = board(&["   ", " # ", "   "]);
        let plan = Plan {
            start: Cell::new(0, 0),
            moves: vec![Dir::Right, Dir::Down, Dir::Left, Dir::Up],
        };
        let trace = replay(&b, &plan).unwrap();
        assert_eq!(trace.entered.len(), 7);
        assert_eq!(trace.end(), Cell::new(1, 0));
        let stuck = Plan {
            start: Cell::new(0, 0),
            moves: vec![Dir::Left],
        };
        assert!(matches!(
            replay(&b, &stuck),
            Err(RuleViolation::EmptyMove { .. })
        ));
        let short = Plan {
            start: Cell::new(0, 0),
            moves: vec![Dir::Right],
        };
        assert_eq!(replay(&b, &short), Err(RuleViolation::Unvisited(5)));
    }

    #[test]
    fn brute_force_on_a_ring() {
        // A 3x3 ring: from any of its 8 cells, either way round, the ball turns at three
        // corners after its first move: 4 moves, 16 games.
        let b = board(&["   ", " # ", "   "]);
        let (k, plans) = brute_force_minimum(&b).unwrap();
        assert_eq!(k, 4);
        assert_eq!(plans.len(), 16);
        for p in &plans {
            assert!(replay(&b, p).is_ok());
        }
    }
}
