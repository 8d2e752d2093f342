//! The pushes that reached each position of a forward quick search (one push, or
//! several for a macro move), and the plan read back from them.

use crate::sokoban::search::positions::PositionTable;
use gridsat_encodings::sokoban::Push;

/// Each position's pushes from its parent, in one arena.
#[derive(Default)]
pub(super) struct Origins {
    pushes: Vec<Push>,
    /// `range[i]`: where position `i`'s pushes are in `pushes`.
    range: Vec<(u32, u32)>,
}

impl Origins {
    /// Position `i` (the next one, or one stored before) is reached by `pushes`.
    pub(super) fn set(&mut self, i: usize, pushes: &[Push]) {
        let start = self.pushes.len() as u32;
        self.pushes.extend_from_slice(pushes);
        let range = (start, self.pushes.len() as u32);
        if i == self.range.len() {
            self.range.push(range);
        } else {
            self.range[i] = range;
        }
    }

    fn of(&self, i: usize) -> &[Push] {
        let (a, b) = self.range[i];
        &self.pushes[a as usize..b as usize]
    }

    /// The pushes from the start to position `i`, following the parents `store` keeps.
    pub(super) fn plan_to(&self, store: &PositionTable, mut i: usize) -> Vec<Push> {
        let mut chunks = Vec::new();
        while let Some(parent) = store.parent_of(i) {
            chunks.push(self.of(i));
            i = parent;
        }
        chunks
            .iter()
            .rev()
            .flat_map(|c| c.iter().copied())
            .collect()
    }
}
