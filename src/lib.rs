//! gridsat: read a grid puzzle, compile it to CNF, solve it, verify and print solutions.

pub mod input;
pub mod sokoban;
pub mod solver;
pub mod star_battle;
