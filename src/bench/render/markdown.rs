//! The Markdown report: a heading line, one table row per case and choice, and over
//! several cases a summary row per choice.

use crate::bench::runner::{Report, Row};
use crate::bench::timing::{human, Spread};
use std::fmt::Write;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let limit = report.timeout.map_or(String::new(), |t| {
        format!(", time limit {} s", t.as_secs_f64())
    });
    let runs = if report.runs == 1 {
        "1 run".to_string()
    } else {
        format!("median of {} runs (least-greatest)", report.runs)
    };
    let _ = writeln!(
        out,
        "{} bench: {} case{}, {}{limit}\n",
        report.puzzle,
        report.cases.len(),
        if report.cases.len() == 1 { "" } else { "s" },
        runs
    );
    out.push_str(
        "| case | choice | variables | clauses | encode | first answer | proof | answer |\n",
    );
    out.push_str("|---|---|---:|---:|---:|---:|---:|---|\n");
    for row in &report.rows {
        // A choice not run has no times; one run past the limit has none in time.
        let late = if row.note.is_some() {
            "-"
        } else {
            "over limit"
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            row.case,
            row.choice.label(),
            count(row.variables),
            count(row.clauses),
            spread(&row.encode, "-"),
            spread(&row.first, late),
            spread(&row.proof, late),
            answer(row)
        );
    }
    if report.cases.len() > 1 {
        let _ = writeln!(
            out,
            "\n| choice | decided | time / {} (geometric mean) |\n|---|---:|---:|",
            report.reference.label()
        );
        for s in &report.summary {
            let ratio = s.ratio.map_or("-".to_string(), |r| {
                format!("{r:.2} over {} cases", s.compared)
            });
            let _ = writeln!(
                out,
                "| {} | {} of {} | {ratio} |",
                s.choice.label(),
                s.decided,
                s.cases
            );
        }
    }
    for d in &report.disagreements {
        let _ = writeln!(out, "\nDISAGREEMENT: {d}");
    }
    out
}

fn count(n: Option<usize>) -> String {
    n.map_or("-".to_string(), |n| n.to_string())
}

/// `12.3 ms (11.9 ms-13.0 ms)`, or `missing` when the median run has no time.
pub fn spread(s: &Spread, missing: &str) -> String {
    let Some(median) = s.median else {
        return missing.to_string();
    };
    if s.is_point() {
        return human(median);
    }
    let max = s.max.map_or(missing.to_string(), human);
    format!(
        "{} ({}-{max})",
        human(median),
        s.min.map_or("-".to_string(), human)
    )
}

fn answer(row: &Row) -> String {
    match (&row.answer, &row.note) {
        (Some(a), _) => a.text.clone(),
        (None, Some(note)) => note.clone(),
        (None, None) => "not decided".to_string(),
    }
}
