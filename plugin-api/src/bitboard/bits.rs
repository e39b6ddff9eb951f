//! Bitboards: one bit per cell, in an integer sized to the board (`u64` up to 64 cells, `u128`
//! up to 128), so set operations on cells are single machine operations.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// An unsigned integer used as a set of cells (bit `i` = cell `i`).
pub trait Bits:
    Copy
    + Eq
    + Default
    + Debug
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
{
    /// How many cells fit.
    const CELLS: usize;
    const EMPTY: Self;

    fn bit(cell: usize) -> Self;
    /// The lowest set cell (undefined when empty).
    fn lowest(self) -> usize;
    /// The highest set cell (undefined when empty).
    fn highest(self) -> usize;
    fn count(self) -> u32;
    fn without_lowest(self) -> Self;

    #[inline]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    #[inline]
    fn has(self, cell: usize) -> bool {
        !(self & Self::bit(cell)).is_empty()
    }

    /// The set cells, lowest first.
    #[inline]
    fn cells(self) -> CellIter<Self> {
        CellIter(self)
    }
}

macro_rules! bits_for {
    ($t:ty) => {
        impl Bits for $t {
            const CELLS: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;

            #[inline]
            fn bit(cell: usize) -> Self {
                1 << cell
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn highest(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

bits_for!(u64);
bits_for!(u128);

/// Iterates the cells of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct CellIter<B>(B);

impl<B: Bits> Iterator for CellIter<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let c = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_come_out_in_order_at_both_ends_of_a_u128() {
        let b = u128::bit(0) | u128::bit(63) | u128::bit(64) | u128::bit(127);
        assert_eq!(b.cells().collect::<Vec<_>>(), [0, 63, 64, 127]);
        assert_eq!((b.lowest(), b.highest(), b.count()), (0, 127, 4));
        assert_eq!(u64::bit(9).highest(), 9);
    }
}
