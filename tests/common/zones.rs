//! Random Star Battle boards for the tests: zones grown from seed cells.

use super::Rng;
use gridsat_encodings::grid::Cell;
use gridsat_encodings::star_battle::{Puzzle, Zone};

/// A rows x cols board whose zone k grows from `seeds[k]`: a random unclaimed cell next
/// to a zone joins one of its neighbouring zones, until every cell has one, so every zone
/// is contiguous as in real puzzles. Labels are `a`, `b`, ... in seed order.
pub fn grown(rng: &mut Rng, rows: usize, cols: usize, seeds: &[Cell]) -> Puzzle {
    let mut owner: Vec<Option<usize>> = vec![None; rows * cols];
    for (k, s) in seeds.iter().enumerate() {
        owner[s.row * cols + s.col] = Some(k);
    }
    while owner.iter().any(Option::is_none) {
        let i = rng.below(rows * cols);
        if owner[i].is_some() {
            continue;
        }
        let (r, c) = (i / cols, i % cols);
        let neighbours = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        let near: Vec<usize> = neighbours
            .iter()
            .filter(|&&(nr, nc)| nr < rows && nc < cols)
            .filter_map(|&(nr, nc)| owner[nr * cols + nc])
            .collect();
        if !near.is_empty() {
            owner[i] = Some(near[rng.below(near.len())]);
        }
    }
    let zones = (0..seeds.len())
        .map(|k| Zone {
            label: (b'a' + k as u8) as char,
            cells: (0..rows * cols)
                .filter(|&i| owner[i] == Some(k))
                .map(|i| Cell::new(i / cols, i % cols))
                .collect(),
        })
        .collect();
    Puzzle { rows, cols, zones }
}
