//! Both SAT encodings against an exhaustive depth-first search over games (in
//! `check`, written without the encoder) on seeded random small boards: the same
//! minimum, the same set of minimum games, the same "No solution".

use gridsat::full_board::check::{brute_force_minimum, replay, RuleViolation};
use gridsat::full_board::context::Options;
use gridsat::full_board::refute::{line_cover, line_cover_bound, refute, refute_by_windows};
use gridsat::full_board::solve::solve;
use gridsat::full_board::verdict::Verdict;
use gridsat::solver::Session;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::full_board::bounded::{games_beyond, games_within, never, Bounded};
use gridsat_encodings::full_board::window::Window;
use gridsat_encodings::full_board::{Board, Cell, Dir, Encoding, Plan};

mod common;
use common::Rng;

fn random_board(rng: &mut Rng) -> Board {
    random_board_up_to(rng, 5)
}

fn random_board_up_to(rng: &mut Rng, side: usize) -> Board {
    let rows = 1 + rng.below(side);
    let cols = 1 + rng.below(side);
    // Obstacle density between 0 and 30 %.
    let density = rng.below(31);
    let open = (0..rows * cols)
        .map(|_| rng.below(100) >= density)
        .collect();
    Board::new(rows, cols, open)
}

/// The configurations compared with the brute force: the default (the bounded search
/// decides most small boards before any SAT call), and with the search off, each
/// encoding with its defaults (segments tied to the line cover, the successor
/// refutation in parallel) and the segments encoding alone (untied, one thread), so the
/// SAT paths stay checked on every board.
fn configurations() -> Vec<(&'static str, Options)> {
    vec![
        ("default (bounded search first)", Options::default()),
        (
            "segments",
            Options {
                encoding: Encoding::Segments,
                bounded_search: false,
                ..Options::default()
            },
        ),
        (
            "segments untied, sequential",
            Options {
                encoding: Encoding::Segments,
                cover_tie: false,
                parallel_refutation: false,
                bounded_search: false,
                ..Options::default()
            },
        ),
        (
            "successor",
            Options {
                encoding: Encoding::Successor,
                bounded_search: false,
                ..Options::default()
            },
        ),
    ]
}

fn solver_answer(board: &Board, options: &Options) -> Option<(usize, Vec<Plan>)> {
    match solve(board, options).expect("solver runs") {
        Verdict::NoSolution(_) => None,
        Verdict::Solved {
            moves,
            games,
            all_found,
        } => {
            assert!(all_found);
            let mut plans: Vec<Plan> = games.into_iter().map(|g| g.plan).collect();
            plans.sort();
            Some((moves, plans))
        }
        Verdict::GaveUp(partial) => panic!("no limit, yet gave up: {partial:?}"),
    }
}

fn check(seed: u64, boards: usize, side: usize) {
    let mut rng = Rng::new(seed);
    let mut solved = 0;
    for i in 0..boards {
        let board = random_board_up_to(&mut rng, side);
        let expected = brute_force_minimum(&board).map(|(k, mut plans)| {
            plans.sort();
            (k, plans)
        });
        solved += usize::from(expected.is_some());
        for (name, options) in configurations() {
            assert_eq!(
                solver_answer(&board, &options),
                expected,
                "board {i} of seed {seed}, {name}: {board:?}"
            );
        }
    }
    // The generator must exercise both outcomes.
    assert!(
        solved > boards / 10 && solved < boards,
        "{solved} of {boards} solvable"
    );
}

#[test]
fn encodings_match_brute_force_seed_1() {
    check(1, 120, 5);
}

#[test]
fn encodings_match_brute_force_seed_2() {
    check(2, 120, 5);
}

/// Larger boards, where the line cover is often tight and the tie prunes.
#[test]
fn encodings_match_brute_force_up_to_6x6() {
    check(7, 50, 6);
}

#[test]
fn line_cover_bound_never_exceeds_the_minimum() {
    let mut rng = Rng::new(3);
    let mut tight = 0;
    for _ in 0..150 {
        let board = random_board(&mut rng);
        if let Some((k, _)) = brute_force_minimum(&board) {
            let bound = line_cover_bound(&board).unwrap();
            assert!(bound <= k, "bound {bound} > minimum {k}: {board:?}");
            tight += usize::from(bound == k);
        }
    }
    assert!(
        tight > 10,
        "the bound should often be exact; it was {tight} times"
    );
}

