//! The formula `--dimacs` writes: every winning game of (at most) K moves in the chosen
//! encoding, standalone. The assumption a search would solve under becomes a unit
//! clause, and the projection (`c p show`) is the game's own variables, so a projected
//! model counter counts the games: the segments encoding's start cell and move
//! directions (games of exactly K moves), the successor encoding's steps (games of at
//! most K moves, which at the minimum are the games of the minimum).

use super::context::Options;
use super::search::MAX_CELL_LAYERS;
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::full_board::lines::LineCover;
use gridsat_encodings::full_board::segments::Segments;
use gridsat_encodings::full_board::successor::Successor;
use gridsat_encodings::full_board::{Board, Encoding};

/// The formula of the games of `moves` moves on `board` in `options.encoding` (the
/// segments encoding tied to the line cover unless `options.cover_tie` is off, as the
/// search states it), or why it is not built: the segments encoding's size bound.
pub fn game_formula(board: &Board, options: &Options, moves: usize) -> Result<Cnf, String> {
    let n = board.open_cells().len();
    let mut cnf = Cnf::new();
    match options.encoding {
        Encoding::Segments => {
            if (moves + 1) * n > MAX_CELL_LAYERS {
                return Err(format!(
                    "the segments formula of {moves} moves on {n} open cells is beyond the \
                     size gridsat builds ({MAX_CELL_LAYERS} cells times moves)"
                ));
            }
            let mut segments = Segments::new(&mut cnf, board);
            if options.cover_tie && n >= 2 {
                let cover = LineCover::new(&mut cnf, board, CardEncoding::Totalizer);
                segments.tie_to_cover(cover);
            }
            while segments.horizon() < moves {
                segments.add_move(&mut cnf);
            }
            cnf.begin_group("game of K moves");
            cnf.clause([segments.complete_after(moves)]);
            cnf.end_group();
        }
        Encoding::Successor => {
            let successor = Successor::new(&mut cnf, board, options.card, moves + 1);
            // No bound is needed beyond the counter: no game has n moves or more.
            if let Some(at_most) = successor.at_most(moves) {
                cnf.begin_group("at most K moves");
                cnf.clause([at_most]);
                cnf.end_group();
            }
        }
    }
    Ok(cnf)
}

/// The horizon written for a map without a game when no `--horizon` is given: `n - 1`,
/// the most moves a game can have (each enters a new cell). The formula is then
/// unsatisfiable; the successor encoding's "at most n - 1 moves" covers every length.
pub fn horizon_without_game(board: &Board) -> usize {
    board.open_cells().len().saturating_sub(1)
}
