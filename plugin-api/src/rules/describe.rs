//! Checking a rule set and saying what it describes: every engine built from a [`RuleSet`] starts
//! here, so the kit and the bitboard engine accept the same rule sets and describe them alike.

use super::rule_set::{LimitScope, RuleSet};
use crate::model::description::VariantInfo;
use crate::model::field::{CubeInfo, FieldInfo};
use crate::model::geometry::{Geometry, GeometryError};
use crate::model::piece::{MAX_PIECE_TYPES, PieceId, PieceInfo};
use crate::notation::{self, NotationError};

/// Why a rule set describes no variant. Errors about one piece name it by index so that a script
/// runtime can point at the line that declared it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    #[error("board: {0}")]
    Geometry(#[from] GeometryError),
    #[error("piece {name:?}: {message}")]
    Piece { index: usize, name: String, message: String },
    #[error("start position: {0}")]
    Start(NotationError),
    #[error("{0}")]
    Invalid(String),
}

impl RuleSet {
    /// Checks the rule set and says what it describes: the [`VariantInfo`] (promoted types,
    /// demotions, hand types) and the board. Every engine built from a rule set starts here.
    pub fn describe(&self) -> Result<(VariantInfo, Geometry), RuleSetError> {
        let geometry = Geometry::new(&self.geometry)?;
        let n = self.pieces.len();
        if n == 0 {
            return Err(RuleSetError::Invalid("a variant needs at least one piece type".into()));
        }
        if n > MAX_PIECE_TYPES {
            return Err(RuleSetError::Invalid(format!("at most {MAX_PIECE_TYPES} piece types (got {n})")));
        }
        let piece_err = |index: usize, message: String| RuleSetError::Piece {
            index,
            name: self.pieces[index].name.clone(),
            message,
        };

        let mut demotes_to: Vec<PieceId> = (0..n as PieceId).collect();
        let mut promoted = vec![false; n];
        for (i, p) in self.pieces.iter().enumerate() {
            if p.token.is_empty() || !p.token.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) {
                return Err(piece_err(i, format!("token {:?} must be capital letters (and digits)", p.token)));
            }
            if !p.token.starts_with(|c: char| c.is_ascii_uppercase()) {
                return Err(piece_err(i, format!("token {:?} must start with a letter", p.token)));
            }
            if let Some(t) = p.promotes_to {
                if t >= n || t == i {
                    return Err(piece_err(i, "promotes to a type that does not exist".into()));
                }
                if promoted[t] {
                    return Err(piece_err(t, "is the promotion of two types; give each its own promoted type".into()));
                }
                promoted[t] = true;
                demotes_to[t] = i as PieceId;
            }
        }
        for (i, p) in self.pieces.iter().enumerate() {
            if promoted[i] && p.promotes_to.is_some() {
                return Err(piece_err(i, "a promoted type cannot promote again".into()));
            }
            if p.reversible_promotion && p.promotes_to.is_none() {
                return Err(piece_err(i, "only a type that promotes can have a reversible promotion".into()));
            }
            if let Some(l) = p.limit {
                if l.most == 0 {
                    return Err(piece_err(i, "a limit of 0 pieces would forbid the type altogether".into()));
                }
                if l.per == LimitScope::Binding && !p.paths.is_empty() {
                    return Err(piece_err(i, "a limit per binding needs single-leg moves (no multi-leg paths)".into()));
                }
            }
        }
        if let Some(reach) = &self.end.reach {
            if reach.zone == 0 || reach.zone > geometry.ranks() {
                return Err(RuleSetError::Invalid(format!(
                    "the reach zone must be from 1 to {} ranks (got {})",
                    geometry.ranks(),
                    reach.zone
                )));
            }
            if let Some(&t) = reach.pieces.iter().find(|&&t| t >= n) {
                return Err(RuleSetError::Invalid(format!(
                    "the reach rule names piece type {t}, which does not exist"
                )));
            }
            if reach.pieces.is_empty() && !self.pieces.iter().any(|p| p.royal) {
                return Err(RuleSetError::Invalid(
                    "the reach rule without pieces means the royals; there are none".into(),
                ));
            }
        }
        if self.end.checks > 0 && !self.pieces.iter().any(|p| p.royal) {
            return Err(RuleSetError::Invalid("winning by checks needs a royal piece to give check to".into()));
        }
        if self.end.any() && self.field.is_some() {
            // An open field plays its turns in its own code (kit/field.rs), which does not judge them.
            return Err(RuleSetError::Invalid("reach and check-count rules are not available on an open field".into()));
        }
        let cube_of = self.cube_of_faces().map_err(|(i, m)| piece_err(i, m))?;
        for (i, p) in self.pieces.iter().enumerate() {
            for &t in p.opposite.iter().chain(&p.capture_faces) {
                if t >= n || cube_of[t] != cube_of[i] || cube_of[i].is_none() {
                    return Err(piece_err(i, "turns into a face that is not on its cube".into()));
                }
            }
            if let Some(c) = cube_of[i] {
                demotes_to[i] = self.cubes[c].faces[0] as PieceId;
            }
        }
        let pieces: Vec<PieceInfo> = self
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| PieceInfo {
                name: p.name.clone(),
                kanji: p.kanji.clone(),
                token: p.token.clone(),
                promoted: promoted[i],
                betza: p.betza.clone(),
                royal: p.royal,
                promotes_to: p.promotes_to.map(|t| t as PieceId),
                demotes_to: demotes_to[i],
                computed: false,
            })
            .collect();
        for i in 0..n {
            if let Some(j) = (0..i).find(|&j| pieces[j].written() == pieces[i].written()) {
                return Err(piece_err(i, format!("is written {} like {:?}", pieces[i].written(), pieces[j].name)));
            }
        }
        // Captured pieces go to hand (as their unpromoted type) when the variant has drops.
        // A cube counts in hand under its first face.
        let hand_types = if self.cubes.is_empty() {
            (0..n as PieceId)
                .filter(|&i| self.drops && !promoted[i as usize] && !self.pieces[i as usize].royal)
                .collect()
        } else {
            self.cubes.iter().map(|c| c.faces[0] as PieceId).collect()
        };
        let field = self.field.as_ref().map(|f| FieldInfo {
            unbounded: f.unbounded,
            compass: f.compass,
            cubes: (self.cubes.iter())
                .map(|c| CubeInfo {
                    name: c.name.clone(),
                    letter: c.letter,
                    faces: c.faces.iter().map(|&f| f as PieceId).collect(),
                })
                .collect(),
            opposites: self.pieces.iter().map(|p| p.opposite.map(|t| t as PieceId)).collect(),
            support: Some(f.support.clone()),
        });
        let info = VariantInfo {
            meta: self.meta.clone(),
            geometry: self.geometry.clone(),
            pieces,
            hand_types,
            start: self.start.clone(),
            field,
            royals_per_side: self.royals_per_side,
        };
        notation::parse_position(&info, &geometry, &info.start).map_err(RuleSetError::Start)?;
        Ok((info, geometry))
    }

    /// Which cube each piece type is a face of, checking that with cubes every type is a face of
    /// exactly one (errors name the piece by index).
    fn cube_of_faces(&self) -> Result<Vec<Option<usize>>, (usize, String)> {
        let n = self.pieces.len();
        let mut cube_of = vec![None; n];
        for (ci, cube) in self.cubes.iter().enumerate() {
            if cube.faces.is_empty() {
                return Err((0, format!("cube {:?} has no faces", cube.name)));
            }
            for &f in &cube.faces {
                if f >= n {
                    return Err((0, format!("cube {:?} names a face that does not exist", cube.name)));
                }
                if cube_of[f].replace(ci).is_some() {
                    return Err((f, "is a face of two cubes".into()));
                }
            }
        }
        if !self.cubes.is_empty()
            && let Some(i) = cube_of.iter().position(Option::is_none)
        {
            return Err((i, "is no cube's face (with cubes, every piece is a face)".into()));
        }
        Ok(cube_of)
    }
}
