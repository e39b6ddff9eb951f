//! The padded mailbox: the 6 × 9 × 6 board (filestack × rank × level) inside one guard cell on
//! every side, one byte per square, plus hands and the restriction counts.
//!
//! Every piece moves one radial at a time, so one guard layer is enough: a slide or step never
//! reads past it and never needs a bounds check. A guard square reads as occupied by *both*
//! sides, which makes it a square nobody may enter or capture.
//!
//! A square's byte: bit 6 = a first-player piece, bit 7 = a second-player piece, the low five
//! bits = its type. Empty is 0, so "may land here" is one mask test: `code & own == 0`.

use henka_api::{Cell, NO_CELL, PieceId, Position, Side, Vector};

use crate::pieces::{EMPEROR, TYPES, array_form};
use crate::restrictions::Groups;

pub const FILESTACKS: usize = 6;
pub const RANKS: usize = 9;
pub const LEVELS: usize = 6;
/// Real cells.
pub const CELLS: usize = FILESTACKS * RANKS * LEVELS;

/// Padded extents: one guard cell on each side of each axis.
const PF: usize = FILESTACKS + 2;
const PR: usize = RANKS + 2;
const PL: usize = LEVELS + 2;
/// Squares of the padded board.
pub const SQUARES: usize = PF * PR * PL;

/// An index into the padded board.
pub type Sq = usize;

/// The square of filestack `f`, rank `r` and level `l` (0-based, as [`henka_api::Geometry`]
/// numbers them).
pub const fn square(f: usize, r: usize, l: usize) -> Sq {
    ((l + 1) * PR + (r + 1)) * PF + f + 1
}

/// The difference between the squares a board-frame vector joins.
pub const fn offset(v: Vector) -> isize {
    v.df as isize + (v.dr as isize) * PF as isize + (v.dl as isize) * (PF * PR) as isize
}

/// `(filestack, rank, level)` of a padded square (guards give −1 or the extent).
pub const fn coords(sq: Sq) -> (isize, isize, isize) {
    ((sq % PF) as isize - 1, ((sq / PF) % PR) as isize - 1, (sq / (PF * PR)) as isize - 1)
}

/// The real squares in API cell order: `REAL[cell]` is the cell's padded square.
pub const REAL: [Sq; CELLS] = {
    let mut a = [0; CELLS];
    let mut c = 0;
    while c < CELLS {
        a[c] = square(c % FILESTACKS, (c / FILESTACKS) % RANKS, c / (FILESTACKS * RANKS));
        c += 1;
    }
    a
};

/// The API cell of each padded square ([`NO_CELL`] for guards).
pub const CELL_OF: [Cell; SQUARES] = {
    let mut a = [NO_CELL; SQUARES];
    let mut c = 0;
    while c < CELLS {
        a[REAL[c]] = c as Cell;
        c += 1;
    }
    a
};

pub const EMPTY: u8 = 0;
const FIRST_BIT: u8 = 0x40;
const SECOND_BIT: u8 = 0x80;
/// An off-board square: "occupied by both sides".
pub const GUARD: u8 = FIRST_BIT | SECOND_BIT;

/// The occupancy bit of a side's pieces.
#[inline]
pub const fn side_bit(side: Side) -> u8 {
    match side {
        Side::First => FIRST_BIT,
        Side::Second => SECOND_BIT,
    }
}

/// The code of a piece of type `ty` owned by `side`.
#[inline]
pub const fn code(ty: PieceId, side: Side) -> u8 {
    side_bit(side) | ty
}

/// The type in a piece's code.
#[inline]
pub const fn type_of(code: u8) -> PieceId {
    code & 0x1F
}

/// Whether a code is a piece of the side whose bit is `bit` (not a guard, not empty).
#[inline]
pub const fn owned_by(code: u8, bit: u8) -> bool {
    code & GUARD == bit
}

/// "No square": the `from` of a drop.
pub const NO_SQ: u16 = u16::MAX;

/// A move on the padded board: a board move (`from` → `to`, ending as type `piece`) or a drop
/// (`from` = [`NO_SQ`], `piece` from hand onto `to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mv {
    pub from: u16,
    pub to: u16,
    pub piece: PieceId,
}

impl Mv {
    #[inline]
    pub fn board(from: Sq, to: Sq, piece: PieceId) -> Mv {
        Mv { from: from as u16, to: to as u16, piece }
    }

    #[inline]
    pub fn drop(piece: PieceId, to: Sq) -> Mv {
        Mv { from: NO_SQ, to: to as u16, piece }
    }

    #[inline]
    pub fn is_drop(self) -> bool {
        self.from == NO_SQ
    }

