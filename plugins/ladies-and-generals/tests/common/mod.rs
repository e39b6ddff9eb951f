//! Helpers shared by the tests: cells by the spec's names (`dw1` = filestack d, level w, rank 1),
//! positions from a list of pieces, moves and their targets.

#![allow(dead_code)] // each test file uses its own part of these helpers

use std::collections::BTreeSet;
use std::sync::LazyLock;

use henka_api::notation::lookup_token;
use henka_api::{Cell, Move, Piece, PieceId, Position, Side, Variant};
use ladies_and_generals::LadiesAndGenerals;

/// The engine under test.
pub fn variant() -> LadiesAndGenerals {
    LadiesAndGenerals::new()
}

/// One engine for the helpers below, which only read its description.
static ENGINE: LazyLock<LadiesAndGenerals> = LazyLock::new(LadiesAndGenerals::new);

/// The cell of a spec name: filestack `a`–`f`, level `u`–`z`, rank `1`–`9`. Built through the
/// geometry (never a hard-coded index), so the tests follow its numbering.
pub fn at(name: &str) -> Cell {
    let b = name.as_bytes();
    let filestack = (b[0] - b'a') as i32;
    let level = (b[1] - b'u') as i32;
    let rank: i32 = name[2..].parse().expect("a rank number");
    ENGINE.geometry().cell(filestack, rank - 1, level).unwrap_or_else(|| panic!("{name} is not a cell"))
}

/// `(filestack, level, rank)` of a cell, 0-based.
pub fn coords(cell: Cell) -> (i32, i32, i32) {
    let (f, r, l) = ENGINE.geometry().coords(cell);
    (f, l, r)
}

/// The type and side a written token names (`P`, `+L`; lowercase = second player).
pub fn piece(token: &str) -> Piece {
    let (ty, side) = lookup_token(ENGINE.info(), token).expect("a known token");
    Piece::new(ty, side)
}

/// The type id of a written token.
pub fn ty(token: &str) -> PieceId {
    piece(token).ty
}

/// A position with `pieces` (spec cell, written token), `side` to move and `hands` (written
/// token, count: uppercase for the first player).
pub fn position(pieces: &[(&str, &str)], side: Side, hands: &[(&str, u8)]) -> Position {
    let mut pos = Position::empty(ENGINE.geometry().len(), ENGINE.info().pieces.len());
    for &(cell, token) in pieces {
        assert!(pos.piece_at(at(cell)).is_none(), "{cell} given twice");
        pos.set(at(cell), Some(piece(token)));
    }
    for &(token, n) in hands {
        let p = piece(token);
        pos.set_hand(p.side, p.ty, n);
    }
    pos.set_side_to_move(side);
    pos
}

/// The legal moves of the side to move.
pub fn legal(v: &LadiesAndGenerals, pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    v.legal_moves(pos, &mut out).unwrap();
    out
}

/// The legal board moves from a cell.
pub fn legal_from(v: &LadiesAndGenerals, pos: &Position, from: &str) -> Vec<Move> {
    legal(v, pos).into_iter().filter(|m| m.kind == henka_api::MoveKind::Board && m.from == at(from)).collect()
}

/// The legal drops of a type.
pub fn drops_of(v: &LadiesAndGenerals, pos: &Position, token: &str) -> Vec<Move> {
    legal(v, pos).into_iter().filter(|m| m.kind == henka_api::MoveKind::Drop && m.piece == ty(token)).collect()
}

/// The distinct destinations of some moves.
pub fn targets(moves: &[Move]) -> BTreeSet<Cell> {
    moves.iter().map(|m| m.to).collect()
}

/// The piece types a set of moves from one cell to another may end as.
pub fn endings(moves: &[Move], to: &str) -> BTreeSet<PieceId> {
    moves.iter().filter(|m| m.to == at(to)).map(|m| m.piece).collect()
}

/// A set of type ids from written tokens.
pub fn types(tokens: &[&str]) -> BTreeSet<PieceId> {
    tokens.iter().map(|t| ty(t)).collect()
}
