//! Random small Battleship puzzles, counted two ways: by the SAT encoding, and by a brute
//! force written separately from it (every board of the grid, checked the way a person
//! would: find the ships as connected groups of cells, then check the rules).
//!
//! Puzzles are planted: a random fleet is placed, the sums are read off, some sums become
//! `?`, some ships `unknown`, and a few hints are added (mostly true, some false, so that
//! puzzles without solutions occur too).

mod common;
use common::Rng;
use gridsat::answer::repair::Report;
use gridsat::answer::{find, Answer, BoardPuzzle};
use gridsat::battleship::puzzle::Battleship;
use gridsat::cli::Mode;
use gridsat::limits::Budget;
use gridsat_encodings::battleship::{FleetShip, Hint, Piece, Placement, Puzzle, ShipType};
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::grid::Cell;
use std::collections::BTreeSet;
use std::sync::Arc;

/// A board as a bit set of ship cells, bit `r * cols + c`.
type Board = u32;

/// What the brute force sees at each ship cell: the ship it belongs to.
struct Ship {
    cells: Vec<(usize, usize)>,
}

impl Ship {
    fn piece_at(&self, r: usize, c: usize) -> char {
        if self.cells.len() == 1 {
            return 'o';
        }
        let horizontal = self.cells.iter().all(|&(row, _)| row == self.cells[0].0);
        let min = self.cells.iter().min().copied().unwrap();
        let max = self.cells.iter().max().copied().unwrap();
        match ((r, c) == min, (r, c) == max, horizontal) {
            (true, _, true) => '<',
            (_, true, true) => '>',
            (true, _, false) => '^',
            (_, true, false) => 'v',
            _ => 'X',
        }
    }
}

/// The ships of a board: its orthogonally connected groups of cells.
fn ships_of(board: Board, rows: usize, cols: usize) -> Vec<Ship> {
    let mut seen = 0u32;
    let mut ships = Vec::new();
    for start in 0..rows * cols {
        if board >> start & 1 == 0 || seen >> start & 1 == 1 {
            continue;
        }
        let mut cells = Vec::new();
        let mut stack = vec![start];
        seen |= 1 << start;
        while let Some(i) = stack.pop() {
            let (r, c) = (i / cols, i % cols);
            cells.push((r, c));
            let mut neighbours = Vec::new();
            if r > 0 {
                neighbours.push(i - cols);
            }
            if r + 1 < rows {
                neighbours.push(i + cols);
            }
            if c > 0 {
                neighbours.push(i - 1);
            }
            if c + 1 < cols {
                neighbours.push(i + 1);
            }
            for j in neighbours {
                if board >> j & 1 == 1 && seen >> j & 1 == 0 {
                    seen |= 1 << j;
                    stack.push(j);
                }
            }
        }
        ships.push(Ship { cells });
    }
    ships
}

fn is_solution(puzzle: &Puzzle, board: Board) -> bool {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    let at = |r: usize, c: usize| board >> (r * cols + c) & 1 == 1;
    for (r, sum) in puzzle.row_sums.iter().enumerate() {
        if sum.is_some_and(|s| (0..cols).filter(|&c| at(r, c)).count() != s) {
            return false;
        }
    }
    for (c, sum) in puzzle.col_sums.iter().enumerate() {
        if sum.is_some_and(|s| (0..rows).filter(|&r| at(r, c)).count() != s) {
            return false;
        }
    }
    let ships = ships_of(board, rows, cols);
    // Straight: one row or one column per ship.
    for ship in &ships {
        let (r0, c0) = ship.cells[0];
        if !ship.cells.iter().all(|&(r, _)| r == r0) && !ship.cells.iter().all(|&(_, c)| c == c0) {
            return false;
        }
    }
    // Not touching, even at a corner: a cell of one ship next to a cell of another.
    for (i, a) in ships.iter().enumerate() {
        for b in &ships[i + 1..] {
            for &(ra, ca) in &a.cells {
                for &(rb, cb) in &b.cells {
                    if ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1 {
                        return false;
                    }
                }
            }
        }
    }
    // Fleet: sorted lengths must be matched by the named ships plus unknowns.
    if ships.len() != puzzle.fleet.len() || ships.iter().any(|s| s.cells.len() > 7) {
        return false;
    }
    let mut lengths: Vec<usize> = ships.iter().map(|s| s.cells.len()).collect();
    for named in &puzzle.fleet {
        if let FleetShip::Known(t) = named {
            match lengths.iter().position(|&l| l == t.length()) {
                Some(i) => {
                    lengths.swap_remove(i);
                }
                None => return false,
            }
        }
    }
    for hint in &puzzle.hints {
        let (r, c) = (hint.cell.row, hint.cell.col);
        let seen = match ships.iter().find(|s| s.cells.contains(&(r, c))) {
            None => '_',
            Some(ship) => ship.piece_at(r, c),
        };
        if seen != hint.piece.symbol() {
            return false;
        }
    }
    true
}