    pub fn to_api(self) -> henka_api::Move {
        let to = CELL_OF[self.to as Sq];
        if self.is_drop() {
            henka_api::Move::drop(self.piece, to)
        } else {
            henka_api::Move::board(CELL_OF[self.from as Sq], to, self.piece)
        }
    }

    /// The engine's form of an API move (board moves and drops; anything else is not a move of
    /// this game and gives `None`).
    pub fn from_api(mv: henka_api::Move) -> Option<Mv> {
        let sq = |c: Cell| REAL.get(c as usize).copied();
        match mv.kind {
            henka_api::MoveKind::Board => Some(Mv::board(sq(mv.from)?, sq(mv.to)?, mv.piece)),
            henka_api::MoveKind::Drop => Some(Mv::drop(mv.piece, sq(mv.to)?)),
            _ => None,
        }
    }
}

/// What [`Board::make`] needs to take a move back: the code that stood on `from` and on `to`.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    moved: u8,
    captured: u8,
}

/// One bit per padded square: where a side's pieces stand, so generation visits only them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Occupancy([u64; SQUARES.div_ceil(64)]);

impl Occupancy {
    #[inline]
    fn flip(&mut self, sq: Sq) {
        self.0[sq / 64] ^= 1 << (sq % 64);
    }

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

/// A position as the engine plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [u8; SQUARES],
    occupied: [Occupancy; 2],
    /// Each side's Emperor, if it has one.
    emperor: [Option<Sq>; 2],
    hands: [[u8; TYPES]; 2],
    /// The counts the restrictions (§6) and drop counting need, kept as pieces come and go.
    pub groups: Groups,
    pub to_move: Side,
}

impl Board {
    /// The engine's board for a position. Positions come through the notation parser, which the
    /// variant wraps so that a side has at most one Emperor.
    pub fn from_position(pos: &Position) -> Board {
        let mut board = Board {
            cells: [GUARD; SQUARES],
            occupied: [Occupancy([0; SQUARES.div_ceil(64)]), Occupancy([0; SQUARES.div_ceil(64)])],
            emperor: [None; 2],
            hands: [[0; TYPES]; 2],
            groups: Groups::default(),
            to_move: pos.side_to_move(),
        };
        for (cell, &sq) in REAL.iter().enumerate() {
            board.cells[sq] = EMPTY;
            if let Some(p) = pos.piece_at(cell as Cell) {
                board.put(sq, code(p.ty, p.side));
            }
        }
        for side in Side::BOTH {
            for ty in 0..TYPES {
                board.hands[side.index()][ty] = pos.hand(side, ty as PieceId);
            }
        }
        board
    }

    /// What stands on a square.
    #[inline]
    pub fn at(&self, sq: Sq) -> u8 {
        self.cells[sq]
    }

    /// The square of `side`'s Emperor.
    #[inline]
    pub fn emperor(&self, side: Side) -> Option<Sq> {
        self.emperor[side.index()]
    }

    /// How many pieces of type `ty` `side` holds.
    #[inline]
    pub fn hand(&self, side: Side, ty: PieceId) -> u8 {
        self.hands[side.index()][ty as usize]
    }

    /// Puts a piece's code (or [`EMPTY`]) on a real square, keeping occupancy, Emperors and
    /// restriction counts.
    #[inline]
    fn put(&mut self, sq: Sq, new: u8) {
        let old = self.cells[sq];
        if old != EMPTY {
            let side = side_of(old);
            self.occupied[side.index()].flip(sq);
            self.groups.remove(sq, type_of(old), side);
            if type_of(old) == EMPEROR {
                self.emperor[side.index()] = None;
            }
        }
        if new != EMPTY {
            let side = side_of(new);
            self.occupied[side.index()].flip(sq);
            self.groups.add(sq, type_of(new), side);
            if type_of(new) == EMPEROR {
                self.emperor[side.index()] = Some(sq);
            }
        }
        self.cells[sq] = new;
    }

    /// Calls `f` with the square of each of `side`'s pieces.
    #[inline]
    pub fn for_each_piece(&self, side: Side, f: impl FnMut(Sq)) {
        self.occupied[side.index()].for_each(f);
    }

    /// Plays a move: the capture (into the mover's hand, in array form), the piece's new type or
    /// the drop, the turn.
    #[inline]
    pub fn make(&mut self, mv: Mv) -> Undo {
        let side = self.to_move;
        let to = mv.to as Sq;
        let captured = self.cells[to];
        let moved = if mv.is_drop() {
            self.hands[side.index()][mv.piece as usize] -= 1;
            EMPTY
        } else {
            let from = mv.from as Sq;
            let moved = self.cells[from];
            self.put(from, EMPTY);
            if captured != EMPTY && type_of(captured) != EMPEROR {
                self.hands[side.index()][array_form(type_of(captured)) as usize] += 1;
            }
            moved
        };
        self.put(to, code(mv.piece, side));
        self.to_move = side.opponent();
        Undo { moved, captured }
    }

