//! `gridsat serve`: a page for puzzle designers on a local web server.
//!
//! The page (`page.html`, one file with its CSS and JS, in the binary) sends the puzzle
//! to `POST /api/solve`; the server answers by running this same `gridsat` binary with
//! the CLI's flags (`request.rs` builds the command lines, `job.rs` runs them), so the
//! page shows the CLI's verdicts, messages, pictures and repairs, never a copy of them.
//! Nothing is fetched from elsewhere and the server listens on 127.0.0.1 unless told
//! otherwise: the puzzle never leaves the machine.

pub mod job;
pub mod request;

use crate::cli::Exit;
use crate::limits::{parse_timeout, Budget};
use anyhow::Context;
use job::{run_cli, Jobs, Outcome, Scratch};
use request::{Input, SolveRequest};
use serde_json::{json, Value};
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Response, Server};

const PAGE: &str = include_str!("page.html");

/// The largest request body read (a puzzle file of a few hundred KiB fits many times).
pub const MAX_BODY: usize = 1 << 20;

/// `gridsat serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on. Anything but a loopback address lets other machines send
    /// puzzles to this one.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub host: String,
    /// The longest a request may run, in seconds (a request may ask for less).
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_timeout)]
    pub max_time: Duration,
    /// How many requests may run at once (more are refused with "busy").
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub max_runs: u64,
}

/// What every request thread shares.
struct Shared {
    exe: PathBuf,
    jobs: Jobs,
    max_time: Duration,
    max_runs: usize,
    active: AtomicUsize,
    port: u16,
    host: String,
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let exe = std::env::current_exe().context("cannot find the gridsat binary to run")?;
    let server = Server::http((args.host.as_str(), args.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on {}:{}: {e}", args.host, args.port))?;
    let address = server
        .server_addr()
        .to_ip()
        .context("the server has no IP address")?;
    println!("gridsat serve: http://{address}/ (Ctrl-C stops it)");
    let shared = Arc::new(Shared {
        exe,
        jobs: Jobs::default(),
        max_time: args.max_time,
        max_runs: args.max_runs as usize,
        active: AtomicUsize::new(0),
        port: address.port(),
        host: args.host.clone(),
    });
    for request in server.incoming_requests() {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || handle(request, &shared));
    }
    Ok(Exit::Solved)
}

fn handle(mut request: tiny_http::Request, shared: &Shared) {
    let (status, body, kind) = route(&mut request, shared);
    let header = Header::from_bytes("Content-Type", kind).expect("a valid header");
    let response = Response::from_string(body)
        .with_status_code(status)
        .with_header(header)
        .with_header(Header::from_bytes("Cache-Control", "no-store").expect("a valid header"));
    let _ = request.respond(response);
}

const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json";

fn route(request: &mut tiny_http::Request, shared: &Shared) -> (u16, String, &'static str) {
    if !host_allowed(request, shared) {
        return error(
            421,
            "this server answers only requests addressed to it by its own address",
        );
    }
    let url = request.url().split('?').next().unwrap_or("").to_string();
    match (request.method(), url.as_str()) {
        (Method::Get, "/") => (200, PAGE.to_string(), HTML),
        (Method::Post, "/api/solve") => match read_json::<SolveRequest>(request) {
            Ok(solve) => {
                let (status, value) = answer(solve, shared);
                (status, value.to_string(), JSON)
            }
            Err((status, message)) => error(status, &message),
        },
        (Method::Post, "/api/stop") => match read_json::<Value>(request) {
            Ok(body) => {
                let id = body.get("id").and_then(Value::as_str).unwrap_or("");
                let stopped = shared.jobs.stop(id);
                (200, json!({ "stopped": stopped }).to_string(), JSON)
            }
            Err((status, message)) => error(status, &message),
        },
        (_, "/" | "/api/solve" | "/api/stop") => error(405, "method not allowed"),
        _ => error(404, "not found"),
    }
}

fn error(status: u16, message: &str) -> (u16, String, &'static str) {
    (status, json!({ "error": message }).to_string(), JSON)
}

/// A page elsewhere on the web could make the browser send requests here (by a name it
/// points at 127.0.0.1): only requests naming this server's own address are answered.
fn host_allowed(request: &tiny_http::Request, shared: &Shared) -> bool {
    let Some(host) = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_ascii_lowercase())
    else {
        return false;
    };
    let port = shared.port;
    [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        format!("{}:{port}", shared.host.to_ascii_lowercase()),
    ]
    .contains(&host)
}

