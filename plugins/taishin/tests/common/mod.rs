//! Helpers shared by the tests: positions from a list of pieces, squares in the spec's
//! coordinates (`m13` = file m, rank 13, as Sente sees the board).

#![allow(dead_code)] // each test file uses its own part of these helpers

use henka_api::{Cell, Move, Position, Variant};
use taishin::Taishin;

/// The API cell of a spec square: file letter `a`–`y` then rank 1–25.
pub fn sq(name: &str) -> Cell {
    let file = (name.as_bytes()[0] - b'a') as Cell;
    let rank: Cell = name[1..].parse().expect("a rank number");
    (rank - 1) * 25 + file
}

/// A position with `pieces` (spec square, written token: uppercase Sente, lowercase Gote) and
/// `side` to move (`b` Sente, `w` Gote), built through the position-string parser.
pub fn position(v: &Taishin, pieces: &[(&str, &str)], side: &str) -> Position {
    let mut board = vec![vec![None; 25]; 25];
    for &(at, token) in pieces {
        let c = sq(at) as usize;
        board[c / 25][c % 25] = Some(token);
    }
    let ranks: Vec<String> = (0..25)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for f in 0..25 {
                match board[r][f] {
                    Some(t) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s += t;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    v.parse_position(&format!("{} {side} - 1", ranks.join("/"))).expect("a valid test position")
}

/// A board move in spec squares (`via` = a locust or igui capture), ending as type `piece`.
pub fn mv(from: &str, via: Option<&str>, to: &str, piece: u8) -> Move {
    let mut m = Move::board(sq(from), sq(to), piece);
    if let Some(v) = via {
        m.via = sq(v);
    }
    m
}

/// The type id written `written` (`LN`, `+P`).
pub fn ty(v: &Taishin, written: &str) -> u8 {
    henka_api::notation::lookup_token(v.info(), written).expect("a known token").0
}

/// The legal moves of the side to move.
pub fn legal(v: &Taishin, pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    v.legal_moves(pos, &mut out).unwrap();
    out
}

/// The legal moves of the piece on `from`.
pub fn legal_from(v: &Taishin, pos: &Position, from: &str) -> Vec<Move> {
    legal(v, pos).into_iter().filter(|m| m.from == sq(from)).collect()
}
