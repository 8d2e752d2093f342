//! One push step: its variables and the rules every plan obeys at that step (a push
//! needs its box, a free target and the player behind it; boxes move only when pushed;
//! exactly one push; the player walks on free squares from where it stands, and its
//! region is closed; the waste of the push; no frozen 2x2 block off the goals).

use super::pruning::Pruning;
use super::timeline::Timeline;
use crate::card::CardEncoding;
use crate::cnf::{Cnf, Lit};
use crate::sokoban::analysis::{pushable, Analysis};
use crate::sokoban::{Dir, Level, Push};

/// Waste beyond this per push is counted as this much: undercounting only weakens the
/// budget, it never makes it wrong.
const MAX_COUNTED_WASTE: u32 = 6;

/// Adds push step `t` (the number of steps so far): from the position at time `t` to
/// the one at `t + 1`.
pub(super) fn add_step(
    cnf: &mut Cnf,
    level: &Level,
    analysis: &Analysis,
    pruning: &Pruning,
    timeline: &mut Timeline,
    freeze_blocks: &[Vec<usize>],
) {
    let t = timeline.steps();
    let n = level.num_cells();

    cnf.begin_group(&format!("step {t}: variables"));
    let next: Vec<Option<Lit>> = (0..n)
        .map(|c| {
            let possible = !analysis.dead[c] && analysis.from_start[c] as usize <= t + 1;
            possible.then(|| cnf.fresh_lit())
        })
        .collect();
    let reach: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
    let now = &timeline.box_at[t];
    let mut pushes = Vec::new();
    for c in (0..n).filter(|&c| now[c].is_some()) {
        for dir in Dir::ALL {
            let push = Push { from: c, dir };
            if let Some(target) = pushable(level, c, dir) {
                // A push that leaves its box where no goal can be reached (given the
                // side the player ends on) is never part of a plan.
                if next[target].is_some() && analysis.push_waste(level, push).is_some() {
                    pushes.push((push, cnf.primary_var().positive()));
                }
            }
        }
    }

    cnf.begin_group(&format!(
        "step {t}: a push needs its box, a free target and the player behind"
    ));
    for &(push, p) in &pushes {
        let target = pushable(level, push.from, push.dir).expect("push was pushable");
        let behind = level
            .neighbour(push.from, push.dir.opposite())
            .expect("push was pushable");
        cnf.implies(p, now[push.from].expect("push has a box"));
        if let Some(b) = now[target] {
            cnf.implies(p, !b);
        }
        cnf.implies(p, reach[behind]);
        cnf.implies(p, next[target].expect("push has a target"));
        if let Some(b) = next[push.from] {
            cnf.implies(p, !b);
        }
    }

    cnf.begin_group(&format!("step {t}: boxes move only when pushed"));
    let mut pushed_from = vec![Vec::new(); n];
    let mut pushed_into = vec![Vec::new(); n];
    for &(push, p) in &pushes {
        pushed_from[push.from].push(p);
        let target = pushable(level, push.from, push.dir).expect("push was pushable");
        pushed_into[target].push(p);
    }
    for c in 0..n {
        if let Some(b) = now[c] {
            // A box leaves only by a push.
            let mut clause = vec![!b];
            clause.extend(next[c]);
            clause.extend(pushed_from[c].iter().copied());
            cnf.clause(clause);
        }
        if let Some(b) = next[c] {
            // A box arrives only by a push.
            let mut clause = vec![!b];
            clause.extend(now[c]);
            clause.extend(pushed_into[c].iter().copied());
            cnf.clause(clause);
        }
    }

    cnf.begin_group(&format!("step {t}: exactly one push"));
    let lits: Vec<Lit> = pushes.iter().map(|&(_, p)| p).collect();
    cnf.clause(lits.iter().copied());
    CardEncoding::SequentialCounter.at_most(cnf, &lits, 1);

    cnf.begin_group(&format!(
        "step {t}: the player walks on free squares from where it stands"
    ));
    for c in 0..n {
        if let Some(b) = now[c] {
            cnf.implies(reach[c], !b);
        }
        if t == 0 && c == level.player() {
            continue;
        }
        let mut clause = vec![!reach[c]];
        if t > 0 {
            clause.extend(timeline.pushed_from[t - 1][c].iter().copied());
        }
        clause.extend(
            Dir::ALL
                .iter()
                .filter_map(|&d| level.neighbour(c, d))
                .map(|m| reach[m]),
        );
        cnf.clause(clause);
    }
    if pruning.reach_closure {
        // Closure: true of the player's real region, so it removes no real plan; it
        // pins `reach` down to that region, which lets the solver propagate through it.
        cnf.begin_group(&format!("step {t}: the player's region is closed"));
        if t == 0 {
            cnf.clause([reach[level.player()]]);
        } else {
            for (pushes, &r) in timeline.pushed_from[t - 1].iter().zip(&reach) {
                for &p in pushes {
                    cnf.implies(p, r);
                }
            }
        }
        for c in 0..n {
            for m in Dir::ALL.iter().filter_map(|&d| level.neighbour(c, d)) {
                let mut clause = vec![!reach[m], reach[c]];
                clause.extend(now[c]);
                cnf.clause(clause);
            }
        }
    }

    cnf.begin_group(&format!("step {t}: waste of the push"));
    // A push moves its box at most one push closer to its nearest goal (see
    // `Analysis::push_waste`); the rest of the push is waste.
    let waste_of = |push: &Push| -> u32 {
        analysis
            .push_waste(level, *push)
            .expect("only pushes with a finite waste are encoded")
            .min(MAX_COUNTED_WASTE)
    };
    let most = pushes.iter().map(|(p, _)| waste_of(p)).max().unwrap_or(0);
    let digits: Vec<Lit> = (1..=most)
        .map(|k| {
            let digit = cnf.fresh_lit();
            for (push, p) in &pushes {
                if waste_of(push) >= k {
                    cnf.implies(*p, digit);
                }
            }
            digit
        })
        .collect();

    cnf.begin_group(&format!("step {t}: no frozen 2x2 block off the goals"));
    for block in freeze_blocks {
        let lits: Option<Vec<Lit>> = block.iter().map(|&c| next[c]).collect();
        if let Some(lits) = lits {
            cnf.clause(lits.into_iter().map(|l| !l));
        }
    }
    cnf.end_group();

    timeline.box_at.push(next);
    timeline.reach.push(reach);
    timeline.pushes.push(pushes);
    timeline.pushed_from.push(pushed_from);
    timeline.waste.push(digits);
}

/// Every 2x2 block whose squares are walls or live squares, with at least one square
/// that is not a goal: boxes filling its live squares could never move again.
pub(super) fn freeze_blocks(level: &Level, analysis: &Analysis) -> Vec<Vec<usize>> {
    use crate::grid::Cell;
    let mut blocks = Vec::new();
    for r in 0..level.rows().saturating_sub(1) {
        'block: for c in 0..level.cols().saturating_sub(1) {
            let mut cells = Vec::new();
            for pos in [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] {
                let pos = Cell::new(pos.0, pos.1);
                match level.cell_at(pos) {
                    Some(cell) if !analysis.dead[cell] => cells.push(cell),
                    Some(_) => continue 'block,
                    None if level.is_wall(pos) => {}
                    None => continue 'block,
                }
            }
            if !cells.is_empty() && !cells.iter().all(|&cell| level.is_goal(cell)) {
                blocks.push(cells);
            }
        }
    }
    blocks
}
