//! The clauses of a Battleship puzzle (rules numbered as in the module docs), the sizes a
//! front end checks before building them, and decoding a model back to ships.

use super::model::{Hint, Orientation, Piece, Placement, Puzzle, MAX_SHIP_LENGTH};
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};
use crate::grid::{Cell, LitGrid};

/// The choices that change the clauses but not the solutions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Options {
    /// The encoding of the row and column sums.
    pub card: CardEncoding,
}

/// The encoding of the fleet counts, whatever `Options::card` says: they count over
/// hundreds of placements, where `Pairwise` would need astronomically many clauses.
pub const FLEET_CARD: CardEncoding = CardEncoding::SequentialCounter;

/// An upper bound on the auxiliary variables of the fleet counters: at most 13
/// placements per cell (one submarine, two orientations of six longer lengths), each
/// counted by a sequential counter as wide as the fleet plus one. Real puzzles stay in
/// the tens of thousands; a front end can refuse a file whose bound is far beyond.
pub fn fleet_counter_bound(puzzle: &Puzzle) -> u128 {
    let cells = (puzzle.rows as u128) * (puzzle.cols as u128);
    cells * 13 * (puzzle.fleet.len() as u128 + 1)
}

/// How many clauses the `Pairwise` encoding of the known row and column sums would take
/// (saturating): `C(n, s+1)` to forbid more than `s` of `n` cells and `C(n, n-s+1)` to
/// forbid fewer. Lets a front end refuse a pairwise encoding too large to build.
pub fn pairwise_sum_clauses(puzzle: &Puzzle) -> u128 {
    let line = |n: usize, sum: &Option<usize>| match *sum {
        Some(s) if s < n && s > 0 => CardEncoding::Pairwise.estimated_clauses(n, s, s),
        _ => 0,
    };
    let rows = puzzle.row_sums.iter().map(|s| line(puzzle.cols, s));
    let cols = puzzle.col_sums.iter().map(|s| line(puzzle.rows, s));
    rows.chain(cols).fold(0, u128::saturating_add)
}

/// The CNF of a puzzle, the cell variables (the projection) and the placement variables.
#[derive(Clone, Debug)]
pub struct Encoded {
    pub cnf: Cnf,
    pub cells: LitGrid,
    pub placements: Vec<(Placement, Lit)>,
}

pub fn encode(puzzle: &Puzzle, options: &Options) -> Encoded {
    let mut cnf = Cnf::new();
    let ship = LitGrid::primary(&mut cnf, puzzle.rows, puzzle.cols);
    let card = options.card;
    let (known, unknown) = puzzle.fleet_census();

    cnf.begin_group("ship shape");
    for (a, b) in diagonal_pairs(&ship) {
        cnf.clause([!a, !b]);
    }

    cnf.begin_group("ships");
    let allowed = |length: usize| unknown > 0 || known[length] > 0;
    let placements = placements_of(puzzle, allowed, &ship, &mut cnf);
    let mut covering: Vec<Vec<Lit>> = vec![Vec::new(); puzzle.rows * puzzle.cols];
    for (placement, lit) in &placements {
        for cell in placement.cells() {
            covering[cell.row * puzzle.cols + cell.col].push(*lit);
        }
    }
    for (cell, cover) in ship.cells().zip(&covering) {
        cnf.clause([!ship.at(cell)].into_iter().chain(cover.iter().copied()));
    }

    cnf.begin_group("fleet");
    let fleet_size = puzzle.fleet.len();
    // No board holds more pairwise non-touching ships than it has 2x2 blocks (rounded
    // up); a larger fleet is impossible, and saying so directly keeps a huge fleet list
    // from building a huge counter.
    if fleet_size > puzzle.rows.div_ceil(2) * puzzle.cols.div_ceil(2) {
        cnf.clause([]);
    } else {
        let implied = implied_fleet_count(puzzle);
        for (length, &named) in known.iter().enumerate().skip(1) {
            if Some(length) == implied {
                continue;
            }
            let of_length: Vec<Lit> = placements
                .iter()
                .filter(|(p, _)| p.length == length)
                .map(|&(_, lit)| lit)
                .collect();
            let most = if unknown == 0 { named } else { of_length.len() };
            FLEET_CARD.constrain(&mut cnf, &of_length, named, most);
        }
        if unknown > 0 {
            let all: Vec<Lit> = placements.iter().map(|&(_, lit)| lit).collect();
            FLEET_CARD.constrain(&mut cnf, &all, fleet_size, fleet_size);
        }
    }

    cnf.begin_group("row sums");
    for (line, sum) in ship.row_lines().zip(&puzzle.row_sums) {
        if let Some(sum) = *sum {
            card.constrain(&mut cnf, &line, sum, sum);
        }
    }
    cnf.begin_group("column sums");
    for (line, sum) in ship.col_lines().zip(&puzzle.col_sums) {
        if let Some(sum) = *sum {
            card.constrain(&mut cnf, &line, sum, sum);
        }
    }

    cnf.begin_group("hints");
    for hint in &puzzle.hints {
        encode_hint(&mut cnf, &ship, hint);
    }
    cnf.end_group();

    Encoded {
        cnf,
        cells: ship,
        placements,
    }
}

