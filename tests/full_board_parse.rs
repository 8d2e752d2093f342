//! The map-file grammar against seeded mutants of the course's map files: in process,
//! thousands of mutants, every one answered with maps or a `FILE:LINE: problem` error,
//! never a panic; and a sample through the binary with a short `--timeout`, whose exit
//! status is always 0, 1, 2 or 4, with a `FILE:LINE:` message on every 2.

mod common;
use common::mutate::{mutants, survives};
use gridsat::full_board::parse::read_map_bytes;
use std::path::Path;
use std::time::Duration;

/// The course's map files, and each of their maps alone (small texts, so the binary
/// sample solves quickly).
fn corpus() -> (Vec<String>, Vec<String>) {
    let dir = common::root().join("examples/full-board");
    let mut files = Vec::new();
    let mut maps = Vec::new();
    for set in ["set-2018", "set-2016", "set-s16a", "set-s16b"] {
        for kind in ["smallmaps", "largemaps"] {
            let text = common::read(&dir.join(format!("{set}-{kind}.txt")));
            if kind == "smallmaps" {
                for map in text.split_inclusive("endmap") {
                    if map.contains("map") {
                        maps.push(map.trim_start_matches(['\r', '\n']).to_string() + "\n");
                    }
                }
            }
            files.push(text);
        }
    }
    (files, maps)
}

#[test]
fn mutants_of_the_course_files_never_panic_and_name_their_line() {
    let (files, maps) = corpus();
    let name = "maps.txt";
    let parse = |bytes| read_map_bytes(Path::new(name), bytes);
    let (accepted, refused) = survives(name, &files, 300, 20, parse);
    let (small_accepted, small_refused) = survives(name, &maps, 40, 21, parse);
    let total = accepted + refused + small_accepted + small_refused;
    assert!(total >= 4000, "{total} mutants");
    // The mutants must exercise both outcomes.
    assert!(
        accepted + small_accepted > 200,
        "{accepted} + {small_accepted} accepted"
    );
    assert!(
        refused + small_refused > 1000,
        "{refused} + {small_refused} refused"
    );
}

#[test]
fn mutants_through_the_binary_exit_0_1_2_or_4() {
    let (_, maps) = corpus();
    let mut statuses = [0usize; 5];
    for (k, map) in maps.iter().enumerate().step_by(4) {
        for (m, bytes) in mutants(map, 25, 40 + k as u64).into_iter().enumerate() {
            let file = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(file.path(), &bytes).unwrap();
            let path = file.path().to_str().unwrap();
            let began = std::time::Instant::now();
            let output = common::gridsat(&["full-board", path, "--timeout", "0.3"]);
            assert!(
                began.elapsed() < Duration::from_secs(30),
                "mutant {m} of map {k}"
            );
            let code = output.status.code().expect("an exit status, not a signal");
            assert!(
                matches!(code, 0 | 1 | 2 | 4),
                "mutant {m} of map {k}: exit {code}: {}",
                common::stderr(&output)
            );
            if code == 2 {
                let message = common::stderr(&output);
                assert!(
                    message.contains(&format!("{path}:")),
                    "mutant {m} of map {k}: {message}"
                );
            }
            statuses[code as usize] += 1;
        }
    }
    let runs: usize = statuses.iter().sum();
    assert!(runs >= 300, "{runs} runs");
    assert!(
        statuses[2] > 0 && statuses[0] + statuses[1] > 0,
        "{statuses:?}"
    );
}
