//! The cache of sub-problem counts, keyed by the hash of their residual formula (see
//! `components`).
//!
//! The cache only saves work: forgetting an entry, or all of them, keeps every count
//! exact, so when it is full it is simply emptied. Only finished counts are stored: a
//! search that was stopped (see the search's module docs) never stores the lower bound
//! it unwinds with, so every hit is an exact count.

use super::super::dag::NodeId;
use super::super::number::Count;
use super::components::Key;
use super::SearchStats;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// An entry takes 64 bytes and the table keeps up to twice as many slots: about 1 GiB.
const MAX_CACHE_ENTRIES: usize = 1 << 23;

/// Keys cost a walk over the clauses each decision satisfied (a quarter of Battleship
/// puzzle10's time) and pay off only through cache hits. Every `.0` sub-problems
/// cached, if so far there were fewer hits than one per `.1` entries, the search stops
/// keying and caching the sub-problem after each decision for good and caches only at
/// component analyses.
/// Star Battle twonot2 hits about half the time and keeps its cache; puzzle10 hits
/// about one in ten (and its hits save 8% of its decisions).
const CACHE_TRIAL: (u64, u64) = (4096, 5);

/// Sub-problem counts (with their DAG node when the search keeps one).
pub(super) struct Cache {
    table: HashMap<Key, (Count, NodeId), BuildHasherDefault<KeyHasher>>,
    /// Entries the cache may hold before it is emptied (`MAX_CACHE_ENTRIES`).
    pub limit: usize,
}

impl Cache {
    pub fn new() -> Cache {
        Cache {
            table: HashMap::default(),
            limit: MAX_CACHE_ENTRIES,
        }
    }

    /// The count of the sub-problem with this key, if it was stored (a hit is counted
    /// in `stats`).
    pub fn lookup(&self, key: &Key, stats: &mut SearchStats) -> Option<(Count, NodeId)> {
        let hit = self.table.get(key)?;
        stats.cache_hits += 1;
        Some(hit.clone())
    }

    /// The count of the sub-problem with this key, if it was stored, without counting a
    /// hit: for a stopped search's bound, which is not a lookup of the search.
    pub fn known(&self, key: &Key) -> Option<&Count> {
        self.table.get(key).map(|(count, _)| count)
    }

    /// Stores a finished count. Returns false when the trial of `CACHE_TRIAL` says that
    /// keys after every decision do not pay.
    pub fn store(&mut self, key: Key, result: (Count, NodeId), stats: &mut SearchStats) -> bool {
        if self.table.len() >= self.limit {
            self.table.clear();
            stats.cache_clears += 1;
        }
        stats.cache_entries += 1;
        let entries = stats.cache_entries;
        let keep_keying =
            !(entries.is_multiple_of(CACHE_TRIAL.0) && stats.cache_hits * CACHE_TRIAL.1 < entries);
        if result.0.is_zero() {
            stats.dead_ends += 1;
        }
        self.table.insert(key, result);
        keep_keying
    }
}

/// The cache keys are already well-mixed hashes: use them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = self.0.rotate_left(17) ^ x;
    }
}