/// The ship length whose fleet count the other rules already imply, if any: then its
/// counter is left out (fewer auxiliary variables to propagate).
///
/// Every ship cell lies in exactly one true placement (the segment it belongs to), so
/// the ship cells number `sum over lengths L of L * n_L`, with `n_L` true placements of
/// length `L`. When the fleet has no `unknown` ship and every row sum (or every column
/// sum) is known and they add up to the fleet's cells, the sums fix that total; with
/// `n_L` equal to the fleet's count for every length but one, the equation fixes the
/// last one too.
///
/// The one left out is the shortest length: a search that places long ships first (as
/// the counting engine does, see `gate_order` in src/solver/count) reaches the short
/// ones last, when the sums leave them little choice, so their counter prunes least.
/// On puzzle10 leaving out the submarines' counter cut the engine's time by a third;
/// leaving out the destroyers' instead doubled its decisions (69,412 against 34,145).
fn implied_fleet_count(puzzle: &Puzzle) -> Option<usize> {
    let (known, unknown) = puzzle.fleet_census();
    let fleet_cells: usize = (1..=MAX_SHIP_LENGTH).map(|l| l * known[l]).sum();
    let total = |sums: &[Option<usize>]| sums.iter().copied().sum::<Option<usize>>();
    let fixed = [total(&puzzle.row_sums), total(&puzzle.col_sums)].contains(&Some(fleet_cells));
    if unknown > 0 || !fixed {
        return None;
    }
    (1..=MAX_SHIP_LENGTH).find(|&l| known[l] > 0)
}

/// Each unordered pair of cells that touch only at a corner, once.
fn diagonal_pairs(grid: &LitGrid) -> Vec<(Lit, Lit)> {
    let mut pairs = Vec::new();
    for cell in grid.cells() {
        for dc in [-1isize, 1] {
            if let Some(other) = grid.offset(cell, 1, dc) {
                pairs.push((grid.at(cell), grid.at(other)));
            }
        }
    }
    pairs
}

/// Every placement of an allowed length that fits the board and that the sums and hints
/// do not rule out on their own, each with a fresh literal equal to "these cells are ship,
/// the cells just beyond both ends are water".
///
/// Leaving out a placement the other rules forbid anyway changes no solution, and it
/// matters: every placement costs a variable, clauses and counter inputs, and the solver's
/// work per enumerated solution grows with the formula.
fn placements_of(
    puzzle: &Puzzle,
    allowed: impl Fn(usize) -> bool,
    ship: &LitGrid,
    cnf: &mut Cnf,
) -> Vec<(Placement, Lit)> {
    // The hints on each cell, row-major, so that checking a placement costs its own
    // cells only, however many hints the file has.
    let mut hints: Vec<Vec<Piece>> = vec![Vec::new(); puzzle.rows * puzzle.cols];
    for hint in &puzzle.hints {
        hints[hint.cell.row * puzzle.cols + hint.cell.col].push(hint.piece);
    }
    let mut out = Vec::new();
    for length in (1..=MAX_SHIP_LENGTH).filter(|&l| allowed(l)) {
        for top_left in ship.cells() {
            let orientations: &[Orientation] = if length == 1 {
                &[Orientation::Horizontal]
            } else {
                &[Orientation::Horizontal, Orientation::Vertical]
            };
            for &orientation in orientations {
                let placement = Placement {
                    top_left,
                    length,
                    orientation,
                };
                let end = placement.cell(length - 1);
                if end.row >= puzzle.rows
                    || end.col >= puzzle.cols
                    || ruled_out(puzzle, &hints, &placement, ship)
                {
                    continue;
                }
                let mut conjuncts: Vec<Lit> = placement.cells().map(|c| ship.at(c)).collect();
                conjuncts.extend(
                    beyond_ends(ship, &placement)
                        .into_iter()
                        .map(|c| !ship.at(c)),
                );
                out.push((placement, cnf.and_lit(&conjuncts)));
            }
        }
    }
    out
}

