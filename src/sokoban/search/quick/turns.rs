//! Several quick searches in one thread, taking turns.
//!
//! The advisors' options suit different levels: on XSokoban the clearing advisor plans
//! level 36, which the plain search does not, and on 40 packs 13 of 16 boxes where the
//! plain search packs 1; the plain search plans 11 and 45, which the clearing one
//! misses. Which one a level needs is not known before, so the searches take turns of
//! `Options::share` quarters of a turn each, every one keeping its positions between
//! turns. A level plans in about the time its best option alone needs, divided by that
//! option's part of the shares; the first plan ends them all. With one option this is
//! that search alone.
//!
//! A turn is measured in time, not in work done: the searches' costs per expansion
//! differ by level and change whenever one of them gets faster, so a count of their
//! work weighed by a fixed cost gave the reverse search less than half its share on
//! XSokoban 16 (0.9 s of 10 for a fifth). The price is that which search finds the
//! first plan, when two are close, may depend on the machine's speed.

use super::packing::PackingOrder;
use super::reverse::ReverseSearch;
use super::weighted::WeightedSearch;
use super::{Found, Options, QuickStats, Search};
use crate::sokoban::search::heuristic::MAX_CELLS;
use crate::sokoban::search::static_unsolvable;
use crate::sokoban::Limits;
use gridsat_encodings::sokoban::{Analysis, Level};
use std::time::{Duration, Instant};

/// A quarter of a search's turn, the unit of `Options::share`: a full turn (four
/// quarters) is 60 ms, long enough that the switching costs nothing, short enough that
/// the searches stay within a fraction of a second of each other.
const QUARTER_TURN: Duration = Duration::from_millis(15);

/// The searches take their `Options::late_share` once the ones set aside then (a late
/// share of 0: the plain and clearing searches) have together expanded this many
/// positions. On XSokoban they are the first to plan 52 levels, all early: later they
/// plan nothing the others do not, and setting them aside gives the others 22/14 of
/// the time they had. Until 2026-12-07 the point was 15 s of the clock, which on a slow
/// machine set them aside after less work: on XSokoban 39 after 88 K expansions (the
/// clearing search 36 K of them), where alone the clearing search plans it after 40 K;
/// so 39 planned on a fast day and not on a slow one. Counting their work makes the
/// point the same on every machine. At 15 s on that slow day they had expanded 88-143 K
/// positions (XSokoban 39, 23, 29, 40, 16); 120 K puts the point near where the clock
/// put it then, a little after it on a fast day.
pub const LATE: usize = 120_000;

/// The late point of the portfolio's quick thread (`portfolio_thread`), where the
/// weighted search takes its share: sooner than `LATE`, for Microban II 131 (44 boxes),
/// where the plain and clearing searches expand about 9,500 positions a second against
/// 16,000-25,000 on XSokoban 23, 29 and 39: with `LATE` its plan came after 54 s in the
/// portfolio (29-35 s with this, 40 s with the clock's 15 s before), and 109 was proven
/// at 46-52 s with this (2026-12-07, seventeenth session, a slow day).
pub const PORTFOLIO_LATE: usize = 40_000;

/// The two searches that take turns in the quick search's thread (`plans`): `options`
/// as they are, and with the clearing advisor.
pub fn with_and_without_clearing(options: Options) -> [Options; 2] {
    [
        options,
        Options {
            clearing: true,
            ..options
        },
    ]
}

/// The searches of the quick search's thread (`plans`): the two forward ones
/// (`with_and_without_clearing`), the clearing one again with the packing order goal by
/// goal (`Options::goal_by_goal`), and two reverse ones. The plain and clearing searches
/// plan most levels they plan within seconds; the goal-by-goal clearing search takes a
/// double share, since the levels only it plans take it long alone (XSokoban 28 and 40:
/// 17 and 20 s when the shares were set; 40 16 s since). The reverse searches weigh
/// stranded boxes (`Options::stranded`) by 2 and by 1 pulls, each with a share of 3:
/// alone, the first plans XSokoban 16 in 6 s and 14 in 1.5 s, the second 29 in 6 s
/// (and 85 in 29 s), where the reverse search without the weight needed 10, 2 and 45 s
/// (2026-12-05). Which weight suits a level is not known before, and a level's time
/// swings with it (16 gets no plan in 40 s with the weight 1, 29 none with 2), so both
/// run. After `LATE` the plain and clearing searches are set aside (`late_share` 0; it
/// was 1 until 2026-12-06, when the real command then planned 29 at 50.0-50.4 s against
/// none and 57.8 s, 16 at 39.2-41.6 s against 44.6-44.7 s, and 40 at 41.3-44.1 s against
/// 43.7-45.5 s, the builds taking turns). The search weighing stranded boxes by 2 breaks ties in
/// its order by the fewest boxes off the start squares (`Options::starts_first`): alone
/// it then plans 85 in 5 s (none in 30 s before) and 14 in 0.2 s (1.6 s); the one
/// weighing them by 1 keeps the fewest pulls, with which it plans 29 in 9 s (33 s).
pub fn quick_thread(options: Options) -> [Options; 5] {
    let early = Options {
        late_share: Some(0),
        late_after: LATE,
        ..options
    };
    let [plain, clearing] = with_and_without_clearing(early);
    let goal_by_goal = Options {
        goal_by_goal: true,
        share: 8,
        late_share: None,
        ..clearing
    };
    let reverse = |stranded, starts_first| Options {
        reverse: true,
        stranded,
        starts_first,
        share: 3,
        ..options
    };
    [
        plain,
        clearing,
        goal_by_goal,
        reverse(2, true),
        reverse(1, false),
    ]
}

