//! `gridsat batch`: the same answers as the commands one by one (on 1 and 2 workers), a
//! bad file as one error line, shards that cover every item once (and merge back), and
//! Ctrl-C (SIGINT) on a long count, a level file and a batch: the partial answer printed
//! and status 130, at once.

mod common;

use common::{gridsat, root, stderr, stdout};
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A mix of every kind the batch tells, each quick.
const COLLECTION: [&str; 5] = [
    "examples/star-battle/custom1.txt",
    "examples/star-battle/twonot1.txt",
    "examples/battleship/puzzle1.txt",
    "examples/sokoban/microban-1-10.xsb",
    "examples/full-board/set-2018-smallmaps.txt",
];

/// Drops every time (`seconds`, `*_seconds`), as the batch moves them out of a result.
fn timeless(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            fields.retain(|k, _| k != "seconds" && !k.ends_with("_seconds"));
            fields.values_mut().for_each(timeless);
        }
        Value::Array(items) => items.iter_mut().for_each(timeless),
        _ => {}
    }
}

/// The batch's JSON lines by index, and its exit status.
fn lines(output: &Output) -> BTreeMap<u64, Value> {
    let mut by_index = BTreeMap::new();
    for line in stdout(output).lines() {
        let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let index = value["index"].as_u64().expect("an index");
        assert!(
            by_index.insert(index, value).is_none(),
            "index {index} twice"
        );
    }
    by_index
}

fn json(args: &[&str]) -> Value {
    let output = gridsat(args);
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", stderr(&output)))
}

#[test]
fn a_batch_answers_as_the_commands_one_by_one_on_one_or_two_workers() {
    let common = ["--stars", "1", "--rule", "at-most", "--method", "astar"];
    // The commands one by one, each file once (a level's or map's answer is its entry).
    let mut expected: Vec<(String, i32, Value)> = Vec::new();
    let one = |args: &[&str]| (gridsat(args).status.code().unwrap(), json(args));
    for file in COLLECTION {
        let answers: Vec<(String, i32, Value)> = match file.split('/').nth(1).unwrap() {
            "star-battle" => {
                let args = [
                    file, "--stars", "1", "--rule", "at-most", "--format", "json",
                ];
                let (code, answer) =
                    one(&["star-battle"].into_iter().chain(args).collect::<Vec<_>>());
                vec![(file.to_string(), code, answer)]
            }
            "battleship" => {
                let (code, answer) = one(&["battleship", file, "--format", "json"]);
                vec![(file.to_string(), code, answer)]
            }
            "sokoban" => {
                let doc = json(&["sokoban", file, "--method", "astar", "--format", "json"]);
                let levels = doc.as_array().unwrap().clone();
                assert_eq!(levels.len(), 10);
                levels
                    .into_iter()
                    .enumerate()
                    .map(|(i, level)| (format!("{file}#{}", i + 1), 0, level))
                    .collect()
            }
            _ => {
                let doc = json(&["full-board", file, "--format", "json"]);
                let maps = doc["maps"].as_array().unwrap().clone();
                assert_eq!(maps.len(), 20);
                maps.into_iter()
                    .enumerate()
                    .map(|(i, map)| (format!("{file}#{}", i + 1), 0, map))
                    .collect()
            }
        };
        expected.extend(answers);
    }
    // The batch lists the files sorted: battleship, full-board, sokoban, star-battle.
    expected.sort_by_key(|(item, _, _)| {
        let (path, number) = item.split_once('#').unwrap_or((item, "0"));
        (path.to_string(), number.parse::<usize>().unwrap())
    });
    for jobs in ["1", "2"] {
        let mut args = vec!["batch", "--format", "json", "--jobs", jobs];
        args.extend(COLLECTION);
        args.extend(common);
        let output = gridsat(&args);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let got = lines(&output);
        assert_eq!(got.len(), expected.len());
        for ((index, line), (item, code, answer)) in got.iter().zip(&expected) {
            assert_eq!(line["item"], *item, "index {index}");
            assert_eq!(line["exit"], *code, "{item}");
            let mut answer = answer.clone();
            timeless(&mut answer);
            assert_eq!(line["result"], answer, "{item} on {jobs} worker(s)");
            assert!(line["times"]["wall"].as_f64().is_some());
        }
        // The summary, on standard error with JSON lines.
        let table = stderr(&output);
        assert!(
            table.contains(&format!("batch: {} items", expected.len())),
            "{table}"
        );
        let solved = format!("  {:<20} {:>6}\n", "solved", expected.len());
        assert!(table.contains(&solved), "{table}");
    }
}

