//! `Count`: a natural number that never overflows.
//!
//! Almost every count fits in a `u128` and is kept there; only on overflow does it move
//! to base-2^64 limbs. Projected counts of large DIMACS files can exceed 2^128.

use std::cmp::Ordering;
use std::fmt;

/// A model count. Normalised: `Big` always holds a value above `u128::MAX`, so equal
/// numbers compare equal whatever path produced them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Count(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(u128),
    /// Little-endian limbs, no trailing zero limb, more than two limbs in use.
    Big(Vec<u64>),
}

impl Count {
    pub const ZERO: Count = Count(Repr::Small(0));
    pub const ONE: Count = Count(Repr::Small(1));

    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0))
    }

    /// The value, when it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        match self.0 {
            Repr::Small(n) => Some(n),
            Repr::Big(_) => None,
        }
    }

    /// The memory the value takes beside the `Count` itself (its limbs, when large).
    pub fn heap_bytes(&self) -> usize {
        match &self.0 {
            Repr::Small(_) => 0,
            Repr::Big(limbs) => limbs.capacity() * std::mem::size_of::<u64>(),
        }
    }

    /// The value, when it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|n| u64::try_from(n).ok())
    }

    /// `2^exponent`.
    pub fn pow2(exponent: usize) -> Count {
        if exponent < 128 {
            return Count(Repr::Small(1u128 << exponent));
        }
        let mut limbs = vec![0u64; exponent / 64 + 1];
        limbs[exponent / 64] = 1 << (exponent % 64);
        Count::from_limbs(limbs)
    }

    fn limbs(&self) -> Vec<u64> {
        match &self.0 {
            Repr::Small(n) => vec![*n as u64, (*n >> 64) as u64],
            Repr::Big(limbs) => limbs.clone(),
        }
    }

    fn from_limbs(mut limbs: Vec<u64>) -> Count {
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        if limbs.len() <= 2 {
            let lo = limbs.first().copied().unwrap_or(0) as u128;
            let hi = limbs.get(1).copied().unwrap_or(0) as u128;
            Count(Repr::Small(lo | (hi << 64)))
        } else {
            Count(Repr::Big(limbs))
        }
    }

    pub fn add(&self, other: &Count) -> Count {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &other.0) {
            if let Some(sum) = a.checked_add(*b) {
                return Count(Repr::Small(sum));
            }
        }
        let (a, b) = (self.limbs(), other.limbs());
        let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
        let mut carry = 0u128;
        for i in 0..a.len().max(b.len()) {
            let s = carry
                + a.get(i).copied().unwrap_or(0) as u128
                + b.get(i).copied().unwrap_or(0) as u128;
            out.push(s as u64);
            carry = s >> 64;
        }
        out.push(carry as u64);
        Count::from_limbs(out)
    }

    pub fn mul(&self, other: &Count) -> Count {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &other.0) {
            if let Some(product) = a.checked_mul(*b) {
                return Count(Repr::Small(product));
            }
        }
        let (a, b) = (self.limbs(), other.limbs());
        let mut out = vec![0u64; a.len() + b.len()];
        for (i, &x) in a.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in b.iter().enumerate() {
                let t = out[i + j] as u128 + x as u128 * y as u128 + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
            out[i + b.len()] = carry as u64;
        }
        Count::from_limbs(out)
    }
}

impl From<u128> for Count {
    fn from(n: u128) -> Count {
        Count(Repr::Small(n))
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Count {
        Count(Repr::Small(n.into()))
    }
}

impl PartialEq<u128> for Count {
    fn eq(&self, other: &u128) -> bool {
        self.to_u128() == Some(*other)
    }
}

impl PartialOrd for Count {
    fn partial_cmp(&self, other: &Count) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Count {
    fn cmp(&self, other: &Count) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            (Repr::Small(_), Repr::Big(_)) => Ordering::Less,
            (Repr::Big(_), Repr::Small(_)) => Ordering::Greater,
            (Repr::Big(a), Repr::Big(b)) => a
                .len()
                .cmp(&b.len())
                .then_with(|| a.iter().rev().cmp(b.iter().rev())),
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(n) => write!(f, "{n}"),
            Repr::Big(limbs) => {
                // Repeated division by 10^19, the largest power of ten in a u64.
                const CHUNK: u64 = 10_000_000_000_000_000_000;
                let mut limbs = limbs.clone();
                let mut chunks = Vec::new();
                while !limbs.is_empty() {
                    let mut rem = 0u128;
                    for limb in limbs.iter_mut().rev() {
                        let cur = (rem << 64) | *limb as u128;
                        *limb = (cur / CHUNK as u128) as u64;
                        rem = cur % CHUNK as u128;
                    }
                    chunks.push(rem as u64);
                    while limbs.last() == Some(&0) {
                        limbs.pop();
                    }
                }
                let mut iter = chunks.iter().rev();
                if let Some(first) = iter.next() {
                    write!(f, "{first}")?;
                }
                for chunk in iter {
                    write!(f, "{chunk:019}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_arithmetic_stays_exact() {
        let a = Count::from(12345u64);
        let b = Count::from(678u64);
        assert_eq!(a.add(&b), 13023u128);
        assert_eq!(a.mul(&b), 12345u128 * 678);
        assert_eq!(Count::pow2(70), 1u128 << 70);
        assert!(Count::ZERO.is_zero());
    }

    #[test]
    fn overflow_moves_to_limbs_and_prints_in_decimal() {
        let two_127 = Count::pow2(127);
        let two_128 = two_127.add(&two_127);
        assert_eq!(two_128, Count::pow2(128));
        assert_eq!(
            two_128.to_string(),
            "340282366920938463463374607431768211456"
        );
        let two_200 = Count::pow2(100).mul(&Count::pow2(100));
        assert_eq!(two_200, Count::pow2(200));
        assert_eq!(
            two_200.to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
        assert!(two_200 > two_128);
        // (2^128 - 1) + 1 and back: sums that return below 2^128 normalise to Small.
        let max = Count::from(u128::MAX);
        assert_eq!(max.add(&Count::ONE), two_128);
        assert_eq!(max.mul(&Count::ONE), max);
        assert_eq!(
            Count::pow2(64)
                .mul(&Count::pow2(64))
                .mul(&Count::from(3u64))
                .to_string(),
            "1020847100762815390390123822295304634368"
        );
    }
}
