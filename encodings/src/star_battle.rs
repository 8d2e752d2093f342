//! Star Battle as CNF: one primary variable per cell ("a star stands here").
//!
//! The rules, as encoded:
//! 1. every zone holds exactly S stars;
//! 2. no two stars touch, not even diagonally;
//! 3. every row and 4. every column holds at most S stars (the seed's rule) or exactly S
//!    (the standard puzzle).

use crate::card::CardEncoding;
use crate::cnf::Cnf;
use crate::grid::{Cell, LitGrid};

/// A zone: a labelled set of cells that must hold exactly S stars.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    pub label: char,
    pub cells: Vec<Cell>,
}

/// A Star Battle puzzle: a grid partitioned into zones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub rows: usize,
    pub cols: usize,
    pub zones: Vec<Zone>,
}

impl Puzzle {
    /// The zone label of every cell, row-major; `None` where no zone claims the cell.
    pub fn labels(&self) -> Vec<Option<char>> {
        let mut labels = vec![None; self.rows * self.cols];
        for zone in &self.zones {
            for cell in &zone.cells {
                labels[cell.row * self.cols + cell.col] = Some(zone.label);
            }
        }
        labels
    }
}

/// How many stars a row or column may hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum LineRule {
    /// At most S per row and column: the seed homework's variant.
    #[default]
    AtMost,
    /// Exactly S per row and column: the standard puzzle.
    Exact,
}

impl LineRule {
    pub fn name(self) -> &'static str {
        match self {
            LineRule::AtMost => "at-most",
            LineRule::Exact => "exact",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub stars: usize,
    pub line_rule: LineRule,
    pub card: CardEncoding,
}

/// The CNF of a puzzle and the star variable of each cell.
#[derive(Clone, Debug)]
pub struct Encoded {
    pub cnf: Cnf,
    pub stars: LitGrid,
}

/// Where the stars stand: `true` for a star, row-major.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stars {
    pub rows: usize,
    pub cols: usize,
    pub star: Vec<bool>,
}

impl Stars {
    pub fn has_star(&self, row: usize, col: usize) -> bool {
        self.star[row * self.cols + col]
    }
}

/// One rule of a puzzle, as `encode_rules` can leave it out: a zone's star count, a
/// row's or a column's, or that stars do not touch.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The zone at this index of `Puzzle::zones`.
    Zone(usize),
    Row(usize),
    Column(usize),
    NoTouch,
}

/// About how many clauses `encode` writes (saturating), from the cardinality encodings'
/// own estimates: a front end refuses a formula too large to hold before building it
/// (pairwise on long lines is binomial: a 60 x 60 grid with S = 3 needs billions).
pub fn estimated_clauses(puzzle: &Puzzle, options: &Options) -> u128 {
    let (s, card) = (options.stars, options.card);
    let line = |n: usize| match options.line_rule {
        LineRule::AtMost => card.estimated_clauses(n, 0, s),
        LineRule::Exact => card.estimated_clauses(n, s, s),
    };
    // No two stars touch: at most four clauses per cell.
    let no_touch = 4 * (puzzle.rows as u128) * (puzzle.cols as u128);
    let zones = puzzle
        .zones
        .iter()
        .map(|z| card.estimated_clauses(z.cells.len(), s, s));
    let rows = (0..puzzle.rows).map(|_| line(puzzle.cols));
    let cols = (0..puzzle.cols).map(|_| line(puzzle.rows));
    zones
        .chain(rows)
        .chain(cols)
        .fold(no_touch, u128::saturating_add)
}

pub fn encode(puzzle: &Puzzle, options: &Options) -> Encoded {
    encode_rules(puzzle, options, |_| true)
}

/// The clauses of the rules `keep` accepts only (for finding which rules conflict).
pub fn encode_rules(puzzle: &Puzzle, options: &Options, keep: impl Fn(Rule) -> bool) -> Encoded {
    let mut cnf = Cnf::new();
    let star = LitGrid::primary(&mut cnf, puzzle.rows, puzzle.cols);
    let s = options.stars;
    let card = options.card;

    cnf.begin_group("zones");
    for (k, zone) in puzzle.zones.iter().enumerate() {
        if keep(Rule::Zone(k)) {
            card.constrain(&mut cnf, &star.select(&zone.cells), s, s);
        }
    }
    cnf.begin_group("no-touch");
    if keep(Rule::NoTouch) {
        for (a, b) in star.king_adjacent_pairs() {
            cnf.clause([!a, !b]);
        }
    }
    cnf.begin_group("rows");
    for (r, line) in star.row_lines().enumerate() {
        if keep(Rule::Row(r)) {
            line_constraint(&mut cnf, options, &line);
        }
    }
    cnf.begin_group("columns");
    for (c, line) in star.col_lines().enumerate() {
        if keep(Rule::Column(c)) {
            line_constraint(&mut cnf, options, &line);
        }
    }
    cnf.end_group();
    Encoded { cnf, stars: star }
}

fn line_constraint(cnf: &mut Cnf, options: &Options, line: &[crate::cnf::Lit]) {
    match options.line_rule {
        LineRule::AtMost => options.card.constrain(cnf, line, 0, options.stars),
        LineRule::Exact => options
            .card
            .constrain(cnf, line, options.stars, options.stars),
    }
}

impl Encoded {
    /// Reads the star grid off a total assignment (indexed by variable).
    pub fn decode(&self, values: &[bool]) -> Stars {
        Stars {
            rows: self.stars.rows(),
            cols: self.stars.cols(),
            star: self.stars.all().iter().map(|l| l.eval(values)).collect(),
        }
    }
}
