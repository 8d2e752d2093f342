//! Generating Star Battle puzzles with exactly one solution: plant the stars (S in every
//! row and column, none touching), grow zones around them (S stars each, every zone one
//! piece), then, while a second solution exists, hand one of its stars' cells (never a
//! planted star) to a neighbouring zone, which the second solution cannot survive and the
//! planted one does not notice. Proven unique before it is returned.

use super::puzzle::StarBattle;
use crate::answer::BoardPuzzle;
use crate::generate::{prove_unique, Random};
use crate::solver::Session;
use gridsat_encodings::grid::Cell;
use gridsat_encodings::lit::Lit;
use gridsat_encodings::star_battle::{LineRule, Puzzle, Zone};
use gridsat_encodings::CardEncoding;
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The largest size generated (the zone labels: `url::LABELS`).
pub const MAX_SIZE: usize = 40;

/// What to generate.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Rows and columns of the square grid (N).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_SIZE as u64))]
    pub size: u64,
    /// Stars per zone, row and column (S).
    #[arg(long, short, value_name = "S", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub stars: u64,
    /// The seed of the first puzzle (the next ones take the following seeds)
    /// [default: from the clock, printed on standard error].
    #[arg(long, value_name = "K")]
    pub seed: Option<u64>,
    /// How many puzzles.
    #[arg(long, value_name = "M", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub count: u64,
    /// Output: grid (the letter grid, with S on its first line), course (the course's
    /// file format), url, or json.
    #[arg(long, value_enum, default_value_t = crate::cli::Format::Grid)]
    pub format: crate::cli::Format,
}

/// A unique puzzle of `size x size` cells with `stars` stars per zone, row and column
/// (rows and columns hold exactly `stars`), and its solution; the same for the same seed.
pub fn generate(size: usize, stars: usize, seed: u64) -> anyhow::Result<(StarBattle, Vec<bool>)> {
    // Two neighbouring rows hold 2S stars, no two in the same or neighbouring columns.
    let least = if stars == 1 { 4 } else { 4 * stars - 1 };
    if size > 1 && size < least || size == 1 && stars > 1 {
        anyhow::bail!(
            "{stars} stars in every row and column of {size} x {size} cannot avoid touching \
             (two neighbouring rows hold {} stars, none in the same or a neighbouring column); \
             use --size {least} or more",
            2 * stars
        );
    }
    let mut rng = Random::new(seed);
    for _attempt in 0..1000 {
        let Some(planted) = plant(size, stars, &mut rng)? else {
            continue;
        };
        let Some(zones) = grow_zones(size, stars, &planted, &mut rng) else {
            continue;
        };
        let puzzle = Puzzle {
            rows: size,
            cols: size,
            zones,
        };
        if let Some(unique) = make_unique(puzzle, stars, &planted, &mut rng)? {
            let unique = Arc::new(unique);
            prove_unique(unique.clone(), &planted)?;
            return Ok((Arc::try_unwrap(unique).expect("no other owner"), planted));
        }
    }
    anyhow::bail!(
        "no unique {size} x {size} puzzle with {stars} stars found from seed {seed} in 1000 \
         attempts; try another seed or size"
    )
}

