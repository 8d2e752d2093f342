//! The bounded exhaustive search (`gridsat_encodings::full_board::bounded`) as the
//! pipeline runs it: from one start cell per orbit of the board's symmetries (see
//! `symmetry`), those start cells split over two threads, a budget of work per map,
//! and the rounds that raise the line cover's bound until the search finds the minimum,
//! proves that no game exists, or runs out of budget.

use super::context::{Context, Options};
use super::symmetry::{images, representatives, symmetries};
use gridsat_encodings::full_board::bounded::{games_beyond, games_from, Bounded, SearchReport};
use gridsat_encodings::full_board::{Board, Cell, Plan};

/// Work the bounded search may spend per map, in nodes times board cells, before the SAT
/// encodings take over from the bound it proved. A unit costs 1 to 2 ns of processor
/// time (a node makes a few word operations per row and run of the unvisited part of
/// the board, kept as bit masks), so this is one or two seconds on two threads; the
/// 3-block large maps need 1.1e8 to 1.8e8, set-2018 large map 1 about 4.4e8 (4.25e8
/// for at most 95 moves, then its frontier), a 58 x 58 room with 1 to 20 random
/// obstacles 8e8 to 9.4e8 (about 220,000 to 260,000 nodes, nearly all cut within ten
/// moves by connectivity).
pub const SEARCH_BUDGET: u64 = 1_500_000_000;

/// The bounded search's start cells are split into this many interleaved parts, each
/// searched on its own thread with its share of the budget. A constant, not the number
/// of cores, so that whether a map is decided within budget does not depend on the
/// machine.
const SEARCH_PARTS: usize = 2;

/// `games_within` with the start cells split into `SEARCH_PARTS` parts searched in
/// parallel (the parts are independent; their reports are merged).
fn games_within_in_parallel(
    board: &Board,
    starts: &[Cell],
    max_moves: usize,
    budget: u64,
    stop: &(dyn Fn() -> bool + Sync),
) -> SearchReport {
    in_parallel(starts, budget, |starts, share| {
        games_from(board, starts, max_moves, share, stop)
    })
}

/// `games_beyond` with the positions split like the start cells above.
fn games_beyond_in_parallel(
    board: &Board,
    positions: &[Plan],
    max_moves: usize,
    budget: u64,
    stop: &(dyn Fn() -> bool + Sync),
) -> SearchReport {
    in_parallel(positions, budget, |part, share| {
        games_beyond(board, part, max_moves, share, stop)
    })
}

/// Runs `search` on `SEARCH_PARTS` interleaved parts of `items`, each on its own thread
/// with its share of `budget`, and merges the reports.
fn in_parallel<T: Clone + Sync>(
    items: &[T],
    budget: u64,
    search: impl Fn(&[T], u64) -> SearchReport + Sync,
) -> SearchReport {
    let parts: Vec<Vec<T>> = (0..SEARCH_PARTS)
        .map(|part| {
            items
                .iter()
                .skip(part)
                .step_by(SEARCH_PARTS)
                .cloned()
                .collect()
        })
        .collect();
    let share = budget / SEARCH_PARTS as u64;
    let search = &search;
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .iter()
            .map(|part| scope.spawn(move || search(part, share)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .reduce(SearchReport::merge)
            .expect("at least one part")
    })
}

/// A search's outcome in the `--verbose` log.
fn describe(outcome: &Bounded) -> String {
    match outcome {
        Bounded::Complete(games) if games.is_empty() => "none".to_string(),
        Bounded::Complete(games) => format!("{} games", games.len()),
        Bounded::OverBudget => "over budget".to_string(),
        Bounded::Stopped => "stopped at the time limit".to_string(),
    }
}

/// What the bounded search proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchBound {
    /// No game of fewer moves exists (the search ran out of budget here).
    AtLeast(usize),
    /// The minimum, with every game of that length (sorted).
    Minimum(usize, Vec<Plan>),
    /// No game at all.
    NoGame,
    /// The budget (time limit) stopped the search; no game of fewer moves exists.
    Stopped(usize),
}

/// Raises the lower bound `from` (proven: no game has fewer moves) with the bounded
/// search (see `bounded`): asks for every game of at most `k` moves for `k = from + 1,
/// from + 2, ...` until one is found (then the shortest found is the minimum and the
/// list of games of that length is complete), a game would need more than `n - 1`
/// moves (no game at all), or the budget runs out. The first question covers two move
/// counts at once: on the tight maps the minimum is often one above the cover bound,
/// and asking for `from` alone first would search most of the tree twice.
pub fn bounded_search(board: &Board, from: usize, verbose: bool) -> SearchBound {
    let options = Options {
        verbose,
        ..Options::default()
    };
    bounded_search_within(board, from, &Context::unlimited(options))
}

