//! The Battleship puzzle as a front end reads, checks and draws it: board, sums, fleet,
//! hints, and ship placements. No CNF here, so the parser, the verifier and the renderer
//! depend on the puzzle alone and `encode` on nothing but this model and the builder.

use crate::grid::Cell;

/// The longest ship the puzzle knows (a tanker).
pub const MAX_SHIP_LENGTH: usize = 7;

/// A ship type of the seed's fleet, named by length.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShipType {
    Submarine,
    Destroyer,
    Cruiser,
    Battleship,
    Carrier,
    Cargo,
    Tanker,
}

impl ShipType {
    pub const ALL: [ShipType; 7] = [
        ShipType::Submarine,
        ShipType::Destroyer,
        ShipType::Cruiser,
        ShipType::Battleship,
        ShipType::Carrier,
        ShipType::Cargo,
        ShipType::Tanker,
    ];

    pub fn length(self) -> usize {
        self as usize + 1
    }

    /// The type of a ship of `length` cells, for lengths 1..=7.
    pub fn of_length(length: usize) -> Option<ShipType> {
        ShipType::ALL.get(length.checked_sub(1)?).copied()
    }

    pub fn name(self) -> &'static str {
        match self {
            ShipType::Submarine => "submarine",
            ShipType::Destroyer => "destroyer",
            ShipType::Cruiser => "cruiser",
            ShipType::Battleship => "battleship",
            ShipType::Carrier => "carrier",
            ShipType::Cargo => "cargo",
            ShipType::Tanker => "tanker",
        }
    }

    pub fn from_name(name: &str) -> Option<ShipType> {
        ShipType::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// One line of the fleet list: a ship of known type, or an `unknown` one (length 1..=7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FleetShip {
    Known(ShipType),
    Unknown,
}

/// What a cell hint says the cell holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// `o`: a whole submarine.
    Submarine,
    /// `<`: the left end of a horizontal ship of length >= 2.
    LeftEnd,
    /// `>`: the right end of a horizontal ship of length >= 2.
    RightEnd,
    /// `^`: the top end of a vertical ship of length >= 2.
    TopEnd,
    /// `v`: the bottom end of a vertical ship of length >= 2.
    BottomEnd,
    /// `X`: a middle cell (not an end) of a ship of length >= 3.
    Middle,
    /// `_`: open water.
    Water,
}

impl Piece {
    pub const ALL: [Piece; 7] = [
        Piece::Submarine,
        Piece::LeftEnd,
        Piece::RightEnd,
        Piece::TopEnd,
        Piece::BottomEnd,
        Piece::Middle,
        Piece::Water,
    ];

    /// The character of the input format (and, but for water, of the board drawing).
    pub fn symbol(self) -> char {
        match self {
            Piece::Submarine => 'o',
            Piece::LeftEnd => '<',
            Piece::RightEnd => '>',
            Piece::TopEnd => '^',
            Piece::BottomEnd => 'v',
            Piece::Middle => 'X',
            Piece::Water => '_',
        }
    }

    pub fn from_symbol(symbol: char) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.symbol() == symbol)
    }
}

/// A cell hint: `constraint ROW COL CH`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hint {
    pub cell: Cell,
    pub piece: Piece,
}

/// A Battleship puzzle: the board, its sums (`None` for `?`), the fleet and the hints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub rows: usize,
    pub cols: usize,
    pub row_sums: Vec<Option<usize>>,
    pub col_sums: Vec<Option<usize>>,
    pub fleet: Vec<FleetShip>,
    pub hints: Vec<Hint>,
}

impl Puzzle {
    /// Number of ships of each known length (index = length), and of `unknown` ships.
    pub fn fleet_census(&self) -> ([usize; MAX_SHIP_LENGTH + 1], usize) {
        let mut known = [0; MAX_SHIP_LENGTH + 1];
        let mut unknown = 0;
        for ship in &self.fleet {
            match ship {
                FleetShip::Known(t) => known[t.length()] += 1,
                FleetShip::Unknown => unknown += 1,
            }
        }
        (known, unknown)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Orientation {
    Horizontal,
    Vertical,
}

/// A ship on the board: its length, its upper-left cell and its orientation. A ship of
/// length 1 is always `Horizontal`, so each set of cells has exactly one `Placement`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub top_left: Cell,
    pub length: usize,
    pub orientation: Orientation,
}

impl Placement {
    /// The `k`-th cell from the upper-left end.
    pub fn cell(&self, k: usize) -> Cell {
        let Cell { row, col } = self.top_left;
        match self.orientation {
            Orientation::Horizontal => Cell::new(row, col + k),
            Orientation::Vertical => Cell::new(row + k, col),
        }
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.length).map(|k| self.cell(k))
    }

    pub fn ship_type(&self) -> Option<ShipType> {
        ShipType::of_length(self.length)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lengths_and_symbols_round_trip() {
        for t in ShipType::ALL {
            assert_eq!(ShipType::from_name(t.name()), Some(t));
            assert_eq!(ShipType::of_length(t.length()), Some(t));
        }
        assert_eq!(ShipType::of_length(0), None);
        assert_eq!(ShipType::of_length(8), None);
        for p in Piece::ALL {
            assert_eq!(Piece::from_symbol(p.symbol()), Some(p));
        }
    }

    #[test]
    fn placements_list_cells_from_the_upper_left() {
        let p = Placement {
            top_left: Cell::new(2, 3),
            length: 3,
            orientation: Orientation::Vertical,
        };
        let cells: Vec<Cell> = p.cells().collect();
        assert_eq!(cells, [Cell::new(2, 3), Cell::new(3, 3), Cell::new(4, 3)]);
    }
}