/// S stars in every row and column, none touching: a random depth-first search, row
/// after row, that knows what the rows left can still hold (S stars in a column of L
/// rows need rows at least two apart: at most ceil(L/2), and a column that needs that
/// many in an odd number of rows must take a star in this one). `Ok(None)` when it runs
/// past its node budget, an error when it went through every arrangement.
fn plant(size: usize, stars: usize, rng: &mut Random) -> anyhow::Result<Option<Vec<bool>>> {
    struct Search<'r> {
        size: usize,
        stars: usize,
        star: Vec<bool>,
        need: Vec<usize>,
        nodes: usize,
        rng: &'r mut Random,
    }
    impl Search<'_> {
        fn row(&mut self, row: usize) -> Option<bool> {
            let size = self.size;
            if row == size {
                return Some(true);
            }
            self.nodes += 1;
            if self.nodes > 200_000 {
                return None;
            }
            let left = size - row;
            let most = left.div_ceil(2);
            if self.need.iter().any(|&n| n > most) {
                return Some(false);
            }
            let free = |c: usize, star: &[bool]| {
                row == 0
                    || (c.saturating_sub(1)..=(c + 1).min(size - 1))
                        .all(|d| !star[(row - 1) * size + d])
            };
            let forced: Vec<usize> = (0..size)
                .filter(|&c| left % 2 == 1 && self.need[c] == most)
                .collect();
            if forced.len() > self.stars
                || forced.iter().any(|&c| !free(c, &self.star))
                || forced.windows(2).any(|w| w[1] - w[0] < 2)
            {
                return Some(false);
            }
            let mut open: Vec<usize> = (0..size)
                .filter(|&c| {
                    self.need[c] > 0
                        && free(c, &self.star)
                        && forced.iter().all(|&f| f.abs_diff(c) > 1)
                })
                .collect();
            self.rng.shuffle(&mut open);
            let mut chosen = forced;
            self.choose(row, &open, 0, &mut chosen)
        }

        /// Adds columns from `open[from..]` to `chosen` until the row holds S stars,
        /// then goes on to the next row.
        fn choose(
            &mut self,
            row: usize,
            open: &[usize],
            from: usize,
            chosen: &mut Vec<usize>,
        ) -> Option<bool> {
            if chosen.len() == self.stars {
                for &c in chosen.iter() {
                    self.star[row * self.size + c] = true;
                    self.need[c] -= 1;
                }
                let found = self.row(row + 1);
                if found != Some(true) {
                    for &c in chosen.iter() {
                        self.star[row * self.size + c] = false;
                        self.need[c] += 1;
                    }
                }
                return found;
            }
            for k in from..open.len() {
                let c = open[k];
                if chosen.iter().any(|&d| d.abs_diff(c) < 2) {
                    continue;
                }
                chosen.push(c);
                let found = self.choose(row, open, k + 1, chosen);
                chosen.pop();
                if found != Some(false) {
                    return found;
                }
            }
            Some(false)
        }
    }
    let mut search = Search {
        size,
        stars,
        star: vec![false; size * size],
        need: vec![stars; size],
        nodes: 0,
        rng,
    };
    match search.row(0) {
        Some(true) => Ok(Some(search.star)),
        Some(false) => anyhow::bail!(
            "{stars} stars in every row and column of {size} x {size} cannot avoid touching \
             (every arrangement was tried); use a larger --size"
        ),
        None => Ok(None),
    }
}

