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

/// Reads a puzzle file as text. Files larger than `MAX_INPUT_BYTES` are refused: by
/// their reported size before anything is read, and while reading for what reports no
/// size (`/dev/zero`, a FIFO, a pipe), so a wrong path cannot exhaust memory.
pub fn read_puzzle_file(path: &Path) -> anyhow::Result<String> {
    use anyhow::Context;
    let meta =
        std::fs::metadata(path).with_context(|| format!("{}: cannot open", path.display()))?;
    if meta.is_dir() {
        anyhow::bail!("{}: is a directory, not a puzzle file", path.display());
    }
    if meta.len() > MAX_INPUT_BYTES {
        anyhow::bail!(
            "{}: file is {} bytes; puzzle files are limited to {} bytes",
            path.display(),
            meta.len(),
            MAX_INPUT_BYTES
        );
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let bytes = read_bounded(file).with_context(|| format!("{}: cannot read", path.display()))?;
    Ok(decode_text(path, bytes)?)
}

/// Everything `source` holds, refused once it passes `MAX_INPUT_BYTES` (at most one byte
/// more is ever held).
pub fn read_bounded(source: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    source.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("more than {MAX_INPUT_BYTES} bytes; puzzle files are limited to that"),
        ));
    }
    Ok(bytes)
}

/// The text of a puzzle file's bytes, or an error naming the first line that is not
/// UTF-8. A leading byte-order mark (U+FEFF, which Windows editors write) is dropped:
/// it is not part of the puzzle.
pub fn decode_text(path: &Path, mut bytes: Vec<u8>) -> Result<String, InputError> {
    const BOM: &[u8] = "\u{feff}".as_bytes();
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
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

/// A character as a message shows it: printable ones as they are, invisible ones
/// (controls, spaces other than ' ', a byte-order mark) escaped with their code point,
/// so that `'\u{feff}board'` is never shown as a bare `'board'`.
pub fn visible(c: char) -> String {
    if c == ' ' {
        "' ' (space)".to_string()
    } else if is_invisible(c) {
        format!("{:?} (U+{:04X})", c, c as u32)
    } else {
        format!("'{c}'")
    }
}

/// A character a terminal shows as nothing or as a plain blank: controls, blanks other
/// than the space, zero-width characters and the byte-order mark.
pub fn is_invisible(c: char) -> bool {
    c != ' '
        && (c.is_control()
            || c.is_whitespace()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}'))
}

/// 64 MiB: far beyond any real puzzle, small enough to hold in memory safely.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_leading_byte_order_mark_is_not_part_of_the_text() {
        let path = Path::new("x.txt");
        let text = decode_text(path, "\u{feff}4 3\n".as_bytes().to_vec()).unwrap();
        assert_eq!(text, "4 3\n");
        // Only a leading one: elsewhere it is a character like any other.
        let text = decode_text(path, "a\u{feff}\n".as_bytes().to_vec()).unwrap();
        assert_eq!(text, "a\u{feff}\n");
    }

    #[test]
    fn reading_stops_past_the_limit_whatever_the_source_reports() {
        let endless = std::io::repeat(0).take(MAX_INPUT_BYTES + 10);
        let e = read_bounded(endless).unwrap_err();
        assert!(e.to_string().contains("limited"), "{e}");
        assert_eq!(read_bounded(&b"abc"[..]).unwrap(), b"abc");
    }

    #[test]
    fn invisible_characters_are_shown_escaped() {
        assert_eq!(visible('a'), "'a'");
        assert_eq!(visible(' '), "' ' (space)");
        assert_eq!(visible('\u{feff}'), "'\\u{feff}' (U+FEFF)");
        assert_eq!(visible('\t'), "'\\t' (U+0009)");
    }
}
