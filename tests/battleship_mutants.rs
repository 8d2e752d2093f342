//! The Battleship grammar against seeded mutants of the course's puzzle files (in
//! examples/battleship/): never a panic, and every refusal names the file and a line
//! inside it. A sample also goes through the binary, whose exit status must be one of
//! the documented ones.

mod common;
use common::mutate::{binary_survives, survives};
use common::{read, root};
use gridsat::input::{decode_text, InputError};
use std::path::Path;

fn corpus() -> Vec<String> {
    [
        "puzzle_sample",
        "puzzle_sample_constraints",
        "puzzle_sample_unknowns",
        "puzzle4_unknowns",
        "puzzle9_constraints",
        "puzzle10",
    ]
    .iter()
    .map(|name| read(&root().join(format!("examples/battleship/{name}.txt"))))
    .collect()
}

#[test]
fn the_grammar_meets_every_mutant_with_an_answer_or_a_located_error() {
    let name = Path::new("puzzle.txt");
    let (accepted, refused) = survives("puzzle.txt", &corpus(), 1000, 0xb5_2018, |bytes| {
        let text = decode_text(name, bytes)?;
        gridsat::battleship::parse::parse_puzzle(&text).map_err(|e| InputError::new(name, e))
    });
    assert!(
        accepted > 100 && refused > 1000,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn the_binary_answers_mutants_with_a_documented_exit_status() {
    binary_survives(&corpus(), 40, 1018, |path| {
        ["battleship", path, "--unique", "--timeout", "2"]
            .map(String::from)
            .to_vec()
    });
}
