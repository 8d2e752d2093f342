//! The modern interface's modes and options, shared by the puzzle commands that have one
//! (Star Battle and Battleship), so that they read, parse and check the same way.

use gridsat_encodings::card::CardEncoding;
use std::path::PathBuf;

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// What to answer (one solution by default) and how.
#[derive(Debug, Clone, clap::Args)]
pub struct ModeArgs {
    /// List every solution (or the first --limit ones).
    #[arg(long, group = "mode")]
    pub all: bool,

    /// Print the number of solutions.
    #[arg(long, group = "mode")]
    pub count: bool,

    /// Say whether the solution is unique; when it is not, show two solutions and the
    /// cells where they differ.
    #[arg(long, group = "mode")]
    pub unique: bool,

    /// Show the cells that are the same in every solution, and '?' where solutions
    /// differ (the marks are below).
    #[arg(long, group = "mode")]
    pub determined: bool,

    /// With --all or --count: stop after N solutions.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Cardinality encoding of the line sums: pairwise, sequential, totalizer or
    /// sorting-network.
    #[arg(long, value_name = "ENCODING", default_value_t = CardEncoding::SequentialCounter)]
    pub card: CardEncoding,

    /// Also write the CNF in DIMACS form (with a `c p show` projection line over the
    /// cells) to FILE.
    #[arg(long, value_name = "FILE")]
    pub dimacs: Option<PathBuf>,

    /// Print the CNF's size (variables, clauses, per rule) on standard error.
    #[arg(long)]
    pub stats: bool,
}

impl Default for ModeArgs {
    fn default() -> ModeArgs {
        ModeArgs {
            all: false,
            count: false,
            unique: false,
            determined: false,
            limit: None,
            format: Format::Text,
            card: CardEncoding::default(),
            dimacs: None,
            stats: false,
        }
    }
}

impl ModeArgs {
    /// True when a mode other than the default (one solution) is asked for.
    pub fn any_mode(&self) -> bool {
        self.all || self.count || self.unique || self.determined
    }

    /// The usage rules both commands share: `--limit` only bounds a listing or a count.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.limit.is_some() && !(self.all || self.count) {
            anyhow::bail!("--limit goes with --all or --count");
        }
        Ok(())
    }
}