/// True when a known sum is too small for the placement's cells, or a hint contradicts
/// it: a hint on one of its cells that names another piece, or a ship piece just beyond
/// one of its ends.
fn ruled_out(puzzle: &Puzzle, hints: &[Vec<Piece>], placement: &Placement, ship: &LitGrid) -> bool {
    let (along, across) = match placement.orientation {
        Orientation::Horizontal => (&puzzle.row_sums, &puzzle.col_sums),
        Orientation::Vertical => (&puzzle.col_sums, &puzzle.row_sums),
    };
    let first = placement.top_left;
    let (line, start) = match placement.orientation {
        Orientation::Horizontal => (first.row, first.col),
        Orientation::Vertical => (first.col, first.row),
    };
    if along[line].is_some_and(|s| s < placement.length)
        || (start..start + placement.length).any(|i| across[i] == Some(0))
    {
        return true;
    }
    let hints_at = |cell: Cell| &hints[cell.row * puzzle.cols + cell.col];
    let wrong_piece = placement
        .cells()
        .enumerate()
        .any(|(k, cell)| hints_at(cell).iter().any(|&p| p != piece_of(placement, k)));
    let ship_beyond_an_end = beyond_ends(ship, placement)
        .into_iter()
        .any(|cell| hints_at(cell).iter().any(|&p| p != Piece::Water));
    wrong_piece || ship_beyond_an_end
}

/// The piece the `k`-th cell of `placement` shows.
fn piece_of(placement: &Placement, k: usize) -> Piece {
    let last = placement.length - 1;
    match (placement.orientation, k) {
        _ if placement.length == 1 => Piece::Submarine,
        (Orientation::Horizontal, 0) => Piece::LeftEnd,
        (Orientation::Horizontal, k) if k == last => Piece::RightEnd,
        (Orientation::Vertical, 0) => Piece::TopEnd,
        (Orientation::Vertical, k) if k == last => Piece::BottomEnd,
        _ => Piece::Middle,
    }
}

/// The on-board cells that must be water for `placement` to be a whole ship: the cells
/// just beyond each end (and for a submarine, all four orthogonal neighbours).
fn beyond_ends(grid: &LitGrid, placement: &Placement) -> Vec<Cell> {
    let first = placement.top_left;
    let last = placement.cell(placement.length - 1);
    let steps: &[(Cell, isize, isize)] = match (placement.length, placement.orientation) {
        (1, _) => &[(first, 0, -1), (first, 0, 1), (first, -1, 0), (first, 1, 0)],
        (_, Orientation::Horizontal) => &[(first, 0, -1), (last, 0, 1)],
        (_, Orientation::Vertical) => &[(first, -1, 0), (last, 1, 0)],
    };
    steps
        .iter()
        .filter_map(|&(cell, dr, dc)| grid.offset(cell, dr, dc))
        .collect()
}

fn encode_hint(cnf: &mut Cnf, ship: &LitGrid, hint: &Hint) {
    let cell = hint.cell;
    // The neighbour `(dr, dc)` away is ship; off the board that is impossible.
    let ship_at = |dr, dc| ship.offset(cell, dr, dc).map(|c| ship.at(c));
    let here = ship.at(cell);
    let must_be_ship = |cnf: &mut Cnf, lit: Option<Lit>| cnf.clause(lit);
    let must_be_water = |cnf: &mut Cnf, lit: Option<Lit>| {
        if let Some(l) = lit {
            cnf.clause([!l]);
        }
    };
    const LEFT: (isize, isize) = (0, -1);
    const RIGHT: (isize, isize) = (0, 1);
    const UP: (isize, isize) = (-1, 0);
    const DOWN: (isize, isize) = (1, 0);
    let at = |(dr, dc): (isize, isize)| ship_at(dr, dc);
    if hint.piece == Piece::Water {
        cnf.clause([!here]);
        return;
    }
    cnf.clause([here]);
    // Ship cells are straight segments (rule 1), so naming which neighbours are ship
    // and which are water pins down the piece.
    let (ship_sides, water_sides): (&[_], &[_]) = match hint.piece {
        Piece::Submarine => (&[], &[LEFT, RIGHT, UP, DOWN]),
        Piece::LeftEnd => (&[RIGHT], &[LEFT]),
        Piece::RightEnd => (&[LEFT], &[RIGHT]),
        Piece::TopEnd => (&[DOWN], &[UP]),
        Piece::BottomEnd => (&[UP], &[DOWN]),
        Piece::Middle => {
            // (left and right) or (up and down), as four clauses.
            for h in [LEFT, RIGHT] {
                for v in [UP, DOWN] {
                    cnf.clause(at(h).into_iter().chain(at(v)));
                }
            }
            (&[], &[])
        }
        Piece::Water => unreachable!("handled above"),
    };
    for &side in ship_sides {
        must_be_ship(cnf, at(side));
    }
    for &side in water_sides {
        must_be_water(cnf, at(side));
    }
}

