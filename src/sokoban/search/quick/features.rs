//! The features of a position that span the quick search's feature space (after FESS,
//! Shoham and Schaeffer 2020): how far the packing has come, and how cut up the level
//! is. Positions with the same features share a cell; the search gives every cell its
//! turn, so that progress on one feature is not bought by neglecting another.

use super::packing::PackingOrder;
use gridsat_encodings::sokoban::{Dir, Level};

/// A position's place in the feature space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Cell {
    /// Boxes on goals of the layers reached so far in the packing order (see
    /// `packing`): every goal of an earlier layer is filled.
    pub(super) packed: u16,
    /// Boxes on goals of later layers: filled too early, they may shut goals off.
    pub(super) out_of_plan: u16,
    /// Areas of free squares the player cannot walk to.
    pub(super) areas: u16,
    /// Empty goals the boxes would fall short of once the next layer is filled
    /// (`capacity`; 0 unless `Options::shortfall`).
    pub(super) shortfall: u16,
}

/// Scratch space for computing features.
pub(super) struct Features<'a> {
    level: &'a Level,
    order: &'a PackingOrder,
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<usize>,
}

impl<'a> Features<'a> {
    pub(super) fn new(level: &'a Level, order: &'a PackingOrder) -> Features<'a> {
        Features {
            level,
            order,
            stamp: vec![0; level.num_cells()],
            current: 0,
            stack: Vec::new(),
        }
    }

    /// The first layer of the packing order with an empty goal (`None`: all filled).
    pub(super) fn frontier(&self, occupied: &[bool]) -> Option<u16> {
        self.level
            .goals()
            .iter()
            .filter(|&&g| !occupied[g])
            .map(|&g| self.order.layer(g))
            .min()
    }

    /// Whether the goal on `g` is one the packing order would fill now.
    pub(super) fn is_next(&self, g: usize, frontier: u16) -> bool {
        self.order.layer(g) == frontier
    }

    /// The cell of the position with boxes `occupied` whose player reaches the squares
    /// `reached` says.
    pub(super) fn cell(&mut self, occupied: &[bool], reached: impl Fn(usize) -> bool) -> Cell {
        let frontier = self.frontier(occupied).unwrap_or(u16::MAX);
        let (mut packed, mut out_of_plan) = (0, 0);
        for &g in self.level.goals() {
            if occupied[g] {
                if self.order.layer(g) <= frontier {
                    packed += 1;
                } else {
                    out_of_plan += 1;
                }
            }
        }
        Cell {
            packed,
            out_of_plan,
            areas: self.areas(occupied, reached),
            shortfall: 0,
        }
    }

    /// The areas of free squares outside the player's region.
    fn areas(&mut self, occupied: &[bool], reached: impl Fn(usize) -> bool) -> u16 {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.current = 1;
        }
        let mut areas = 0;
        for first in 0..self.level.num_cells() {
            if occupied[first] || reached(first) || self.stamp[first] == self.current {
                continue;
            }
            areas += 1;
            self.stamp[first] = self.current;
            self.stack.push(first);
            while let Some(c) = self.stack.pop() {
                for d in Dir::ALL {
                    if let Some(n) = self.level.neighbour(c, d) {
                        if !occupied[n] && self.stamp[n] != self.current {
                            self.stamp[n] = self.current;
                            self.stack.push(n);
                        }
                    }
                }
            }
        }
        areas
    }
}