/// The searches of `--quick`'s second thread, which takes A*'s core when A* has not
/// proven anything and no plan is found by a twelfth of the time (`anytime`). Box moves
/// (FESS's macro moves, `Options::box_moves`) with the clearing advisor and the packing
/// order goal by goal (`Options::goal_by_goal`): on XSokoban they plan 30, 24 and 18,
/// which the quick thread's searches do not plan in 60 s (and 74 with the core to
/// themselves, after 50-56 s). In turns with them, a share of 5 in 16, the reverse search
/// by box moves with stranded boxes weighing 2 and ties to the positions nearest the start
/// (`Options::starts_first`): alone it plans 41 in 0.4 s and 31 in 12 s, which no other
/// search plans in 60 s (31 in 31 s without the ties, neither without the weight). These
/// shares plan 31 at 43 s and 18 at 51 s in the real command (2026-12-06, a slow day);
/// 74 is given up for 31 and 41. They run beside the quick thread rather than in its
/// turns, since they miss many levels its searches plan within a second. The weighted
/// search (`weighted`) takes a share of 3 beside them (of 19): it plans Sasquatch 19
/// within the first seconds, and Microban II 131 (44 boxes), which only it plans, after
/// 5 s alone; with no share `--quick` gave up there at 60 s. Until 2026-12-07 it had 2
/// for 15 s and 4 after (its 88-push plan on 131 after 40 s, 18 after 48.0-48.7 s
/// against 42.6-45.5 s without it, fourteenth session); one share all along gives the
/// searches about the same time by 40 s and keeps this thread free of the clock, since
/// no search here is set aside (`LATE`).
pub fn second_thread(options: Options) -> [Options; 3] {
    [
        Options {
            box_moves: true,
            clearing: true,
            goal_by_goal: true,
            share: 11,
            ..options
        },
        Options {
            reverse: true,
            box_moves: true,
            stranded: 2,
            starts_first: true,
            share: 5,
            ..options
        },
        Options {
            share: 3,
            ..weighted(options)
        },
    ]
}

/// The weighted search (`weighted`) with a share of 2: where it plans what the others
/// do not, it does so early (Sasquatch 19 in 0.3 s alone) or needs long (Microban II
/// 131, 6-10 s alone; see `portfolio_thread`).
pub fn weighted(options: Options) -> Options {
    Options {
        weighted: true,
        share: 2,
        ..options
    }
}

/// The searches of the portfolio's quick thread: the quick thread's (`quick_thread`),
/// and after its late point (`PORTFOLIO_LATE`) the weighted search with a share of 16
/// (of 30 then). The portfolio proves most levels; the quick thread is there for the
/// few it does not, and Microban II 131 (44 boxes) only the weighted search plans. Its
/// plans there come late, while the others' on 109 come early and hurry A*'s proof
/// (their plans are its ceiling), so it waits: a share of 4 from the start had 109's
/// last plan 0.5 s later. With a late
/// share of 8 (of 22) 131 planned after 37.9-53.3 s in four runs, with 16 after 39.1
/// and 40.6 s (2026-12-07).
pub fn portfolio_thread(options: Options) -> [Options; 6] {
    let [plain, clearing, goal_by_goal, reverse2, reverse1] = quick_thread(options);
    let [plain, clearing] = [plain, clearing].map(|o| Options {
        late_after: PORTFOLIO_LATE,
        ..o
    });
    let weighted = Options {
        share: 0,
        late_share: Some(16),
        ..weighted(options)
    };
    [plain, clearing, goal_by_goal, reverse2, reverse1, weighted]
}

