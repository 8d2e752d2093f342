//! Sokoban as SVG: per level, the start drawn as the XSB shows it (walls dark, goals
//! green rings, boxes blue squares, the player a black disc) with the plan over it: the
//! player's walk a thin grey line, each box's route a thick line from where it starts to
//! the goal it ends on, its last square marked. The routes come from the replayed plan
//! (the referee's boards after each push), so the picture shows what was checked. A
//! level without a plan is its start with the reason as caption.

use super::check::{replay, Board as Squares};
use super::parse::LevelEntry;
use super::report::LevelReport;
use crate::answer::svg::{colour, Board, CELL};
use gridsat_encodings::sokoban::{Dir, Level};

/// The player's walk.
const WALK: &str = "#8a8a8a";

/// The level's start with its plan drawn over it.
pub fn level_board(entry: &LevelEntry, report: &LevelReport) -> Board {
    let level = &entry.level;
    let mut board = Board::new(level.rows(), level.cols(), caption(entry, report));
    for r in 0..level.rows() {
        for c in 0..level.cols() {
            let pos = gridsat_encodings::grid::Cell::new(r, c);
            if level.cell_at(pos).is_none() && level.is_wall(pos) {
                board.fill(r, c, colour::WALL);
            }
        }
    }
    board.grid();
    for &goal in level.goals() {
        let centre = centre(&board, level, goal);
        board.layer.circle(centre, CELL * 0.36, colour::GOAL);
        board.layer.circle(centre, CELL * 0.26, colour::PAPER);
    }
    let replayed = report.lurd.as_deref().and_then(|lurd| {
        // The report was built from a replay that passed; this one cannot fail.
        replay(level, lurd).ok().map(|r| (lurd, r))
    });
    if let Some((lurd, replayed)) = &replayed {
        let walk: Vec<(f64, f64)> = walk(level, lurd)
            .into_iter()
            .map(|cell| centre(&board, level, cell))
            .collect();
        board.layer.polyline(&walk, WALK, 1.5);
        for route in box_routes(&replayed.boards) {
            let points: Vec<(f64, f64)> = route.iter().map(|&c| centre(&board, level, c)).collect();
            board.layer.polyline(&points, colour::PATH, 4.0);
            let end = points[points.len() - 1];
            board.layer.circle(end, CELL * 0.14, colour::PATH);
        }
    }
    for &start in level.boxes() {
        let (cx, cy) = centre(&board, level, start);
        let s = CELL * 0.6;
        board
            .layer
            .rounded(cx - s / 2.0, cy - s / 2.0, s, s, 4.0, colour::PLACED);
    }
    let player = centre(&board, level, level.player());
    board.layer.circle(player, CELL * 0.28, colour::INK);
    board
}

fn caption(entry: &LevelEntry, report: &LevelReport) -> String {
    let name = match &entry.title {
        Some(title) => format!("level {} ({title})", entry.number),
        None => format!("level {}", entry.number),
    };
    match (report.pushes, report.moves) {
        (Some(pushes), Some(moves)) => {
            let proven = match report.no_plan_below {
                _ if report.push_optimal => ", push-optimal".to_string(),
                Some(bound) => format!(", not proven optimal (no plan below {bound})"),
                None => ", not proven optimal".to_string(),
            };
            format!("{name}: {pushes} pushes, {moves} moves{proven}")
        }
        _ => match report.outcome {
            "unsolvable" => format!("{name}: no solution"),
            _ => format!(
                "{name}: gave up{}",
                report
                    .no_plan_below
                    .map_or(String::new(), |b| format!(", no plan below {b} pushes"))
            ),
        },
    }
}

fn centre(board: &Board, level: &Level, cell: usize) -> (f64, f64) {
    let pos = level.position(cell);
    board.centre(pos.row, pos.col)
}

/// Every square the player stands on, in order, from the start.
fn walk(level: &Level, lurd: &str) -> Vec<usize> {
    let mut at = level.player();
    let mut squares = vec![at];
    for c in lurd.chars() {
        if let Some(next) = Dir::from_lurd(c).and_then(|(dir, _)| level.neighbour(at, dir)) {
            at = next;
            squares.push(at);
        }
    }
    squares
}

/// Each box's squares, from its start to its last square, read off the boards after
/// each push (a push moves one box one square: the square that lost a box and the one
/// that gained it). Boxes that never move have no route.
fn box_routes(boards: &[Squares]) -> Vec<Vec<usize>> {
    let Some(first) = boards.first() else {
        return Vec::new();
    };
    let mut routes: Vec<Vec<usize>> = (0..first.boxes.len())
        .filter(|&c| first.boxes[c])
        .map(|c| vec![c])
        .collect();
    for pair in boards.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let changed = |had: bool| {
            (0..before.boxes.len()).find(|&c| before.boxes[c] == had && after.boxes[c] != had)
        };
        if let (Some(from), Some(to)) = (changed(true), changed(false)) {
            if let Some(route) = routes.iter_mut().find(|r| r.last() == Some(&from)) {
                route.push(to);
            }
        }
    }
    routes.retain(|r| r.len() > 1);
    routes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_follows_its_box_push_by_push() {
        let board = |boxes: &[usize]| Squares {
            boxes: (0..6).map(|c| boxes.contains(&c)).collect(),
            player: 0,
        };
        // Box at 1 pushed to 2 then 3; the box at 5 never moves.
        let routes = box_routes(&[board(&[1, 5]), board(&[2, 5]), board(&[3, 5])]);
        assert_eq!(routes, vec![vec![1, 2, 3]]);
    }
}