/// `bounded_search` under the context's budget (polled every thousand nodes or so),
/// reporting every bound it proves to the context's progress.
pub fn bounded_search_within(board: &Board, from: usize, cx: &Context) -> SearchBound {
    let verbose = cx.options.verbose;
    let stop = || cx.stopped();
    let n = board.open_cells().len();
    let most = n.saturating_sub(1);
    let mut budget = SEARCH_BUDGET;
    let began = std::time::Instant::now();
    let mut k = (from + 1).min(most);
    let mut proven = from;
    let mut tried_beyond = false;
    // The games from one start cell per orbit of the board's symmetries; their images
    // are every game (see `symmetry`).
    let group = symmetries(board);
    let starts = representatives(board, &group);
    let minimum = |games: Vec<Plan>| {
        let minimum = games.iter().map(|g| g.moves.len()).min().expect("a game");
        let shortest = games.into_iter().filter(|g| g.moves.len() == minimum);
        SearchBound::Minimum(minimum, images(shortest.collect(), &group))
    };
    loop {
        let report = games_within_in_parallel(board, &starts, k, budget, &stop);
        if verbose {
            eprintln!(
                "bounded search: at most {k} moves: {} ({} nodes, {:.3} s so far)",
                describe(&report.outcome),
                report.nodes,
                began.elapsed().as_secs_f64()
            );
        }
        match report.outcome {
            // An unfinished search proves nothing about `k`.
            Bounded::OverBudget => return SearchBound::AtLeast(proven),
            Bounded::Stopped => return SearchBound::Stopped(proven),
            Bounded::Complete(games) if games.is_empty() => {
                if k >= most || !report.limit_mattered {
                    return SearchBound::NoGame;
                }
                budget = budget.saturating_sub(report.work);
                proven = k + 1;
                cx.progress.at_least(proven, "bounded search");
                // Once: continue this search from the positions its move limit or run
                // test cut, with no limit but a game's n - 1 moves, on half of what is
                // left. Where those tests cut little (open rooms with isolated
                // obstacles, whose rows and columns are split into shorter runs) this
                // finishes almost at once and lists every game of any length.
                if let (false, Some(frontier)) = (tried_beyond, &report.frontier) {
                    tried_beyond = true;
                    let beyond = games_beyond_in_parallel(board, frontier, most, budget / 2, &stop);
                    if verbose {
                        eprintln!(
                            "bounded search: any length, from the {} positions cut: {} ({} nodes, {:.3} s so far)",
                            frontier.len(),
                            describe(&beyond.outcome),
                            beyond.nodes,
                            began.elapsed().as_secs_f64()
                        );
                    }
                    budget = budget.saturating_sub(beyond.work);
                    match beyond.outcome {
                        Bounded::OverBudget => {}
                        Bounded::Stopped => return SearchBound::Stopped(proven),
                        Bounded::Complete(games) if games.is_empty() => {
                            return SearchBound::NoGame;
                        }
                        Bounded::Complete(games) => return minimum(games),
                    }
                }
                k += 1;
            }
            Bounded::Complete(games) => return minimum(games),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridsat_encodings::full_board::bounded::games_within;

    /// The search from one start per orbit, with the images of its games, lists the
    /// same games as the search from every start.
    #[test]
    fn one_start_per_orbit_finds_every_game() {
        // A room with its centre blocked (eight symmetries), one with two opposite
        // corners blocked (a half turn alone).
        let mut holed = vec![true; 25];
        holed[12] = false;
        let mut notched = vec![true; 30];
        notched[0] = false;
        notched[29] = false;
        let mut minima = Vec::new();
        for board in [
            Board::new(5, 5, vec![true; 25]),
            Board::new(4, 6, vec![true; 24]),
            Board::new(5, 5, holed),
            Board::new(5, 6, notched),
        ] {
            let most = board.open_cells().len() - 1;
            let Bounded::Complete(mut every) = games_within(&board, most, u64::MAX).outcome else {
                panic!("no budget limit");
            };
            match bounded_search(&board, 0, false) {
                SearchBound::Minimum(moves, games) => {
                    every.retain(|g| g.moves.len() == moves);
                    assert_eq!(games, every, "{}x{}", board.rows(), board.cols());
                    minima.push(Some(moves));
                }
                SearchBound::NoGame => {
                    assert!(every.is_empty());
                    minima.push(None);
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(minima[..3].iter().all(Option::is_some), "{minima:?}");
    }
}
