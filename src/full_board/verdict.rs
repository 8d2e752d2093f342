//! What deciding a map comes to: the minimum and its games, a proof that no game wins,
//! or (at a limit) what was proven before the work stopped.

use super::check::Trace;
use gridsat_encodings::full_board::{Cell, Encoding, Plan};

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
    /// `radius` cells of each of these obstacles (`centres`), and no two cells lie that
    /// close to all of them.
    Windows {
        radius: usize,
        centres: Vec<Cell>,
    },
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
            Refutation::Windows { radius, centres } => {
                let listed: Vec<String> = centres
                    .iter()
                    .map(|c| format!("({}, {})", c.row, c.col))
                    .collect();
                write!(
                    f,
                    "every game begins or ends within {radius} cells of each of the \
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

/// A game the solver found and the independent replay (`check`) accepted.
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
    /// A limit stopped the work before the map was decided.
    GaveUp(GaveUp),
}

/// What was proven about a map when a limit stopped the work on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GaveUp {
    /// The limit: "the time limit of 10 s", or the segments encoding's memory bound.
    pub reason: String,
    /// No game has fewer moves than this (0 when nothing was proven).
    pub at_least: usize,
    /// Which argument proved `at_least`.
    pub by: &'static str,
    /// The minimum, when it was proven before the enumeration of its games stopped.
    pub minimum: Option<usize>,
    /// Games of the minimum found before the stop, each replayed.
    pub games: Vec<Game>,
}

impl GaveUp {
    /// What was proven, in words: "no game has fewer than 94 moves (line cover)", or
    /// "the minimum is 35 moves; 1 of its games was found".
    pub fn proven(&self) -> String {
        match self.minimum {
            Some(moves) => format!(
                "the minimum is {moves} moves; {} of its games {} found before the stop",
                self.games.len(),
                if self.games.len() == 1 { "was" } else { "were" }
            ),
            None if self.at_least == 0 => "nothing was proven yet".to_string(),
            None => format!(
                "no game has fewer than {} moves ({})",
                self.at_least, self.by
            ),
        }
    }
}
