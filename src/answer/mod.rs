//! Answers, written once for every puzzle: the five modes and their renderings.
//!
//! A puzzle whose solutions are boards (Star Battle, Battleship, and the next ones)
//! implements `BoardPuzzle` (its CNF, how to read and check a solution off the cells,
//! how to draw it); `answer` then gives it every mode (`find`), in text and JSON
//! (`text`, `json`) and pictures (`picture`, drawn with `svg`), under a time limit, with
//! the exit status. Puzzles whose answers
//! are plans (Full Board, Sokoban) share `items`, the output for a file of several
//! puzzles.

pub mod board;
pub mod find;
pub mod items;
pub mod json;
pub mod list;
pub mod picture;
pub mod repair;
pub mod svg;
pub mod text;

pub use board::{BoardPuzzle, Proposal};
pub use find::{find, Answer, GaveUp, Verdict};

use crate::cli::{Exit, Format, Mode};
use crate::limits::Budget;
use std::io::Write;
use std::sync::Arc;

/// Answers `mode` for `puzzle` within `budget`, writes the answer in `format`, and
/// returns the exit status it calls for.
pub fn answer<P: BoardPuzzle>(
    puzzle: Arc<P>,
    mode: Mode,
    format: Format,
    budget: &Budget,
    out: &mut impl Write,
) -> anyhow::Result<Exit> {
    if format.is_puzzle() {
        // The puzzle itself, not an answer: nothing is solved.
        let text = puzzle.write_puzzle(format).map_err(anyhow::Error::msg)?;
        out.write_all(text.as_bytes())?;
        out.flush()?;
        return Ok(Exit::Solved);
    }
    let found = find(puzzle.clone(), mode, budget)?;
    match format {
        Format::Json => json::write(&*puzzle, mode, &found, out)?,
        Format::Svg => out.write_all(picture::write(&*puzzle, mode, &found).as_bytes())?,
        _ => text::write(&*puzzle, mode, &found, out)?,
    }
    out.flush()?;
    Ok(exit_of(&found))
}

/// The exit status an answer calls for.
pub fn exit_of(answer: &Answer) -> Exit {
    match answer {
        Answer::One(found) => Exit::answered(found.is_some()),
        Answer::All { boards, .. } => Exit::answered(!boards.is_empty()),
        Answer::Count { count, .. } => Exit::answered(!count.is_zero()),
        Answer::Unique(verdict) => Exit::answered(matches!(verdict, Verdict::Unique(_))),
        Answer::Determined(cells) => Exit::answered(cells.is_some()),
        Answer::Repair(report) => Exit::answered(matches!(report, repair::Report::Unique(_))),
        Answer::GaveUp(_) => Exit::GaveUp,
    }
}
