//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

pub mod mutate;
pub mod render;
pub mod sokoban;
pub mod zones;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn gridsat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridsat"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the gridsat binary runs")
}

/// `gridsat ARGS` with `stdin` as its standard input.
pub fn gridsat_with_stdin(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridsat"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gridsat binary runs");
    // A command that does not read its input closes the pipe early; that is its answer.
    let _ = child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(stdin.as_bytes());
    child.wait_with_output().expect("the gridsat binary ends")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// A temporary file holding `text`, removed when dropped.
pub fn write_temp(text: &str) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(file.path(), text).expect("the temporary file is writable");
    file
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A small deterministic generator (xorshift64*), so random tests need no extra crate
/// and every failure can be replayed from its seed. `Rng(state)` starts from a raw,
/// non-zero state; `Rng::new(seed)` from any seed.
pub struct Rng(pub u64);

impl Rng {
    /// A generator whose sequence is spread from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}