/// `size` zones of `stars` planted stars each, every zone one piece, covering the grid:
/// stars grouped with their nearest ungrouped neighbours, joined by shortest paths, then
/// grown a random cell at a time. `None` when a group cannot be joined.
fn grow_zones(size: usize, stars: usize, planted: &[bool], rng: &mut Random) -> Option<Vec<Zone>> {
    let mut star_cells: Vec<usize> = (0..size * size).filter(|&i| planted[i]).collect();
    rng.shuffle(&mut star_cells);
    let distance =
        |a: usize, b: usize| (a / size).abs_diff(b / size) + (a % size).abs_diff(b % size);
    let mut zone_of: Vec<Option<usize>> = vec![None; size * size];
    let mut zones: Vec<Vec<usize>> = Vec::new();
    let mut free: Vec<usize> = star_cells.clone();
    while let Some(first) = free.pop() {
        free.sort_by_key(|&s| std::cmp::Reverse(distance(first, s)));
        let mut group = vec![first];
        for _ in 1..stars {
            group.push(free.pop()?);
        }
        let k = zones.len();
        for &s in &group {
            zone_of[s] = Some(k);
        }
        zones.push(group);
    }
    // Join each zone's stars by shortest paths through cells no zone holds yet.
    for (k, zone) in zones.iter_mut().enumerate() {
        let targets = zone.clone();
        for &target in &targets[1..] {
            let path = shortest_path(size, &zone_of, k, target)?;
            for cell in path {
                zone_of[cell] = Some(k);
                zone.push(cell);
            }
        }
    }
    // Grow: the smallest zone that can grow takes a random free neighbour, until no
    // cell is free. Zones of even size have fewer solutions than zones grown at random
    // (a huge zone next to tiny ones leaves its stars many places), so fewer repairs.
    loop {
        let mut frontier: Vec<(usize, usize)> = Vec::new();
        for i in 0..size * size {
            if zone_of[i].is_some() {
                continue;
            }
            for j in neighbours(size, i) {
                if let Some(k) = zone_of[j] {
                    frontier.push((i, k));
                }
            }
        }
        let Some(smallest) = frontier.iter().map(|&(_, k)| zones[k].len()).min() else {
            break;
        };
        frontier.retain(|&(_, k)| zones[k].len() == smallest);
        let (cell, k) = frontier[rng.below(frontier.len())];
        zone_of[cell] = Some(k);
        zones[k].push(cell);
    }
    let labels: Vec<char> = super::url::LABELS.chars().collect();
    Some(
        zones
            .into_iter()
            .enumerate()
            .map(|(k, mut cells)| {
                cells.sort();
                Zone {
                    label: labels[k],
                    cells: cells
                        .into_iter()
                        .map(|i| Cell::new(i / size, i % size))
                        .collect(),
                }
            })
            .collect(),
    )
}

fn neighbours(size: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / size, i % size);
    [
        (r > 0).then(|| i - size),
        (r + 1 < size).then(|| i + size),
        (c > 0).then(|| i - 1),
        (c + 1 < size).then(|| i + 1),
    ]
    .into_iter()
    .flatten()
}

/// A shortest path from zone `k`'s cells to `target` through free cells (the cells of
/// the path that are not in the zone yet, `target` excluded).
fn shortest_path(
    size: usize,
    zone_of: &[Option<usize>],
    k: usize,
    target: usize,
) -> Option<Vec<usize>> {
    let mut previous: Vec<Option<usize>> = vec![None; size * size];
    let mut seen = vec![false; size * size];
    let mut queue: VecDeque<usize> = (0..size * size)
        .filter(|&i| zone_of[i] == Some(k) && i != target)
        .collect();
    for &i in &queue {
        seen[i] = true;
    }
    while let Some(i) = queue.pop_front() {
        if i == target {
            let mut path = Vec::new();
            let mut at = previous[i];
            while let Some(p) = at {
                if zone_of[p] == Some(k) {
                    break;
                }
                path.push(p);
                at = previous[p];
            }
            return Some(path);
        }
        for j in neighbours(size, i) {
            if !seen[j] && (zone_of[j].is_none() || j == target) {
                seen[j] = true;
                previous[j] = Some(i);
                queue.push_back(j);
            }
        }
    }
    None
}

/// How many other solutions each step samples: enough to tell the cells that kill many
/// of them from those that kill a few.
const SAMPLE: u64 = 16;

/// Steps per row of the grid before the zones are given up for new ones.
const STEPS: usize = 8;

/// How many moves a step weighs before it takes the best of them.
const TRIES: usize = 6;

