//! The positions a search has stored, in discovery order: box sets packed as bitsets in
//! one arena, the player's square (whatever the search keys on: the region's smallest
//! square or the exact one), the push that reached each and from where, and an
//! open-addressing table of `u32` indices to find a position again from its contents.
//! About `8 x words + 10` bytes a position plus the table; each search keeps its own
//! per-position labels (costs, closed flags) beside it, indexed alike.
//!
//! Each slot holds, beside the index, 32 bits of the position's hash: a probe that meets
//! another position tells it apart from the slot alone, without reading that position's
//! player and boxes (two cache misses in tables of millions, where the lookups were a
//! fifth of the reverse search's time).

use gridsat_encodings::sokoban::{Dir, Push};

const EMPTY: u32 = u32::MAX;

/// A slot of the table: the position's index in the low 32 bits, the high 32 bits of
/// its hash above.
const EMPTY_SLOT: u64 = EMPTY as u64;

fn slot(i: usize, hash: u64) -> u64 {
    (hash & !0xFFFF_FFFF) | i as u64
}

fn index_of(slot: u64) -> u32 {
    slot as u32
}

/// Packs the squares marked in `boxes` into `out`, one bit per square.
pub(crate) fn pack(boxes: &[bool], out: &mut Vec<u64>) {
    out.clear();
    out.resize(boxes.len().div_ceil(64), 0);
    for (c, _) in boxes.iter().enumerate().filter(|(_, &b)| b) {
        out[c / 64] |= 1 << (c % 64);
    }
}

/// The squares marked in a packed box set, in order.
pub(crate) fn squares(packed: &[u64]) -> impl Iterator<Item = usize> + '_ {
    packed.iter().enumerate().flat_map(|(w, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                c
            })
        })
    })
}

/// `out` is the packed box set `words` with the box on `from` moved to `to`: two bits
/// flipped instead of a scan of the squares.
pub(crate) fn pack_moved(words: &[u64], (from, to): (usize, usize), out: &mut Vec<u64>) {
    out.clear();
    out.extend_from_slice(words);
    out[from / 64] &= !(1 << (from % 64));
    out[to / 64] |= 1 << (to % 64);
}

pub(crate) struct PositionTable {
    words: usize,
    boxes: Vec<u64>,
    player: Vec<u16>,
    parent: Vec<u32>,
    /// `from * 4 + dir` of the push that reached the position.
    push: Vec<u32>,
    slots: Vec<u64>,
}

const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The hash of a box set alone: it picks the position's home slot, so that the slot
/// can be fetched from memory (`PositionTable::prefetch`) while the search still works
/// out the player's region. Positions with the same boxes and other regions probe on
/// from the same home, a few slots at most.
fn box_hash(words: &[u64]) -> u64 {
    let mut h = MIX;
    for &w in words {
        h = (h ^ w).wrapping_mul(MIX);
        h ^= h >> 29;
    }
    h
}

/// The position's hash, the player mixed into the box set's: its high 32 bits are the
/// slot's tag.
fn with_player(box_hash: u64, player: u16) -> u64 {
    let h = (box_hash ^ (u64::from(player) + 1).wrapping_mul(MIX)).wrapping_mul(MIX);
    h ^ (h >> 31)
}

/// The hash a table gives a position: for spreading positions over several tables.
pub(crate) fn hash_of(words: &[u64], player: u16) -> u64 {
    with_player(box_hash(words), player)
}

