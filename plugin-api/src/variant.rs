//! The one trait every variant implements, scripted or compiled, and what it describes itself with.

use serde::{Deserialize, Serialize};

use crate::compass;
use crate::field::FieldInfo;
use crate::geometry::{Geometry, GeometrySpec};
use crate::moves::Move;
use crate::notation::{self, NotationError};
use crate::outcome::{HistoryEntry, Outcome};
use crate::piece::{PieceId, PieceInfo};
use crate::position::Position;

/// Where in a source file something went wrong (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLocation {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A failure while applying a variant's rules at run time: a script hook that raised an error or
/// ran too long, or a plugin that panicked. The game and the host carry on; the caller shows it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RuleError {
    pub message: String,
    pub location: Option<SourceLocation>,
}

impl RuleError {
    pub fn new(message: impl Into<String>) -> RuleError {
        RuleError { message: message.into(), location: None }
    }
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "{loc}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Who made a variant and what it is: shown in lists, carried by shared scripts and game records.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    pub name: String,
    #[serde(default)]
    pub author: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub description: String,
}

/// What a variant says about itself: metadata, board, pieces and start. Serialisable: a plugin
/// hands this to the host as JSON once, at load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantInfo {
    #[serde(flatten)]
    pub meta: Metadata,
    pub geometry: GeometrySpec,
    pub pieces: Vec<PieceInfo>,
    /// The types that can be held in hand, in the order position strings list them.
    #[serde(default)]
    pub hand_types: Vec<PieceId>,
    /// The start position as a position string.
    pub start: String,
    /// Set for games on an open field of cubes (Ki Shogi): their cubes, layout and notation.
    #[serde(default)]
    pub field: Option<FieldInfo>,
}

/// A variant's rules. Everything the host does (editor, CLI, perft, AI, USI) goes through this.
///
/// Methods that may run script hooks or plugin code return [`RuleError`] rather than panicking.
pub trait Variant: Send + Sync {
    fn info(&self) -> &VariantInfo;

    fn geometry(&self) -> &Geometry;

    /// The start position.
    fn start_position(&self) -> Position {
        self.parse_position(&self.info().start).expect("the start position was validated when the variant was built")
    }

    /// Appends the legal moves of the side to move to `out` (which it clears first). A position
    /// whose game is over by "no royal left" has none.
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError>;

    /// Plays a legal move. Behaviour for a move not from [`Variant::legal_moves`] is unspecified
    /// but memory-safe.
    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError>;

    /// Whether the side to move's royal piece is attacked (for display and perpetual check).
    fn in_check(&self, pos: &Position) -> bool;

    /// The game's result in `pos`, given the earlier positions of the game (oldest first), or
    /// `None` while it goes on. Covers both "no legal move" and declared results (repetition,
    /// baring, …).
    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError>;

    /// Counts the legal move sequences of `depth` plies, bulk-counting the last ply. Only "no legal
    /// move" and "no royal left" cut the tree (docs/architecture.md, Tests and measurement).
    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        crate::perft::generic_perft(self, pos, depth)
    }

    /// Parses a position string in this variant's notation.
    fn parse_position(&self, s: &str) -> Result<Position, NotationError> {
        notation::parse_position(self.info(), self.geometry(), s)
    }

    /// Writes a position string.
    fn format_position(&self, pos: &Position) -> String {
        notation::format_position(self.info(), self.geometry(), pos)
    }

    /// Writes a move in the variant's notation: the project's coordinates, or the compass
    /// notation of a field variant that selects it.
    fn format_move(&self, pos: &Position, mv: Move) -> String {
        if compass::uses_compass(self.info()) {
            return compass::format_move(self, pos, mv);
        }
        notation::format_move(self.info(), self.geometry(), pos, mv)
    }

    /// Writes a move as one token without spaces, in coordinates: for protocols that separate
    /// moves by spaces (USI), whatever the variant's display notation. [`Variant::parse_move`]
    /// reads it back.
    fn format_move_token(&self, pos: &Position, mv: Move) -> String {
        notation::format_move(self.info(), self.geometry(), pos, mv)
    }

    /// Reads a move (coordinates always; the compass notation where the variant uses it) and
    /// checks it is legal in `pos`.
    fn parse_move(&self, pos: &Position, s: &str) -> Result<Move, NotationError> {
        let coordinates = notation::parse_move(self.info(), self.geometry(), pos, s);
        let mv = match coordinates {
            Err(_) if compass::uses_compass(self.info()) => return compass::parse_move(self, pos, s),
            other => other?,
        };
        let mut legal = Vec::new();
        self.legal_moves(pos, &mut legal).map_err(|e| NotationError::Rule(e.to_string()))?;
        if legal.contains(&mv) { Ok(mv) } else { Err(NotationError::Illegal(s.to_string())) }
    }
}
