//! An independent check of a star placement against the rules. It shares no code with
//! the encoder: it counts stars directly on the grid.

use gridsat_encodings::star_battle::{LineRule, Puzzle, Stars};

/// The first broken rule found, in words a puzzle author understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    #[error("the solution is {0} x {1} but the puzzle is {2} x {3}")]
    WrongSize(usize, usize, usize, usize),
    #[error("zone '{label}' has {found} stars instead of {wanted}")]
    Zone {
        label: char,
        found: usize,
        wanted: usize,
    },
    #[error("row {row} has {found} stars; the rule allows {rule} {wanted}")]
    Row {
        row: usize,
        found: usize,
        rule: &'static str,
        wanted: usize,
    },
    #[error("column {col} has {found} stars; the rule allows {rule} {wanted}")]
    Column {
        col: usize,
        found: usize,
        rule: &'static str,
        wanted: usize,
    },
    #[error("the stars at (row {0}, col {1}) and (row {2}, col {3}) touch")]
    Touching(usize, usize, usize, usize),
}

pub fn check(
    puzzle: &Puzzle,
    stars_per_unit: usize,
    rule: LineRule,
    stars: &Stars,
) -> Result<(), Violation> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    if stars.rows != rows || stars.cols != cols || stars.star.len() != rows * cols {
        return Err(Violation::WrongSize(stars.rows, stars.cols, rows, cols));
    }
    for zone in &puzzle.zones {
        let found = zone
            .cells
            .iter()
            .filter(|c| stars.has_star(c.row, c.col))
            .count();
        if found != stars_per_unit {
            return Err(Violation::Zone {
                label: zone.label,
                found,
                wanted: stars_per_unit,
            });
        }
    }
    let line_ok = |found: usize| match rule {
        LineRule::AtMost => found <= stars_per_unit,
        LineRule::Exact => found == stars_per_unit,
    };
    let rule_words = match rule {
        LineRule::AtMost => "at most",
        LineRule::Exact => "exactly",
    };
    for row in 0..rows {
        let found = (0..cols).filter(|&c| stars.has_star(row, c)).count();
        if !line_ok(found) {
            return Err(Violation::Row {
                row,
                found,
                rule: rule_words,
                wanted: stars_per_unit,
            });
        }
    }
    for col in 0..cols {
        let found = (0..rows).filter(|&r| stars.has_star(r, col)).count();
        if !line_ok(found) {
            return Err(Violation::Column {
                col,
                found,
                rule: rule_words,
                wanted: stars_per_unit,
            });
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            if !stars.has_star(r, c) {
                continue;
            }
            // Looking only forward (right and the row below) meets every touching pair once.
            let below = r + 1 < rows;
            let neighbours = [
                (c + 1 < cols).then(|| (r, c + 1)),
                (below && c > 0).then(|| (r + 1, c - 1)),
                below.then(|| (r + 1, c)),
                (below && c + 1 < cols).then(|| (r + 1, c + 1)),
            ];
            for (nr, nc) in neighbours.into_iter().flatten() {
                if stars.has_star(nr, nc) {
                    return Err(Violation::Touching(r, c, nr, nc));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridsat_encodings::grid::Cell;
    use gridsat_encodings::star_battle::Zone;

    fn two_by_three() -> Puzzle {
        // A A B
        // A B B
        Puzzle {
            rows: 2,
            cols: 3,
            zones: vec![
                Zone {
                    label: 'A',
                    cells: vec![Cell::new(0, 0), Cell::new(0, 1), Cell::new(1, 0)],
                },
                Zone {
                    label: 'B',
                    cells: vec![Cell::new(0, 2), Cell::new(1, 1), Cell::new(1, 2)],
                },
            ],
        }
    }

    fn stars(bits: [bool; 6]) -> Stars {
        Stars {
            rows: 2,
            cols: 3,
            star: bits.to_vec(),
        }
    }

    #[test]
    fn accepts_a_good_placement_and_names_each_broken_rule() {
        let p = two_by_three();
        let good = stars([true, false, false, false, false, true]);
        assert_eq!(check(&p, 1, LineRule::AtMost, &good), Ok(()));
        assert!(matches!(
            check(
                &p,
                1,
                LineRule::AtMost,
                &stars([true, false, false, false, false, false])
            ),
            Err(Violation::Zone {
                label: 'B',
                found: 0,
                ..
            })
        ));
        assert!(matches!(
            check(&p, 1, LineRule::Exact, &good),
            Err(Violation::Column {
                col: 1,
                found: 0,
                ..
            })
        ));
        assert!(matches!(
            check(
                &p,
                1,
                LineRule::AtMost,
                &stars([false, false, false, true, true, false])
            ),
            Err(Violation::Row {
                row: 1,
                found: 2,
                ..
            })
        ));
        assert!(matches!(
            check(
                &p,
                1,
                LineRule::AtMost,
                &stars([false, true, false, false, false, true])
            ),
            Err(Violation::Touching(0, 1, 1, 2))
        ));
    }
}
