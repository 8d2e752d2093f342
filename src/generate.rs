//! `gridsat generate`: puzzles with exactly one solution, proven before they are printed,
//! each reproducible from its seed. The puzzles make their own (`star_battle::generate`,
//! `battleship::generate`: plant a solution, build the clues around it, repair until
//! unique); this module holds what they share: the seeded random numbers, and printing
//! them in a format.

use crate::answer::{find, Answer, BoardPuzzle, Verdict};
use crate::cli::{Exit, Format, Mode};
use crate::error::InternalError;
use crate::limits::Budget;
use std::io::Write;
use std::sync::Arc;

/// Random numbers from a seed: SplitMix64, written here rather than taken from a crate
/// because a seed must give the same puzzle in every future build, which a fixed, small
/// algorithm guarantees and a library's "standard" generator does not promise.
#[derive(Clone, Debug)]
pub struct Random(u64);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// The items in a random order.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A seed from the clock, for a run without `--seed` (printed with each puzzle, so that
/// it can be made again).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Proves that `puzzle` has exactly one solution, `planted`, through the answer layer
/// (the checker included), before it is printed.
pub fn prove_unique<P: BoardPuzzle>(puzzle: Arc<P>, planted: &[bool]) -> anyhow::Result<()> {
    match find(puzzle, Mode::Unique, &Budget::unlimited())? {
        Answer::Unique(Verdict::Unique(cells)) if cells == planted => Ok(()),
        _ => Err(
            InternalError::new("a generated puzzle is not unique with its planted solution").into(),
        ),
    }
}

/// Prints generated puzzles: one URL per line, or the files (course format, letter
/// grid) a blank line apart, or a JSON array; the seed of each on standard error.
pub fn print<P: BoardPuzzle>(
    puzzles: &[(u64, Arc<P>)],
    format: Format,
    out: &mut impl Write,
) -> anyhow::Result<Exit> {
    format.require(
        "generate",
        &[Format::Url, Format::Course, Format::Grid, Format::Json],
    )?;
    if format == Format::Json {
        let items: Vec<serde_json::Value> = puzzles
            .iter()
            .map(|(seed, p)| {
                serde_json::json!({
                    "seed": seed,
                    "puzzle": p.puzzle_json(),
                    "url": p.write_puzzle(Format::Url).ok().map(|u| u.trim_end().to_string()),
                    "course": p.write_puzzle(Format::Course).ok(),
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&items)?)?;
        return Ok(Exit::Solved);
    }
    for (k, (seed, puzzle)) in puzzles.iter().enumerate() {
        let text = puzzle.write_puzzle(format).map_err(anyhow::Error::msg)?;
        if k > 0 && format != Format::Url {
            writeln!(out)?;
        }
        out.write_all(text.as_bytes())?;
        eprintln!("gridsat: puzzle {}: seed {seed}", k + 1);
    }
    out.flush()?;
    Ok(Exit::Solved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_numbers_in_every_build() {
        // SplitMix64's published first output for seed 0.
        assert_eq!(Random::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
        let mut a = Random::new(42);
        let mut b = Random::new(42);
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
    }
}