/// One of the searches taking turns.
enum Searcher<'a> {
    Forward(Box<Search<'a>>),
    Reverse(Box<ReverseSearch<'a>>),
    Weighted(Box<WeightedSearch<'a>>),
}

impl Searcher<'_> {
    fn start(&mut self) -> Option<Found> {
        match self {
            Searcher::Forward(s) => s.start(),
            Searcher::Reverse(s) => s.start(),
            Searcher::Weighted(s) => s.start(),
        }
    }

    fn turn(&mut self, limits: &Limits, share: usize) -> Option<Found> {
        let until = Instant::now() + QUARTER_TURN * share as u32;
        match self {
            Searcher::Forward(s) => s.turn(limits, until),
            Searcher::Reverse(s) => s.turn(limits, until),
            Searcher::Weighted(s) => s.turn(limits, until),
        }
    }

    /// The positions this search has expanded.
    fn expanded(&self) -> usize {
        match self {
            Searcher::Forward(s) => s.expanded,
            Searcher::Reverse(s) => s.stats.expanded,
            Searcher::Weighted(s) => s.expanded,
        }
    }

    fn stats_now(&self) -> QuickStats {
        match self {
            Searcher::Forward(s) => s.stats_now(),
            Searcher::Reverse(s) => s.stats_now(),
            Searcher::Weighted(s) => QuickStats {
                stored: s.stored(),
                expanded: s.expanded,
                ..QuickStats::default()
            },
        }
    }
}

/// Runs one quick search per entry of `options` in turns (see the module comment):
/// the first plan found, else why every search ended.
pub fn search(level: &Level, limits: &Limits, options: &[Options]) -> (Found, QuickStats) {
    let (found, stats, _) = search_timed(level, limits, options);
    (found, stats)
}

/// The time each search took before the late point and after it.
type Spent = Vec<[Duration; 2]>;

/// `search`, also the time each search took before the late point and after it.
fn search_timed(level: &Level, limits: &Limits, options: &[Options]) -> (Found, QuickStats, Spent) {
    assert!(!options.is_empty(), "a quick search needs its options");
    let mut stats = QuickStats::default();
    let mut spent = vec![[Duration::ZERO; 2]; options.len()];
    let n = level.num_cells();
    if n > MAX_CELLS {
        let reason = format!("the level has more than {MAX_CELLS} squares");
        return (Err(reason), stats, spent);
    }
    let analysis = Analysis::new(level);
    if let Some(reason) = static_unsolvable(level, &analysis) {
        return (Err(reason), stats, spent);
    }
    let orders = packing_orders(level);
    // The position limit holds for all of them together.
    let limits = Limits {
        max_states: limits.max_states / options.len(),
        ..limits.clone()
    };
    let mut searches = searchers(level, &analysis, &orders, options);
    let found = take_turns(&mut searches, options, &limits, &mut stats, &mut spent);
    for search in &searches {
        stats.add(&search.stats_now());
    }
    (found, stats, spent)
}

/// The packing orders the searches choose from: by layers, and goal by goal
/// (`Options::goal_by_goal`), as `searchers` takes them.
fn packing_orders(level: &Level) -> [PackingOrder; 2] {
    [PackingOrder::new(level), PackingOrder::goal_by_goal(level)]
}

/// The searches `options` make, with `orders[0]` the packing order by layers and
/// `orders[1]` goal by goal.
fn searchers<'a>(
    level: &'a Level,
    analysis: &'a Analysis,
    orders: &'a [PackingOrder; 2],
    options: &[Options],
) -> Vec<Searcher<'a>> {
    options
        .iter()
        .map(|&o| match o.reverse {
            _ if o.weighted => {
                Searcher::Weighted(Box::new(WeightedSearch::new(level, analysis, &o)))
            }
            false => {
                let order = &orders[usize::from(o.goal_by_goal)];
                Searcher::Forward(Box::new(Search::new(level, analysis, order, o)))
            }
            true => Searcher::Reverse(Box::new(ReverseSearch::new(level, &o))),
        })
        .collect()
}

