//! The modes' answers as SVG pictures, laid out the same way for every board puzzle:
//! one board per solution (four to a row), two witnesses side by side with the cells
//! where they differ framed in red, the determined board with its undecided cells marked,
//! and a caption saying what the text says.

use super::board::{differing_cells, BoardPuzzle};
use super::find::{Answer, Verdict};
use super::repair::Report;
use super::svg::{caption_only, colour, picture, Board, CELL};
use crate::cli::Mode;

/// Boards to a row in a listing.
const PER_ROW: usize = 4;

pub fn write<P: BoardPuzzle>(puzzle: &P, mode: Mode, answer: &Answer) -> String {
    let solved = |cells: &[bool]| -> Vec<Option<bool>> { cells.iter().map(|&c| Some(c)).collect() };
    match answer {
        Answer::One(None) | Answer::Unique(Verdict::NoSolution) | Answer::Determined(None) => {
            caption_only("No solution.")
        }
        Answer::One(Some(cells)) => {
            picture(&[vec![board(puzzle, "Solution", &solved(cells), &[])]])
        }
        Answer::All { boards, more } => {
            let n = boards.len();
            let listed: Vec<Board> = boards
                .iter()
                .enumerate()
                .map(|(k, cells)| {
                    board(puzzle, &format!("Solution {}", k + 1), &solved(&cells), &[])
                })
                .collect();
            let total = if *more {
                format!("{n} solutions shown; there are more (--limit)")
            } else {
                format!("{n} solution{}", if n == 1 { "" } else { "s" })
            };
            rows(listed, total)
        }
        Answer::Count { count, at_least } => {
            let bound = if *at_least { "at least " } else { "" };
            caption_only(&format!("Number of solutions: {bound}{count}"))
        }
        Answer::Unique(Verdict::Unique(cells)) => {
            picture(&[vec![board(puzzle, "Unique solution", &solved(cells), &[])]])
        }
        Answer::Unique(Verdict::Multiple(a, b)) => {
            let cols = puzzle.size().1;
            let differ: Vec<usize> = differing_cells(cols, a, b)
                .iter()
                .map(|[r, c]| r * cols + c)
                .collect();
            let first = board(puzzle, "Not unique: solution 1", &solved(a), &differ);
            let second = board(puzzle, "solution 2", &solved(b), &differ);
            let mut note = Board::new(
                0,
                0,
                format!("They differ at {} cells (marked)", differ.len()),
            );
            note.extra_right = 8.0;
            picture(&[vec![first, second], vec![note]])
        }
        Answer::Determined(Some(cells)) => {
            let open = cells.iter().filter(|c| c.is_none()).count();
            let caption = format!(
                "{} cells determined, {open} undetermined",
                cells.len() - open
            );
            picture(&[vec![board(puzzle, &caption, cells, &[])]])
        }
        Answer::Repair(report) => match report {
            Report::Unique(cells) => {
                picture(&[vec![board(puzzle, "Unique solution", &solved(cells), &[])]])
            }
            Report::Conflict(rules) => {
                let mut lines = vec!["No solution; these rules conflict:".to_string()];
                lines.extend(rules.iter().cloned());
                captions(lines)
            }
            Report::NotUnique {
                first,
                second,
                repairs,
            } => {
                let cols = puzzle.size().1;
                let differ: Vec<usize> = differing_cells(cols, first, second)
                    .iter()
                    .map(|[r, c]| r * cols + c)
                    .collect();
                let mut layout = vec![vec![
                    board(puzzle, "Not unique: solution 1", &solved(first), &differ),
                    board(puzzle, "solution 2", &solved(second), &differ),
                ]];
                let mut lines = vec![if repairs.is_empty() {
                    "No repair found.".to_string()
                } else {
                    "Repairs (each checked by counting again):".to_string()
                }];
                for (k, repair) in repairs.iter().enumerate() {
                    let outcome = if repair.is_unique() {
                        "unique".to_string()
                    } else {
                        format!("{} solutions", repair.solutions)
                    };
                    lines.push(format!(
                        "{}. {} ({outcome})",
                        k + 1,
                        repair.changes.join("; ")
                    ));
                }
                layout.extend(lines.into_iter().map(|l| vec![note(l)]));
                picture(&layout)
            }
            Report::Stopped => caption_only("Undecided."),
        },
        Answer::GaveUp(gave_up) => {
            let listed: Vec<Board> = match mode {
                Mode::All { .. } => gave_up
                    .boards
                    .iter()
                    .enumerate()
                    .map(|(k, cells)| {
                        board(puzzle, &format!("Solution {}", k + 1), &solved(&cells), &[])
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let note = format!(
                "Gave up at --timeout after {:.1} s: at least {} solutions",
                gave_up.after.as_secs_f64(),
                gave_up.at_least
            );
            rows(listed, note)
        }
    }
}

/// One board of the puzzle with `cells` marked and `highlight` cells coloured.
fn board<P: BoardPuzzle>(
    puzzle: &P,
    caption: &str,
    cells: &[Option<bool>],
    highlight: &[usize],
) -> Board {
    let (rows, cols) = puzzle.size();
    let mut board = Board::new(rows, cols, caption);
    for (i, cell) in cells.iter().enumerate() {
        if cell.is_none() {
            board.fill(i / cols, i % cols, colour::UNDECIDED);
        }
    }
    board.grid();
    puzzle.paint(&mut board, cells);
    // Framed on top of the puzzle's own marks, so that every mark stays visible.
    for &i in highlight {
        let (x, y) = board.corner(i / cols, i % cols);
        board.layer.outline(
            x + 2.5,
            y + 2.5,
            CELL - 5.0,
            CELL - 5.0,
            colour::DIFFERS,
            4.0,
        );
    }
    board
}

/// A board of no cells: a line of text.
fn note(text: String) -> Board {
    let width = (text.chars().count() as f64 * 8.0 / CELL).max(4.0);
    let mut note = Board::new(0, 0, text);
    note.extra_right = width;
    note
}

/// Lines of text, one below the other.
fn captions(lines: Vec<String>) -> String {
    picture(&lines.into_iter().map(|l| vec![note(l)]).collect::<Vec<_>>())
}

/// Boards four to a row, then a caption.
fn rows(boards: Vec<Board>, caption: String) -> String {
    let mut layout: Vec<Vec<Board>> = Vec::new();
    for board in boards {
        match layout.last_mut() {
            Some(row) if row.len() < PER_ROW => row.push(board),
            _ => layout.push(vec![board]),
        }
    }
    let mut note = Board::new(0, 0, caption);
    note.extra_right = 10.0;
    layout.push(vec![note]);
    picture(&layout)
}
