//! The optional order of commuting pushes and the ban on pushing a box straight back
//! (the `commute` and `no_undo` pruning families), both under the `commute` literal.

use super::timeline::Timeline;
use crate::cnf::{Cnf, Lit};
use crate::sokoban::analysis::pushable;
use crate::sokoban::{Dir, Level, Push};

/// Under `commute`: push `a` at step `t` moves a box from `c` to `c'` (the player
/// coming from `b`, behind `c`), and push `u` at step `t + 1` pushes it straight back
/// from `c'` to `c`; both never happen when `witness` is reachable at time `seen`,
/// where either `seen = t` and `witness = c'` (the player could already walk to `c'`
/// before `a`), or `seen = t + 2` and `witness = b` (the player can walk back to `b`
/// after `u`). The two witnesses say the same thing of a real plan (the free squares
/// are the same at `t` and `t + 2`, so `c'` is in `b`'s region at one time exactly when
/// it is at the other); both are given so the solver can propagate from either side,
/// and the first also covers a horizon's last two steps (no `reach` at the horizon).
///
/// Soundness. In either case the position at time `t + 2` is the position at time
/// `t`: the boxes are the same (only this box moved, and it is back on `c`), so the
/// free squares are the same; after `u` the player stands on `c'`, and its region is
/// the one of time `t` because it contains `c'` (first case: `c'` was in the region of
/// time `t`, which contains `b`) or `b` (second case: `b` is in the region of time `t`,
/// the player stood there). A push's legality depends only on the boxes and the
/// player's region, so dropping steps `t` and `t + 1` leaves a real plan of `T - 2`
/// pushes. So no plan of the least satisfiable horizon `T*` breaks these clauses, and
/// every other clause holds of every plan of `T*` (together with the commuting order:
/// see `commuting_order`). The search asks the horizons in increasing order
/// (skipping only those of the wrong parity, which have no plan), so `T*` stays the
/// first satisfiable one. Longer horizons may lose all their plans (a plan may need
/// to waste two pushes by a push and back), which is why the clauses hang on `commute`
/// and the search for fewest moves (which asks only `T*`) may drop them.
pub(super) fn no_undo(
    cnf: &mut Cnf,
    level: &Level,
    timeline: &Timeline,
    commute: Lit,
    t: usize,
    seen: usize,
) {
    cnf.begin_group(&format!(
        "steps {t} and {}: no push straight back to the same position",
        t + 1
    ));
    for &(a, pa) in &timeline.pushes[t] {
        let target = pushable(level, a.from, a.dir).expect("pushable");
        let back = Push {
            from: target,
            dir: a.dir.opposite(),
        };
        let Some(&(_, pu)) = timeline.pushes[t + 1].iter().find(|(u, _)| *u == back) else {
            continue;
        };
        let witness = if seen == t {
            target
        } else {
            level.neighbour(a.from, a.dir.opposite()).expect("pushable")
        };
        cnf.clause([!commute, !pa, !pu, !timeline.reach[seen][witness]]);
    }
    cnf.end_group();
}

