//! The cache of sub-problem counts, keyed by the hash of their residual formula (see
//! `components`).
//!
//! The cache only saves work: forgetting an entry, or all of them, keeps every count
//! exact. Only finished counts are stored: a search that was stopped (see the search's
//! module docs) never stores the lower bound it unwinds with, so every hit is an exact
//! count.
//!
//! It is an open-addressing table of 32-byte slots (the 128-bit key, the count when it
//! fits in 64 bits, the DAG node, and what eviction weighs), so that a search that
//! meets tens of millions of sub-problems (twonot2 with two stars) keeps them in a
//! couple of GiB. Its size is bounded (`Cache::with_bytes`); when it is full it does
//! not start again from nothing but keeps the half worth the most: the entries hit
//! since the last eviction, then those of the largest sub-problems (the costliest to
//! count again).

use super::super::dag::NodeId;
use super::super::number::Count;
use super::components::Key;
use super::SearchStats;

/// The default bound on the cache's memory: 2 GiB.
pub(super) const DEFAULT_CACHE_BYTES: usize = 2 << 30;

/// The first table: grown by doubling up to the bound.
const FIRST_SLOTS: usize = 1 << 12;

/// Keys cost a walk over the clauses each decision satisfied (a quarter of Battleship
/// puzzle10's time) and pay off only through cache hits. After `.0` sub-problems
/// cached, if so far there were fewer hits than one per `.1` entries, the search stops
/// keying and caching the sub-problem after each decision for good and caches only at
/// component analyses. Star Battle twonot2 hits about half the time and keeps its
/// cache; puzzle10 hits about one in ten (and its hits save 8% of its decisions).
const CACHE_TRIAL: (u64, u64) = (4096, 5);

/// `Slot::meta`: the count is in `Cache::big` (it does not fit in 64 bits).
const BIG: u32 = 1 << 31;
/// `Slot::meta`: the entry was hit since the last eviction.
const HIT: u32 = 1 << 30;
/// `Slot::meta`: what the entry is worth keeping (the size of its sub-problem).
const WORTH: u32 = HIT - 1;

/// One entry; `key == EMPTY` marks a free slot.
#[derive(Clone, Copy)]
struct Slot {
    key: Key,
    /// The count, or its index in `Cache::big` when `meta & BIG`.
    count: u64,
    node: NodeId,
    meta: u32,
}

const EMPTY: Key = (0, 0);
const FREE: Slot = Slot {
    key: EMPTY,
    count: 0,
    node: 0,
    meta: 0,
};

/// Sub-problem counts (with their DAG node when the search keeps one).
pub(super) struct Cache {
    slots: Vec<Slot>,
    /// Counts of 64 bits or more.
    big: Vec<Count>,
    entries: usize,
    /// Entries the cache may hold: when it holds that many it evicts half.
    pub limit: usize,
    /// Slots the table may grow to.
    max_slots: usize,
}

impl Cache {
    /// A cache that grows to about `bytes` of memory.
    pub fn with_bytes(bytes: usize) -> Cache {
        let slot = std::mem::size_of::<Slot>();
        let max_slots = (bytes / slot).max(FIRST_SLOTS).next_power_of_two() / 2;
        let max_slots = max_slots.max(FIRST_SLOTS);
        Cache {
            slots: vec![FREE; FIRST_SLOTS],
            big: Vec::new(),
            entries: 0,
            limit: max_slots / 4 * 3,
            max_slots,
        }
    }