#[test]
fn a_bad_file_is_one_error_line_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.txt");
    std::fs::copy(root().join("examples/star-battle/custom1.txt"), &good).unwrap();
    // A Star Battle header with a zone whose cells run out.
    let broken = dir.path().join("broken.txt");
    std::fs::write(&broken, "4 3\nL 6\n0 0\n1 0\n").unwrap();
    // Not a puzzle: left out of a folder.
    std::fs::write(dir.path().join("notes.txt"), "Number of solutions: 17\n").unwrap();
    let folder = dir.path().to_str().unwrap();
    let output = gridsat(&[
        "batch", folder, "--stars", "1", "--rule", "at-most", "--format", "json",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let got = lines(&output);
    assert_eq!(got.len(), 2, "{}", stdout(&output));
    let broken_line = &got[&0];
    assert_eq!(broken_line["item"], broken.display().to_string());
    assert_eq!(broken_line["status"], "error");
    assert_eq!(broken_line["exit"], 2);
    let message = broken_line["error"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("{}:", broken.display())),
        "{message}"
    );
    assert_eq!(got[&1]["status"], "solved");
    assert_eq!(got[&1]["result"]["count"], 1);
    // Named on the command line, a file that looks like no puzzle is an error line too.
    let notes = dir.path().join("notes.txt");
    let output = gridsat(&["batch", notes.to_str().unwrap(), "--format", "json"]);
    assert_eq!(output.status.code(), Some(2));
    let got = lines(&output);
    assert_eq!(got.len(), 1);
    assert!(got[&0]["error"]
        .as_str()
        .unwrap()
        .contains("cannot tell which puzzle"));
}

#[test]
fn shards_cover_every_item_once_and_merge_back_to_the_whole_batch() {
    let files = [
        "examples/sokoban/microban-1-10.xsb",
        "examples/full-board/set-2018-smallmaps.txt",
    ];
    let run = |extra: &[&str]| {
        let mut args = vec!["batch", "--format", "json", "--method", "astar"];
        args.extend(files);
        args.extend(extra);
        gridsat(&args)
    };
    let whole = lines(&run(&[]));
    assert_eq!(whole.len(), 30);
    let dir = tempfile::tempdir().unwrap();
    let mut seen = BTreeMap::new();
    let mut parts = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let output = run(&["--shard", &shard, "--jobs", "1"]);
        assert_eq!(output.status.code(), Some(0));
        for (index, line) in lines(&output) {
            assert_eq!(index % 3, k - 1, "shard {shard} holds index {index}");
            assert!(
                seen.insert(index, line).is_none(),
                "index {index} in two shards"
            );
        }
        let part = dir.path().join(format!("part-{k}.jsonl"));
        std::fs::write(&part, &output.stdout).unwrap();
        parts.push(part.display().to_string());
    }
    let strip = |mut line: Value| {
        line.as_object_mut().unwrap().remove("times");
        line
    };
    let key = |m: BTreeMap<u64, Value>| -> Vec<Value> { m.into_values().map(strip).collect() };
    assert_eq!(key(seen), key(whole.clone()));
    // --merge: the shards' lines, sorted, each once (a part given twice changes nothing).
    let mut args = vec!["batch", "--merge", "--format", "json"];
    args.extend(parts.iter().map(String::as_str));
    args.push(&parts[0]);
    let merged = gridsat(&args);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    let indices: Vec<u64> = stdout(&merged)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(indices, (0..30).collect::<Vec<u64>>());
    assert_eq!(key(lines(&merged)), key(whole));
    assert!(stderr(&merged).contains("batch: 30 items"));
}

