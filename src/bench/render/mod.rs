//! The bench's renderers, one per format: Markdown tables (`markdown`), CSV (`csv`),
//! JSON (`json`) and an SVG chart (`chart`). Each reads a finished `Report`.

pub mod chart;
pub mod csv;
pub mod json;
pub mod markdown;

use super::runner::Report;
use super::BenchFormat;
use std::io::Write;

/// Writes `report` in `format`.
pub fn write(report: &Report, format: BenchFormat, out: &mut impl Write) -> anyhow::Result<()> {
    match format {
        BenchFormat::Md => out.write_all(markdown::render(report).as_bytes())?,
        BenchFormat::Csv => out.write_all(csv::render(report).as_bytes())?,
        BenchFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &json::render(report))?;
            writeln!(out)?;
        }
        BenchFormat::Svg => out.write_all(chart::render(report).as_bytes())?,
    }
    Ok(())
}
