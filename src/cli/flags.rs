//! The flag groups, each defined once. A command flattens the groups that apply to it;
//! a flag means the same on every command that has it.

use crate::limits::{parse_timeout, Budget};
use crate::solver::backend::{self, Backend};
use anyhow::Context;
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::cnf::Cnf;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How answers are printed, or (`url`, `course`, `grid`) the puzzle itself instead of
/// an answer.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people (and, where a course program defined it, its exact text).
    #[default]
    Text,
    /// One JSON document, for programs.
    Json,
    /// An SVG picture of what the text shows.
    Svg,
    /// The puzzle as a puzz.link URL (Star Battle, Battleship), not solved.
    Url,
    /// The puzzle in the course program's file format, not solved.
    Course,
    /// The puzzle as a letter grid (Star Battle), not solved.
    Grid,
}

impl Format {
    /// The formats that print the puzzle rather than an answer.
    pub fn is_puzzle(self) -> bool {
        matches!(self, Format::Url | Format::Course | Format::Grid)
    }

    /// Refuses a format `command` does not write.
    pub fn require(self, command: &str, supported: &[Format]) -> anyhow::Result<()> {
        if supported.contains(&self) {
            return Ok(());
        }
        let names: Vec<String> = supported
            .iter()
            .map(|f| format!("{f:?}").to_lowercase())
            .collect();
        anyhow::bail!(
            "{command} writes --format {}, not {}",
            names.join(", "),
            format!("{self:?}").to_lowercase()
        )
    }
}

/// What to answer about a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One solution.
    One,
    /// Every solution, or the first `limit`.
    All { limit: Option<u64> },
    /// The number of solutions; with a limit, counted up to it.
    Count { limit: Option<u64> },
    /// None, one, or several (with two witnesses and where they differ).
    Unique,
    /// The cells that are the same in every solution.
    Determined,
    /// Uniqueness, and how to fix a puzzle that is not unique (or why it has no solution).
    Repair,
}

/// `--all`, `--count`, `--unique`, `--determined` and `--limit`.
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "Answer")]
pub struct ModeArgs {
    /// List every solution (or the first --limit ones).
    #[arg(long, group = "mode")]
    pub all: bool,

    /// Print the number of solutions.
    #[arg(long, group = "mode")]
    pub count: bool,

    /// Say whether the solution is unique; when it is not, show two solutions and the
    /// cells where they differ. Exit status 0 only when it is.
    #[arg(long, group = "mode")]
    pub unique: bool,

    /// Show the cells that are the same in every solution, '?' where solutions differ.
    #[arg(long, group = "mode")]
    pub determined: bool,

    /// Say whether the solution is unique; when it is not, propose the smallest changes
    /// that make it so (each checked by counting again); when there is no solution, say
    /// which rules conflict.
    #[arg(long, group = "mode")]
    pub repair: bool,

    /// With --all or --count: stop after N solutions (the count is then "at least N").
    #[arg(long, value_name = "N", value_parser = crate::cli::numbers::positive_u64)]
    pub limit: Option<u64>,
}

impl ModeArgs {
    /// True when a mode flag or --limit was given.
    pub fn any(&self) -> bool {
        self.all
            || self.count
            || self.unique
            || self.determined
            || self.repair
            || self.limit.is_some()
    }

    /// The mode asked for; `default` when no mode flag is given (one solution for most
    /// puzzles; every minimum game for Full Board, whose course program lists them
    /// all). `--limit` bounds a listing or a count, nothing else.
    pub fn mode(&self, default: Mode) -> anyhow::Result<Mode> {
        let limit = self.limit;
        let mode = if self.all {
            Mode::All { limit }
        } else if self.count {
            Mode::Count { limit }
        } else if self.unique {
            Mode::Unique
        } else if self.determined {
            Mode::Determined
        } else if self.repair {
            Mode::Repair
        } else {
            match default {
                Mode::All { .. } => Mode::All { limit },
                Mode::Count { .. } => Mode::Count { limit },
                other => other,
            }
        };
        if limit.is_some() && !matches!(mode, Mode::All { .. } | Mode::Count { .. }) {
            anyhow::bail!("--limit goes with --all or --count");
        }
        Ok(mode)
    }
}

/// `--format` and `--stats`.
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Solver statistics on standard error: the CNF's size per rule, and each solver
    /// call or search phase with its answer and time.
    #[arg(long, aliases = ["verbose", "trace"])]
    pub stats: bool,
}

/// `--timeout`.
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Give up on a puzzle (each level or map of a file) after SECONDS, print what was
    /// proven so far ("at least N solutions", "no plan with fewer than N pushes") and
    /// exit with status 4.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
}

impl LimitArgs {
    /// A budget that starts now: call it when the work on one puzzle begins.
    pub fn budget(&self) -> Budget {
        Budget::starting_now(self.timeout)
    }
}

/// `--dimacs`.
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "CNF")]
pub struct CnfArgs {
    /// Also write the CNF in DIMACS form, with a `c p show` line naming the puzzle's own
    /// variables (for projected model counters), to FILE. For a file of several maps or
    /// levels, a `{}` in FILE is replaced by each one's number; without it, only the
    /// first is written.
    #[arg(long, value_name = "FILE")]
    pub dimacs: Option<PathBuf>,
}

