//! What is reported about one level: the outcome of its search, checked by the
//! independent replay before anything is printed, as text (one block per level) or as
//! one JSON object.

use super::check::replay;
use super::parse::LevelEntry;
use super::plan::to_lurd;
use super::render::board_lines;
use super::search::astar::SearchStats;
use super::search::moves::MovesReport;
use super::search::quick::QuickReport;
use super::search::sat::EncodingSize;
use super::Outcome;
use crate::cli::Exit;
use crate::error::InternalError;
use std::io::{self, Write};

/// Everything reported about one level.
#[derive(Debug, serde::Serialize)]
pub struct LevelReport {
    pub level: usize,
    pub title: Option<String>,
    /// "solved" (proven push-optimal), "not-proven-optimal" (a plan, with the bound
    /// proven in `no_plan_below`), "unsolvable" or "gave-up".
    pub outcome: &'static str,
    pub method: &'static str,
    /// The search that proved the outcome (for the portfolio, the one that won).
    pub proved_by: Option<&'static str>,
    /// Total time on the level.
    pub seconds: f64,
    /// Time until a plan was proven push-optimal (before the search for fewer moves).
    pub push_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lurd: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pushes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<usize>,
    pub push_optimal: bool,
    /// Fewest moves among the push-optimal plans, proven.
    pub moves_minimal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Proven: no plan has fewer pushes.
    pub no_plan_below: Option<usize>,
    /// `--quick` (or a portfolio's fallback plan): the plans the quick search found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quick: Option<QuickReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<EncodingSize>,
    /// A*: positions stored and expanded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<SearchStats>,
    /// The fewest-moves search after A* (when it ran): proven or why it stopped, moves
    /// before and after, positions, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_search: Option<MovesReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<Vec<String>>>,
}

/// How a level's search went, besides its outcome.
#[derive(Debug, Default)]
pub struct Run {
    pub method: &'static str,
    /// The search that proved the outcome (for the portfolio, the one that won).
    pub proved_by: Option<&'static str>,
    /// Total time on the level.
    pub seconds: f64,
    /// Time until a plan was proven push-optimal.
    pub push_seconds: Option<f64>,
    pub encoding: Option<EncodingSize>,
    pub search: Option<SearchStats>,
    pub moves_search: Option<MovesReport>,
    pub quick: Option<QuickReport>,
}

impl LevelReport {
    /// The report of `entry`'s `outcome`. A plan is replayed first (the referee has the
    /// last word: a plan it rejects is never printed, it is an internal error); `boards`
    /// keeps the board after every push.
    pub fn checked(
        entry: &LevelEntry,
        outcome: Outcome,
        run: Run,
        boards: bool,
    ) -> anyhow::Result<LevelReport> {
        let level = &entry.level;
        let mut report = LevelReport {
            level: entry.number,
            title: entry.title.clone(),
            outcome: "",
            method: run.method,
            proved_by: run.proved_by,
            seconds: run.seconds,
            push_seconds: run.push_seconds,
            lurd: None,
            pushes: None,
            moves: None,
            push_optimal: false,
            moves_minimal: false,
            reason: None,
            no_plan_below: None,
            quick: run.quick,
            encoding: run.encoding,
            search: run.search,
            moves_search: run.moves_search,
            boards: None,
        };
        match outcome {
            Outcome::Solved(solution) => {
                let internal =
                    |what: String| InternalError::new(format!("level {}: {what}", entry.number));
                let lurd = to_lurd(level, &solution.pushes).map_err(|e| internal(e.to_string()))?;
                let replayed = replay(level, &lurd)
                    .map_err(|e| internal(format!("the plan {lurd} fails the replay: {e}")))?;
                if replayed.pushes != solution.pushes.len() {
                    return Err(internal("the push count changed in the replay".into()).into());
                }
                if solution.no_plan_below > replayed.pushes
                    || solution.push_optimal != (solution.no_plan_below == replayed.pushes)
                {
                    return Err(internal(format!(
                        "the bound {} does not fit a plan of {} pushes",
                        solution.no_plan_below, replayed.pushes
                    ))
                    .into());
                }
                report.outcome = if solution.push_optimal {
                    "solved"
                } else {
                    "not-proven-optimal"
                };
                report.pushes = Some(replayed.pushes);
                report.moves = Some(replayed.moves);
                report.push_optimal = solution.push_optimal;
                report.moves_minimal = solution.moves_minimal;
                report.no_plan_below = Some(solution.no_plan_below);
                if boards {
                    report.boards = Some(
                        replayed
                            .boards
                            .iter()
                            .map(|b| board_lines(level, b))
                            .collect(),
                    );
                }
                report.lurd = Some(lurd);
            }
            Outcome::Unsolvable { reason } => {
                report.outcome = "unsolvable";
                report.reason = Some(reason);
            }
            Outcome::GaveUp {
                reason,
                no_plan_below,
            } => {
                report.outcome = "gave-up";
                report.reason = Some(reason);
                report.no_plan_below = Some(no_plan_below);
            }
        }
        Ok(report)
    }

    /// Solved 0, proven unsolvable 1, gave up 4, a plan not proven optimal 5.
    pub fn exit(&self) -> Exit {
        match self.outcome {
            "solved" => Exit::Solved,
            "not-proven-optimal" => Exit::NotProven,
            "unsolvable" => Exit::NoAnswer,
            _ => Exit::GaveUp,
        }
    }

