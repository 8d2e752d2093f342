//! The reverse search: from the solved position back to the start, by pulls.
//!
//! A pull moves a box one square towards the player, who steps back; a plan read
//! backwards is a sequence of pulls from boxes on the goals to the boxes where they
//! start, and each pull is a push the other way. Searching that way turns the hard
//! part of many levels around: a goal room is filled in an order that must not wall a
//! goal in, but it is emptied in any order, since a box next to a wall is pulled off
//! it as easily as along it. The start area, where the reverse search must place the
//! boxes, is usually open. The search is greedy best-first: the least matching bound
//! of boxes to the squares where boxes start (pulls a lone box needs), plus a weight
//! for each stranded box (`Options::stranded`: off the start squares, and the player
//! can pull it from no side), then (`Options::starts_first`) the fewest boxes off the
//! start squares, then the fewest pulls so far, then the newest. The
//! bound alone pulls boxes to start squares at the goal room's door early, shutting
//! the player out of the room with boxes still inside; the search then spends its time
//! on the boxes outside, whose rearrangements keep the bound (XSokoban 29: its least
//! bound fell by one every 275,637 expansions, then every 1,027,244).
//!
//! A child is one pull, or with `Options::box_moves` every move of one box by pulls
//! (`boxpath`, as the forward box moves): alone that plans XSokoban 14 in 0.6 s and 31
//! in 36 s, but 16 and 29 in no 60 s, so `--quick` does not run it.

use super::boxpath::{BoxPaths, Player, Way};
use super::origins::Origins;
use super::{Found, Options};
use crate::sokoban::search::flood::{Flood, Pulled};
use crate::sokoban::search::positions::{pack, pack_moved, squares, PositionTable};
use crate::sokoban::search::saved::{renumbering, SavedMatchings};
use crate::sokoban::Limits;
use gridsat_encodings::sokoban::analysis::UNREACHABLE;
use gridsat_encodings::sokoban::matching::{Matcher, FORBIDDEN};
use gridsat_encodings::sokoban::{Dir, Level, Push};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::{Duration, Instant};

/// What the reverse search did, for reports.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct ReverseStats {
    pub stored: usize,
    pub expanded: usize,
}

/// `pulls[s][c]`: pulls a lone box on `c` needs to reach the start square of box `s`,
/// which are the pushes from that square to `c`.
fn pull_distances(level: &Level) -> Vec<Vec<u32>> {
    let n = level.num_cells();
    level
        .boxes()
        .iter()
        .map(|&s| {
            let mut dist = vec![UNREACHABLE; n];
            dist[s] = 0;
            let mut queue = VecDeque::from([s]);
            while let Some(c) = queue.pop_front() {
                for dir in Dir::ALL {
                    let Some((_, to)) = level.push_squares(c, dir) else {
                        continue;
                    };
                    if dist[to] == UNREACHABLE {
                        dist[to] = dist[c] + 1;
                        queue.push_back(to);
                    }
                }
            }
            dist
        })
        .collect()
}

/// The reverse search and everything it keeps between turns (`turns`).
pub(super) struct ReverseSearch<'a> {
    level: &'a Level,
    /// Only plans with fewer pushes than this (`Options::below`).
    below: Option<u32>,
    /// Whether a position's children are every move of one box by pulls to any square
    /// (`Options::box_moves`) instead of single pulls.
    box_moves: bool,
    /// How many pulls of the bound a stranded box weighs in the order
    /// (`Options::stranded`; 0: none).
    stranded_weight: u32,
    /// Whether positions of the same order go first by the fewest boxes off the start
    /// squares (`Options::starts_first`).
    starts_first: bool,
    start_square: Vec<bool>,
    paths: BoxPaths,
    /// The moves of the expanded position: box number, pulls, and the smallest square
    /// of the player's region after them when the box's search knew it.
    moves: Vec<(usize, Vec<Push>, Option<usize>)>,
    /// With `box_moves`, the pulls that reached each position, each as the push that
    /// undoes it.
    origins: Origins,
    pulls: Vec<Vec<u32>>,
    /// Squares from which no pulls bring a box to any start square.
    dead: Vec<bool>,
    /// The expanded position's matching; each child's is repaired from it in the
    /// pulled box's row (`Matcher::resolve_row`, as A*'s heuristic does).
    matcher: Matcher,
    child_matcher: Matcher,
    saved: SavedMatchings,
    renumbered: Matcher,
    /// The boxes of the last expanded position, whose matching `matcher` holds: in a
    /// long plateau of the bound the search expands positions whose parents were
    /// expanded long before (their matchings no longer kept), but near the last one.
    last_boxes: Vec<usize>,
    map: Vec<usize>,
    moved: Vec<usize>,
    costs: Vec<Vec<u32>>,
    spare_row: Vec<u32>,
    /// The start's boxes, packed: the position the search is after.
    target: Vec<u64>,
    store: PositionTable,
    g_of: Vec<u32>,
    closed: Vec<bool>,
    /// Least `key`, then the newest.
    open: BinaryHeap<Reverse<(u64, u32, u32)>>,
    flood: Flood,
    /// The player's region after a pull.
    child_flood: Flood,
    occupied: Vec<bool>,
    boxes: Vec<usize>,
    packed: Vec<u64>,
    pub(super) stats: ReverseStats,
}

