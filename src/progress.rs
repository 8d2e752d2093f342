//! Progress on long work, on standard error, and only when it is a terminal: piped or
//! redirected, a run shows nothing, and standard output never carries a bar.
//!
//! A `Progress` is a bar (items done of a known total, with the rate and an estimate) or
//! a spinner with a message. Searches do not draw it: a search bumps a counter or sets
//! a message (cheap, no lock held on its hot path) and the bar redraws itself on its
//! own ticker, ten times a second.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Set by a command that draws its own bar (a batch) over the commands it runs.
static QUIET: AtomicBool = AtomicBool::new(false);

/// No `Progress` made from now on is drawn (the batch's own bar was made before).
pub fn quiet() {
    QUIET.store(true, Ordering::Relaxed);
}

/// A bar or spinner on standard error, or nothing when standard error is no terminal.
#[derive(Clone, Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Nothing shown.
    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// `what`: done / total, the rate and the time left.
    pub fn items(total: u64, what: &str) -> Progress {
        Progress::drawn(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(&format!(
                "{{bar:30}} {{pos}}/{{len}} {what} ({{per_sec}}, {{eta}} left) {{msg}}"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar
        })
    }

    /// A spinner with `message`.
    pub fn spinner(message: &str) -> Progress {
        Progress::drawn(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
                bar.set_style(style);
            }
            bar.set_message(message.to_string());
            bar
        })
    }

    fn drawn(make: impl FnOnce() -> ProgressBar) -> Progress {
        if QUIET.load(Ordering::Relaxed) || !std::io::stderr().is_terminal() {
            return Progress::hidden();
        }
        let bar = make();
        bar.enable_steady_tick(Duration::from_millis(100));
        Progress { bar: Some(bar) }
    }

    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    pub fn message(&self, message: impl Into<String>) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.into());
        }
    }

    /// Sets the message to `describe()` ten times a second, on a thread of its own,
    /// until the `Watch` is dropped: a search shares what it proved (behind its own
    /// lock) and never waits for the terminal.
    pub fn watch(&self, describe: impl Fn() -> String + Send + 'static) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(bar) = self.bar.clone() {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    bar.set_message(describe());
                    std::thread::sleep(Duration::from_millis(100));
                }
            });
        }
        Watch { stop }
    }

    /// `watch`, showing `describe()` and what the searches posted on `status` (the
    /// spinner's first message while both are empty).
    pub fn watch_status(
        &self,
        status: Arc<Status>,
        describe: impl Fn() -> String + Send + 'static,
    ) -> Watch {
        let first = self
            .bar
            .as_ref()
            .map(|bar| bar.message())
            .unwrap_or_default();
        self.watch(move || {
            let lines: Vec<String> = [describe(), status.read()]
                .into_iter()
                .filter(|line| !line.is_empty())
                .collect();
            match lines.is_empty() {
                true => first.clone(),
                false => lines.join(": "),
            }
        })
    }

    /// Runs `print` (writing to the terminal) with the bar out of the way.
    pub fn suspend<T>(&self, print: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Stops a `Progress::watch` when dropped.
pub struct Watch {
    stop: Arc<AtomicBool>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Where long searches post what they have proven so far, for a progress line: each
/// search under its own name ("count: at least 12,000 solutions", "astar: no plan under
/// 41 pushes"). A search reaches it through its `Budget` (`Budget::status`), so every
/// search that polls a budget can post, and posts only when a line was read since its
/// last post: a run nobody watches pays one atomic load per poll.
#[derive(Debug, Default)]
pub struct Status {
    /// Bumped by every read; a search posts again when it has moved.
    reads: AtomicU64,
    posted: Mutex<BTreeMap<&'static str, String>>,
}

impl Status {
    pub fn new() -> Arc<Status> {
        Arc::new(Status::default())
    }

    /// The number of reads so far: a search that remembers it posts again only once the
    /// number has moved (`Status::due`).
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// True when a read happened since `*seen`, which it then updates.
    pub fn due(&self, seen: &mut u64) -> bool {
        let now = self.reads();
        let due = now != *seen;
        *seen = now;
        due
    }

    /// `search`'s line, replacing its previous one.
    pub fn post(&self, search: &'static str, line: String) {
        if let Ok(mut posted) = self.posted.lock() {
            posted.insert(search, line);
        }
    }

    /// Every search's line, in the order of their names, joined by "; ".
    pub fn read(&self) -> String {
        self.reads.fetch_add(1, Ordering::Relaxed);
        match self.posted.lock() {
            Ok(posted) => posted
                .iter()
                .map(|(search, line)| format!("{search}: {line}"))
                .collect::<Vec<_>>()
                .join("; "),
            Err(_) => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_posts_again_only_after_a_read() {
        let status = Status::new();
        let mut seen = status.reads();
        assert!(!status.due(&mut seen), "nobody read yet");
        status.post("count", "at least 3 solutions".into());
        status.post("astar", "no plan under 7 pushes".into());
        assert_eq!(
            status.read(),
            "astar: no plan under 7 pushes; count: at least 3 solutions"
        );
        assert!(status.due(&mut seen));
        assert!(!status.due(&mut seen), "once per read");
        status.post("count", "at least 9 solutions".into());
        assert!(status.read().ends_with("count: at least 9 solutions"));
    }
}
