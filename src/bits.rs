//! Bit sets over board squares.
//!
//! A board of up to 64 bit positions uses `u64`; larger padded layouts (12x12) use `u128`. The move
//! generator is written once over [`Bits`] and compiled for each width, so 8x8 and 10x10 never pay for
//! the wider type.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A set of bit positions, one per board square (padding bits included in the layout).
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const EMPTY: Self;
    /// The number of bit positions the type holds.
    const WIDTH: u32;

    /// The set holding only bit `i`.
    fn bit(i: u32) -> Self;
    /// Number of members.
    fn count(self) -> u32;
    /// Index of the lowest member; the set must not be empty.
    fn lowest(self) -> u32;
    /// Index of the highest member; the set must not be empty.
    fn highest(self) -> u32;
    /// The set without its lowest member (`x & (x - 1)`: one instruction on 64 bits, and no
    /// variable shift on 128); the set must not be empty.
    fn without_lowest(self) -> Self;

    /// Whether the set has no members.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    /// Whether bit `i` is a member.
    #[inline(always)]
    fn has(self, i: u32) -> bool {
        !(self & Self::bit(i)).is_empty()
    }
    /// Shifts every member by `d` positions (towards higher indices when `d > 0`); members
    /// leaving the type's range are lost.
    #[inline(always)]
    fn shift(self, d: i32) -> Self {
        if d >= 0 {
            self << (d as u32)
        } else {
            self >> (d.unsigned_abs())
        }
    }
    /// Iterates over the members, lowest first.
    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// Iterator over the members of a [`Bits`] set, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let i = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(i)
        }
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const EMPTY: Self = 0;
            const WIDTH: u32 = <$t>::BITS;

            #[inline(always)]
            fn bit(i: u32) -> Self {
                1 << i
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_members_in_order() {
        let s: u64 = (1 << 3) | (1 << 17) | (1 << 62);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 17, 62]);
        let w: u128 = (1 << 100) | 1;
        assert_eq!(w.iter().collect::<Vec<_>>(), vec![0, 100]);
    }

    #[test]
    fn lowest_and_highest_members() {
        let s: u64 = (1 << 3) | (1 << 17) | (1 << 62);
        assert_eq!((s.lowest(), s.highest()), (3, 62));
        let w: u128 = (1 << 100) | (1 << 5);
        assert_eq!((w.lowest(), w.highest()), (5, 100));
    }

    #[test]
    fn shifts_both_ways() {
        assert_eq!(8u64.shift(2), 32);
        assert_eq!(8u64.shift(-3), 1);
        assert_eq!(8u64.shift(-4), 0);
    }
}