/// The bound weighs this much more than a pull: the search is greedy, the pulls only
/// break ties.
const GREEDY: u64 = 1000;

/// More than the boxes of any level: the boxes off the start squares weigh less in the
/// order than one pull of the bound.
const BOXES: u64 = 1 << 16;

/// Most boxes the last expanded position may differ in for its matching to be
/// repaired rather than a new one solved (one augmenting path per box that moved
/// against one per box).
const LAST_EXPANDED_MOVED: usize = 3;

impl<'a> ReverseSearch<'a> {
    /// The search `options` ask for (`below`, `box_moves`, `stranded`; the others are
    /// the forward searches').
    pub(super) fn new(level: &'a Level, options: &Options) -> ReverseSearch<'a> {
        let n = level.num_cells();
        let pulls = pull_distances(level);
        let k = pulls.len();
        let dead = (0..n)
            .map(|c| pulls.iter().all(|d| d[c] == UNREACHABLE))
            .collect();
        ReverseSearch {
            level,
            below: options.below,
            box_moves: options.box_moves,
            stranded_weight: options.stranded,
            starts_first: options.starts_first,
            start_square: (0..n).map(|c| level.boxes().contains(&c)).collect(),
            paths: BoxPaths::new(n),
            moves: Vec::new(),
            origins: Origins::default(),
            pulls,
            dead,
            matcher: Matcher::default(),
            child_matcher: Matcher::default(),
            saved: SavedMatchings::default(),
            renumbered: Matcher::default(),
            last_boxes: Vec::new(),
            map: Vec::new(),
            moved: Vec::new(),
            costs: vec![vec![0; k]; k],
            spare_row: vec![0; k],
            target: Vec::new(),
            store: PositionTable::new(n.div_ceil(64)),
            g_of: Vec::new(),
            closed: Vec::new(),
            open: BinaryHeap::new(),
            flood: Flood::new(n),
            child_flood: Flood::new(n),
            occupied: vec![false; n],
            boxes: Vec::new(),
            packed: Vec::new(),
            stats: ReverseStats::default(),
        }
    }

    pub(super) fn stored(&self) -> usize {
        self.store.len()
    }

    /// The cost matrix of the lone boxes on `boxes`: pulls to each start square.
    fn fill_costs(&mut self, boxes: &[usize]) {
        for (row, &b) in self.costs.iter_mut().zip(boxes) {
            for (cost, dist) in row.iter_mut().zip(&self.pulls) {
                *cost = dist[b];
            }
        }
    }

    /// The least pulls that bring the lone boxes on `boxes` to distinct start squares;
    /// the matching is kept for `child_bound`.
    fn bound(&mut self, boxes: &[usize]) -> Option<u32> {
        self.fill_costs(boxes);
        self.matcher
            .solve_with_forbidden_cost(&self.costs, i64::from(FORBIDDEN))
    }

    /// `bound` for the sorted `boxes` of the position numbered `i`, repaired from its
    /// parent's matching when that is kept (`SavedMatchings`), else from the last
    /// expanded position's when few boxes differ, and kept in turn.
    fn expanded_bound(&mut self, i: usize, boxes: &[usize]) -> Option<u32> {
        let k = self.store.parent_of(i).and_then(|p| {
            self.saved
                .renumbered(p, boxes, boxes.len(), &mut self.renumbered)
        });
        let bound = match k {
            Some(k) => {
                self.fill_costs(boxes);
                self.renumbered
                    .resolve_row(&self.costs, k, &mut self.matcher)
            }
            None if renumbering(
                &self.last_boxes,
                boxes,
                boxes.len(),
                LAST_EXPANDED_MOVED,
                &mut self.map,
                &mut self.moved,
            ) =>
            {
                self.fill_costs(boxes);
                self.matcher
                    .permute_rows_into(&self.map, &mut self.renumbered);
                self.renumbered
                    .resolve_rows(&self.costs, &self.moved, &mut self.matcher)
            }
            None => self.bound(boxes),
        };
        debug_assert_eq!(bound, Matcher::default().solve(&self.costs));
        self.last_boxes.clear();
        if bound.is_some() {
            self.saved.save(i, boxes, &self.matcher);
            self.last_boxes.extend_from_slice(boxes);
        }
        bound
    }

    /// `bound` of the boxes of the last `bound` with box number `k` on `to` instead.
    fn child_bound(&mut self, k: usize, to: usize) -> Option<u32> {
        self.spare_row.clone_from(&self.costs[k]);
        for (cost, dist) in self.costs[k].iter_mut().zip(&self.pulls) {
            *cost = dist[to];
        }
        let bound = self
            .matcher
            .resolve_row(&self.costs, k, &mut self.child_matcher);
        std::mem::swap(&mut self.costs[k], &mut self.spare_row);
        bound
    }

    /// Stores the solved positions (boxes on the goals, the player in any region of
    /// free squares: each is a possible end of a plan); `Some` when that settles it.
    pub(super) fn start(&mut self) -> Option<Found> {
        let level = self.level;
        if level.boxes().len() != level.goals().len() {
            return Some(Err("the reverse search needs as many boxes as goals".into()));
        }
        let n = level.num_cells();
        for &b in level.boxes() {
            self.occupied[b] = true;
        }
        pack(&self.occupied, &mut self.target);
        self.occupied.iter_mut().for_each(|o| *o = false);
        let mut goals = level.goals().to_vec();
        goals.sort_unstable();
        for &g in &goals {
            self.occupied[g] = true;
        }
        let Some(h0) = self.bound(&goals) else {
            return Some(Err("no box on a goal can be pulled to a start".into()));
        };
        pack(&self.occupied, &mut self.packed);
        let mut seen = vec![false; n];
        for c in 0..n {
            if self.occupied[c] || seen[c] {
                continue;
            }
            let smallest = self.flood.fill(level, &self.occupied, c);
            for (x, s) in seen.iter_mut().enumerate() {
                *s |= self.flood.reached(x);
            }
            if self.packed == self.target && self.flood.reached(level.player()) {
                return Some(Ok(Vec::new()));
            }
            let (i, _) = self.store.find_or_insert(&self.packed, smallest as u16);
            if self.box_moves {
                self.origins.set(i, &[]);
            }
            self.g_of.push(0);
            self.closed.push(false);
            let key = self.key(h0, 0);
            self.open
                .push(Reverse((key, u32::MAX - i as u32, i as u32)));
        }
        None
    }

    /// Expands positions until the turn ends at `until`; `Some` when the search ends:
    /// a plan, a limit, or no positions left.
    pub(super) fn turn(&mut self, limits: &Limits, until: Instant) -> Option<Found> {
        while Instant::now() < until {
            let Some(Reverse((_, _, i))) = self.open.pop() else {
                return Some(Err("the reverse search ran out of positions".into()));
            };
            let i = i as usize;
            if self.closed[i] {
                continue;
            }
            if self.stats.expanded.is_multiple_of(64) && limits.expired() {
                return Some(Err("time limit".into()));
            }
            if self.store.len() > limits.max_states {
                return Some(Err(format!("size limit ({} positions)", limits.max_states)));
            }
            if let Some(plan) = self.expand(i) {
                return Some(Ok(plan));
            }
        }
        None
    }

    /// Expands position `i`; the plan when a child is the level's start.
    fn expand(&mut self, i: usize) -> Option<Vec<Push>> {
        let level = self.level;
        self.closed[i] = true;
        self.stats.expanded += 1;
        self.store.unpack(i, &mut self.occupied, &mut self.boxes);
        self.flood
            .fill(level, &self.occupied, usize::from(self.store.player_of(i)));
        let g = self.g_of[i];
        let boxes = std::mem::take(&mut self.boxes);
        let mut plan = None;
        // Stored with a finite bound, so this has one.
        if self.expanded_bound(i, &boxes).is_none() {
            self.boxes = boxes;
            return None;
        }
        if self.box_moves {
            let mut moves = std::mem::take(&mut self.moves);
            moves.clear();
            for (k, &b) in boxes.iter().enumerate() {
                let (level, dead) = (self.level, &self.dead);
                self.paths.every_move(
                    level,
                    dead,
                    Way::Pull,
                    &mut self.occupied,
                    b,
                    Player::In(&self.flood),
                    usize::MAX,
                    |pulls, region| moves.push((k, pulls.to_vec(), region)),
                );
            }
            for (k, pulls, region) in &moves {
                if let Some(found) = self.moved(i, g, *k, (pulls, *region)) {
                    plan = Some(found);
                    break;
                }
            }
            self.moves = moves;
            self.boxes = boxes;
            return plan;
        }
        'pulls: for (k, &b) in boxes.iter().enumerate() {
            for dir in Dir::ALL {
                // The player stands on `to`, next to the box, and steps back to `back`.
                let Some(to) = level.neighbour(b, dir) else {
                    continue;
                };
                let Some(back) = level.neighbour(to, dir) else {
                    continue;
                };
                if self.occupied[to] || self.occupied[back] || !self.flood.reached(to) {
                    continue;
                }
                let pull = Push {
                    from: to,
                    dir: dir.opposite(),
                };
                if let Some(found) = self.moved(i, g, k, (&[pull], None)) {
                    plan = Some(found);
                    break 'pulls;
                }
            }
        }
        self.boxes = boxes;
        plan
    }

