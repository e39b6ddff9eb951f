//! What goes wrong reading a position or a move.

/// Why a position or move string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("position string needs at least board, side to move and hands: {0:?}")]
    MissingFields(String),
    #[error("unknown piece token {0:?}")]
    UnknownToken(String),
    #[error("{0}")]
    BadBoard(String),
    #[error("side to move must be `b` or `w`, not {0:?}")]
    BadSide(String),
    #[error("bad hands field {0:?}: {1}")]
    BadHands(String, String),
    #[error("bad move number {0:?}")]
    BadMoveNumber(String),
    #[error("bad counters field {0:?}")]
    BadCounters(String),
    #[error("bad cell {0:?}")]
    BadCell(String),
    #[error("cannot read move {0:?}: {1}")]
    BadMove(String, String),
    #[error("illegal move {0:?}")]
    Illegal(String),
    #[error("rule error: {0}")]
    Rule(String),
}
