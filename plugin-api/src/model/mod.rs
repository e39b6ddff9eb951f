//! Layer 1, the value types: what every other layer speaks and none of them defines. Nothing
//! here knows rules, notation or engines.
//!
//! - [`side`], [`geometry`], [`piece`], [`moves`], [`position`] (with its [`hash`]) and
//!   [`outcome`]: the game's vocabulary;
//! - [`description`] and [`field`]: what a variant says about itself ([`description::VariantInfo`]),
//!   as a plugin hands it to the host;
//! - [`error`]: [`error::RuleError`], what a rule that fails at run time reports.

pub mod description;
pub mod error;
pub mod field;
pub mod geometry;
pub mod hash;
pub mod moves;
pub mod outcome;
pub mod piece;
pub mod position;
pub mod side;
