//! Piece types as every variant describes them, and pieces as they stand on the board.

use serde::{Deserialize, Serialize};

use crate::model::side::Side;

/// Index of a piece type in its variant's piece table.
pub type PieceId = u8;

/// The most piece types one variant may define (Taishin needs 115, with room to spare).
pub const MAX_PIECE_TYPES: usize = 200;

/// What the host and notation need to know about a piece type. Serialisable: a plugin describes
/// its pieces with this as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceInfo {
    /// English name, e.g. "Dragon King".
    pub name: String,
    /// Kanji name where known, e.g. "龍王".
    #[serde(default)]
    pub kanji: Option<String>,
    /// Notation token without parentheses or `+`, e.g. `P`, `LN`. A promoted type usually
    /// shares its base type's token and is written `+P`.
    pub token: String,
    /// Whether this type is written with a `+` (it is the promoted form of `demotes_to`).
    #[serde(default)]
    pub promoted: bool,
    /// The move in (X)Betza or the kit's vector notation, for display.
    #[serde(default)]
    pub betza: String,
    /// Losing all royals loses the game.
    #[serde(default)]
    pub royal: bool,
    /// The type this one promotes to, if any.
    #[serde(default)]
    pub promotes_to: Option<PieceId>,
    /// The type a captured piece of this type becomes in the captor's hand (itself if unpromoted).
    pub demotes_to: PieceId,
    /// Some of its moves are computed by the variant's code (a movement callback), so `betza`
    /// does not say them all: they show on the board, where the piece stands.
    #[serde(default)]
    pub computed: bool,
}

impl PieceInfo {
    /// The token as written in positions and moves: `P`, `(LN)`, `+P`, `+(LN)`.
    pub fn written(&self) -> String {
        let bare = if self.token.chars().count() == 1 { self.token.clone() } else { format!("({})", self.token) };
        if self.promoted { format!("+{bare}") } else { bare }
    }
}

/// A piece on the board: its type, its owner and per-variant flags (e.g. a Ki Shogi grace mark).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub ty: PieceId,
    pub side: Side,
    pub flags: u8,
}

impl Piece {
    #[inline]
    pub const fn new(ty: PieceId, side: Side) -> Piece {
        Piece { ty, side, flags: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_tokens_follow_the_position_string_rules() {
        let mut p = PieceInfo {
            name: "Lion".into(),
            kanji: None,
            token: "LN".into(),
            promoted: false,
            betza: String::new(),
            royal: false,
            promotes_to: None,
            demotes_to: 0,
            computed: false,
        };
        assert_eq!(p.written(), "(LN)");
        p.promoted = true;
        assert_eq!(p.written(), "+(LN)");
        p.token = "P".into();
        assert_eq!(p.written(), "+P");
    }

    #[test]
    fn an_empty_cell_costs_nothing_extra() {
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 3);
    }
}
