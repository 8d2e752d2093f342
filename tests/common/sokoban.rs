//! Random small Sokoban levels, for the tests that check the SAT search against the
//! breadth-first search.

use super::Rng;
use gridsat::sokoban::parse::{parse_levels, LevelFormat};
use gridsat::sokoban::search::bfs;
use gridsat::sokoban::{Limits, Outcome};
use gridsat_encodings::sokoban::{Level, Square};

/// Level `n` (1-based) of a level file's text.
pub fn level(text: &str, n: usize) -> Level {
    parse_levels(text, LevelFormat::Auto, Some(n)).unwrap()[0]
        .level
        .clone()
}

/// How random rooms are drawn: a walled room of 4 x 4 up to `max_rows` x `max_cols`
/// inside squares with walls scattered one in `wall_one_in`, 1 to `max_boxes` boxes off
/// the room's edge (where most squares are dead), as many goals, one spare goal one time
/// in `spare_goal_one_in` (if any), and one time in `boxed_goal_one_in` a box that starts
/// on a goal.
pub struct Room {
    pub max_rows: usize,
    pub max_cols: usize,
    pub max_boxes: usize,
    pub wall_one_in: usize,
    pub spare_goal_one_in: Option<usize>,
    pub boxed_goal_one_in: usize,
}

impl Room {
    /// A random level of this shape; `None` when the draw is not a level.
    pub fn draw(&self, rng: &mut Rng) -> Option<Level> {
        let rows = 4 + rng.below(self.max_rows - 3);
        let cols = 4 + rng.below(self.max_cols - 3);
        let mut grid = vec![vec![Square::default(); cols + 2]; rows + 2];
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, sq) in row.iter_mut().enumerate() {
                let edge = r == 0 || c == 0 || r == rows + 1 || c == cols + 1;
                sq.wall = edge || rng.below(self.wall_one_in) == 0;
            }
        }
        let mut free: Vec<(usize, usize)> = (1..=rows)
            .flat_map(|r| (1..=cols).map(move |c| (r, c)))
            .filter(|&(r, c)| !grid[r][c].wall)
            .collect();
        let boxes = 1 + rng.below(self.max_boxes);
        let mut inner: Vec<(usize, usize)> = free
            .iter()
            .copied()
            .filter(|&(r, c)| r > 1 && c > 1 && r < rows && c < cols)
            .collect();
        // Room for the goals, a spare goal or a boxed goal, and the player.
        if inner.len() < boxes || free.len() < 2 * boxes + 3 {
            return None;
        }
        for _ in 0..boxes {
            let (r, c) = inner.swap_remove(rng.below(inner.len()));
            free.retain(|&f| f != (r, c));
            grid[r][c].boxed = true;
        }
        let spare = self.spare_goal_one_in.is_some_and(|n| rng.below(n) == 0);
        for _ in 0..boxes + usize::from(spare) {
            let (r, c) = free.swap_remove(rng.below(free.len()));
            grid[r][c].goal = true;
        }
        if rng.below(self.boxed_goal_one_in) == 0 {
            let (r, c) = free.swap_remove(rng.below(free.len()));
            grid[r][c].boxed = true;
            grid[r][c].goal = true;
        }
        let (r, c) = free.swap_remove(rng.below(free.len()));
        grid[r][c].player = true;
        Level::new(&grid).ok()
    }
}

/// For a level the SAT side calls unsolvable by a static argument that sees past a push
/// limit: the breadth-first search without the limit must exhaust it.
pub fn assert_bfs_exhausts(level: &Level) {
    let unlimited = bfs::search(level, &Limits::default());
    assert!(
        matches!(unlimited, Outcome::Unsolvable { .. }),
        "{unlimited:?} on {level:?}"
    );
}

/// Runs `gridsat sokoban ARGS...`: the exit status, standard output and standard error.
pub fn gridsat_sokoban(args: &[&str]) -> (i32, String, String) {
    let out = super::gridsat(&[&["sokoban"], args].concat());
    (
        out.status.code().expect("gridsat exits with a status"),
        super::stdout(&out),
        super::stderr(&out),
    )
}
