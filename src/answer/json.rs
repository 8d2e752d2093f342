//! The modes' answers as JSON, the same shape for every board puzzle: the puzzle under
//! `"puzzle"`, then the mode's own fields. Listings are written one solution at a time,
//! so a listing of millions stays small in memory.

use super::board::{differing_cells, BoardPuzzle};
use super::find::{Answer, GaveUp, Verdict};
use super::list::BoardList;
use super::repair::Report;
use crate::cli::Mode;
use crate::solver::count::Count;
use serde_json::{json, Value};
use std::io::Write;

/// Writes `answer` (to the question `mode`) as one JSON document.
pub fn write<P: BoardPuzzle>(
    puzzle: &P,
    mode: Mode,
    answer: &Answer,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let head = json!({ "puzzle": puzzle.puzzle_json() });
    match answer {
        Answer::One(cells) => {
            let solutions = cells
                .iter()
                .map(|c| solution(puzzle, c))
                .collect::<Result<Vec<_>, _>>()?;
            let value = with(
                head,
                json!({
                    "count": solutions.len(),
                    "complete": solutions.is_empty(),
                    "solutions": solutions,
                }),
            );
            writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        Answer::All { boards, more } => {
            write_listing(puzzle, head, boards, !more, None, out)?;
        }
        Answer::Count { count, at_least } => {
            let value = with(
                head,
                json!({ "count": number(count), "complete": !at_least }),
            );
            writeln!(out, "{value}")?;
        }
        Answer::Unique(verdict) => {
            let fields = match verdict {
                Verdict::NoSolution => json!({ "verdict": "none", "solutions": [] }),
                Verdict::Unique(a) => {
                    json!({ "verdict": "unique", "solutions": [solution(puzzle, a)?] })
                }
                Verdict::Multiple(a, b) => json!({
                    "verdict": "multiple",
                    "solutions": [solution(puzzle, a)?, solution(puzzle, b)?],
                    "differing_cells": differing_cells(puzzle.size().1, a, b),
                }),
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&with(head, fields))?
            )?;
        }
        Answer::Determined(None) => {
            writeln!(out, "{}", with(head, json!({ "solvable": false })))?;
        }
        Answer::Determined(Some(cells)) => {
            let cols = puzzle.size().1;
            let pick = |want: Option<bool>| -> Vec<[usize; 2]> {
                (0..cells.len())
                    .filter(|&i| cells[i] == want)
                    .map(|i| [i / cols, i % cols])
                    .collect()
            };
            let [placed, empty] = puzzle.cell_words();
            let mut fields = json!({
                "solvable": true,
                "board": puzzle.determined_board(cells),
                "undetermined": pick(None),
            });
            fields[format!("determined_{placed}")] = json!(pick(Some(true)));
            fields[format!("determined_{empty}")] = json!(pick(Some(false)));
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&with(head, fields))?
            )?;
        }
        Answer::Repair(report) => {
            let fields = match report {
                Report::Unique(a) => {
                    json!({ "verdict": "unique", "solutions": [solution(puzzle, a)?] })
                }
                Report::Conflict(rules) => {
                    json!({ "verdict": "none", "solutions": [], "conflict": rules })
                }
                Report::NotUnique {
                    first,
                    second,
                    repairs,
                } => json!({
                    "verdict": "multiple",
                    "solutions": [solution(puzzle, first)?, solution(puzzle, second)?],
                    "differing_cells": differing_cells(puzzle.size().1, first, second),
                    "repairs": repairs.iter().map(|r| json!({
                        "changes": r.changes,
                        "solutions": number(&r.solutions),
                        "unique": r.is_unique(),
                    })).collect::<Vec<_>>(),
                }),
                Report::Stopped => json!({ "verdict": "undecided" }),
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&with(head, fields))?
            )?;
        }
        Answer::GaveUp(gave_up) => write_gave_up(puzzle, mode, head, gave_up, out)?,
    }
    Ok(())
}

/// `{"puzzle": .., "count": N, "complete": .., "solutions": [..]}`, streamed.
fn write_listing<P: BoardPuzzle>(
    puzzle: &P,
    head: Value,
    boards: &BoardList,
    complete: bool,
    extra: Option<Value>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let mut fields = json!({ "count": boards.len(), "complete": complete });
    if let Some(extra) = extra {
        fields = with(fields, extra);
    }
    let head = serde_json::to_string_pretty(&with(head, fields))?;
    writeln!(out, "{},", head.trim_end_matches("\n}"))?;
    writeln!(out, "  \"solutions\": [")?;
    let n = boards.len();
    for (k, cells) in boards.iter().enumerate() {
        let sep = if k + 1 < n { "," } else { "" };
        writeln!(out, "    {}{sep}", solution(puzzle, &cells)?)?;
    }
    writeln!(out, "  ]\n}}")?;
    Ok(())
}

fn write_gave_up<P: BoardPuzzle>(
    puzzle: &P,
    mode: Mode,
    head: Value,
    gave_up: &GaveUp,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let stop = json!({
        "gave_up": if crate::limits::interrupted() { "interrupted" } else { "time limit" },
        "seconds": gave_up.after.as_secs_f64(),
        "at_least": number(&gave_up.at_least),
    });
    match mode {
        Mode::All { .. } => write_listing(puzzle, head, &gave_up.boards, false, Some(stop), out)?,
        Mode::Count { .. } => {
            let fields = with(
                json!({ "count": number(&gave_up.at_least), "complete": false }),
                stop,
            );
            writeln!(out, "{}", with(head, fields))?;
        }
        Mode::One | Mode::Unique | Mode::Determined | Mode::Repair => {
            let verdict = if matches!(mode, Mode::Unique | Mode::Repair) {
                json!({ "verdict": "undecided" })
            } else {
                json!({})
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&with(with(head, verdict), stop))?
            )?;
        }
    }
    Ok(())
}

fn solution<P: BoardPuzzle>(puzzle: &P, cells: &[bool]) -> anyhow::Result<Value> {
    Ok(puzzle.solution_json(&puzzle.read(cells)?))
}

/// Counts beyond 64 bits go out as a string of digits, which JSON readers keep exact.
fn number(count: &Count) -> Value {
    match count.to_u64() {
        Some(n) => json!(n),
        None => json!(count.to_string()),
    }
}

/// `a`'s fields followed by `b`'s.
fn with(mut a: Value, b: Value) -> Value {
    if let (Some(a), Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}
