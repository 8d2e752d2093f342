//! The window relaxation (`gridsat_encodings::full_board::window`) around obstacles of an
//! open room: does every game have to begin or end in the window? Prints one satisfying
//! assignment with no endpoint in the window when there is one (per open cell: its
//! place in the window's visiting order, the direction it was entered and left in),
//! then how many cells of the window could be an endpoint.
//!
//! ```sh
//! cargo run --release --example full_board_window -- ROWS COLS RADIUS ROW COL [ROW COL]...
//! BAND=1 cargo run --release --example full_board_window -- 16 16 1 8 8   # full-width band
//! ```
//! Obstacles at the given cells; one window of radius `RADIUS` around each (with
//! `BAND` set: the rows within `RADIUS`, across the whole board).

use gridsat::solver::Session;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::full_board::window::Window;
use gridsat_encodings::full_board::{Board, Cell};
fn main() {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap())
        .collect();
    let (rows, cols, r) = (a[0], a[1], a[2]);
    let band = std::env::var("BAND").is_ok();
    let mut open = vec![true; rows * cols];
    for p in a[3..].chunks(2) {
        open[p[0] * cols + p[1]] = false;
    }
    let board = Board::new(rows, cols, open);
    for p in a[3..].chunks(2) {
        let (cr, cc) = (p[0], p[1]);
        let t = std::time::Instant::now();
        let mut cnf = Cnf::new();
        let w = if band {
            Window::new(&mut cnf, &board, cr.saturating_sub(r), 0, cr + r, cols - 1)
        } else {
            Window::new(
                &mut cnf,
                &board,
                cr.saturating_sub(r),
                cc.saturating_sub(r),
                cr + r,
                cc + r,
            )
        };
        let mut s = Session::new(&cnf);
        let sol = s.solve_under(&w.no_endpoint()).unwrap();
        let none = sol.is_none();
        if let Some(v) = &sol {
            let d = w.describe(v);
            let (r0, c0) = (
                cr.saturating_sub(r),
                if band { 0 } else { cc.saturating_sub(r) },
            );
            for row in r0..=cr + r {
                let mut line = String::new();
                for col in c0..=(if band { cols - 1 } else { cc + r }) {
                    match d.iter().find(|x| x.0 == Cell::new(row, col)) {
                        Some(x) => line += &format!(" {:>2}{}{}", x.1, x.2, x.3),
                        None => line += "  ###",
                    }
                }
                println!("{line}");
            }
        }
        let mut ends = vec![];
        for i in 0..w.cells().len() {
            let (st, en) = w.endpoint(i);
            let f =
                s.solve_under(&[st]).unwrap().is_some() || s.solve_under(&[en]).unwrap().is_some();
            if f {
                let c: Cell = w.cells()[i];
                ends.push((c.row, c.col));
            }
        }
        println!("obstacle ({cr},{cc}) r={r}: vars {} clauses {} needs endpoint: {none}; possible endpoints {} {:.3}s", cnf.num_vars(), cnf.num_clauses(), ends.len(), t.elapsed().as_secs_f64());
    }
}
