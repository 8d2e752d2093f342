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
    Rules::new(puzzle, stars_per_unit, rule).check(stars)
}

/// One puzzle's rules, prepared to check many placements (a listing checks millions):
/// every test then looks only at the stars placed, not at every cell.
#[derive(Clone, Debug)]
pub struct Rules {
    rows: usize,
    cols: usize,
    labels: Vec<char>,
    /// For each cell (row-major), the zones it belongs to, as indices into `labels`.
    zones_of_cell: Vec<Vec<usize>>,
    stars_per_unit: usize,
    rule: LineRule,
}

impl Rules {
    pub fn new(puzzle: &Puzzle, stars_per_unit: usize, rule: LineRule) -> Rules {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let mut zones_of_cell = vec![Vec::new(); rows * cols];
        for (z, zone) in puzzle.zones.iter().enumerate() {
            // A cell outside the grid can hold no star; the parser refuses such zones.
            for cell in zone.cells.iter().filter(|c| c.row < rows && c.col < cols) {
                zones_of_cell[cell.row * cols + cell.col].push(z);
            }
        }
        Rules {
            rows,
            cols,
            labels: puzzle.zones.iter().map(|zone| zone.label).collect(),
            zones_of_cell,
            stars_per_unit,
            rule,
        }
    }

    /// The first broken rule, looking at zones, then rows, then columns (each in order),
    /// then touching stars in row-major order.
    pub fn check(&self, stars: &Stars) -> Result<(), Violation> {
        let (rows, cols, wanted) = (self.rows, self.cols, self.stars_per_unit);
        if stars.rows != rows || stars.cols != cols || stars.star.len() != rows * cols {
            return Err(Violation::WrongSize(stars.rows, stars.cols, rows, cols));
        }
        // The stars in row-major order: every count and the touching test need only them.
        let placed: Vec<usize> = stars
            .star
            .iter()
            .enumerate()
            .filter(|&(_, &star)| star)
            .map(|(i, _)| i)
            .collect();
        let mut in_zone = vec![0; self.labels.len()];
        let mut in_row = vec![0; rows];
        let mut in_col = vec![0; cols];
        for &i in &placed {
            for &z in &self.zones_of_cell[i] {
                in_zone[z] += 1;
            }
            in_row[i / cols] += 1;
            in_col[i % cols] += 1;
        }
        if let Some((z, &found)) = in_zone.iter().enumerate().find(|&(_, &n)| n != wanted) {
            return Err(Violation::Zone {
                label: self.labels[z],
                found,
                wanted,
            });
        }
        let line_ok = |found: usize| match self.rule {
            LineRule::AtMost => found <= wanted,
            LineRule::Exact => found == wanted,
        };
        let rule = match self.rule {
            LineRule::AtMost => "at most",
            LineRule::Exact => "exactly",
        };
        if let Some((row, &found)) = in_row.iter().enumerate().find(|&(_, &n)| !line_ok(n)) {
            return Err(Violation::Row {
                row,
                found,
                rule,
                wanted,
            });
        }
        if let Some((col, &found)) = in_col.iter().enumerate().find(|&(_, &n)| !line_ok(n)) {
            return Err(Violation::Column {
                col,
                found,
                rule,
                wanted,
            });
        }
        for &i in &placed {
            let (r, c) = (i / cols, i % cols);
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
        Ok(())
    }
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

    /// The rules read cell by cell, the way a person checks a board: the prepared check
    /// must find the same first violation.
    fn by_hand(p: &Puzzle, wanted: usize, rule: LineRule, s: &Stars) -> Result<(), Violation> {
        let words = if rule == LineRule::Exact {
            "exactly"
        } else {
            "at most"
        };
        let ok = |n: usize| n == wanted || (rule == LineRule::AtMost && n < wanted);
        for zone in &p.zones {
            let found = zone
                .cells
                .iter()
                .filter(|c| s.has_star(c.row, c.col))
                .count();
            if found != wanted {
                let label = zone.label;
                return Err(Violation::Zone {
                    label,
                    found,
                    wanted,
                });
            }
        }
        for row in 0..p.rows {
            let found = (0..p.cols).filter(|&c| s.has_star(row, c)).count();
            if !ok(found) {
                return Err(Violation::Row {
                    row,
                    found,
                    rule: words,
                    wanted,
                });
            }
        }
        for col in 0..p.cols {
            let found = (0..p.rows).filter(|&r| s.has_star(r, col)).count();
            if !ok(found) {
                return Err(Violation::Column {
                    col,
                    found,
                    rule: words,
                    wanted,
                });
            }
        }
        for r in 0..p.rows {
            for c in 0..p.cols {
                let ahead = [(0, 1), (1, -1), (1, 0), (1, 1)];
                for (dr, dc) in ahead {
                    let (nr, nc) = (r + dr, c as isize + dc);
                    let inside = nr < p.rows && (0..p.cols as isize).contains(&nc);
                    if s.has_star(r, c) && inside && s.has_star(nr, nc as usize) {
                        return Err(Violation::Touching(r, c, nr, nc as usize));
                    }
                }
            }
        }
        Ok(())
    }

    #[test]
    fn finds_the_same_first_violation_as_a_cell_by_cell_reading() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut verdicts = std::collections::BTreeSet::new();
        let kind = |verdict: &Result<(), Violation>| match verdict {
            Ok(()) => "ok",
            Err(Violation::WrongSize(..)) => "size",
            Err(Violation::Zone { .. }) => "zone",
            Err(Violation::Row { .. }) => "row",
            Err(Violation::Column { .. }) => "column",
            Err(Violation::Touching(..)) => "touching",
        };
        for _ in 0..3000 {
            let (rows, cols) = (1 + next(5), 1 + next(5));
            let zones = 1 + next(4);
            let mut cells = vec![Vec::new(); zones];
            for r in 0..rows {
                for c in 0..cols {
                    cells[next(zones)].push(Cell::new(r, c));
                }
            }
            let puzzle = Puzzle {
                rows,
                cols,
                zones: (0..zones)
                    .map(|z| Zone {
                        label: (b'a' + z as u8) as char,
                        cells: cells[z].clone(),
                    })
                    .collect(),
            };
            let placed = Stars {
                rows,
                cols,
                star: (0..rows * cols).map(|_| next(4) == 0).collect(),
            };
            let wanted = 1 + next(2);
            for rule in [LineRule::AtMost, LineRule::Exact] {
                let expected = by_hand(&puzzle, wanted, rule, &placed);
                assert_eq!(
                    check(&puzzle, wanted, rule, &placed),
                    expected,
                    "{puzzle:?} {placed:?}"
                );
                verdicts.insert(kind(&expected));
            }
        }
        assert_eq!(
            verdicts.len(),
            5,
            "every kind of verdict but a wrong size came up"
        );
    }
}
