//! `gridsat star-battle`: the seed's command line and the modern one.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Puzzle file.
    pub input: std::path::PathBuf,
}

pub fn run(_args: &Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not yet implemented")
}