    fn position(&self, key: &Key) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut at = key.0 as usize & mask;
        loop {
            let slot = &self.slots[at];
            if slot.key == *key {
                return Some(at);
            }
            if slot.key == EMPTY {
                return None;
            }
            at = (at + 1) & mask;
        }
    }

    fn count_of(&self, slot: &Slot) -> Count {
        if slot.meta & BIG != 0 {
            self.big[slot.count as usize].clone()
        } else {
            Count::from(slot.count)
        }
    }

    /// The count of the sub-problem with this key, if it was stored (a hit is counted
    /// in `stats`).
    pub fn lookup(&mut self, key: &Key, stats: &mut SearchStats) -> Option<(Count, NodeId)> {
        if *key == EMPTY {
            return None;
        }
        let at = self.position(key)?;
        stats.cache_hits += 1;
        self.slots[at].meta |= HIT;
        let slot = self.slots[at];
        Some((self.count_of(&slot), slot.node))
    }

    /// The count of the sub-problem with this key, if it was stored, without counting a
    /// hit: for a stopped search's bound, which is not a lookup of the search.
    pub fn known(&self, key: &Key) -> Option<Count> {
        if *key == EMPTY {
            return None;
        }
        let at = self.position(key)?;
        Some(self.count_of(&self.slots[at]))
    }

    /// Stores a finished count of a sub-problem of about `size` variables. Returns false
    /// when the trial of `CACHE_TRIAL` says that keys after every decision do not pay.
    pub fn store(
        &mut self,
        key: Key,
        (count, node): (Count, NodeId),
        size: usize,
        stats: &mut SearchStats,
    ) -> bool {
        stats.cache_entries += 1;
        let entries = stats.cache_entries;
        let keep_keying =
            !(entries.is_multiple_of(CACHE_TRIAL.0) && stats.cache_hits * CACHE_TRIAL.1 < entries);
        if count.is_zero() {
            stats.dead_ends += 1;
        }
        if key == EMPTY {
            return keep_keying;
        }
        if self.entries >= self.limit.min(self.slots.len() / 4 * 3) {
            if self.slots.len() < self.max_slots && self.entries < self.limit {
                self.rehash(self.slots.len() * 2);
            } else {
                self.evict();
                stats.cache_evictions += 1;
            }
        }
        let (count, meta) = match count.to_u64() {
            Some(n) => (n, 0),
            None => {
                self.big.push(count);
                ((self.big.len() - 1) as u64, BIG)
            }
        };
        let slot = Slot {
            key,
            count,
            node,
            meta: meta | (size.min(WORTH as usize) as u32),
        };
        self.insert(slot);
        keep_keying
    }

    fn insert(&mut self, slot: Slot) {
        let mask = self.slots.len() - 1;
        let mut at = slot.key.0 as usize & mask;
        loop {
            let here = &mut self.slots[at];
            if here.key == EMPTY {
                *here = slot;
                self.entries += 1;
                return;
            }
            if here.key == slot.key {
                // The same sub-problem counted again (after an eviction): the same count.
                *here = slot;
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /// A table of `slots` slots holding the same entries.
    fn rehash(&mut self, slots: usize) {
        let old = std::mem::replace(&mut self.slots, vec![FREE; slots]);
        self.entries = 0;
        for slot in old.into_iter().filter(|s| s.key != EMPTY) {
            self.insert(slot);
        }
    }

    /// Keeps the half of the entries worth the most: those hit since the last eviction
    /// first, then those of the largest sub-problems. In place, so that eviction needs
    /// no second table.
    fn evict(&mut self) {
        const BUCKETS: usize = 1 << 12;
        let bucket = |s: &Slot| {
            let worth = (s.meta & WORTH) as usize;
            worth.min(BUCKETS / 2 - 1) + if s.meta & HIT != 0 { BUCKETS / 2 } else { 0 }
        };
        // A histogram of scores finds the threshold that keeps at most half.
        let keep = self.limit / 2;
        let mut histogram = vec![0usize; BUCKETS];
        for slot in self.slots.iter().filter(|s| s.key != EMPTY) {
            histogram[bucket(slot)] += 1;
        }
        let mut kept = 0;
        let mut threshold = BUCKETS;
        while threshold > 0 && kept + histogram[threshold - 1] <= keep {
            threshold -= 1;
            kept += histogram[threshold];
        }
        for slot in &mut self.slots {
            if slot.key != EMPTY && bucket(slot) < threshold {
                *slot = FREE;
                self.entries -= 1;
            }
        }
        // Linear probing: every kept entry is inserted again, in table order from a
        // free slot on, so that none is left behind a gap its probe would stop at.
        let old_big = std::mem::take(&mut self.big);
        let mask = self.slots.len() - 1;
        let free = self.slots.iter().position(|s| s.key == EMPTY).unwrap_or(0);
        for i in 1..=self.slots.len() {
            let at = (free + i) & mask;
            let mut slot = self.slots[at];
            if slot.key == EMPTY {
                continue;
            }
            self.slots[at] = FREE;
            self.entries -= 1;
            if slot.meta & BIG != 0 {
                self.big.push(old_big[slot.count as usize].clone());
                slot.count = (self.big.len() - 1) as u64;
            }
            slot.meta &= !HIT;
            self.insert(slot);
        }
    }
}
