//! Perft on the engine's own board: make/unmake, one reusable move list per ply, the last ply
//! counted without listing.

use crate::board::{Board, Mv};
use crate::movegen::{count_legal_moves, legal_moves};
use crate::tables::Tables;

/// The number of legal move sequences of `depth` plies from `board` (restored on return).
pub fn perft(t: &Tables, board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<Vec<Mv>> = (1..depth).map(|_| Vec::with_capacity(4096)).collect();
    walk(t, board, &mut lists)
}

/// `lists` holds one move list per ply above the last.
fn walk(t: &Tables, board: &mut Board, lists: &mut [Vec<Mv>]) -> u64 {
    let Some((list, deeper)) = lists.split_last_mut() else {
        return count_legal_moves(t, board);
    };
    legal_moves(t, board, list);
    let mut nodes = 0;
    for &mv in list.iter() {
        let undo = board.make(mv);
        nodes += walk(t, board, deeper);
        board.unmake(mv, undo);
    }
    nodes
}
