//! Which puzzle a file holds, told from its name and its first lines, and how many
//! items (levels, maps) it has.
//!
//! This only sorts files; the puzzle's own parser reads them (and names the line of any
//! mistake) when the item is answered. A file that looks like none of the puzzles is
//! left out of a folder (notes, expected outputs) and is an error when named.

use crate::full_board::parse::parse_maps;
use crate::sokoban::parse::{parse_levels, LevelFormat};
use std::path::Path;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Kind {
    StarBattle,
    Battleship,
    FullBoard,
    Sokoban,
    /// A DIMACS CNF file, whose models `count-cnf` counts.
    Cnf,
}

impl Kind {
    /// The command's name, as in `gridsat star-battle`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::StarBattle => "star-battle",
            Kind::Battleship => "battleship",
            Kind::FullBoard => "full-board",
            Kind::Sokoban => "sokoban",
            Kind::Cnf => "count-cnf",
        }
    }

    /// The puzzle in the file at `path` holding `text`, if it looks like one.
    pub fn detect(path: &Path, text: &str) -> Option<Kind> {
        let ending = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ending.as_deref() {
            Some("xsb" | "sok") => return Some(Kind::Sokoban),
            Some("cnf" | "dimacs") => return Some(Kind::Cnf),
            _ => {}
        }
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .take(4)
            .collect();
        let first = *lines.first()?;
        let second = lines.get(1).copied().unwrap_or("");
        fn words(line: &str) -> Vec<&str> {
            line.split_whitespace().collect()
        }
        let number = |word: &str| !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit());
        if text.lines().any(|l| l.starts_with("p cnf")) && first.starts_with(['c', 'p']) {
            return Some(Kind::Cnf);
        }
        if first.trim() == "map" {
            // A map grid follows (an expected output has "15 moves" there instead).
            return (!second.is_empty() && !second.chars().any(|c| c.is_alphanumeric()))
                .then_some(Kind::FullBoard);
        }
        if words(first).first() == Some(&"board") {
            return Some(Kind::Battleship);
        }
        let xsb = |line: &str| {
            line.trim_start().starts_with('#') && line.chars().all(|c| " #@+$*.-_".contains(c))
        };
        if lines.iter().any(|l| xsb(l)) || (first.starts_with(';') && text.contains('#')) {
            return Some(Kind::Sokoban);
        }
        // The course's Sokoban map: rows of digits, walls '8'.
        if number(first) && first.len() >= 3 && first.contains('8') {
            return Some(Kind::Sokoban);
        }
        // Star Battle: the course's "ROWS COLS" then "LABEL COUNT", or a letter grid
        // (after an optional line with the stars).
        let (a, b) = (words(first), words(second));
        if a.len() == 2 && a.iter().all(|w| number(w)) && b.len() == 2 && number(b[1]) {
            return Some(Kind::StarBattle);
        }
        let grid = if a.len() == 1 && number(a[0]) {
            &lines[1..]
        } else {
            &lines[..]
        };
        let letters = |l: &&str| l.len() >= 2 && l.chars().all(|c| c.is_ascii_alphabetic());
        if !grid.is_empty() && grid.iter().all(letters) {
            return Some(Kind::StarBattle);
        }
        None
    }

    /// The number of items of a file of several (levels, maps), `None` for a puzzle of
    /// one, or for a file whose levels or maps do not parse (one item: its error).
    pub fn items(self, text: &str) -> Option<usize> {
        match self {
            Kind::Sokoban => parse_levels(text, LevelFormat::Auto, None)
                .ok()
                .map(|levels| levels.len()),
            Kind::FullBoard => parse_maps(text).ok().map(|maps| maps.len()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(name: &str, text: &str) -> Option<Kind> {
        Kind::detect(Path::new(name), text)
    }

    #[test]
    fn files_are_told_by_name_and_first_lines() {
        assert_eq!(detect("a.xsb", ""), Some(Kind::Sokoban));
        assert_eq!(detect("a.txt", "c hi\np cnf 2 1\n1 2 0\n"), Some(Kind::Cnf));
        assert_eq!(detect("a.txt", "map\n▓▓▓\n▓ ▓\n"), Some(Kind::FullBoard));
        assert_eq!(detect("a.txt", "map\n15 moves\n"), None);
        assert_eq!(
            detect("a.txt", "board 3 4\nrows 1 3 1\n"),
            Some(Kind::Battleship)
        );
        assert_eq!(detect("a.txt", "; 1\n\n####\n# .#\n"), Some(Kind::Sokoban));
        assert_eq!(detect("a.txt", "8888888\n8103018\n"), Some(Kind::Sokoban));
        assert_eq!(detect("a.txt", "4 3\nL 6\n0 0\n"), Some(Kind::StarBattle));
        assert_eq!(
            detect("a.txt", "1\nAAB\nABB\nBBB\n"),
            Some(Kind::StarBattle)
        );
        assert_eq!(detect("a.txt", "Number of solutions: 17\n"), None);
        assert_eq!(detect("a.txt", ""), None);
    }
}