impl Encoded {
    /// The ships of a solution (total assignment indexed by variable), upper-left cells
    /// in row-major order.
    pub fn decode(&self, values: &[bool]) -> Vec<Placement> {
        let mut ships: Vec<Placement> = self
            .placements
            .iter()
            .filter(|(_, lit)| lit.eval(values))
            .map(|&(p, _)| p)
            .collect();
        ships.sort();
        ships
    }

    /// Whether each cell is ship, row-major.
    pub fn decode_cells(&self, values: &[bool]) -> Vec<bool> {
        self.cells.all().iter().map(|l| l.eval(values)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battleship::{FleetShip, ShipType};

    #[test]
    fn binomials_and_pairwise_cost() {
        use crate::card::binomial;
        assert_eq!(binomial(10, 3), 120);
        assert_eq!(binomial(10, 0), 1);
        assert_eq!(binomial(3, 5), 0);
        assert_eq!(binomial(300, 150), u128::MAX);
        let puzzle = Puzzle {
            rows: 1,
            cols: 4,
            row_sums: vec![Some(2)],
            col_sums: vec![None, Some(0), Some(1), None],
            fleet: vec![],
            hints: vec![],
        };
        // Row: C(4, 3) + C(4, 3); columns of one cell with sum 0 or 1 need no clauses.
        assert_eq!(pairwise_sum_clauses(&puzzle), 8);
    }

    /// The fleet counts and the known sums are recorded as cardinality constraints (the
    /// counting engine propagates those natively), each over the right literals and
    /// bounds; the implied count and `?` sums add none.
    #[test]
    fn fleet_counts_and_sums_are_recorded_as_cardinality_constraints() {
        use FleetShip::Known;
        let puzzle = Puzzle {
            rows: 4,
            cols: 5,
            row_sums: vec![Some(4), Some(0), None, Some(1)],
            col_sums: vec![Some(1), Some(2), Some(1), Some(2), Some(1)],
            fleet: vec![
                Known(ShipType::Cruiser),
                Known(ShipType::Destroyer),
                Known(ShipType::Submarine),
                Known(ShipType::Submarine),
            ],
            hints: vec![],
        };
        let encoded = encode(&puzzle, &Options::default());
        // Lengths the fleet lacks have no placements: their counts (0 of nothing) are
        // recorded too, and restrict nothing.
        let (empty, cards): (Vec<_>, Vec<_>) = encoded
            .cnf
            .cardinalities()
            .iter()
            .partition(|card| card.lits.is_empty());
        assert!(empty.iter().all(|card| card.lo == 0));
        // Column sums add up to the fleet's 7 cells: the submarines' count is implied.
        assert_eq!(implied_fleet_count(&puzzle), Some(1));
        // Destroyers, cruisers, 3 known row sums, 5 column sums.
        assert_eq!(cards.len(), 2 + 3 + 5);
        for (card, length) in cards.iter().zip([2, 3]) {
            let expected: Vec<Lit> = encoded
                .placements
                .iter()
                .filter(|(p, _)| p.length == length)
                .map(|&(_, lit)| lit)
                .collect();
            assert_eq!((&card.lits, card.lo, card.hi), (&expected, 1, 1));
        }
        let rows = [(0, 4), (1, 0), (3, 1)];
        for (card, (r, sum)) in cards[2..5].iter().zip(rows) {
            assert_eq!(
                (&card.lits, card.lo, card.hi),
                (&encoded.cells.row(r), sum, sum)
            );
        }
        for (c, card) in cards[5..].iter().enumerate() {
            let sum = puzzle.col_sums[c].unwrap();
            assert_eq!(
                (&card.lits, card.lo, card.hi),
                (&encoded.cells.col(c), sum, sum)
            );
        }
    }
}
