//! The sound arguments that settle a map, or bound its minimum, before any search over
//! games: the cheap counting arguments, the window relaxation, and the line cover.

use super::context::Context;
use super::verdict::Refutation;
use crate::solver::{Session, SolverError};
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::cnf::Lit;
use gridsat_encodings::full_board::lines::LineCover;
use gridsat_encodings::full_board::window::Window;
use gridsat_encodings::full_board::{Board, Cell, CellIndex, Dir};
use std::collections::HashMap;

/// The cheap arguments, in order of cost; `None` when none applies.
pub fn refute(board: &Board) -> Option<Refutation> {
    let index = CellIndex::new(board);
    let n = index.len();
    if n == 0 {
        return Some(Refutation::NoOpenCell);
    }
    let mut region = vec![usize::MAX; n];
    let mut regions = 0;
    for seed in 0..n {
        if region[seed] != usize::MAX {
            continue;
        }
        let mut stack = vec![seed];
        region[seed] = regions;
        while let Some(i) = stack.pop() {
            for j in index.neighbour[i].iter().flatten() {
                if region[*j] == usize::MAX {
                    region[*j] = regions;
                    stack.push(*j);
                }
            }
        }
        regions += 1;
    }
    if regions > 1 {
        return Some(Refutation::Disconnected(regions));
    }
    let dead_ends = index
        .neighbour
        .iter()
        .filter(|nb| nb.iter().flatten().count() == 1)
        .count();
    if dead_ends > 2 {
        return Some(Refutation::DeadEnds(dead_ends));
    }
    let light = index
        .cells
        .iter()
        .filter(|c| (c.row + c.col) % 2 == 0)
        .count();
    let dark = n - light;
    if light.abs_diff(dark) > 1 {
        return Some(Refutation::Colours { light, dark });
    }
    None
}

/// How far the windows of `refute_by_windows` reach from their obstacle.
pub const WINDOW_RADIUS: usize = 2;

/// The window argument: for each obstacle cell next to an open cell, the window of
/// `WINDOW_RADIUS` cells around it (clipped to the board); the window relaxation (see
/// `window`) says whether every game must begin or end in it. A game has two ends, so
/// if no two cells meet every such window, no game wins. Windows with the same
/// surroundings give the same answer, so each pattern is solved once.
pub fn refute_by_windows(board: &Board) -> Result<Option<Refutation>, SolverError> {
    let r = WINDOW_RADIUS as isize;
    let status = |row: isize, col: isize| {
        row >= 0 && col >= 0 && board.is_open(Cell::new(row as usize, col as usize))
    };
    let mut known: HashMap<Vec<bool>, Option<Vec<(isize, isize)>>> = HashMap::new();
    let mut needing: Vec<(Cell, Vec<Cell>)> = Vec::new();
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let centre = Cell::new(row, col);
            let (cr, cc) = (row as isize, col as isize);
            if board.is_open(centre)
                || !Dir::ALL.iter().any(|d| {
                    let (dr, dc) = d.delta();
                    status(cr + dr, cc + dc)
                })
            {
                continue;
            }
            // The window and the ring around it decide the relaxation.
            let key: Vec<bool> = (-r - 1..=r + 1)
                .flat_map(|dr| (-r - 1..=r + 1).map(move |dc| (dr, dc)))
                .map(|(dr, dc)| status(cr + dr, cc + dc))
                .collect();
            let offsets = match known.get(&key) {
                Some(answer) => answer.clone(),
                None => {
                    let mut cnf = Cnf::new();
                    let window = Window::new(
                        &mut cnf,
                        board,
                        row.saturating_sub(WINDOW_RADIUS),
                        col.saturating_sub(WINDOW_RADIUS),
                        row + WINDOW_RADIUS,
                        col + WINDOW_RADIUS,
                    );
                    let needs = Session::new(&cnf)
                        .solve_under(&window.no_endpoint())?
                        .is_none();
                    let answer = needs.then(|| {
                        window
                            .cells()
                            .iter()
                            .map(|c| (c.row as isize - cr, c.col as isize - cc))
                            .collect::<Vec<_>>()
                    });
                    known.insert(key, answer.clone());
                    answer
                }
            };
            if let Some(offsets) = offsets {
                let cells = offsets
                    .iter()
                    .map(|&(dr, dc)| Cell::new((cr + dr) as usize, (cc + dc) as usize))
                    .collect();
                needing.push((centre, cells));
            }
        }
    }
    Ok(
        (!two_cells_meet_all(&needing)).then(|| Refutation::Windows {
            radius: WINDOW_RADIUS,
            centres: needing.iter().map(|(centre, _)| *centre).collect(),
        }),
    )
}

