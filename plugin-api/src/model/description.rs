//! What a variant says about itself: metadata, board, pieces and start, as the host and notation
//! need them whichever engine plays. Serialisable: a plugin hands this to the host as JSON.

use serde::{Deserialize, Serialize};

use crate::model::field::FieldInfo;
use crate::model::geometry::GeometrySpec;
use crate::model::piece::{PieceId, PieceInfo};

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
    /// The most royal pieces a side may have on the board (`None`: any number). The position
    /// parser refuses more, so an engine that keeps one royal per side (as a hand-written plugin
    /// may) is never handed a position it cannot play, and the kit, which plays any number, is
    /// not asked to either.
    #[serde(default)]
    pub royals_per_side: Option<u8>,
}
