//! How games end: the winner (or a draw) and the reason, for messages and records.

use crate::model::moves::Move;
use crate::model::side::Side;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// The side to move has lost its last royal piece.
    RoyalCaptured,
    /// The side to move has nothing left but royals (Okisaki's baring rule).
    Baring,
    /// The same position arose for the n-th time.
    Repetition,
    /// The same position arose for the n-th time through one side's unbroken checks.
    PerpetualCheck,
    /// A rule of the variant's own, in its words (e.g. from a script hook).
    Rule(String),
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::Checkmate => f.write_str("checkmate"),
            EndReason::Stalemate => f.write_str("no legal move (stalemate)"),
            EndReason::RoyalCaptured => f.write_str("the last royal piece was captured"),
            EndReason::Baring => f.write_str("bare king"),
            EndReason::Repetition => f.write_str("repetition"),
            EndReason::PerpetualCheck => f.write_str("perpetual check"),
            EndReason::Rule(s) => f.write_str(s),
        }
    }
}

/// The end of a game: who won (`None` = draw) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(side: Side, reason: EndReason) -> Outcome {
        Outcome { winner: Some(side), reason }
    }
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome { winner: None, reason }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}

/// What rules need to know about each earlier position of a game: for repetition, and for a rule
/// that looks at the moves played. `#[repr(C)]` so a game's history crosses the plugin ABI as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct HistoryEntry {
    /// [`crate::Position::repetition_hash`] of that position.
    pub hash: u64,
    /// The side to move in that position was in check.
    pub in_check: bool,
    /// The move played from that position (a pass where whoever wrote the entry did not say).
    pub played: Move,
}

impl HistoryEntry {
    /// An entry for a position whose move is not known (a pass).
    pub fn new(hash: u64, in_check: bool) -> HistoryEntry {
        HistoryEntry { hash, in_check, played: Move::pass() }
    }

    /// The entry with the move played from its position.
    pub fn with_move(self, played: Move) -> HistoryEntry {
        HistoryEntry { played, ..self }
    }
}
