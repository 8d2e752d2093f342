//! Solved matchings of lately expanded positions, kept so that a child, one box moved,
//! repairs its parent's matching in one row (`Matcher::resolve_row`) instead of
//! solving its own from scratch. A best-first search mostly expands a child of a
//! position it expanded a moment ago, so a small table keyed by position number is
//! enough. A*'s matching bound (`heuristic`) and the reverse quick search use it.

use gridsat_encodings::sokoban::matching::Matcher;

/// A solved matching kept for the position numbered `index`, with its boxes.
#[derive(Default)]
struct Saved {
    index: usize,
    boxes: Vec<usize>,
    matcher: Matcher,
}

/// How many expanded positions keep their matching (one slot per position number
/// modulo this).
const SLOTS: usize = 4096;

/// The table of saved matchings.
#[derive(Default)]
pub(super) struct SavedMatchings {
    slots: Vec<Saved>,
    /// Scratch for `renumbered` (it runs once per position taken off an open list).
    map: Vec<usize>,
    moved: Vec<usize>,
}

impl SavedMatchings {
    /// Keeps `matcher`, solved for the sorted `boxes` of the position numbered `index`.
    pub(super) fn save(&mut self, index: usize, boxes: &[usize], matcher: &Matcher) {
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Saved::default);
        }
        let saved = &mut self.slots[index % SLOTS];
        saved.index = index;
        saved.boxes.clear();
        saved.boxes.extend_from_slice(boxes);
        saved.matcher.clone_from(matcher);
    }

    /// The matching saved for the position numbered `parent`, its rows renumbered into
    /// `out` for the sorted `boxes`, one box moved from the parent's (rows past the
    /// boxes, up to `rows`, keep their place), and the row of the moved box; `None` when
    /// it is not kept or the boxes are not one box apart.
    pub(super) fn renumbered(
        &mut self,
        parent: usize,
        boxes: &[usize],
        rows: usize,
        out: &mut Matcher,
    ) -> Option<usize> {
        let saved = self.slots.get(parent % SLOTS)?;
        let old = &saved.boxes;
        if saved.index != parent || old.is_empty() || old.len() != boxes.len() {
            return None;
        }
        let (map, moved) = (&mut self.map, &mut self.moved);
        if !renumbering(old, boxes, rows, 1, map, moved) || moved.len() != 1 {
            return None;
        }
        saved.matcher.permute_rows_into(map, out);
        Some(moved[0])
    }
}

/// How the rows of a matching solved for the sorted boxes `old` become the rows of the
/// sorted `boxes` (as many): a box on a square of both keeps its square's row, and the
/// boxes on new squares take, in order, the rows of the squares left. Sets `map[r]` to
/// old row `r`'s new row (rows past the boxes, up to `rows`, keep their place) and
/// `moved` to the new rows of the boxes on new squares, the rows a repair solves again;
/// `false` when more than `most` boxes moved.
pub(super) fn renumbering(
    old: &[usize],
    boxes: &[usize],
    rows: usize,
    most: usize,
    map: &mut Vec<usize>,
    moved: &mut Vec<usize>,
) -> bool {
    moved.clear();
    if old.len() != boxes.len() {
        return false;
    }
    let left = old.iter().filter(|b| boxes.binary_search(b).is_err());
    let arrived = boxes.iter().filter(|b| old.binary_search(b).is_err());
    if left.clone().count() > most {
        return false;
    }
    map.clear();
    map.extend(0..rows);
    let mut arrived_in_order = arrived.clone();
    for (r, b) in old.iter().enumerate() {
        let square = match boxes.binary_search(b) {
            Ok(_) => *b,
            Err(_) => *arrived_in_order.next().expect("as many arrived as left"),
        };
        map[r] = boxes.binary_search(&square).expect("every box has a row");
    }
    moved.extend(arrived.map(|b| boxes.binary_search(b).expect("a box")));
    true
}
