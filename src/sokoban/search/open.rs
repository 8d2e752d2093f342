//! The open list of the push searches: least `f` first, then least `h`, then the oldest.

use std::collections::VecDeque;

/// The open list: least `f` first, then least `h` (deepest first among equals), then the
/// oldest. The heuristic is consistent, so a child's `f` is never below its parent's and
/// the least `f` never decreases: a bucket per `f`, and in it a queue per `h`.
#[derive(Default)]
pub(super) struct Open {
    by_f: Vec<Bucket>,
    /// No position is open with a smaller `f`.
    f: usize,
}

#[derive(Default)]
struct Bucket {
    by_h: Vec<VecDeque<u32>>,
    /// No position of the bucket is open with a smaller `h`.
    min_h: usize,
}

impl Open {
    pub(super) fn push(&mut self, f: u32, h: u32, index: usize) {
        let (f, h) = (f as usize, h as usize);
        if self.by_f.len() <= f {
            self.by_f.resize_with(f + 1, Bucket::default);
        }
        // A consistent heuristic never pushes below the current `f`; stay correct anyway.
        self.f = self.f.min(f);
        let bucket = &mut self.by_f[f];
        if bucket.by_h.is_empty() {
            bucket.min_h = h;
        }
        if bucket.by_h.len() <= h {
            bucket.by_h.resize_with(h + 1, VecDeque::new);
        }
        bucket.min_h = bucket.min_h.min(h);
        bucket.by_h[h].push_back(index as u32);
    }

    /// The next position and its `f`.
    pub(super) fn pop(&mut self) -> Option<(u32, usize)> {
        while let Some(bucket) = self.by_f.get_mut(self.f) {
            while let Some(queue) = bucket.by_h.get_mut(bucket.min_h) {
                if let Some(i) = queue.pop_front() {
                    return Some((self.f as u32, i as usize));
                }
                bucket.min_h += 1;
            }
            // Exhausted: give its memory back.
            *bucket = Bucket::default();
            self.f += 1;
        }
        None
    }
}
