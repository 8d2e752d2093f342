//! Star Battle as a puzz.link URL: `starbattle/COLS/ROWS/STARS/BORDERS`, the borders
//! between horizontally neighbouring cells row by row (`ROWS x (COLS - 1)` bits), then
//! between vertically neighbouring cells (`(ROWS - 1) x COLS` bits), packed five to a
//! character (see `input::url`). The zones are the regions the borders enclose; a URL
//! gives them no names, so they are labelled `A`, `B`, ... in the order their first
//! cells come in, row by row.

use super::parse::ParsedPuzzle;
use crate::input::grammar::{fail_at, Parsed, Span};
use crate::input::url::{self, bits, decimal_field, write_bits, UrlError};
use gridsat_encodings::grid::{edge_connected, Cell};
use gridsat_encodings::star_battle::{Puzzle, Zone};

/// The zone labels a URL's zones get, in order.
pub const LABELS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// Reads a Star Battle URL: the zones and the number of stars.
pub fn read_url(text: &str) -> Result<ParsedPuzzle, UrlError> {
    url::read(text, "starbattle", body)
}

fn body(input: Span<'_>, cols: usize, rows: usize) -> Parsed<'_, ParsedPuzzle> {
    let stars_at = input;
    let (input, stars) = decimal_field(input, "the number of stars")?;
    if stars == 0 {
        return Err(fail_at(stars_at, "the number of stars must be at least 1"));
    }
    let borders_at = input;
    let (input, right) = bits(input, rows * (cols - 1), "the borders between columns")?;
    let (input, down) = bits(input, (rows - 1) * cols, "the borders between rows")?;
    let zones = zones_of(rows, cols, &right, &down).ok_or_else(|| {
        fail_at(
            borders_at,
            format!(
                "the borders make more than {} zones; gridsat names at most that many",
                LABELS.len()
            ),
        )
    })?;
    Ok((
        input,
        ParsedPuzzle {
            puzzle: Puzzle { rows, cols, zones },
            stars: Some(stars),
        },
    ))
}

/// The regions of the grid between the borders (`right[r * (cols - 1) + c]`: a border
/// right of cell (r, c); `down[r * cols + c]`: below it), labelled in order of their
/// first cells; `None` when there are more than `LABELS` has names.
fn zones_of(rows: usize, cols: usize, right: &[bool], down: &[bool]) -> Option<Vec<Zone>> {
    let mut zone_of = vec![usize::MAX; rows * cols];
    let mut zones: Vec<Zone> = Vec::new();
    let mut labels = LABELS.chars();
    for start in 0..rows * cols {
        if zone_of[start] != usize::MAX {
            continue;
        }
        let label = labels.next()?;
        let index = zones.len();
        let mut cells = Vec::new();
        let mut stack = vec![start];
        zone_of[start] = index;
        while let Some(i) = stack.pop() {
            let (r, c) = (i / cols, i % cols);
            cells.push(Cell::new(r, c));
            let mut open = Vec::with_capacity(4);
            if c + 1 < cols && !right[r * (cols - 1) + c] {
                open.push(i + 1);
            }
            if c > 0 && !right[r * (cols - 1) + c - 1] {
                open.push(i - 1);
            }
            if r + 1 < rows && !down[r * cols + c] {
                open.push(i + cols);
            }
            if r > 0 && !down[(r - 1) * cols + c] {
                open.push(i - cols);
            }
            for j in open {
                if zone_of[j] == usize::MAX {
                    zone_of[j] = index;
                    stack.push(j);
                }
            }
        }
        cells.sort();
        zones.push(Zone { label, cells });
    }
    Some(zones)
}

/// The puzzle as a URL; an error says why it cannot be one (a zone in two pieces: the
/// format draws zones as regions between borders).
pub fn write_url(puzzle: &Puzzle, stars: usize) -> Result<String, String> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    let mut zone_of = vec![usize::MAX; rows * cols];
    for (k, zone) in puzzle.zones.iter().enumerate() {
        for cell in &zone.cells {
            zone_of[cell.row * cols + cell.col] = k;
        }
    }
    let right: Vec<bool> = (0..rows)
        .flat_map(|r| (0..cols - 1).map(move |c| (r, c)))
        .map(|(r, c)| zone_of[r * cols + c] != zone_of[r * cols + c + 1])
        .collect();
    let down: Vec<bool> = (0..rows - 1)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .map(|(r, c)| zone_of[r * cols + c] != zone_of[(r + 1) * cols + c])
        .collect();
    // The regions the borders enclose must be the zones themselves.
    let regions = zones_of(rows, cols, &right, &down).map_or(usize::MAX, |z| z.len());
    if regions != puzzle.zones.len() {
        let split = puzzle
            .zones
            .iter()
            .find(|z| !edge_connected(&z.cells))
            .map_or('?', |z| z.label);
        return Err(format!(
            "zone '{split}' is in more than one piece; a puzz.link URL draws each zone as one \
             region between borders"
        ));
    }
    Ok(url::write(
        "starbattle",
        cols,
        rows,
        &format!("{stars}/{}{}", write_bits(&right), write_bits(&down)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::star_battle::parse::parse;

    /// The example, also cspuz_core's serializer test
    /// (cspuz_rs_puzzles/src/puzzles/star_battle.rs): its borders, row by row.
    const CSPUZ: &str = "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk";

    /// pzprjs's debug data for Star Battle (test/script/starbattle.js): the URL body and
    /// the rooms of its pzprv3 file, cell by cell.
    const PZPRJS: &str = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou";
    const PZPRJS_ROOMS: [[u8; 6]; 6] = [
        [0, 0, 0, 1, 1, 1],
        [0, 1, 1, 1, 2, 2],
        [0, 3, 3, 4, 4, 2],
        [5, 5, 3, 3, 4, 2],
        [5, 4, 4, 4, 4, 2],
        [5, 2, 2, 2, 2, 2],
    ];

    fn rooms(parsed: &ParsedPuzzle) -> Vec<Vec<char>> {
        let labels = parsed.puzzle.labels();
        labels
            .chunks(parsed.puzzle.cols)
            .map(|row| row.iter().map(|l| l.unwrap()).collect())
            .collect()
    }

    #[test]
    fn pzprjs_debug_url_has_the_rooms_of_its_file() {
        let parsed = read_url(PZPRJS).unwrap();
        assert_eq!(parsed.stars, Some(1));
        let got = rooms(&parsed);
        // Same partition: two cells share a label exactly when they share a room.
        for a in 0..36 {
            for b in 0..36 {
                let same_room = PZPRJS_ROOMS[a / 6][a % 6] == PZPRJS_ROOMS[b / 6][b % 6];
                let same_zone = got[a / 6][a % 6] == got[b / 6][b % 6];
                assert_eq!(same_room, same_zone, "cells {a} and {b}");
            }
        }
        assert_eq!(write_url(&parsed.puzzle, 1).unwrap(), PZPRJS);
    }

    #[test]
    fn cspuz_url_reads_its_borders() {
        let parsed = read_url(CSPUZ).unwrap();
        // Its first vertical borders are 0 0 0 1 0 / 1 1 1 1 0: cells (0,3) and (0,4) are
        // apart, (0,0)..(0,3) together.
        let got = rooms(&parsed);
        assert_eq!(got[0][0], got[0][3]);
        assert_ne!(got[0][3], got[0][4]);
        assert_ne!(got[1][0], got[1][1]);
        assert_eq!(write_url(&parsed.puzzle, 1).unwrap(), CSPUZ);
    }

    #[test]
    fn files_round_trip_through_urls() {
        for name in ["sporcle1", "twonot1", "twonot2", "custom3"] {
            let path = format!(
                "{}/examples/star-battle/{name}.txt",
                env!("CARGO_MANIFEST_DIR")
            );
            let file = parse(&std::fs::read_to_string(path).unwrap()).unwrap();
            let text = write_url(&file.puzzle, 2).unwrap();
            let back = read_url(&text).unwrap();
            // The same zones (labels aside: a URL has none).
            let cells = |p: &Puzzle| {
                let mut z: Vec<Vec<Cell>> = p.zones.iter().map(|z| z.cells.clone()).collect();
                z.iter_mut().for_each(|c| c.sort());
                z.sort();
                z
            };
            assert_eq!(cells(&back.puzzle), cells(&file.puzzle), "{name}");
            assert_eq!(write_url(&back.puzzle, 2).unwrap(), text, "{name}");
        }
    }

    #[test]
    fn zones_in_two_pieces_cannot_be_urls() {
        let split = parse("ABA\nBBB\n").unwrap();
        let e = write_url(&split.puzzle, 1).unwrap_err();
        assert!(e.contains("zone 'A' is in more than one piece"), "{e}");
    }

    #[test]
    fn malformed_urls_say_which_part_is_wrong() {
        let cases = [
            (
                "https://puzz.link/p?starbattle/6/6/0/2u9gn9c9jpmk",
                "stars must be at least 1",
            ),
            (
                "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpm",
                "borders between rows end early",
            ),
            (
                "https://puzz.link/p?starbattle/6/6/1/2u9",
                "borders between columns end early",
            ),
            (
                "https://puzz.link/p?starbattle/6/6/x/2u9gn9c9jpmk",
                "expected the number of stars",
            ),
            (
                "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmkz",
                "unexpected 'z'",
            ),
            (
                "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpm!",
                "found '!'",
            ),
            (
                "https://puzz.link/p?lits/6/6/1/2u9gn9c9jpmk",
                "this is a 'lits' URL",
            ),
        ];
        for (text, needle) in cases {
            let e = read_url(text).unwrap_err();
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }
}
