//! Full Board as SVG: per map, each game drawn as the board the text shows (walls dark,
//! the start a green disc, an arrowhead on every cell the ball entered, pointing the way
//! it rolled, the finish a black square) with the ball's path drawn through the cells
//! in order; `--determined` marks the cells where the games differ; a map without a
//! game is its board with the reason as caption.

use super::check::Trace;
use super::parse::MapEntry;
use super::render::{determined_rows, sorted_games, DIFFERS};
use super::verdict::Verdict;
use crate::answer::svg::{colour, Board, CELL};
use crate::cli::Mode;
use gridsat_encodings::full_board::Dir;

/// The boards of one map's answer, drawn side by side.
pub fn map_boards(map: &MapEntry, verdict: &Verdict, mode: Mode) -> Vec<Board> {
    let title = format!("map at line {}", map.line);
    match verdict {
        Verdict::NoSolution(proof) => vec![chars_board(
            &map.rows,
            &format!("{title}: no solution ({proof})"),
        )],
        Verdict::GaveUp(partial) => vec![chars_board(
            &map.rows,
            &format!(
                "{title}: gave up ({}): {}",
                partial.reason,
                partial.proven()
            ),
        )],
        Verdict::Solved { moves, games, .. } => match mode {
            Mode::Determined => {
                let rows = determined_rows(&map.board, games);
                vec![chars_board(
                    &rows,
                    &format!("{title}: {moves} moves, where {} games agree", games.len()),
                )]
            }
            Mode::Count { .. } => vec![chars_board(
                &map.rows,
                &format!("{title}: {moves} moves, {} minimum games", games.len()),
            )],
            _ => sorted_games(&map.board, games)
                .into_iter()
                .enumerate()
                .map(|(k, (rows, game))| {
                    let caption = format!("{title}: {moves} moves, game {}", k + 1);
                    drawn(&rows, &caption, Some(&game.trace))
                })
                .collect(),
        },
    }
}

/// A board drawn from the text's characters.
fn chars_board(rows: &[String], caption: &str) -> Board {
    drawn(rows, caption, None)
}

/// A board drawn from the text's characters, with the ball's path under the marks.
fn drawn(rows: &[String], caption: &str, trace: Option<&Trace>) -> Board {
    let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
    let mut board = Board::new(grid.len(), cols, caption);
    for (r, row) in grid.iter().enumerate() {
        for (c, &mark) in row.iter().enumerate() {
            match mark {
                '\u{2593}' => board.fill(r, c, colour::WALL),
                m if m == DIFFERS => board.fill(r, c, colour::UNDECIDED),
                _ => {}
            }
        }
    }
    board.grid();
    if let Some(trace) = trace {
        path(&mut board, trace);
    }
    for (r, row) in grid.iter().enumerate() {
        for (c, &mark) in row.iter().enumerate() {
            let (cx, cy) = board.centre(r, c);
            match mark {
                'S' => board.layer.circle((cx, cy), CELL * 0.3, colour::GOAL),
                'F' => {
                    let s = CELL * 0.5;
                    board
                        .layer
                        .rect(cx - s / 2.0, cy - s / 2.0, s, s, colour::INK);
                }
                '\u{2190}' => arrowhead(&mut board, (cx, cy), Dir::Left),
                '\u{2191}' => arrowhead(&mut board, (cx, cy), Dir::Up),
                '\u{2192}' => arrowhead(&mut board, (cx, cy), Dir::Right),
                '\u{2193}' => arrowhead(&mut board, (cx, cy), Dir::Down),
                _ => {}
            }
        }
    }
    board
}

fn arrowhead(board: &mut Board, (cx, cy): (f64, f64), dir: Dir) {
    let (dr, dc) = dir.delta();
    let (dx, dy) = (dc as f64, dr as f64);
    let (tip, back, side) = (CELL * 0.32, CELL * 0.16, CELL * 0.2);
    let points = [
        (cx + dx * tip, cy + dy * tip),
        (cx - dx * back - dy * side, cy - dy * back + dx * side),
        (cx - dx * back + dy * side, cy - dy * back - dx * side),
    ];
    board.layer.polygon(&points, colour::PATH);
}

/// The ball's path through the cell centres, start to finish.
fn path(board: &mut Board, trace: &Trace) {
    let points: Vec<(f64, f64)> = std::iter::once(trace.start)
        .chain(trace.entered.iter().map(|&(cell, _)| cell))
        .map(|cell| board.centre(cell.row, cell.col))
        .collect();
    board.layer.polyline(&points, colour::PATH, 2.0);
}
