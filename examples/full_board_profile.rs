//! Where the bounded search (`gridsat_encodings::full_board::bounded`) spends its nodes:
//! per start cell (nodes, whether its subtree finished within the per-start budget) and,
//! over all starts tried, the nodes per depth and the positions each test cut.
//!
//! ```sh
//! cargo run --release --example full_board_profile -- MAPFILE MAX_MOVES NODES_PER_START [STARTS]
//! ```
//! MAPFILE holds one map (`▓` obstacle, space open, between `map` and `endmap`); the
//! first STARTS open cells (row-major; default all) are searched, each alone with a
//! budget of NODES_PER_START nodes.

use gridsat_encodings::full_board::bounded::{games_from, never, Bounded, Profile};
use gridsat_encodings::full_board::Board;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = std::fs::read_to_string(&args[0]).expect("readable map file");
    let max_moves: usize = args[1].parse().expect("MAX_MOVES");
    let per_start: u64 = args[2].parse().expect("NODES_PER_START");
    let rows: Vec<Vec<bool>> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .skip_while(|l| *l != "map")
        .skip(1)
        .take_while(|l| *l != "endmap")
        .map(|l| l.chars().map(|c| c == ' ').collect())
        .collect();
    let (h, w) = (rows.len(), rows[0].len());
    let board = Board::new(h, w, rows.concat());
    let cells = board.open_cells();
    let take = args
        .get(3)
        .map_or(cells.len(), |s| s.parse().expect("STARTS"));
    let cell_budget = per_start * (h as u64 + 2) * (w as u64 + 2);
    let mut total = Profile::default();
    let (mut finished, mut games, mut nodes) = (0, 0, 0);
    let began = std::time::Instant::now();
    for &start in cells.iter().take(take) {
        let report = games_from(&board, &[start], max_moves, cell_budget, &never);
        let done = match &report.outcome {
            Bounded::Complete(g) => {
                games += g.len();
                finished += 1;
                "done"
            }
            Bounded::OverBudget | Bounded::Stopped => "over",
        };
        nodes += report.nodes;
        println!(
            "start ({},{}): {} nodes {done}",
            start.row, start.col, report.nodes
        );
        total = total.merge(report.profile);
    }
    println!(
        "{} starts, {finished} finished, {games} games, {nodes} nodes, {:.2} s",
        take.min(cells.len()),
        began.elapsed().as_secs_f64()
    );
    println!(
        "cut by limit {} runs {} dead ends {} connectivity {}",
        total.cut_by_limit, total.cut_by_runs, total.cut_by_dead_ends, total.cut_by_connectivity
    );
    for (depth, n) in total.nodes_at_depth.iter().enumerate() {
        println!("depth {depth}: {n}");
    }
}
