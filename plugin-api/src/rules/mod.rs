//! Layer 3, the rules as data: a [`RuleSet`] says everything about a variant that data can say,
//! and [`RuleSet::describe`] checks it and derives the [`VariantInfo`](crate::VariantInfo) every
//! engine built from it reports. Moves are written in [`betza`] (or as [`directions`] in 3D);
//! [`shogi_pieces`] are the standard pieces, ready-made. Nothing here generates a move: the
//! engines of layer 5, [`crate::kit`] and [`crate::bitboard`], compile a rule set.
//!
//! It needs the model and, to check the start position, the notation.

pub mod betza;
mod describe;
pub mod directions;
mod rule_set;
pub mod shogi_pieces;

pub use describe::RuleSetError;
pub use rule_set::{
    BaringRule, CheckRule, CubeRule, EndRules, FieldRule, Limit, LimitScope, PieceRule, PromotionRule, ReachRule,
    RepetitionRule, RuleSet, StalemateRule,
};
