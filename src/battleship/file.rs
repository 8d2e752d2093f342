//! Writing a puzzle in the course's file format, the one `parse` reads: `board`, the
//! sums (`?` for unknown), a line per ship, then the hints (`constraint ROW COL CH`).

use gridsat_encodings::battleship::{FleetShip, Puzzle};

pub fn course_file(puzzle: &Puzzle) -> String {
    let sums = |sums: &[Option<usize>]| -> String {
        sums.iter()
            .map(|s| s.map_or("?".to_string(), |n| n.to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = format!(
        "board {} {}\nrows {}\ncols {}\n",
        puzzle.rows,
        puzzle.cols,
        sums(&puzzle.row_sums),
        sums(&puzzle.col_sums)
    );
    for ship in &puzzle.fleet {
        out.push_str(match ship {
            FleetShip::Known(t) => t.name(),
            FleetShip::Unknown => "unknown",
        });
        out.push('\n');
    }
    for hint in &puzzle.hints {
        out.push_str(&format!(
            "constraint {} {} {}\n",
            hint.cell.row,
            hint.cell.col,
            hint.piece.symbol()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battleship::parse::parse_puzzle;

    #[test]
    fn the_course_files_read_back_as_the_same_puzzle() {
        for name in [
            "puzzle_sample_constraints",
            "puzzle_sample_unknowns",
            "puzzle10",
        ] {
            let path = format!(
                "{}/examples/battleship/{name}.txt",
                env!("CARGO_MANIFEST_DIR")
            );
            let original = parse_puzzle(&std::fs::read_to_string(path).unwrap()).unwrap();
            assert_eq!(
                parse_puzzle(&course_file(&original)).unwrap(),
                original,
                "{name}"
            );
        }
    }
}
