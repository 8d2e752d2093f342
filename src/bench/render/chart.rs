//! The SVG chart: the time to the proof per choice, on a logarithmic axis (times of one
//! bench span several decades), readable without the table.
//!
//! Up to `MAX_GROUPS` cases, one group of bars per case, one bar per choice with its
//! time written after it; a choice that did not decide the case gets a grey bar to the
//! end of the axis marked "not decided". Over more cases, the distribution: one row per
//! choice, a bar to the median of its proof times over the cases it decided and a dot
//! per case, with how many it decided. Each choice keeps its colour throughout, named
//! in the legend.

use crate::bench::runner::{Choice, Report, Row};
use crate::bench::svg::{Anchor, Svg};
use crate::bench::timing::human;
use std::time::Duration;

/// Cases drawn one group each; more are drawn as a distribution.
pub const MAX_GROUPS: usize = 12;

/// One colour per choice (Tableau 20), in the order of the choices.
pub const PALETTE: [&str; 20] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#a0cbe8", "#ffbe7d", "#ff9d9a", "#86bcb6", "#8cd17d", "#f1ce63",
    "#d4a6c8", "#fabfd2", "#d7b5a6", "#79706e",
];

/// The bar of a choice that did not decide its case.
pub const UNDECIDED: &str = "#d9d9d9";

const BAR: f64 = 14.0;
const GAP: f64 = 4.0;
const GROUP_GAP: f64 = 12.0;
const AXIS_WIDTH: f64 = 560.0;
const RIGHT_MARGIN: f64 = 200.0;
const TOP: f64 = 56.0;

/// A bar as drawn: where, which colour, and the time it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub fill: &'static str,
    pub time: Option<Duration>,
}

/// The logarithmic axis: whole decades from below the least time to above the greatest.
#[derive(Copy, Clone, Debug)]
struct Axis {
    left: f64,
    low: f64,
    high: f64,
}

impl Axis {
    fn over(times: impl Iterator<Item = Duration>, left: f64) -> Axis {
        let logs: Vec<f64> = times.map(|t| t.as_secs_f64().max(1e-7).log10()).collect();
        let min = logs.iter().copied().fold(f64::INFINITY, f64::min);
        let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = if logs.is_empty() {
            (-3.0, 0.0)
        } else {
            // A time on a decade gets room beside it.
            let low = (min - 1e-6).floor();
            let high = (max + 1e-6).ceil();
            (low, high)
        };
        Axis { left, low, high }
    }

    fn x(&self, time: Duration) -> f64 {
        let log = time.as_secs_f64().max(1e-7).log10();
        self.left + (log - self.low) / (self.high - self.low) * AXIS_WIDTH
    }

    fn right(&self) -> f64 {
        self.left + AXIS_WIDTH
    }
}

/// Where everything goes; `render` draws it and the tests check it.
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub bars: Vec<Bar>,
    axis: Axis,
    /// Row labels: text and baseline.
    labels: Vec<(String, f64, bool)>,
    /// Per-case dots of the distribution: centre and colour.
    dots: Vec<(f64, f64, &'static str)>,
    /// Text after a bar: its time, or "not decided".
    notes: Vec<(f64, f64, String)>,
}

fn colour(report: &Report, choice: &Choice) -> &'static str {
    let index = report.choices.iter().position(|c| c == choice).unwrap_or(0);
    PALETTE[index % PALETTE.len()]
}

fn row_of<'a>(report: &'a Report, case: &str, choice: &Choice) -> Option<&'a Row> {
    report
        .rows
        .iter()
        .find(|r| r.case == case && r.choice == *choice)
}

