//! Full Board's map-file grammar on arbitrary bytes: maps or a `FILE:LINE: problem`
//! error, never a panic. Run with `cargo +nightly fuzz run full_board_parse` (seed it
//! with the course's files: `examples/full-board/*.txt`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let name = "maps.txt";
    if let Err(error) = gridsat::full_board::parse::read_map_bytes(Path::new(name), data.to_vec()) {
        let message = error.to_string();
        assert!(message.starts_with("maps.txt:"), "{message}");
    }
});