/// Reads a JSON body of at most `MAX_BODY` bytes. Only `application/json` is read: a
/// page elsewhere cannot send that here without the browser asking first (and this
/// server says no), so other sites cannot start runs.
fn read_json<T: serde::de::DeserializeOwned>(
    request: &mut tiny_http::Request,
) -> Result<T, (u16, String)> {
    let is_json = request
        .headers()
        .iter()
        .any(|h| h.field.equiv("Content-Type") && h.value.as_str().starts_with("application/json"));
    if !is_json {
        return Err((415, "send the request as application/json".into()));
    }
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err((413, format!("the request is over {MAX_BODY} bytes")));
    }
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body);
    if read.is_err() {
        return Err((400, "the request could not be read".into()));
    }
    if body.len() > MAX_BODY {
        return Err((413, format!("the request is over {MAX_BODY} bytes")));
    }
    serde_json::from_slice(&body).map_err(|e| (400, format!("bad request: {e}")))
}

/// Answers one solve request: its runs of the CLI, stopped early when the first says
/// the input is bad (its message is the answer) or the run was stopped.
fn answer(solve: SolveRequest, shared: &Shared) -> (u16, Value) {
    let began = Instant::now();
    let plan = match solve.plan() {
        Ok(plan) => plan,
        Err(message) => return (200, json!({ "exit": 2, "error": message })),
    };
    if shared.active.fetch_add(1, Ordering::SeqCst) >= shared.max_runs {
        shared.active.fetch_sub(1, Ordering::SeqCst);
        return (
            503,
            json!({ "error": "busy: too many runs at once; try again" }),
        );
    }
    let _active = Release(&shared.active);
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    let id = (solve.id.clone())
        .unwrap_or_else(|| format!("server-{}", NEXT.fetch_add(1, Ordering::Relaxed)));
    let limit = solve
        .timeout
        .filter(|t| t.is_finite() && *t > 0.0)
        .map_or(shared.max_time, |t| {
            Duration::from_secs_f64(t).min(shared.max_time)
        });
    let budget = Budget::starting_now(Some(limit));
    let Some(_job) = shared.jobs.start(&id, &budget) else {
        return (
            409,
            json!({ "error": format!("run {id} is already going") }),
        );
    };
    let scratch = match Scratch::new() {
        Ok(scratch) => scratch,
        Err(e) => return (500, json!({ "error": format!("no scratch folder: {e}") })),
    };
    if let Input::File { name, text } = &plan.input {
        if let Err(e) = std::fs::write(scratch.path.join(name), text) {
            return (
                500,
                json!({ "error": format!("cannot save the puzzle: {e}") }),
            );
        }
    }
    let mut result = json!({
        "id": id,
        "kind": plan.kind.command(),
        "mode": solve.mode.name(),
    });
    for (i, run) in plan.runs.iter().enumerate() {
        let outcome = run_cli(&shared.exe, &scratch.path, &run.args, &budget);
        if i == 0 {
            result["command"] = Value::String(format!("gridsat {}", run.args.join(" ")));
            first_run(&mut result, run.format, &outcome);
        } else if outcome.status.is_some_and(|s| s != 2 && s != 3) {
            result[run.format] = Value::String(outcome.stdout);
        }
        // Bad input, a bug, or no time left: the other formats would say no more.
        if !matches!(outcome.status, Some(0 | 1 | 5)) {
            break;
        }
    }
    result["elapsed_ms"] = json!(began.elapsed().as_millis() as u64);
    (200, result)
}

/// The first run decides the answer's exit status, and carries the error message.
fn first_run(result: &mut Value, format: &str, outcome: &Outcome) {
    result["exit"] = json!(outcome.status);
    result["stopped"] = json!(outcome.stopped);
    result["timed_out"] = json!(outcome.timed_out);
    if !outcome.stderr.trim().is_empty() {
        result["stderr"] = Value::String(outcome.stderr.clone());
    }
    match outcome.status {
        Some(2 | 3) => result["error"] = Value::String(outcome.stderr.trim_end().to_string()),
        None if outcome.stopped => result["error"] = "stopped".into(),
        None => result["error"] = "gave up at the server's time limit".into(),
        Some(_) if format == "json" => {
            result["json"] = serde_json::from_str(&outcome.stdout).unwrap_or(Value::Null);
        }
        Some(_) => result[format] = Value::String(outcome.stdout.clone()),
    }
}

/// Gives back a place among the `--max-runs` when a request ends.
struct Release<'a>(&'a AtomicUsize);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