pub fn layout(report: &Report) -> Layout {
    let longest = report
        .choices
        .iter()
        .map(|c| c.label().len())
        .chain(report.cases.iter().map(|c| c.len()))
        .max()
        .unwrap_or(8);
    let left = 16.0 + 7.0 * longest as f64;
    let times = report.rows.iter().filter_map(|r| r.proof.median);
    let axis = Axis::over(times.chain(report.timeout), left);
    let mut layout = Layout {
        width: axis.right() + RIGHT_MARGIN,
        height: 0.0,
        bars: Vec::new(),
        axis,
        labels: Vec::new(),
        dots: Vec::new(),
        notes: Vec::new(),
    };
    let mut y = TOP + 18.0 * report.choices.len().div_ceil(4) as f64;
    if report.cases.len() <= MAX_GROUPS {
        for case in &report.cases {
            layout.labels.push((case.clone(), y + 11.0, true));
            y += BAR + GAP;
            for choice in &report.choices {
                let time = row_of(report, case, choice).and_then(|r| r.proof.median);
                layout.bar(choice.label(), time, colour(report, choice), y);
                y += BAR + GAP;
            }
            y += GROUP_GAP;
        }
    } else {
        for choice in &report.choices {
            let mut times: Vec<Duration> = report
                .cases
                .iter()
                .filter_map(|case| row_of(report, case, choice).and_then(|r| r.proof.median))
                .collect();
            times.sort();
            let median = times.get(times.len().saturating_sub(1) / 2).copied();
            let fill = colour(report, choice);
            layout.bar(choice.label(), median, fill, y);
            for &t in &times {
                layout.dots.push((axis.x(t), y + BAR / 2.0, "#333333"));
            }
            if let Some(note) = layout.notes.last_mut() {
                // After the dots, which may lie past the bar.
                note.0 = axis.right() + 4.0;
                note.2 = format!(
                    "{}, {} of {} decided",
                    median.map_or("none".to_string(), |m| format!("median {}", human(m))),
                    times.len(),
                    report.cases.len()
                );
            }
            y += BAR + GAP;
        }
    }
    layout.height = y + 40.0;
    layout
}

impl Layout {
    fn bar(&mut self, label: String, time: Option<Duration>, fill: &'static str, y: f64) {
        let axis = self.axis;
        let (end, fill, note) = match time {
            Some(t) => (axis.x(t), fill, human(t)),
            None => (axis.right(), UNDECIDED, "not decided".to_string()),
        };
        self.labels.push((label, y + 11.0, false));
        self.bars.push(Bar {
            x: axis.left,
            y,
            width: (end - axis.left).max(1.0),
            height: BAR,
            fill,
            time,
        });
        self.notes.push((end + 4.0, y + 11.0, note));
    }
}

