//! One item answered by its puzzle's own command: the command's arguments are made from
//! the batch's flags (so a flag means the same here as there), the command writes its
//! `--format json` document to a buffer, and the item's result is that document (for a
//! level or a map, its entry in the file's list). Nothing about a mode is computed here.
//!
//! Times are moved out of the result into a field of their own, so that the results of
//! two runs (one worker or several, one shard or all) compare equal.

use super::collect::Item;
use super::kind::Kind;
use super::Args;
use crate::cli::{Exit, Format};
use clap::FromArgMatches;
use serde_json::{json, Map, Value};
use std::time::Instant;

/// What became of one item: its JSON line, less the times.
#[derive(Clone, Debug)]
pub struct Record {
    pub item: Item,
    pub exit: Exit,
    /// `solved`, `unique`, `not-unique`, `no-solution`, `gave-up`, `not-proven`,
    /// `interrupted`, `error` or `internal-error`.
    pub status: &'static str,
    /// The command's JSON answer, or the error's message.
    pub result: Result<Value, String>,
    /// Wall time of the item, seconds.
    pub seconds: f64,
    /// The times the result held, by their JSON pointer in it.
    pub times: Map<String, Value>,
}

impl Record {
    /// The JSON line: index, item, path, puzzle, number, status, exit, result or error,
    /// then `times` (the only field that differs between two runs).
    pub fn to_json(&self) -> Value {
        let mut line = json!({
            "index": self.item.index,
            "item": self.item.name(),
            "path": self.item.path.display().to_string(),
            "puzzle": self.item.kind.as_ref().map(|k| k.name()).ok(),
            "number": self.item.number,
            "status": self.status,
            "exit": self.exit.code(),
        });
        match &self.result {
            Ok(result) => line["result"] = result.clone(),
            Err(message) => line["error"] = json!(message),
        }
        let mut times = self.times.clone();
        times.insert("wall".into(), json!(self.seconds));
        line["times"] = Value::Object(times);
        line
    }
}

/// Answers `item` as its puzzle's command would, with the batch's flags.
pub fn answer(item: &Item, args: &Args) -> Record {
    let began = Instant::now();
    let outcome = match &item.kind {
        Ok(kind) => run(*kind, item, args),
        Err(message) => Err(anyhow::anyhow!("{message}")),
    };
    let seconds = began.elapsed().as_secs_f64();
    let (exit, result) = match outcome {
        Ok((exit, mut value)) => {
            // Stopped by Ctrl-C, not by its time limit: the item says so.
            let exit = if exit == Exit::GaveUp && crate::limits::interrupted() {
                Exit::Interrupted
            } else {
                exit
            };
            let mut times = Map::new();
            take_times(&mut value, String::new(), &mut times);
            let status = status(exit, &value);
            return Record {
                item: item.clone(),
                exit,
                status,
                result: Ok(value),
                seconds,
                times,
            };
        }
        Err(error) => (Exit::of_error(&error), Err(format!("{error:#}"))),
    };
    Record {
        item: item.clone(),
        exit,
        status: if exit == Exit::Internal {
            "internal-error"
        } else {
            "error"
        },
        result,
        seconds,
        times: Map::new(),
    }
}