    /// Takes back [`Board::make`].
    #[inline]
    pub fn unmake(&mut self, mv: Mv, undo: Undo) {
        let side = self.to_move.opponent();
        self.to_move = side;
        let to = mv.to as Sq;
        self.put(to, undo.captured);
        if mv.is_drop() {
            self.hands[side.index()][mv.piece as usize] += 1;
        } else {
            self.put(mv.from as Sq, undo.moved);
            if undo.captured != EMPTY && type_of(undo.captured) != EMPEROR {
                self.hands[side.index()][array_form(type_of(undo.captured)) as usize] -= 1;
            }
        }
    }

    /// Takes a piece off its square for a look at what it shields ([`Board::restore`] puts it
    /// back); occupancy and counts are left alone.
    #[inline]
    pub fn lift(&mut self, sq: Sq) -> u8 {
        std::mem::replace(&mut self.cells[sq], EMPTY)
    }

    #[inline]
    pub fn restore(&mut self, sq: Sq, code: u8) {
        self.cells[sq] = code;
    }
}

/// The owner of a piece's code.
#[inline]
pub const fn side_of(code: u8) -> Side {
    if code & SECOND_BIT != 0 { Side::Second } else { Side::First }
}

/// Plays an API move on an API position (the same effects as [`Board::make`]).
pub fn play_on_position(pos: &mut Position, mv: henka_api::Move) {
    let side = pos.side_to_move();
    if mv.kind == henka_api::MoveKind::Drop {
        pos.set_hand(side, mv.piece, pos.hand(side, mv.piece).saturating_sub(1));
    } else {
        if let Some(victim) = pos.piece_at(mv.to)
            && victim.ty != EMPEROR
        {
            let ty = array_form(victim.ty);
            pos.set_hand(side, ty, pos.hand(side, ty).saturating_add(1));
        }
        pos.set(mv.from, None);
    }
    pos.set(mv.to, Some(henka_api::Piece::new(mv.piece, side)));
    pos.switch_turn();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_squares_agree() {
        for (cell, &sq) in REAL.iter().enumerate() {
            assert_eq!(CELL_OF[sq] as usize, cell);
            let (f, r, l) = coords(sq);
            assert_eq!((l as usize * RANKS + r as usize) * FILESTACKS + f as usize, cell);
        }
        assert_eq!(CELL_OF.iter().filter(|&&c| c != NO_CELL).count(), CELLS);
    }

    /// xorshift64*: a fixed, dependency-free sequence of choices.
    /// Along random games (captures preferred, so that hands fill and drops come into play),
    /// every legal move made on the board gives the board built afresh from the position the
    /// API move gives, and unmaking it gives back the board before.
    #[test]
    fn make_and_unmake_agree_with_fresh_boards_along_random_games() {
        use henka_api::Variant;
        let v = crate::LadiesAndGenerals::new();
        let mut checked = 0;
        for seed in 1..=2u64 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut pos = v.start_position();
            let mut moves = Vec::new();
            for _ in 0..150 {
                let mut board = Board::from_position(&pos);
                crate::movegen::legal_moves(&v.tables, &mut board, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let before = board.clone();
                for &mv in moves.iter().step_by(5) {
                    let undo = board.make(mv);
                    let mut after = pos.clone();
                    play_on_position(&mut after, mv.to_api());
                    assert_eq!(board, Board::from_position(&after), "{mv:?}");
                    board.unmake(mv, undo);
                    assert_eq!(board, before, "{mv:?}");
                    checked += 1;
                }
                let captures: Vec<Mv> = moves.iter().copied().filter(|m| board.at(m.to as Sq) != EMPTY).collect();
                let pool = if captures.is_empty() { &moves } else { &captures };
                play_on_position(&mut pos, pool[rng.usize(..pool.len())].to_api());
            }
            assert!(!pos.hand_is_empty(Side::First) || !pos.hand_is_empty(Side::Second), "the game came to drops");
        }
        assert!(checked > 1000);
    }

    #[test]
    fn one_step_from_any_real_square_stays_on_the_padded_board() {
        for &sq in &REAL {
            for v in crate::radials::RADIALS {
                let to = sq as isize + offset(v);
                assert!((0..SQUARES as isize).contains(&to));
            }
        }
    }
}
