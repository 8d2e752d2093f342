//! What the workers of the last layer share: the positions new to the layer, in shards
//! each behind its own lock, with the place each was reached from; the queue of
//! positions to expand; and how the layer ends (the first end counts).

use super::super::super::positions::{hash_of, PositionTable};
use super::super::clamp;
use super::LayerEnd;
use gridsat_encodings::sokoban::Push;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Shards of the table of new positions: enough that two workers rarely wait for one.
const SHARDS: usize = 64;

/// Where a position of the layer is kept: in the search's table, or new to the layer
/// (its shard and number there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    Stored(u32),
    New(u32, u32),
}

/// A place in 64 bits, for the parents of the positions new to the layer: the top bit
/// tells a new position (its shard above bit 32, its number below) from a stored one.
const NEW_BIT: u64 = 1 << 63;

impl Place {
    fn code(self) -> u64 {
        match self {
            Place::Stored(i) => u64::from(i),
            Place::New(s, j) => NEW_BIT | u64::from(s) << 32 | u64::from(j),
        }
    }

    fn from_code(code: u64) -> Place {
        match code & NEW_BIT {
            0 => Place::Stored(code as u32),
            _ => Place::New(((code & !NEW_BIT) >> 32) as u32, code as u32),
        }
    }
}

/// A position to expand, with its pushes, its bound and whether that includes the pair
/// bound already.
#[derive(Clone, Copy, Debug)]
pub(super) struct Item {
    pub place: Place,
    pub g: u32,
    pub h: u16,
    pub paired: bool,
}

/// A shard of the positions new to the layer, with their fewest pushes (0: dead),
/// bounds and the places they were reached from with those pushes (`Place::code`; the
/// push is the table's).
struct Shard {
    table: PositionTable,
    g: Vec<u32>,
    h: Vec<u16>,
    parent: Vec<u64>,
}

const RUNNING: u8 = 0;
const SOLVED: u8 = 1;
const STOPPED: u8 = 2;
const LOWERED: u8 = 3;

/// What the workers share.
pub(super) struct Shared {
    shards: Vec<Mutex<Shard>>,
    queue: Mutex<Queue>,
    /// Items made and not yet expanded (queued or being expanded): the layer is done
    /// when it is 0.
    pending: AtomicUsize,
    state: AtomicU8,
    stopped: Mutex<Option<String>>,
    /// The expanded position with a solved child, and the push to it.
    solved: Mutex<Option<(Place, Push)>>,
    stored: AtomicUsize,
}

