//! Output: the course's exact text and JSON.

use super::parse::{MapEntry, OBSTACLE, OPEN};
use super::simulate::Trace;
use super::solve::{Game, Verdict};
use gridsat_encodings::full_board::{Board, Dir};

/// The arrow drawn on a cell the ball entered rolling in `dir` (U+2190..U+2193).
pub fn arrow(dir: Dir) -> char {
    match dir {
        Dir::Left => '\u{2190}',
        Dir::Up => '\u{2191}',
        Dir::Right => '\u{2192}',
        Dir::Down => '\u{2193}',
    }
}

/// The solved board, one string per row: `S` on the start, the arrow of the direction
/// the ball entered each cell in, `F` where it ends (when it moved at all).
pub fn solved_rows(board: &Board, trace: &Trace) -> Vec<String> {
    let mut grid: Vec<Vec<char>> = (0..board.rows())
        .map(|r| {
            (0..board.cols())
                .map(|c| {
                    if board.is_open(gridsat_encodings::full_board::Cell::new(r, c)) {
                        OPEN
                    } else {
                        OBSTACLE
                    }
                })
                .collect()
        })
        .collect();
    for &(cell, dir) in &trace.entered {
        grid[cell.row][cell.col] = arrow(dir);
    }
    if !trace.entered.is_empty() {
        let end = trace.end();
        grid[end.row][end.col] = 'F';
    }
    grid[trace.start.row][trace.start.col] = 'S';
    grid.into_iter()
        .map(|row| row.into_iter().collect())
        .collect()
}

/// The games in the course's order: by the solved boards read row-major as strings
/// (Java's `compareTo`; every character is in the BMP, so code point order is the same).
pub fn sorted_boards(board: &Board, games: &[Game]) -> Vec<Vec<String>> {
    let mut boards: Vec<Vec<String>> = games.iter().map(|g| solved_rows(board, &g.trace)).collect();
    boards.sort_by_key(|rows| rows.concat());
    boards
}

/// One map's block of the course's output.
pub fn legacy_map(out: &mut String, map: &MapEntry, verdict: &Verdict) {
    out.push_str("map\n");
    match verdict {
        Verdict::NoSolution(_) => {
            out.push_str("No solution\n");
            for row in &map.rows {
                out.push_str(row);
                out.push('\n');
            }
        }
        Verdict::Solved { moves, games, .. } => {
            out.push_str(&format!("{moves} moves\n"));
            for rows in sorted_boards(&map.board, games) {
                out.push_str("solution\n");
                for row in rows {
                    out.push_str(&row);
                    out.push('\n');
                }
                out.push_str("endsolution\n");
            }
        }
    }
    out.push_str("endmap\n");
}

/// One map as a JSON value.
pub fn json_map(map: &MapEntry, verdict: &Verdict, seconds: f64) -> serde_json::Value {
    use serde_json::json;
    match verdict {
        Verdict::NoSolution(proof) => json!({
            "line": map.line,
            "rows": map.board.rows(),
            "cols": map.board.cols(),
            "solved": false,
            "proof": proof.to_string(),
            "seconds": seconds,
        }),
        Verdict::Solved {
            moves,
            games,
            all_found,
        } => {
            let mut ordered: Vec<(String, &Game)> = games
                .iter()
                .map(|g| (solved_rows(&map.board, &g.trace).concat(), g))
                .collect();
            ordered.sort_by(|a, b| a.0.cmp(&b.0));
            let solutions: Vec<serde_json::Value> = ordered
                .iter()
                .map(|(_, g)| {
                    json!({
                        "start": { "row": g.plan.start.row, "col": g.plan.start.col },
                        "directions": g.plan.moves.iter().map(|d| d.letter()).collect::<String>(),
                        "board": solved_rows(&map.board, &g.trace),
                    })
                })
                .collect();
            json!({
                "line": map.line,
                "rows": map.board.rows(),
                "cols": map.board.cols(),
                "solved": true,
                "moves": moves,
                "count": games.len(),
                "all_found": all_found,
                "solutions": solutions,
                "seconds": seconds,
            })
        }
    }
}
