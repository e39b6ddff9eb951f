//! The two players.

use serde::{Deserialize, Serialize};

/// A player. `First` moves first (Sente/Black in shogi), `Second` is Gote/White.
///
/// The representation is a `u8` so that `Option<Piece>` packs into the spare values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Side {
    First = 0,
    Second = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second: an index into per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used in position strings: `b` (black, sente) or `w` (white, gote).
    pub const fn letter(self) -> char {
        match self {
            Side::First => 'b',
            Side::Second => 'w',
        }
    }

    /// A name for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Side::First => "Black",
            Side::Second => "White",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
