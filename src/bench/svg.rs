//! A few SVG elements, written as text: enough for the bench's chart, with the escaping
//! every text and attribute needs.

use std::fmt::Write;

/// An SVG document being drawn, in user units (pixels at scale 1).
pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

/// Where a text's `x` is: its start, its middle or its end.
#[derive(Copy, Clone, Debug)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            width,
            height,
            body: String::new(),
        }
    }

    /// A filled rectangle; `title` becomes its tooltip.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, title: Option<&str>) {
        let _ = write!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}""#,
            w.max(0.0),
            h.max(0.0),
            escape(fill)
        );
        match title {
            Some(t) => {
                let _ = writeln!(self.body, "><title>{}</title></rect>", escape(t));
            }
            None => self.body.push_str("/>\n"),
        }
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="1"/>"#,
            escape(stroke)
        );
    }

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{}"/>"#,
            escape(fill)
        );
    }

    /// A line of text whose baseline is at `y`.
    pub fn text(&mut self, x: f64, y: f64, text: &str, anchor: Anchor, size: f64, bold: bool) {
        let weight = if bold { r#" font-weight="bold""# } else { "" };
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{}" font-size="{size}"{weight}>{}</text>"#,
            anchor.name(),
            escape(text)
        );
    }

    pub fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
             viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height,
        )
    }
}

/// Text made safe for an SVG text node or a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        assert_eq!(
            escape(r#"a<b & "c">'"#),
            "a&lt;b &amp; &quot;c&quot;&gt;&apos;"
        );
        let mut svg = Svg::new(10.0, 10.0);
        svg.text(1.0, 2.0, "x < y", Anchor::Start, 12.0, false);
        assert!(svg.finish().contains(">x &lt; y</text>"));
    }
}
