//! A file of several puzzles (levels, maps) answered one at a time: text is printed as
//! each answer comes (a long run shows its progress), JSON as one document and SVG as one
//! picture (a row of boards per item) at the end;
//! the exit status is the worst item's (see `Exit::and`). Commands refuse the formats
//! they do not write (`Format::require`) before they print.

use super::svg::{picture, Board};
use crate::cli::{Exit, Format};
use std::io::{self, Write};

pub struct ItemPrinter<W: Write> {
    out: W,
    format: Format,
    json: Vec<serde_json::Value>,
    /// A row of boards per item, for `--format svg`.
    pictures: Vec<Vec<Board>>,
    exit: Exit,
}

impl<W: Write> ItemPrinter<W> {
    pub fn new(out: W, format: Format) -> ItemPrinter<W> {
        ItemPrinter {
            out,
            format,
            json: Vec::new(),
            pictures: Vec::new(),
            exit: Exit::Solved,
        }
    }

    /// One item's answer: `text` is written (and flushed) at once in text format,
    /// `json` kept for the document at the end in JSON format.
    pub fn item(
        &mut self,
        exit: Exit,
        text: impl FnOnce(&mut W) -> io::Result<()>,
        json: impl FnOnce() -> serde_json::Value,
    ) -> io::Result<()> {
        self.item_with_picture(exit, text, json, Vec::new)
    }

    /// `item`, and in SVG format the item's row of boards for the picture at the end.
    pub fn item_with_picture(
        &mut self,
        exit: Exit,
        text: impl FnOnce(&mut W) -> io::Result<()>,
        json: impl FnOnce() -> serde_json::Value,
        picture: impl FnOnce() -> Vec<Board>,
    ) -> io::Result<()> {
        self.exit = self.exit.and(exit);
        match self.format {
            Format::Json => self.json.push(json()),
            Format::Svg => self.pictures.push(picture()),
            _ => {
                text(&mut self.out)?;
                return self.out.flush();
            }
        }
        Ok(())
    }

    /// Ends the output: `footer` in text format, `document` (given every item's JSON)
    /// in JSON format. Returns the exit status of the whole file.
    pub fn finish(
        mut self,
        footer: impl FnOnce(&mut W) -> io::Result<()>,
        document: impl FnOnce(Vec<serde_json::Value>) -> serde_json::Value,
    ) -> io::Result<Exit> {
        match self.format {
            Format::Json => {
                let doc = document(std::mem::take(&mut self.json));
                let text = serde_json::to_string_pretty(&doc).map_err(io::Error::other)?;
                writeln!(self.out, "{text}")?;
            }
            Format::Svg => self.out.write_all(picture(&self.pictures).as_bytes())?,
            _ => footer(&mut self.out)?,
        }
        self.out.flush()?;
        Ok(self.exit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_comes_at_once_and_json_at_the_end() {
        let mut written = Vec::new();
        let mut text = ItemPrinter::new(&mut written, Format::Text);
        text.item(Exit::Solved, |w| writeln!(w, "one"), || unreachable!())
            .unwrap();
        text.item(Exit::NoAnswer, |w| writeln!(w, "two"), || unreachable!())
            .unwrap();
        let exit = text
            .finish(|w| writeln!(w, "Complete"), |_| unreachable!())
            .unwrap();
        assert_eq!(exit, Exit::NoAnswer);
        assert_eq!(String::from_utf8(written).unwrap(), "one\ntwo\nComplete\n");

        let mut written = Vec::new();
        let mut json = ItemPrinter::new(&mut written, Format::Json);
        json.item(Exit::GaveUp, |_| unreachable!(), || serde_json::json!(1))
            .unwrap();
        json.item(Exit::Solved, |_| unreachable!(), || serde_json::json!(2))
            .unwrap();
        let exit = json
            .finish(
                |_| unreachable!(),
                |items| serde_json::json!({ "items": items }),
            )
            .unwrap();
        assert_eq!(exit, Exit::GaveUp);
        let value: serde_json::Value = serde_json::from_slice(&written).unwrap();
        assert_eq!(value, serde_json::json!({ "items": [1, 2] }));
    }
}
