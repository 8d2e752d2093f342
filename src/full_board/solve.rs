//! Deciding a map: cheap sound refutations first, then the SAT encodings: the minimum
//! number of moves with a proof that one fewer is impossible, then every game of that
//! length by blocking clauses. Every game is replayed by the simulator before it is
//! returned.

use super::simulate::{replay, Trace};
use crate::solver::{Session, SolverError};
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::cnf::Cnf;
use gridsat_encodings::full_board::bounded::{games_beyond, games_from, Bounded, SearchReport};
use gridsat_encodings::full_board::lines::LineCover;
use gridsat_encodings::full_board::segments::Segments;
use gridsat_encodings::full_board::successor::Successor;
use gridsat_encodings::full_board::window::Window;
use gridsat_encodings::full_board::{Board, Cell, CellIndex, Dir, Encoding, Plan};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// A sound argument, cheaper than search, that no game wins. A winning game visits every
/// open cell once moving between neighbours: a Hamiltonian path of the open cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    NoOpenCell,
    /// The open cells fall apart into this many groups; a path cannot join them.
    Disconnected(usize),
    /// More open cells than two have a single open neighbour; a path has two ends.
    DeadEnds(usize),
    /// A path alternates between the two checkerboard colours, so their counts differ
    /// by at most one.
    Colours {
        light: usize,
        dark: usize,
    },
    /// No set of row and column segments covers the open cells while obeying the stop
    /// rule at segment ends (see `lines`) within the `n - 1` moves a game can have.
    NoLineCover,
    /// The window relaxation (see `window`) shows that every game begins or ends within
    /// the window around each of these obstacles, and no two cells lie in all of them.
    Windows(Vec<Cell>),
}

impl std::fmt::Display for Refutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refutation::NoOpenCell => write!(f, "the map has no open cell"),
            Refutation::Disconnected(parts) => {
                write!(f, "the open cells form {parts} disconnected regions")
            }
            Refutation::DeadEnds(count) => {
                write!(f, "{count} open cells are dead ends; a game can pass at most two")
            }
            Refutation::Colours { light, dark } => write!(
                f,
                "checkerboard colours: {light} light and {dark} dark open cells differ by more than one"
            ),
            Refutation::Windows(centres) => {
                let listed: Vec<String> = centres
                    .iter()
                    .map(|c| format!("({}, {})", c.row, c.col))
                    .collect();
                write!(
                    f,
                    "every game begins or ends within {WINDOW_RADIUS} cells of each of the \
                     obstacles at {} (window relaxation), and no two cells are that close to \
                     all of them",
                    listed.join(", ")
                )
            }
            Refutation::NoLineCover => write!(
                f,
                "no choice of row and column segments covers the open cells with a stop at \
                 every segment end"
            ),
        }
    }
}

/// Why a map has no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    Refuted(Refutation),
    /// The bounded search (see `bounded`) found no game, with no branch cut by its move
    /// limit, or with the limit at `n - 1` moves, the most a game can have.
    Search,
    /// The solver proved it: `detail` says which formula was unsatisfiable.
    Solver {
        encoding: Encoding,
        detail: String,
    },
}

impl std::fmt::Display for Proof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Proof::Refuted(r) => write!(f, "{r}"),
            Proof::Search => write!(
                f,
                "an exhaustive search over games, pruned by dead ends, connectivity and row \
                 and column runs, finds none"
            ),
            Proof::Solver { encoding, detail } => {
                write!(f, "SAT solver ({} encoding): {detail}", encoding.name())
            }
        }
    }
}

/// A game the solver found and the simulator replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub plan: Plan,
    pub trace: Trace,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    NoSolution(Proof),
    Solved {
        /// The proven minimum number of moves.
        moves: usize,
        games: Vec<Game>,
        /// False when `limit` stopped the enumeration before every game was found.
        all_found: bool,
    },
}