/// Starts `gridsat ARGS`, sends SIGINT after `wait`, and returns its output and how long
/// it took to end after the signal.
fn interrupted(args: &[&str], wait: Duration) -> (Output, Duration) {
    let child = Command::new(env!("CARGO_BIN_EXE_gridsat"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gridsat binary runs");
    std::thread::sleep(wait);
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let output = child.wait_with_output().expect("gridsat ends");
    (output, sent.elapsed())
}

#[test]
fn ctrl_c_ends_a_long_count_with_what_was_counted_and_status_130() {
    let args = [
        "star-battle",
        "examples/star-battle/twonot2.txt",
        "--stars",
        "2",
        "--count",
    ];
    let (output, after) = interrupted(&args, Duration::from_millis(1500));
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(after < Duration::from_secs(2), "{after:?}");
    let text = stdout(&output);
    assert!(text.starts_with("Number of solutions: at least "), "{text}");
    assert!(text.contains("interrupted (Ctrl-C) after"), "{text}");
}

/// Microban 1, XSokoban 1 (its fewest-moves search runs long with a large store), then
/// Microban 2.
const LEVELS: &str = "; 1\n\n####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n\n\
; screen.01\n\n    #####\n    #   #\n    #$  #\n  ###  $##\n  #  $ $ #\n\
### # ## #   ######\n#   # ## #####  ..#\n# $  $          ..#\n\
##### ### #@##  ..#\n    #     #########\n    #######\n\n\
; 2\n\n######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######\n";

#[test]
fn ctrl_c_ends_a_level_file_after_the_level_it_stopped() {
    let file = common::write_temp(LEVELS);
    let path = file.path().to_str().unwrap();
    let args = [
        "sokoban",
        path,
        "--method",
        "astar",
        "--max-move-states",
        "500000000",
    ];
    let (output, after) = interrupted(&args, Duration::from_millis(1500));
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(after < Duration::from_secs(2), "{after:?}");
    let text = stdout(&output);
    assert!(text.contains("level 1 (1): solved"), "{text}");
    assert!(text.contains("pushes: 8 (proven push-optimal)"), "{text}");
    // The level it stopped: its pushes proven, its moves not.
    assert!(text.contains("level 2 (screen.01)"), "{text}");
    assert!(text.contains("pushes: 97 (proven push-optimal)"), "{text}");
    assert!(!text.contains("level 3"), "{text}");
}

#[test]
fn ctrl_c_ends_a_batch_with_the_items_done_and_the_summary() {
    // Sorted a, b, c: a quick one, the long count, one never started.
    let dir = tempfile::tempdir().unwrap();
    let files = ["custom1.txt", "twonot2.txt", "twonot1.txt"];
    let mut paths = Vec::new();
    for (name, file) in ["a.txt", "b.txt", "c.txt"].into_iter().zip(files) {
        let path = dir.path().join(name);
        std::fs::copy(root().join("examples/star-battle").join(file), &path).unwrap();
        paths.push(path.display().to_string());
    }
    let args = [
        "batch", &paths[0], &paths[1], &paths[2], "--stars", "2", "--count", "--jobs", "1",
        "--format", "json",
    ];
    let (output, after) = interrupted(&args, Duration::from_millis(1500));
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(after < Duration::from_secs(2), "{after:?}");
    let got = lines(&output);
    assert_eq!(got.len(), 2, "{}", stdout(&output));
    assert_eq!(got[&0]["status"], "no-solution");
    assert_eq!(got[&1]["item"], paths[1]);
    assert_eq!(got[&1]["status"], "interrupted");
    assert_eq!(got[&1]["exit"], 130);
    assert_eq!(got[&1]["result"]["complete"], false);
    assert_eq!(got[&1]["result"]["gave_up"], "interrupted");
    let table = stderr(&output);
    assert!(
        table.contains("batch: 2 items (1 not started: interrupted)"),
        "{table}"
    );
    let interrupted = format!("  {:<20} {:>6}\n", "interrupted", 1);
    assert!(table.contains(&interrupted), "{table}");
}