    /// The child of position `i` (`g` pulls from a solved position) after `pulls` of
    /// its box number `k`, each the push that undoes it, and the smallest square of the
    /// player's region after them when known; the plan when it is the level's start.
    /// `self.occupied` is left as it was.
    fn moved(
        &mut self,
        i: usize,
        g: u32,
        k: usize,
        (pulls, region): (&[Push], Option<usize>),
    ) -> Option<Vec<Push>> {
        let level = self.level;
        let first = pulls[0];
        let last = *pulls.last().expect("a move has pulls");
        let b = level.neighbour(first.from, first.dir).expect("pulled");
        let to = last.from;
        self.occupied[b] = false;
        self.occupied[to] = true;
        let plan = self.child(i, g + pulls.len() as u32, k, (b, to), (pulls, region));
        self.occupied[to] = false;
        self.occupied[b] = true;
        plan
    }

    /// Position `j` is reached from `i` by `pulls`. The position table keeps one pull
    /// per position, all a single pull needs; the pulls of box moves are kept in
    /// `origins` (24 bytes more per position, which single pulls do without).
    fn set_origin(&mut self, j: usize, i: usize, pulls: &[Push]) {
        self.store
            .set_origin(j, i, *pulls.last().expect("a move has pulls"));
        if self.box_moves {
            self.origins.set(j, pulls);
        }
    }

