//! The game's end (docs/rules/ki-shogi.md §11; docs/ki-shogi.md "End"): a side with no Gyoku left
//! loses, a side with no legal move loses (checkmate if in check, else "stalemate"), and the fourth
//! occurrence of a position is a draw (`repetition = draw4`; no perpetual-check rule).

use henka_api::{EndReason, HistoryEntry, Move, Outcome, Position, Side};

use crate::Rules;
use crate::board::Board;
use crate::faces::{GYOKU, cube_of};
use crate::movegen::generate;
use crate::tables::{NONE, Tables};

/// The occurrence of a position that draws.
const REPETITION_COUNT: usize = 4;

/// The game's result in `pos` (read as `b`), given the earlier positions.
pub fn outcome(t: &Tables, r: &Rules, b: &Board, pos: &Position, history: &[HistoryEntry]) -> Option<Outcome> {
    let me = b.stm;
    let side = if me == 0 { Side::First } else { Side::Second };
    if b.gyoku[me] == NONE && b.hands[me][cube_of(GYOKU)] == 0 {
        return Some(Outcome::win(side.opponent(), EndReason::RoyalCaptured));
    }
    let mut moves: Vec<Move> = Vec::new();
    generate(t, r, b, &mut moves);
    if moves.is_empty() {
        let reason = if b.in_check(t) { EndReason::Checkmate } else { EndReason::Stalemate };
        return Some(Outcome::win(side.opponent(), reason));
    }
    let seen = history.iter().filter(|h| h.hash == pos.repetition_hash()).count();
    (seen + 1 >= REPETITION_COUNT).then(|| Outcome::draw(EndReason::Repetition))
}
