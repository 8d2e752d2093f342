//! Full Board: parse map files, solve with SAT, replay every game with an independent
//! simulator, and print the course's exact text or JSON.

pub mod cli;
pub mod parse;
pub mod render;
pub mod simulate;
pub mod solve;
