//! The level-file grammar against seeded mutants of real level files (Microban,
//! XSokoban: tests/data/sokoban-levels.xsb; the course's digit map): every mutant is read or refused with
//! `FILE:LINE: level N: problem`, never a panic; in process by the thousand, and a
//! sample through the `gridsat` binary, which must answer with a documented exit status.

use gridsat::sokoban::parse::{parse_file, LevelFormat};
use std::path::Path;

mod common;
use common::mutate::{mutants, survives};

/// Small texts of a few levels each (mutations then hit the structure often), cut from
/// Microban and XSokoban levels as written in their files (tests/data/sokoban-levels.xsb),
/// and the examples whole.
fn corpus() -> Vec<String> {
    let text = common::read(&common::root().join("tests/data/sokoban-levels.xsb"));
    // A block is a title, a board, or both; four blocks hold two to four levels.
    let blocks: Vec<&str> = text.split("\n\n").collect();
    let mut texts: Vec<String> = blocks.chunks(4).map(|c| c.join("\n\n")).collect();
    for example in ["course.txt", "microban-1-10.xsb", "unsolvable.xsb"] {
        let path = common::root().join("examples/sokoban").join(example);
        texts.push(common::read(&path));
    }
    texts
}

/// Every refusal of a whole file names a level, unless the file as a whole is at fault.
fn names_a_level(message: &str) -> bool {
    message.starts_with("level ")
        || message == "no level in the file"
        || message == "the file is not valid UTF-8 text"
}

#[test]
fn mutants_of_level_files_are_read_or_refused_with_file_line_and_level() {
    let corpus = corpus();
    assert!(corpus.len() > 15, "{} texts", corpus.len());
    let course = vec![common::read(
        &common::root().join("examples/sokoban/course.txt"),
    )];
    let name = "levels.xsb";
    for (format, select, texts, per_text) in [
        (LevelFormat::Auto, None, &corpus, 150),
        (LevelFormat::Xsb, Some(2), &corpus, 80),
        (LevelFormat::Digits, None, &course, 1000),
    ] {
        let (accepted, refused) = survives(name, texts, per_text, 0x50C0_BA17, |bytes| {
            parse_file(Path::new(name), bytes, format, select).inspect_err(|e| {
                if select.is_none() {
                    assert!(names_a_level(&e.error.message), "{e}");
                }
            })
        });
        eprintln!("{format:?}: {accepted} read, {refused} refused");
        // Both sides must be exercised: many mutants stay levels, many break.
        assert!(
            accepted > per_text / 20 && refused > 100,
            "{format:?}: {accepted} read, {refused} refused"
        );
    }
}

#[test]
fn mutants_through_the_binary_end_with_a_documented_status() {
    let texts: Vec<String> = {
        let text = common::read(&common::root().join("examples/sokoban/microban-1-10.xsb"));
        let blocks: Vec<&str> = text.split("\n\n").collect();
        // Levels 1, 2 and 4 alone (title and board), and the course's digit map.
        let mut texts: Vec<String> = [1, 3, 7]
            .iter()
            .map(|&i| blocks[i..i + 2].join("\n\n"))
            .collect();
        texts.push(common::read(
            &common::root().join("examples/sokoban/course.txt"),
        ));
        texts
    };
    let (mut statuses, mut refused) = ([0usize; 5], 0);
    for (k, text) in texts.iter().enumerate() {
        for bytes in mutants(text, 100, 0xB1A5_0000 + k as u64) {
            let file = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(file.path(), &bytes).unwrap();
            let path = file.path().to_str().unwrap();
            let out = common::gridsat(&["sokoban", path, "--timeout", "0.1"]);
            let code = out.status.code().expect("an exit status");
            let err = common::stderr(&out);
            assert!(
                [0, 1, 2, 4].contains(&code),
                "status {code} on {:?}: {err}",
                String::from_utf8_lossy(&bytes)
            );
            statuses[code as usize] += 1;
            if code == 2 {
                refused += 1;
                let line = err
                    .split_once(&format!("{path}:"))
                    .and_then(|(_, rest)| rest.split(':').next())
                    .and_then(|n| n.parse::<usize>().ok());
                assert!(line.is_some(), "no {path}:LINE: in {err}");
            }
        }
    }
    eprintln!("exit statuses 0 to 4: {statuses:?}");
    assert!(
        refused > 20 && statuses[0] > 20,
        "exit statuses {statuses:?}"
    );
}
