//! Seeded mutants of real puzzle files, for the parsers' robustness tests: bit flips,
//! byte insertions, line deletions and duplications, and number swaps. Every parser
//! must meet each mutant with an answer or a `FILE:LINE: problem` error, never a panic.

use super::Rng;

/// Numbers that break assumptions: zero, huge, just past a grid side, negative.
const ODD_NUMBERS: [&str; 8] = [
    "0",
    "1",
    "-1",
    "61",
    "513",
    "4294967296",
    "99999999999999999999999",
    "007",
];

/// `count` mutants of `text`, the same for the same `seed`. Bytes, not text: a bit flip
/// may leave invalid UTF-8, which the reader must refuse cleanly too.
pub fn mutants(text: &str, count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut bytes = text.as_bytes().to_vec();
            // One to three mutations on top of each other.
            for _ in 0..1 + rng.below(3) {
                bytes = mutate_once(&bytes, &mut rng);
            }
            bytes
        })
        .collect()
}

fn mutate_once(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if out.is_empty() {
        out.push(b'0' + rng.below(10) as u8);
        return out;
    }
    match rng.below(6) {
        0 => {
            let i = rng.below(out.len());
            out[i] ^= 1 << rng.below(8);
        }
        1 => {
            const BYTES: &[u8] = b" \n\r\t0123456789-?#@$.*+<>^vXo_;:abcxyz\xe2\x96\x93\xff";
            let i = rng.below(out.len() + 1);
            out.insert(i, BYTES[rng.below(BYTES.len())]);
        }
        2 | 3 => {
            let lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
            let k = rng.below(lines.len());
            let mut kept: Vec<&[u8]> = lines.clone();
            if rng.chance(60) {
                kept.remove(k);
            } else {
                kept.insert(k, lines[k]);
            }
            out = kept.join(&b'\n');
        }
        _ => {
            // Replace one run of digits by an odd number or a nearby one.
            let runs: Vec<(usize, usize)> = digit_runs(&out);
            if let Some(&(start, end)) = runs.get(rng.below(runs.len().max(1))) {
                let replacement: Vec<u8> = if rng.chance(50) {
                    ODD_NUMBERS[rng.below(ODD_NUMBERS.len())]
                        .as_bytes()
                        .to_vec()
                } else {
                    let value: u64 = std::str::from_utf8(&out[start..end])
                        .ok()
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(0);
                    (value + 1 + rng.below(3) as u64).to_string().into_bytes()
                };
                out.splice(start..end, replacement);
            }
        }
    }
    out
}

fn digit_runs(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    runs
}

/// Feeds every mutant of every corpus text to `parse` (which reads bytes as a file
/// would, UTF-8 check included) and checks that it never panics and that every error
/// message reads `NAME:LINE: problem` with a line inside the file. Returns how many
/// mutants were accepted and how many refused.
pub fn survives<T, E: std::fmt::Display>(
    name: &str,
    corpus: &[String],
    per_text: usize,
    seed: u64,
    parse: impl Fn(Vec<u8>) -> Result<T, E>,
) -> (usize, usize) {
    let (mut accepted, mut refused) = (0, 0);
    for (k, text) in corpus.iter().enumerate() {
        for (m, bytes) in mutants(text, per_text, seed ^ (k as u64) << 32)
            .into_iter()
            .enumerate()
        {
            let lines = bytes.split(|&b| b == b'\n').count();
            let shown = String::from_utf8_lossy(&bytes).into_owned();
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parse(bytes)));
            match outcome {
                Err(_) => panic!("{name}: mutant {m} of text {k} panicked:\n{shown}"),
                Ok(Ok(_)) => accepted += 1,
                Ok(Err(e)) => {
                    refused += 1;
                    let message = e.to_string();
                    let line = message
                        .strip_prefix(name)
                        .and_then(|rest| rest.strip_prefix(':'))
                        .and_then(|rest| rest.split(':').next())
                        .and_then(|n| n.parse::<usize>().ok());
                    assert!(
                        line.is_some_and(|l| (1..=lines + 1).contains(&l)),
                        "{name}: mutant {m} of text {k}: the error '{message}' does not read \
                         {name}:LINE: (the file has {lines} lines):\n{shown}"
                    );
                }
            }
        }
    }
    (accepted, refused)
}

/// Runs `gridsat` on `per_text` mutants of each corpus text, written to a file whose path
/// `args` places among the arguments (with a short `--timeout`, say). Every exit status
/// must be a documented one (0, 1, 2 or 4), and every exit 2 must come with a message
/// `gridsat: FILE:LINE: problem`.
pub fn binary_survives(
    corpus: &[String],
    per_text: usize,
    seed: u64,
    args: impl Fn(&str) -> Vec<String>,
) {
    for (k, text) in corpus.iter().enumerate() {
        for bytes in mutants(text, per_text, seed + k as u64) {
            let file = super::write_temp("");
            std::fs::write(file.path(), &bytes).expect("the mutant is written");
            let path = file.path().to_str().expect("a UTF-8 temporary path");
            let args = args(path);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = super::gridsat(&args);
            let code = out.status.code();
            let err = super::stderr(&out);
            let shown = String::from_utf8_lossy(&bytes);
            assert!(
                matches!(code, Some(0 | 1 | 2 | 4)),
                "{args:?}: exit {code:?} on:\n{shown}\n{err}"
            );
            if code == Some(2) {
                let located = err
                    .strip_prefix(&format!("gridsat: {path}:"))
                    .and_then(|rest| rest.split(':').next())
                    .is_some_and(|line| line.parse::<usize>().is_ok());
                assert!(located, "{args:?}: not FILE:LINE: {err}\non:\n{shown}");
            }
        }
    }
}
