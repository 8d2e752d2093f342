//! One run of a board puzzle (Star Battle, Battleship): encode, find a solution, prove
//! it unique (or find a second), each board read and checked by the puzzle's checker.

use crate::answer::board::{cells_of, BoardPuzzle};
use crate::bench::runner::{within, Answer, Sample};
use crate::limits::Budget;
use crate::solver::Session;
use std::time::{Duration, Instant};

/// Times `encode` (which builds the puzzle and its formula, or says why it will not),
/// then one solution and the uniqueness proof on one fresh session, within `budget`.
pub fn run<P: BoardPuzzle>(
    budget: &Budget,
    encode: impl FnOnce() -> Result<P, String> + Send + 'static,
) -> anyhow::Result<Sample> {
    let inner = budget.clone();
    let sample = within(budget, move || measure(&inner, encode));
    Ok(sample.transpose()?.unwrap_or_default())
}

fn measure<P: BoardPuzzle>(
    budget: &Budget,
    encode: impl FnOnce() -> Result<P, String>,
) -> anyhow::Result<Sample> {
    let began = Instant::now();
    let puzzle = match encode() {
        Ok(puzzle) => puzzle,
        Err(why) => {
            return Ok(Sample {
                note: Some(format!("not run: {why}")),
                ..Sample::default()
            })
        }
    };
    let encode = began.elapsed();
    let cnf = puzzle.cnf();
    let mut sample = Sample {
        variables: Some(cnf.num_vars()),
        clauses: Some(cnf.num_clauses()),
        encode: Some(encode),
        ..Sample::default()
    };
    let began = Instant::now();
    let mut session = Session::new(cnf);
    session.stop_at(budget);
    let Some(one) = solved(session.solve())? else {
        return Ok(sample);
    };
    sample.first = Some(began.elapsed());
    let Some(one) = one else {
        sample.proof = sample.first;
        sample.answer = Some(Answer::new("no solution", "none"));
        return Ok(sample);
    };
    let cells = checked(&puzzle, &one)?;
    match puzzle.blocking_clause(&one) {
        Some(clause) => session.add_clause(&clause),
        None => session.block(&one),
    }
    let Some(two) = solved(session.solve())? else {
        return Ok(sample);
    };
    let proof: Duration = began.elapsed();
    sample.proof = Some(proof);
    sample.answer = Some(match two {
        None => Answer::new("unique", format!("unique {}", board_key(&cells))),
        Some(two) => {
            checked(&puzzle, &two)?;
            Answer::new("several", "several")
        }
    });
    Ok(sample)
}

/// A solver's answer, `None` when the call was stopped at the budget.
fn solved<T>(result: Result<T, crate::solver::SolverError>) -> anyhow::Result<Option<T>> {
    match result {
        Ok(answer) => Ok(Some(answer)),
        Err(crate::solver::SolverError::Interrupted) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The cells of a model, read and checked by the puzzle.
fn checked<P: BoardPuzzle>(puzzle: &P, values: &[bool]) -> anyhow::Result<Vec<bool>> {
    let cells = cells_of(puzzle.cnf(), values);
    puzzle.check(&puzzle.read(&cells)?)?;
    Ok(cells)
}

fn board_key(cells: &[bool]) -> String {
    cells.iter().map(|&c| if c { '#' } else { '.' }).collect()
}