#[derive(Copy, Clone, Debug)]
pub struct Options {
    pub encoding: Encoding,
    /// Stop after this many minimum games.
    pub limit: Option<u64>,
    /// The move counter of the successor encoding.
    pub card: CardEncoding,
    /// Report each solver call's answer and time on standard error.
    pub verbose: bool,
    /// While the segments search runs, let a second thread ask the horizon-free
    /// successor encoding whether any game exists at all (see `segments_with_refutation`).
    pub parallel_refutation: bool,
    /// Tie the segments encoding's moves to a line cover with the stop rule (see
    /// `Segments::tie_to_cover`); off only to measure what the tie buys.
    pub cover_tie: bool,
    /// Raise the line-cover bound with the bounded exhaustive search (see
    /// `bounded_search`) before the SAT encodings run; off only to measure it.
    pub bounded_search: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            encoding: Encoding::Segments,
            limit: None,
            card: CardEncoding::Totalizer,
            verbose: false,
            cover_tie: true,
            parallel_refutation: true,
            bounded_search: true,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error("internal error: the solver returned a game the rules reject ({0}); nothing printed")]
    Rejected(String),
    /// The map is not decided: a limit was reached before any proof.
    #[error("undecided: {0}")]
    Undecided(String),
}

/// The segments encoding grows by one layer of `n` cells per move; about 3 KB of solver
/// memory per cell and move. This many cell-layers (about 1.2 GB) is where it stops.
pub const MAX_CELL_LAYERS: usize = 400_000;

/// The cheap arguments, in order of cost; `None` when none applies.
pub fn refute(board: &Board) -> Option<Refutation> {
    let index = CellIndex::new(board);
    let n = index.len();
    if n == 0 {
        return Some(Refutation::NoOpenCell);
    }
    let mut region = vec![usize::MAX; n];
    let mut regions = 0;
    for seed in 0..n {
        if region[seed] != usize::MAX {
            continue;
        }
        let mut stack = vec![seed];
        region[seed] = regions;
        while let Some(i) = stack.pop() {
            for j in index.neighbour[i].iter().flatten() {
                if region[*j] == usize::MAX {
                    region[*j] = regions;
                    stack.push(*j);
                }
            }
        }
        regions += 1;
    }
    if regions > 1 {
        return Some(Refutation::Disconnected(regions));
    }
    let dead_ends = index
        .neighbour
        .iter()
        .filter(|nb| nb.iter().flatten().count() == 1)
        .count();
    if dead_ends > 2 {
        return Some(Refutation::DeadEnds(dead_ends));
    }
    let light = index
        .cells
        .iter()
        .filter(|c| (c.row + c.col) % 2 == 0)
        .count();
    let dark = n - light;
    if light.abs_diff(dark) > 1 {
        return Some(Refutation::Colours { light, dark });
    }
    None
}

/// How far the windows of `refute_by_windows` reach from their obstacle.
pub const WINDOW_RADIUS: usize = 2;