/// A lock whose holder panicked still guards consistent data here (every update is a
/// few plain stores), and the panic itself reaches the search through `join`.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// The layer's start: `open` queued, box sets of `words` 64-bit words.
    pub(super) fn new(words: usize, open: impl Iterator<Item = Item>) -> Shared {
        let mut queue = Queue::default();
        open.for_each(|item| queue.push(item));
        let shard = || Shard {
            table: PositionTable::new(words),
            g: Vec::new(),
            h: Vec::new(),
            parent: Vec::new(),
        };
        Shared {
            shards: (0..SHARDS).map(|_| Mutex::new(shard())).collect(),
            pending: AtomicUsize::new(queue.len),
            queue: Mutex::new(queue),
            state: AtomicU8::new(RUNNING),
            stopped: Mutex::new(None),
            solved: Mutex::new(None),
            stored: AtomicUsize::new(0),
        }
    }

    /// Ends the layer with `state`, unless it has ended already; whether this end is
    /// the one that counts.
    fn end_with(&self, state: u8) -> bool {
        self.state
            .compare_exchange(RUNNING, state, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Ends the layer at a time or size limit.
    pub(super) fn stop(&self, reason: String) {
        if self.end_with(STOPPED) {
            *lock(&self.stopped) = Some(reason);
        }
    }

    /// Ends the layer: a plan found meanwhile put it past the ceiling.
    pub(super) fn lower(&self) {
        self.end_with(LOWERED);
    }

    /// Ends the layer with a solved child of `parent`, reached by `push`.
    pub(super) fn solve(&self, parent: Place, push: Push) {
        if self.end_with(SOLVED) {
            *lock(&self.solved) = Some((parent, push));
        }
    }

    fn running(&self) -> bool {
        self.state.load(Ordering::Acquire) == RUNNING
    }

    /// The next item, waiting while others still expand some; `None` when the layer
    /// is done or has ended.
    pub(super) fn next(&self) -> Option<Item> {
        loop {
            if !self.running() {
                return None;
            }
            if let Some(item) = lock(&self.queue).pop() {
                return Some(item);
            }
            if self.pending.load(Ordering::Acquire) == 0 {
                return None;
            }
            std::thread::sleep(Duration::from_micros(50));
        }
    }

    /// Queues the children of an item just expanded and counts the item done: the
    /// children count first, so that `pending` is 0 only when nothing is left.
    pub(super) fn expanded(&self, children: &mut Vec<Item>) {
        if !children.is_empty() {
            self.pending.fetch_add(children.len(), Ordering::AcqRel);
            let mut queue = lock(&self.queue);
            children.drain(..).for_each(|child| queue.push(child));
        }
        self.pending.fetch_sub(1, Ordering::AcqRel);
    }

    /// The positions new to the layer so far.
    pub(super) fn stored(&self) -> usize {
        self.stored.load(Ordering::Acquire)
    }

    /// The box set of new position `j` of shard `s` into `words`, and its player.
    pub(super) fn key_into(&self, (s, j): (u32, u32), words: &mut Vec<u64>) -> u16 {
        let shard = lock(&self.shards[s as usize]);
        let (packed, player) = shard.table.key(j as usize);
        words.clear();
        words.extend_from_slice(packed);
        player
    }

    /// Stores a position new to the layer reached with `g` pushes and bound `h` from
    /// `parent` by `push`: its shard, number and the bound it had (a pair bound taken
    /// before), or `None` when it was reached before with as few pushes.
    pub(super) fn insert(
        &self,
        (words, player): (&[u64], u16),
        (g, h): (u32, u32),
        (parent, push): (Place, Push),
    ) -> Option<(u32, u32, u32)> {
        let s = (hash_of(words, player) >> 20) as usize % SHARDS;
        let mut shard = lock(&self.shards[s]);
        let (j, new) = shard.table.find_or_insert(words, player);
        if new {
            shard.g.push(g);
            shard.h.push(clamp(h));
            shard.parent.push(parent.code());
            self.stored.fetch_add(1, Ordering::Relaxed);
        } else if g < shard.g[j] {
            shard.g[j] = g;
            shard.h[j] = shard.h[j].max(clamp(h));
            shard.parent[j] = parent.code();
        } else {
            return None;
        }
        shard.table.set_push(j, push);
        Some((s as u32, j as u32, u32::from(shard.h[j])))
    }

    /// Records the fewest pushes (0: dead) and bound of a position new to the layer.
    pub(super) fn set(&self, (s, j): (u32, u32), g: u32, h: u32) {
        let mut shard = lock(&self.shards[s as usize]);
        shard.g[j as usize] = g;
        shard.h[j as usize] = shard.h[j as usize].max(clamp(h));
    }

    /// How the layer ended, the workers done; `store` is the search's table, where the
    /// plan to a solved child begins.
    pub(super) fn end(self, store: &PositionTable) -> LayerEnd {
        match self.state.load(Ordering::Acquire) {
            SOLVED => {
                let solved = lock(&self.solved).expect("a solved child recorded");
                LayerEnd::Solved(self.plan_to(store, solved))
            }
            LOWERED => LayerEnd::Lowered,
            STOPPED => {
                let reason = lock(&self.stopped).take();
                LayerEnd::Stopped(reason.unwrap_or_else(|| "time limit".into()))
            }
            _ => LayerEnd::Exhausted,
        }
    }

    /// The pushes to `parent`'s solved child from the search's first position: back
    /// along the parents of the positions new to the layer to one the search stored,
    /// then along the search's own. A parent was reached with fewer pushes than its
    /// child when it was recorded, and pushes only ever drop, so the walk ends.
    fn plan_to(&self, store: &PositionTable, (parent, push): (Place, Push)) -> Vec<Push> {
        let mut tail = vec![push];
        let mut place = parent;
        loop {
            match place {
                Place::Stored(i) => {
                    let mut plan = store.plan_to(i as usize);
                    plan.extend(tail.into_iter().rev());
                    return plan;
                }
                Place::New(s, j) => {
                    let shard = lock(&self.shards[s as usize]);
                    tail.push(shard.table.push_of(j as usize));
                    place = Place::from_code(shard.parent[j as usize]);
                }
            }
        }
    }
}

/// The items to expand, as A*'s open list orders a layer: least bound first (the
/// deepest: on a level whose plan known is not optimal, the shorter plan is found as
/// soon as A* alone would find it), then the oldest.
#[derive(Default)]
struct Queue {
    by_h: Vec<VecDeque<Item>>,
    /// No item is queued with a smaller bound.
    min_h: usize,
    len: usize,
}

impl Queue {
    fn push(&mut self, item: Item) {
        let h = usize::from(item.h);
        if self.by_h.len() <= h {
            self.by_h.resize_with(h + 1, VecDeque::new);
        }
        self.min_h = self.min_h.min(h);
        self.by_h[h].push_back(item);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<Item> {
        while let Some(queue) = self.by_h.get_mut(self.min_h) {
            if let Some(item) = queue.pop_front() {
                self.len -= 1;
                return Some(item);
            }
            self.min_h += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridsat_encodings::sokoban::Dir;

    fn push(from: usize, dir: usize) -> Push {
        Push {
            from,
            dir: Dir::ALL[dir],
        }
    }

    #[test]
    fn places_keep_their_shard_and_number_in_64_bits() {
        for place in [
            Place::Stored(0),
            Place::Stored(u32::MAX >> 1),
            Place::New(0, 0),
            Place::New(63, u32::MAX),
        ] {
            assert_eq!(Place::from_code(place.code()), place);
        }
    }

    #[test]
    fn a_position_reached_with_fewer_pushes_takes_the_new_parent_and_push() {
        // The search stored positions 0 (the start) and 1 (one push from it).
        let mut store = PositionTable::new(1);
        store.find_or_insert(&[0b0110], 1);
        let (one, _) = store.find_or_insert(&[0b1010], 2);
        store.set_origin(one, 0, push(1, 3));
        let shared = Shared::new(1, std::iter::empty());
        let key = (&[0b1001][..], 3);
        let (s, j, _) = shared
            .insert(key, (4, 1), (Place::Stored(0), push(2, 0)))
            .expect("new");
        assert_eq!(shared.stored(), 1);
        // As many pushes again: kept as it was.
        assert!(shared
            .insert(key, (4, 1), (Place::Stored(1), push(3, 1)))
            .is_none());
        assert_eq!(
            shared.plan_to(&store, (Place::New(s, j), push(0, 2))),
            [push(2, 0), push(0, 2)]
        );
        // Fewer: the new parent and push, read back through the search's table.
        let (s2, j2, _) = shared
            .insert(key, (2, 1), (Place::Stored(1), push(3, 1)))
            .expect("fewer pushes");
        assert_eq!((s2, j2), (s, j));
        assert_eq!(shared.stored(), 1);
        assert_eq!(
            shared.plan_to(&store, (Place::New(s, j), push(0, 2))),
            [push(1, 3), push(3, 1), push(0, 2)]
        );
    }

    #[test]
    fn the_first_end_counts() {
        let shared = Shared::new(1, std::iter::empty());
        shared.solve(Place::Stored(0), push(5, 1));
        shared.stop("time limit".into());
        shared.lower();
        let store = {
            let mut store = PositionTable::new(1);
            store.find_or_insert(&[1], 0);
            store
        };
        assert_eq!(shared.end(&store), LayerEnd::Solved(vec![push(5, 1)]));
        let shared = Shared::new(1, std::iter::empty());
        shared.stop("size limit".into());
        shared.solve(Place::Stored(0), push(5, 1));
        assert_eq!(shared.end(&store), LayerEnd::Stopped("size limit".into()));
    }
}
