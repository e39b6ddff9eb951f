//! Field variants: games played without a fixed board on an open field of cubes (Ki Shogi).
//!
//! What the host and notation need to know about such a variant travels in [`FieldInfo`] (part of
//! [`crate::VariantInfo`], so a plugin describes it as JSON too): the cubes a hand holds, whether
//! the field is unbounded (kept re-centred in its box), and whether moves are written in compass
//! notation, each face's opposite and who supports whom (so the editor can show them whichever
//! engine plays). [`SupportRule`] is plain data shared by the description and the rules (a field
//! rule says who supports whom with it); the rules themselves are a `FieldRule`.

use serde::{Deserialize, Serialize};

use crate::model::geometry::Geometry;
use crate::model::piece::PieceId;

/// The most pieces an open field's position may hold, on the field and in hand together: the
/// kit's field functions keep sets of pieces as 64-bit masks, so the position parser refuses more
/// rather than hand an engine a position it cannot play (it also refuses more than the start
/// position has: Ki Shogi's 6 or 8 cubes).
pub const MAX_FIELD_PIECES: usize = 64;

/// A piece's flag bit for "under grace": stranded by the opponent, recoverable in its owner's next
/// turn. Part of the position (and its hash).
pub const GRACE: u8 = 1;

/// One kind of cube: its faces are piece types; in hand it counts under its first face.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CubeInfo {
    pub name: String,
    /// The cube's letter in position strings' hands (`G`, `H`, `K`, `U`).
    pub letter: char,
    /// The faces, first face first (the hand type).
    pub faces: Vec<PieceId>,
}

/// How a field variant is laid out and written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldInfo {
    /// The field has no edge: the box is kept centred on the first player's royal, and position
    /// strings give coordinates relative to the box centre.
    pub unbounded: bool,
    pub cubes: Vec<CubeInfo>,
    /// Moves are written in the compass notation (see [`crate::variant::compass`]).
    #[serde(default)]
    pub compass: bool,
    /// Each piece type's opposite face, by type id: the face a move without a capture flips it to
    /// (`None` for a face that never changes, the Gyoku). The editor shows it on each cube.
    #[serde(default)]
    pub opposites: Vec<Option<PieceId>>,
    /// Who supports whom, for display (the editor marks supported cells and unsupported pieces
    /// with the kit's `Support`); `None` when the variant does not say.
    #[serde(default)]
    pub support: Option<SupportRule>,
}

impl FieldInfo {
    /// The face a piece showing `ty` flips to when it moves without capturing.
    pub fn opposite(&self, ty: PieceId) -> Option<PieceId> {
        self.opposites.get(ty as usize).copied().flatten()
    }

    /// The box cell written as (0, 0): the box's corner, or its centre when unbounded.
    pub fn origin(&self, g: &Geometry) -> (i32, i32) {
        if self.unbounded { centre(g) } else { (0, 0) }
    }
}

/// The centre cell's coordinates of a box (rounded down on even sizes).
pub fn centre(g: &Geometry) -> (i32, i32) {
    (g.files() as i32 / 2, g.ranks() as i32 / 2)
}

/// Who supports whom. Royals need no support and support every piece next to them (either
/// colour's). Relays (Ki faces) support the pieces next to them while active; a relay is supported
/// within `relay_reach` of an anchoring royal or next to another active relay; an active relay is a
/// supported one or one under grace. Every other piece is supported next to a royal or an active
/// relay.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupportRule {
    /// Indices of the relay types in `pieces`.
    #[serde(default)]
    pub relays: Vec<usize>,
    /// How far from an anchoring royal a relay is supported (Ki: 2).
    #[serde(default)]
    pub relay_reach: u8,
    /// Only the relay's own royal anchors it (else either royal).
    #[serde(default)]
    pub relay_anchor_own: bool,
    /// A board move must end with the moved piece supported (no sacrifice moves).
    #[serde(default)]
    pub moves_end_supported: bool,
}