/// Starts `searches` (made from `options`, in order) and has them take turns, each
/// `Options::share` quarters of a turn at a time (`Options::late_share` once the
/// searches set aside then have expanded their `Options::late_after` positions
/// together), until one finds a plan or all end; adds the time each took to `spent`,
/// before and after the late point.
fn take_turns(
    searches: &mut [Searcher],
    options: &[Options],
    limits: &Limits,
    stats: &mut QuickStats,
    spent: &mut [[Duration; 2]],
) -> Found {
    let set_aside_late: Vec<usize> = (0..options.len())
        .filter(|&k| options[k].late_share == Some(0))
        .collect();
    let late = set_aside_late
        .iter()
        .map(|&k| options[k].late_after)
        .max()
        .unwrap_or(0);
    let mut ended: Vec<Option<String>> = vec![None; searches.len()];
    for (k, search) in searches.iter_mut().enumerate() {
        match search.start() {
            // The forward start is the same for every option: when it settles the
            // level, so it does for all.
            Some(found) if matches!(search, Searcher::Forward(_)) => return found,
            Some(Ok(plan)) => {
                stats.found_by = options[k].name();
                return Ok(plan);
            }
            // The reverse search cannot run (boxes and goals differ in number).
            Some(Err(reason)) => ended[k] = Some(reason),
            None => {}
        }
    }
    // Whether the late shares hold: once the searches set aside then have done their
    // work or all ended, or when the searches with a share early have all ended and one
    // waits for its late share. It never turns back.
    let mut is_late = false;
    loop {
        is_late = is_late
            || !set_aside_late.is_empty()
                && (set_aside_late.iter().all(|&k| ended[k].is_some())
                    || set_aside_late
                        .iter()
                        .map(|&k| searches[k].expanded())
                        .sum::<usize>()
                        >= late);
        // A search whose share is 0 is set aside: it keeps its positions but takes no
        // more turns (until its late share, if it has one).
        let set_aside = |k: usize| options[k].share_when(is_late) == 0;
        for (k, search) in searches.iter_mut().enumerate() {
            if ended[k].is_some() || set_aside(k) {
                continue;
            }
            let share = options[k].share_when(is_late);
            let turn_began = Instant::now();
            let turn = search.turn(limits, share);
            spent[k][usize::from(is_late)] += turn_began.elapsed();
            match turn {
                Some(Ok(plan)) => {
                    stats.found_by = options[k].name();
                    return Ok(plan);
                }
                // A limit ends every search, not only this one.
                Some(Err(reason)) if limits.expired() => return Err(reason),
                Some(Err(reason)) => ended[k] = Some(reason),
                None => {}
            }
        }
        if (0..ended.len()).all(|k| ended[k].is_some() || set_aside(k)) {
            let waits = |k: usize| ended[k].is_none() && options[k].share_when(true) > 0;
            if !is_late && (0..ended.len()).any(waits) {
                is_late = true;
                continue;
            }
            let mut reasons: Vec<String> = ended.into_iter().flatten().collect();
            reasons.dedup();
            if reasons.is_empty() {
                reasons.push("every search was set aside".to_string());
            }
            return Err(reasons.join("; "));
        }
    }
}

impl Search<'_> {
    /// What this search did so far, for reports.
    fn stats_now(&self) -> QuickStats {
        QuickStats {
            stored: self.store.len(),
            expanded: self.expanded,
            cells: self.cells.len(),
            box_path_states: self.paths.looked,
            ..self.stats
        }
    }
}

impl ReverseSearch<'_> {
    /// What this search did so far, in the forward searches' counters.
    fn stats_now(&self) -> QuickStats {
        QuickStats {
            stored: self.stored(),
            expanded: self.stats.expanded,
            ..QuickStats::default()
        }
    }
}