#[test]
fn line_cover_bound_is_exact_on_open_rectangles() {
    for rows in 1..=4 {
        for cols in 1..=5 {
            let board = Board::new(rows, cols, vec![true; rows * cols]);
            let (k, _) = brute_force_minimum(&board).unwrap();
            let expected = if rows * cols == 1 {
                0
            } else {
                2 * rows.min(cols) - 1
            };
            assert_eq!(k, expected, "{rows}x{cols}");
            assert_eq!(line_cover_bound(&board).unwrap(), k, "{rows}x{cols}");
        }
    }
}

/// The stop rule at segment ends (see `lines`) against the exhaustive search: the bound
/// it gives never exceeds the minimum, it refutes only maps without a game, and it is
/// at least the plain cover's bound; the generator must show it sharper at least once.
#[test]
fn stop_rule_cover_is_sound_and_sharper() {
    let mut rng = Rng::new(4);
    let (mut sharper, mut refuted, mut beyond_cheap) = (0, 0, 0);
    for i in 0..400 {
        let board = random_board(&mut rng);
        let minimum = brute_force_minimum(&board).map(|(k, _)| k);
        let plain = line_cover(&board, false).unwrap();
        let sharp = line_cover(&board, true).unwrap();
        match (sharp, minimum) {
            (Some(s), Some(k)) => assert!(s <= k, "board {i}: bound {s} > minimum {k}: {board:?}"),
            (None, Some(k)) => panic!("board {i}: refuted, but a {k}-move game wins: {board:?}"),
            (_, None) => {}
        }
        match (plain, sharp) {
            (Some(p), Some(s)) => {
                assert!(p <= s, "board {i}: {p} > {s}");
                sharper += usize::from(p < s);
            }
            (Some(_), None) => {
                refuted += 1;
                beyond_cheap += usize::from(refute(&board).is_none());
            }
            (None, Some(_)) => panic!("board {i}: the sharper model has more covers"),
            (None, None) => {}
        }
    }
    eprintln!("sharper {sharper}, refuted {refuted} ({beyond_cheap} beyond the cheap arguments)");
    assert!(
        sharper > 0 && refuted > 0,
        "sharper {sharper}, refuted {refuted}"
    );
}

/// The window relaxation (`gridsat_encodings::full_board::window`) against the
/// exhaustive search, on every window of 1 x 1 to 5 x 5 cells of random boards: when it
/// says every game begins or ends in the window, every minimum game does; and every
/// endpoint of a minimum game that lies in a window is one the window allows.
#[test]
fn window_relaxation_is_sound() {
    let mut rng = Rng::new(5);
    let (mut needs, mut narrowed) = (0, 0);
    for i in 0..120 {
        let board = random_board(&mut rng);
        let Some((_, plans)) = brute_force_minimum(&board) else {
            continue;
        };
        let ends: Vec<[Cell; 2]> = plans
            .iter()
            .map(|plan| {
                let trace = replay(&board, plan).expect("the brute force plays by the rules");
                [trace.start, trace.end()]
            })
            .collect();
        for size in 1..=5 {
            for top in 0..board.rows() {
                for left in 0..board.cols() {
                    let mut cnf = Cnf::new();
                    let window =
                        Window::new(&mut cnf, &board, top, left, top + size - 1, left + size - 1);
                    if window.cells().is_empty() {
                        continue;
                    }
                    let mut session = Session::new(&cnf);
                    let need = session
                        .solve_under(&window.no_endpoint())
                        .unwrap()
                        .is_none();
                    let mut possible = Vec::new();
                    for (j, &cell) in window.cells().iter().enumerate() {
                        let (start, end) = window.endpoint(j);
                        if session.solve_under(&[start]).unwrap().is_some()
                            || session.solve_under(&[end]).unwrap().is_some()
                        {
                            possible.push(cell);
                        }
                    }
                    needs += usize::from(need);
                    narrowed += usize::from(possible.len() < window.cells().len());
                    for pair in &ends {
                        let inside: Vec<Cell> = pair
                            .iter()
                            .copied()
                            .filter(|c| window.cells().contains(c))
                            .collect();
                        assert!(
                            !need || !inside.is_empty(),
                            "board {i}: a game {pair:?} avoids window {top},{left} size {size}: \
                             {board:?}"
                        );
                        for cell in inside {
                            assert!(
                                possible.contains(&cell),
                                "board {i}: endpoint {cell:?} ruled out in window {top},{left} \
                                 size {size}: {board:?}"
                            );
                        }
                    }
                }
            }
        }
    }
    eprintln!("windows that need an endpoint: {needs}; that rule some cells out: {narrowed}");
    assert!(needs > 0 && narrowed > 0, "{needs} {narrowed}");
}

