//! What `--repair` proposes for Battleship: a smallest set of cell hints, read off one
//! solution, that makes that solution the only one; and, when there is no solution,
//! which clues (sums, hints) conflict.
//!
//! The hints are found by an implicit hitting-set loop: every other solution differs
//! from the chosen one on some cells, and a set of hints excludes it exactly when it
//! holds one of those cells. So: take the smallest set of cells meeting the differences
//! of the solutions seen so far (`solver::hitting`), add those cells' hints, and look for
//! another solution; when there is none the set is done, and it is a smallest one, since
//! any set that works meets every difference seen.

use super::draw::board_symbols;
use super::ships::ships_of;
use crate::answer::{BoardPuzzle, Proposal};
use crate::limits::Budget;
use crate::solver::hitting::smallest_hitting_set;
use crate::solver::Session;
use gridsat_encodings::battleship::{Hint, Piece, Puzzle};
use gridsat_encodings::cnf::Lit;
use gridsat_encodings::grid::Cell;

/// The clues that may be left out to find a conflict: the known sums, then the hints.
pub fn rules(puzzle: &Puzzle) -> Vec<String> {
    let mut rules = Vec::new();
    for (r, sum) in puzzle.row_sums.iter().enumerate() {
        if let Some(s) = sum {
            rules.push(format!(
                "row {r}: {s} ship cell{}",
                if *s == 1 { "" } else { "s" }
            ));
        }
    }
    for (c, sum) in puzzle.col_sums.iter().enumerate() {
        if let Some(s) = sum {
            rules.push(format!(
                "column {c}: {s} ship cell{}",
                if *s == 1 { "" } else { "s" }
            ));
        }
    }
    for hint in &puzzle.hints {
        rules.push(format!(
            "constraint {} {} {}",
            hint.cell.row,
            hint.cell.col,
            hint.piece.symbol()
        ));
    }
    rules
}

/// The puzzle without the clues `kept` leaves out (numbered as `rules` lists them).
pub fn keeping(puzzle: &Puzzle, kept: &[bool]) -> Puzzle {
    let mut next = kept.iter().copied();
    let mut relaxed = puzzle.clone();
    for sum in relaxed
        .row_sums
        .iter_mut()
        .chain(relaxed.col_sums.iter_mut())
    {
        if sum.is_some() && next.next() == Some(false) {
            *sum = None;
        }
    }
    relaxed.hints.retain(|_| next.next() != Some(false));
    relaxed
}

/// The piece each cell shows in a solution (water where there is no ship).
fn pieces(puzzle: &Puzzle, cells: &[bool]) -> Vec<Piece> {
    board_symbols(puzzle, &ships_of(puzzle.rows, puzzle.cols, cells))
        .into_iter()
        .map(|symbol| match symbol {
            ' ' => Piece::Water,
            other => Piece::from_symbol(other).expect("the board draws pieces"),
        })
        .collect()
}

/// The fewest hints, read off `witness`, that leave it the only solution.
/// `build` makes the puzzle of a set of hints (a `Battleship` with its encoding).
pub fn fewest_hints<P: BoardPuzzle>(
    p: &Puzzle,
    witness: &[bool],
    budget: &Budget,
    build: impl Fn(Puzzle) -> anyhow::Result<P>,
) -> anyhow::Result<Option<Proposal<P>>> {
    let cols = p.cols;
    let wanted = pieces(p, witness);
    let hinted: Vec<bool> = {
        let mut h = vec![false; p.rows * cols];
        for hint in &p.hints {
            h[hint.cell.row * cols + hint.cell.col] = true;
        }
        h
    };
    let mut differences: Vec<Vec<usize>> = Vec::new();
    let mut chosen: Vec<usize> = Vec::new();
    loop {
        if budget.expired() {
            return Ok(None);
        }
        let mut trial = p.clone();
        trial.hints.extend(chosen.iter().map(|&i| Hint {
            cell: Cell::new(i / cols, i % cols),
            piece: wanted[i],
        }));
        let candidate = build(trial)?;
        let mut session = Session::new(candidate.cnf());
        // Any other board: not all cells (the projection) as the witness has them.
        let not_witness: Vec<Lit> = candidate
            .cnf()
            .projection()
            .iter()
            .zip(witness)
            .map(|(&var, &ship)| Lit::new(var, !ship))
            .collect();
        session.add_clause(&not_witness);
        let Some(values) = session.solve()? else {
            let changes = chosen
                .iter()
                .map(|&i| {
                    format!(
                        "constraint {} {} {}",
                        i / cols,
                        i % cols,
                        wanted[i].symbol()
                    )
                })
                .collect();
            return Ok(Some(Proposal {
                changes,
                puzzle: candidate,
            }));
        };
        let other = crate::answer::board::cells_of(candidate.cnf(), &values);
        let theirs = pieces(p, &other);
        differences.push(
            (0..wanted.len())
                .filter(|&i| !hinted[i] && wanted[i] != theirs[i])
                .collect(),
        );
        match smallest_hitting_set(wanted.len(), &differences)? {
            Some(cells) => chosen = cells,
            // Another solution differs only where hints stand already: no hint helps.
            None => return Ok(None),
        }
    }
}
