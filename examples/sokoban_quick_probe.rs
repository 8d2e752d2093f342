//! Runs the quick search alone (no A* beside it) on some levels of a file, with a time
//! limit per level, and prints what it did: the plan's pushes (replayed by the referee
//! first) or why there is none, and its counters (positions, expansions, what pruned the
//! children, how often the packing advisor had a move). For finding out why the quick
//! search fails on a level.
//!
//! Usage: `target/release/examples/sokoban_quick_probe LEVELS.xsb SECONDS N...`, with the
//! environment variables `QUICK_PATH_STATES`, `QUICK_CANDIDATES`, `QUICK_FALLBACK` and `QUICK_CLEARING`
//! (1: the clearing advisor on; 2: with and without it, taking turns; 3: the searches of
//! `--quick`'s first thread, `turns::quick_thread`: those two, the clearing one again
//! goal by goal, and two reverse searches), `QUICK_BOX_MOVES=1` (the box-move search),
//! `QUICK_GOAL_BY_GOAL=1` (the packing order goal by goal),
//! `QUICK_SHARES=4,4,8,3,3` (with `QUICK_CLEARING=3`: the five searches' shares of each
//! round of turns; `QUICK_LATE_SHARE=1`: the plain and clearing searches' share after
//! the late point, `turns::LATE`, 0 to set them aside), `QUICK_SEARCHES=p4,c4,cg8,r4`
//! (any searches taking turns: letters
//! `p` plain, `c` clearing, `b` box moves, `g` goal by goal, `r` reverse, `w` weighted
//! (pushes + 3 x bound), then the
//! share, and `r` may be followed by `s` and the stranded boxes' weight then `/` and
//! the share: `rs1/3`; these keep their shares all along, without the quick thread's
//! late shares), `QUICK_RESCUE=0` (the rescue advisor off), `QUICK_REVERSE=1`
//! (the reverse search alone; with `QUICK_BOX_MOVES=1` by box moves) and
//! `QUICK_STRANDED=1` (the reverse search's weight of stranded boxes) and
//! `QUICK_STARTS_FIRST=1` (the reverse search's ties: fewest boxes off the start squares
//! first) for the options.

use gridsat::limits::Budget;
use gridsat::sokoban::check::replay;
use gridsat::sokoban::cli::Method;
use gridsat::sokoban::parse::{parse_levels, LevelFormat};
use gridsat::sokoban::plan::to_lurd;
use gridsat::sokoban::search::quick::{self, Options};
use gridsat::sokoban::Limits;
use gridsat_encodings::sokoban::Level;
use std::time::{Duration, Instant};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, seconds, levels @ ..] = args.as_slice() else {
        anyhow::bail!("usage: sokoban_quick_probe LEVELS.xsb SECONDS N...");
    };
    let text = std::fs::read_to_string(file)?;
    let seconds: f64 = seconds.parse()?;
    for n in levels {
        let n: usize = n.parse()?;
        let entry = parse_levels(&text, LevelFormat::Auto, Some(n))?.remove(0);
        // The position limit of `gridsat sokoban --quick` (its method's default).
        let limits = Limits {
            budget: Budget::starting_now(Some(Duration::from_secs_f64(seconds))),
            max_states: Method::Portfolio.default_max_states(),
            ..Limits::default()
        };
        let started = Instant::now();
        let options = Options {
            box_path_states: knob("QUICK_PATH_STATES")
                .unwrap_or(Options::default().box_path_states),
            packing_candidates: knob("QUICK_CANDIDATES")
                .unwrap_or(Options::default().packing_candidates),
            fallback_candidates: knob("QUICK_FALLBACK")
                .unwrap_or(Options::default().fallback_candidates),
            clearing: knob("QUICK_CLEARING") == Some(1),
            box_moves: knob("QUICK_BOX_MOVES") == Some(1),
            rescue: knob("QUICK_RESCUE") != Some(0),
            goal_by_goal: knob("QUICK_GOAL_BY_GOAL") == Some(1),
            shortfall: knob("QUICK_SHORTFALL") != Some(0),
            stranded: knob("QUICK_STRANDED").unwrap_or(0) as u32,
            starts_first: knob("QUICK_STARTS_FIRST") == Some(1),
            ..Options::default()
        };
        if knob("QUICK_REVERSE") == Some(1) {
            let (found, stats) = quick::reverse::search(&entry.level, &limits, &options);
            let seconds = started.elapsed().as_secs_f64();
            let outcome = replayed(&entry.level, n, found)?;
            println!("level {n}: {outcome} after {seconds:.2} s; {stats:?}");
            continue;
        }
        let (found, stats) = if let Ok(spec) = std::env::var("QUICK_SEARCHES") {
            let searches = searches_from(&spec, options)?;
            quick::turns::search(&entry.level, &limits, &searches)
        } else if knob("QUICK_CLEARING") == Some(3) {
            let mut all = quick::turns::quick_thread(options);
            // `QUICK_SHARES=4,4,8,3,3`: the five searches' shares of each round.
            if let Ok(shares) = std::env::var("QUICK_SHARES") {
                for (o, s) in all.iter_mut().zip(shares.split(',')) {
                    o.share = s.parse()?;
                }
            }
            // `QUICK_LATE_SHARE=1`: the plain and clearing searches' share after the late
            // point.
            if let Some(late) = knob("QUICK_LATE_SHARE") {
                all[..2].iter_mut().for_each(|o| o.late_share = Some(late));
            }
            quick::turns::search(&entry.level, &limits, &all)
        } else if knob("QUICK_CLEARING") == Some(2) {
            let both = quick::turns::with_and_without_clearing(options);
            quick::turns::search(&entry.level, &limits, &both)
        } else {
            quick::search(&entry.level, &limits, options)
        };
        let seconds = started.elapsed().as_secs_f64();
        let outcome = replayed(&entry.level, n, found)?;
        println!("level {n}: {outcome} after {seconds:.2} s; {stats:?}");
    }
    Ok(())
}

