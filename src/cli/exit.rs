//! The exit status of every command, chosen here and nowhere else.
//!
//! A command returns the `Exit` its answer calls for (solved, no answer, gave up) or an
//! error; `Exit::of_error` tells a bug caught by an independent check (`InternalError`)
//! from bad input or usage, and a reader that went away (`| head`) from both.

use crate::error::InternalError;
use std::process::ExitCode;

/// What a command's answer amounts to. The numbers are the documented exit statuses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exit {
    /// Solved (with `--unique`: exactly one solution).
    Solved,
    /// No solution, proven unsolvable, or (with `--unique`) not unique.
    NoAnswer,
    /// Bad input or usage: the message names the file, the line and the problem.
    BadInput,
    /// An answer failed gridsat's own independent check: a bug, never expected.
    Internal,
    /// A time or size limit stopped the work; what was proven so far was printed.
    GaveUp,
    /// An answer, checked, but not proven the best asked for (a Sokoban plan without a
    /// proof of the fewest pushes); the bound proven was printed beside it.
    NotProven,
    /// Ctrl-C (SIGINT) stopped the work; what was proven so far was printed.
    Interrupted,
}

impl Exit {
    pub fn code(self) -> u8 {
        match self {
            Exit::Solved => 0,
            Exit::NoAnswer => 1,
            Exit::BadInput => 2,
            Exit::Internal => 3,
            Exit::GaveUp => 4,
            Exit::NotProven => 5,
            Exit::Interrupted => 130,
        }
    }

    /// Solved when `answered`, else no answer.
    pub fn answered(answered: bool) -> Exit {
        if answered {
            Exit::Solved
        } else {
            Exit::NoAnswer
        }
    }

    /// The status of a file of several puzzles (levels, maps) from theirs: an internal
    /// error outranks everything, then an interruption (the rest was never tried), then giving up (the answer is incomplete), then an
    /// answer not proven best (its proof is incomplete), then no answer for some item;
    /// solved only when every item was.
    pub fn and(self, other: Exit) -> Exit {
        let rank = |e: Exit| match e {
            Exit::Solved => 0,
            Exit::NoAnswer => 1,
            Exit::NotProven => 2,
            Exit::BadInput => 3,
            Exit::GaveUp => 4,
            Exit::Interrupted => 5,
            Exit::Internal => 6,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }

    /// The status of a finished command: its own, or for an error, the error's (after
    /// printing it; a reader that went away is no error), and interrupted (130) when
    /// Ctrl-C stopped it. Every command ends here.
    pub fn report(result: anyhow::Result<Exit>) -> Exit {
        let exit = match result {
            Ok(exit) => exit,
            Err(error) if Exit::is_broken_pipe(&error) => Exit::Solved,
            Err(error) => {
                eprintln!("gridsat: {error:#}");
                Exit::of_error(&error)
            }
        };
        if crate::limits::interrupted() {
            exit.and(Exit::Interrupted)
        } else {
            exit
        }
    }

    /// The status for a command that failed with `error` (after its message was
    /// printed): 3 for a bug caught by a check, 2 for everything else.
    pub fn of_error(error: &anyhow::Error) -> Exit {
        if error
            .chain()
            .any(|e| e.downcast_ref::<InternalError>().is_some())
        {
            Exit::Internal
        } else {
            Exit::BadInput
        }
    }

    /// A reader that stopped early (`| head`) is not an error worth a message.
    pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
        error.chain().any(|cause| {
            cause
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        })
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_as_good_as_its_worst_item() {
        use Exit::*;
        assert_eq!(Solved.and(Solved), Solved);
        assert_eq!(Solved.and(NoAnswer), NoAnswer);
        assert_eq!(NoAnswer.and(GaveUp), GaveUp);
        assert_eq!(GaveUp.and(NoAnswer), GaveUp);
        assert_eq!(GaveUp.and(Internal), Internal);
        assert_eq!(NotProven.and(NoAnswer), NotProven);
        assert_eq!(Solved.and(NotProven), NotProven);
        assert_eq!(NotProven.and(GaveUp), GaveUp);
        assert_eq!(GaveUp.and(Interrupted), Interrupted);
        assert_eq!(Interrupted.and(Solved), Interrupted);
        assert_eq!(Interrupted.and(Internal), Internal);
        assert_eq!(Interrupted.code(), 130);
    }

    #[test]
    fn internal_errors_are_told_from_bad_input_through_context() {
        use anyhow::Context;
        let bug: anyhow::Result<()> = Err(InternalError::new("replay failed").into());
        let bug = bug.context("level 3").unwrap_err();
        assert_eq!(Exit::of_error(&bug), Exit::Internal);
        assert_eq!(Exit::of_error(&anyhow::anyhow!("bad file")), Exit::BadInput);
    }
}
