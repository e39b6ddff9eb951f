//! A position: what stands where, what is in hand, who is to move, a few per-variant counters,
//! and an incrementally kept hash for repetition detection.

use crate::geometry::Cell;
use crate::hash::{SECOND_TO_MOVE, counter_key, hand_key, piece_key};
use crate::piece::{Piece, PieceId};
use crate::side::Side;

/// How many per-variant counters a position carries (consecutive passes, grace turns, …).
pub const COUNTERS: usize = 4;

/// A game state. Every variant, scripted or compiled, speaks in these.
///
/// The hash covers cells, hands, counters and the side to move (not the move number), so equal
/// hashes mean "the same position" for repetition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    cells: Vec<Option<Piece>>,
    /// Hand counts, `side * piece_types + type`.
    hands: Vec<u8>,
    piece_types: usize,
    to_move: Side,
    counters: [u16; COUNTERS],
    move_number: u32,
    hash: u64,
}

impl Position {
    /// An empty board of `cells` cells for a variant with `piece_types` types, first player to move.
    pub fn empty(cells: usize, piece_types: usize) -> Position {
        Position {
            cells: vec![None; cells],
            hands: vec![0; 2 * piece_types],
            piece_types,
            to_move: Side::First,
            counters: [0; COUNTERS],
            move_number: 1,
            hash: 0,
        }
    }

    #[inline]
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        self.cells[c as usize]
    }

    /// All cells, by index (holes are always empty).
    #[inline]
    pub fn cells(&self) -> &[Option<Piece>] {
        &self.cells
    }

    /// Puts `piece` (or nothing) on a cell, keeping the hash.
    #[inline]
    pub fn set(&mut self, c: Cell, piece: Option<Piece>) {
        let slot = &mut self.cells[c as usize];
        if let Some(old) = *slot {
            self.hash ^= piece_key(c, old);
        }
        if let Some(new) = piece {
            self.hash ^= piece_key(c, new);
        }
        *slot = piece;
    }

    #[inline]
    pub fn hand(&self, side: Side, ty: PieceId) -> u8 {
        self.hands[side.index() * self.piece_types + ty as usize]
    }

    /// Sets a hand count, keeping the hash.
    #[inline]
    pub fn set_hand(&mut self, side: Side, ty: PieceId, count: u8) {
        let slot = &mut self.hands[side.index() * self.piece_types + ty as usize];
        self.hash ^= hand_key(side, ty, *slot) ^ hand_key(side, ty, count);
        *slot = count;
    }

    /// Whether a side holds anything at all.
    pub fn hand_is_empty(&self, side: Side) -> bool {
        let start = side.index() * self.piece_types;
        self.hands[start..start + self.piece_types].iter().all(|&n| n == 0)
    }

    pub fn piece_types(&self) -> usize {
        self.piece_types
    }

    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    pub fn set_side_to_move(&mut self, side: Side) {
        if side != self.to_move {
            self.hash ^= SECOND_TO_MOVE;
            self.to_move = side;
        }
    }

    /// Hands the turn to the other player and counts the ply.
    #[inline]
    pub fn switch_turn(&mut self) {
        self.hash ^= SECOND_TO_MOVE;
        self.to_move = self.to_move.opponent();
        self.move_number += 1;
    }

    /// Undoes [`Position::switch_turn`].
    #[inline]
    pub fn unswitch_turn(&mut self) {
        self.hash ^= SECOND_TO_MOVE;
        self.to_move = self.to_move.opponent();
        self.move_number -= 1;
    }

    pub fn counter(&self, i: usize) -> u16 {
        self.counters[i]
    }

    pub fn counters(&self) -> [u16; COUNTERS] {
        self.counters
    }

    pub fn set_counter(&mut self, i: usize, value: u16) {
        self.hash ^= counter_key(i, self.counters[i]) ^ counter_key(i, value);
        self.counters[i] = value;
    }

    /// The ply number as written in position strings (1 at the start).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    pub fn set_move_number(&mut self, n: u32) {
        self.move_number = n;
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash without the per-variant counters: what repetition compares. A position is the
    /// same for repetition whatever the pass or grace counters say (Taishin's rule counts positions
    /// as board, hands and side to move).
    pub fn repetition_hash(&self) -> u64 {
        self.counters.iter().enumerate().fold(self.hash, |h, (i, &v)| h ^ counter_key(i, v))
    }

    /// The hash computed from scratch; always equal to [`Position::hash`] (a test invariant).
    pub fn fresh_hash(&self) -> u64 {
        let mut h = 0;
        for (c, p) in self.cells.iter().enumerate() {
            if let Some(p) = p {
                h ^= piece_key(c as Cell, *p);
            }
        }
        for side in Side::BOTH {
            for ty in 0..self.piece_types {
                h ^= hand_key(side, ty as PieceId, self.hand(side, ty as PieceId));
            }
        }
        for (i, &v) in self.counters.iter().enumerate() {
            h ^= counter_key(i, v);
        }
        if self.to_move == Side::Second {
            h ^= SECOND_TO_MOVE;
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_hash_matches_a_fresh_one() {
        let mut p = Position::empty(81, 14);
        p.set(3, Some(Piece::new(2, Side::First)));
        p.set(3, Some(Piece::new(5, Side::Second)));
        p.set_hand(Side::First, 7, 2);
        p.set_counter(1, 3);
        p.switch_turn();
        assert_eq!(p.hash(), p.fresh_hash());
        p.set(3, None);
        p.set_hand(Side::First, 7, 0);
        p.set_counter(1, 0);
        p.unswitch_turn();
        assert_eq!(p.hash(), 0);
        p.set_counter(0, 2);
        assert_ne!(p.hash(), 0);
        assert_eq!(p.repetition_hash(), 0);
    }
}
