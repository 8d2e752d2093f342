//! Running `gridsat` itself for a request, within the request's `Budget`.
//!
//! The server answers with the CLI's own process rather than calling the run functions
//! in its own: a varisat call cannot be interrupted (`limits::wait_for` abandons it), and a
//! long-lived server must not keep abandoned searches burning a core after Stop. A child
//! process stops for real (it is killed), and its output is the CLI's byte for byte.

use crate::limits::Budget;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The most of a run's standard output or error kept (the rest is read and dropped).
pub const OUTPUT_LIMIT: u64 = 16 << 20;

/// How one run of the CLI ended.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The exit status (`None`: killed, by Stop or at the server's time limit).
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Stopped by `POST /api/stop`.
    pub stopped: bool,
    /// Killed at the server's time limit (the CLI's own `--timeout` did not end it).
    pub timed_out: bool,
}

/// How long past the deadline a run may take to print what it proved before it is
/// killed (the CLI's `--timeout` is per map or level: a file of many goes on longer).
pub const KILL_GRACE: Duration = Duration::from_secs(2);

/// Runs `exe ARGS --timeout T` in `dir`, with T the budget's time left: the CLI gives up
/// on its own at the deadline (printing what it proved, exit 4); the process is killed
/// when the budget is cancelled, or `KILL_GRACE` after the deadline if still running.
pub fn run_cli(exe: &Path, dir: &Path, args: &[String], budget: &Budget) -> Outcome {
    let mut command = Command::new(exe);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if args.first().map(String::as_str) != Some("generate") {
        if let Some(left) = budget.remaining() {
            let seconds = left.as_secs_f64().max(0.001);
            command.args(["--timeout", &format!("{seconds:.3}")]);
        }
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            return Outcome {
                stderr: format!("cannot start {}: {e}", exe.display()),
                ..Outcome::default()
            }
        }
    };
    let stdout = read_in_background(child.stdout.take());
    let stderr = read_in_background(child.stderr.take());
    let hard_deadline = budget.deadline().map(|d| d + KILL_GRACE);
    let mut outcome = Outcome::default();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                outcome.status = status.code();
                break;
            }
            Ok(None) => {}
            Err(_) => break,
        }
        let late = hard_deadline.is_some_and(|d| std::time::Instant::now() >= d);
        if budget.is_cancelled() || late {
            outcome.stopped = budget.is_cancelled();
            outcome.timed_out = !outcome.stopped;
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    outcome.stdout = stdout.join().unwrap_or_default();
    outcome.stderr = stderr.join().unwrap_or_default();
    outcome
}

fn read_in_background(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.by_ref().take(OUTPUT_LIMIT).read_to_end(&mut bytes);
            let _ = std::io::copy(&mut pipe, &mut std::io::sink());
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// The runs in progress, by the id the page gave them, so that Stop can cancel them.
#[derive(Clone, Default)]
pub struct Jobs {
    running: Arc<Mutex<HashMap<String, Budget>>>,
}

impl Jobs {
    /// Registers a run; `None` when a run with that id is already going.
    pub fn start(&self, id: &str, budget: &Budget) -> Option<JobGuard> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.contains_key(id) {
            return None;
        }
        running.insert(id.to_string(), budget.clone());
        Some(JobGuard {
            jobs: self.clone(),
            id: id.to_string(),
        })
    }

    /// Cancels the run `id`; false when there is none.
    pub fn stop(&self, id: &str) -> bool {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.get(id).map(Budget::cancel).is_some()
    }

    /// How many runs are going.
    pub fn len(&self) -> usize {
        self.running.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Removes its run from `Jobs` when the request ends, however it ends.
pub struct JobGuard {
    jobs: Jobs,
    id: String,
}

impl Drop for JobGuard {
    fn drop(&mut self) {
        let mut running = self.jobs.running.lock().unwrap_or_else(|e| e.into_inner());
        running.remove(&self.id);
    }
}

/// A folder of its own for one request's puzzle file, removed when dropped.
pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    pub fn new() -> std::io::Result<Scratch> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!(
            "gridsat-serve-{}-{}-{stamp}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&path)?;
        Ok(Scratch { path })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_run_is_killed_at_once() {
        let budget = Budget::unlimited();
        let stopper = budget.clone();
        let began = std::time::Instant::now();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stopper.cancel();
        });
        let scratch = Scratch::new().unwrap();
        let outcome = run_cli(Path::new("sleep"), &scratch.path, &["30".into()], &budget);
        assert!(outcome.stopped && !outcome.timed_out);
        assert_eq!(outcome.status, None);
        assert!(began.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn stop_finds_a_run_by_its_id_until_it_ends() {
        let jobs = Jobs::default();
        let budget = Budget::unlimited();
        let guard = jobs.start("a", &budget).unwrap();
        assert!(jobs.start("a", &budget).is_none());
        assert!(jobs.stop("a") && budget.is_cancelled());
        drop(guard);
        assert!(!jobs.stop("a") && jobs.is_empty());
    }
}
