//! Battleship as a puzz.link URL: `battleship/COLS/ROWS/SUMS CELLS FLEET`.
//!
//! - SUMS: the column sums, then the row sums, each a number or a gap (an unknown sum),
//!   as `input::url::numbers_with_gaps` writes them;
//! - CELLS: one value per cell, row by row, gaps for cells without a hint: 0 water,
//!   1 the top end of a ship, 2 its bottom end, 3 its left end, 4 its right end, 5 a
//!   middle cell, 6 a submarine (7-10, the corners of bent pieces, are not ships);
//! - FLEET: `//c`, `//d` or `//e`, the editor's fleets of ships of length 1 to 3, 4 or 5
//!   (for length L: 1 + L - length ships of each), or `/N/` and N pieces `/WH BITS`
//!   (width and height as one base-36 character each, then the piece's cells row by row
//!   as bits). gridsat places straight ships: a piece of one row or column, all cells
//!   filled, of length 1 to 7. Tetrominoes and pentominoes (`//t`, `//p`) are not ships.

use crate::input::grammar::{fail_at, Parsed, Span};
use crate::input::url::{
    self, bits, numbers_with_gaps, write_bits, write_numbers_with_gaps, UrlError,
};
use gridsat_encodings::battleship::{FleetShip, Hint, Piece, Puzzle, ShipType, MAX_SHIP_LENGTH};
use gridsat_encodings::grid::Cell;

/// A hint's number in the URL, and back.
const HINTS: [(u32, Piece); 7] = [
    (0, Piece::Water),
    (1, Piece::TopEnd),
    (2, Piece::BottomEnd),
    (3, Piece::LeftEnd),
    (4, Piece::RightEnd),
    (5, Piece::Middle),
    (6, Piece::Submarine),
];

/// The editor's preset fleets: `//c`, `//d`, `//e`, ships of length 1 to 3, 4 and 5.
const PRESETS: [(char, usize); 3] = [('c', 3), ('d', 4), ('e', 5)];

fn preset_fleet(longest: usize) -> Vec<FleetShip> {
    (1..=longest)
        .flat_map(|length| {
            let ship = ShipType::of_length(length).expect("preset lengths are ship lengths");
            std::iter::repeat_n(FleetShip::Known(ship), 1 + longest - length)
        })
        .collect()
}

/// Reads a Battleship URL.
pub fn read_url(text: &str) -> Result<Puzzle, UrlError> {
    url::read(text, "battleship", body)
}

