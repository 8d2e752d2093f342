//! The modes' answers as text, the same words for every board puzzle.

use super::board::{differing_cells, BoardPuzzle};
use super::find::{Answer, GaveUp, Verdict};
use crate::cli::Mode;
use itertools::Itertools;
use std::io::{self, Write};

/// Writes `answer` (to the question `mode`) for people.
pub fn write<P: BoardPuzzle>(
    puzzle: &P,
    mode: Mode,
    answer: &Answer,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    match answer {
        Answer::One(None) => writeln!(out, "No solution.")?,
        Answer::One(Some(cells)) => write_solution(puzzle, cells, out)?,
        Answer::All { boards, more } => {
            for (k, cells) in boards.iter().enumerate() {
                writeln!(out, "Solution {}:", k + 1)?;
                write_solution(puzzle, &cells, out)?;
                writeln!(out)?;
            }
            let n = boards.len();
            let plural = if n == 1 { "" } else { "s" };
            if *more {
                writeln!(
                    out,
                    "{n} solution{plural} (stopped at --limit {n}; there are more)."
                )?;
            } else {
                writeln!(out, "{n} solution{plural}.")?;
            }
        }
        Answer::Count { count, at_least } => {
            if *at_least {
                writeln!(
                    out,
                    "Number of solutions: at least {count} (stopped at --limit)"
                )?;
            } else {
                writeln!(out, "Number of solutions: {count}")?;
            }
        }
        Answer::Unique(verdict) => write_verdict(puzzle, verdict, out)?,
        Answer::Determined(None) => writeln!(out, "No solution.")?,
        Answer::Determined(Some(cells)) => {
            for line in puzzle.determined_board(cells) {
                writeln!(out, "{line}")?;
            }
            let placed = cells.iter().filter(|c| **c == Some(true)).count();
            let empty = cells.iter().filter(|c| **c == Some(false)).count();
            let [placed_word, empty_word] = puzzle.cell_words();
            writeln!(
                out,
                "{} cells determined ({placed} {placed_word}, {empty} {empty_word}), {} undetermined.",
                placed + empty,
                cells.len() - placed - empty
            )?;
        }
        Answer::GaveUp(gave_up) => write_gave_up(puzzle, mode, gave_up, out)?,
    }
    Ok(())
}

/// A solution's notes, then its board.
fn write_solution<P: BoardPuzzle>(
    puzzle: &P,
    cells: &[bool],
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let solution = puzzle.read(cells)?;
    let mut text = String::new();
    for line in puzzle
        .notes(&solution)
        .iter()
        .chain(&puzzle.board(&solution))
    {
        text.push_str(line);
        text.push('\n');
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}

fn write_verdict<P: BoardPuzzle>(
    puzzle: &P,
    verdict: &Verdict,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    match verdict {
        Verdict::NoSolution => writeln!(out, "No solution.")?,
        Verdict::Unique(cells) => {
            writeln!(out, "Unique solution:")?;
            write_solution(puzzle, cells, out)?;
        }
        Verdict::Multiple(a, b) => {
            writeln!(out, "Not unique. Two solutions:")?;
            let (a_solution, b_solution) = (puzzle.read(a)?, puzzle.read(b)?);
            for (k, solution) in [&a_solution, &b_solution].into_iter().enumerate() {
                let notes = puzzle.notes(solution);
                if !notes.is_empty() {
                    writeln!(out, "Solution {}:", k + 1)?;
                    for line in notes {
                        writeln!(out, "{line}")?;
                    }
                }
            }
            side_by_side(&puzzle.board(&a_solution), &puzzle.board(&b_solution), out)?;
            let (_, cols) = puzzle.size();
            let cells = differing_cells(cols, a, b)
                .iter()
                .map(|[r, c]| format!("(row {r}, col {c})"))
                .join(", ");
            writeln!(out, "They differ at {cells}.")?;
        }
    }
    Ok(())
}

/// Two drawings next to each other, three blanks apart.
fn side_by_side(left: &[String], right: &[String], out: &mut impl Write) -> io::Result<()> {
    let width = left.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    for row in 0..left.len().max(right.len()) {
        let l = left.get(row).map_or("", String::as_str);
        let r = right.get(row).map_or("", String::as_str);
        let pad = width - l.chars().count();
        writeln!(out, "{}", format!("{l}{:pad$}   {r}", "").trim_end())?;
    }
    Ok(())
}

fn write_gave_up<P: BoardPuzzle>(
    puzzle: &P,
    mode: Mode,
    gave_up: &GaveUp,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let after = format!(
        "gave up at --timeout after {:.1} s",
        gave_up.after.as_secs_f64()
    );
    let found = gave_up.boards.len();
    match mode {
        Mode::All { .. } => {
            for (k, cells) in gave_up.boards.iter().enumerate() {
                writeln!(out, "Solution {}:", k + 1)?;
                write_solution(puzzle, &cells, out)?;
                writeln!(out)?;
            }
            let plural = if found == 1 { "" } else { "s" };
            writeln!(
                out,
                "{found} solution{plural} found; {after}: there are at least {}, perhaps more.",
                gave_up.at_least
            )?;
        }
        Mode::Count { .. } => writeln!(
            out,
            "Number of solutions: at least {} ({after})",
            gave_up.at_least
        )?,
        Mode::One | Mode::Unique | Mode::Determined => {
            let what = match (mode, gave_up.at_least.is_zero()) {
                (_, true) => "no solution found and none ruled out",
                (Mode::Unique, false) => "a solution exists; uniqueness not decided",
                _ => "a solution exists; the determined cells not decided",
            };
            writeln!(out, "Undecided: {what} ({after}).")?;
        }
    }
    Ok(())
}