/// The window argument: for each obstacle cell next to an open cell, the window of
/// `WINDOW_RADIUS` cells around it (clipped to the board); the window relaxation (see
/// `window`) says whether every game must begin or end in it. A game has two ends, so
/// if no two cells meet every such window, no game wins. Windows with the same
/// surroundings give the same answer, so each pattern is solved once.
pub fn refute_by_windows(board: &Board) -> Result<Option<Refutation>, SolverError> {
    let r = WINDOW_RADIUS as isize;
    let status = |row: isize, col: isize| {
        row >= 0 && col >= 0 && board.is_open(Cell::new(row as usize, col as usize))
    };
    let mut known: HashMap<Vec<bool>, Option<Vec<(isize, isize)>>> = HashMap::new();
    let mut needing: Vec<(Cell, Vec<Cell>)> = Vec::new();
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let centre = Cell::new(row, col);
            let (cr, cc) = (row as isize, col as isize);
            if board.is_open(centre)
                || !Dir::ALL.iter().any(|d| {
                    let (dr, dc) = d.delta();
                    status(cr + dr, cc + dc)
                })
            {
                continue;
            }
            // The window and the ring around it decide the relaxation.
            let key: Vec<bool> = (-r - 1..=r + 1)
                .flat_map(|dr| (-r - 1..=r + 1).map(move |dc| (dr, dc)))
                .map(|(dr, dc)| status(cr + dr, cc + dc))
                .collect();
            let offsets = match known.get(&key) {
                Some(answer) => answer.clone(),
                None => {
                    let mut cnf = Cnf::new();
                    let window = Window::new(
                        &mut cnf,
                        board,
                        row.saturating_sub(WINDOW_RADIUS),
                        col.saturating_sub(WINDOW_RADIUS),
                        row + WINDOW_RADIUS,
                        col + WINDOW_RADIUS,
                    );
                    let needs = Session::new(&cnf)
                        .solve_under(&window.no_endpoint())?
                        .is_none();
                    let answer = needs.then(|| {
                        window
                            .cells()
                            .iter()
                            .map(|c| (c.row as isize - cr, c.col as isize - cc))
                            .collect::<Vec<_>>()
                    });
                    known.insert(key, answer.clone());
                    answer
                }
            };
            if let Some(offsets) = offsets {
                let cells = offsets
                    .iter()
                    .map(|&(dr, dc)| Cell::new((cr + dr) as usize, (cc + dc) as usize))
                    .collect();
                needing.push((centre, cells));
            }
        }
    }
    Ok((!two_cells_meet_all(&needing))
        .then(|| Refutation::Windows(needing.iter().map(|(centre, _)| *centre).collect())))
}

/// Whether at most two cells lie, between them, in every window.
fn two_cells_meet_all(windows: &[(Cell, Vec<Cell>)]) -> bool {
    let Some((_, first)) = windows.first() else {
        return true;
    };
    // One of the two cells lies in the first window.
    first.iter().any(|p| {
        let mut rest = windows.iter().filter(|(_, cells)| !cells.contains(p));
        let Some((_, common)) = rest.next() else {
            return true;
        };
        let mut common = common.clone();
        for (_, cells) in rest {
            common.retain(|c| cells.contains(c));
        }
        !common.is_empty()
    })
}

/// Decides `board`: the minimum and its games, or a proof that nothing wins.
pub fn solve(board: &Board, options: &Options) -> Result<Verdict, SolveError> {
    if let Some(refutation) = refute(board) {
        return Ok(Verdict::NoSolution(Proof::Refuted(refutation)));
    }
    if let Some(refutation) = refute_by_windows(board)? {
        return Ok(Verdict::NoSolution(Proof::Refuted(refutation)));
    }
    let Some(bound) = line_cover(board, true)? else {
        return Ok(Verdict::NoSolution(Proof::Refuted(Refutation::NoLineCover)));
    };
    if options.verbose {
        eprintln!("line cover: at least {bound} moves");
    }
    let bound = if options.bounded_search {
        match bounded_search(board, bound, options.verbose) {
            SearchBound::NoGame => return Ok(Verdict::NoSolution(Proof::Search)),
            SearchBound::AtLeast(k) => k,
            // The search proved the minimum and listed every game of that length.
            SearchBound::Minimum(moves, plans) => {
                let all_found = options.limit.is_none_or(|l| plans.len() as u64 <= l);
                let shown = options
                    .limit
                    .map_or(plans.len(), |l| plans.len().min(l as usize));
                return replayed(board, moves, plans.into_iter().take(shown), all_found);
            }
        }
    } else {
        bound
    };
    let (moves, plans, all_found) = match options.encoding {
        // The segments search starts at the plain cover's bound even when the stop rule
        // gives a higher one: the horizons in between are sound to ask about, and on
        // set-s16b's large map 2 refuting the lower horizon (183 s) taught the solver
        // enough to refute every later one at once, while starting one higher gave no
        // answer in 400 s. On the small maps starting higher would save about half.
        Encoding::Segments => match segments_with_refutation(board, options, bound)? {
            Ok(found) => found,
            Err(proof) => return Ok(Verdict::NoSolution(proof)),
        },
        Encoding::Successor => match by_successor(board, options, bound)? {
            Ok(found) => found,
            Err(proof) => return Ok(Verdict::NoSolution(proof)),
        },
    };
    replayed(board, moves, plans, all_found)
}

