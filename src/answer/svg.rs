//! Pictures: a small SVG writer and the board picture every grid puzzle draws on.
//!
//! A `Board` is a grid of square cells with a caption above it; a puzzle paints its
//! cells (stars, ships, walls, paths) with the primitives here, and the answer layer
//! lays boards out: one below the other for a listing, side by side for two witnesses.
//! Colours are fixed (`COLOURS`) so tests can find what was drawn by its colour.

use std::fmt::Write;

/// Pixels per cell.
pub const CELL: f64 = 32.0;
/// Space around a board and between boards.
pub const MARGIN: f64 = 16.0;
/// Height of a caption line.
pub const CAPTION: f64 = 24.0;

/// The colours pictures are drawn in, named for what they show.
pub mod colour {
    pub const INK: &str = "#000000";
    pub const GRID: &str = "#b0b0b0";
    pub const PAPER: &str = "#ffffff";
    /// A star, a ship, a box: what the puzzle places.
    pub const PLACED: &str = "#1f4fbf";
    /// A cell every solution leaves empty (water, no star).
    pub const EMPTY: &str = "#dce8f5";
    /// A cell whose value differs between solutions, or is not determined.
    pub const UNDECIDED: &str = "#f2c14e";
    /// The cells where two witnesses differ.
    pub const DIFFERS: &str = "#e4572e";
    /// A given hint.
    pub const HINT: &str = "#9aa0a6";
    pub const WALL: &str = "#3c3c3c";
    pub const GOAL: &str = "#4caf50";
    pub const PATH: &str = "#c2185b";
}

/// SVG elements, written as text as they are added.
#[derive(Clone, Debug, Default)]
pub struct Elements {
    body: String,
}