impl QuickStats {
    /// Adds `other`'s counts to these (the most packed and the cells: the larger).
    pub fn add(&mut self, other: &QuickStats) {
        self.stored += other.stored;
        self.expanded += other.expanded;
        self.cells = self.cells.max(other.cells);
        self.most_packed = self.most_packed.max(other.most_packed);
        self.frozen += other.frozen;
        self.unmatched += other.unmatched;
        self.above += other.above;
        self.again += other.again;
        self.dead_corrals += other.dead_corrals;
        self.corral_cuts += other.corral_cuts;
        self.rescued += other.rescued;
        self.advised += other.advised;
        self.cleared += other.cleared;
        self.unadvised += other.unadvised;
        self.box_path_states += other.box_path_states;
        if !other.found_by.is_empty() {
            self.found_by = other.found_by;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Budget;
    use crate::sokoban::parse::{parse_levels, LevelFormat};
    use std::time::Duration;

    /// Level `n` of the level file at `path`.
    fn level_of(path: &str, n: usize) -> Level {
        let text = std::fs::read_to_string(path).unwrap();
        parse_levels(&text, LevelFormat::Auto, Some(n))
            .unwrap()
            .remove(0)
            .level
    }

    /// XSokoban 23, which no quick search plans within seconds.
    fn xsokoban_23() -> Level {
        level_of("examples/sokoban/levels/xsokoban.xsb", 23)
    }

    /// The searches `options` make on `level` take turns for at most `seconds`, those
    /// set aside late after `late` expansions: what they found, the time each took
    /// before and after that point, and their counts.
    fn turns_on(
        level: &Level,
        options: &[Options],
        seconds: u64,
        late: usize,
    ) -> (Found, Spent, QuickStats) {
        let limits = Limits {
            budget: Budget::starting_now(Some(Duration::from_secs(seconds))),
            ..Limits::default()
        };
        let options: Vec<Options> = options
            .iter()
            .map(|&o| Options {
                late_after: late,
                ..o
            })
            .collect();
        let (found, stats, spent) = search_timed(level, &limits, &options);
        (found, spent, stats)
    }

    #[test]
    fn the_quick_threads_searches_take_time_in_proportion_to_their_shares() {
        // XSokoban 23, which none of them plans: for five seconds they take turns, the
        // plain and clearing searches expanding 10,000 positions before the late point
        // (`LATE` outside this test), and each takes time in proportion to its share in
        // each part: within one turn of its own (the time limit ends one mid-turn) and a
        // quarter, for the other threads of the tests running beside it. A search whose
        // share was ignored would take 1/5 of a part, not 2/11 or 4/11 or 3/22 of the
        // first; the plain search, set aside in the second, would take 3/14 of it with
        // its late share ignored, not none.
        let options = quick_thread(Options::default());
        assert_eq!(options.map(|o| o.share), [4, 4, 8, 3, 3]);
        let late_shares = options.map(|o| o.share_when(true));
        assert_eq!(late_shares, [0, 0, 8, 3, 3]);
        let (found, spent, _) = turns_on(&xsokoban_23(), &options, 5, 10_000);
        assert_eq!(found, Err("time limit".to_string()));
        for (part, shares) in [options.map(|o| o.share), late_shares].iter().enumerate() {
            let total: Duration = spent.iter().map(|s| s[part]).sum();
            assert!(
                total >= Duration::from_millis(500),
                "part {part}: {spent:?}"
            );
            let all: usize = shares.iter().sum();
            for (k, &share) in shares.iter().enumerate() {
                let expected = total.mul_f64(share as f64 / all as f64);
                let off = spent[k][part].abs_diff(expected);
                assert!(
                    off <= QUARTER_TURN * share as u32 + expected / 4,
                    "part {part}, search {k}: {spent:?}"
                );
            }
        }
    }

    #[test]
    fn the_late_point_is_the_set_aside_searches_work() {
        // With no work asked of them the late shares hold from the first turn: the
        // plain and clearing searches never run. With more than they can do in a
        // second, every search keeps its early share to the end.
        let options = quick_thread(Options::default());
        let (_, spent, _) = turns_on(&xsokoban_23(), &options, 1, 0);
        assert!(spent.iter().all(|s| s[0].is_zero()), "{spent:?}");
        assert!(spent[..2].iter().all(|s| s[1].is_zero()), "{spent:?}");
        assert!(spent[2..].iter().all(|s| !s[1].is_zero()), "{spent:?}");
        let (_, spent, _) = turns_on(&xsokoban_23(), &options, 1, usize::MAX);
        assert!(spent.iter().all(|s| s[1].is_zero()), "{spent:?}");
        assert!(spent.iter().all(|s| !s[0].is_zero()), "{spent:?}");
    }

    #[test]
    fn a_search_waiting_for_its_late_share_runs_once_the_others_have_ended() {
        // The portfolio's weighted search has no share before the late point (never,
        // here). Alone, or once the searches with a share have ended, it must not wait
        // for it nor end unrun: the late shares hold at once, and it plans.
        let level = level_of("examples/sokoban/microban-1-10.xsb", 2);
        let [.., weighted] = portfolio_thread(Options::default());
        assert_eq!((weighted.share, weighted.share_when(true)), (0, 16));
        let (found, _, stats) = turns_on(&level, &[weighted], 10, usize::MAX);
        assert!(found.is_ok(), "{found:?}");
        assert_eq!(stats.found_by, weighted.name());
    }

    #[test]
    fn searches_all_set_aside_end_the_turns() {
        // Every search's late share is 0 and the turns are late from the start: the
        // loop must end (not spin) and say why.
        let options = with_and_without_clearing(Options {
            late_share: Some(0),
            ..Options::default()
        });
        let (found, spent, _) = turns_on(&xsokoban_23(), &options, 10, 0);
        assert_eq!(found, Err("every search was set aside".to_string()));
        assert_eq!(spent, [[Duration::ZERO; 2]; 2]);
    }
}