/// Whether at most two cells lie, between them, in every window.
fn two_cells_meet_all(windows: &[(Cell, Vec<Cell>)]) -> bool {
    let Some((_, first)) = windows.first() else {
        return true;
    };
    // One of the two cells lies in the first window.
    first.iter().any(|p| {
        let mut rest = windows.iter().filter(|(_, cells)| !cells.contains(p));
        let Some((_, common)) = rest.next() else {
            return true;
        };
        let mut common = common.clone();
        for (_, cells) in rest {
            common.retain(|c| cells.contains(c));
        }
        !common.is_empty()
    })
}

/// The fewest moves the line-cover argument (see `lines`) allows: a proven lower bound,
/// so the encodings need not refute smaller move counts one by one. When no cover
/// exists at all, no game wins and this is `n - 1` (the most moves a game can have).
pub fn line_cover_bound(board: &Board) -> Result<usize, SolverError> {
    let n = board.open_cells().len();
    Ok(line_cover(board, true)?.unwrap_or(n.saturating_sub(1)))
}

/// The line-cover bound, with or without the stop rule at segment ends; `None` when no
/// cover exists for any number of moves (then no game of one move or more wins, and a
/// map with two or more open cells has no solution).
pub fn line_cover(board: &Board, stop_rule: bool) -> Result<Option<usize>, SolverError> {
    match line_cover_within(board, stop_rule, &Context::unlimited(Default::default()))? {
        Cover::AtLeast(k) => Ok(Some(k)),
        Cover::None => Ok(None),
        Cover::Stopped => unreachable!("an unlimited budget does not stop"),
    }
}

/// What `line_cover_within` established.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cover {
    /// The fewest moves whose cover exists: no game has fewer.
    AtLeast(usize),
    /// No cover exists for any number of moves.
    None,
    /// The budget stopped it (what it proved is in the context's progress).
    Stopped,
}

/// `line_cover`, asking the budget before every solver call (and, on a backend that can
/// be interrupted, during it) and reporting every bound it proves to the context's
/// progress.
pub fn line_cover_within(
    board: &Board,
    stop_rule: bool,
    cx: &Context,
) -> Result<Cover, SolverError> {
    match cover_search(board, stop_rule, cx) {
        Err(SolverError::Interrupted) => Ok(Cover::Stopped),
        other => other,
    }
}

fn cover_search(board: &Board, stop_rule: bool, cx: &Context) -> Result<Cover, SolverError> {
    let n = board.open_cells().len();
    if n <= 1 {
        return Ok(Cover::AtLeast(0));
    }
    let mut cnf = Cnf::new();
    let cover = if stop_rule {
        LineCover::new(&mut cnf, board, CardEncoding::Totalizer)
    } else {
        LineCover::without_stop_rule(&mut cnf, board, CardEncoding::Totalizer)
    };
    let mut session = Session::new(&cnf);
    session.stop_at(&cx.budget);
    if session.solve()?.is_none() {
        return Ok(Cover::None);
    }
    let mut fits = |within: Vec<Lit>| session.solve_under(&within).map(|m| m.is_some());
    for k in 1..n {
        if cx.stopped() {
            return Ok(Cover::Stopped);
        }
        let (more, fewer) = (k.div_ceil(2), k / 2);
        if fits(cover.within(more, fewer))? || fits(cover.within(fewer, more))? {
            return Ok(Cover::AtLeast(k));
        }
        if stop_rule {
            cx.progress.at_least(k + 1, "line cover");
        }
    }
    // Each move visits a new cell, so a game has at most n - 1 moves: none fits.
    Ok(Cover::None)
}