/// The verdict for `plans`, the games of the proven minimum `moves`, each replayed by the
/// simulator first (a game it rejects is an internal error).
fn replayed(
    board: &Board,
    moves: usize,
    plans: impl IntoIterator<Item = Plan>,
    all_found: bool,
) -> Result<Verdict, SolveError> {
    let mut games = Vec::new();
    for plan in plans {
        let trace = replay(board, &plan).map_err(|e| SolveError::Rejected(e.to_string()))?;
        if plan.moves.len() != moves {
            return Err(SolveError::Rejected(format!(
                "a game of {} moves among the {moves}-move minimum",
                plan.moves.len()
            )));
        }
        games.push(Game { plan, trace });
    }
    Ok(Verdict::Solved {
        moves,
        games,
        all_found,
    })
}

type Found = (usize, Vec<Plan>, bool);

/// Work the bounded search may spend per map, in nodes times board cells, before the SAT
/// encodings take over from the bound it proved. A unit costs about 10 to 20 ns of
/// processor time (a node makes a few passes over the unvisited part of the board), so
/// this is a few seconds on a 50 x 50 board; the 3-block large maps need 1.1e8 to 1.8e8,
/// set-2018 large map 1 about 4.4e8 (4.25e8 for at most 95 moves, then its frontier).
pub const SEARCH_BUDGET: u64 = 600_000_000;

/// The bounded search's start cells are split into this many interleaved parts, each
/// searched on its own thread with its share of the budget. A constant, not the number
/// of cores, so that whether a map is decided within budget does not depend on the
/// machine.
const SEARCH_PARTS: usize = 2;

/// `games_within` with the start cells split into `SEARCH_PARTS` parts searched in
/// parallel (the parts are independent; their reports are merged).
fn games_within_in_parallel(board: &Board, max_moves: usize, budget: u64) -> SearchReport {
    let open = board.open_cells();
    in_parallel(&open, budget, |starts, share| {
        games_from(board, starts, max_moves, share)
    })
}

/// `games_beyond` with the positions split like the start cells above.
fn games_beyond_in_parallel(
    board: &Board,
    positions: &[Plan],
    max_moves: usize,
    budget: u64,
) -> SearchReport {
    in_parallel(positions, budget, |part, share| {
        games_beyond(board, part, max_moves, share)
    })
}

/// Runs `search` on `SEARCH_PARTS` interleaved parts of `items`, each on its own thread
/// with its share of `budget`, and merges the reports.
fn in_parallel<T: Clone + Sync>(
    items: &[T],
    budget: u64,
    search: impl Fn(&[T], u64) -> SearchReport + Sync,
) -> SearchReport {
    let parts: Vec<Vec<T>> = (0..SEARCH_PARTS)
        .map(|part| {
            items
                .iter()
                .skip(part)
                .step_by(SEARCH_PARTS)
                .cloned()
                .collect()
        })
        .collect();
    let share = budget / SEARCH_PARTS as u64;
    let search = &search;
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .iter()
            .map(|part| scope.spawn(move || search(part, share)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .reduce(SearchReport::merge)
            .expect("at least one part")
    })
}

/// A search's outcome in the `--verbose` log.
fn describe(outcome: &Bounded) -> String {
    match outcome {
        Bounded::Complete(games) if games.is_empty() => "none".to_string(),
        Bounded::Complete(games) => format!("{} games", games.len()),
        Bounded::OverBudget => "over budget".to_string(),
    }
}

/// What the bounded search proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchBound {
    /// No game of fewer moves exists (the search ran out of budget here).
    AtLeast(usize),
    /// The minimum, with every game of that length (sorted).
    Minimum(usize, Vec<Plan>),
    /// No game at all.
    NoGame,
}

