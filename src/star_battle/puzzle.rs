//! Star Battle as a board puzzle of the answer layer: its rules (stars per zone, the
//! line rule, the encoding), its CNF, and how its boards read, check and draw.

use super::check::check;
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
    encode, encode_rules, Encoded, LineRule, Options, Puzzle, Stars,
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
}

impl StarBattle {
    pub fn new(puzzle: Puzzle, stars: usize, rule: LineRule, card: CardEncoding) -> StarBattle {
        let options = Options {
            stars,
            line_rule: rule,
            card,
        };
        let encoded = encode(&puzzle, &options);
        StarBattle {
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
        check(&self.puzzle, self.stars, self.rule, stars).map_err(|violation| {
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