/// The window argument as the solver uses it (`refute_by_windows`) refutes only boards
/// without a game: on small random boards (where windows overlap so much that two
/// cells always meet them all, so nothing is refuted) and on open 8 x 8 to 10 x 10
/// rooms with two to five random obstacles (where it refutes some).
#[test]
fn window_refutation_is_sound() {
    let mut rng = Rng::new(8);
    let mut refuted = 0;
    let small = (0..100)
        .map(|_| random_board_up_to(&mut rng, 6))
        .collect::<Vec<_>>();
    let mut rooms = Vec::new();
    for _ in 0..200 {
        let (rows, cols) = (8 + rng.below(3), 8 + rng.below(3));
        let mut open = vec![true; rows * cols];
        for _ in 0..2 + rng.below(4) {
            open[rng.below(rows * cols)] = false;
        }
        rooms.push(Board::new(rows, cols, open));
    }
    for (i, board) in small.iter().chain(&rooms).enumerate() {
        if let Some(refutation) = refute_by_windows(board).unwrap() {
            refuted += 1;
            assert!(
                brute_force_minimum(board).is_none(),
                "board {i}: {refutation}, yet a game wins: {board:?}"
            );
        }
    }
    eprintln!("refuted by windows: {refuted}");
    assert!(refuted > 0, "no board refuted");
}

/// Every winning game of at most `max_moves` moves, by extending plans one direction at
/// a time and asking the independent check (`replay`) about each: no pruning beyond the rules.
fn all_games_within(board: &Board, max_moves: usize) -> Vec<Plan> {
    fn extend(board: &Board, plan: &mut Plan, max_moves: usize, games: &mut Vec<Plan>) {
        match replay(board, plan) {
            Ok(_) => games.push(plan.clone()),
            Err(RuleViolation::Unvisited(_)) if plan.moves.len() < max_moves => {
                for dir in Dir::ALL {
                    plan.moves.push(dir);
                    extend(board, plan, max_moves, games);
                    plan.moves.pop();
                }
            }
            Err(_) => {}
        }
    }
    let mut games = Vec::new();
    for start in board.open_cells() {
        let mut plan = Plan {
            start,
            moves: Vec::new(),
        };
        extend(board, &mut plan, max_moves, &mut games);
    }
    games.sort();
    games
}

/// The bounded search's pruning never loses a game: for every move count up to two
/// above the minimum (or up to 12 on a board with no game), its list equals the
/// unpruned enumeration's, so "no game of at most K moves" is a proof.
#[test]
fn bounded_search_lists_exactly_the_games_within_k() {
    let mut rng = Rng::new(11);
    let (mut compared, mut nonempty, mut unlimited) = (0, 0, 0);
    for i in 0..160 {
        let board = random_board_up_to(&mut rng, if i % 4 == 0 { 6 } else { 5 });
        let n = board.open_cells().len();
        let top = brute_force_minimum(&board).map_or(12, |(k, _)| k + 2);
        let expected_all = all_games_within(&board, top);
        for k in 0..=top.min(n.saturating_sub(1)) {
            let expected: Vec<Plan> = expected_all
                .iter()
                .filter(|g| g.moves.len() <= k)
                .cloned()
                .collect();
            let report = games_within(&board, k, u64::MAX);
            assert_eq!(
                report.outcome,
                Bounded::Complete(expected.clone()),
                "board {i}, at most {k} moves: {board:?}"
            );
            if report.outcome == Bounded::Complete(Vec::new()) && !report.limit_mattered {
                assert!(expected_all.is_empty(), "board {i}: the limit did matter");
                unlimited += 1;
            }
            compared += 1;
            nonempty += usize::from(!expected.is_empty());
        }
    }
    assert!(
        compared > 800 && nonempty > 200,
        "{compared} compared, {nonempty} with games"
    );
    assert!(
        unlimited > 20,
        "{unlimited} searches proved that no game of any length wins"
    );
}

