//! Both SAT encodings against an exhaustive depth-first search over games (in
//! `simulate`, written without the encoder) on seeded random small boards: the same
//! minimum, the same set of minimum games, the same "No solution".

use gridsat::full_board::simulate::{brute_force_minimum, replay};
use gridsat::full_board::solve::{
    line_cover, line_cover_bound, refute, refute_by_windows, solve, Options, Verdict,
};
use gridsat::solver::Session;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::full_board::window::Window;
use gridsat_encodings::full_board::{Board, Cell, Encoding, Plan};

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

/// The configurations compared with the brute force: each encoding with the defaults
/// (segments tied to the line cover, the successor refutation in parallel), and the
/// segments encoding alone (untied, one thread).
fn configurations() -> Vec<(&'static str, Options)> {
    vec![
        (
            "segments",
            Options {
                encoding: Encoding::Segments,
                ..Options::default()
            },
        ),
        (
            "segments untied, sequential",
            Options {
                encoding: Encoding::Segments,
                cover_tie: false,
                parallel_refutation: false,
                ..Options::default()
            },
        ),
        (
            "successor",
            Options {
                encoding: Encoding::Successor,
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
