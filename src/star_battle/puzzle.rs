//! Star Battle as a board puzzle of the answer layer: its rules (stars per zone, the
//! line rule, the encoding), its CNF, and how its boards read, check and draw.

use super::check::Rules;
use super::draw::{board_lines, determined_lines, star_cells};
use super::file::{course_file, letter_grid};
use super::repair;
use super::url::write_url;
use crate::answer::Proposal;
use crate::answer::{svg, BoardPuzzle};
use crate::cli::Format;
use crate::error::InternalError;
use crate::limits::Budget;
use crate::solver::Session;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::star_battle::{
    encode, encode_rules, estimated_clauses, Encoded, LineRule, Options, Puzzle, Stars,
};
use gridsat_encodings::CardEncoding;
use serde_json::json;

/// A puzzle together with the rules it is solved under, and its formula.
#[derive(Clone, Debug)]
pub struct StarBattle {
    pub puzzle: Puzzle,
    /// Stars per zone, row and column (S).
    pub stars: usize,
    pub rule: LineRule,
    pub card: CardEncoding,
    encoded: Encoded,
    rules: Rules,
}

/// The most clauses a puzzle's formula may be estimated to take (a few hundred MB of
/// clauses): beyond it the command refuses before building, and names the way out.
pub const MAX_CLAUSES: u128 = 40_000_000;

impl StarBattle {
    /// `new`, unless the formula is estimated to pass `MAX_CLAUSES` (the message says
    /// how large it would be and what to choose instead).
    pub fn within_limits(
        puzzle: Puzzle,
        stars: usize,
        rule: LineRule,
        card: CardEncoding,
    ) -> Result<StarBattle, String> {
        let options = Options {
            stars,
            line_rule: rule,
            card,
        };
        let clauses = estimated_clauses(&puzzle, &options);
        if clauses > MAX_CLAUSES {
            let size = if clauses == u128::MAX {
                "more than 2^128".to_string()
            } else {
                format!("about {clauses}")
            };
            let instead = if card == CardEncoding::Pairwise {
                "; choose another --card (sequential, the default, grows linearly)"
            } else {
                ""
            };
            return Err(format!(
                "a {}x{} grid with {stars} stars needs {size} clauses with the {card} \
                 encoding (the limit is {MAX_CLAUSES}){instead}",
                puzzle.rows, puzzle.cols
            ));
        }
        Ok(StarBattle::new(puzzle, stars, rule, card))
    }

    pub fn new(puzzle: Puzzle, stars: usize, rule: LineRule, card: CardEncoding) -> StarBattle {
        let options = Options {
            stars,
            line_rule: rule,
            card,
        };
        let encoded = encode(&puzzle, &options);
        StarBattle {
            rules: Rules::new(&puzzle, stars, rule),
            puzzle,
            stars,
            rule,
            card,
            encoded,
        }
    }

    pub fn encoded(&self) -> &Encoded {
        &self.encoded
    }
}

impl BoardPuzzle for StarBattle {
    type Solution = Stars;

    fn cnf(&self) -> &Cnf {
        &self.encoded.cnf
    }

    fn size(&self) -> (usize, usize) {
        (self.puzzle.rows, self.puzzle.cols)
    }

    fn read(&self, cells: &[bool]) -> Result<Stars, InternalError> {
        Ok(Stars {
            rows: self.puzzle.rows,
            cols: self.puzzle.cols,
            star: cells.to_vec(),
        })
    }

    fn check(&self, stars: &Stars) -> Result<(), InternalError> {
        self.rules.check(stars).map_err(|violation| {
            InternalError::new(format!(
                "the solver produced a placement that breaks the rules ({violation})"
            ))
        })
    }

    fn board(&self, stars: &Stars) -> Vec<String> {
        board_lines(&self.puzzle, stars)
    }

    fn determined_board(&self, cells: &[Option<bool>]) -> Vec<String> {
        determined_lines(&self.puzzle, cells)
    }

    fn cell_words(&self) -> [&'static str; 2] {
        ["stars", "empty"]
    }

    fn puzzle_json(&self) -> serde_json::Value {
        json!({
            "rows": self.puzzle.rows,
            "cols": self.puzzle.cols,
            "stars": self.stars,
            "rule": self.rule.name(),
        })
    }

