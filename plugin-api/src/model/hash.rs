//! Zobrist-style hashing without tables: every feature's key is a strong mix of its index, so a
//! position can compute (and incrementally update) its hash without knowing its variant.

use crate::model::geometry::Cell;
use crate::model::piece::{Piece, PieceId};
use crate::model::side::Side;

/// splitmix64's finaliser: a bijective mixer with good avalanche.
#[inline]
pub const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const CELL_TAG: u64 = 1 << 60;
const HAND_TAG: u64 = 2 << 60;
const COUNTER_TAG: u64 = 3 << 60;

/// The key of a piece standing on a cell.
#[inline]
pub const fn piece_key(cell: Cell, piece: Piece) -> u64 {
    mix(CELL_TAG | (cell as u64) << 20 | (piece.ty as u64) << 10 | (piece.side as u64) << 8 | piece.flags as u64)
}

/// The key of holding `count` pieces of a type in hand (count 0 has key 0, so empty hands hash 0).
#[inline]
pub const fn hand_key(side: Side, ty: PieceId, count: u8) -> u64 {
    if count == 0 { 0 } else { mix(HAND_TAG | (side as u64) << 20 | (ty as u64) << 8 | count as u64) }
}

/// The key of a per-variant counter's value (0 hashes to 0).
#[inline]
pub const fn counter_key(index: usize, value: u16) -> u64 {
    if value == 0 { 0 } else { mix(COUNTER_TAG | (index as u64) << 20 | value as u64) }
}

/// XORed in when the second player is to move.
pub const SECOND_TO_MOVE: u64 = mix(0x5EC0_4D00);
