//! The JSON report: the bench's settings, every row, the summary and the
//! disagreements; times in seconds (`null` where missing).

use crate::bench::runner::{Report, Row};
use crate::bench::timing::Spread;
use serde_json::{json, Value};

pub fn render(report: &Report) -> Value {
    json!({
        "puzzle": report.puzzle,
        "runs": report.runs,
        "timeout_s": report.timeout.map(|t| t.as_secs_f64()),
        "cases": report.cases,
        "choices": report.choices.iter().map(|c| c.label()).collect::<Vec<_>>(),
        "reference": report.reference.label(),
        "rows": report.rows.iter().map(row).collect::<Vec<_>>(),
        "summary": report.summary.iter().map(|s| json!({
            "choice": s.choice.label(),
            "decided": s.decided,
            "cases": s.cases,
            "ratio": s.ratio,
            "compared": s.compared,
        })).collect::<Vec<_>>(),
        "disagreements": report.disagreements,
    })
}

fn row(row: &Row) -> Value {
    json!({
        "case": row.case,
        "choice": row.choice.label(),
        "option": row.choice.option,
        "solver": row.choice.solver.map(|s| s.name()),
        "runs": row.runs,
        "variables": row.variables,
        "clauses": row.clauses,
        "encode": spread(&row.encode),
        "first": spread(&row.first),
        "proof": spread(&row.proof),
        "decided": row.decided(),
        "answer": row.answer.as_ref().map(|a| a.text.clone()),
        "note": row.note,
    })
}

fn spread(s: &Spread) -> Value {
    let secs = |t: Option<std::time::Duration>| t.map(|t| t.as_secs_f64());
    json!({ "median_s": secs(s.median), "min_s": secs(s.min), "max_s": secs(s.max) })
}
