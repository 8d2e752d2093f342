//! Writing a puzzle in the two file formats `parse` reads: the course's (`ROWS COLS`,
//! then per zone its label, its cell count and its `x y` pairs) and the letter grid (the
//! star count, then a row of zone labels per line).

use gridsat_encodings::star_battle::Puzzle;

/// The course's format: zones in order, cells in the order the zone lists them.
pub fn course_file(puzzle: &Puzzle) -> String {
    let mut out = format!("{} {}\n", puzzle.rows, puzzle.cols);
    for zone in &puzzle.zones {
        out.push_str(&format!("{} {}\n", zone.label, zone.cells.len()));
        for cell in &zone.cells {
            out.push_str(&format!("{} {}\n", cell.col, cell.row));
        }
    }
    out
}

/// The letter grid, with the star count on its first line.
pub fn letter_grid(puzzle: &Puzzle, stars: usize) -> String {
    let mut out = format!("{stars}\n");
    for row in puzzle.labels().chunks(puzzle.cols) {
        out.extend(row.iter().map(|l| l.unwrap_or('?')));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::star_battle::parse::parse;

    #[test]
    fn both_formats_read_back_as_the_same_puzzle() {
        for name in ["custom1", "custom2", "twonot1", "queens8"] {
            let path = format!(
                "{}/examples/star-battle/{name}.txt",
                env!("CARGO_MANIFEST_DIR")
            );
            let original = parse(&std::fs::read_to_string(path).unwrap())
                .unwrap()
                .puzzle;
            assert_eq!(
                parse(&course_file(&original)).unwrap().puzzle,
                original,
                "{name}"
            );
            let grid = parse(&letter_grid(&original, 2)).unwrap();
            assert_eq!(grid.stars, Some(2));
            assert_eq!(grid.puzzle.labels(), original.labels(), "{name}");
        }
    }
}