impl CnfArgs {
    /// Writes `cnf` as item number `item` (1-based, its number in the file) of the
    /// `items` being answered to the --dimacs file, if one was asked for and this item is
    /// to be written (see the flag's help; the one item answered is always written).
    pub fn write(&self, cnf: &Cnf, item: usize, items: usize) -> anyhow::Result<()> {
        let Some(path) = self.path_for(item, items) else {
            return Ok(());
        };
        write_dimacs(cnf, &path)
    }

    /// Where item `item` of `items` goes, if anywhere.
    pub fn path_for(&self, item: usize, items: usize) -> Option<PathBuf> {
        let path = self.dimacs.as_ref()?;
        let text = path.to_string_lossy();
        if text.contains("{}") {
            return Some(PathBuf::from(text.replace("{}", &item.to_string())));
        }
        if item == 1 && items > 1 {
            eprintln!(
                "gridsat: {}: the CNF of item 1 of {items} only; put {{}} in the file name \
                 to write every one",
                path.display()
            );
        }
        (item == 1 || items == 1).then(|| path.clone())
    }
}

/// Writes `cnf` in DIMACS form to `path`.
pub fn write_dimacs(cnf: &Cnf, path: &Path) -> anyhow::Result<()> {
    let file = std::fs::File::create(path)
        .with_context(|| format!("{}: cannot create the DIMACS file", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    cnf.write_dimacs(&mut out)
        .and_then(|()| out.flush())
        .with_context(|| format!("{}: cannot write the DIMACS file", path.display()))
}

/// `--stats` for a formula: its size, and per rule (clause group) its clauses and
/// auxiliary variables, on standard error.
pub fn print_cnf_size(what: &str, cnf: &Cnf) {
    eprintln!(
        "CNF ({what}): {} variables ({} primary), {} clauses, {} literals",
        cnf.num_vars(),
        cnf.projection().len(),
        cnf.num_clauses(),
        cnf.num_literals()
    );
    let width = cnf.groups().iter().map(|g| g.name.len()).max().unwrap_or(0);
    for g in cnf.groups() {
        eprintln!(
            "  {:<width$} {:>8} clauses {:>8} auxiliary variables",
            g.name,
            g.num_clauses(),
            g.num_vars()
        );
    }
}

/// `--solver`.
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "Solver")]
pub struct SolverArgs {
    /// SAT solver: varisat (pure Rust, always built) or cadical (CaDiCaL, in a build
    /// with `--features cadical`). The answers are the same; only the time differs.
    #[arg(long, value_name = "SOLVER", default_value = "varisat")]
    pub solver: Backend,
}

impl SolverArgs {
    /// Makes the chosen solver the one every SAT call of this command uses: call it
    /// before any solving.
    pub fn choose(&self) {
        backend::choose(self.solver);
    }
}

/// `--card`.
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "CNF")]
pub struct CardArgs {
    /// Cardinality encoding of the counting rules: pairwise, sequential, totalizer or
    /// sorting-network [default: sequential; Full Board's move counter: totalizer].
    #[arg(long, value_name = "ENCODING")]
    pub card: Option<CardEncoding>,
}

impl CardArgs {
    pub fn or(&self, default: CardEncoding) -> CardEncoding {
        self.card.unwrap_or(default)
    }
}

/// `--horizon`, for the puzzles whose answer is a plan (Full Board, Sokoban).
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "CNF")]
pub struct HorizonArgs {
    /// With --dimacs: write the formula for plans of K moves (Full Board) or pushes
    /// (Sokoban) [default: the proven minimum].
    #[arg(long, value_name = "K", requires = "dimacs", value_parser = crate::cli::numbers::count)]
    pub horizon: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modes(all: bool, count: bool, limit: Option<u64>) -> ModeArgs {
        ModeArgs {
            all,
            count,
            limit,
            ..ModeArgs::default()
        }
    }

    #[test]
    fn limit_bounds_listings_and_counts_only() {
        assert_eq!(
            modes(false, false, None).mode(Mode::One).unwrap(),
            Mode::One
        );
        assert!(modes(false, false, Some(3)).mode(Mode::One).is_err());
        assert_eq!(
            modes(false, false, Some(3))
                .mode(Mode::All { limit: None })
                .unwrap(),
            Mode::All { limit: Some(3) }
        );
        assert_eq!(
            modes(false, true, Some(3)).mode(Mode::One).unwrap(),
            Mode::Count { limit: Some(3) }
        );
    }

    #[test]
    fn several_items_need_a_placeholder_to_be_written_each() {
        let args = CnfArgs {
            dimacs: Some(PathBuf::from("out-{}.cnf")),
        };
        assert_eq!(args.path_for(3, 5), Some(PathBuf::from("out-3.cnf")));
        let args = CnfArgs {
            dimacs: Some(PathBuf::from("out.cnf")),
        };
        assert_eq!(args.path_for(1, 1), Some(PathBuf::from("out.cnf")));
        assert_eq!(args.path_for(2, 5), None);
        // One item answered (say `--level 4`): written whatever its number.
        assert_eq!(args.path_for(4, 1), Some(PathBuf::from("out.cnf")));
    }
}