/// Under `commute`: push `a` at step `t` and push `b` at step `t + 1`, of different
/// boxes, with `b` before `a` in a fixed order of pushes (`push_key`), never both
/// happen when `b` could have been done first: the player could reach the square
/// behind `b` at time `t`, then (after `b`) the square behind `a`, and afterwards the
/// player's region is the same in both orders.
///
/// Soundness. Take, among the real plans of `T` pushes (`T` the least satisfiable
/// horizon when `no_undo` is on, see `no_undo`), the one whose sequence of
/// push keys is lexicographically least, with every variable at its true value
/// (`reach` the player's real region, which satisfies the support rule, the loop
/// clauses and the closure). Suppose it broke one of these clauses at step `t`: `a`
/// moves a box `A0 -> A1` from behind at `Ab`, then `b` moves another box `B0 -> B1`
/// from `Bb`, `key(b) < key(a)`, `B0 != A1`, `B1 != A0`, and (true values) `Bb` is
/// reachable at time `t`, `Ab` is reachable from `B0` once `b` is done in the
/// position of time `t` (`alt`), and `A0` is reachable at time `t + 2`. Then `b`
/// first is legal: its box stands on `B0` at time `t` (only `A0` changed and
/// `B0 != A1`), its target is free (`B1 != A0`, and `B1 != A1` because `A1` held a
/// box when `b` was done), and `Bb` is reachable. Then `a` is legal: its box is still
/// on `A0` (`B1 != A0`), `A1` is free, and `Ab` is reachable by `alt`. Both orders
/// leave the same boxes, and the player on `A0` instead of `B0`, which are in one
/// region (`A0` is reachable from `B0`), so every later push is as legal as before.
/// The swapped plan is a real plan of `T` pushes with a smaller key sequence; every
/// other clause (bounds, dead squares, frozen blocks, and with `T` least the no-undo
/// clauses) holds of every real plan of `T` pushes, so a contradiction. So the least
/// plan satisfies every clause, and a horizon that is satisfiable without these
/// clauses stays satisfiable with them (with `no_undo`: the least satisfiable one).
///
/// Encoding: `alt[c]` (forced true where real: the player on `B0` and the closure
/// over the squares free after `b`); a ladder `q[i]`, forced true when one of the
/// first `i + 1` pushes of step `t + 1` (in key order) is done with its square behind
/// reachable at time `t`; for each `a`, one clause naming the few pushes of step
/// `t + 1` that move `a`'s box or push into `A0` (not commuting with `a`).
pub(super) fn commuting_order(
    cnf: &mut Cnf,
    level: &Level,
    timeline: &Timeline,
    commute: Lit,
    t: usize,
) {
    let n = level.num_cells();
    cnf.begin_group(&format!(
        "steps {t} and {}: commuting pushes in order",
        t + 1
    ));
    let now = &timeline.box_at[t];
    let seconds = &timeline.pushes[t + 1];
    // alt[c]: c reachable from B0 in the position of time t with only b done.
    let alt: Vec<Lit> = (0..n).map(|_| cnf.fresh_lit()).collect();
    let mut into = vec![Vec::new(); n];
    for &(b, p) in seconds {
        cnf.implies(p, alt[b.from]);
        into[pushable(level, b.from, b.dir).expect("pushable")].push(p);
    }
    for c in 0..n {
        for m in Dir::ALL.iter().filter_map(|&d| level.neighbour(c, d)) {
            let mut clause = vec![!alt[m], alt[c]];
            clause.extend(now[c]);
            clause.extend(into[c].iter().copied());
            cnf.clause(clause);
        }
    }
    let mut order: Vec<(Push, Lit)> = seconds.clone();
    order.sort_by_key(|(b, _)| push_key(b));
    let ladder: Vec<Lit> = order.iter().map(|_| cnf.fresh_lit()).collect();
    for (i, &(b, p)) in order.iter().enumerate() {
        let behind = level.neighbour(b.from, b.dir.opposite()).expect("pushable");
        if i > 0 {
            cnf.implies(ladder[i - 1], ladder[i]);
        }
        cnf.clause([!p, !timeline.reach[t][behind], ladder[i]]);
    }
    for &(a, p) in &timeline.pushes[t] {
        let earlier = order.partition_point(|(b, _)| push_key(b) < push_key(&a));
        if earlier == 0 {
            continue;
        }
        let a_target = pushable(level, a.from, a.dir).expect("pushable");
        let a_behind = level.neighbour(a.from, a.dir.opposite()).expect("pushable");
        let mut clause = vec![
            !commute,
            !p,
            !alt[a_behind],
            !timeline.reach[t + 2][a.from],
            !ladder[earlier - 1],
        ];
        clause.extend(order[..earlier].iter().filter_map(|&(b, q)| {
            let b_target = pushable(level, b.from, b.dir).expect("pushable");
            (b.from == a_target || b_target == a.from).then_some(q)
        }));
        cnf.clause(clause);
    }
    cnf.end_group();
}

/// The fixed order of pushes used to pick one order of commuting pushes.
fn push_key(push: &Push) -> usize {
    push.from * 4 + push.dir.index()
}
