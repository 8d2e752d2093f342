//! Output: the course's exact text, the one-line answers of `--count` and `--unique`,
//! the board of `--determined`, and JSON.

use super::check::Trace;
use super::parse::{MapEntry, OBSTACLE, OPEN};
use super::verdict::{Game, GaveUp, Verdict};
use gridsat_encodings::full_board::{Board, Cell, Dir};
use serde_json::json;

/// The arrow drawn on a cell the ball entered rolling in `dir` (U+2190..U+2193).
pub fn arrow(dir: Dir) -> char {
    match dir {
        Dir::Left => '\u{2190}',
        Dir::Up => '\u{2191}',
        Dir::Right => '\u{2192}',
        Dir::Down => '\u{2193}',
    }
}

/// The mark of a cell where the minimum games differ (`--determined`).
pub const DIFFERS: char = '?';

fn blank_grid(board: &Board) -> Vec<Vec<char>> {
    (0..board.rows())
        .map(|r| {
            (0..board.cols())
                .map(|c| {
                    if board.is_open(Cell::new(r, c)) {
                        OPEN
                    } else {
                        OBSTACLE
                    }
                })
                .collect()
        })
        .collect()
}

/// The solved board, one row of characters each: `S` on the start, the arrow of the
/// direction the ball entered each cell in, `F` where it ends (when it moved at all).
fn solved_grid(board: &Board, trace: &Trace) -> Vec<Vec<char>> {
    let mut grid = blank_grid(board);
    for &(cell, dir) in &trace.entered {
        grid[cell.row][cell.col] = arrow(dir);
    }
    if !trace.entered.is_empty() {
        let end = trace.end();
        grid[end.row][end.col] = 'F';
    }
    grid[trace.start.row][trace.start.col] = 'S';
    grid
}

fn rows_of(grid: Vec<Vec<char>>) -> Vec<String> {
    grid.into_iter()
        .map(|row| row.into_iter().collect())
        .collect()
}

/// The solved board, one string per row (see `solved_grid`).
pub fn solved_rows(board: &Board, trace: &Trace) -> Vec<String> {
    rows_of(solved_grid(board, trace))
}

/// The games in the course's order: by the solved boards read row-major as strings
/// (Java's `compareTo`; every character is in the BMP, so code point order is the same).
pub fn sorted_games<'a>(board: &Board, games: &'a [Game]) -> Vec<(Vec<String>, &'a Game)> {
    let mut boards: Vec<(Vec<String>, &Game)> = games
        .iter()
        .map(|g| (solved_rows(board, &g.trace), g))
        .collect();
    boards.sort_by_cached_key(|(rows, _)| rows.concat());
    boards
}

/// The solved boards in the course's order.
pub fn sorted_boards(board: &Board, games: &[Game]) -> Vec<Vec<String>> {
    sorted_games(board, games)
        .into_iter()
        .map(|(rows, _)| rows)
        .collect()
}

/// The board where every game agrees: each cell's mark if it is the same in all of
/// them, `DIFFERS` where they differ. (Every game visits every open cell, so an open
/// cell is always `S`, `F` or an arrow.)
pub fn determined_rows(board: &Board, games: &[Game]) -> Vec<String> {
    let mut grids = games.iter().map(|g| solved_grid(board, &g.trace));
    let Some(mut agreed) = grids.next() else {
        return rows_of(blank_grid(board));
    };
    for grid in grids {
        for (row, other) in agreed.iter_mut().zip(grid) {
            for (mark, theirs) in row.iter_mut().zip(other) {
                if *mark != theirs {
                    *mark = DIFFERS;
                }
            }
        }
    }
    rows_of(agreed)
}

fn push_rows(out: &mut String, rows: impl IntoIterator<Item = impl AsRef<str>>) {
    for row in rows {
        out.push_str(row.as_ref());
        out.push('\n');
    }
}

/// One map's block of the course's output; a map given up at a limit reads like a map
/// without a solution, with what was proven instead of `No solution` (and the games of
/// a proven minimum found by then, if any, instead of the echo).
pub fn course_map(out: &mut String, map: &MapEntry, verdict: &Verdict) {
    out.push_str("map\n");
    match verdict {
        Verdict::NoSolution(_) => {
            out.push_str("No solution\n");
            push_rows(out, &map.rows);
        }
        Verdict::Solved { moves, games, .. } => {
            out.push_str(&format!("{moves} moves\n"));
            solution_blocks(out, &map.board, games);
        }
        Verdict::GaveUp(partial) => {
            out.push_str(&format!("{}\n", gave_up_line(partial)));
            if partial.games.is_empty() {
                push_rows(out, &map.rows);
            } else {
                solution_blocks(out, &map.board, &partial.games);
            }
        }
    }
    out.push_str("endmap\n");
}

fn solution_blocks(out: &mut String, board: &Board, games: &[Game]) {
    for rows in sorted_boards(board, games) {
        out.push_str("solution\n");
        push_rows(out, rows);
        out.push_str("endsolution\n");
    }
}

/// "Gave up (the time limit of 10 s): no game has fewer than 94 moves (line cover)".
pub fn gave_up_line(partial: &GaveUp) -> String {
    format!("Gave up ({}): {}", partial.reason, partial.proven())
}

