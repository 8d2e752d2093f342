//! The command line's shared surface: the flag groups every puzzle command flattens
//! (each flag defined once, with one meaning everywhere) and the exit status, chosen in
//! one place (`exit`).
//!
//! A puzzle command is its own `clap::Args` struct: its input, its own options (the
//! star count, the level number, the search method), and `#[command(flatten)]` of the
//! groups below that apply to it. `--help` then shows the same headings, in the same
//! order, on every command.

pub mod exit;
pub mod flags;
pub mod numbers;

pub use exit::Exit;
pub use flags::{
    CardArgs, CnfArgs, Format, HorizonArgs, LimitArgs, Mode, ModeArgs, OutputArgs, SolverArgs,
};
