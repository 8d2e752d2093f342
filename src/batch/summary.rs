//! The table at the end of a batch: how many items ended how, the total time and the
//! slowest items. Built from the JSON lines (`status`, `item`, `times.wall`), so that
//! `--merge` of several shards' lines tells the same as one run would.

use crate::cli::Exit;
use serde_json::Value;
use std::io::{self, Write};

/// The statuses in the order the table lists them, with their headings.
const ROWS: [(&str, &str); 9] = [
    ("solved", "solved"),
    ("unique", "unique"),
    ("not-unique", "not unique"),
    ("no-solution", "no solution"),
    ("gave-up", "gave up"),
    ("not-proven", "not proven optimal"),
    ("interrupted", "interrupted"),
    ("error", "errors"),
    ("internal-error", "internal errors"),
];

/// How many slowest items the table names.
const SLOWEST: usize = 5;

#[derive(Debug, Default)]
pub struct Summary {
    counts: [usize; ROWS.len()],
    /// (seconds, item) of every item, for the slowest.
    times: Vec<(f64, String)>,
    exit: Option<Exit>,
    /// Items of the collection not answered (Ctrl-C came first).
    pub skipped: usize,
}

impl Summary {
    /// Counts one JSON line.
    pub fn add(&mut self, line: &Value) {
        let status = line["status"].as_str().unwrap_or("error");
        let row = ROWS.iter().position(|(s, _)| *s == status).unwrap_or(7);
        self.counts[row] += 1;
        let exit = exit_of(status);
        self.exit = Some(self.exit.map_or(exit, |e| e.and(exit)));
        let seconds = line["times"]["wall"].as_f64().unwrap_or(0.0);
        let item = line["item"].as_str().unwrap_or("?").to_string();
        self.times.push((seconds, item));
    }

    /// The batch's exit status: its worst item's (`Exit::and`); solved when empty.
    pub fn exit(&self) -> Exit {
        self.exit.unwrap_or(Exit::Solved)
    }

    pub fn write(&self, wall: Option<f64>, out: &mut impl Write) -> io::Result<()> {
        let items: usize = self.counts.iter().sum();
        let busy: f64 = self.times.iter().map(|(s, _)| s).sum();
        write!(out, "batch: {items} items")?;
        if self.skipped > 0 {
            write!(out, " ({} not started: interrupted)", self.skipped)?;
        }
        match wall {
            Some(wall) => writeln!(out, ", {wall:.2} s wall, {busy:.2} s of work")?,
            None => writeln!(out, ", {busy:.2} s of work")?,
        }
        for ((status, heading), count) in ROWS.iter().zip(self.counts) {
            // The rarer outcomes only when they happened.
            let rare = matches!(*status, "not-proven" | "interrupted" | "internal-error");
            if count > 0 || !rare {
                writeln!(out, "  {heading:<20} {count:>6}")?;
            }
        }
        let mut slowest = self.times.clone();
        slowest.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        for (i, (seconds, item)) in slowest.iter().take(SLOWEST).enumerate() {
            let heading = if i == 0 { "slowest" } else { "" };
            writeln!(out, "  {heading:<12} {seconds:>9.2} s  {item}")?;
        }
        Ok(())
    }
}

/// The exit status a status word stands for.
pub fn exit_of(status: &str) -> Exit {
    match status {
        "solved" | "unique" => Exit::Solved,
        "not-unique" | "no-solution" => Exit::NoAnswer,
        "gave-up" => Exit::GaveUp,
        "not-proven" => Exit::NotProven,
        "interrupted" => Exit::Interrupted,
        "internal-error" => Exit::Internal,
        _ => Exit::BadInput,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_table_counts_statuses_and_names_the_slowest() {
        let mut summary = Summary::default();
        for (status, wall, item) in [
            ("solved", 0.5, "a"),
            ("error", 0.0, "b"),
            ("unique", 2.0, "c"),
        ] {
            summary.add(&json!({"status": status, "item": item, "times": {"wall": wall}}));
        }
        assert_eq!(summary.exit(), Exit::BadInput);
        let mut text = Vec::new();
        summary.write(None, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.starts_with("batch: 3 items, 2.50 s of work\n"),
            "{text}"
        );
        assert!(text.contains("  solved                    1\n"), "{text}");
        assert!(text.contains("  errors                    1\n"), "{text}");
        assert!(text.contains("  slowest           2.00 s  c\n"), "{text}");
    }
}
