//! Answers of a script's movement callbacks, reused wherever the cells they read agree.
//!
//! A callback that looked at the position only through `piece_at` (and the board's geometry)
//! gives the same moves in every position that has the same pieces on the cells it read: a
//! Crowd's moves depend on its neighbours and its lines, not on a move at the other end of the
//! board. Each thread keeps, per callback set, cell and piece, the last few answers with the
//! cells they read; a callback that asked anything wider (the side to move, an attack test, the
//! pieces list) is not kept here, and the kit's own table (one answer per exact position) is all
//! it gets. In perft most sibling positions agree on a callback's cells, so most calls are saved.

use std::cell::RefCell;
use std::collections::HashMap;

use henka_api::{Cell, Move, Piece, Position};

use super::position_api::Reads;

/// Answers kept per callback set, cell and piece.
const PER_KEY: usize = 64;
/// Keys kept per thread before the table starts afresh (a long session reloads many scripts).
const MAX_KEYS: usize = 8192;

struct Remembered {
    seen: Vec<(Cell, Option<Piece>)>,
    moves: Vec<Move>,
}

type Key = (u64, Cell, Piece);

thread_local! {
    static MEMO: RefCell<HashMap<Key, Vec<Remembered>>> = RefCell::new(HashMap::new());
}

/// Appends the remembered answer of callback set `hooks` for `piece` on `from`, if one agrees
/// with `pos` on every cell it read; whether it did.
pub(crate) fn recall(hooks: u64, pos: &Position, from: Cell, piece: Piece, out: &mut Vec<Move>) -> bool {
    MEMO.with_borrow(|m| {
        let Some(answers) = m.get(&(hooks, from, piece)) else { return false };
        let agrees = |r: &&Remembered| r.seen.iter().all(|&(c, p)| pos.piece_at(c) == p);
        match answers.iter().rev().find(agrees) {
            Some(r) => {
                out.extend_from_slice(&r.moves);
                true
            }
            None => false,
        }
    })
}

/// Keeps an answer the callback gave in `pos` after reading `reads`, unless it read more than cells.
pub(crate) fn remember(hooks: u64, pos: &Position, from: Cell, piece: Piece, reads: &Reads, moves: &[Move]) {
    if reads.whole {
        return;
    }
    let mut cells = reads.cells.clone();
    cells.sort_unstable();
    cells.dedup();
    let seen = cells.into_iter().map(|c| (c, pos.piece_at(c))).collect();
    MEMO.with_borrow_mut(|m| {
        if m.len() >= MAX_KEYS {
            m.clear();
        }
        let answers = m.entry((hooks, from, piece)).or_default();
        if answers.len() == PER_KEY {
            answers.remove(0);
        }
        answers.push(Remembered { seen, moves: moves.to_vec() });
    });
}