impl PositionTable {
    /// A table for box sets of `words` 64-bit words.
    pub(crate) fn new(words: usize) -> PositionTable {
        PositionTable {
            words,
            boxes: Vec::new(),
            player: Vec::new(),
            parent: Vec::new(),
            push: Vec::new(),
            slots: vec![EMPTY_SLOT; 1 << 12],
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.player.len()
    }

    fn boxes_of(&self, i: usize) -> &[u64] {
        &self.boxes[i * self.words..(i + 1) * self.words]
    }

    pub(crate) fn player_of(&self, i: usize) -> u16 {
        self.player[i]
    }

    /// Marks the boxes of position `i` in `occupied` (cleared first) and lists them in
    /// `boxes`, in square order.
    pub(crate) fn unpack(&self, i: usize, occupied: &mut [bool], boxes: &mut Vec<usize>) {
        occupied.iter_mut().for_each(|o| *o = false);
        boxes.clear();
        for c in squares(self.boxes_of(i)) {
            occupied[c] = true;
            boxes.push(c);
        }
    }

    /// The slot holding the position, or the empty slot where it would go; and the
    /// position's hash.
    fn slot_of(&self, words: &[u64], player: u16) -> (usize, u64) {
        let mask = self.slots.len() - 1;
        let home = box_hash(words);
        let h = with_player(home, player);
        let tag = h & !0xFFFF_FFFF;
        let mut at = home as usize & mask;
        loop {
            let s = self.slots[at];
            if s == EMPTY_SLOT {
                return (at, h);
            }
            let i = index_of(s) as usize;
            if s & !0xFFFF_FFFF == tag && self.player[i] == player && self.boxes_of(i) == words {
                return (at, h);
            }
            at = (at + 1) & mask;
        }
    }

    /// Asks the memory for the home slot of the box set `words` ahead of a lookup: in
    /// tables of millions the slot is rarely in the cache, and the search has the
    /// player's region to work out before it can look.
    pub(crate) fn prefetch(&self, words: &[u64]) {
        let Some(mask) = self.slots.len().checked_sub(1) else {
            return;
        };
        let at = box_hash(words) as usize & mask;
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot: *const u64 = &self.slots[at];
            // SAFETY: a prefetch is a hint; it reads nothing the program sees, and the
            // address is that of a live slot.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = at;
    }

    /// The index of the position, if stored.
    pub(crate) fn find(&self, words: &[u64], player: u16) -> Option<usize> {
        let s = self.slots[self.slot_of(words, player).0];
        (s != EMPTY_SLOT).then_some(index_of(s) as usize)
    }

    /// The box set (packed) and player square of position `i`.
    pub(crate) fn key(&self, i: usize) -> (&[u64], u16) {
        (self.boxes_of(i), self.player[i])
    }

    /// The position `i` was reached from, if any (the first position stored has none).
    pub(crate) fn parent_of(&self, i: usize) -> Option<usize> {
        (self.parent[i] != EMPTY).then_some(self.parent[i] as usize)
    }

    /// The index of the position, and whether it is new (then stored, with no origin).
    pub(crate) fn find_or_insert(&mut self, words: &[u64], player: u16) -> (usize, bool) {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let (at, h) = self.slot_of(words, player);
        if self.slots[at] != EMPTY_SLOT {
            return (index_of(self.slots[at]) as usize, false);
        }
        let i = self.len();
        self.slots[at] = slot(i, h);
        self.boxes.extend_from_slice(words);
        self.player.push(player);
        self.parent.push(EMPTY);
        self.push.push(0);
        (i, true)
    }

    /// Records that position `i` is reached from position `parent` by `push`.
    pub(crate) fn set_origin(&mut self, i: usize, parent: usize, push: Push) {
        self.parent[i] = parent as u32;
        self.set_push(i, push);
    }

    /// Records the push that reached position `i`, from a parent kept elsewhere (the
    /// last layer's workers keep parents across several tables).
    pub(crate) fn set_push(&mut self, i: usize, push: Push) {
        self.push[i] = (push.from * 4 + push.dir.index()) as u32;
    }

    /// The push recorded for position `i`.
    pub(crate) fn push_of(&self, i: usize) -> Push {
        let code = self.push[i] as usize;
        Push {
            from: code / 4,
            dir: Dir::ALL[code % 4],
        }
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![EMPTY_SLOT; size];
        let mask = size - 1;
        for i in 0..self.len() {
            let home = box_hash(self.boxes_of(i));
            let h = with_player(home, self.player[i]);
            let mut at = home as usize & mask;
            while self.slots[at] != EMPTY_SLOT {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot(i, h);
        }
    }

    /// The pushes from the first position stored to position `i`.
    pub(crate) fn plan_to(&self, mut i: usize) -> Vec<Push> {
        let mut plan = Vec::new();
        while self.parent[i] != EMPTY {
            plan.push(self.push_of(i));
            i = self.parent[i] as usize;
        }
        plan.reverse();
        plan
    }
}
