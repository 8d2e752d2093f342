//! The Battleship grammar on arbitrary bytes: a puzzle or a located error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = gridsat::battleship::parse::parse_puzzle(text);
    }
});
