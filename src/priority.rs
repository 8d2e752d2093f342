//! Lowering a running thread's priority: a search whose work cannot be interrupted (a
//! SAT call) but has become the long shot leaves its core to the searches beside it,
//! and still runs whenever a core is idle. Linux only (a thread's nice value); elsewhere
//! `lower` does nothing.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

/// A thread whose priority another thread may lower; shared by both.
#[derive(Clone, Debug, Default)]
pub struct Courtesy {
    /// The thread's id once it has called `here` (0 before).
    thread: Arc<AtomicI32>,
    lowered: Arc<AtomicBool>,
}

impl Courtesy {
    /// Called on the thread itself, first: from now on `lower` reaches it (and a `lower`
    /// that came before takes effect now).
    pub fn here(&self) {
        self.thread.store(current_thread(), Ordering::Release);
        if self.lowered.load(Ordering::Acquire) {
            self.apply();
        }
    }

    /// Gives the thread the lowest priority: it runs only on a core nobody else wants.
    pub fn lower(&self) {
        self.lowered.store(true, Ordering::Release);
        self.apply();
    }

    /// Whether `lower` was called.
    pub fn is_lowered(&self) -> bool {
        self.lowered.load(Ordering::Acquire)
    }

    fn apply(&self) {
        let thread = self.thread.load(Ordering::Acquire);
        if thread != 0 {
            set_lowest_priority(thread);
        }
    }
}

#[cfg(target_os = "linux")]
fn current_thread() -> i32 {
    // SAFETY: gettid has no preconditions and cannot fail.
    unsafe { libc::gettid() }
}

#[cfg(target_os = "linux")]
fn set_lowest_priority(thread: i32) {
    // On Linux PRIO_PROCESS with a thread id sets that thread's nice value alone. A
    // failure (a thread gone already) leaves it as it was: a courtesy, not a limit.
    // SAFETY: setpriority only reads its arguments.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, thread as libc::id_t, 19);
    }
}

#[cfg(not(target_os = "linux"))]
fn current_thread() -> i32 {
    1
}

#[cfg(not(target_os = "linux"))]
fn set_lowest_priority(_thread: i32) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn nice_of(thread: i32) -> i32 {
        // SAFETY: getpriority only reads its arguments (errno is not needed: a thread
        // alive has a priority, and these are 0 and 19).
        unsafe { libc::getpriority(libc::PRIO_PROCESS, thread as libc::id_t) }
    }

    #[test]
    fn a_lowered_thread_gets_the_lowest_priority_and_no_other_thread_does() {
        let courtesy = Courtesy::default();
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let theirs = courtesy.clone();
        let worker = std::thread::spawn(move || {
            theirs.here();
            tx.send(current_thread()).unwrap();
            done_rx.recv().unwrap();
        });
        let thread = rx.recv().unwrap();
        let (before, mine) = (nice_of(thread), nice_of(current_thread()));
        courtesy.lower();
        assert!(courtesy.is_lowered());
        assert_eq!(nice_of(thread), 19, "from {before}");
        assert_eq!(
            nice_of(current_thread()),
            mine,
            "the caller keeps its priority"
        );
        done_tx.send(()).unwrap();
        worker.join().unwrap();
    }

    #[test]
    fn a_lower_before_the_thread_starts_takes_effect_when_it_does() {
        let courtesy = Courtesy::default();
        courtesy.lower();
        let theirs = courtesy.clone();
        let nice = std::thread::spawn(move || {
            theirs.here();
            nice_of(current_thread())
        })
        .join()
        .unwrap();
        assert_eq!(nice, 19);
    }
}
