//! The `RuleSet`: a variant as pure data. Scripts and plugins both build one; the kit compiles it.

use serde::{Deserialize, Serialize};

use crate::betza::Atom;
use crate::geometry::GeometrySpec;
use crate::variant::Metadata;

/// A variant's rules as data. Hooks (see [`super::Hooks`]) add what data cannot say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleSet {
    #[serde(flatten)]
    pub meta: Metadata,
    pub geometry: GeometrySpec,
    pub pieces: Vec<PieceRule>,
    #[serde(default)]
    pub promotion: PromotionRule,
    /// Captured pieces go to the captor's hand and may be dropped.
    #[serde(default)]
    pub drops: bool,
    #[serde(default)]
    pub check: CheckRule,
    #[serde(default)]
    pub stalemate: StalemateRule,
    #[serde(default)]
    pub baring: BaringRule,
    #[serde(default)]
    pub repetition: RepetitionRule,
    /// The start position string.
    pub start: String,
}

/// One piece type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceRule {
    pub name: String,
    #[serde(default)]
    pub kanji: Option<String>,
    /// Token without `+` or parentheses; a promoted type usually repeats its base's token.
    pub token: String,
    /// The move as written by the designer (Betza or a vector description), for display.
    #[serde(default)]
    pub betza: String,
    /// The move, compiled from `betza` and/or explicit vector atoms.
    pub atoms: Vec<Atom>,
    #[serde(default)]
    pub royal: bool,
    /// Index of the type this one promotes to.
    #[serde(default)]
    pub promotes_to: Option<usize>,
    /// Drop restriction: no drop on a file that holds an own unpromoted piece of this type (nifu).
    #[serde(default)]
    pub one_per_file: bool,
    /// Drop restriction: a drop of this type may not give immediate checkmate (uchifuzume).
    #[serde(default)]
    pub no_drop_mate: bool,
}

/// Where and how pieces promote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromotionRule {
    /// The zone is the last `zone_depth` ranks from each player's view (0 = no promotion).
    pub zone_depth: u8,
    /// Every promotable piece whose move starts or ends in the zone must promote (Ōgi); otherwise
    /// promotion is optional except where the piece could never move again (dead cells).
    pub mandatory: bool,
}

/// Whether a move may leave the mover's royal attacked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckRule {
    /// Moves that leave the side's only royal attacked are illegal (shogi).
    #[default]
    MustEscape,
    /// Royals may be left en prise; losing the last one loses (Taishin).
    Ignore,
}

/// What having no legal move means for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StalemateRule {
    #[default]
    Loss,
    Draw,
    Win,
}

/// Okisaki's baring rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaringRule {
    #[default]
    Off,
    /// A side with nothing but royals on the board and nothing in hand loses.
    BoardAndHand,
}

/// Repetition: the same position for the `count`-th time ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepetitionRule {
    /// 0 switches the rule off.
    pub count: u8,
    /// A repetition reached through one side's unbroken checks loses for that side (sennichite).
    pub perpetual_check_loses: bool,
}

impl Default for RepetitionRule {
    fn default() -> Self {
        RepetitionRule { count: 4, perpetual_check_loses: true }
    }
}
