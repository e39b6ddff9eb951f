//! The move value: one small `Copy` struct for every kind of move in every variant.

use crate::model::geometry::{Cell, NO_CELL};
use crate::model::piece::PieceId;

/// What kind of move this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum MoveKind {
    /// A piece moves from `from` to `to`, possibly stopping at `via` on the way.
    Board = 0,
    /// A piece of type `piece` from the mover's hand is put on `to`.
    Drop = 1,
    /// The mover passes.
    Pass = 2,
    /// A piece is placed outside the drop rules (e.g. Ki Shogi's Gyoku placement).
    Place = 3,
}

/// One move. `#[repr(C)]` so it crosses the plugin ABI as it is.
///
/// `piece` is the type after the move for board moves (so promotion, demotion and face changes are
/// all "the piece ends as this type"), and the dropped or placed type otherwise. Captures follow
/// from the move and the position: whatever stands on `via` (if an enemy) and `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Move {
    pub kind: MoveKind,
    pub piece: PieceId,
    pub from: Cell,
    pub to: Cell,
    pub via: Cell,
}

impl Move {
    /// A board move without an intermediate stop.
    #[inline]
    pub const fn board(from: Cell, to: Cell, piece_after: PieceId) -> Move {
        Move { kind: MoveKind::Board, piece: piece_after, from, to, via: NO_CELL }
    }

    /// A drop of `piece` from hand onto `to`.
    #[inline]
    pub const fn drop(piece: PieceId, to: Cell) -> Move {
        Move { kind: MoveKind::Drop, piece, from: NO_CELL, to, via: NO_CELL }
    }

    /// A pass.
    pub const fn pass() -> Move {
        Move { kind: MoveKind::Pass, piece: 0, from: NO_CELL, to: NO_CELL, via: NO_CELL }
    }

    /// A placement of `piece` on `to`.
    pub const fn place(piece: PieceId, to: Cell) -> Move {
        Move { kind: MoveKind::Place, piece, from: NO_CELL, to, via: NO_CELL }
    }

    /// The intermediate stop, if the move has one.
    pub fn stop(&self) -> Option<Cell> {
        (self.via != NO_CELL).then_some(self.via)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<Move>(), 8);
    }
}
