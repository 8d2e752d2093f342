//! Several quick searches in one thread, taking turns.
//!
//! The advisors' options suit different levels: on XSokoban the clearing advisor plans
//! level 36, which the plain search does not, and on 40 packs 13 of 16 boxes where the
//! plain search packs 1; the plain search plans 11 and 45, which the clearing one
//! misses. Which one a level needs is not known before, so the searches take turns of
//! `Options::share` times `QUARTER_TURN` units of effort each (box-path states and
//! expansions, weighed as they take time: a clearing expansion costs about twice a
//! plain one), every one keeping its positions between turns. A level plans in about
//! the time its best option alone needs, divided by that option's part of the shares;
//! the first plan ends them all. With one option this is that search alone, expansion
//! for expansion.

use super::packing::PackingOrder;
use super::reverse::ReverseSearch;
use super::{Found, Options, QuickStats, Search};
use crate::sokoban::search::heuristic::MAX_CELLS;
use crate::sokoban::search::static_unsolvable;
use crate::sokoban::Limits;
use gridsat_encodings::sokoban::{Analysis, Level};

/// The effort (`Search::effort`) of a quarter of a search's turn, the unit of
/// `Options::share`: a full turn (four quarters) is about 60 ms, long enough that the
/// switching costs nothing, short enough that the searches stay within a fraction of a
/// second of each other.
const QUARTER_TURN: usize = 25_000;

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
/// goal (`Options::goal_by_goal`), and the reverse one. The plain and clearing searches
/// plan most levels they plan within seconds; the goal-by-goal clearing search takes a
/// double share and the reverse one a full share, since the levels only they plan take
/// them long alone (XSokoban 28 and 40: 17 and 28 s goal by goal, 14 and 16: 6 and 22 s
/// reverse), and with less (a full share and a quarter, on 2026-12-04) 14 and 28 were
/// not planned in 60 s.
pub fn quick_thread(options: Options) -> [Options; 4] {
    let [plain, clearing] = with_and_without_clearing(options);
    let goal_by_goal = Options {
        goal_by_goal: true,
        share: 8,
        ..clearing
    };
    let reverse = Options {
        reverse: true,
        share: 4,
        ..options
    };
    [plain, clearing, goal_by_goal, reverse]
}

/// The search of `--quick`'s second thread, which takes A*'s core when A* has not
/// proven anything and no plan is found by a quarter of the time (`anytime`): box moves
/// (FESS's macro moves, `Options::box_moves`) with the clearing advisor and the packing
/// order goal by goal (`Options::goal_by_goal`). On XSokoban it plans 24, 30 and 18
/// alone in 10, 7 and 35 s (by layers in 14 and 11 s, and 18 not in 30 s), which the quick
/// thread's searches do not plan in 60 s, and misses many levels those plan within a
/// second, so it runs beside them rather than in their turns.
pub fn second_thread(options: Options) -> [Options; 1] {
    [Options {
        box_moves: true,
        clearing: true,
        goal_by_goal: true,
        ..options
    }]
}

/// One of the searches taking turns.
enum Searcher<'a> {
    Forward(Box<Search<'a>>),
    Reverse(Box<ReverseSearch<'a>>),
}

impl Searcher<'_> {
    fn start(&mut self) -> Option<Found> {
        match self {
            Searcher::Forward(s) => s.start(),
            Searcher::Reverse(s) => s.start(),
        }
    }

    fn turn(&mut self, limits: &Limits, share: usize) -> Option<Found> {
        let effort = QUARTER_TURN * share;
        match self {
            Searcher::Forward(s) => s.turn(limits, effort),
            Searcher::Reverse(s) => s.turn(limits, effort),
        }
    }

    fn stats_now(&self) -> QuickStats {
        match self {
            Searcher::Forward(s) => s.stats_now(),
            Searcher::Reverse(s) => s.stats_now(),
        }
    }

    /// The work it did so far, in the unit of its turns.
    #[cfg(test)]
    fn effort(&self) -> usize {
        match self {
            Searcher::Forward(s) => s.effort(),
            Searcher::Reverse(s) => s.effort(),
        }
    }
}

