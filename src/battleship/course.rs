//! The course program's command line: `PUZZLE [find_all_solutions]`, its output on
//! standard output exactly as the handout prints it: one solution (`Solution:`, the ship
//! lines, the board), or every solution and `Found N solution(s)`; `No solutions` when
//! there is none.

use super::puzzle::Battleship;
use crate::answer::{find, Answer, BoardPuzzle};
use crate::cli::{Exit, Mode};
use crate::limits::Budget;
use std::io::Write;
use std::sync::Arc;

pub fn run(
    puzzle: Battleship,
    all: bool,
    budget: &Budget,
    out: &mut impl Write,
) -> anyhow::Result<Exit> {
    let mode = if all {
        Mode::All { limit: None }
    } else {
        Mode::One
    };
    let puzzle = Arc::new(puzzle);
    let boards: Vec<Vec<bool>> = match find(puzzle.clone(), mode, budget)? {
        Answer::One(found) => found.into_iter().collect(),
        Answer::All { boards, .. } => boards.iter().collect(),
        Answer::GaveUp(gave_up) => {
            eprintln!(
                "gridsat: gave up after {:.1} s (--timeout) with at least {} solutions",
                gave_up.after.as_secs_f64(),
                gave_up.at_least
            );
            return Ok(Exit::GaveUp);
        }
        other => unreachable!("not a course mode: {other:?}"),
    };
    let mut text = String::new();
    for cells in &boards {
        let ships = puzzle.read(cells)?;
        text.push_str("Solution:\n");
        for line in puzzle.notes(&ships).iter().chain(&puzzle.board(&ships)) {
            text.push_str(line);
            text.push('\n');
        }
    }
    if boards.is_empty() {
        text.push_str("No solutions\n");
    } else if all {
        text.push_str(&format!("Found {} solution(s)\n", boards.len()));
    }
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(Exit::answered(!boards.is_empty()))
}
