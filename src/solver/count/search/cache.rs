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
/// twonot2 with two stars hits 19% of its first 4,096 (almost all dead ends) and 35%
/// later: at one in five it stopped keying and proved 0.6 M solutions in 40 s, at one
/// in eight it keeps its keys and proves 6 M (loaded machine, count_bench --exact).
const CACHE_TRIAL: (u64, u64) = (4096, 8);

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
    /// Counts of 64 bits or more, and the memory they hold: counted against the bound
    /// too (a formula whose counts have 100,000 bits would otherwise fill the memory
    /// with them while the table stays small).
    big: Vec<Count>,
    big_bytes: usize,
    max_big_bytes: usize,
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
            big_bytes: 0,
            max_big_bytes: bytes / 2,
            entries: 0,
            limit: max_slots / 4 * 3,
            max_slots,
        }
    }

    /// The memory the cache holds now: its table and its big counts.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() + self.big_bytes
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
            let grow = self.slots.len() < self.max_slots && self.entries < self.limit;
            if !(grow && self.rehash(self.slots.len() * 2)) {
                self.evict();
                stats.cache_evictions += 1;
            }
        }
        if self.big_bytes + count.heap_bytes() > self.max_big_bytes && self.entries > 0 {
            self.evict();
            stats.cache_evictions += 1;
        }
        let (count, meta) = match count.to_u64() {
            Some(n) => (n, 0),
            None => {
                self.big_bytes += count.heap_bytes();
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
    /// False, with the table kept at its size for good, when the memory for the larger
    /// one cannot be had (a process under a memory cap): the cache then evicts instead
    /// of growing, which costs time, never a count.
    fn rehash(&mut self, slots: usize) -> bool {
        let mut table = Vec::new();
        if table.try_reserve_exact(slots).is_err() {
            self.max_slots = self.slots.len();
            self.limit = self.limit.min(self.slots.len() / 4 * 3);
            return false;
        }
        table.resize(slots, FREE);
        let old = std::mem::replace(&mut self.slots, table);
        self.entries = 0;
        for slot in old.into_iter().filter(|s| s.key != EMPTY) {
            self.insert(slot);
        }
        true
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
        let keep = self.entries.min(self.limit) / 2;
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
        let mut at = 0;
        while at < self.slots.len() {
            let slot = &self.slots[at];
            if slot.key != EMPTY && bucket(slot) < threshold {
                // Another entry may have moved into `at`: look at it again.
                self.remove(at);
            } else {
                at += 1;
            }
        }
        // The kept big counts, renumbered; the hits start again from none.
        let old_big = std::mem::take(&mut self.big);
        self.big_bytes = 0;
        for slot in self.slots.iter_mut().filter(|s| s.key != EMPTY) {
            if slot.meta & BIG != 0 {
                let count = old_big[slot.count as usize].clone();
                self.big_bytes += count.heap_bytes();
                self.big.push(count);
                slot.count = (self.big.len() - 1) as u64;
            }
            slot.meta &= !HIT;
        }
    }

    /// Empties slot `hole` by backward shifting (linear probing): each later entry of
    /// its run whose probe passes the hole moves into it, so that no entry is left
    /// behind an empty slot its lookup would stop at.
    fn remove(&mut self, mut hole: usize) {
        let mask = self.slots.len() - 1;
        let mut at = hole;
        loop {
            at = (at + 1) & mask;
            let slot = self.slots[at];
            if slot.key == EMPTY {
                break;
            }
            let home = slot.key.0 as usize & mask;
            // The entry may sit in the hole when the hole lies on its probe, between
            // its home and where it is now.
            if at.wrapping_sub(hole) & mask <= at.wrapping_sub(home) & mask {
                self.slots[hole] = slot;
                hole = at;
            }
        }
        self.slots[hole] = FREE;
        self.entries -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A small deterministic generator (xorshift), for keys, counts and sizes.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Every entry the table holds must be found from its key (no gap left in a probe
    /// sequence), with the count it was stored with.
    fn agrees(cache: &Cache, model: &HashMap<Key, (Count, NodeId)>) -> usize {
        let mut held = 0;
        for slot in cache.slots.iter().filter(|s| s.key != EMPTY) {
            held += 1;
            assert_eq!(
                cache.position(&slot.key).map(|at| cache.slots[at].key),
                Some(slot.key)
            );
            let (count, node) = &model[&slot.key];
            assert_eq!(cache.known(&slot.key).as_ref(), Some(count));
            assert_eq!(slot.node, *node);
        }
        assert_eq!(held, cache.entries);
        held
    }

    #[test]
    fn evictions_keep_every_kept_entry_reachable_and_exact() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        // Room for a few thousand entries: the table grows, then evicts again and again.
        let mut cache = Cache::with_bytes(1 << 17);
        let mut stats = SearchStats::default();
        let mut model: HashMap<Key, (Count, NodeId)> = HashMap::new();
        let mut keys: Vec<Key> = Vec::new();
        for round in 0..200_000u64 {
            // Now and then a key seen before (a sub-problem met again), mostly new ones;
            // few distinct low bits, so that probe sequences run long.
            let key = if !keys.is_empty() && rng.next().is_multiple_of(4) {
                keys[(rng.next() % keys.len() as u64) as usize]
            } else {
                let key = (rng.next() % 50_000 + 1, rng.next());
                keys.push(key);
                key
            };
            if let Some((count, node)) = cache.lookup(&key, &mut stats) {
                assert_eq!((&count, &node), (&model[&key].0, &model[&key].1));
                continue;
            }
            let count = match rng.next() % 3 {
                0 => Count::from(rng.next() % 1000),
                1 => Count::from(rng.next()),
                // Past 64 bits: kept apart, in `big`.
                _ => Count::from(u128::from(rng.next()) << 64 | 1),
            };
            let node = (rng.next() % 1000) as NodeId;
            let size = (rng.next() % 3000) as usize;
            model.insert(key, (count.clone(), node));
            cache.store(key, (count.clone(), node), size, &mut stats);
            // What was just stored is found at once.
            assert_eq!(cache.known(&key), Some(count));
            if round % 10_007 == 0 {
                agrees(&cache, &model);
            }
        }
        assert!(stats.cache_evictions > 10, "{stats:?}");
        assert!(agrees(&cache, &model) > 0);
        // The big counts of evicted entries are dropped with them.
        let big_held = cache
            .slots
            .iter()
            .filter(|s| s.key != EMPTY && s.meta & BIG != 0);
        assert_eq!(big_held.count(), cache.big.len());
    }
}
