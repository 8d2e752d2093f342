//! From a sequence of pushes to the full LURD string: between pushes the player takes a
//! shortest walk (breadth-first over the free squares), so the moves figure is the
//! fewest for that push sequence.

use gridsat_encodings::sokoban::{Dir, Level, Push};
use std::collections::VecDeque;

/// The LURD string of `pushes` with shortest walks; an error when a push is impossible
/// (which means the caller produced a wrong plan).
pub fn to_lurd(level: &Level, pushes: &[Push]) -> Result<String, String> {
    let mut boxes = vec![false; level.num_cells()];
    for &b in level.boxes() {
        boxes[b] = true;
    }
    let mut player = level.player();
    let mut out = String::new();
    for (i, push) in pushes.iter().enumerate() {
        let behind = level
            .neighbour(push.from, push.dir.opposite())
            .ok_or_else(|| format!("push {}: no square behind the box", i + 1))?;
        let target = level
            .neighbour(push.from, push.dir)
            .ok_or_else(|| format!("push {}: no square in front of the box", i + 1))?;
        if !boxes[push.from] || boxes[target] {
            return Err(format!(
                "push {}: no box to push or the target is taken",
                i + 1
            ));
        }
        let walk = shortest_walk(level, &boxes, player, behind)
            .ok_or_else(|| format!("push {}: the player cannot get behind the box", i + 1))?;
        out.extend(walk.iter().map(|d| d.lurd(false)));
        out.push(push.dir.lurd(true));
        boxes[push.from] = false;
        boxes[target] = true;
        player = push.from;
    }
    Ok(out)
}

/// The directions of a shortest walk from `from` to `to` avoiding boxes.
pub fn shortest_walk(level: &Level, boxes: &[bool], from: usize, to: usize) -> Option<Vec<Dir>> {
    let mut came: Vec<Option<Dir>> = vec![None; level.num_cells()];
    let mut seen = vec![false; level.num_cells()];
    seen[from] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        if c == to {
            let mut path = Vec::new();
            let mut at = to;
            while at != from {
                let d = came[at].expect("visited squares have a way in");
                path.push(d);
                at = level
                    .neighbour(at, d.opposite())
                    .expect("came from a square");
            }
            path.reverse();
            return Some(path);
        }
        for d in Dir::ALL {
            if let Some(n) = level.neighbour(c, d) {
                if !seen[n] && !boxes[n] {
                    seen[n] = true;
                    came[n] = Some(d);
                    queue.push_back(n);
                }
            }
        }
    }
    None
}
