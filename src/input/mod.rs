//! Reading puzzle files, and errors that name the file, the line and the problem.
//!
//! Every parser is a grammar written with the pieces of `grammar`; what it finds wrong
//! comes back as a `ParseError` (a line and a message), which `InputError` prints as
//! `FILE:LINE: problem`.

pub mod grammar;
pub mod url;

use std::fmt;
use std::path::Path;

/// A problem a parser found in puzzle text, at a 1-based line. (A parser may say 0 when
/// the text as a whole is at fault, e.g. it is empty; it is shown as line 1, so that
/// every message reads `FILE:LINE: problem`.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

impl ParseError {
    pub fn new(line: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

/// A `ParseError` with the file it came from: prints as `FILE:LINE: problem`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", display_in_file(.file, .error))]
pub struct InputError {
    pub file: String,
    pub error: ParseError,
}

fn display_in_file(file: &str, error: &ParseError) -> String {
    format!("{file}:{}: {}", error.line.max(1), error.message)
}

impl InputError {
    pub fn new(file: &Path, error: ParseError) -> InputError {
        InputError {
            file: file.display().to_string(),
            error,
        }
    }
}

/// Reads a puzzle file as text. Files larger than `MAX_INPUT_BYTES` are refused before
/// they are read, so a wrong path to a huge file cannot exhaust memory.
pub fn read_puzzle_file(path: &Path) -> anyhow::Result<String> {
    use anyhow::Context;
    let meta =
        std::fs::metadata(path).with_context(|| format!("{}: cannot open", path.display()))?;
    if meta.len() > MAX_INPUT_BYTES {
        anyhow::bail!(
            "{}: file is {} bytes; puzzle files are limited to {} bytes",
            path.display(),
            meta.len(),
            MAX_INPUT_BYTES
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    Ok(decode_text(path, bytes)?)
}

/// The text of a puzzle file's bytes, or an error naming the first line that is not
/// UTF-8.
pub fn decode_text(path: &Path, bytes: Vec<u8>) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| {
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        InputError::new(
            path,
            ParseError::new(line, "the file is not valid UTF-8 text"),
        )
    })
}

/// 64 MiB: far beyond any real puzzle, small enough to hold in memory safely.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;
