//! Light Up (Akari), the toy fifth puzzle: everything that is the puzzle's own, and
//! nothing else. The answer layer gives it every mode (one, all, count, unique,
//! determined), text and JSON, `--timeout` and `--dimacs`.
//!
//! Rules: put lights on white cells so that every white cell is lit (a light shines along
//! its row and column until a wall), no light shines on another, and a numbered wall has
//! exactly that many lights next to it (up, down, left, right).
//!
//! File format, one row per line: `.` a white cell, `#` a wall, `0` to `4` a numbered wall.

use gridsat::answer::BoardPuzzle;
use gridsat::error::InternalError;
use gridsat::input::grammar::{expecting, parse_all, Parsed, Span};
use gridsat::input::ParseError;
use gridsat_encodings::{CardEncoding, Cell, Cnf, LitGrid};
use nom::branch::alt;
use nom::character::complete::{line_ending, one_of, space0};
use nom::combinator::{eof, value};
use nom::multi::many1;
use nom::sequence::terminated;
use nom::Parser;
use serde_json::json;

/// A cell of the board as the file gives it: white, or a wall (maybe numbered).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Square {
    White,
    Wall(Option<usize>),
}

#[derive(Clone, Debug)]
pub struct LightUp {
    pub rows: usize,
    pub cols: usize,
    pub squares: Vec<Square>,
    cnf: Cnf,
}

/// Rows of `.`, `#` and digits, all of one width.
pub fn parse(text: &str) -> Result<LightUp, ParseError> {
    fn row(input: Span<'_>) -> Parsed<'_, Vec<char>> {
        let line_end = (space0, alt((value((), line_ending), value((), eof))));
        terminated(many1(one_of(".#01234")), line_end).parse(input)
    }
    let row_or_end = || "a row of '.', '#' and 0-4".to_string();
    let grammar = terminated(many1(row), expecting(row_or_end, eof));
    let rows = parse_all(text, expecting(row_or_end, grammar))?;
    if let Some(k) = rows.iter().position(|r| r.len() != rows[0].len()) {
        return Err(ParseError::new(k + 1, "the rows are not all of one width"));
    }
    let squares = rows
        .iter()
        .flatten()
        .map(|&c| match c {
            '.' => Square::White,
            '#' => Square::Wall(None),
            digit => Square::Wall(digit.to_digit(10).map(|d| d as usize)),
        })
        .collect();
    Ok(LightUp::new(rows.len(), rows[0].len(), squares))
}

impl LightUp {
    pub fn new(rows: usize, cols: usize, squares: Vec<Square>) -> LightUp {
        let mut puzzle = LightUp {
            rows,
            cols,
            squares,
            cnf: Cnf::new(),
        };
        puzzle.cnf = puzzle.encode(CardEncoding::SequentialCounter);
        puzzle
    }

    fn square(&self, cell: Cell) -> Square {
        self.squares[cell.row * self.cols + cell.col]
    }

    /// The white cells a light on `cell` shines on, `cell` included, split into its
    /// row's run and its column's run.
    fn runs(&self, cell: Cell) -> [Vec<Cell>; 2] {
        let white = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && self.square(Cell::new(r as usize, c as usize)) == Square::White
        };
        let run = |dr: isize, dc: isize| {
            let (mut r, mut c) = (cell.row as isize, cell.col as isize);
            while white(r - dr, c - dc) {
                (r, c) = (r - dr, c - dc);
            }
            let mut cells = Vec::new();
            while white(r, c) {
                cells.push(Cell::new(r as usize, c as usize));
                (r, c) = (r + dr, c + dc);
            }
            cells
        };
        [run(0, 1), run(1, 0)]
    }

    fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .filter_map(move |(dr, dc)| {
                let r = cell.row.checked_add_signed(dr)?;
                let c = cell.col.checked_add_signed(dc)?;
                (r < self.rows && c < self.cols).then(|| Cell::new(r, c))
            })
            .filter(|&n| self.square(n) == Square::White)
    }

    /// The rules as clauses, one line each.
    fn encode(&self, card: CardEncoding) -> Cnf {
        let mut cnf = Cnf::new();
        let light = LitGrid::primary(&mut cnf, self.rows, self.cols);
        let cells: Vec<Cell> = light.cells().collect();
        for &cell in &cells {
            match self.square(cell) {
                Square::Wall(number) => {
                    cnf.clause([!light.at(cell)]);
                    if let Some(n) = number {
                        let around: Vec<Cell> = self.neighbours(cell).collect();
                        card.exactly(&mut cnf, &light.select(&around), n);
                    }
                }
                Square::White => {
                    let [row, col] = self.runs(cell);
                    cnf.clause(light.select(row.iter().chain(&col)));
                    // Each run is met from its first cell only, so it is stated once.
                    for run in [row, col] {
                        if run[0] == cell {
                            card.at_most(&mut cnf, &light.select(&run), 1);
                        }
                    }
                }
            }
        }
        cnf
    }
}

