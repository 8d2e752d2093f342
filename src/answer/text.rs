//! The modes' answers as text, the same words for every board puzzle.

use super::board::{differing_cells, BoardPuzzle};
use super::find::{Answer, GaveUp, Verdict};
use super::repair::Report;
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
        Answer::Repair(report) => write_repair(puzzle, report, out)?,
        Answer::GaveUp(gave_up) => write_gave_up(puzzle, mode, gave_up, out)?,
    }
    Ok(())
}

/// `--repair`: the verdict as `--unique` gives it, then the repairs or the conflict.
fn write_repair<P: BoardPuzzle>(
    puzzle: &P,
    report: &Report,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    match report {
        Report::Unique(cells) => write_verdict(puzzle, &Verdict::Unique(cells.clone()), out)?,
        Report::Conflict(rules) => {
            writeln!(
                out,
                "No solution. These rules conflict (without any one of them there is a solution):"
            )?;
            for rule in rules {
                writeln!(out, "  {rule}")?;
            }
            if rules.is_empty() {
                writeln!(
                    out,
                    "  the puzzle's fixed rules alone (no clue can be left out to help)"
                )?;
            }
        }
        Report::NotUnique {
            first,
            second,
            repairs,
        } => {
            write_verdict(
                puzzle,
                &Verdict::Multiple(first.clone(), second.clone()),
                out,
            )?;
            if repairs.is_empty() {
                writeln!(out, "No repair found.")?;
            } else {
                writeln!(
                    out,
                    "Repairs (each checked by counting the solutions again):"
                )?;
            }
            for (k, repair) in repairs.iter().enumerate() {
                let outcome = if repair.is_unique() {
                    "then the solution is unique".to_string()
                } else {
                    format!(
                        "leaves {} solutions (none makes it unique)",
                        repair.solutions
                    )
                };
                writeln!(out, "{}. {}: {outcome}", k + 1, repair.changes.join("; "))?;
            }
        }
        Report::Stopped => writeln!(out, "Undecided.")?,
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
    let why = if crate::limits::interrupted() {
        "interrupted (Ctrl-C)"
    } else {
        "gave up at --timeout"
    };
    let after = format!("{why} after {:.1} s", gave_up.after.as_secs_f64());
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
        Mode::One | Mode::Unique | Mode::Determined | Mode::Repair => {
            let what = match (mode, gave_up.at_least.is_zero()) {
                (_, true) => "no solution found and none ruled out",
                (Mode::Unique | Mode::Repair, false) => "a solution exists; uniqueness not decided",
                _ => "a solution exists; the determined cells not decided",
            };
            writeln!(out, "Undecided: {what} ({after}).")?;
        }
    }
    Ok(())
}