fn brute_force(puzzle: &Puzzle) -> BTreeSet<Board> {
    let cells = puzzle.rows * puzzle.cols;
    (0..1u32 << cells)
        .filter(|&b| is_solution(puzzle, b))
        .collect()
}

fn board_of(puzzle: &Puzzle, ships: &[Placement]) -> Board {
    let mut board = 0;
    for ship in ships {
        for cell in ship.cells() {
            board |= 1 << (cell.row * puzzle.cols + cell.col);
        }
    }
    board
}

fn sat_solutions(puzzle: &Puzzle, card: CardEncoding) -> Vec<Board> {
    let solver = Arc::new(Battleship::new(puzzle.clone(), card).unwrap());
    let answer = find(
        solver.clone(),
        Mode::All { limit: None },
        &Budget::unlimited(),
    )
    .expect("solving succeeds and every solution passes the checker");
    let Answer::All {
        boards,
        more: false,
    } = answer
    else {
        panic!("not a complete listing: {answer:?}");
    };
    boards
        .iter()
        .map(|cells| board_of(puzzle, &solver.read(&cells).unwrap()))
        .collect()
}

/// Places a random fleet; returns the puzzle with every sum known and no hints, and the
/// planted board.
fn planted(rng: &mut Rng) -> (Puzzle, Board) {
    const SHAPES: [(usize, usize); 9] = [
        (1, 8),
        (2, 8),
        (2, 6),
        (3, 3),
        (3, 4),
        (3, 5),
        (4, 4),
        (4, 3),
        (5, 3),
    ];
    let (rows, cols) = SHAPES[rng.below(SHAPES.len())];
    let mut taken = vec![false; rows * cols];
    let mut fleet = Vec::new();
    let mut board: Board = 0;
    for _ in 0..1 + rng.below(4) {
        let length = 1 + rng.below(rows.max(cols).min(7));
        for _attempt in 0..30 {
            let horizontal = rng.chance(50);
            let (r0, c0) = (rng.below(rows), rng.below(cols));
            let cells: Vec<(usize, usize)> = (0..length)
                .map(|k| {
                    if horizontal {
                        (r0, c0 + k)
                    } else {
                        (r0 + k, c0)
                    }
                })
                .collect();
            let fits = cells.iter().all(|&(r, c)| {
                r < rows
                    && c < cols
                    && (r.saturating_sub(1)..=(r + 1).min(rows - 1)).all(|nr| {
                        (c.saturating_sub(1)..=(c + 1).min(cols - 1))
                            .all(|nc| !taken[nr * cols + nc])
                    })
            });
            if fits {
                for &(r, c) in &cells {
                    taken[r * cols + c] = true;
                    board |= 1 << (r * cols + c);
                }
                fleet.push(FleetShip::Known(ShipType::of_length(length).unwrap()));
                break;
            }
        }
    }
    let at = |r: usize, c: usize| board >> (r * cols + c) & 1 == 1;
    let puzzle = Puzzle {
        rows,
        cols,
        row_sums: (0..rows)
            .map(|r| Some((0..cols).filter(|&c| at(r, c)).count()))
            .collect(),
        col_sums: (0..cols)
            .map(|c| Some((0..rows).filter(|&r| at(r, c)).count()))
            .collect(),
        fleet,
        hints: Vec::new(),
    };
    (puzzle, board)
}

