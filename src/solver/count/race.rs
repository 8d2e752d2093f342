//! One count by several engines at once, each on a thread (and so a core) of its own:
//! the first to finish answers and the others are stopped.
//!
//! Engines that differ only in how they search (decision order, elimination) give the
//! same count, but their times differ by orders of magnitude from one kind of formula to
//! another: the fixed order wins on puzzle formulas (the cache becomes a dynamic program
//! over rows), the dynamic order with elimination on random ones. A caller that does not
//! know which kind it holds races them. The price is the other engine's CPU time until
//! the first answers (never more wall time than the faster alone, bar scheduling) and its
//! memory, so each racer should get its share of the cache (`Engine::cache_bytes`).
//!
//! When no engine finishes (their budgets ran out), the answer is the best bound any of
//! them proved: each is a sound lower bound of the same count.

use super::{Budgeted, Count, Engine, SearchStats, Stopped, STACK_BYTES};
use crate::limits::Budget;
use std::sync::mpsc;

/// What a race found: the answer, what the engine that gave it did, and which engine
/// that was (its index), if any finished.
pub struct Raced {
    pub count: Budgeted<Count>,
    pub stats: SearchStats,
    pub winner: Option<usize>,
}

/// Counts with every engine of `engines` at once and answers with the first to finish.
/// Each keeps its own limits; a racer's thread that cannot be started (the address space
/// is capped) leaves the race to the others, and with none started the first engine
/// counts alone, as `Engine::count` does.
pub fn count_racing(engines: &[Engine<'_>]) -> Raced {
    assert!(!engines.is_empty(), "a race needs an engine");
    // Each racer on a child of its own budget, so that the winner can stop the others
    // without touching the caller's budget.
    let racers: Vec<(Engine<'_>, Budget)> = engines
        .iter()
        .map(|engine| {
            let own = engine
                .limits
                .budget
                .as_ref()
                .map_or_else(|| Budget::unlimited().child(), Budget::child);
            (engine.clone().budget(&own), own)
        })
        .collect();
    let (sender, answers) = mpsc::channel();
    let mut results: Vec<Option<(Budgeted<Count>, SearchStats)>> = vec![None; racers.len()];
    let mut winner = None;
    let started = std::thread::scope(|scope| {
        let mut started = 0;
        for (index, (engine, _)) in racers.iter().enumerate() {
            let sender = sender.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("gridsat-count-{index}"))
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let answer = engine.count_on_this_thread();
                    // The receiver outlives the scope: a send cannot fail.
                    let _ = sender.send((index, answer));
                });
            started += usize::from(spawned.is_ok());
        }
        drop(sender);
        for (index, answer) in answers.iter() {
            if winner.is_none() && answer.0.is_ok() {
                winner = Some(index);
                for (_, own) in &racers {
                    own.cancel();
                }
            }
            results[index] = Some(answer);
        }
        started
    });
    if started == 0 {
        let (count, stats) = engines[0].count();
        let winner = count.is_ok().then_some(0);
        return Raced {
            count,
            stats,
            winner,
        };
    }
    if let Some(index) = winner {
        let (count, stats) = results[index].take().expect("the winner answered");
        return Raced {
            count,
            stats,
            winner,
        };
    }
    // Nobody finished: the best bound proven.
    let (count, stats) = results
        .into_iter()
        .flatten()
        .max_by(|a, b| bound(&a.0).cmp(bound(&b.0)))
        .expect("a racer answered");
    Raced {
        count: Err(Stopped {
            at_least: bound(&count).clone(),
        }),
        stats,
        winner: None,
    }
}

fn bound(count: &Budgeted<Count>) -> &Count {
    match count {
        Ok(count) => count,
        Err(stopped) => &stopped.at_least,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridsat_encodings::cnf::{Cnf, Lit};
    use std::time::Duration;

    /// Rows of four cells with at most one true cell each, and no column used twice in a
    /// row: 5^rows minus the clashes, counted by both racers alike.
    fn rows(rows: usize) -> Cnf {
        let mut cnf = Cnf::new();
        let cells: Vec<Vec<Lit>> = (0..rows)
            .map(|_| (0..4).map(|_| cnf.primary_var().positive()).collect())
            .collect();
        for (r, row) in cells.iter().enumerate() {
            for (i, &a) in row.iter().enumerate() {
                for &b in &row[i + 1..] {
                    cnf.clause([!a, !b]);
                }
                if r + 1 < rows {
                    cnf.clause([!a, !cells[r + 1][i]]);
                }
            }
        }
        cnf
    }

    #[test]
    fn a_race_answers_with_the_count_every_racer_gives() {
        for n in 1..8 {
            let cnf = rows(n);
            let alone = Engine::new(&cnf).count().0;
            let engines = [
                Engine::new(&cnf),
                Engine::new(&cnf).dynamic_order(true).eliminate(true),
            ];
            let raced = count_racing(&engines);
            assert_eq!(raced.count, alone, "{n} rows");
            assert!(raced.winner.is_some());
        }
    }

    #[test]
    fn a_race_nobody_finishes_answers_with_a_proven_bound() {
        let cnf = rows(7);
        let exact = Engine::new(&cnf).count().0.expect("no limits");
        let spent = Budget::starting_now(Some(Duration::ZERO));
        let engines = [
            Engine::new(&cnf).budget(&spent),
            Engine::new(&cnf).budget(&spent).dynamic_order(true),
        ];
        let raced = count_racing(&engines);
        assert_eq!(raced.winner, None);
        assert!(raced.count.expect_err("stopped").at_least <= exact);
        // The caller's budget is the racers' parent: a race never cancels it.
        let running = Budget::starting_now(Some(Duration::from_secs(60)));
        let engines = [
            Engine::new(&cnf).budget(&running),
            Engine::new(&cnf).budget(&running),
        ];
        assert_eq!(count_racing(&engines).count, Ok(exact));
        assert!(!running.expired());
    }
}
