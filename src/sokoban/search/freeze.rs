//! Freeze deadlocks: a box that can no longer move along either axis, blocked by walls,
//! by dead squares on both sides of an axis (a push either way would put it on a dead
//! square) or by other boxes that are themselves blocked in the same sense, in a frozen
//! group with a box off a goal.
//!
//! Why it is sound to prune: the first push of a box of the group would need both
//! neighbours along its axis free and non-dead, which the group never allows while none
//! of its boxes has moved: so none ever moves, and the box off a goal stays off it. The
//! check has a budget of calls; when it runs out the answer is "not frozen", which is
//! always safe.

use gridsat_encodings::sokoban::{Dir, Level};

/// Freeze deadlock detection.
pub(super) struct Freeze<'a> {
    level: &'a Level,
    dead: &'a [bool],
    /// Boxes being checked or already found frozen in the current check: they count as
    /// walls.
    frozen: Vec<bool>,
    group: Vec<usize>,
    /// Calls left in the current check; when it runs out the answer is "not frozen",
    /// which is always safe.
    budget: usize,
}

impl Freeze<'_> {
    /// Whether the box on `cell` (just pushed there) is part of a frozen group with a
    /// box off a goal.
    pub(super) fn deadlocked(&mut self, occupied: &[bool], cell: usize) -> bool {
        self.frozen_group(occupied, cell)
            .is_some_and(|group| group.iter().any(|&c| !self.level.is_goal(c)))
    }

    /// The frozen group of the box on `cell`, if it is frozen.
    pub(super) fn frozen_group(&mut self, occupied: &[bool], cell: usize) -> Option<Vec<usize>> {
        self.budget = 256;
        let frozen = self.is_frozen(occupied, cell);
        let group = frozen.then(|| self.group.clone());
        for c in self.group.drain(..) {
            self.frozen[c] = false;
        }
        group
    }

    fn is_frozen(&mut self, occupied: &[bool], cell: usize) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let mark = self.group.len();
        self.group.push(cell);
        self.frozen[cell] = true;
        let result = self.axis_blocked(occupied, cell, Dir::Left, Dir::Right)
            && self.axis_blocked(occupied, cell, Dir::Up, Dir::Down);
        if !result {
            for c in self.group.drain(mark..) {
                self.frozen[c] = false;
            }
        }
        result
    }

    fn axis_blocked(&mut self, occupied: &[bool], cell: usize, a: Dir, b: Dir) -> bool {
        let (Some(na), Some(nb)) = (self.level.neighbour(cell, a), self.level.neighbour(cell, b))
        else {
            return true;
        };
        if (self.dead[na] && self.dead[nb]) || self.frozen[na] || self.frozen[nb] {
            return true;
        }
        (occupied[na] && self.is_frozen(occupied, na))
            || (occupied[nb] && self.is_frozen(occupied, nb))
    }
}

impl<'a> Freeze<'a> {
    /// A freeze check for `level` whose dead squares are marked in `dead`.
    pub(super) fn new(level: &'a Level, dead: &'a [bool]) -> Freeze<'a> {
        Freeze {
            level,
            dead,
            frozen: vec![false; level.num_cells()],
            group: Vec::new(),
            budget: 0,
        }
    }
}
