//! Generating Battleship puzzles with exactly one solution: place the fleet at random
//! (no two ships touching), give every row and column sum, and when other solutions
//! remain add the fewest hints read off the placed fleet (the repair report's
//! `fewest_hints`). Proven unique before it is returned.

use super::puzzle::Battleship;
use super::repair::fewest_hints;
use crate::generate::{prove_unique, Random};
use crate::limits::Budget;
use gridsat_encodings::battleship::{FleetShip, Puzzle, ShipType};
use gridsat_encodings::CardEncoding;
use std::sync::Arc;

/// The largest side generated.
pub const MAX_SIDE: usize = 30;

/// What to generate.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Rows of the board.
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u64).range(1..=MAX_SIDE as u64))]
    pub rows: u64,
    /// Columns of the board.
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u64).range(1..=MAX_SIDE as u64))]
    pub cols: u64,
    /// The fleet: ship names separated by commas (`battleship,cruiser,destroyer,...`), or
    /// `c`, `d`, `e` for the editor's fleets of ships of length 1 to 3, 4 or 5 [default:
    /// `d` on boards of 10 or more, `c` from 6, else two submarines and a destroyer].
    #[arg(long, value_name = "SHIPS")]
    pub fleet: Option<String>,
    /// The seed of the first puzzle (the next ones take the following seeds)
    /// [default: from the clock, printed on standard error].
    #[arg(long, value_name = "K")]
    pub seed: Option<u64>,
    /// How many puzzles.
    #[arg(long, value_name = "M", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub count: u64,
    /// Output: course (the course's file format), url, or json.
    #[arg(long, value_enum, default_value_t = crate::cli::Format::Course)]
    pub format: crate::cli::Format,
}

/// The fleet `--fleet` names, or the default for the board.
pub fn fleet(text: Option<&str>, rows: usize, cols: usize) -> anyhow::Result<Vec<ShipType>> {
    let preset = |longest: usize| -> Vec<ShipType> {
        (1..=longest)
            .rev()
            .flat_map(|l| {
                std::iter::repeat_n(ShipType::of_length(l).expect("a length"), 1 + longest - l)
            })
            .collect()
    };
    match text {
        None if rows.min(cols) >= 10 => Ok(preset(4)),
        None if rows.min(cols) >= 6 => Ok(preset(3)),
        None => Ok(vec![
            ShipType::of_length(2).expect("a destroyer"),
            ShipType::of_length(1).expect("a submarine"),
            ShipType::of_length(1).expect("a submarine"),
        ]),
        Some("c") => Ok(preset(3)),
        Some("d") => Ok(preset(4)),
        Some("e") => Ok(preset(5)),
        Some(list) => list
            .split(',')
            .map(|name| {
                ShipType::from_name(name.trim()).ok_or_else(|| {
                    anyhow::anyhow!(
                        "--fleet: unknown ship '{}' (submarine, destroyer, cruiser, battleship, \
                         carrier, cargo, tanker, or c, d, e)",
                        name.trim()
                    )
                })
            })
            .collect(),
    }
}

/// A unique puzzle with this fleet and its solution's ship cells; the same for the same
/// seed.
pub fn generate(
    rows: usize,
    cols: usize,
    ships: &[ShipType],
    seed: u64,
) -> anyhow::Result<(Battleship, Vec<bool>)> {
    let mut rng = Random::new(seed);
    let mut longest_first = ships.to_vec();
    longest_first.sort_by_key(|t| std::cmp::Reverse(t.length()));
    for _attempt in 0..200 {
        let Some(cells) = place(rows, cols, &longest_first, &mut rng) else {
            continue;
        };
        let sum = |count: usize| Some(count);
        let puzzle = Puzzle {
            rows,
            cols,
            row_sums: (0..rows)
                .map(|r| sum((0..cols).filter(|&c| cells[r * cols + c]).count()))
                .collect(),
            col_sums: (0..cols)
                .map(|c| sum((0..rows).filter(|&r| cells[r * cols + c]).count()))
                .collect(),
            fleet: ships.iter().map(|&t| FleetShip::Known(t)).collect(),
            hints: Vec::new(),
        };
        let build = |hinted| {
            Battleship::new(hinted, CardEncoding::SequentialCounter).map_err(anyhow::Error::msg)
        };
        let Some(repaired) = fewest_hints(&puzzle, &cells, &Budget::unlimited(), build)? else {
            continue;
        };
        let unique = Arc::new(repaired.puzzle);
        prove_unique(unique.clone(), &cells)?;
        return Ok((Arc::try_unwrap(unique).expect("no other owner"), cells));
    }
    anyhow::bail!(
        "the fleet does not fit a {rows} x {cols} board without ships touching (seed {seed})"
    )
}

/// The ships at random places, none touching (not even at a corner); `None` when one
/// does not fit after many tries.
fn place(rows: usize, cols: usize, ships: &[ShipType], rng: &mut Random) -> Option<Vec<bool>> {
    let mut taken = vec![false; rows * cols];
    for ship in ships {
        let length = ship.length();
        let mut spots: Vec<(usize, usize, bool)> = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                for horizontal in [true, false] {
                    if length == 1 && !horizontal {
                        continue;
                    }
                    let (dr, dc) = if horizontal { (0, 1) } else { (1, 0) };
                    let (er, ec) = (r + dr * (length - 1), c + dc * (length - 1));
                    if er >= rows || ec >= cols {
                        continue;
                    }
                    let clear = (r.saturating_sub(1)..=(er + 1).min(rows - 1)).all(|nr| {
                        (c.saturating_sub(1)..=(ec + 1).min(cols - 1))
                            .all(|nc| !taken[nr * cols + nc])
                    });
                    if clear {
                        spots.push((r, c, horizontal));
                    }
                }
            }
        }
        if spots.is_empty() {
            return None;
        }
        let (r, c, horizontal) = spots[rng.below(spots.len())];
        for k in 0..length {
            let (cr, cc) = if horizontal { (r, c + k) } else { (r + k, c) };
            taken[cr * cols + cc] = true;
        }
    }
    Some(taken)
}

/// `gridsat generate battleship`.
pub fn run(args: &Args) -> anyhow::Result<crate::cli::Exit> {
    let (rows, cols) = (args.rows as usize, args.cols as usize);
    let ships = fleet(args.fleet.as_deref(), rows, cols)?;
    let first = args.seed.unwrap_or_else(crate::generate::clock_seed);
    let puzzles = (0..args.count)
        .map(|k| {
            let seed = first.wrapping_add(k);
            generate(rows, cols, &ships, seed).map(|(p, _)| (seed, Arc::new(p)))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    crate::generate::print(&puzzles, args.format, &mut std::io::stdout().lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleets_by_name_and_by_preset() {
        let lengths = |f: Vec<ShipType>| f.iter().map(|t| t.length()).collect::<Vec<_>>();
        assert_eq!(lengths(fleet(Some("c"), 6, 6).unwrap()), [3, 2, 2, 1, 1, 1]);
        assert_eq!(lengths(fleet(None, 10, 10).unwrap()).len(), 10);
        assert_eq!(
            lengths(fleet(Some("cruiser, submarine"), 5, 5).unwrap()),
            [3, 1]
        );
        assert!(fleet(Some("frigate"), 5, 5)
            .unwrap_err()
            .to_string()
            .contains("'frigate'"));
    }
}
