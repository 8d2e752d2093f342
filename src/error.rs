//! The error every command maps to exit status 3: gridsat produced an answer that its
//! own independent check rejects. Never expected; always a bug to report.

/// A bug caught by an independent check (a solution the rule checker rejects, a plan the
/// replay refuses). `main` turns it into exit status 3.
#[derive(Debug, thiserror::Error)]
#[error("internal error: {0} (a bug in gridsat; please report it with the input)")]
pub struct InternalError(pub String);

impl InternalError {
    pub fn new(message: impl Into<String>) -> InternalError {
        InternalError(message.into())
    }
}
