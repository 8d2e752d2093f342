//! `gridsat batch --merge FILE...`: the JSON lines of several batches over one
//! collection (its shards, or a run resumed after Ctrl-C) as one: sorted by index, each
//! item once (the first line met for it), then the summary of them all.

use super::Printer;
use crate::cli::{Exit, Format};
use crate::input::read_puzzle_file;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

pub fn run(files: &[PathBuf], format: Format) -> anyhow::Result<Exit> {
    let mut lines: BTreeMap<u64, Value> = BTreeMap::new();
    for file in files {
        let text = read_puzzle_file(file)?;
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let value: Value = serde_json::from_str(line).map_err(|e| {
                anyhow::anyhow!(
                    "{}:{}: not a batch's JSON line: {e}",
                    file.display(),
                    number + 1
                )
            })?;
            let Some(index) = value.get("index").and_then(Value::as_u64) else {
                anyhow::bail!(
                    "{}:{}: a batch's JSON line has an \"index\"",
                    file.display(),
                    number + 1
                );
            };
            lines.entry(index).or_insert(value);
        }
    }
    let mut printer = Printer {
        out: std::io::BufWriter::new(std::io::stdout()),
        format,
        summary: Default::default(),
        failure: None,
    };
    for line in lines.values() {
        printer.print(line);
    }
    if let Some(error) = printer.failure.take() {
        return Err(error.into());
    }
    printer.finish(None)
}
