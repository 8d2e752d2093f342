//! gridsat: read a grid puzzle, compile it to CNF, solve it, verify and print solutions.

pub mod answer;
pub mod batch;
pub mod battleship;
pub mod bench;
pub mod cli;
pub mod count_cnf;
pub mod dimacs;
pub mod error;
pub mod full_board;
pub mod generate;
pub mod input;
pub mod limits;
pub mod priority;
pub mod progress;
pub mod serve;
pub mod sokoban;
pub mod solver;
pub mod star_battle;
