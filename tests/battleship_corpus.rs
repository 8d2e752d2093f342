//! The solution counts of the spec's table, for every puzzle of the corpus (copied into
//! examples/battleship/ from shared/corpus/battleship/).

use gridsat::answer::{find, Answer};
use gridsat::battleship::parse::parse_puzzle;
use gridsat::battleship::puzzle::Battleship;
use gridsat::cli::Mode;
use gridsat::limits::Budget;
use gridsat_encodings::card::CardEncoding;
use std::sync::Arc;

const EXPECTED: [(&str, u64); 17] = [
    ("puzzle_sample", 2),
    ("puzzle_sample_constraints", 1),
    ("puzzle_sample_unknowns", 1),
    ("puzzle1", 1),
    ("puzzle2", 1),
    ("puzzle3", 1),
    ("puzzle4", 1),
    ("puzzle4_unknowns", 1),
    ("puzzle5", 2),
    ("puzzle6", 24),
    ("puzzle6_unknowns", 24),
    ("puzzle7", 14),
    ("puzzle8", 2),
    ("puzzle9", 152),
    ("puzzle9_constraints", 1),
    ("puzzle10", 3754),
    ("puzzle10_constraints", 1),
];

fn count(name: &str, card: CardEncoding) -> u64 {
    let path = format!(
        "{}/examples/battleship/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let puzzle = parse_puzzle(&text).unwrap();
    let puzzle = Arc::new(Battleship::new(puzzle, card).unwrap());
    match find(puzzle, Mode::Count { limit: None }, &Budget::unlimited()).unwrap() {
        Answer::Count {
            count,
            at_least: false,
        } => count.to_u64().unwrap(),
        other => panic!("{name}: not a complete count: {other:?}"),
    }
}

#[test]
fn every_count_of_the_spec_table() {
    for (name, expected) in EXPECTED {
        assert_eq!(count(name, CardEncoding::default()), expected, "{name}");
    }
}

#[test]
fn every_cardinality_encoding_gives_the_same_counts() {
    // puzzle10 (3754 solutions) is left to the default encoding above, to keep the
    // test fast; puzzle9 still lists 152.
    for card in CardEncoding::ALL {
        for (name, expected) in EXPECTED.iter().filter(|(n, _)| !n.starts_with("puzzle10")) {
            assert_eq!(count(name, card), *expected, "{name} with {card}");
        }
    }
}