    /// Stores the child after `pulls` (`self.occupied` already moved) of box number
    /// `k` from `b` to `to`, `g` pulls from a solved position, `region` the smallest
    /// square of the player's region after them when known; the plan when it is the
    /// level's start. The child is looked up before its bound is repaired: a position
    /// found again by no shorter way needs none (most children are).
    fn child(
        &mut self,
        i: usize,
        g: u32,
        k: usize,
        (b, to): (usize, usize),
        (pulls, region): (&[Push], Option<usize>),
    ) -> Option<Vec<Push>> {
        let level = self.level;
        let last = *pulls.last().expect("a move has pulls");
        // The player stepped back from `to` away from the box.
        let back = level.neighbour(to, last.dir.opposite()).expect("pulled");
        pack_moved(self.store.key(i).0, (b, to), &mut self.packed);
        debug_assert_eq!(self.packed, {
            let mut p = Vec::new();
            pack(&self.occupied, &mut p);
            p
        });
        self.store.prefetch(&self.packed);
        // The player's region: its name known, or told from the parent's when it can be
        // (one pull), else filled into `child_flood`; a known name leaves the fill to
        // the few children that need the region's squares (`unfilled`).
        let parent = usize::from(self.store.player_of(i));
        let mut unfilled = region.is_some();
        let (smallest, told) = match (region, pulls.len()) {
            (Some(smallest), _) => {
                debug_assert_eq!(smallest, self.child_flood.fill(level, &self.occupied, back));
                (smallest, None)
            }
            (None, 1) => {
                let (level, occupied) = (self.level, &self.occupied);
                let pulled = self.flood.after_pull(
                    &mut self.child_flood,
                    level,
                    occupied,
                    (b, to),
                    back,
                    parent,
                );
                match pulled {
                    Ok(pulled) => {
                        // (`child_flood` holds no region after a told pull.)
                        debug_assert_eq!(
                            pulled.smallest,
                            self.child_flood.fill(level, &self.occupied, back)
                        );
                        (pulled.smallest, Some(pulled))
                    }
                    Err(smallest) => (smallest, None),
                }
            }
            (None, _) => (self.child_flood.fill(level, &self.occupied, back), None),
        };
        let known = self.store.find(&self.packed, smallest as u16);
        if known.is_some_and(|j| g >= self.g_of[j]) {
            return None;
        }
        let h = self.child_bound(k, to)?;
        // A plan through this child has g pulls after the start, h at least before.
        if self.below.is_some_and(|b| g + h >= b) {
            return None;
        }
        match known {
            Some(j) => {
                // A shorter way: kept (a parent's pulls stay below its child's, so the
                // origins form no cycle).
                self.g_of[j] = g;
                self.set_origin(j, i, pulls);
            }
            None => {
                let (j, _) = self.store.find_or_insert(&self.packed, smallest as u16);
                self.g_of.push(g);
                self.closed.push(false);
                let mut order = h;
                if self.stranded_weight > 0 {
                    if unfilled {
                        self.child_flood.fill(level, &self.occupied, back);
                        unfilled = false;
                    }
                    order +=
                        self.stranded_weight * self.stranded(|c| self.in_region(told, (b, to), c));
                }
                let key = self.key(order, g);
                self.open
                    .push(Reverse((key, u32::MAX - j as u32, j as u32)));
                self.set_origin(j, i, pulls);
            }
        }
        if self.packed == self.target && unfilled {
            self.child_flood.fill(level, &self.occupied, back);
        }
        if self.packed == self.target && self.in_region(told, (b, to), level.player()) {
            // The pulls from a solved position to the start, read backwards.
            let j = self
                .store
                .find(&self.packed, smallest as u16)
                .expect("just stored");
            let mut plan = match self.box_moves {
                true => self.origins.plan_to(&self.store, j),
                false => self.store.plan_to(j),
            };
            plan.reverse();
            return Some(plan);
        }
        None
    }
}

