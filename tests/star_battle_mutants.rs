//! The Star Battle grammars against seeded mutants of real puzzle files (the course's
//! files and letter grids in examples/star-battle/): never a panic, and every refusal
//! names the file and a line inside it. A sample also goes through the binary, whose
//! exit status must be one of the documented ones.

mod common;
use common::mutate::{binary_survives, survives};
use common::{read, root};
use gridsat::input::decode_text;
use gridsat::input::InputError;
use std::path::Path;

fn corpus() -> Vec<String> {
    ["custom1", "custom2", "sporcle1", "twonot1", "queens8"]
        .iter()
        .map(|name| read(&root().join(format!("examples/star-battle/{name}.txt"))))
        .collect()
}

#[test]
fn the_grammars_meet_every_mutant_with_an_answer_or_a_located_error() {
    let name = Path::new("puzzle.txt");
    let (accepted, refused) = survives("puzzle.txt", &corpus(), 1000, 0x5eed_5bad, |bytes| {
        let text = decode_text(name, bytes)?;
        gridsat::star_battle::parse::parse(&text).map_err(|e| InputError::new(name, e))
    });
    // Both outcomes must occur, or the mutants test nothing.
    assert!(
        accepted > 100 && refused > 1000,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn the_binary_answers_mutants_with_a_documented_exit_status() {
    binary_survives(&corpus(), 40, 77, |path| {
        [
            "star-battle",
            path,
            "--stars",
            "1",
            "--unique",
            "--timeout",
            "2",
        ]
        .map(String::from)
        .to_vec()
    });
}
