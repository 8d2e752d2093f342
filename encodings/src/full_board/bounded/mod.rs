//! Every winning game of at most `K` moves, by a depth-first search over games that
//! prunes with three sound counting arguments: a proof that no shorter game exists
//! (or the list of all short games) where the line cover is tight.
//!
//! The search plays every start cell and, after each move, both directions of the other
//! axis (moves alternate between horizontal and vertical: a move stops with the cell
//! ahead blocked and the cell behind visited). Before expanding a position it asks
//! whether the rest of the game could still win within the moves left; if not, the
//! subtree is skipped. Let `U` be the unvisited open cells, `b` the ball's cell, and `h`
//! and `v` the most horizontal and vertical moves the remaining `R` moves can contain
//! (`⌈R/2⌉` on the axis of the next move, `⌊R/2⌋` on the other; before the first move
//! both splits are tried). The rest of a winning game enters every cell of `U` once:
//!
//! - **Runs, to a fixed point.** A horizontal move enters consecutive cells of one row,
//!   all unvisited when it is made, hence all inside one maximal horizontal run of `U`
//!   (runs only shrink as cells are visited); a vertical move enters at most one cell of
//!   a row. So the row runs some horizontal move enters (at most `h` of them) and the
//!   column runs some vertical move enters (at most `v`) together cover `U`. Call a run
//!   *needed* when every such cover contains it. If `k` column runs are known to be
//!   needed, a row run with more than `v - k` cells off those columns is needed: left
//!   out, each of those cells (all in different columns) would need its own column run
//!   besides the `k`. The same holds with the axes swapped; the rule is applied to both
//!   axes until nothing changes, and more than `h` needed row runs or `v` needed column
//!   runs is a dead position. Its first round is "a row run longer than `v` needs a
//!   horizontal move", the line cover's pigeonhole at the start of a game; re-applied
//!   after every move it forces most turns on boards where the cover is tight, which
//!   the SAT encodings do not find on their own.
//! - **Dead ends.** The rest of the game is a path from `b` through every cell of `U`,
//!   stepping between neighbours, so a cell of `U` with no neighbour in `U` or at `b`
//!   cannot be reached, and one with exactly one can only be the path's last cell: at
//!   most one such cell.
//! - **Connectivity.** Every cell of `U` is reachable from `b` through cells of `U`.
//!
//! Each test only rejects positions from which no winning game of the remaining length
//! exists, so every winning game of at most `K` moves is found, and every game found is
//! played by the rules (the search rolls the ball itself). The answer is therefore a
//! proof: an empty list proves that no game of at most `K` moves wins. If moreover no
//! branch was cut by the move limit or by the run test (`limit_mattered` false), the
//! search would run the same for every larger `K` (more moves left only weaken the run
//! test: a needed run's excess over the spare moves can only fall as `h` and `v` grow,
//! so the fixed point's needed sets shrink), so no game of any length wins.
//!
//! A finished search also returns its **frontier**: the positions its move limit or run
//! test cut. Dead ends and connectivity do not depend on the limit, so every winning
//! game longer than the limit passes through a frontier position (its first position
//! that was not expanded), and `games_beyond` continues the search from there with a
//! larger limit instead of repeating it; with a game's `n - 1` moves as the limit it
//! lists every winning game of any length. On set-2018 large map 1 (a 48 x 48 room with
//! five isolated obstacles) nearly every subtree dies by connectivity within about 100
//! nodes, so the search at 95 moves (157,520 nodes) and its continuation from the 3,818
//! cut positions (8,072 nodes) prove that no game of any length wins.
//!
//! The search is exponential in general; a budget bounds it, and running out of budget
//! proves nothing. It is fast exactly where the SAT encodings are slow: when the moves
//! left barely cover the rows and columns left, most turns are forced (on the 3-block
//! rooms of the course's large maps the search visits about 30 nodes per start cell).
//!
//! Cost per node: a few word operations per row of the smallest rectangle holding the
//! unvisited cells and per run, the cells being kept as bit masks a line to a word
//! (`bits`): the runs, the cells with no or one neighbour, a flood that fills rows to
//! their runs, and the fixed point's rounds, each a count of one mask per run (see
//! `prune`). Boards of at most 60 x 60 cells (the map files' limit).

//!
//! Files: this one holds the interface (the searches and their reports), `search` the
//! search's board and its expansion, `prune` the three tests, `bits` the word
//! operations they are made of.

mod bits;
mod prune;
mod search;

use super::{Board, Cell, Plan};
use search::{Halt, Search};