fn games_word(count: usize) -> &'static str {
    if count == 1 {
        "game"
    } else {
        "games"
    }
}

/// The first line of a map's answer in the one-line modes, after "map at line L: ",
/// for the verdicts every mode words alike (`None` for a solved map).
fn unsolved_line(map: &MapEntry, verdict: &Verdict) -> Option<String> {
    match verdict {
        Verdict::NoSolution(proof) => {
            Some(format!("map at line {}: no solution ({proof})", map.line))
        }
        Verdict::GaveUp(partial) => Some(format!(
            "map at line {}: gave up ({}): {}",
            map.line,
            partial.reason,
            partial.proven()
        )),
        Verdict::Solved { .. } => None,
    }
}

/// `--count`: "map at line 2: 11 moves, 3 minimum games" ("at least" when `--limit`
/// stopped the count).
pub fn count_text(out: &mut String, map: &MapEntry, verdict: &Verdict) {
    let line = unsolved_line(map, verdict).unwrap_or_else(|| match verdict {
        Verdict::Solved {
            moves,
            games,
            all_found,
        } => format!(
            "map at line {}: {moves} moves, {}{} minimum {}",
            map.line,
            if *all_found { "" } else { "at least " },
            games.len(),
            games_word(games.len())
        ),
        _ => unreachable!("handled above"),
    });
    out.push_str(&line);
    out.push('\n');
}

/// Whether a solved map's minimum game is unique (found with a limit of two).
pub fn uniqueness(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::NoSolution(_) => "no solution",
        Verdict::GaveUp(_) => "gave up",
        Verdict::Solved { games, .. } if games.len() == 1 => "unique",
        Verdict::Solved { .. } => "multiple",
    }
}

/// `--unique`: "map at line 2: unique, 11 moves" and the game's board (two boards when
/// it is not unique), each followed by an empty line.
pub fn unique_text(out: &mut String, map: &MapEntry, verdict: &Verdict) {
    if let Some(line) = unsolved_line(map, verdict) {
        out.push_str(&line);
        out.push('\n');
        return;
    }
    if let Verdict::Solved { moves, games, .. } = verdict {
        out.push_str(&format!(
            "map at line {}: {}, {moves} moves\n",
            map.line,
            uniqueness(verdict)
        ));
        for rows in sorted_boards(&map.board, games) {
            push_rows(out, rows);
            out.push('\n');
        }
    }
}

/// `--determined`: "map at line 2: 11 moves, 3 minimum games ('?' where they differ)"
/// and the board where they agree, followed by an empty line.
pub fn determined_text(out: &mut String, map: &MapEntry, verdict: &Verdict) {
    if let Some(line) = unsolved_line(map, verdict) {
        out.push_str(&line);
        out.push('\n');
        return;
    }
    if let Verdict::Solved { moves, games, .. } = verdict {
        out.push_str(&format!(
            "map at line {}: {moves} moves, {} minimum {} ('{DIFFERS}' where they differ)\n",
            map.line,
            games.len(),
            games_word(games.len())
        ));
        push_rows(out, determined_rows(&map.board, games));
        out.push('\n');
    }
}

fn json_games(board: &Board, games: &[Game]) -> Vec<serde_json::Value> {
    sorted_games(board, games)
        .into_iter()
        .map(|(rows, g)| {
            json!({
                "start": { "row": g.plan.start.row, "col": g.plan.start.col },
                "directions": g.plan.moves.iter().map(|d| d.letter()).collect::<String>(),
                "board": rows,
            })
        })
        .collect()
}

/// What the JSON of a map holds beyond the verdict: the games themselves, or only
/// their number (`--count`), or the board where they agree (`--determined`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum JsonDetail {
    Solutions,
    CountOnly,
    Determined,
}

/// One map as a JSON value. `solved` is true, false (no solution), or null (gave up).
pub fn json_map(
    map: &MapEntry,
    verdict: &Verdict,
    seconds: f64,
    detail: JsonDetail,
) -> serde_json::Value {
    let mut value = json!({
        "line": map.line,
        "rows": map.board.rows(),
        "cols": map.board.cols(),
        "seconds": seconds,
    });
    let fields = match verdict {
        Verdict::NoSolution(proof) => json!({ "solved": false, "proof": proof.to_string() }),
        Verdict::Solved {
            moves,
            games,
            all_found,
        } => {
            let mut fields = json!({
                "solved": true,
                "moves": moves,
                "count": games.len(),
                "all_found": all_found,
            });
            match detail {
                JsonDetail::Solutions => {
                    fields["solutions"] = json!(json_games(&map.board, games));
                }
                JsonDetail::CountOnly => {}
                JsonDetail::Determined => {
                    fields["determined"] = json!(determined_rows(&map.board, games));
                }
            }
            fields
        }
        Verdict::GaveUp(partial) => json!({
            "solved": null,
            "gave_up": partial.reason,
            "proven": partial.proven(),
            "at_least": partial.at_least,
            "minimum": partial.minimum,
            "solutions": json_games(&map.board, &partial.games),
        }),
    };
    for (key, field) in fields.as_object().expect("an object") {
        value[key] = field.clone();
    }
    value
}
