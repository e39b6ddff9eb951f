//! Check and the end of the game (§10): royals, checkmate, stalemate, repetition.

use henka_api::{EndReason, HistoryEntry, Outcome, Side};

use crate::board::{Board, Sq};
use crate::movegen::{EmperorRule, Scratch, attacks, legal_moves};
use crate::tables::Tables;

/// The fourth occurrence of a position is a draw.
const REPETITIONS: usize = 4;

fn royals(tables: &Tables, board: &Board, side: Side) -> Vec<Sq> {
    board.squares_of(side, |t| tables.is_royal(t))
}

/// Whether `side`'s last royal is attacked: only a side with exactly one royal can be in check,
/// and an enemy Emperor does not attack a protected royal.
fn last_royal_attacked(tables: &Tables, board: &Board, side: Side) -> bool {
    match royals(tables, board, side)[..] {
        [royal] => attacks(tables, board, side.opponent(), royal, EmperorRule::Applied),
        _ => false,
    }
}

/// Whether the side to move is in check.
pub fn in_check(tables: &Tables, board: &Board) -> bool {
    last_royal_attacked(tables, board, board.to_move)
}

/// The result in `board` (restored on return), given the repetition hash of the position and
/// the earlier positions of the game.
pub fn outcome(tables: &Tables, board: &mut Board, repetition_hash: u64, history: &[HistoryEntry]) -> Option<Outcome> {
    let side = board.to_move;
    let winner = side.opponent();
    if royals(tables, board, side).is_empty() {
        return Some(Outcome::win(winner, EndReason::RoyalCaptured));
    }
    let mut moves = Vec::new();
    legal_moves(tables, board, &mut moves, &mut Scratch::default());
    let check = in_check(tables, board);
    if moves.is_empty() {
        // The stalemated player loses too (§10).
        let reason = if check { EndReason::Checkmate } else { EndReason::Stalemate };
        return Some(Outcome::win(winner, reason));
    }
    // Checkmate although moves remain: every move leaves the last royal attacked (a move that
    // takes the opponent's last royal does not).
    if check
        && moves.iter().all(|&mv| {
            let undo = board.make(mv);
            let still = !royals(tables, board, winner).is_empty() && last_royal_attacked(tables, board, side);
            board.unmake(mv, undo);
            still
        })
    {
        return Some(Outcome::win(winner, EndReason::Checkmate));
    }
    let earlier = history.iter().filter(|h| h.hash == repetition_hash).count();
    (earlier + 1 >= REPETITIONS).then(|| Outcome::draw(EndReason::Repetition))
}
