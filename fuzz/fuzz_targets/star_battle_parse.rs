//! The Star Battle grammars (course format and letter grid) on arbitrary bytes: they
//! must return a puzzle or a located error, never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = gridsat::star_battle::parse::parse(text);
    }
});
