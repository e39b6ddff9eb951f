//! The mailbox: the 25×25 board padded by three guard squares on every side, one `u16` per square.
//!
//! Three squares of padding cover the longest reach of any single look-up (the lion dog's third
//! square, the `H`/`G` leaps, a three-step area move), so move generation never checks bounds: a
//! guard square reads as occupied by *both* sides, which makes it a square nobody may enter or
//! capture and a screen nobody may hop.
//!
//! A square's code packs the occupant: bit 8 = a Sente piece, bit 9 = a Gote piece, the low byte =
//! its type. Empty is 0, so "may land here" is one mask test: `code & own == 0`. Beside the codes,
//! each side's occupancy bits let the generator visit only the mover's pieces.

use std::ops::{Index, IndexMut};

use henka_api::{Cell, NO_CELL, Piece, Position, Side};

/// Files and ranks of the real board.
pub const FILES: usize = 25;
/// Guard squares on each side of the real board.
const PAD: usize = 3;
/// Width (and height) of the padded board.
pub const STRIDE: usize = FILES + 2 * PAD;
/// Squares of the padded board.
const SQUARES: usize = STRIDE * STRIDE;

/// An index into the padded board.
pub type Sq = usize;

/// A value per padded square, stored in a power-of-two array and indexed modulo its length: the
/// mask proves every index in bounds, so the generator's inner loops carry no bounds checks.
#[derive(Clone, Debug)]
pub struct SquareMap<T>([T; MAP_LEN]);

const MAP_LEN: usize = 1024;
const _: () = assert!(SQUARES <= MAP_LEN);

impl<T: Copy> SquareMap<T> {
    pub fn filled(value: T) -> SquareMap<T> {
        SquareMap([value; MAP_LEN])
    }
}

impl<T> Index<Sq> for SquareMap<T> {
    type Output = T;
    #[inline]
    fn index(&self, sq: Sq) -> &T {
        &self.0[sq & (MAP_LEN - 1)]
    }
}

impl<T> IndexMut<Sq> for SquareMap<T> {
    #[inline]
    fn index_mut(&mut self, sq: Sq) -> &mut T {
        &mut self.0[sq & (MAP_LEN - 1)]
    }
}

/// "No square": the `via` of a move without a locust capture.
pub const NO_SQ: u16 = u16::MAX;

pub const EMPTY: u16 = 0;
const SENTE_BIT: u16 = 0x100;
const GOTE_BIT: u16 = 0x200;
/// An off-board square: "occupied by both sides".
pub const GUARD: u16 = SENTE_BIT | GOTE_BIT;

/// The occupancy bit of a side's pieces.
#[inline]
pub const fn side_bit(side: Side) -> u16 {
    match side {
        Side::First => SENTE_BIT,
        Side::Second => GOTE_BIT,
    }
}

/// The code of a piece of type `ty` owned by `side`.
#[inline]
pub const fn code(ty: u8, side: Side) -> u16 {
    side_bit(side) | ty as u16
}

/// The type in a (non-empty, non-guard) code.
#[inline]
pub const fn type_of(code: u16) -> u8 {
    (code & 0xFF) as u8
}

/// Whether a code holds a piece of the side whose occupancy bit is `own`'s opponent (not empty,
/// not a guard, not a friend).
#[inline]
pub const fn is_enemy(code: u16, own: u16) -> bool {
    code != EMPTY && code & own == 0
}

/// The padded square of a file (0 = `a`, Sente's left) and rank (0 = rank 1, Sente's back rank).
pub const fn square(file: usize, rank: usize) -> Sq {
    (rank + PAD) * STRIDE + file + PAD
}

/// The real squares in API cell order: `REAL[cell]` is the cell's padded square.
pub const REAL: [Sq; FILES * FILES] = {
    let mut a = [0; FILES * FILES];
    let mut i = 0;
    while i < FILES * FILES {
        a[i] = square(i % FILES, i / FILES);
        i += 1;
    }
    a
};

/// The API cell of a real padded square.
#[inline]
pub fn cell_of(sq: Sq) -> Cell {
    ((sq / STRIDE - PAD) * FILES + sq % STRIDE - PAD) as Cell
}

/// The rank index (0 = rank 1) of a real padded square.
#[inline]
pub fn rank_of(sq: Sq) -> usize {
    sq / STRIDE - PAD
}

/// A move on the padded board; [`Mv::to_api`] turns it into the host's [`henka_api::Move`].
///
/// `piece` is the type after the move; `via` is the square of a locust (or igui) capture, else
/// [`NO_SQ`]. A pass is `to == from` without `via`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mv {
    pub from: u16,
    pub to: u16,
    pub via: u16,
    pub piece: u8,
}

impl Mv {
    #[inline]
    pub fn is_pass(self) -> bool {
        self.from == self.to && self.via == NO_SQ
    }

    pub fn to_api(self) -> henka_api::Move {
        let via = if self.via == NO_SQ { NO_CELL } else { cell_of(self.via as Sq) };
        henka_api::Move { via, ..henka_api::Move::board(cell_of(self.from as Sq), cell_of(self.to as Sq), self.piece) }
    }
}