/// While other solutions exist, hands a cell where they have a star (and the planted
/// solution has none) to a neighbouring zone: every solution with a star there dies (its
/// old zone is a star short, the new one a star over), the planted one does not notice.
/// A move can also let new solutions in, so each move is weighed by the solutions it
/// leaves (counted exactly: the counting engine takes milliseconds here, and an exact
/// count keeps the result a function of the seed alone). The cells that kill the most
/// sampled solutions go first; the first move that leaves fewer solutions is taken,
/// else the best of `TRIES`. `None` when that does not converge.
fn make_unique(
    mut puzzle: Puzzle,
    stars: usize,
    planted: &[bool],
    rng: &mut Random,
) -> anyhow::Result<Option<StarBattle>> {
    let size = puzzle.rows;
    let mut others = sample_others(&puzzle, stars, planted, SAMPLE)?;
    // Steps since the fewest solutions so far: zones that stay stuck that long are
    // given up for new ones (the time to a unique puzzle has a long tail, which
    // starting again cuts off).
    let (mut fewest, mut stuck) = (others.len(), 0);
    for _step in 0..STEPS * size {
        if others.is_empty() {
            return Ok(Some(candidate(puzzle, stars)));
        }
        if others.len() < fewest {
            (fewest, stuck) = (others.len(), 0);
        } else if (others.len() as u64) < SAMPLE {
            stuck += 1;
            if stuck > size / 2 {
                break;
            }
        }
        let mut kills = vec![0usize; size * size];
        for other in &others {
            for (i, kill) in kills.iter_mut().enumerate() {
                *kill += usize::from(other[i] && !planted[i]);
            }
        }
        let mut cells: Vec<usize> = (0..size * size).filter(|&i| kills[i] > 0).collect();
        rng.shuffle(&mut cells);
        cells.sort_by_key(|&i| std::cmp::Reverse(kills[i]));
        // When the cells that kill cannot move (the planted stars of their zone would
        // end up apart), moves that kill nothing reshape the zones so that they can.
        let mut neutral: Vec<usize> = (0..size * size)
            .filter(|&i| kills[i] == 0 && !planted[i])
            .collect();
        rng.shuffle(&mut neutral);
        let mut best: Option<(Vec<Vec<bool>>, Puzzle)> = None;
        for next in cells
            .into_iter()
            .chain(neutral)
            .filter_map(|i| hand_over(&puzzle, i, planted, rng))
            .take(TRIES)
        {
            // Up to one more than now: enough to tell a move that helps.
            let cap = (others.len() as u64 + 1).min(SAMPLE);
            let left = sample_others(&next, stars, planted, cap)?;
            // A full sample says only "many": take the move the sample ranks first.
            let improves = left.len() < others.len() || others.len() as u64 == SAMPLE;
            if best
                .as_ref()
                .is_none_or(|(fewest, _)| left.len() < fewest.len())
            {
                best = Some((left, next));
            }
            if improves {
                break;
            }
        }
        match best {
            Some((left, next)) => (others, puzzle) = (left, next),
            None => return Ok(None),
        }
    }
    Ok(None)
}

fn candidate(puzzle: Puzzle, stars: usize) -> StarBattle {
    StarBattle::new(
        puzzle,
        stars,
        LineRule::Exact,
        CardEncoding::SequentialCounter,
    )
}

/// Up to `cap` solutions of `puzzle` other than the planted one, as cells.
fn sample_others(
    puzzle: &Puzzle,
    stars: usize,
    planted: &[bool],
    cap: u64,
) -> anyhow::Result<Vec<Vec<bool>>> {
    let candidate = candidate(puzzle.clone(), stars);
    let cnf = candidate.cnf();
    let mut session = Session::new(cnf);
    let not_planted: Vec<Lit> = cnf
        .projection()
        .iter()
        .zip(planted)
        .map(|(&v, &star)| Lit::new(v, !star))
        .collect();
    session.add_clause(&not_planted);
    let mut others = Vec::new();
    session.enumerate(Some(cap), |values| {
        others.push(crate::answer::board::cells_of(cnf, values));
        ControlFlow::Continue(())
    })?;
    Ok(others)
}

