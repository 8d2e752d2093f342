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
        &self,
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
        // Rows of the saved matching in this position's order: boxes that stayed keep
        // their square, the one that moved goes where its new square sorts.
        let mut moved_from = old.iter().filter(|b| boxes.binary_search(b).is_err());
        let mut moved_to = boxes.iter().filter(|b| old.binary_search(b).is_err());
        let (Some(_), None, Some(&to), None) = (
            moved_from.next(),
            moved_from.next(),
            moved_to.next(),
            moved_to.next(),
        ) else {
            return None;
        };
        let mut map: Vec<usize> = (0..rows).collect();
        for (r, b) in old.iter().enumerate() {
            let square = if boxes.binary_search(b).is_ok() {
                *b
            } else {
                to
            };
            map[r] = boxes.binary_search(&square).expect("every box has a row");
        }
        saved.matcher.permute_rows_into(&map, out);
        Some(boxes.binary_search(&to).expect("the moved box has a row"))
    }
}
