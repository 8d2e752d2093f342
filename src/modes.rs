//! The modern interface's modes and options, shared by the puzzle commands that have one
//! (Star Battle and Battleship), so that they read, parse and check the same way.

use anyhow::Context;
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::cnf::Cnf;
use std::io::Write;
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

    /// True when the CNF itself is asked for (`--dimacs` or `--stats`).
    pub fn wants_cnf(&self) -> bool {
        self.dimacs.is_some() || self.stats
    }

    /// Writes the CNF to the `--dimacs` file and its size per rule to standard error
    /// (`--stats`), as asked.
    pub fn write_cnf_outputs(&self, cnf: &Cnf) -> anyhow::Result<()> {
        if let Some(path) = &self.dimacs {
            let file = std::fs::File::create(path)
                .with_context(|| format!("{}: cannot create", path.display()))?;
            let mut w = std::io::BufWriter::new(file);
            cnf.write_dimacs(&mut w)?;
            w.flush()?;
        }
        if self.stats {
            eprintln!(
                "CNF ({}): {} variables ({} primary), {} clauses, {} literals",
                self.card,
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
                    g.clauses.len(),
                    g.vars.len()
                );
            }
        }
        Ok(())
    }
}
