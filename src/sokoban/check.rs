//! An independent referee: replays a LURD string move by move under the rules and
//! says whether it solves the level. It shares nothing with the search or the encoder
//! beyond the level itself.

use gridsat_encodings::sokoban::{Dir, Level};

/// The squares at one moment: where the boxes are and where the player stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub boxes: Vec<bool>,
    pub player: usize,
}

impl Board {
    pub fn start(level: &Level) -> Board {
        let mut boxes = vec![false; level.num_cells()];
        for &b in level.boxes() {
            boxes[b] = true;
        }
        Board {
            boxes,
            player: level.player(),
        }
    }

    pub fn is_solved(&self, level: &Level) -> bool {
        (0..level.num_cells()).all(|c| !self.boxes[c] || level.is_goal(c))
    }
}

/// A replayed solution: its counts and the board after every push.
#[derive(Clone, Debug)]
pub struct Replay {
    pub pushes: usize,
    pub moves: usize,
    /// The start, then the board after each push.
    pub boards: Vec<Board>,
}

/// Replays `lurd` from the start of `level`; an error names the first illegal move.
pub fn replay(level: &Level, lurd: &str) -> Result<Replay, String> {
    let mut board = Board::start(level);
    let mut boards = vec![board.clone()];
    let mut pushes = 0;
    for (i, c) in lurd.chars().enumerate() {
        let step = i + 1;
        let (dir, push) = Dir::from_lurd(c)
            .ok_or_else(|| format!("move {step}: '{c}' is not one of lurdLURD"))?;
        let next = level
            .neighbour(board.player, dir)
            .ok_or_else(|| format!("move {step} ('{c}'): walks into a wall"))?;
        if board.boxes[next] {
            if !push {
                return Err(format!(
                    "move {step} ('{c}'): moves a box but is written as a walk"
                ));
            }
            let beyond = level
                .neighbour(next, dir)
                .ok_or_else(|| format!("move {step} ('{c}'): pushes a box into a wall"))?;
            if board.boxes[beyond] {
                return Err(format!(
                    "move {step} ('{c}'): pushes a box into another box"
                ));
            }
            board.boxes[next] = false;
            board.boxes[beyond] = true;
            board.player = next;
            pushes += 1;
            boards.push(board.clone());
        } else {
            if push {
                return Err(format!("move {step} ('{c}'): a push with no box to push"));
            }
            board.player = next;
        }
    }
    if !board.is_solved(level) {
        return Err("the plan ends with a box off the goals".to_string());
    }
    Ok(Replay {
        pushes,
        moves: lurd.chars().count(),
        boards,
    })
}