/// Raises the lower bound `from` (proven: no game has fewer moves) with the bounded
/// search (see `bounded`): asks for every game of at most `k` moves for `k = from + 1,
/// from + 2, ...` until one is found (then the shortest found is the minimum and the
/// list of games of that length is complete), a game would need more than `n - 1`
/// moves (no game at all), or the budget runs out. The first question covers two move
/// counts at once: on the tight maps the minimum is often one above the cover bound,
/// and asking for `from` alone first would search most of the tree twice.
pub fn bounded_search(board: &Board, from: usize, verbose: bool) -> SearchBound {
    let n = board.open_cells().len();
    let most = n.saturating_sub(1);
    let mut budget = SEARCH_BUDGET;
    let began = std::time::Instant::now();
    let mut k = (from + 1).min(most);
    let mut proven = from;
    let mut tried_beyond = false;
    loop {
        let report = games_within_in_parallel(board, k, budget);
        if verbose {
            eprintln!(
                "bounded search: at most {k} moves: {} ({} nodes, {:.3} s so far)",
                describe(&report.outcome),
                report.nodes,
                began.elapsed().as_secs_f64()
            );
        }
        match report.outcome {
            // An unfinished search proves nothing about `k`.
            Bounded::OverBudget => return SearchBound::AtLeast(proven),
            Bounded::Complete(games) if games.is_empty() => {
                if k >= most || !report.limit_mattered {
                    return SearchBound::NoGame;
                }
                budget = budget.saturating_sub(report.work);
                proven = k + 1;
                // Once: continue this search from the positions its move limit or run
                // test cut, with no limit but a game's n - 1 moves, on half of what is
                // left. Where those tests cut little (open rooms with isolated
                // obstacles, whose rows and columns are split into shorter runs) this
                // finishes almost at once and lists every game of any length.
                if let (false, Some(frontier)) = (tried_beyond, &report.frontier) {
                    tried_beyond = true;
                    let beyond = games_beyond_in_parallel(board, frontier, most, budget / 2);
                    if verbose {
                        eprintln!(
                            "bounded search: any length, from the {} positions cut: {} ({} nodes, {:.3} s so far)",
                            frontier.len(),
                            describe(&beyond.outcome),
                            beyond.nodes,
                            began.elapsed().as_secs_f64()
                        );
                    }
                    budget = budget.saturating_sub(beyond.work);
                    match beyond.outcome {
                        Bounded::OverBudget => {}
                        Bounded::Complete(games) if games.is_empty() => {
                            return SearchBound::NoGame;
                        }
                        Bounded::Complete(mut games) => {
                            let minimum =
                                games.iter().map(|g| g.moves.len()).min().expect("a game");
                            games.retain(|g| g.moves.len() == minimum);
                            return SearchBound::Minimum(minimum, games);
                        }
                    }
                }
                k += 1;
            }
            Bounded::Complete(mut games) => {
                let minimum = games.iter().map(|g| g.moves.len()).min().expect("a game");
                games.retain(|g| g.moves.len() == minimum);
                return SearchBound::Minimum(minimum, games);
            }
        }
    }
}

/// The fewest moves the line-cover argument (see `lines`) allows: a proven lower bound,
/// so the encodings need not refute smaller move counts one by one. When no cover
/// exists at all, no game wins and this is `n - 1` (the most moves a game can have).
pub fn line_cover_bound(board: &Board) -> Result<usize, SolverError> {
    let n = board.open_cells().len();
    Ok(line_cover(board, true)?.unwrap_or(n.saturating_sub(1)))
}