    fn solution_json(&self, stars: &Stars) -> serde_json::Value {
        json!({ "board": board_lines(&self.puzzle, stars), "stars": star_cells(stars) })
    }

    /// The zones' borders thick, a star on every placed cell, `?` on an undecided one.
    fn paint(&self, board: &mut svg::Board, cells: &[Option<bool>]) {
        let (rows, cols) = (self.puzzle.rows, self.puzzle.cols);
        let labels = self.puzzle.labels();
        for r in 0..rows {
            for c in 0..cols {
                let here = labels[r * cols + c];
                if c + 1 < cols && labels[r * cols + c + 1] != here {
                    board.border(r, c, true);
                }
                if r + 1 < rows && labels[(r + 1) * cols + c] != here {
                    board.border(r, c, false);
                }
                match cells[r * cols + c] {
                    Some(true) => board.star(r, c, svg::colour::PLACED),
                    Some(false) => {}
                    None => board.label(r, c, svg::colour::INK, "?"),
                }
            }
        }
    }

    fn rules(&self) -> Vec<String> {
        repair::rules(&self.puzzle, self.stars, self.rule)
    }

    fn solvable_with(&self, kept: &[bool]) -> anyhow::Result<bool> {
        let options = Options {
            stars: self.stars,
            line_rule: self.rule,
            card: self.card,
        };
        let encoded = encode_rules(&self.puzzle, &options, |rule| {
            kept[repair::rule_index(&self.puzzle, rule)]
        });
        Ok(Session::new(&encoded.cnf).solve()?.is_some())
    }

    fn repairs(&self, _witness: &[bool], budget: &Budget) -> anyhow::Result<Vec<Proposal<Self>>> {
        let build = |moved| StarBattle::new(moved, self.stars, self.rule, self.card);
        Ok(repair::border_moves(&self.puzzle, budget, build))
    }

    fn write_puzzle(&self, format: Format) -> Result<String, String> {
        match format {
            Format::Url => write_url(&self.puzzle, self.stars).map(|url| url + "\n"),
            Format::Course => Ok(course_file(&self.puzzle)),
            Format::Grid => Ok(letter_grid(&self.puzzle, self.stars)),
            other => Err(format!("--format {other:?} is not a form of the puzzle")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::BoardPuzzle;
    use crate::star_battle::cli::load;

    /// The size estimate that guards `within_limits` bounds every encoding's real
    /// formula on the corpus, and is of its order (so that it refuses only what is huge).
    #[test]
    fn the_size_estimate_bounds_the_formula() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for (file, stars) in [("twonot1.txt", 2), ("custom1.txt", 2), ("queens8.txt", 1)] {
            let parsed = load(&root.join("examples/star-battle").join(file)).unwrap();
            for rule in [LineRule::AtMost, LineRule::Exact] {
                for card in CardEncoding::ALL {
                    let options = Options {
                        stars,
                        line_rule: rule,
                        card,
                    };
                    let estimate = estimated_clauses(&parsed.puzzle, &options);
                    let built = StarBattle::new(parsed.puzzle.clone(), stars, rule, card);
                    let clauses = built.cnf().num_clauses() as u128;
                    let what = format!("{file} {rule:?} {card}: {clauses} clauses, {estimate}");
                    assert!(clauses <= estimate, "{what}");
                    assert!(estimate <= clauses * 12, "{what}");
                }
            }
        }
    }

    #[test]
    fn a_formula_too_large_is_refused_before_it_is_built() {
        let side = 60;
        let puzzle = Puzzle {
            rows: side,
            cols: side,
            zones: (0..side)
                .map(|r| gridsat_encodings::star_battle::Zone {
                    label: char::from_u32(0x100 + r as u32).unwrap(),
                    cells: (0..side)
                        .map(|c| gridsat_encodings::grid::Cell::new(r, c))
                        .collect(),
                })
                .collect(),
        };
        let e =
            StarBattle::within_limits(puzzle.clone(), 3, LineRule::Exact, CardEncoding::Pairwise)
                .unwrap_err();
        assert!(e.contains("choose another --card"), "{e}");
        assert!(StarBattle::within_limits(
            puzzle,
            3,
            LineRule::Exact,
            CardEncoding::SequentialCounter
        )
        .is_ok());
    }
}