/// The puzzle with cell `i` handed to another zone, with what it takes to keep every
/// zone one piece: the shortest way from `i` to the zone's edge through cells without a
/// planted star goes along (a finger of the neighbour reaching in), and so do the parts
/// of the old zone that this cuts off, when they hold no planted star. `None` when the
/// planted stars of the old zone would end up apart.
fn hand_over(puzzle: &Puzzle, i: usize, planted: &[bool], rng: &mut Random) -> Option<Puzzle> {
    let size = puzzle.cols;
    let mut zone_of = vec![0; size * size];
    for (k, zone) in puzzle.zones.iter().enumerate() {
        for cell in &zone.cells {
            zone_of[cell.row * size + cell.col] = k;
        }
    }
    let from = zone_of[i];
    // Breadth-first from `i` through the zone's cells without a planted star, to the
    // first that touches another zone (neighbours in a random order: a random finger
    // among the shortest).
    let mut previous = vec![usize::MAX; size * size];
    previous[i] = i;
    let mut queue = VecDeque::from([i]);
    let mut reached = None;
    while let Some(at) = queue.pop_front() {
        let mut next: Vec<usize> = neighbours(size, at).collect();
        rng.shuffle(&mut next);
        if let Some(&other) = next.iter().find(|&&j| zone_of[j] != from) {
            reached = Some((at, zone_of[other]));
            break;
        }
        for j in next {
            if previous[j] == usize::MAX && !planted[j] {
                previous[j] = at;
                queue.push_back(j);
            }
        }
    }
    let (mut at, to) = reached?;
    let mut finger = vec![at];
    while at != i {
        at = previous[at];
        finger.push(at);
    }
    let mut moved = vec![false; size * size];
    for &cell in &finger {
        moved[cell] = true;
    }
    // What is left of the old zone: the piece with its planted stars stays, the rest
    // goes with the finger.
    let rest: Vec<usize> = puzzle.zones[from]
        .cells
        .iter()
        .map(|c| c.row * size + c.col)
        .filter(|&c| !moved[c])
        .collect();
    let pieces = pieces(size, &rest);
    let mut kept = pieces.iter().filter(|p| p.iter().any(|&c| planted[c]));
    let keep = kept.next()?;
    if kept.next().is_some() {
        return None;
    }
    let mut next = puzzle.clone();
    let cells = |ids: &mut dyn Iterator<Item = usize>| -> Vec<Cell> {
        let mut cells: Vec<Cell> = ids.map(|c| Cell::new(c / size, c % size)).collect();
        cells.sort();
        cells
    };
    next.zones[from].cells = cells(&mut keep.iter().copied());
    let mut gained: Vec<usize> = next.zones[to]
        .cells
        .iter()
        .map(|c| c.row * size + c.col)
        .chain(finger)
        .collect();
    gained.extend(pieces.iter().filter(|p| *p != keep).flatten());
    next.zones[to].cells = cells(&mut gained.into_iter());
    Some(next)
}

/// The connected pieces of a set of cells.
fn pieces(size: usize, cells: &[usize]) -> Vec<Vec<usize>> {
    let mut inside = vec![false; size * size];
    for &c in cells {
        inside[c] = true;
    }
    let mut pieces = Vec::new();
    for &start in cells {
        if !inside[start] {
            continue;
        }
        inside[start] = false;
        let mut piece = vec![start];
        let mut k = 0;
        while k < piece.len() {
            for j in neighbours(size, piece[k]) {
                if inside[j] {
                    inside[j] = false;
                    piece.push(j);
                }
            }
            k += 1;
        }
        pieces.push(piece);
    }
    pieces
}

/// `gridsat generate star-battle`.
pub fn run(args: &Args) -> anyhow::Result<crate::cli::Exit> {
    let first = args.seed.unwrap_or_else(crate::generate::clock_seed);
    let puzzles = (0..args.count)
        .map(|k| {
            let seed = first.wrapping_add(k);
            generate(args.size as usize, args.stars as usize, seed)
                .map(|(p, _)| (seed, Arc::new(p)))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    crate::generate::print(&puzzles, args.format, &mut std::io::stdout().lock())
}