/// The line-cover bound, with or without the stop rule at segment ends; `None` when no
/// cover exists for any number of moves (then no game of one move or more wins, and a
/// map with two or more open cells has no solution).
pub fn line_cover(board: &Board, stop_rule: bool) -> Result<Option<usize>, SolverError> {
    let n = board.open_cells().len();
    if n <= 1 {
        return Ok(Some(0));
    }
    let mut cnf = Cnf::new();
    let cover = if stop_rule {
        LineCover::new(&mut cnf, board, CardEncoding::Totalizer)
    } else {
        LineCover::without_stop_rule(&mut cnf, board, CardEncoding::Totalizer)
    };
    let mut session = Session::new(&cnf);
    if session.solve()?.is_none() {
        return Ok(None);
    }
    for k in 1..n {
        let (more, fewer) = (k.div_ceil(2), k / 2);
        if session.solve_under(&cover.within(more, fewer))?.is_some()
            || session.solve_under(&cover.within(fewer, more))?.is_some()
        {
            return Ok(Some(k));
        }
    }
    // Each move visits a new cell, so a game has at most n - 1 moves: none fits.
    Ok(None)
}

fn collect(
    session: &mut Session,
    assumptions: &[gridsat_encodings::cnf::Lit],
    limit: Option<u64>,
    verbose: bool,
    mut decode: impl FnMut(&[bool]) -> Plan,
) -> Result<(Vec<Plan>, bool), SolverError> {
    let mut plans = Vec::new();
    let began = std::time::Instant::now();
    let found = session.enumerate_under(assumptions, limit, |values| {
        plans.push(decode(values));
        if verbose {
            eprintln!(
                "enumeration: game {} after {:.3} s",
                plans.len(),
                began.elapsed().as_secs_f64()
            );
        }
        ControlFlow::Continue(())
    })?;
    if verbose {
        eprintln!(
            "enumeration: {found} games in {:.3} s",
            began.elapsed().as_secs_f64()
        );
    }
    // Hitting the limit leaves it open whether more games exist; ask once more.
    let all_found = match limit {
        Some(l) if found >= l => session.solve_under(assumptions)?.is_none(),
        _ => true,
    };
    Ok((plans, all_found))
}

/// Helper threads of `segments_with_refutation` still running (a losing search cannot
/// be stopped inside a solver call, so it runs on until that call returns).
static BUSY_HELPERS: AtomicUsize = AtomicUsize::new(0);

/// Counts a helper thread as running until dropped.
struct Busy;

