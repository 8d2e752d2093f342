//! The CSV report: one row per case and choice (RFC 4180 quoting), times in seconds,
//! empty where a time is missing (not measured, or past the time limit).

use crate::bench::runner::Report;
use crate::bench::timing::Spread;

pub const HEADER: &str = "case,choice,option,solver,runs,variables,clauses,\
encode_s,encode_min_s,encode_max_s,first_s,first_min_s,first_max_s,\
proof_s,proof_min_s,proof_max_s,decided,answer,note";

pub fn render(report: &Report) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for row in &report.rows {
        let mut fields = vec![
            quote(&row.case),
            quote(&row.choice.label()),
            quote(&row.choice.option),
            row.choice.solver.map_or(String::new(), |s| s.to_string()),
            row.runs.to_string(),
            row.variables.map_or(String::new(), |n| n.to_string()),
            row.clauses.map_or(String::new(), |n| n.to_string()),
        ];
        for s in [&row.encode, &row.first, &row.proof] {
            fields.extend(seconds(s));
        }
        fields.push(row.decided().to_string());
        fields.push(quote(row.answer.as_ref().map_or("", |a| a.text.as_str())));
        fields.push(quote(row.note.as_deref().unwrap_or("")));
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

fn seconds(s: &Spread) -> [String; 3] {
    [s.median, s.min, s.max].map(|t| t.map_or(String::new(), |t| format!("{:.6}", t.as_secs_f64())))
}

/// A field, quoted when it holds a comma, a quote or a line break.
pub fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}
