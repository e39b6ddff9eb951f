//! Helpers shared by the tests: legal moves, moves in compass notation (read and written by the
//! host's field notation on this plugin's description).

#![allow(dead_code)] // each test file uses its own part of these helpers

use std::collections::BTreeSet;

use henka_api::{Move, Position, Variant};

pub fn legal(v: &dyn Variant, pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    v.legal_moves(pos, &mut moves).unwrap();
    moves
}

/// The legal moves as written (compass notation).
pub fn written(v: &dyn Variant, pos: &Position) -> BTreeSet<String> {
    legal(v, pos).into_iter().map(|m| v.format_move(pos, m)).collect()
}

/// Plays moves written in compass notation.
pub fn play(v: &dyn Variant, pos: &mut Position, moves: &[&str]) {
    for s in moves {
        let mv = v.parse_move(pos, s).unwrap_or_else(|e| panic!("{s} in {}: {e}", v.format_position(pos)));
        v.play(pos, mv).unwrap();
    }
}

/// The position after `moves` from the position string `start`, written back as a string.
pub fn after(v: &dyn Variant, start: &str, moves: &[&str]) -> String {
    let mut pos = v.parse_position(start).unwrap();
    play(v, &mut pos, moves);
    v.format_position(&pos)
}