    /// The level's block of text (ending in a blank line).
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(text(self).as_bytes())
    }

    /// `--stats`: what the searches did, on standard error.
    pub fn print_stats(&self) {
        let mut parts = Vec::new();
        if let Some(s) = &self.search {
            parts.push(format!(
                "astar: {} positions stored, {} expanded, {} reopened; corrals: {} expansions, {} deadlocks; split: from {} until {}, {} searches of {} positions, {} deadlocks; perimeter: {} positions, complete to {}, {:.2} s, {} bounds raised, {} deadlocks; pairs: {} bytes, {:.2} s, {} bounds raised, {} deadlocks; {} children past the ceiling; last layer: {} workers, {} expanded, {} new positions{}",
                s.stored,
                s.expanded,
                s.reopened,
                s.corral_expansions,
                s.corral_deadlocks,
                s.split_from,
                s.split_until,
                s.split_searches,
                s.split_positions,
                s.split_deadlocks,
                s.perimeter_positions,
                match s.perimeter_depth {
                    u32::MAX => "the end".to_string(),
                    depth => format!("{depth} pushes"),
                },
                s.perimeter_seconds,
                s.perimeter_raised,
                s.perimeter_deadlocks,
                s.pair_bytes,
                s.pair_seconds,
                s.pair_raised,
                s.pair_deadlocks,
                s.ceiling_cuts,
                s.layer_workers,
                s.layer_expanded,
                s.layer_stored,
                if s.layer_plans > 0 { ", the plan theirs" } else { "" }
            ));
        }
        if let Some(m) = &self.moves_search {
            parts.push(format!(
                "moves: {} positions stored, {} expanded, {} -> {} moves{}",
                m.stored,
                m.expanded,
                m.moves_before,
                m.moves_after,
                if m.proven { ", proven" } else { ", not proven" }
            ));
        }
        if let Some(q) = &self.quick {
            parts.push(format!(
                "quick: {} plan(s), the first of {} pushes after {:.2} s, the last after {:.2} s; {} positions stored, {} expanded",
                q.plans, q.first_pushes, q.first_seconds, q.last_seconds, q.stored, q.expanded
            ));
        }
        if let Some(e) = &self.encoding {
            parts.push(format!(
                "sat: horizon {}, {} variables, {} clauses, {} loops learned, {} solver calls",
                e.horizon, e.variables, e.clauses, e.loops, e.solver_calls
            ));
        }
        for part in parts {
            eprintln!("level {}: {part}", self.level);
        }
    }
}

fn text(r: &LevelReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let title = r
        .title
        .as_ref()
        .map(|t| format!(" ({t})"))
        .unwrap_or_default();
    let _ = write!(out, "level {}{title}: ", r.level);
    match r.outcome {
        "solved" => {
            let pushes = r.pushes.unwrap_or(0);
            let moves = r.moves.unwrap_or(0);
            let by = r.proved_by.map(|m| format!(" by {m}")).unwrap_or_default();
            let _ = writeln!(
                out,
                "solved{by} in {:.2} s (push-optimal after {:.2} s)",
                r.seconds,
                r.push_seconds.unwrap_or(r.seconds)
            );
            let push_status = if r.push_optimal {
                "proven push-optimal"
            } else {
                "not proven optimal"
            };
            let _ = writeln!(out, "pushes: {pushes} ({push_status})");
            let move_status = match (&r.moves_minimal, &r.moves_search) {
                (true, _) => "proven fewest among plans with this many pushes".to_string(),
                (false, Some(m)) => format!(
                    "not proven fewest; the fewest-moves search gave up: {}",
                    m.gave_up.as_deref().unwrap_or("unknown reason")
                ),
                (false, None) => "not proven fewest".to_string(),
            };
            let _ = writeln!(out, "moves: {moves} ({move_status})");
            let _ = writeln!(out, "plan: {}", r.lurd.as_deref().unwrap_or(""));
        }
        "not-proven-optimal" => {
            let pushes = r.pushes.unwrap_or(0);
            let first = r.quick.as_ref().map_or(String::new(), |q| {
                format!(
                    ", first plan ({} pushes) after {:.2} s, {} plan(s) in all",
                    q.first_pushes, q.first_seconds, q.plans
                )
            });
            let _ = writeln!(
                out,
                "plan not proven optimal after {:.2} s{first}",
                r.seconds
            );
            let _ = writeln!(
                out,
                "pushes: {pushes} (not proven optimal; no plan has fewer than {})",
                r.no_plan_below.unwrap_or(0)
            );
            let _ = writeln!(out, "moves: {} (not proven fewest)", r.moves.unwrap_or(0));
            let _ = writeln!(out, "plan: {}", r.lurd.as_deref().unwrap_or(""));
        }
        "unsolvable" => {
            let by = r.proved_by.map(|m| format!(" by {m}")).unwrap_or_default();
            let _ = writeln!(
                out,
                "proven unsolvable{by}: {}",
                r.reason.as_deref().unwrap_or("")
            );
        }
        _ => {
            // "Fewer than 0 pushes" proves nothing: say so rather than print it.
            let bound = match r.no_plan_below {
                Some(n) if n > 0 => format!("no plan with fewer than {n} pushes"),
                _ => "no lower bound proven".to_string(),
            };
            let _ = writeln!(
                out,
                "gave up after {:.2} s ({}): {bound}",
                r.seconds,
                r.reason.as_deref().unwrap_or(""),
            );
        }
    }
    if let Some(boards) = &r.boards {
        for (i, board) in boards.iter().enumerate() {
            if i == 0 {
                let _ = writeln!(out, "start:");
            } else {
                let _ = writeln!(out, "after push {i}:");
            }
            for line in board {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    out.push('\n');
    out
}