/// Runs one quick search per entry of `options` in turns (see the module comment):
/// the first plan found, else why every search ended.
pub fn search(level: &Level, limits: &Limits, options: &[Options]) -> (Found, QuickStats) {
    assert!(!options.is_empty(), "a quick search needs its options");
    let mut stats = QuickStats::default();
    let n = level.num_cells();
    if n > MAX_CELLS {
        let reason = format!("the level has more than {MAX_CELLS} squares");
        return (Err(reason), stats);
    }
    let analysis = Analysis::new(level);
    if let Some(reason) = static_unsolvable(level, &analysis) {
        return (Err(reason), stats);
    }
    let orders = [PackingOrder::new(level), PackingOrder::goal_by_goal(level)];
    // The position limit holds for all of them together.
    let limits = Limits {
        max_states: limits.max_states / options.len(),
        ..limits.clone()
    };
    let mut searches = searchers(level, &analysis, &orders, options);
    let found = take_turns(&mut searches, options, &limits, &mut stats);
    for search in &searches {
        stats.add(&search.stats_now());
    }
    (found, stats)
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
            false => {
                let order = &orders[usize::from(o.goal_by_goal)];
                Searcher::Forward(Box::new(Search::new(level, analysis, order, o)))
            }
            true => Searcher::Reverse(Box::new(ReverseSearch::new(level, o.below))),
        })
        .collect()
}

/// Starts `searches` (made from `options`, in order) and has them take turns, each
/// `Options::share` quarters of a turn at a time, until one finds a plan or all end.
fn take_turns(
    searches: &mut [Searcher],
    options: &[Options],
    limits: &Limits,
    stats: &mut QuickStats,
) -> Found {
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
    loop {
        for (k, search) in searches.iter_mut().enumerate() {
            if ended[k].is_some() {
                continue;
            }
            match search.turn(limits, options[k].share) {
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
        if ended.iter().all(Option::is_some) {
            let mut reasons: Vec<String> = ended.into_iter().flatten().collect();
            reasons.dedup();
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

    #[test]
    fn the_quick_threads_searches_work_in_proportion_to_their_shares() {
        // XSokoban 23, which none of them plans: for four seconds they take turns, and
        // each does work in proportion to its share (4, 4, 8 and 4 quarters of a turn):
        // within one turn of its own (the time limit ends one mid-turn) and one
        // expansion's overshoot. The plain search takes at least three turns, so a
        // search whose share was ignored would be off by more.
        let text = std::fs::read_to_string("examples/sokoban/levels/xsokoban.xsb").unwrap();
        let level = parse_levels(&text, LevelFormat::Auto, Some(23))
            .unwrap()
            .remove(0)
            .level;
        let analysis = Analysis::new(&level);
        let orders = [
            PackingOrder::new(&level),
            PackingOrder::goal_by_goal(&level),
        ];
        let options = quick_thread(Options::default());
        assert_eq!(options.map(|o| o.share), [4, 4, 8, 4]);
        let mut searches = searchers(&level, &analysis, &orders, &options);
        let limits = Limits {
            budget: Budget::starting_now(Some(Duration::from_secs(4))),
            ..Limits::default()
        };
        let found = take_turns(&mut searches, &options, &limits, &mut QuickStats::default());
        assert_eq!(found, Err("time limit".to_string()));
        let effort: Vec<usize> = searches.iter().map(Searcher::effort).collect();
        assert!(effort[0] >= 3 * 4 * QUARTER_TURN, "{effort:?}");
        for (k, share) in options.iter().map(|o| o.share).enumerate() {
            let expected = effort[0] * share / 4;
            let off = effort[k].abs_diff(expected);
            assert!(
                off <= share * QUARTER_TURN + 50_000,
                "search {k}: {effort:?}"
            );
        }
    }
}