/// The piece the planted board shows at a cell, read with the brute force's eyes.
fn planted_piece(puzzle: &Puzzle, board: Board, r: usize, c: usize) -> Piece {
    let ships = ships_of(board, puzzle.rows, puzzle.cols);
    let symbol = match ships.iter().find(|s| s.cells.contains(&(r, c))) {
        None => '_',
        Some(ship) => ship.piece_at(r, c),
    };
    Piece::from_symbol(symbol).unwrap()
}

#[test]
fn sat_matches_brute_force_on_random_planted_puzzles() {
    let mut rng = Rng(0x0005_eed0_fba7_71e5);
    let mut with_solutions = 0;
    let mut with_several = 0;
    for round in 0..400 {
        let (mut puzzle, board) = planted(&mut rng);
        let mut planted_is_solution = true;
        for sum in puzzle.row_sums.iter_mut().chain(puzzle.col_sums.iter_mut()) {
            if rng.chance(25) {
                *sum = None;
            }
        }
        for ship in puzzle.fleet.iter_mut() {
            if rng.chance(25) {
                *ship = FleetShip::Unknown;
            }
        }
        for _ in 0..rng.below(3) {
            let (r, c) = (rng.below(puzzle.rows), rng.below(puzzle.cols));
            let piece = if rng.chance(80) {
                planted_piece(&puzzle, board, r, c)
            } else {
                Piece::ALL[rng.below(Piece::ALL.len())]
            };
            planted_is_solution &= piece == planted_piece(&puzzle, board, r, c);
            puzzle.hints.push(Hint {
                cell: Cell::new(r, c),
                piece,
            });
        }
        let card = CardEncoding::ALL[round % CardEncoding::ALL.len()];
        let expected = brute_force(&puzzle);
        let mut found = sat_solutions(&puzzle, card);
        let listed = found.len();
        found.sort_unstable();
        found.dedup();
        assert_eq!(listed, found.len(), "a board listed twice: {puzzle:?}");
        let found: BTreeSet<Board> = found.into_iter().collect();
        assert_eq!(found, expected, "round {round}, {card}: {puzzle:?}");
        assert_eq!(planted_is_solution, expected.contains(&board), "{puzzle:?}");
        with_solutions += usize::from(!expected.is_empty());
        with_several += usize::from(expected.len() > 1);
    }
    // The generator must exercise both kinds of answer, or the test proves little.
    assert!(
        with_solutions >= 200,
        "only {with_solutions} solvable puzzles"
    );
    assert!(
        with_several >= 60,
        "only {with_several} puzzles with several solutions"
    );
}

/// The encoder leaves out one fleet counter when the sums fix the number of ship cells
/// (see `implied_fleet_count`); that is only sound when the sums agree with the fleet.
/// Here every sum is known but the fleet loses a ship, gains a submarine or has a ship
/// changed to another length, so the sums and the fleet often disagree: the SAT count
/// must still equal the brute force (mostly zero, sometimes not).
#[test]
fn fleets_that_disagree_with_the_sums_match_brute_force() {
    let mut rng = Rng(0x00f1_ee75_0da7_a5e7);
    let mut disagreeing = 0;
    let mut solvable = 0;
    for round in 0..200 {
        let (mut puzzle, _board) = planted(&mut rng);
        let fleet_cells = |p: &Puzzle| {
            p.fleet
                .iter()
                .map(|s| match s {
                    FleetShip::Known(t) => t.length(),
                    FleetShip::Unknown => 0,
                })
                .sum::<usize>()
        };
        let before = fleet_cells(&puzzle);
        match rng.below(3) {
            0 if puzzle.fleet.len() > 1 => {
                let i = rng.below(puzzle.fleet.len());
                puzzle.fleet.remove(i);
            }
            1 => puzzle.fleet.push(FleetShip::Known(ShipType::Submarine)),
            _ => {
                let i = rng.below(puzzle.fleet.len());
                let length = 1 + rng.below(puzzle.rows.max(puzzle.cols).min(7));
                puzzle.fleet[i] = FleetShip::Known(ShipType::of_length(length).unwrap());
            }
        }
        disagreeing += usize::from(fleet_cells(&puzzle) != before);
        let card = CardEncoding::ALL[round % CardEncoding::ALL.len()];
        let expected = brute_force(&puzzle);
        let found: BTreeSet<Board> = sat_solutions(&puzzle, card).into_iter().collect();
        assert_eq!(found, expected, "round {round}, {card}: {puzzle:?}");
        solvable += usize::from(!expected.is_empty());
    }
    assert!(disagreeing >= 100, "only {disagreeing} disagreeing fleets");
    assert!(solvable >= 20, "only {solvable} solvable puzzles");
}