/// Runs the puzzle's command on the item: its exit status and JSON answer.
fn run(kind: Kind, item: &Item, args: &Args) -> anyhow::Result<(Exit, Value)> {
    let path = item.path.as_os_str();
    let mut out = Vec::new();
    let exit = match kind {
        Kind::StarBattle => {
            let mut a: crate::star_battle::cli::Args = defaults(kind, &[path])?;
            a.stars = args.stars;
            a.rule = args.rule;
            a.modes = args.modes.clone();
            (a.output, a.limits, a.card, a.solver) = shared(args);
            crate::star_battle::cli::run_to(&a, &mut out)?
        }
        Kind::Battleship => {
            let mut a: crate::battleship::cli::Args = defaults(kind, &[path])?;
            a.modes = args.modes.clone();
            (a.output, a.limits, a.card, a.solver) = shared(args);
            crate::battleship::cli::run_to(&a, &mut out)?
        }
        Kind::FullBoard => {
            let mut a: crate::full_board::cli::Args = defaults(kind, &[path])?;
            a.map = item.number;
            a.mode = args.modes.clone();
            (a.output, a.limits, a.card, a.solver) = shared(args);
            crate::full_board::cli::run_to(&a, &mut out)?
        }
        Kind::Sokoban => {
            if args.modes.any() {
                anyhow::bail!(
                    "{}: a Sokoban answer is a plan: --all, --count, --unique, --determined, \
                     --repair and --limit do not apply",
                    item.name()
                );
            }
            let mut a: crate::sokoban::cli::Args = defaults(kind, &[path])?;
            a.level = item.number;
            if let Some(method) = args.method {
                a.method = method;
            }
            (a.output, a.limits, _, a.solver) = shared(args);
            crate::sokoban::cli::run_to(&a, &mut out)?
        }
        Kind::Cnf => {
            let mut a: crate::count_cnf::Args = defaults(kind, &[path])?;
            (a.output, a.limits, _, a.solver) = shared(args);
            crate::count_cnf::run_to(&a, &mut out)?
        }
    };
    let document: Value = serde_json::from_slice(&out).map_err(|e| {
        crate::error::InternalError::new(format!(
            "{}: the {} command's JSON does not read back: {e}",
            item.name(),
            kind.name()
        ))
    })?;
    // A file of several answers with a list; the item is its one entry.
    let value = match kind {
        Kind::Sokoban => document.get(0).cloned(),
        Kind::FullBoard => document.get("maps").and_then(|m| m.get(0)).cloned(),
        _ => Some(document),
    };
    let value = value.ok_or_else(|| {
        crate::error::InternalError::new(format!("{}: the answer is empty", item.name()))
    })?;
    Ok((exit, value))
}

/// The flag groups every puzzle command shares, from the batch's, with JSON output.
fn shared(
    args: &Args,
) -> (
    crate::cli::OutputArgs,
    crate::cli::LimitArgs,
    crate::cli::CardArgs,
    crate::cli::SolverArgs,
) {
    let mut output = args.output.clone();
    output.format = Format::Json;
    (
        output,
        args.limits.clone(),
        args.card.clone(),
        args.solver.clone(),
    )
}

/// The command's arguments with every default, as `gridsat KIND ARGS...` would have them.
fn defaults<A: clap::Args + FromArgMatches>(
    kind: Kind,
    positional: &[&std::ffi::OsStr],
) -> anyhow::Result<A> {
    let command = A::augment_args(clap::Command::new(kind.name()));
    let argv = std::iter::once(std::ffi::OsStr::new(kind.name())).chain(positional.iter().copied());
    let matches = command.try_get_matches_from(argv)?;
    Ok(A::from_arg_matches(&matches)?)
}

/// The item's status word, from the command's exit status and (for `--unique`, whose
/// "no" covers none and several) its answer.
fn status(exit: Exit, value: &Value) -> &'static str {
    let verdict = value
        .get("verdict")
        .or_else(|| value.get("unique"))
        .and_then(Value::as_str);
    match (exit, verdict) {
        (Exit::Solved, Some("unique")) => "unique",
        (Exit::NoAnswer, Some("multiple")) => "not-unique",
        (Exit::Solved, _) => "solved",
        (Exit::NoAnswer, _) => "no-solution",
        (Exit::GaveUp, _) => "gave-up",
        (Exit::NotProven, _) => "not-proven",
        (Exit::Interrupted, _) => "interrupted",
        (Exit::BadInput, _) => "error",
        (Exit::Internal, _) => "internal-error",
    }
}

/// Moves every time (a key `seconds` or ending in `_seconds`) out of `value` into
/// `times`, keyed by its JSON pointer.
fn take_times(value: &mut Value, at: String, times: &mut Map<String, Value>) {
    match value {
        Value::Object(fields) => {
            let timed: Vec<String> = fields
                .keys()
                .filter(|k| *k == "seconds" || k.ends_with("_seconds"))
                .cloned()
                .collect();
            for key in timed {
                if let Some(time) = fields.remove(&key) {
                    times.insert(format!("{at}/{key}"), time);
                }
            }
            for (key, inner) in fields.iter_mut() {
                take_times(inner, format!("{at}/{key}"), times);
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter_mut().enumerate() {
                take_times(inner, format!("{at}/{i}"), times);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_move_out_of_the_result() {
        let mut value = json!({"run": {"seconds": 1.5, "push_seconds": 0.5, "pushes": 8},
                               "maps": [{"seconds": 2.0}]});
        let mut times = Map::new();
        take_times(&mut value, String::new(), &mut times);
        assert_eq!(value, json!({"run": {"pushes": 8}, "maps": [{}]}));
        assert_eq!(
            Value::Object(times),
            json!({"/run/seconds": 1.5, "/run/push_seconds": 0.5, "/maps/0/seconds": 2.0})
        );
    }
}