/// What [`Board::make`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    from: u16,
    via: u16,
    to: u16,
    passes: u16,
}

/// One bit per padded square: where a side's pieces stand, so generation visits only them.
#[derive(Clone, Debug)]
struct Occupancy([u64; MAP_LEN / 64]);

impl Occupancy {
    #[inline]
    fn flip(&mut self, sq: Sq) {
        let sq = sq & (MAP_LEN - 1);
        self.0[sq / 64] ^= 1 << (sq % 64);
    }

    /// Calls `f` with each square, in increasing order.
    #[inline]
    fn for_each(&self, mut f: impl FnMut(Sq)) {
        for (i, &word) in self.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                f(i * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }
}

/// A position as the engine plays it: the padded cells, where each side's pieces are, the side
/// to move and each side's consecutive passes (the position's counters 0 and 1).
#[derive(Clone, Debug)]
pub struct Board {
    cells: SquareMap<u16>,
    occupied: [Occupancy; 2],
    pub to_move: Side,
    pub passes: [u16; 2],
}

impl Board {
    pub fn from_position(pos: &Position) -> Board {
        let mut board = Board {
            cells: SquareMap::filled(GUARD),
            occupied: [Occupancy([0; MAP_LEN / 64]), Occupancy([0; MAP_LEN / 64])],
            to_move: pos.side_to_move(),
            passes: [pos.counter(0), pos.counter(1)],
        };
        for (cell, &sq) in REAL.iter().enumerate() {
            board.cells[sq] = EMPTY;
            if let Some(p) = pos.piece_at(cell as Cell) {
                board.put(sq, code(p.ty, p.side));
            }
        }
        board
    }

    /// What stands on each square.
    #[inline]
    pub fn cells(&self) -> &SquareMap<u16> {
        &self.cells
    }

    /// Puts a piece's code (or [`EMPTY`]) on a real square, keeping the occupancy.
    #[inline]
    pub fn put(&mut self, sq: Sq, new: u16) {
        for c in [self.cells[sq], new] {
            if c != EMPTY {
                self.occupied[usize::from(c & side_bit(Side::Second) != 0)].flip(sq);
            }
        }
        self.cells[sq] = new;
    }

    /// Calls `f` with the square of each of `side`'s pieces, in increasing order.
    #[inline]
    pub fn for_each_piece(&self, side: Side, f: impl FnMut(Sq)) {
        self.occupied[side.index()].for_each(f);
    }

    /// Plays a move: the captures on `via` and `to`, the piece's new type, the pass counter, the
    /// turn.
    #[inline]
    pub fn make(&mut self, mv: Mv) -> Undo {
        let side = self.to_move;
        let (from, to) = (mv.from as Sq, mv.to as Sq);
        let old_from = self.cells[from];
        self.put(from, EMPTY);
        let mut old_via = EMPTY;
        if mv.via != NO_SQ {
            old_via = self.cells[mv.via as Sq];
            self.put(mv.via as Sq, EMPTY);
        }
        let undo = Undo { from: old_from, via: old_via, to: self.cells[to], passes: self.passes[side.index()] };
        self.put(to, code(mv.piece, side));
        self.passes[side.index()] = if mv.is_pass() { undo.passes + 1 } else { 0 };
        self.to_move = side.opponent();
        undo
    }

    /// Takes back [`Board::make`], in reverse order so that squares a move names twice (igui,
    /// a pass, the lion dog's return to S1) come back right.
    #[inline]
    pub fn unmake(&mut self, mv: Mv, undo: Undo) {
        let side = self.to_move.opponent();
        self.to_move = side;
        self.passes[side.index()] = undo.passes;
        self.put(mv.to as Sq, undo.to);
        if mv.via != NO_SQ {
            self.put(mv.via as Sq, undo.via);
        }
        self.put(mv.from as Sq, undo.from);
    }

    /// The squares of `side`'s pieces of the types `wanted` picks.
    pub fn squares_of(&self, side: Side, wanted: impl Fn(u8) -> bool) -> Vec<Sq> {
        let mut found = Vec::new();
        self.for_each_piece(side, |sq| {
            if wanted(type_of(self.cells[sq])) {
                found.push(sq);
            }
        });
        found
    }
}

/// Plays an API move on an API position (the same effects as [`Board::make`]).
pub fn play_on_position(pos: &mut Position, mv: henka_api::Move) {
    let side = pos.side_to_move();
    pos.set(mv.from, None);
    if mv.via != NO_CELL {
        pos.set(mv.via, None);
    }
    pos.set(mv.to, Some(Piece::new(mv.piece, side)));
    let i = side.index();
    let passed = mv.from == mv.to && mv.via == NO_CELL;
    pos.set_counter(i, if passed { pos.counter(i) + 1 } else { 0 });
    pos.switch_turn();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_squares_agree() {
        for (cell, &sq) in REAL.iter().enumerate() {
            assert_eq!(cell_of(sq) as usize, cell);
        }
        assert_eq!(rank_of(square(12, 24)), 24);
    }

    #[test]
    fn a_move_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<Mv>(), 8);
    }
}
