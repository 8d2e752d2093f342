//! Battleship solitaire as CNF.
//!
//! Primary (projected) variables: one per cell, "a ship covers this cell". Two boards are
//! different solutions exactly when some cell differs; since no two ships touch, the ship
//! cells of a board split into ships in one way only, so swapping identical ships never
//! makes a new solution and an `unknown` ship is simply whatever length its cells have.
//!
//! The rules, as encoded:
//! 1. ship shape: no two ship cells touch diagonally. With that, every orthogonally
//!    connected group of ship cells is a straight segment, and different segments never
//!    touch, not even at a corner;
//! 2. ships: one auxiliary variable per possible ship `Placement` (length, upper-left cell,
//!    orientation), equal to "its cells are ship and the cells just beyond both ends are
//!    water" — exactly one placement is true per segment on the board; every ship cell is
//!    covered by a true placement of a length the fleet allows;
//! 3. fleet: per length, the number of true placements is the number of known ships of that
//!    length (at least that many when `unknown` ships may take it), and the total is the
//!    fleet size (the shortest length's count is left out when the sums imply it, see
//!    `implied_fleet_count`);
//! 4. row and column sums (cardinality encoding of choice; the fleet counts always use
//!    the sequential counter, see `FLEET_CARD`); a `?` sum adds nothing;
//! 5. hints, one rule per piece.
//!
//! Every auxiliary variable is a function of the cells (placements are conjunctions of
//! cells, cardinality counters are functions of their inputs), so a projected counter and
//! an unprojected one agree.
//!
//! Shape: `model` is the puzzle as a front end reads and checks it (board, sums, fleet,
//! hints, placements), with no CNF in it; `encode` states the rules above over it and
//! decodes solutions. The public names are re-exported here.

mod encode;
mod model;

pub use encode::{encode, fleet_counter_bound, pairwise_sum_clauses, Encoded, Options, FLEET_CARD};
pub use model::{
    FleetShip, Hint, Orientation, Piece, Placement, Puzzle, ShipType, MAX_SHIP_LENGTH,
};