impl Elements {
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}"/>"#
        );
    }

    /// A rectangle with rounded corners.
    pub fn rounded(&mut self, x: f64, y: f64, w: f64, h: f64, r: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="{r:.1}" fill="{fill}"/>"#
        );
    }

    /// A rectangle's outline.
    pub fn outline(&mut self, x: f64, y: f64, w: f64, h: f64, stroke: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="none" stroke="{stroke}" stroke-width="{width:.1}"/>"#
        );
    }

    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width:.1}" stroke-linecap="square"/>"#
        );
    }

    pub fn circle(&mut self, (cx, cy): (f64, f64), r: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"/>"#
        );
    }

    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str) {
        let points: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polygon points="{}" fill="{fill}"/>"#,
            points.join(" ")
        );
    }

    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        let points: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{width:.1}" stroke-linejoin="round" stroke-linecap="round"/>"#,
            points.join(" ")
        );
    }

    /// Text centred on `(x, y)`.
    pub fn text(&mut self, (x, y): (f64, f64), size: f64, fill: &str, text: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-family="sans-serif" font-size="{size:.1}" fill="{fill}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
            escape(text)
        );
    }

    /// These elements moved by `(dx, dy)`.
    pub fn place(&mut self, (dx, dy): (f64, f64), inner: &Elements) {
        let _ = writeln!(self.body, r#"<g transform="translate({dx:.1} {dy:.1})">"#);
        self.body.push_str(&inner.body);
        self.body.push_str("</g>\n");
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A grid of `rows x cols` cells with a caption, drawn at the origin: the caption line,
/// then the cells from `(0, CAPTION)`; `extra_right`/`extra_below` cells of room for
/// labels beside the grid (Battleship's sums).
#[derive(Clone, Debug)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub caption: String,
    pub extra_right: f64,
    pub extra_below: f64,
    pub layer: Elements,
}

impl Board {
    pub fn new(rows: usize, cols: usize, caption: impl Into<String>) -> Board {
        Board {
            rows,
            cols,
            caption: caption.into(),
            extra_right: 0.0,
            extra_below: 0.0,
            layer: Elements::default(),
        }
    }

    /// The top-left corner of a cell.
    pub fn corner(&self, row: usize, col: usize) -> (f64, f64) {
        (col as f64 * CELL, CAPTION + row as f64 * CELL)
    }

    /// The centre of a cell.
    pub fn centre(&self, row: usize, col: usize) -> (f64, f64) {
        let (x, y) = self.corner(row, col);
        (x + CELL / 2.0, y + CELL / 2.0)
    }

    /// Fills a cell.
    pub fn fill(&mut self, row: usize, col: usize, colour: &str) {
        let (x, y) = self.corner(row, col);
        self.layer.rect(x, y, CELL, CELL, colour);
    }

    /// The thin grid lines and the outer frame.
    pub fn grid(&mut self) {
        let (w, h) = (self.cols as f64 * CELL, self.rows as f64 * CELL);
        for r in 0..=self.rows {
            let y = CAPTION + r as f64 * CELL;
            self.layer.line((0.0, y), (w, y), colour::GRID, 1.0);
        }
        for c in 0..=self.cols {
            let x = c as f64 * CELL;
            self.layer
                .line((x, CAPTION), (x, CAPTION + h), colour::GRID, 1.0);
        }
        self.frame();
    }

    pub fn frame(&mut self) {
        let (w, h) = (self.cols as f64 * CELL, self.rows as f64 * CELL);
        let corners = [
            (0.0, CAPTION),
            (w, CAPTION),
            (w, CAPTION + h),
            (0.0, CAPTION + h),
        ];
        for k in 0..4 {
            self.layer
                .line(corners[k], corners[(k + 1) % 4], colour::INK, 3.0);
        }
    }

    /// A thick border on the right of `(row, col)` (`right`) or below it.
    pub fn border(&mut self, row: usize, col: usize, right: bool) {
        let (x, y) = self.corner(row, col);
        if right {
            self.layer
                .line((x + CELL, y), (x + CELL, y + CELL), colour::INK, 3.0);
        } else {
            self.layer
                .line((x, y + CELL), (x + CELL, y + CELL), colour::INK, 3.0);
        }
    }

    /// A five-pointed star in a cell.
    pub fn star(&mut self, row: usize, col: usize, colour: &str) {
        let (cx, cy) = self.centre(row, col);
        let points: Vec<(f64, f64)> = (0..10)
            .map(|k| {
                let r = if k % 2 == 0 { CELL * 0.42 } else { CELL * 0.18 };
                let a = std::f64::consts::PI * (k as f64 / 5.0 - 0.5);
                (cx + r * a.cos(), cy + r * a.sin())
            })
            .collect();
        self.layer.polygon(&points, colour);
    }

    /// A character centred in a cell.
    pub fn label(&mut self, row: usize, col: usize, colour: &str, text: &str) {
        let centre = self.centre(row, col);
        self.layer.text(centre, CELL * 0.55, colour, text);
    }

    fn width(&self) -> f64 {
        (self.cols as f64 + self.extra_right) * CELL
    }

    fn height(&self) -> f64 {
        CAPTION + (self.rows as f64 + self.extra_below) * CELL
    }

    fn drawn(&self) -> Elements {
        let mut all = Elements::default();
        if !self.caption.is_empty() {
            all.text(
                (self.width() / 2.0, CAPTION / 2.0),
                14.0,
                colour::INK,
                &self.caption,
            );
        }
        all.body.push_str(&self.layer.body);
        all
    }
}

/// A picture of boards: rows of boards, each row side by side, rows one below the other.
pub fn picture(rows_of_boards: &[Vec<Board>]) -> String {
    let mut all = Elements::default();
    let mut y = MARGIN;
    let mut width: f64 = 0.0;
    for row in rows_of_boards {
        let mut x = MARGIN;
        let mut tallest: f64 = 0.0;
        for board in row {
            all.place((x, y), &board.drawn());
            x += board.width() + MARGIN * 2.0;
            tallest = tallest.max(board.height());
        }
        width = width.max(x - MARGIN);
        y += tallest + MARGIN;
    }
    let (w, h) = (width.max(1.0).ceil(), y.max(1.0).ceil());
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n{}</svg>\n",
        colour::PAPER,
        all.body
    )
}

/// A picture of one caption alone (an answer with nothing to draw).
pub fn caption_only(text: &str) -> String {
    let mut board = Board::new(0, 0, text);
    board.extra_right = (text.chars().count() as f64 * 8.0 / CELL).max(4.0);
    picture(&[vec![board]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_is_one_svg_document_with_its_boards() {
        let mut a = Board::new(2, 3, "a & b");
        a.grid();
        a.star(0, 1, colour::PLACED);
        let mut b = Board::new(2, 3, "");
        b.grid();
        let svg = picture(&[vec![a, b.clone()], vec![b]]);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("a &amp; b"));
        assert_eq!(svg.matches("<g transform").count(), 3);
        assert_eq!(svg.matches("<polygon").count(), 1);
    }
}
