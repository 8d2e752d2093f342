//! Star Battle: parse, verify, render, and the command line.

pub mod cli;