fn body(input: Span<'_>, cols: usize, rows: usize) -> Parsed<'_, Puzzle> {
    let (input, sums) = numbers_with_gaps(input, cols + rows, "the column and row sums")?;
    let as_sum = |s: &Option<u32>| s.map(|n| n as usize);
    let col_sums: Vec<Option<usize>> = sums[..cols].iter().map(as_sum).collect();
    let row_sums: Vec<Option<usize>> = sums[cols..].iter().map(as_sum).collect();
    let cells_at = input;
    let (input, cells) = numbers_with_gaps(input, rows * cols, "the cell hints")?;
    let mut hints = Vec::new();
    for (i, value) in cells.iter().enumerate() {
        let Some(value) = value else { continue };
        let (row, col) = (i / cols, i % cols);
        let Some(&(_, piece)) = HINTS.iter().find(|(n, _)| n == value) else {
            let what = if (7..=10).contains(value) {
                "the corner of a bent piece; gridsat places straight ships"
            } else {
                "not a hint"
            };
            return Err(fail_at(
                cells_at,
                format!("the hint {value} of cell ({row}, {col}) is {what}"),
            ));
        };
        hints.push(Hint {
            cell: Cell::new(row, col),
            piece,
        });
    }
    let (input, fleet) = fleet(input)?;
    Ok((
        input,
        Puzzle {
            rows,
            cols,
            row_sums,
            col_sums,
            fleet,
            hints,
        },
    ))
}

/// `//c`, `//d`, `//e`, or `/N/` and N pieces.
fn fleet(input: Span<'_>) -> Parsed<'_, Vec<FleetShip>> {
    let at = input;
    let text = *input.fragment();
    if let Some(code) = text.strip_prefix("//") {
        let letter = code.chars().next();
        return match PRESETS.iter().find(|(c, _)| Some(*c) == letter) {
            Some(&(_, longest)) => Ok((take(input, 3)?, preset_fleet(longest))),
            None => Err(fail_at(
                at,
                match letter {
                    Some('t') => {
                        "the fleet '//t' is the tetrominoes: gridsat places straight ships only"
                            .to_string()
                    }
                    Some('p') => {
                        "the fleet '//p' is the pentominoes: gridsat places straight ships only"
                            .to_string()
                    }
                    _ => "expected a fleet: //c, //d, //e, or /N/ and N pieces".to_string(),
                },
            )),
        };
    }
    let Some(rest) = text.strip_prefix('/') else {
        return Err(fail_at(
            at,
            "expected the fleet ('/' and the pieces, or //c, //d, //e)",
        ));
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let count: usize = match digits.parse() {
        Ok(n) if (1..=1000).contains(&n) => n,
        _ => {
            return Err(fail_at(
                at,
                "expected the number of ships of the fleet (1 to 1000) after '/'",
            ))
        }
    };
    let mut input = take(input, 1 + digits.len())?;
    let mut ships = Vec::with_capacity(count);
    for k in 1..=count {
        let piece_at = input;
        let mut chars = input.fragment().chars();
        let (Some('/'), Some(w), Some(h)) = (chars.next(), chars.next(), chars.next()) else {
            return Err(fail_at(
                piece_at,
                format!("expected piece {k} of {count}: '/', its width and height"),
            ));
        };
        let (Some(w), Some(h)) = (w.to_digit(36), h.to_digit(36)) else {
            return Err(fail_at(
                piece_at,
                format!("piece {k}: its width and height are one character 0-9 or a-z each"),
            ));
        };
        let (w, h) = (w as usize, h as usize);
        let (rest, filled) = bits(take(input, 3)?, w * h, "the piece's cells")?;
        let length = w.max(h);
        if w.min(h) != 1 || filled.iter().any(|&f| !f) || length > MAX_SHIP_LENGTH {
            return Err(fail_at(
                piece_at,
                format!(
                    "piece {k} ({w} x {h}) is not a straight ship of length 1 to {MAX_SHIP_LENGTH}; \
                     gridsat places straight ships only"
                ),
            ));
        }
        ships.push(FleetShip::Known(
            ShipType::of_length(length).expect("checked length"),
        ));
        input = rest;
    }
    Ok((input, ships))
}

fn take(
    input: Span<'_>,
    n: usize,
) -> Result<Span<'_>, nom::Err<crate::input::grammar::GrammarError<'_>>> {
    use nom::Parser;
    Ok(nom::bytes::complete::take(n).parse(input)?.0)
}

/// The puzzle as a URL; an error says why it cannot be one (an `unknown` ship: the
/// editor's fleets are lists of known pieces).
pub fn write_url(puzzle: &Puzzle) -> Result<String, String> {
    let mut sums: Vec<Option<u32>> = puzzle
        .col_sums
        .iter()
        .map(|s| s.map(|n| n as u32))
        .collect();
    sums.extend(puzzle.row_sums.iter().map(|s| s.map(|n| n as u32)));
    let mut cells: Vec<Option<u32>> = vec![None; puzzle.rows * puzzle.cols];
    for hint in &puzzle.hints {
        let value = HINTS
            .iter()
            .find(|(_, p)| *p == hint.piece)
            .expect("every hint has a number")
            .0;
        let slot = &mut cells[hint.cell.row * puzzle.cols + hint.cell.col];
        if slot.is_some_and(|v| v != value) {
            return Err(format!(
                "cell ({}, {}) has two different hints; a URL holds one per cell",
                hint.cell.row, hint.cell.col
            ));
        }
        *slot = Some(value);
    }
    let mut lengths = Vec::with_capacity(puzzle.fleet.len());
    for ship in &puzzle.fleet {
        match ship {
            FleetShip::Known(t) => lengths.push(t.length()),
            FleetShip::Unknown => {
                return Err(
                    "the fleet has an 'unknown' ship; a puzz.link fleet lists known pieces only"
                        .into(),
                )
            }
        }
    }
    let sorted = |mut v: Vec<usize>| {
        v.sort();
        v
    };
    let preset = PRESETS.iter().find(|(_, longest)| {
        let fleet: Vec<usize> = preset_fleet(*longest)
            .iter()
            .map(|s| match s {
                FleetShip::Known(t) => t.length(),
                FleetShip::Unknown => 0,
            })
            .collect();
        sorted(fleet) == sorted(lengths.clone())
    });
    let fleet = match preset {
        Some((code, _)) => format!("//{code}"),
        None => {
            let pieces: Vec<String> = lengths
                .iter()
                .map(|&l| {
                    format!(
                        "/{}1{}",
                        char::from_digit(l as u32, 36).expect("lengths fit"),
                        write_bits(&vec![true; l])
                    )
                })
                .collect();
            format!("/{}{}", lengths.len(), pieces.concat())
        }
    };
    let too_large = || "a sum above 4095 cannot be written in a URL".to_string();
    Ok(url::write(
        "battleship",
        puzzle.cols,
        puzzle.rows,
        &format!(
            "{}{}{fleet}",
            write_numbers_with_gaps(&sums).ok_or_else(too_large)?,
            write_numbers_with_gaps(&cells).ok_or_else(too_large)?
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battleship::parse::parse_puzzle;

    /// cspuz_core's serializer tests (cspuz_rs_puzzles/src/puzzles/battleship.rs).
    const CSPUZ_SIZE3: &str = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
    const CSPUZ_CORNERS: &str = "https://puzz.link/p?battleship/2/5/m7hai89g/2/22u/22u";
    const CSPUZ_PLUS: &str =
        "https://puzz.link/p?battleship/7/7/ti5s1i5g3g4g5i2s5i/5/31s/31s/31s/31s/33bk";

    #[test]
    fn cspuz_example_reads_as_its_test_says() {
        let p = read_url(CSPUZ_SIZE3).unwrap();
        assert_eq!(p.col_sums, [None, Some(1), Some(2), None, None, Some(2)]);
        assert_eq!(p.row_sums, [None, Some(3), Some(0), None, Some(3), None]);
        assert_eq!(
            p.hints,
            [
                Hint {
                    cell: Cell::new(0, 5),
                    piece: Piece::Water
                },
                Hint {
                    cell: Cell::new(3, 0),
                    piece: Piece::LeftEnd
                },
            ]
        );
        let mut lengths: Vec<usize> = p
            .fleet
            .iter()
            .map(|s| match s {
                FleetShip::Known(t) => t.length(),
                FleetShip::Unknown => 0,
            })
            .collect();
        lengths.sort();
        assert_eq!(lengths, [1, 1, 1, 2, 2, 3]);
        assert_eq!(write_url(&p).unwrap(), CSPUZ_SIZE3);
    }

    #[test]
    fn bent_pieces_and_corners_are_refused_with_the_reason() {
        let e = read_url(CSPUZ_CORNERS).unwrap_err();
        assert!(e.message.contains("corner of a bent piece"), "{e}");
        let e = read_url(CSPUZ_PLUS).unwrap_err();
        assert!(
            e.to_string()
                .contains("piece 5 (3 x 3) is not a straight ship"),
            "{e}"
        );
        let e = read_url("https://puzz.link/p?battleship/2/2/jj//t").unwrap_err();
        assert!(e.message.contains("tetrominoes"), "{e}");
    }

    #[test]
    fn course_files_round_trip_through_urls() {
        for name in [
            "puzzle_sample",
            "puzzle_sample_constraints",
            "puzzle4",
            "puzzle9_constraints",
            "puzzle10_constraints",
        ] {
            let path = format!(
                "{}/examples/battleship/{name}.txt",
                env!("CARGO_MANIFEST_DIR")
            );
            let file = parse_puzzle(&std::fs::read_to_string(path).unwrap()).unwrap();
            let text = write_url(&file).unwrap();
            let back = read_url(&text).unwrap();
            assert_eq!((back.rows, back.cols), (file.rows, file.cols), "{name}");
            assert_eq!(back.row_sums, file.row_sums, "{name}");
            assert_eq!(back.col_sums, file.col_sums, "{name}");
            let mut hints = file.hints.clone();
            hints.sort_by_key(|h| h.cell);
            assert_eq!(back.hints, hints, "{name}");
            let lengths = |p: &Puzzle| {
                let mut l: Vec<usize> = p
                    .fleet
                    .iter()
                    .map(|s| match s {
                        FleetShip::Known(t) => t.length(),
                        FleetShip::Unknown => 0,
                    })
                    .collect();
                l.sort();
                l
            };
            assert_eq!(lengths(&back), lengths(&file), "{name}");
            assert_eq!(write_url(&back).unwrap(), text, "{name}");
        }
    }

    #[test]
    fn unknown_ships_cannot_be_urls() {
        let path = format!(
            "{}/examples/battleship/puzzle_sample_unknowns.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let file = parse_puzzle(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert!(write_url(&file).unwrap_err().contains("'unknown' ship"));
    }

    #[test]
    fn malformed_urls_say_which_part_is_wrong() {
        let cases = [
            (
                "https://puzz.link/p?battleship/6/6/g12h2g30",
                "column and row sums end early",
            ),
            (
                "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3",
                "cell hints end early",
            ),
            (
                "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w",
                "expected the fleet",
            ),
            (
                "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//x",
                "expected a fleet",
            ),
            (
                "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w/2/31s",
                "expected piece 2 of 2",
            ),
            (
                "https://puzz.link/p?battleship/6/6/g12h2g30g3gkbr3w//c",
                "the hint 11 of cell (0, 5) is not a hint",
            ),
        ];
        for (text, needle) in cases {
            let e = read_url(text).unwrap_err();
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }
}