/// What the search established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bounded {
    /// Every winning game of at most the asked number of moves, sorted (empty: none).
    Complete(Vec<Plan>),
    /// The budget ran out before the search was complete: nothing is proven.
    OverBudget,
    /// The caller's stop test stopped the search (a time limit): nothing is proven.
    Stopped,
}

/// The outcome and the work spent: nodes expanded, and nodes times board cells (the
/// unit of the budget, since every node costs a pass over the board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    pub outcome: Bounded,
    /// Some branch was cut by a test that depends on the move limit (the limit itself
    /// or the run test). When none was, the search is the same for every larger limit
    /// (the run test only weakens as the limit grows), so an empty list proves that no
    /// game of any length wins.
    pub limit_mattered: bool,
    pub nodes: u64,
    pub work: u64,
    /// Where the work went: which test cut how many positions, nodes per depth.
    pub profile: Profile,
    /// The positions (start cell and moves so far) that the move limit or the run test
    /// cut, or `None` when there were more than `FRONTIER_CAP`. Every winning game longer
    /// than the limit passes through one of them (see `games_beyond`).
    pub frontier: Option<Vec<Plan>>,
}

/// The most cut positions a search keeps for `games_beyond`.
pub const FRONTIER_CAP: usize = 1 << 18;

/// Counters of a search, for measuring where it spends its nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// Positions cut by the move limit itself.
    pub cut_by_limit: u64,
    /// Positions cut by the run test.
    pub cut_by_runs: u64,
    /// Positions cut by the dead-end test.
    pub cut_by_dead_ends: u64,
    /// Positions cut by the connectivity test.
    pub cut_by_connectivity: u64,
    /// Nodes expanded per number of moves made.
    pub nodes_at_depth: Vec<u64>,
}

impl Profile {
    /// The two profiles' counts added up (searches of disjoint start cells).
    pub fn merge(mut self, other: Profile) -> Profile {
        self.cut_by_limit += other.cut_by_limit;
        self.cut_by_runs += other.cut_by_runs;
        self.cut_by_dead_ends += other.cut_by_dead_ends;
        self.cut_by_connectivity += other.cut_by_connectivity;
        if self.nodes_at_depth.len() < other.nodes_at_depth.len() {
            self.nodes_at_depth.resize(other.nodes_at_depth.len(), 0);
        }
        for (a, b) in self.nodes_at_depth.iter_mut().zip(other.nodes_at_depth) {
            *a += b;
        }
        self
    }
}

/// Every winning game of at most `max_moves` moves on `board`, or `OverBudget` once
/// `budget` units of work (nodes times board cells) are spent.
pub fn games_within(board: &Board, max_moves: usize, budget: u64) -> SearchReport {
    games_from(board, &board.open_cells(), max_moves, budget, &never)
}

/// The stop test of a search that only its budget stops.
pub fn never() -> bool {
    false
}

/// The same for the games that start on one of `starts` (open cells): the searches from
/// disjoint sets of start cells are independent, so callers may run them in parallel and
/// `merge` the reports. `stop` is asked every thousand nodes or so; when it says true
/// the search ends as `Stopped` (a time limit; the crate has no clock of its own).
pub fn games_from(
    board: &Board,
    starts: &[Cell],
    max_moves: usize,
    budget: u64,
    stop: &dyn Fn() -> bool,
) -> SearchReport {
    let positions: Vec<Plan> = starts
        .iter()
        .map(|&start| Plan {
            start,
            moves: Vec::new(),
        })
        .collect();
    games_beyond(board, &positions, max_moves, budget, stop)
}

/// Every winning game of at most `max_moves` moves that continues one of `positions`
/// (each a start cell and moves played from it by the rules, none of them a finished
/// game, no position a prefix of another), or `OverBudget`.
///
/// This continues a finished search with a larger limit without repeating it: a
/// search's tests other than the move limit and the run test (dead ends,
/// connectivity) do not depend on the limit, so along every winning game the first
/// position a search with a smaller limit did not expand was cut by the limit or the
/// run test, and is in that search's `frontier` (or the game was found). So when a
/// search with limit `k` finished, its games together with
/// `games_beyond(its frontier, m)` are every winning game of at most `m >= k` moves;
/// with `m = n - 1` (a game enters a new cell with every move) that is every winning
/// game of any length. `stop` as for `games_from`.
pub fn games_beyond(
    board: &Board,
    positions: &[Plan],
    max_moves: usize,
    budget: u64,
    stop: &dyn Fn() -> bool,
) -> SearchReport {
    let mut search = Search::new(board, max_moves, budget, stop);
    let result = search.run(positions);
    let nodes = search.nodes;
    let work = nodes.saturating_mul(search.free.len() as u64);
    let outcome = match result {
        Ok(()) => {
            let mut games = search.games;
            games.sort();
            Bounded::Complete(games)
        }
        Err(Halt::OverBudget) => Bounded::OverBudget,
        Err(Halt::Stopped) => Bounded::Stopped,
    };
    SearchReport {
        outcome,
        limit_mattered: search.limit_mattered,
        nodes,
        work,
        profile: search.profile,
        frontier: search.frontier,
    }
}

