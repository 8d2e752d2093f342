//! The lower bound of a running count, readable at any poll: the same bound a stop
//! would return (see the module docs of `search`), kept as a stack of the sums and
//! products under way instead of being built while unwinding.
//!
//! Each decision under way is a partial sum (the branches it finished), each component
//! product under way the product of the factors it finished and whether factors remain
//! after the current one. Folding from the innermost outwards gives a bound: a sum adds
//! its finished branches to the bound of the current one; a product multiplies its
//! finished factors by the bound of the current factor when it is the last, and is 0
//! otherwise (a factor not yet counted may have no solution). It is never above what a
//! stop at the same point would prove, which takes the later factors the cache knows.

use crate::solver::count::Count;

#[derive(Clone, Debug)]
enum Frame {
    /// A decision: the counts of its finished branches, added.
    Sum(Count),
    /// A component analysis: its finished factors, multiplied, and whether any factor
    /// remains after the one being counted.
    Product { done: Count, more: bool },
}

#[derive(Clone, Debug, Default)]
pub(super) struct Frames(Vec<Frame>);

impl Frames {
    pub fn open_sum(&mut self) {
        self.0.push(Frame::Sum(Count::ZERO));
    }

    /// The innermost frame, a decision, has finished branches adding up to `total`.
    pub fn set_sum(&mut self, total: &Count) {
        if let Some(Frame::Sum(sum)) = self.0.last_mut() {
            *sum = total.clone();
        }
    }

    pub fn open_product(&mut self) {
        self.0.push(Frame::Product {
            done: Count::ZERO,
            more: true,
        });
    }

    /// The innermost frame, a product, has finished factors multiplying to `done` and is
    /// counting its next factor, the last one unless `more`.
    pub fn set_product(&mut self, done: &Count, more: bool) {
        if let Some(Frame::Product { done: d, more: m }) = self.0.last_mut() {
            *d = done.clone();
            *m = more;
        }
    }

    pub fn close(&mut self) {
        self.0.pop();
    }

    /// The number of solutions proven so far.
    pub fn bound(&self) -> Count {
        self.0
            .iter()
            .rev()
            .fold(Count::ZERO, |inner, frame| match frame {
                Frame::Sum(finished) => finished.add(&inner),
                Frame::Product { more: true, .. } => Count::ZERO,
                Frame::Product { done, more: false } => done.mul(&inner),
            })
    }
}
