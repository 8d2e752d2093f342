//! `--format svg` checked as an image: each picture is rendered by a real SVG renderer
//! (resvg) and its pixels are compared with what the text answer says: stars and ship
//! parts where the solution has them, zone borders, water, the undecided cells of
//! `--determined`, and the differing cells of two witnesses.

// Cells are addressed by (row, column) in both the text and the picture.
#![allow(clippy::needless_range_loop)]

mod common;
use common::render::Image;
use common::{gridsat, stdout};

const CELL: f64 = 32.0;
const MARGIN: f64 = 16.0;
const CAPTION: f64 = 24.0;
const PLACED: &str = "#1f4fbf";
const EMPTY: &str = "#dce8f5";
const UNDECIDED: &str = "#f2c14e";
const DIFFERS: &str = "#e4572e";
const INK: &str = "#000000";

/// The top-left pixel of cell (r, c) of the board at `left` (its x offset).
fn corner(left: f64, r: usize, c: usize) -> (f64, f64) {
    (left + c as f64 * CELL, MARGIN + CAPTION + r as f64 * CELL)
}

fn centre(left: f64, r: usize, c: usize) -> (f64, f64) {
    let (x, y) = corner(left, r, c);
    (x + CELL / 2.0, y + CELL / 2.0)
}

fn svg(args: &[&str]) -> Image {
    let out = gridsat(&[args, &["--format", "svg"]].concat());
    let text = stdout(&out);
    assert!(text.starts_with("<svg"), "{args:?}: {text}");
    Image::render(&text)
}

/// The text board's rows (the lines after the first `skip`), as characters.
fn rows(text: &str, skip: usize, count: usize) -> Vec<Vec<char>> {
    text.lines()
        .skip(skip)
        .take(count)
        .map(|l| l.chars().collect())
        .collect()
}

#[test]
fn star_battle_stars_and_zone_borders_are_where_the_text_has_them() {
    let args = [
        "star-battle",
        "examples/star-battle/twonot1.txt",
        "--stars",
        "2",
    ];
    let text = stdout(&gridsat(&args));
    let board = rows(&text, 0, 10);
    let image = svg(&args);
    for r in 0..10 {
        for c in 0..10 {
            let (x, y) = centre(MARGIN, r, c);
            let star = image.colour(x, y) == PLACED;
            assert_eq!(star, board[r][c] == '@', "cell ({r}, {c})");
        }
    }
    // Zone borders: ink between two cells of different zones (the letter grid's labels).
    let grid = stdout(&gridsat(&[&args[..], &["--format", "grid"]].concat()));
    let zones = rows(&grid, 1, 10);
    let mut thick = 0;
    for r in 0..10 {
        for c in 0..9 {
            let (x, y) = corner(MARGIN, r, c + 1);
            let ink = image.colour(x, y + CELL / 4.0) == INK;
            assert_eq!(
                ink,
                zones[r][c] != zones[r][c + 1],
                "border right of ({r}, {c})"
            );
            thick += usize::from(ink);
        }
    }
    assert!(thick > 5);
}

#[test]
fn two_witnesses_stand_side_by_side_with_their_differences_framed() {
    let args = [
        "star-battle",
        "examples/star-battle/custom1.txt",
        "--stars",
        "1",
        "--rule",
        "at-most",
        "--unique",
    ];
    let text = stdout(&gridsat(&args));
    // "Not unique. Two solutions:", 4 rows side by side, "They differ at ...".
    let pairs = rows(&text, 1, 4);
    let image = svg(&args);
    let second = MARGIN + 3.0 * CELL + 2.0 * MARGIN;
    for r in 0..4 {
        for c in 0..3 {
            let (a, b) = (pairs[r][c], pairs[r][c + 6]);
            for (left, mark) in [(MARGIN, a), (second, b)] {
                let (x, y) = centre(left, r, c);
                assert_eq!(
                    image.colour(x, y) == PLACED,
                    mark == '@',
                    "({r}, {c}) at {left}"
                );
                let (x, y) = corner(left, r, c);
                let framed = image.colour(x + 3.0, y + CELL / 2.0) == DIFFERS;
                assert_eq!(framed, (a == '@') != (b == '@'), "({r}, {c}) at {left}");
            }
        }
    }
}

#[test]
fn determined_cells_are_marked_and_undecided_ones_coloured() {
    let args = [
        "battleship",
        "examples/battleship/puzzle_sample.txt",
        "--determined",
    ];
    let text = stdout(&gridsat(&args));
    // "+-----+", then the rows between '|'.
    let board: Vec<Vec<char>> = rows(&text, 1, 4).iter().map(|r| r[1..6].to_vec()).collect();
    let image = svg(&args);
    for r in 0..4 {
        for c in 0..5 {
            let (x, y) = corner(MARGIN, r, c);
            let (cx, cy) = centre(MARGIN, r, c);
            match board[r][c] {
                '#' => assert_eq!(image.colour(cx, cy), PLACED, "({r}, {c})"),
                '.' => assert_eq!(image.colour(cx, cy), EMPTY, "({r}, {c})"),
                '?' => assert_eq!(image.colour(x + 4.0, y + 4.0), UNDECIDED, "({r}, {c})"),
                other => panic!("unexpected mark {other}"),
            }
        }
    }
}

