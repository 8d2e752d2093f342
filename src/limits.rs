//! Time limits and cancellation, the same for every puzzle and every search.
//!
//! A `Budget` is what a search asks "must I stop?": a deadline (from `--timeout`) and
//! cancel flags (set by whoever stops waiting for the search, or by a portfolio when
//! another search won). Searches poll `expired()` between units of work.
//!
//! Ctrl-C (SIGINT) is one more cancel flag, process-wide: `stop_on_ctrl_c` installs the
//! handler, every budget reads the flag (`interrupted`), so every search stops as at a
//! deadline and the command prints what it proved; `Exit::report` then says 130.
//!
//! A SAT call cannot be polled (varisat has no interrupt), so `wait_for` runs a piece of
//! work on its own thread and stops waiting at the deadline: the caller answers with what
//! was proven so far and the thread is abandoned; it ends with its current solver call,
//! or with the process.

use crate::progress::Status;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// When a search must stop: a deadline and any number of cancel flags; and where it may
/// post what it has proven so far (`status`), since every long search polls its budget.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    deadline: Option<Instant>,
    /// This budget's own flag first, then its parents' (see `child`).
    flags: Vec<Arc<AtomicBool>>,
    status: Option<Arc<Status>>,
}

impl Budget {
    /// No deadline; stops only when cancelled.
    pub fn unlimited() -> Budget {
        Budget {
            deadline: None,
            flags: vec![Arc::new(AtomicBool::new(false))],
            status: None,
        }
    }

    /// Stops at `deadline` (none: only when cancelled).
    pub fn until(deadline: Option<Instant>) -> Budget {
        Budget {
            deadline,
            ..Budget::unlimited()
        }
    }

    /// The same budget, whose searches post their progress on `status`.
    pub fn with_status(mut self, status: Arc<Status>) -> Budget {
        self.status = Some(status);
        self
    }

    /// Where searches on this budget post their progress, when someone watches.
    pub fn status(&self) -> Option<&Status> {
        self.status.as_deref()
    }

    /// Stops `timeout` from now (none: only when cancelled).
    pub fn starting_now(timeout: Option<Duration>) -> Budget {
        Budget::until(timeout.map(|t| Instant::now() + t))
    }

    /// A budget with the same deadline and a cancel flag of its own: cancelling the
    /// child leaves this budget running, cancelling this budget stops the child too.
    pub fn child(&self) -> Budget {
        let mut flags = vec![Arc::new(AtomicBool::new(false))];
        flags.extend(self.flags.iter().cloned());
        Budget {
            deadline: self.deadline,
            flags,
            status: self.status.clone(),
        }
    }

    /// The same flags with an earlier deadline (the earlier of the two).
    pub fn with_deadline(&self, deadline: Instant) -> Budget {
        Budget {
            deadline: Some(self.deadline.map_or(deadline, |d| d.min(deadline))),
            flags: self.flags.clone(),
            status: self.status.clone(),
        }
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Time left before the deadline (`None`: no deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Tells every search on this budget (and its children) to stop.
    pub fn cancel(&self) {
        if let Some(own) = self.flags.first() {
            own.store(true, Ordering::Relaxed);
        }
    }

    pub fn is_cancelled(&self) -> bool {
        interrupted() || self.flags.iter().any(|f| f.load(Ordering::Relaxed))
    }

    /// True once the deadline has passed or the budget was cancelled.
    pub fn expired(&self) -> bool {
        self.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Set by Ctrl-C (SIGINT): every budget is cancelled.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// True once the user pressed Ctrl-C (or `interrupt` was called).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Cancels every budget of the process, as Ctrl-C does.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Makes Ctrl-C (SIGINT) cancel every budget, so that a command prints what was proven
/// and ends with status 130; a second Ctrl-C ends the process at once (still 130).
/// Call it once, at the start of `main`.
pub fn stop_on_ctrl_c() {
    // A handler that cannot be installed (already set, say, by an embedding program)
    // leaves Ctrl-C with its default effect: the process ends.
    let _ = ctrlc::set_handler(|| {
        if interrupted() {
            std::process::exit(130);
        }
        interrupt();
    });
}

/// How long `wait_for` waits past the deadline for work that polls its budget to come
/// back with its own partial answer before it stops waiting.
pub const GRACE: Duration = Duration::from_millis(300);

/// Runs `work` on a thread of its own and waits for it until the budget's deadline.
/// At the deadline the budget is cancelled, and work that polls it has `GRACE` to
/// return; after that (or at once, when the budget is cancelled from outside) `None`
/// is returned and the thread is left to finish on its own.
pub fn wait_for<T: Send + 'static>(
    budget: &Budget,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("gridsat-work".into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .expect("cannot start a worker thread");
    loop {
        let wait = match budget.remaining() {
            None => Duration::from_millis(100),
            Some(left) => left.min(Duration::from_millis(100)),
        };
        match rx.recv_timeout(wait) {
            Ok(result) => return Some(result),
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(mpsc::RecvTimeoutError::Timeout) if budget.expired() => {
                budget.cancel();
                return rx.recv_timeout(GRACE).ok();
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

/// Parses a `--timeout` value: a finite number of seconds greater than zero and at
/// most a year (so that `Instant + timeout` cannot overflow).
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!(
            "'{text}': the timeout must be a finite number of seconds above 0"
        ));
    }
    if seconds > MAX_TIMEOUT_SECONDS {
        return Err(format!(
            "'{text}': the timeout is at most {MAX_TIMEOUT_SECONDS} seconds (a year)"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

pub const MAX_TIMEOUT_SECONDS: f64 = 366.0 * 24.0 * 3600.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_stops_with_its_parent_but_not_the_other_way() {
        let parent = Budget::unlimited();
        let child = parent.child();
        child.cancel();
        assert!(child.expired());
        assert!(!parent.expired());
        let other = parent.child();
        parent.cancel();
        assert!(other.expired());
    }

    #[test]
    fn wait_for_returns_the_work_or_gives_up_at_the_deadline() {
        let budget = Budget::starting_now(Some(Duration::from_millis(50)));
        assert_eq!(wait_for(&budget, || 7), Some(7));
        // Work that polls its budget comes back within the grace period.
        let polling = budget.clone();
        let answer = wait_for(&budget, move || {
            while !polling.expired() {
                std::thread::sleep(Duration::from_millis(1));
            }
            "stopped"
        });
        assert_eq!(answer, Some("stopped"));
        // Work that never polls is abandoned.
        let budget = Budget::starting_now(Some(Duration::from_millis(20)));
        let began = Instant::now();
        let answer = wait_for(&budget, || std::thread::sleep(Duration::from_secs(30)));
        assert_eq!(answer, None);
        assert!(began.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn timeouts_are_finite_positive_numbers() {
        assert_eq!(parse_timeout("1.5"), Ok(Duration::from_millis(1500)));
        for bad in ["0", "-5", "NaN", "inf", "1e20", "abc", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }
}
