//! The push expansion the push searches share (A*, the split bound's half searches):
//! every child of a position that is not a deadlock, with its player's region and its
//! matching bound.

use super::corral::Corrals;
use super::flood::Flood;
use super::freeze::Freeze;
use super::heuristic::Heuristic;
use gridsat_encodings::sokoban::{Dir, Level, Push};
use std::ops::ControlFlow;

/// Calls `visit` with every child of the expanded position that is not a deadlock: the
/// push, the child's boxes (in `occupied`, restored afterwards), its player square and
/// matching bound. Only boxes of `only`'s PI-corral are pushed, if given; `region`: the
/// expanded position's region (the flood's last fill) and its name. Stops at the first
/// `Break`.
#[allow(clippy::too_many_arguments)]
pub(super) fn for_each_child<B>(
    level: &Level,
    dead: &[bool],
    (flood, freeze, heuristic): (&mut Flood, &mut Freeze, &mut Heuristic),
    occupied: &mut [bool],
    box_list: &[usize],
    region: (&Flood, usize),
    only: Option<&Corrals>,
    mut visit: impl FnMut(Push, &[bool], usize, u32) -> ControlFlow<B>,
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
                level, flood, freeze, heuristic, occupied, from, target, k, box_list, region,
            );
            let flow = match child {
                Some((player, h)) => visit(Push { from, dir }, occupied, player, h),
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
/// updated): its player square and matching bound, or `None` when it is a deadlock.
/// `region`: the expanded position's region (the flood's last fill) and its name.
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
) -> Option<(usize, u32)> {
    if freeze.deadlocked(occupied, target) {
        return None;
    }
    let (player, _) = flood.fill_after(region, level, occupied, (from, target), (from, smallest));
    let h = heuristic.child(pushed, target, player, box_list)?;
    Some((player, h))
}
