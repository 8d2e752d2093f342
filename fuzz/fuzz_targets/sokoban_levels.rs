//! The Sokoban level grammar on arbitrary bytes: every input is read or refused with a
//! `FILE:LINE: problem` message, never a panic, in each input format.
//!
//! Run: `cargo +nightly fuzz run sokoban_levels` (in `fuzz/`); seed the corpus with
//! `examples/sokoban/*` and `tests/data/sokoban-levels.xsb` for a quicker start.

#![no_main]

use gridsat::sokoban::parse::{parse_file, LevelFormat};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    for format in [LevelFormat::Auto, LevelFormat::Xsb, LevelFormat::Digits] {
        if let Err(e) = parse_file(Path::new("fuzz.xsb"), data.to_vec(), format, None) {
            let message = e.to_string();
            let line = message
                .strip_prefix("fuzz.xsb:")
                .and_then(|rest| rest.split(':').next())
                .and_then(|n| n.parse::<usize>().ok());
            assert!(line.is_some_and(|l| l >= 1), "{message}");
        }
    }
});
