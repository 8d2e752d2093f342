//! Star Battle: parse, solve, verify, render, and the command line.

pub mod bench;
pub mod cli;
pub mod parse;
pub mod render;
pub mod solve;
pub mod verify;