/// Continuing a finished search from its frontier (the positions its move limit or run
/// test cut) with the limit of a game's n - 1 moves lists, together with the games the
/// search found, exactly every winning game of any length: nothing the search skipped
/// for a reason other than the limit is lost.
#[test]
fn searching_beyond_the_frontier_finds_every_game() {
    let mut rng = Rng::new(13);
    let (mut compared, mut found_beyond, mut cut) = (0, 0, 0);
    for i in 0..200 {
        let board = if i % 2 == 0 {
            random_board_up_to(&mut rng, 5)
        } else {
            // Small rooms with one or two obstacles: many games, many cut positions.
            let (rows, cols) = (3 + rng.below(3), 3 + rng.below(3));
            let mut open = vec![true; rows * cols];
            for _ in 0..1 + rng.below(2) {
                open[rng.below(rows * cols)] = false;
            }
            Board::new(rows, cols, open)
        };
        let n = board.open_cells().len();
        if n == 0 {
            continue;
        }
        let everything = all_games_within(&board, n - 1);
        let shortest = everything.iter().map(|g| g.moves.len()).min();
        for k in 0..=shortest.map_or(4, |m| m + 1).min(n - 1) {
            let report = games_within(&board, k, u64::MAX);
            let Bounded::Complete(mut games) = report.outcome else {
                panic!("no budget limit");
            };
            let frontier = report.frontier.expect("a small frontier is kept");
            assert_eq!(report.limit_mattered, !frontier.is_empty(), "board {i}");
            cut += frontier.len();
            let beyond = games_beyond(&board, &frontier, n - 1, u64::MAX, &never);
            let Bounded::Complete(more) = beyond.outcome else {
                panic!("no budget limit");
            };
            assert!(
                more.iter().all(|g| g.moves.len() > k),
                "board {i}, k = {k}: a game the first search missed"
            );
            found_beyond += usize::from(!more.is_empty());
            games.extend(more);
            games.sort();
            assert_eq!(games, everything, "board {i}, k = {k}: {board:?}");
            compared += 1;
        }
    }
    assert!(
        compared > 300 && found_beyond > 100 && cut > 1000,
        "{compared} compared, {found_beyond} with games beyond, {cut} positions cut"
    );
}

/// On rooms where the line cover is tight, the pruning decides the minimum in a small
/// tree: the 3-block rooms (the shape of the course's large maps) have minimum 2n - 2
/// for even n and 2n - 3 for odd n, which the brute force confirms up to n = 6 and the
/// SAT encoding up to n = 8.
#[test]
fn bounded_search_decides_small_block_rooms() {
    use gridsat::full_board::bounded::{bounded_search, SearchBound};
    for n in 5..=8 {
        let mut open = vec![true; n * n];
        for c in n / 2..(n / 2 + 3).min(n) {
            open[(n / 2) * n + c] = false;
        }
        let board = Board::new(n, n, open);
        let bound = line_cover_bound(&board).unwrap();
        let SearchBound::Minimum(k, mut games) = bounded_search(&board, bound, false) else {
            panic!("n = {n}: the search should decide the room");
        };
        games.sort();
        let sat = Options {
            bounded_search: false,
            parallel_refutation: false,
            ..Options::default()
        };
        assert_eq!(
            Some((k, games.clone())),
            solver_answer(&board, &sat),
            "n = {n}"
        );
        if n <= 6 {
            assert_eq!(brute_force_minimum(&board).map(|(k, _)| k), Some(k));
        }
        assert_eq!(k, if n % 2 == 0 { 2 * n - 2 } else { 2 * n - 3 }, "n = {n}");
    }
}

/// Open rooms with a few random obstacles, where the line cover is often tight and the
/// run test's fixed point does most of the pruning: the default solve (the bounded
/// search decides these) against the brute force, minimum and every minimum game.
#[test]
fn bounded_search_matches_brute_force_on_rooms() {
    let mut rng = Rng::new(12);
    let mut decided = 0;
    for i in 0..100 {
        let (rows, cols) = (5 + rng.below(3), 5 + rng.below(3));
        let mut open = vec![true; rows * cols];
        for _ in 0..1 + rng.below(3) {
            open[rng.below(rows * cols)] = false;
        }
        let board = Board::new(rows, cols, open);
        let expected = brute_force_minimum(&board).map(|(k, mut plans)| {
            plans.sort();
            (k, plans)
        });
        decided += usize::from(expected.is_some());
        assert_eq!(
            solver_answer(&board, &Options::default()),
            expected,
            "room {i}: {board:?}"
        );
    }
    assert!(decided > 20, "{decided} of 100 rooms have a game");
}