impl BoardPuzzle for LightUp {
    type Solution = Vec<bool>;

    fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn read(&self, cells: &[bool]) -> Result<Vec<bool>, InternalError> {
        Ok(cells.to_vec())
    }

    /// Shares nothing with `encode`: walks the board from every light, the way a person
    /// checks a solution.
    fn check(&self, lights: &Vec<bool>) -> Result<(), InternalError> {
        let fail = |why: String| Err(InternalError::new(format!("Light Up: {why}")));
        let at = |r: isize, c: isize| {
            (r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols)
                .then(|| r as usize * self.cols + c as usize)
        };
        let mut lit = vec![false; lights.len()];
        for i in (0..lights.len()).filter(|&i| lights[i]) {
            let (r, c) = ((i / self.cols) as isize, (i % self.cols) as isize);
            if self.squares[i] != Square::White {
                return fail(format!("a light on the wall at ({r}, {c})"));
            }
            lit[i] = true;
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let mut k = 1;
                while let Some(j) = at(r + k * dr, c + k * dc) {
                    if self.squares[j] != Square::White {
                        break;
                    }
                    if lights[j] {
                        return fail(format!("the light at ({r}, {c}) shines on another"));
                    }
                    lit[j] = true;
                    k += 1;
                }
            }
        }
        for (i, square) in self.squares.iter().enumerate() {
            let (r, c) = ((i / self.cols) as isize, (i % self.cols) as isize);
            match square {
                Square::White if !lit[i] => return fail(format!("cell ({r}, {c}) is dark")),
                Square::Wall(Some(n)) => {
                    let around = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                        .iter()
                        .filter_map(|(dr, dc)| at(r + dr, c + dc))
                        .filter(|&j| lights[j])
                        .count();
                    if around != *n {
                        return fail(format!(
                            "the wall at ({r}, {c}) has {around} lights, not {n}"
                        ));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn board(&self, lights: &Vec<bool>) -> Vec<String> {
        let marks: Vec<Option<bool>> = lights.iter().map(|&l| Some(l)).collect();
        self.determined_board(&marks)
    }

    fn determined_board(&self, cells: &[Option<bool>]) -> Vec<String> {
        let symbol = |i: usize| match (self.squares[i], cells[i]) {
            (Square::Wall(None), _) => '#',
            (Square::Wall(Some(n)), _) => char::from(b'0' + n as u8),
            (Square::White, Some(true)) => '*',
            (Square::White, Some(false)) => '.',
            (Square::White, None) => '?',
        };
        (0..self.rows)
            .map(|r| (0..self.cols).map(|c| symbol(r * self.cols + c)).collect())
            .collect()
    }

    fn cell_words(&self) -> [&'static str; 2] {
        ["lights", "dark"]
    }

    fn puzzle_json(&self) -> serde_json::Value {
        json!({ "rows": self.rows, "cols": self.cols })
    }

    fn solution_json(&self, lights: &Vec<bool>) -> serde_json::Value {
        json!({ "board": self.board(lights) })
    }
}
