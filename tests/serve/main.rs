//! `gridsat serve`: the API answers with the CLI's own verdicts, errors and pictures;
//! requests are bounded in size and time; runs go on side by side and stop on request.
//! `browser.rs` drives the page in headless Chromium.

mod browser;
mod http;

use http::{request, Server};
use serde_json::Value;
use std::process::Command;
use std::time::{Duration, Instant};

const UNIQUE: &str = "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk";
/// Several solutions (`examples/battleship/puzzle6_unknowns.txt`), one repair.
const BATTLESHIP: &str =
    "https://puzz.link/p?battleship/8/7/g4g4g4g47g7g7g7zzv/7/11g/21o/71vo/61vg/51v/41u/31s";

/// A file of the project, by its path from the project's folder.
fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn solve(server: &Server, body: &str) -> Value {
    let (status, text) = server.post("/api/solve", body);
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The CLI itself, run on `text` saved as `name` in a folder of its own.
fn cli_on_file(name: &str, text: &str, args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    Command::new(env!("CARGO_BIN_EXE_gridsat"))
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap()
}

#[test]
fn the_answer_is_the_clis_own_output() {
    let server = Server::start(&[]);
    let answer = solve(
        &server,
        &format!(r#"{{"puzzle": "{UNIQUE}", "mode": "unique"}}"#),
    );
    assert_eq!(answer["exit"], 0);
    assert_eq!(answer["kind"], "star-battle");
    assert_eq!(answer["json"]["verdict"], "unique");
    assert_eq!(
        answer["command"],
        format!("gridsat star-battle {UNIQUE} --unique --format json")
    );
    for (format, field) in [("text", "text"), ("svg", "svg"), ("json", "json")] {
        let cli = Command::new(env!("CARGO_BIN_EXE_gridsat"))
            .args(["star-battle", UNIQUE, "--unique", "--format", format])
            .output()
            .unwrap();
        assert_eq!(cli.status.code(), Some(0));
        let out = String::from_utf8(cli.stdout).unwrap();
        if field == "json" {
            assert_eq!(answer["json"], serde_json::from_str::<Value>(&out).unwrap());
        } else {
            assert_eq!(answer[field], out, "{format}");
        }
    }
    assert!(answer["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(answer["url"], format!("{UNIQUE}\n"));
}

#[test]
fn a_bad_puzzle_is_the_clis_error_message() {
    let server = Server::start(&[]);
    let text = "3 3\na 2\n0 0\n0 9\n";
    let answer = solve(
        &server,
        &serde_json::json!({"puzzle": text, "kind": "star-battle", "mode": "solve", "stars": 1})
            .to_string(),
    );
    let cli = cli_on_file(
        "pasted.txt",
        text,
        &["star-battle", "pasted.txt", "--stars", "1"],
    );
    assert_eq!(cli.status.code(), Some(2));
    let message = String::from_utf8(cli.stderr).unwrap();
    assert!(message.starts_with("gridsat: pasted.txt:4: "), "{message}");
    assert_eq!(answer["exit"], 2);
    assert_eq!(answer["error"], message.trim_end());
    // A file opened on the page keeps its own name in the message.
    let answer = solve(
        &server,
        &serde_json::json!({"puzzle": "board 2 x\n", "name": "/home/me/ships.txt",
                            "kind": "battleship", "mode": "unique"})
        .to_string(),
    );
    let cli = cli_on_file(
        "ships.txt",
        "board 2 x\n",
        &["battleship", "ships.txt", "--unique"],
    );
    assert_eq!(
        answer["error"],
        String::from_utf8(cli.stderr).unwrap().trim_end()
    );
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .starts_with("gridsat: ships.txt:1: "));
    // What the page cannot ask the CLI is said before running it.
    let answer = solve(
        &server,
        r#"{"puzzle": "x", "kind": "sokoban", "mode": "repair"}"#,
    );
    assert_eq!(answer["error"], "gridsat sokoban has no repair mode");
}

#[test]
fn requests_are_bounded_in_size_and_must_come_from_the_page() {
    let server = Server::start(&[]);
    let big = format!(
        r#"{{"mode": "solve", "kind": "star-battle", "puzzle": "{}"}}"#,
        "a".repeat(1 << 20)
    );
    let (status, body) = server.post("/api/solve", &big);
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("over 1048576 bytes"), "{body}");
    let (status, _) = request(
        &server.address,
        "POST",
        "/api/solve",
        &[("Content-Type", "text/plain")],
        br#"{"mode": "solve"}"#,
    );
    assert_eq!(status, 415);
    // A page elsewhere reaching this port by another name is not answered.
    let mut stream = std::net::TcpStream::connect(&server.address).unwrap();
    use std::io::{Read, Write};
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 421"), "{answer}");
    let (status, body) = server.post("/api/solve", "{not json");
    assert_eq!(status, 400);
    assert!(body.contains("bad request"), "{body}");
}

#[test]
fn the_page_is_served_whole_from_the_binary() {
    let server = Server::start(&[]);
    let (status, page) = request(&server.address, "GET", "/", &[], b"");
    assert_eq!(status, 200);
    assert!(page.contains("Your puzzle never leaves this machine"));
    for outside in ["src=\"http", "href=\"http", "@import", "url(http"] {
        assert!(!page.contains(outside), "the page fetches {outside}");
    }
    assert_eq!(request(&server.address, "GET", "/x", &[], b"").0, 404);
}

#[test]
fn two_requests_run_at_once_and_stop_ends_a_run() {
    let server = Server::start(&[]);
    // A hard XSokoban level that no method here settles within minutes: the run Stop ends.
    let level = read("tests/data/xsokoban-50.xsb");
    let slow = serde_json::json!({"id": "slow", "puzzle": level, "kind": "sokoban",
                                  "mode": "solve", "name": "xsokoban-50.xsb"})
    .to_string();
    let began = Instant::now();
    std::thread::scope(|scope| {
        let slow = scope.spawn(|| solve(&server, &slow));
        let quick = scope.spawn(|| {
            solve(
                &server,
                &format!(r#"{{"puzzle": "{BATTLESHIP}", "mode": "repair"}}"#),
            )
        });
        let quick = quick.join().unwrap();
        assert_eq!(quick["kind"], "battleship");
        assert_eq!(quick["json"]["verdict"], "multiple", "{quick}");
        assert_eq!(quick["json"]["repairs"].as_array().unwrap().len(), 1);
        assert!(quick["svg"].as_str().unwrap().starts_with("<svg"));
        let (status, stopped) = server.post("/api/stop", r#"{"id": "slow"}"#);
        assert_eq!((status, stopped.as_str()), (200, r#"{"stopped":true}"#));
        let slow = slow.join().unwrap();
        assert_eq!(slow["stopped"], true, "{slow}");
        assert_eq!(slow["error"], "stopped");
        assert_eq!(slow["exit"], Value::Null);
    });
    assert!(began.elapsed() < Duration::from_secs(30));
    let (_, none) = server.post("/api/stop", r#"{"id": "slow"}"#);
    assert_eq!(none, r#"{"stopped":false}"#);
}

#[test]
fn a_run_gives_up_at_its_time_limit_with_the_clis_partial_answer() {
    let server = Server::start(&["--max-time", "1"]);
    let level = read("tests/data/xsokoban-50.xsb");
    // One level: the CLI's own --timeout ends it, with the bound it proved.
    let began = Instant::now();
    let answer = solve(
        &server,
        &serde_json::json!({"puzzle": level, "kind": "sokoban", "mode": "solve", "timeout": 100})
            .to_string(),
    );
    assert!(began.elapsed() < Duration::from_secs(10));
    assert_eq!(answer["exit"], 4, "{answer}");
    let gave_up = &answer["json"][0];
    assert_eq!(gave_up["outcome"], "gave-up", "{answer}");
    assert!(
        gave_up["reason"].as_str().unwrap().contains("time limit"),
        "{answer}"
    );
    assert!(gave_up["no_plan_below"].as_u64().unwrap() > 0, "{answer}");
    // Six copies, each with its own --timeout of 1 s: the server kills the run first.
    let began = Instant::now();
    let answer = solve(
        &server,
        &serde_json::json!({"puzzle": level.repeat(6), "kind": "sokoban", "mode": "solve"})
            .to_string(),
    );
    assert!(began.elapsed() < Duration::from_secs(10));
    assert_eq!(answer["exit"], Value::Null, "{answer}");
    assert_eq!(answer["timed_out"], true);
    assert_eq!(answer["error"], "gave up at the server's time limit");
}
