//! The end of the game (§9): no Emperor, checkmate, stalemate, repetition and perpetual check.

use henka_api::{EndReason, HistoryEntry, Outcome, Side};

use crate::board::Board;
use crate::movegen::{in_check, legal_moves};
use crate::tables::Tables;

/// The fourth occurrence of a position ends the game (sennichite).
const REPETITIONS: usize = 4;

/// The result in `board`, whose repetition hash is `hash`, given the earlier positions of the
/// game (oldest first).
pub fn outcome(t: &Tables, board: &mut Board, hash: u64, history: &[HistoryEntry]) -> Option<Outcome> {
    let side = board.to_move;
    if board.emperor(side).is_none() {
        return Some(Outcome::win(side.opponent(), EndReason::RoyalCaptured));
    }
    let mut moves = Vec::new();
    legal_moves(t, board, &mut moves);
    let checked = in_check(t, board);
    if moves.is_empty() {
        return Some(if checked {
            Outcome::win(side.opponent(), EndReason::Checkmate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        });
    }
    repetition(hash, side, checked, history)
}

/// Sennichite: the same position (board, hands, side to move) for the fourth time is a draw,
/// unless one side was in check in every one of its positions since the previous occurrence:
/// then the other side gave perpetual check and loses.
fn repetition(hash: u64, to_move: Side, checked_now: bool, history: &[HistoryEntry]) -> Option<Outcome> {
    let mut earlier = history.iter().enumerate().filter(|(_, h)| h.hash == hash).map(|(i, _)| i);
    let count = earlier.clone().count();
    if count + 1 < REPETITIONS {
        return None;
    }
    let cycle_start = earlier.next_back().expect("at least three earlier occurrences");
    // history[i] is `plies` = history.len() − i plies before now: the side to move now if even.
    let side_at = |i: usize| if (history.len() - i).is_multiple_of(2) { to_move } else { to_move.opponent() };
    for victim in Side::BOTH {
        let always_checked =
            (cycle_start..history.len()).filter(|&i| side_at(i) == victim).all(|i| history[i].in_check)
                && (victim != to_move || checked_now);
        if always_checked {
            return Some(Outcome::win(victim, EndReason::PerpetualCheck));
        }
    }
    Some(Outcome::draw(EndReason::Repetition))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(hash: u64, in_check: bool) -> HistoryEntry {
        HistoryEntry::new(hash, in_check)
    }

    #[test]
    fn the_fourth_occurrence_is_a_draw_and_the_third_is_not() {
        // Positions A B A B A B, now A (First to move in A).
        let h: Vec<_> = (0..6).map(|i| entry(if i % 2 == 0 { 1 } else { 2 }, false)).collect();
        assert_eq!(repetition(1, Side::First, false, &h[..4]), None);
        assert_eq!(repetition(1, Side::First, false, &h), Some(Outcome::draw(EndReason::Repetition)));
    }

    #[test]
    fn the_checking_side_loses_a_perpetual() {
        // Second is in check in every B: First gives perpetual check and loses.
        let h: Vec<_> = (0..6).map(|i| if i % 2 == 0 { entry(1, false) } else { entry(2, true) }).collect();
        assert_eq!(repetition(1, Side::First, false, &h), Some(Outcome::win(Side::Second, EndReason::PerpetualCheck)));
        // First to move now in check in A, and in every earlier A: Second loses.
        let h: Vec<_> = (0..6).map(|i| if i % 2 == 0 { entry(1, true) } else { entry(2, false) }).collect();
        assert_eq!(repetition(1, Side::First, true, &h), Some(Outcome::win(Side::First, EndReason::PerpetualCheck)));
        assert_eq!(repetition(1, Side::First, false, &h), Some(Outcome::draw(EndReason::Repetition)));
    }
}
