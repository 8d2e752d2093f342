//! Meeting in the middle: a position that a forward search reached from the start and
//! the reverse search reached from the solved position is a plan, the forward pushes to
//! it followed by the reverse search's pulls read backwards.
//!
//! Both directions key a position alike (the boxes, and the smallest square of the
//! player's region), so a meeting is one table lookup per new position. The two
//! searches fail in different places, which is why it pays: the reverse search gets the
//! boxes near the squares where they start but often not onto them (its bound has
//! plateaus there), and the forward search has stored the positions a few pushes from
//! the start; the forward search packs a goal room part way and stalls, and the reverse
//! search has stored the goal room emptied part way.
//!
//! Each search's positions are looked up once, after the turn that stored them, in the
//! tables of the searches of the other direction, also those that have ended (their
//! tables stay).

use super::turns::Searcher;
use gridsat_encodings::sokoban::Push;

/// How many positions of each search have been looked up in the others' tables.
pub(super) struct Meetings {
    checked: Vec<usize>,
}

impl Meetings {
    pub(super) fn new(searches: usize) -> Meetings {
        Meetings {
            checked: vec![0; searches],
        }
    }

    /// Looks up the positions search `k` stored since its last look in the tables of the
    /// searches of the other direction: the first plan through one of them with fewer
    /// pushes than `below`, if any.
    pub(super) fn look(
        &mut self,
        searches: &[Searcher],
        k: usize,
        below: Option<u32>,
    ) -> Option<Vec<Push>> {
        let from = self.checked[k];
        let to = searches[k].stored();
        self.checked[k] = to;
        let this = &searches[k];
        for other in searches
            .iter()
            .filter(|s| s.is_reverse() != this.is_reverse())
        {
            for i in from..to {
                let (boxes, player) = this.key(i);
                let Some(j) = other.find(boxes, player) else {
                    continue;
                };
                let (forward, reverse) = match this.is_reverse() {
                    false => (i, j),
                    true => (j, i),
                };
                let (first, second) = match this.is_reverse() {
                    false => (this, other),
                    true => (other, this),
                };
                let mut plan = first.way(forward);
                plan.extend(second.way(reverse));
                if below.is_none_or(|b| (plan.len() as u64) < u64::from(b)) {
                    return Some(plan);
                }
            }
        }
        None
    }
}
