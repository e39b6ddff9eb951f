//! A position: what stands where, what is in hand, who is to move, a few per-variant counters,
//! and an incrementally kept hash for repetition detection.

use crate::model::geometry::Cell;
use crate::model::hash::{SECOND_TO_MOVE, counter_key, hand_key, piece_key};
use crate::model::moves::{Move, MoveKind};
use crate::model::piece::{Piece, PieceId};
use crate::model::side::Side;

/// How many per-variant counters a position carries: the rules kit's own (consecutive passes,
/// grace turns, checks given) below [`RULE_COUNTERS`], a variant's rule code's above.
pub const COUNTERS: usize = 8;

/// The first counter that belongs to a variant's rule code (a script's `counter(0)` is this one):
/// the kit never reads or writes it or any above it.
pub const RULE_COUNTERS: usize = 4;

/// A game state. Every variant, scripted or compiled, speaks in these.
///
/// The hash covers cells, hands, counters and the side to move (not the move number), so equal
/// hashes mean "the same position" for repetition.
#[derive(Debug, PartialEq, Eq)]
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

/// By hand for `clone_from`, which copies into the buffers already there: a search keeps scratch
/// positions and overwrites them at every node, and the derived one would allocate each time.
impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            cells: self.cells.clone(),
            hands: self.hands.clone(),
            piece_types: self.piece_types,
            to_move: self.to_move,
            counters: self.counters,
            move_number: self.move_number,
            hash: self.hash,
        }
    }

    fn clone_from(&mut self, source: &Position) {
        self.cells.clone_from(&source.cells);
        self.hands.clone_from(&source.hands);
        self.piece_types = source.piece_types;
        self.to_move = source.to_move;
        self.counters = source.counters;
        self.move_number = source.move_number;
        self.hash = source.hash;
    }
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

    /// Whether the side to move's board move `mv` takes an enemy piece, at its stop or its end
    /// (the captures [`Move`] defines; effects that remove more are the rules' business).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.kind == MoveKind::Board
            && [mv.via, mv.to].into_iter().any(|c| {
                c != mv.from
                    && self.cells.get(c as usize).copied().flatten().is_some_and(|p| p.side != self.side_to_move())
            })
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

    /// The hash without the kit's counters: what repetition compares. A position is the same for
    /// repetition whatever the pass or grace counters say (Taishin's rule counts positions as
    /// board, hands and side to move); a rule's own counters ([`RULE_COUNTERS`] and above) are
    /// part of its state and count (the half of a two-move turn, a counter-strike pending).
    pub fn repetition_hash(&self) -> u64 {
        (self.counters[..RULE_COUNTERS].iter().enumerate()).fold(self.hash, |h, (i, &v)| h ^ counter_key(i, v))
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

/// Words before the cells in [`Position::to_words`]: side, move number, counters.
const WORDS_HEADER: usize = 2 + COUNTERS;

impl Position {
    /// The position as 32-bit words — side to move, move number, counters, one word per cell
    /// (0 empty, else `1 + type | side << 8 | flags << 16`), then the hand counts — which is how
    /// positions cross the plugin ABI: writing and reading them costs a copy, where a position
    /// string costs a parse (ten times more on Taishin's 625 cells, in every AI node).
    pub fn to_words(&self, out: &mut Vec<u32>) {
        out.clear();
        out.reserve(WORDS_HEADER + self.cells.len() + self.hands.len());
        out.push(self.to_move.index() as u32);
        out.push(self.move_number);
        out.extend(self.counters.iter().map(|&c| c as u32));
        out.extend(self.cells.iter().map(|c| match c {
            None => 0,
            Some(p) => 1 + (p.ty as u32 | (p.side.index() as u32) << 8 | (p.flags as u32) << 16),
        }));
        out.extend(self.hands.iter().map(|&h| h as u32));
    }

    /// Reads [`Position::to_words`] for a variant of `cells` cells and `piece_types` types; any
    /// value out of range is an error, never a panic later.
    pub fn from_words(words: &[u32], cells: usize, piece_types: usize) -> Result<Position, String> {
        let expected = WORDS_HEADER + cells + 2 * piece_types;
        if words.len() != expected {
            return Err(format!("a position of this variant is {expected} words, not {}", words.len()));
        }
        let side = |w: u32| match w {
            0 => Ok(Side::First),
            1 => Ok(Side::Second),
            _ => Err(format!("side {w} is neither 0 nor 1")),
        };
        let mut pos = Position::empty(cells, piece_types);
        pos.to_move = side(words[0])?;
        pos.move_number = words[1];
        for (i, &w) in words[2..WORDS_HEADER].iter().enumerate() {
            pos.counters[i] = u16::try_from(w).map_err(|_| format!("counter {i} is {w}"))?;
        }
        for (c, &w) in words[WORDS_HEADER..WORDS_HEADER + cells].iter().enumerate() {
            if w == 0 {
                continue;
            }
            let w = w - 1;
            let ty = (w & 0xFF) as usize;
            if ty >= piece_types || w >> 24 != 0 {
                return Err(format!("cell {c} holds the word {}", w + 1));
            }
            pos.cells[c] = Some(Piece { ty: ty as PieceId, side: side((w >> 8) & 0xFF)?, flags: (w >> 16) as u8 });
        }
        for (i, &w) in words[WORDS_HEADER + cells..].iter().enumerate() {
            pos.hands[i] = u8::try_from(w).map_err(|_| format!("hand count {w} is over 255"))?;
        }
        pos.hash = pos.fresh_hash();
        Ok(pos)
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

    #[test]
    fn words_round_trip_and_bad_words_are_refused() {
        let mut p = Position::empty(81, 14);
        p.set(3, Some(Piece { ty: 13, side: Side::Second, flags: 5 }));
        p.set(80, Some(Piece::new(0, Side::First)));
        p.set_hand(Side::Second, 7, 2);
        p.set_counter(3, 9);
        p.switch_turn();
        p.set_move_number(42);
        let mut words = Vec::new();
        p.to_words(&mut words);
        assert_eq!(Position::from_words(&words, 81, 14), Ok(p.clone()));
        assert!(Position::from_words(&words, 80, 14).unwrap_err().contains("is 118 words, not 119"));
        let mut bad = words.clone();
        bad[2 + COUNTERS + 3] = 1 + 14;
        assert!(Position::from_words(&bad, 81, 14).unwrap_err().contains("cell 3"));
        let mut bad = words;
        bad[0] = 2;
        assert!(Position::from_words(&bad, 81, 14).is_err());
    }
}
