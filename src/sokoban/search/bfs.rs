//! A plain breadth-first search over pushes, written apart from the SAT encoding: the
//! test oracle for random small levels and the benchmark baseline.
//!
//! A position is the set of box squares plus the player's region (represented by its
//! smallest square), so walking is free and each layer of the search is one more push.
//! No deadlock pruning: the first solved position found is push-optimal, and an
//! exhausted search proves the level unsolvable.

use super::flood::Flood;
use crate::sokoban::{Limits, Outcome, Solution};
use gridsat_encodings::sokoban::{Dir, Level, Push};
use std::collections::HashMap;

fn key(boxes: &[bool], player: usize) -> Box<[u16]> {
    boxes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(c, _)| c as u16)
        .chain([player as u16])
        .collect()
}

/// Searches `level` breadth-first by pushes.
pub fn search(level: &Level, limits: &Limits) -> Outcome {
    let n = level.num_cells();
    if n > usize::from(u16::MAX) {
        return Outcome::GaveUp {
            reason: "the level is too large for the breadth-first search".into(),
            no_plan_below: 0,
        };
    }
    let solved = |boxes: &[bool]| (0..n).all(|c| !boxes[c] || level.is_goal(c));
    let mut flood = Flood::new(n);
    let mut boxes = vec![false; n];
    for &b in level.boxes() {
        boxes[b] = true;
    }
    if solved(&boxes) {
        return Outcome::Solved(Solution::push_optimal(Vec::new(), false));
    }
    let start_player = flood.fill(level, &boxes, level.player());
    // States in discovery order; `parent[i]` is how state `i` was first reached.
    let mut states: Vec<Box<[u16]>> = vec![key(&boxes, start_player)];
    let mut parent: Vec<Option<(u32, Push)>> = vec![None];
    let mut index: HashMap<Box<[u16]>, u32> = HashMap::new();
    index.insert(states[0].clone(), 0);
    let mut layer = 0..1usize;
    let mut depth = 0;
    while !layer.is_empty() {
        for i in layer.clone() {
            if i % 1024 == 0 && limits.expired() {
                return Outcome::GaveUp {
                    reason: "time limit".into(),
                    no_plan_below: depth + 1,
                };
            }
            if limits.max_pushes.is_some_and(|m| depth >= m) {
                return Outcome::GaveUp {
                    reason: "push limit".into(),
                    no_plan_below: depth + 1,
                };
            }
            if states.len() > limits.max_states {
                return Outcome::GaveUp {
                    reason: format!("size limit ({} positions)", limits.max_states),
                    no_plan_below: depth + 1,
                };
            }
            let state = states[i].clone();
            boxes.iter_mut().for_each(|b| *b = false);
            for &b in &state[..state.len() - 1] {
                boxes[usize::from(b)] = true;
            }
            flood.fill(level, &boxes, usize::from(state[state.len() - 1]));
            let reached: Vec<bool> = (0..n).map(|c| flood.reached(c)).collect();
            for &b in &state[..state.len() - 1] {
                let from = usize::from(b);
                for dir in Dir::ALL {
                    let Some((behind, target)) = level.push_squares(from, dir) else {
                        continue;
                    };
                    if !reached[behind] || boxes[target] {
                        continue;
                    }
                    boxes[from] = false;
                    boxes[target] = true;
                    let push = Push { from, dir };
                    if solved(&boxes) {
                        let mut plan = vec![push];
                        let mut at = i;
                        while let Some((p, push)) = parent[at] {
                            plan.push(push);
                            at = p as usize;
                        }
                        plan.reverse();
                        return Outcome::Solved(Solution::push_optimal(plan, false));
                    }
                    let player = flood_smallest(&mut flood, level, &boxes, from);
                    let k = key(&boxes, player);
                    if !index.contains_key(&k) {
                        index.insert(k.clone(), states.len() as u32);
                        states.push(k);
                        parent.push(Some((i as u32, push)));
                    }
                    boxes[target] = false;
                    boxes[from] = true;
                }
            }
        }
        layer = layer.end..states.len();
        depth += 1;
    }
    Outcome::Unsolvable {
        reason: format!(
            "the breadth-first search visited all {} positions reachable by pushing and none is solved",
            states.len()
        ),
    }
}

fn flood_smallest(flood: &mut Flood, level: &Level, boxes: &[bool], from: usize) -> usize {
    flood.fill(level, boxes, from)
}