#[test]
fn battleship_ships_and_water_follow_the_solution() {
    let args = [
        "battleship",
        "examples/battleship/puzzle10_constraints.txt",
        "--unique",
    ];
    let text = stdout(&gridsat(&args));
    let board: Vec<Vec<char>> = text
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l[1..11].chars().collect())
        .collect();
    assert_eq!(board.len(), 10);
    let image = svg(&args);
    for (r, row) in board.iter().enumerate() {
        for (c, &mark) in row.iter().enumerate() {
            let (x, y) = centre(MARGIN, r, c);
            let want = if mark == ' ' { EMPTY } else { PLACED };
            assert_eq!(image.colour(x, y), want, "({r}, {c}) '{mark}'");
        }
    }
}

#[test]
fn every_listed_solution_is_drawn() {
    let args = [
        "star-battle",
        "examples/star-battle/custom1.txt",
        "--stars",
        "2",
        "--rule",
        "at-most",
        "--all",
    ];
    let text = stdout(&gridsat(&args));
    let solutions = text.matches("Solution ").count();
    assert_eq!(solutions, 3);
    let stars = text.matches('@').count();
    let image = svg(&args);
    let (w, h) = image.size();
    // Each star covers some pixels of its colour; count stars by cells.
    let mut drawn = 0;
    for k in 0..solutions {
        let left = MARGIN + k as f64 * (3.0 * CELL + 2.0 * MARGIN);
        for r in 0..4 {
            for c in 0..3 {
                let (x, y) = centre(left, r, c);
                drawn += usize::from(image.colour(x, y) == PLACED);
            }
        }
    }
    assert_eq!(drawn, stars, "{w} x {h}");
}

const WALL: &str = "#3c3c3c";
const GOAL: &str = "#4caf50";
const PATH: &str = "#c2185b";

/// Each map of a file is a row of boards, one below the other; each board is the text's
/// board: walls, the start, an arrowhead on every entered cell, the finish.
#[test]
fn full_board_games_are_drawn_as_the_text_shows_them() {
    let two = common::write_temp(
        &common::read(&common::root().join("examples/full-board/set-2018-smallmaps.txt"))
            .split_inclusive('\n')
            .scan(0, |maps, line| {
                *maps += usize::from(line.trim_end() == "map");
                Some((*maps, line.to_string()))
            })
            .take_while(|(maps, _)| *maps <= 2)
            .map(|(_, line)| line)
            .collect::<String>(),
    );
    let path = two.path().to_str().unwrap();
    let text = stdout(&gridsat(&["full-board", path]));
    let boards: Vec<Vec<Vec<char>>> = text
        .split("\nsolution\n")
        .skip(1)
        .map(|block| {
            block
                .lines()
                .take_while(|l| *l != "endsolution")
                .map(|l| l.chars().collect())
                .collect()
        })
        .collect();
    assert_eq!(boards.len(), 2);
    let image = svg(&["full-board", path]);
    let mut top = MARGIN;
    for board in &boards {
        for (r, row) in board.iter().enumerate() {
            for (c, &mark) in row.iter().enumerate() {
                let (x, y) = (
                    MARGIN + c as f64 * CELL + CELL / 2.0,
                    top + CAPTION + r as f64 * CELL + CELL / 2.0,
                );
                let want = match mark {
                    '\u{2593}' => WALL,
                    'S' => GOAL,
                    'F' => INK,
                    _ => PATH,
                };
                assert_eq!(image.colour(x, y), want, "({r}, {c}) '{mark}'");
            }
        }
        top += CAPTION + board.len() as f64 * CELL + MARGIN;
    }
}

#[test]
fn sokoban_levels_are_drawn_with_each_box_route_ending_on_a_goal() {
    const WALL: &str = "#3c3c3c";
    const PATH: &str = "#c2185b";
    let level = common::write_temp("#######\n#@ $ .#\n#######\n");
    let path = level.path().to_str().unwrap();
    let image = svg(&["sokoban", path]);
    let at = |r: usize, c: usize| image.colour(centre(MARGIN, r, c).0, centre(MARGIN, r, c).1);
    for c in 0..7 {
        assert_eq!(at(0, c), WALL, "top wall at column {c}");
        assert_eq!(at(2, c), WALL, "bottom wall at column {c}");
    }
    assert_eq!(at(1, 1), INK, "the player");
    assert_eq!(at(1, 3), PLACED, "the box where it starts");
    assert_eq!(at(1, 5), PATH, "the end of the box's route, on the goal");
    // The route runs between the box's squares (over the grid line between them), and
    // not past the goal.
    let (x, y) = corner(MARGIN, 1, 4);
    assert_eq!(image.colour(x, y + CELL / 2.0), PATH);
    let (x, y) = corner(MARGIN, 1, 5);
    assert_eq!(image.colour(x + CELL * 0.95, y + CELL / 2.0), "#ffffff");

    // Microban 1: every goal ends under a route (boxes that start on a goal and stay
    // would be box-coloured; none does here), every '#' is a wall.
    let microban = common::root().join("examples/sokoban/microban-1-10.xsb");
    let image = svg(&["sokoban", microban.to_str().unwrap(), "--level", "1"]);
    let text = common::read(&microban);
    let grid: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains('#'))
        .take_while(|l| l.contains('#'))
        .collect();
    let mut goals = 0;
    for (r, row) in grid.iter().enumerate() {
        for (c, square) in row.chars().enumerate() {
            let (x, y) = centre(MARGIN, r, c);
            match square {
                '#' => assert_eq!(image.colour(x, y), WALL, "({r}, {c})"),
                '.' => {
                    goals += 1;
                    assert_eq!(image.colour(x, y), PATH, "goal ({r}, {c})");
                }
                '$' => assert_eq!(image.colour(x, y), PLACED, "box ({r}, {c})"),
                '@' => assert_eq!(image.colour(x, y), INK, "player ({r}, {c})"),
                _ => {}
            }
        }
    }
    assert!(goals > 0);
}