/// `--repair` on planted puzzles with several solutions: the hints it proposes leave the
/// witness as the only solution by the brute force, and no smaller set of hints read off
/// the witness would: a set works exactly when, for every other solution, it holds a
/// cell whose piece differs there, which the brute force decides over every subset.
#[test]
fn repairs_are_the_fewest_hints_and_leave_one_solution_by_brute_force() {
    let mut rng = Rng::new(31);
    let mut checked = 0;
    for case in 0..300 {
        let (mut puzzle, _) = planted(&mut rng);
        for sum in puzzle.row_sums.iter_mut().chain(puzzle.col_sums.iter_mut()) {
            if rng.chance(40) {
                *sum = None;
            }
        }
        let all = brute_force(&puzzle);
        if all.len() < 2 || puzzle.rows * puzzle.cols > 15 {
            continue;
        }
        let solver = Arc::new(Battleship::new(puzzle.clone(), CardEncoding::default()).unwrap());
        let Answer::Repair(Report::NotUnique { first, repairs, .. }) =
            find(solver.clone(), Mode::Repair, &Budget::unlimited()).unwrap()
        else {
            panic!("case {case}: not a report of several solutions");
        };
        assert_eq!(repairs.len(), 1, "case {case}");
        let repair = &repairs[0];
        assert!(repair.is_unique(), "case {case}");
        let witness = board_of(&puzzle, &solver.read(&first).unwrap());
        let mut repaired = puzzle.clone();
        for change in &repair.changes {
            let words: Vec<&str> = change.split(' ').collect();
            assert_eq!(words[0], "constraint", "{change}");
            repaired.hints.push(Hint {
                cell: Cell::new(words[1].parse().unwrap(), words[2].parse().unwrap()),
                piece: Piece::from_symbol(words[3].chars().next().unwrap()).unwrap(),
            });
        }
        assert_eq!(
            brute_force(&repaired),
            BTreeSet::from([witness]),
            "case {case}"
        );
        // The smallest set of cells meeting every other solution's differences.
        let n = puzzle.rows * puzzle.cols;
        let differences: Vec<u32> = all
            .iter()
            .filter(|&&b| b != witness)
            .map(|&b| {
                (0..n)
                    .filter(|&i| {
                        let (r, c) = (i / puzzle.cols, i % puzzle.cols);
                        planted_piece(&puzzle, witness, r, c) != planted_piece(&puzzle, b, r, c)
                    })
                    .fold(0u32, |m, i| m | 1 << i)
            })
            .collect();
        let smallest = (0u32..1 << n)
            .filter(|h| differences.iter().all(|d| d & h != 0))
            .map(u32::count_ones)
            .min()
            .unwrap() as usize;
        assert_eq!(
            repair.changes.len(),
            smallest,
            "case {case}: {:?}",
            repair.changes
        );
        checked += 1;
    }
    assert!(checked > 20, "only {checked} puzzles had several solutions");
}

#[test]
fn generated_puzzles_have_one_solution_by_brute_force_and_come_again_from_their_seed() {
    use gridsat::battleship::generate::{fleet, generate};
    for (rows, cols) in [(4, 4), (4, 5), (3, 6)] {
        let ships = fleet(None, rows, cols).unwrap();
        for seed in 0..6 {
            let (puzzle, planted) = generate(rows, cols, &ships, seed).unwrap();
            let all = brute_force(&puzzle.puzzle);
            let planted_board = planted
                .iter()
                .enumerate()
                .filter(|(_, &ship)| ship)
                .fold(0, |board, (i, _)| board | 1 << i);
            assert_eq!(
                all.into_iter().collect::<Vec<_>>(),
                vec![planted_board],
                "{rows} x {cols}, seed {seed}"
            );
            let (again, _) = generate(rows, cols, &ships, seed).unwrap();
            assert_eq!(
                again.puzzle, puzzle.puzzle,
                "seed {seed} gives another puzzle"
            );
        }
    }
}