pub fn render(report: &Report) -> String {
    let layout = layout(report);
    let axis = layout.axis;
    let mut svg = Svg::new(layout.width, layout.height);
    let runs = if report.runs == 1 {
        "one run".to_string()
    } else {
        format!("median of {} runs", report.runs)
    };
    let what = if report.cases.len() <= MAX_GROUPS {
        "per case".to_string()
    } else {
        format!("median over {} cases, one dot per case", report.cases.len())
    };
    svg.text(
        16.0,
        22.0,
        &format!(
            "{}: time to the proof per choice, {what} ({runs}, log scale)",
            report.puzzle
        ),
        Anchor::Start,
        14.0,
        true,
    );
    // The legend: four choices a line.
    for (i, choice) in report.choices.iter().enumerate() {
        let (col, line) = ((i % 4) as f64, (i / 4) as f64);
        let (x, y) = (16.0 + col * 190.0, 38.0 + line * 18.0);
        svg.rect(x, y, 12.0, 12.0, colour(report, choice), None);
        svg.text(
            x + 16.0,
            y + 10.5,
            &choice.label(),
            Anchor::Start,
            11.0,
            false,
        );
    }
    // Decades.
    let plot_top = TOP + 18.0 * report.choices.len().div_ceil(4) as f64 - 6.0;
    let plot_bottom = layout.height - 34.0;
    let mut decade = axis.low;
    while decade <= axis.high + 1e-9 {
        let t = Duration::from_secs_f64(10f64.powf(decade));
        let x = axis.x(t);
        svg.line(x, plot_top, x, plot_bottom, "#e0e0e0");
        svg.text(
            x,
            plot_bottom + 16.0,
            &human(t),
            Anchor::Middle,
            10.0,
            false,
        );
        decade += 1.0;
    }
    svg.line(axis.left, plot_top, axis.left, plot_bottom, "#999999");
    for (text, y, bold) in &layout.labels {
        let x = if *bold { 16.0 } else { axis.left - 6.0 };
        let anchor = if *bold { Anchor::Start } else { Anchor::End };
        svg.text(x, *y, text, anchor, 11.0, *bold);
    }
    for bar in &layout.bars {
        let title = bar.time.map(human);
        svg.rect(
            bar.x,
            bar.y,
            bar.width,
            bar.height,
            bar.fill,
            title.as_deref(),
        );
    }
    for &(cx, cy, fill) in &layout.dots {
        svg.circle(cx, cy, 2.5, fill);
    }
    for (x, y, text) in &layout.notes {
        svg.text(*x, *y, text, Anchor::Start, 10.0, false);
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::runner::{Answer, Summary};
    use crate::bench::timing::Spread;
    use crate::solver::Backend;
    use resvg::tiny_skia::{Pixmap, Transform};

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    /// A report of `cases` cases and three choices whose proof times are 1, 10 and 100
    /// ms on every case, the third choice undecided on the last case.
    fn report(cases: usize) -> Report {
        let choices: Vec<Choice> = ["pairwise", "totalizer", "astar"]
            .iter()
            .map(|name| Choice {
                option: name.to_string(),
                solver: (*name != "astar").then_some(Backend::Varisat),
            })
            .collect();
        let case_names: Vec<String> = (1..=cases).map(|i| format!("case-{i}.txt")).collect();
        let mut rows = Vec::new();
        for (c, case) in case_names.iter().enumerate() {
            for (i, choice) in choices.iter().enumerate() {
                let time = if i == 2 && c + 1 == cases {
                    None
                } else {
                    ms(10u64.pow(i as u32))
                };
                rows.push(Row {
                    case: case.clone(),
                    choice: choice.clone(),
                    runs: 3,
                    variables: Some(10),
                    clauses: Some(20),
                    encode: Spread::of(&[ms(1)]),
                    first: Spread::of(&[time]),
                    proof: Spread::of(&[time]),
                    answer: time.map(|_| Answer::new("unique", "unique")),
                    note: None,
                });
            }
        }
        Report {
            puzzle: "Star Battle",
            runs: 3,
            timeout: None,
            cases: case_names,
            reference: choices[0].clone(),
            summary: Vec::<Summary>::new(),
            choices,
            rows,
            disagreements: Vec::new(),
        }
    }

    /// The chart rasterized by a real SVG renderer.
    fn raster(svg: &str) -> Pixmap {
        let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
            .expect("the chart is valid SVG");
        let size = tree.size().to_int_size();
        let mut pixmap = Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
        pixmap
    }

    fn pixel(pixmap: &Pixmap, x: f64, y: f64) -> String {
        let p = pixmap.pixel(x as u32, y as u32).unwrap();
        format!("#{:02x}{:02x}{:02x}", p.red(), p.green(), p.blue())
    }

    /// The length of the run of the bar's colour along a row near its top (clear of the
    /// distribution's dots, which sit on its middle), from its left end.
    fn drawn_length(pixmap: &Pixmap, bar: &Bar) -> f64 {
        let y = bar.y + 2.0;
        let mut x = bar.x + 1.0;
        while pixel(pixmap, x, y) == bar.fill {
            x += 1.0;
        }
        x - bar.x
    }

    fn check_bars(report: &Report, expected_bars: usize) -> Layout {
        let layout = layout(report);
        let pixmap = raster(&render(report));
        assert_eq!(pixmap.width() as f64, layout.width.round());
        assert_eq!(layout.bars.len(), expected_bars);
        for bar in &layout.bars {
            // Drawn where the layout says, in its colour, and no further.
            let length = drawn_length(&pixmap, bar);
            assert!((length - bar.width).abs() <= 2.0, "{bar:?}: drawn {length}");
            let after = pixel(&pixmap, bar.x + bar.width + 2.0, bar.y + 2.0);
            assert_ne!(after, bar.fill, "{bar:?}");
        }
        layout
    }

    #[test]
    fn grouped_bars_are_drawn_to_scale_in_the_choices_colours() {
        let report = report(2);
        let layout = check_bars(&report, 6);
        let bars = &layout.bars;
        assert_eq!(
            bars.iter().map(|b| b.fill).collect::<Vec<_>>(),
            [PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[0], PALETTE[1], UNDECIDED]
        );
        // 1, 10 and 100 ms: a decade apart each, so equal steps on the log axis.
        let step = bars[1].width - bars[0].width;
        assert!(step > 50.0, "{step}");
        assert!((bars[2].width - bars[1].width - step).abs() < 1.0);
        // Undecided: to the end of the axis.
        assert!((bars[5].width - AXIS_WIDTH).abs() < 1.0);
        let svg = render(&report);
        for text in [
            "case-1.txt",
            "totalizer/varisat",
            "astar",
            "not decided",
            "10.0 ms",
        ] {
            assert!(svg.contains(text), "{text}");
        }
    }

    #[test]
    fn many_cases_are_drawn_as_a_distribution() {
        let report = report(MAX_GROUPS + 3);
        let layout = check_bars(&report, 3);
        assert_eq!(layout.dots.len(), 3 * (MAX_GROUPS + 3) - 1);
        let svg = render(&report);
        assert!(svg.contains("median 100.0 ms, 14 of 15 decided"), "{svg}");
    }
}