impl Busy {
    fn start() -> Busy {
        BUSY_HELPERS.fetch_add(1, Ordering::SeqCst);
        Busy
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY_HELPERS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Flags shared by the two searches of `segments_with_refutation`.
#[derive(Default)]
struct Signals {
    /// The map is decided: stop at the next solver call.
    cancel: AtomicBool,
    /// The segments search found a game (or finished): no refutation is needed.
    game_found: AtomicBool,
}

/// How long the refutation thread lets the segments search run alone.
const REFUTATION_DELAY: std::time::Duration = std::time::Duration::from_secs(3);

enum Finding {
    Segments(Result<Result<Found, Proof>, SolveError>),
    NoGameAtAll(Proof),
}

/// The segments search for the minimum and, in a second thread, the successor
/// encoding's horizon-free question "is there any game at all?". The segments search
/// is strong at finding games and refuting short ones, the successor encoding at
/// proving that nothing wins (set-s16b's large map 2: about 17 s, against minutes for
/// the segments encoding to refute every horizon). Whichever proves its answer first
/// decides the map; both are proofs, so the verdict is the same either way, only the
/// wording of a "No solution" proof may differ. The loser is told to stop at its next
/// solver call; a thread inside a call runs on until it returns, and while any helper
/// from an earlier map still runs, this map is searched by segments alone (so at most
/// one stray thread competes for the processor).
fn segments_with_refutation(
    board: &Board,
    options: &Options,
    bound: usize,
) -> Result<Result<Found, Proof>, SolveError> {
    let start = if options.cover_tie {
        // The tie states the line cover with the stop rule, so horizons below its bound
        // are already refuted by it.
        bound
    } else {
        // Untied, the search starts at the plain cover's bound: on set-s16b's large map
        // 2 refuting that horizon taught the solver enough to refute every later one at
        // once, while starting at the stop rule's bound gave no answer in 400 s.
        line_cover(board, false)?.map_or(bound, |plain| plain.min(bound))
    };
    let signals = Arc::new(Signals::default());
    if !options.parallel_refutation || BUSY_HELPERS.load(Ordering::SeqCst) > 0 {
        return by_segments(board, options, start, &signals);
    }
    let (tx, rx) = mpsc::channel();
    {
        let (board, options, signals, tx, busy) = (
            board.clone(),
            *options,
            signals.clone(),
            tx.clone(),
            Busy::start(),
        );
        std::thread::spawn(move || {
            let found = by_segments(&board, &options, start, &signals);
            signals.game_found.store(true, Ordering::SeqCst);
            drop(busy);
            let _ = tx.send(Finding::Segments(found));
        });
    }
    {
        let (board, options, signals, busy) =
            (board.clone(), *options, signals.clone(), Busy::start());
        std::thread::spawn(move || {
            // Most maps with a game are decided by the segments search within seconds;
            // wait that long before competing with it for the processor.
            let began = std::time::Instant::now();
            while began.elapsed() < REFUTATION_DELAY {
                if signals.game_found.load(Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            let refuted = any_game_by_successor(&board, &options);
            drop(busy);
            if let Ok(Some(proof)) = refuted {
                let _ = tx.send(Finding::NoGameAtAll(proof));
            }
        });
    }
    let mut undecided = None;
    loop {
        match rx.recv() {
            // The segments search gave up (its memory limit); the refutation may still
            // decide the map.
            Ok(Finding::Segments(Err(SolveError::Undecided(why)))) => undecided = Some(why),
            Ok(Finding::Segments(found)) => {
                signals.cancel.store(true, Ordering::SeqCst);
                return found;
            }
            Ok(Finding::NoGameAtAll(proof)) => {
                signals.cancel.store(true, Ordering::SeqCst);
                return Ok(Err(proof));
            }
            // Both threads are done and neither decided the map.
            Err(mpsc::RecvError) => {
                return Err(SolveError::Undecided(undecided.unwrap_or_else(|| {
                    "a search thread stopped without an answer".to_string()
                })))
            }
        }
    }
}

/// The successor encoding without a move bound: a proof that no game wins, if it is
/// unsatisfiable (`None` when a game exists).
fn any_game_by_successor(board: &Board, options: &Options) -> Result<Option<Proof>, SolveError> {
    let mut cnf = Cnf::new();
    let _successor = Successor::new(&mut cnf, board, options.card, 0);
    let mut session = Session::new(&cnf);
    let t = std::time::Instant::now();
    let result = session.solve()?;
    if options.verbose {
        eprintln!(
            "successor (parallel): any game: {} in {:.3} s",
            if result.is_some() { "yes" } else { "none" },
            t.elapsed().as_secs_f64()
        );
    }
    Ok(result.is_none().then(|| Proof::Solver {
        encoding: Encoding::Successor,
        detail: "no path through all open cells obeys the rolling rule".to_string(),
    }))
}

/// Grows the horizon K from the line-cover bound on one solver; K - 1 unsatisfiable (or
/// below the bound) and K satisfiable makes K the minimum. Each move visits a new cell,
/// so `n - 1` moves bound every game.
fn by_segments(
    board: &Board,
    options: &Options,
    bound: usize,
    signals: &Signals,
) -> Result<Result<Found, Proof>, SolveError> {
    let n = board.open_cells().len();
    let mut cnf = Cnf::new();
    let mut segments = Segments::new(&mut cnf, board);
    // The cover's clauses hold for games of at least one move: a one-cell board has
    // only the empty game.
    if options.cover_tie && n >= 2 {
        let cover = LineCover::new(&mut cnf, board, CardEncoding::Totalizer);
        segments.tie_to_cover(cover);
    }
    let mut session = Session::new(&cnf);
    for k in bound..n {
        if signals.cancel.load(Ordering::SeqCst) {
            return Err(SolveError::Undecided(
                "the segments search was stopped: another proof decided the map".to_string(),
            ));
        }
        if (k + 1) * n > MAX_CELL_LAYERS {
            let refuted = if k > bound {
                format!("no game of {bound} to {} moves; ", k - 1)
            } else {
                String::new()
            };
            return Err(SolveError::Undecided(format!(
                "{refuted}the segments encoding stops before {k} moves on {n} cells to stay \
                 within memory (try --encoding successor)"
            )));
        }
        while segments.horizon() < k {
            segments.add_move(&mut cnf);
        }
        session.sync(&cnf);
        if options.verbose {
            eprintln!(
                "segments: horizon {k}: {} variables, {} clauses",
                cnf.num_vars(),
                cnf.num_clauses()
            );
        }
        let complete = segments.complete_after(k);
        let t = std::time::Instant::now();
        let r = session.solve_under(&[complete])?;
        if options.verbose {
            eprintln!(
                "segments: {k} moves: {} in {:.3} s",
                if r.is_some() { "a game" } else { "impossible" },
                t.elapsed().as_secs_f64()
            );
        }
        if r.is_some() {
            signals.game_found.store(true, Ordering::SeqCst);
            let (plans, all_found) = collect(
                &mut session,
                &[complete],
                options.limit,
                options.verbose,
                |v| segments.decode(v, k),
            )?;
            return Ok(Ok((k, plans, all_found)));
        }
    }
    Ok(Err(Proof::Solver {
        encoding: Encoding::Segments,
        detail: format!(
            "no game of {bound} to {} moves visits all {n} open cells (a game has at most {} \
             moves; fewer than {bound} are ruled out by the line cover or the bounded search)",
            n - 1,
            n - 1
        ),
    }))
}

/// One horizon-free formula: unsatisfiable means no game at all; otherwise tighten the
/// move bound under assumptions until it fails.
fn by_successor(
    board: &Board,
    options: &Options,
    lower: usize,
) -> Result<Result<Found, Proof>, SolveError> {
    let n = board.open_cells().len();
    let mut cap = n.min(4 * (board.rows() + board.cols()));
    loop {
        let mut cnf = Cnf::new();
        let successor = Successor::new(&mut cnf, board, options.card, cap);
        let mut session = Session::new(&cnf);
        if options.verbose {
            eprintln!(
                "successor: {} variables, {} clauses (moves counted up to {cap})",
                cnf.num_vars(),
                cnf.num_clauses()
            );
        }
        let t = std::time::Instant::now();
        let first = session.solve()?;
        if options.verbose {
            eprintln!(
                "successor: any game: {} in {:.3} s",
                first.as_ref().map_or("none".to_string(), |v| format!(
                    "{} moves",
                    successor.decode(v).moves.len()
                )),
                t.elapsed().as_secs_f64()
            );
        }
        let Some(values) = first else {
            return Ok(Err(Proof::Solver {
                encoding: Encoding::Successor,
                detail: "no path through all open cells obeys the rolling rule".to_string(),
            }));
        };
        let mut best = successor.decode(&values).moves.len();
        if best >= cap && cap < n {
            // The counter cannot bound this many moves: count further.
            cap = n.min((best + 1) * 2);
            continue;
        }
        while best > lower {
            let bound = successor.at_most(best - 1).expect("best - 1 < cap");
            let t = std::time::Instant::now();
            let r = session.solve_under(&[bound])?;
            if options.verbose {
                eprintln!(
                    "successor: at most {} moves: {} in {:.3} s",
                    best - 1,
                    if r.is_some() { "a game" } else { "impossible" },
                    t.elapsed().as_secs_f64()
                );
            }
            match r {
                Some(values) => best = successor.decode(&values).moves.len(),
                None => break,
            }
        }
        let assumptions: Vec<_> = successor.at_most(best).into_iter().collect();
        let (plans, all_found) = collect(
            &mut session,
            &assumptions,
            options.limit,
            options.verbose,
            |v| successor.decode(v),
        )?;
        return Ok(Ok((best, plans, all_found)));
    }
}
