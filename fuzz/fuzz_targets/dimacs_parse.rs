//! The DIMACS grammar on arbitrary bytes: a formula or a located error, never a panic;
//! and a formula it accepts reads back the same from gridsat's own writer (clauses,
//! variables, projection).
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(cnf) = gridsat::dimacs::parse_dimacs_bytes(Path::new("fuzz.cnf"), data.to_vec()) else {
        return;
    };
    let back = gridsat::dimacs::parse_dimacs(&cnf.to_dimacs_string())
        .expect("gridsat's own DIMACS reads back");
    assert_eq!(back.num_vars(), cnf.num_vars());
    assert_eq!(back.projection(), cnf.projection());
    assert!(back.clauses().eq(cnf.clauses()));
});
