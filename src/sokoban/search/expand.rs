//! The push expansion the push searches share (A*, the split bound's half searches):
//! every child of a position that is not a deadlock, with its player's region and its
//! matching bound.

use super::corral::Corrals;
use super::flood::Flood;
use super::freeze::Freeze;
use super::heuristic::Heuristic;
use gridsat_encodings::sokoban::{Dir, Level, Push};
use std::ops::ControlFlow;

/// The children a search does not want: those whose matching bound is above `most` (a
/// search's ceiling less the pushes so far), skipped before their region is filled;
/// how many were, and the least bound among them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Skip {
    pub most: u32,
    pub count: usize,
    pub least: u32,
}

impl Skip {
    /// Every child wanted.
    pub(super) fn none() -> Skip {
        Skip::above(u32::MAX)
    }

    /// The children whose bound is above `most` skipped.
    pub(super) fn above(most: u32) -> Skip {
        Skip {
            most,
            count: 0,
            least: u32::MAX,
        }
    }
}

/// Calls `visit` with every child of the expanded position that is neither a deadlock
/// nor skipped (`skip`): the push, the child's boxes (in `occupied`, restored afterwards),
/// its player square and matching bound, and the heuristic (whose last child it is).
/// Only boxes of `only`'s PI-corral are pushed,
/// if given; `region`: the expanded position's region (the flood's last fill) and its
/// name. Stops at the first `Break`.
#[allow(clippy::too_many_arguments)]
pub(super) fn for_each_child<B>(
    level: &Level,
    dead: &[bool],
    (flood, freeze, heuristic): (&mut Flood, &mut Freeze, &mut Heuristic),
    occupied: &mut [bool],
    box_list: &[usize],
    region: (&Flood, usize),
    only: Option<&Corrals>,
    skip: &mut Skip,
    mut visit: impl FnMut(Push, &[bool], usize, u32, &mut Heuristic) -> ControlFlow<B>,
) -> ControlFlow<B> {
    for (k, &from) in box_list.iter().enumerate() {
        if only.is_some_and(|corral| !corral.in_corral(from)) {
            continue;
        }
        for dir in Dir::ALL {
            let Some((behind, target)) = level.push_squares(from, dir) else {
                continue;
            };
            if !region.0.reached(behind) || occupied[target] || dead[target] {
                continue;
            }
            occupied[from] = false;
            occupied[target] = true;
            let child = expand_child(
                level, flood, freeze, heuristic, occupied, from, target, k, box_list, region, skip,
            );
            let flow = match child {
                Some((player, h)) => visit(Push { from, dir }, occupied, player, h, heuristic),
                None => ControlFlow::Continue(()),
            };
            occupied[target] = false;
            occupied[from] = true;
            if flow.is_break() {
                return flow;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The child position after pushing the box on `from` to `target` (`occupied` already
/// updated): its player square and matching bound, or `None` when it is a deadlock or
/// skipped. `region`: the expanded position's region (the flood's last fill) and its name.
#[allow(clippy::too_many_arguments)]
fn expand_child(
    level: &Level,
    flood: &mut Flood,
    freeze: &mut Freeze,
    heuristic: &mut Heuristic,
    occupied: &[bool],
    from: usize,
    target: usize,
    pushed: usize,
    box_list: &[usize],
    (region, smallest): (&Flood, usize),
    skip: &mut Skip,
) -> Option<(usize, u32)> {
    if freeze.deadlocked(occupied, target) {
        return None;
    }
    // The player stands on `from` after the push: its region gives every box the same
    // side as any other of its squares, so the bound needs no region yet, and a
    // skipped child needs none at all.
    let h = heuristic.child(pushed, target, from, box_list)?;
    if h > skip.most {
        skip.count += 1;
        skip.least = skip.least.min(h);
        return None;
    }
    let (player, _) = flood.fill_after(region, level, occupied, (from, target), (from, smallest));
    Some((player, h))
}