impl SearchReport {
    /// The report of the searches from two disjoint sets of start cells together.
    pub fn merge(self, other: SearchReport) -> SearchReport {
        let outcome = match (self.outcome, other.outcome) {
            (Bounded::Complete(mut a), Bounded::Complete(b)) => {
                a.extend(b);
                a.sort();
                Bounded::Complete(a)
            }
            (Bounded::Stopped, _) | (_, Bounded::Stopped) => Bounded::Stopped,
            _ => Bounded::OverBudget,
        };
        SearchReport {
            outcome,
            limit_mattered: self.limit_mattered || other.limit_mattered,
            nodes: self.nodes + other.nodes,
            work: self.work + other.work,
            profile: self.profile.merge(other.profile),
            frontier: match (self.frontier, other.frontier) {
                (Some(mut a), Some(b)) if a.len() + b.len() <= FRONTIER_CAP => {
                    a.extend(b);
                    Some(a)
                }
                _ => None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(rows: usize, cols: usize) -> Board {
        Board::new(rows, cols, vec![true; rows * cols])
    }

    #[test]
    fn an_open_square_needs_2n_minus_1_moves() {
        // The line cover is exact on an open rectangle: 2 * 4 - 1 = 7 moves.
        let board = room(4, 4);
        assert_eq!(
            games_within(&board, 6, u64::MAX).outcome,
            Bounded::Complete(Vec::new())
        );
        let Bounded::Complete(games) = games_within(&board, 7, u64::MAX).outcome else {
            panic!("no budget limit");
        };
        assert!(!games.is_empty());
        assert!(games.iter().all(|g| g.moves.len() == 7));
    }

    /// The widest and tallest boards the map files allow: the frame's bits on both
    /// sides of a 60-cell line fit the search's words (`bits`).
    #[test]
    fn a_sixty_cell_side_fits_the_bit_masks() {
        for board in [room(3, 60), room(60, 3)] {
            assert_eq!(
                games_within(&board, 4, u64::MAX).outcome,
                Bounded::Complete(Vec::new())
            );
            let Bounded::Complete(games) = games_within(&board, 5, u64::MAX).outcome else {
                panic!("no budget limit");
            };
            assert!(!games.is_empty());
            assert!(games.iter().all(|g| g.moves.len() == 5));
        }
    }

    #[test]
    #[should_panic(expected = "at most 60 x 60")]
    fn a_larger_board_is_refused() {
        games_within(&room(61, 2), 1, u64::MAX);
    }

    #[test]
    fn one_open_cell_is_the_empty_game() {
        let board = Board::new(1, 2, vec![true, false]);
        let report = games_within(&board, 0, u64::MAX);
        assert_eq!(
            report.outcome,
            Bounded::Complete(vec![Plan {
                start: Cell::new(0, 0),
                moves: Vec::new()
            }])
        );
    }

    #[test]
    fn searches_from_split_starts_merge_into_the_whole() {
        let mut open = vec![true; 25];
        open[12] = false;
        let board = Board::new(5, 5, open);
        let whole = games_within(&board, 12, u64::MAX);
        let cells = board.open_cells();
        let part = |parity: usize| -> Vec<Cell> {
            cells.iter().skip(parity).step_by(2).copied().collect()
        };
        let merged = games_from(&board, &part(0), 12, u64::MAX, &never).merge(games_from(
            &board,
            &part(1),
            12,
            u64::MAX,
            &never,
        ));
        assert!(matches!(&whole.outcome, Bounded::Complete(g) if !g.is_empty()));
        assert_eq!(merged, whole);
    }

    #[test]
    fn a_small_budget_proves_nothing() {
        let report = games_within(&room(6, 6), 11, 10);
        assert_eq!(report.outcome, Bounded::OverBudget);
    }

    #[test]
    fn a_stop_test_ends_the_search_unproven() {
        let board = room(6, 6);
        let report = games_from(&board, &board.open_cells(), 11, u64::MAX, &|| true);
        assert_eq!(report.outcome, Bounded::Stopped);
    }
}