/// The plan's pushes and moves after the referee replayed it (an error unless it ends
/// solved), as the command line does before printing; or why there is none.
fn replayed(level: &Level, n: usize, found: quick::Found) -> anyhow::Result<String> {
    let Ok(plan) = found else {
        return Ok(found.unwrap_err());
    };
    let lurd = to_lurd(level, &plan).map_err(|e| anyhow::anyhow!("level {n}: {e}"))?;
    let r = replay(level, &lurd).map_err(|e| anyhow::anyhow!("level {n}: {e}"))?;
    Ok(format!(
        "plan of {} pushes ({} moves, replayed)",
        r.pushes, r.moves
    ))
}

/// `QUICK_SEARCHES=p4,c4,cg8,r4`: searches taking turns, each letters and a share:
/// `p` plain, `c` clearing, `b` box moves, `g` goal by goal, `r` reverse, `w` weighted;
/// `rs2/3` the
/// reverse search with stranded boxes weighing 2, share 3.
fn searches_from(spec: &str, options: Options) -> anyhow::Result<Vec<Options>> {
    spec.split(',')
        .map(|item| {
            if let Some(rest) = item.strip_prefix("rs") {
                let (weight, share) = rest
                    .split_once('/')
                    .ok_or_else(|| anyhow::anyhow!("QUICK_SEARCHES: {item:?} is not rsW/S"))?;
                return Ok(Options {
                    reverse: true,
                    stranded: weight.parse()?,
                    share: share.parse()?,
                    ..options
                });
            }
            let split = item
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(item.len());
            let (kinds, share) = item.split_at(split);
            if let Some(bad) = kinds.chars().find(|c| !"pcbgrw".contains(*c)) {
                anyhow::bail!("QUICK_SEARCHES: unknown search letter {bad:?} in {item:?}");
            }
            Ok(Options {
                clearing: kinds.contains('c'),
                box_moves: kinds.contains('b'),
                goal_by_goal: kinds.contains('g'),
                reverse: kinds.contains('r'),
                weighted: kinds.contains('w'),
                share: share.parse().unwrap_or(4),
                ..options
            })
        })
        .collect()
}

/// An option of the quick search from the environment, to compare settings.
fn knob(name: &str) -> Option<usize> {
    std::env::var(name).ok()?.parse().ok()
}
