//! Perft on the engine's own board: make/unmake instead of copying positions, one reusable move
//! list per ply, the last ply bulk-counted.

use crate::board::{Board, Mv};
use crate::movegen::{Scratch, legal_moves};
use crate::tables::Tables;

/// The number of legal move sequences of `depth` plies from `board` (restored on return).
pub fn perft(tables: &Tables, board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<Vec<Mv>> = (0..depth).map(|_| Vec::with_capacity(1024)).collect();
    walk(tables, board, &mut lists, &mut Scratch::default())
}

/// `lists` holds one move list per remaining ply; its length is the depth.
fn walk(tables: &Tables, board: &mut Board, lists: &mut [Vec<Mv>], scratch: &mut Scratch) -> u64 {
    let (list, deeper) = lists.split_last_mut().expect("depth ≥ 1");
    legal_moves(tables, board, list, scratch);
    if deeper.is_empty() {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &mv in list.iter() {
        let undo = board.make(mv);
        nodes += walk(tables, board, deeper, scratch);
        board.unmake(mv, undo);
    }
    nodes
}
