//! Perft on the engine's own board: copy-make (the board is about a hundred bytes), one reusable
//! move list per ply, the last ply counted without listing its moves.

use henka_api::Move;

use crate::Rules;
use crate::board::Board;
use crate::movegen::{Count, generate, play};
use crate::tables::Tables;

/// The number of legal move sequences of `depth` plies from `b`.
pub fn perft(t: &Tables, r: &Rules, b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<Vec<Move>> = (1..depth).map(|_| Vec::with_capacity(256)).collect();
    walk(t, r, b, &mut lists)
}

/// `lists` holds one move list per ply above the last; its length is the depth minus one.
fn walk(t: &Tables, r: &Rules, b: &Board, lists: &mut [Vec<Move>]) -> u64 {
    let Some((list, deeper)) = lists.split_last_mut() else {
        let mut count = Count::default();
        generate(t, r, b, &mut count);
        return count.0;
    };
    list.clear();
    generate(t, r, b, list);
    let mut nodes = 0;
    for &mv in list.iter() {
        let mut next = *b;
        play(t, &mut next, mv);
        nodes += walk(t, r, &next, deeper);
    }
    nodes
}
