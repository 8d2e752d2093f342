//! Drawing Star Battle boards: the course program's exact output file, the board (`@` a
//! star, the zone label elsewhere), and the determined-cells board.

use gridsat_encodings::star_battle::{Puzzle, Stars};
use std::io::Write;

/// The board as the course program prints it: `@` for a star, the zone label elsewhere, row 0 first.
pub fn board_lines(puzzle: &Puzzle, stars: &Stars) -> Vec<String> {
    let labels = puzzle.labels();
    (0..puzzle.rows)
        .map(|r| {
            (0..puzzle.cols)
                .map(|c| {
                    if stars.has_star(r, c) {
                        '@'
                    } else {
                        labels[r * puzzle.cols + c].unwrap_or('?')
                    }
                })
                .collect()
        })
        .collect()
}

/// The course program's output file: the count, then (when printing) a blank line,
/// `Solution k:` and the board for each solution. Streams: one reusable buffer,
/// whatever the number of solutions.
pub fn write_course_output(
    out: &mut impl Write,
    puzzle: &Puzzle,
    count: &dyn std::fmt::Display,
    solutions: impl Iterator<Item = Stars>,
) -> std::io::Result<()> {
    writeln!(out, "Number of solutions: {count}")?;
    // The board without stars, drawn once, and where each cell's label sits in it: a
    // solution is that text with its stars' labels replaced by `@`, copied in a few
    // slices (listings run to millions of boards).
    let mut blank = String::new();
    let mut spans = Vec::with_capacity(puzzle.rows * puzzle.cols);
    for (i, label) in puzzle.labels().into_iter().enumerate() {
        let start = blank.len();
        blank.push(label.unwrap_or('?'));
        spans.push(start..blank.len());
        if (i + 1) % puzzle.cols == 0 {
            blank.push('\n');
        }
    }
    let blank = blank.as_bytes();
    let mut text = Vec::new();
    for (k, stars) in solutions.enumerate() {
        text.clear();
        write!(text, "\nSolution {}:\n", k + 1)?;
        let mut copied = 0;
        for (span, _) in spans.iter().zip(&stars.star).filter(|(_, &star)| star) {
            text.extend_from_slice(&blank[copied..span.start]);
            text.push(b'@');
            copied = span.end;
        }
        text.extend_from_slice(&blank[copied..]);
        out.write_all(&text)?;
    }
    Ok(())
}

/// The cells holding a star, as `[row, col]` pairs in row-major order.
pub fn star_cells(stars: &Stars) -> Vec<[usize; 2]> {
    (0..stars.rows)
        .flat_map(|r| (0..stars.cols).map(move |c| [r, c]))
        .filter(|&[r, c]| stars.has_star(r, c))
        .collect()
}

/// The determined-cells board: `@` a star in every solution, `.` a star in none,
/// `?` undetermined.
pub fn determined_lines(puzzle: &Puzzle, cells: &[Option<bool>]) -> Vec<String> {
    (0..puzzle.rows)
        .map(|r| {
            cells[r * puzzle.cols..(r + 1) * puzzle.cols]
                .iter()
                .map(|v| match v {
                    Some(true) => '@',
                    Some(false) => '.',
                    None => '?',
                })
                .collect()
        })
        .collect()
}
