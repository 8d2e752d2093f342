//! The plan's variables, time by time: where the boxes are, where the player can walk,
//! and which push each step makes. Every rule of the encoding is stated over these.

use crate::cnf::{Cnf, Lit};
use crate::sokoban::{Level, Push};

pub(super) struct Timeline {
    /// `box_at[t][c]`: a box stands on `c` at time `t`; `None` where the square is
    /// certainly empty (a dead square, or one no box reaches in `t` pushes).
    pub(super) box_at: Vec<Vec<Option<Lit>>>,
    /// `reach[t][c]`: the player can walk to `c` at time `t`, for every time that has a
    /// push step.
    pub(super) reach: Vec<Vec<Lit>>,
    /// The pushes of each step, with their literals (the plan's own unknowns).
    pub(super) pushes: Vec<Vec<(Push, Lit)>>,
    /// `pushed_from[t][c]`: the pushes of step `t` that leave the player on `c`.
    pub(super) pushed_from: Vec<Vec<Vec<Lit>>>,
    /// `waste[t]`: unary digits of the waste of step `t` (see the waste budget).
    pub(super) waste: Vec<Vec<Lit>>,
}

impl Timeline {
    /// The start position (time 0): a box on each of the level's boxes, no push step.
    pub(super) fn start(cnf: &mut Cnf, level: &Level) -> Timeline {
        cnf.begin_group("start");
        let start: Vec<Option<Lit>> = (0..level.num_cells())
            .map(|c| {
                level.boxes().contains(&c).then(|| {
                    let lit = cnf.fresh_lit();
                    cnf.clause([lit]);
                    lit
                })
            })
            .collect();
        cnf.end_group();
        Timeline {
            box_at: vec![start],
            reach: Vec::new(),
            pushes: Vec::new(),
            pushed_from: Vec::new(),
            waste: Vec::new(),
        }
    }

    /// How many push steps there are.
    pub(super) fn steps(&self) -> usize {
        self.pushes.len()
    }

    /// Where the player may stand at time `t` without walking: `None` when it certainly
    /// stands on `cell` (the start), else the pushes that leave it there.
    pub(super) fn sources(&self, level: &Level, t: usize, cell: usize) -> Option<&[Lit]> {
        if t == 0 {
            (cell != level.player()).then_some(&[][..])
        } else {
            Some(&self.pushed_from[t - 1][cell])
        }
    }
}