impl ReverseSearch<'_> {
    /// The place in the order of the position with the boxes `self.packed`, `order`
    /// (its bound and stranded boxes' weight) and `g` pulls: least order, then (with
    /// `starts_first`) the fewest boxes off the start squares, then the fewest pulls.
    fn key(&self, order: u32, g: u32) -> u64 {
        let off_starts = match self.starts_first {
            false => 0,
            true => self
                .packed
                .iter()
                .zip(&self.target)
                .map(|(&boxes, &starts)| u64::from((boxes & !starts).count_ones()))
                .sum(),
        };
        (u64::from(order) * BOXES + off_starts) * GREEDY + u64::from(g)
    }

    /// Whether the child's player region holds `c`: told from the parent's region
    /// (`self.flood`) by `told` after the pull of the box from `b` to `to`, else filled
    /// into `self.child_flood`.
    fn in_region(&self, told: Option<Pulled>, (b, to): (usize, usize), c: usize) -> bool {
        match told {
            Some(pulled) => pulled.reached(&self.flood, (b, to), c),
            None => self.child_flood.reached(c),
        }
    }

    /// The boxes of the child (`self.occupied` and `self.packed`, the player's region
    /// told by `reached`) off the start squares that the player cannot pull now: on no
    /// side of them does it reach a square with room to step back.
    fn stranded(&self, reached: impl Fn(usize) -> bool) -> u32 {
        let level = self.level;
        let mut count = 0;
        for c in squares(&self.packed) {
            if self.start_square[c] {
                continue;
            }
            let pullable = Dir::ALL.into_iter().any(|dir| {
                let Some(to) = level.neighbour(c, dir) else {
                    return false;
                };
                let Some(back) = level.neighbour(to, dir) else {
                    return false;
                };
                reached(to) && !self.occupied[back]
            });
            count += u32::from(!pullable);
        }
        count
    }
}

/// Searches `level` backwards for any plan; see the module comment.
pub fn search(level: &Level, limits: &Limits, options: &Options) -> (Found, ReverseStats) {
    let mut search = ReverseSearch::new(level, options);
    let found = match search.start() {
        Some(found) => found,
        None => loop {
            // Alone, its turns only say when to look at the limits again.
            if let Some(found) = search.turn(limits, Instant::now() + Duration::from_secs(1)) {
                break found;
            }
        },
    };
    search.stats.stored = search.store.len();
    (found, search.stats)
}
