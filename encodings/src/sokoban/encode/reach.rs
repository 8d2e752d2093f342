//! The player's region made real: loop clauses, learned on demand.
//!
//! Reachability is the delicate rule. `reach(t, c)` requires `c` free and, unless `c`
//! is where the player stands at time `t`, some neighbour reachable. That alone admits
//! self-supporting cycles (two adjacent free squares vouching for each other behind a
//! wall of boxes). They are excluded by loop clauses, added on demand exactly as ASP
//! solvers add loop formulas: for a set `U` of squares, if any square of `U` is
//! reachable then the player starts in `U` or some square next to `U` outside it is
//! reachable. Every loop clause is true of real reachability, so it never removes a real
//! plan; `unfounded_sets` finds the sets a candidate plan relies on, and the caller adds
//! their loop clauses and solves again until the candidate's reachability is real. The
//! loop clauses of a set hold at every time, so each learned set is added at every step,
//! present and future.

use super::timeline::Timeline;
use crate::cnf::Cnf;
use crate::sokoban::{Dir, Level};

/// The loop clauses of `set` at time `t`: a square of `set` is reachable only if the
/// player stands in `set` or can walk to a square next to it outside it.
pub(super) fn loop_clauses(
    cnf: &mut Cnf,
    level: &Level,
    timeline: &Timeline,
    t: usize,
    set: &[usize],
) {
    let mut inside = vec![false; level.num_cells()];
    for &c in set {
        inside[c] = true;
    }
    let mut support = Vec::new();
    for &c in set {
        match timeline.sources(level, t, c) {
            None => return,
            Some(lits) => support.extend_from_slice(lits),
        }
    }
    let mut border: Vec<usize> = set
        .iter()
        .flat_map(|&c| Dir::ALL.map(|d| level.neighbour(c, d)))
        .flatten()
        .filter(|&m| !inside[m])
        .collect();
    border.sort_unstable();
    border.dedup();
    let reach = &timeline.reach[t];
    support.extend(border.iter().map(|&m| reach[m]));
    cnf.begin_group(&format!("step {t}: loop clauses"));
    for &c in set {
        let clause = std::iter::once(!reach[c]).chain(support.iter().copied());
        cnf.clause(clause);
    }
    cnf.end_group();
}

/// The sets of squares an assignment calls reachable though the player cannot walk
/// there (one per time and connected component). Empty when the plan is real.
pub(super) fn unfounded_sets(
    level: &Level,
    timeline: &Timeline,
    values: &[bool],
    horizon: usize,
) -> Vec<Vec<usize>> {
    let n = level.num_cells();
    let mut sets = Vec::new();
    let mut player = level.player();
    for t in 0..horizon {
        let blocked: Vec<bool> = timeline.box_at[t]
            .iter()
            .map(|b| b.is_some_and(|b| b.eval(values)))
            .collect();
        let mut walkable = vec![false; n];
        let mut stack = vec![player];
        walkable[player] = true;
        while let Some(c) = stack.pop() {
            for d in Dir::ALL {
                if let Some(m) = level.neighbour(c, d) {
                    if !walkable[m] && !blocked[m] {
                        walkable[m] = true;
                        stack.push(m);
                    }
                }
            }
        }
        let unfounded: Vec<bool> = (0..n)
            .map(|c| timeline.reach[t][c].eval(values) && !walkable[c])
            .collect();
        let mut seen = vec![false; n];
        for c in 0..n {
            if !unfounded[c] || seen[c] {
                continue;
            }
            let mut component = vec![c];
            seen[c] = true;
            let mut i = 0;
            while i < component.len() {
                let x = component[i];
                i += 1;
                for d in Dir::ALL {
                    if let Some(m) = level.neighbour(x, d) {
                        if unfounded[m] && !seen[m] {
                            seen[m] = true;
                            component.push(m);
                        }
                    }
                }
            }
            component.sort_unstable();
            sets.push(component);
        }
        if let Some(&(push, _)) = timeline.pushes[t].iter().find(|(_, p)| p.eval(values)) {
            player = push.from;
        }
    }
    sets.sort();
    sets.dedup();
    sets
}

/// The shortest self-supporting cycles, learned up front because nearly every candidate
/// plan would otherwise lean on one: two neighbouring squares, and 2x2 blocks of squares.
pub(super) fn short_cycles(level: &Level) -> Vec<Vec<usize>> {
    let mut sets = Vec::new();
    for c in 0..level.num_cells() {
        for dir in [Dir::Right, Dir::Down] {
            if let Some(n) = level.neighbour(c, dir) {
                sets.push(vec![c, n]);
            }
        }
        let block = level.neighbour(c, Dir::Right).and_then(|r| {
            let d = level.neighbour(c, Dir::Down)?;
            let rd = level.neighbour(r, Dir::Down)?;
            Some(vec![c, r, d, rd])
        });
        sets.extend(block);
    }
    sets
}
