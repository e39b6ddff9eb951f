//! Perft on the engine's own board: copy-make (the board is about a hundred bytes), one reusable
//! move list per ply, the last ply counted without listing its moves.

use henka_api::Move;

use crate::Rules;
use crate::board::Board;
use crate::movegen::{Count, generate_supported, play};
use crate::support::{Men, supported};
use crate::tables::Tables;

/// The number of legal move sequences of `depth` plies from `b`.
pub fn perft(t: &Tables, r: &Rules, b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<Vec<Move>> = (1..depth).map(|_| Vec::with_capacity(256)).collect();
    walk(t, r, b, supported(t, b), &mut lists)
}

/// `sup` = the supported cubes of `b`; `lists` holds one move list per ply above the last (its
/// length is the depth minus one).
fn walk(t: &Tables, r: &Rules, b: &Board, sup: Men, lists: &mut [Vec<Move>]) -> u64 {
    let Some((list, deeper)) = lists.split_last_mut() else {
        let mut count = Count::default();
        generate_supported(t, r, b, sup, &mut count);
        return count.0;
    };
    list.clear();
    generate_supported(t, r, b, sup, list);
    let mut nodes = 0;
    for &mv in list.iter() {
        let mut next = *b;
        let sup = play(t, &mut next, mv);
        nodes += walk(t, r, &next, sup, deeper);
    }
    nodes
}
