//! The rules kit: a [`RuleSet`] (data) plus optional [`Hooks`] (code) becomes a fast [`Variant`].
//!
//! Building precomputes every ray, leap, zone, dead cell and attack probe (see `tables`), so move
//! generation never does coordinate arithmetic; multi-leg moves (lions, hoppers, hooks, area moves)
//! are walked by a small interpreter over a neighbour table (see `paths`). Standard mechanics —
//! promotion zones (optional, mandatory, forced on dead cells unless immobile pieces are allowed),
//! promotion by capture, drops with nifu, no-drop-mate and dead-cell bans, check (enforced,
//! optional with mate, or ignored), mate and stalemate, several royals, a limit on consecutive
//! passes, royals immune to certain captors when protected, repetition with perpetual check,
//! baring — are switched on by data.

mod field;
mod hooks;
mod limits;
mod movegen;
mod paths;
mod rules;
pub mod shogi_pieces;
mod support;
mod tables;

use std::sync::Arc;

pub use hooks::Hooks;
pub use rules::{
    BaringRule, CheckRule, CubeRule, FieldRule, Limit, LimitScope, PieceRule, PromotionRule, RepetitionRule, RuleSet,
    StalemateRule,
};
pub use support::Support;

use crate::betza::{self, Atom, Path};
use crate::model::description::VariantInfo;
use crate::model::error::RuleError;
use crate::model::field::{CubeInfo, FieldInfo};
use crate::model::geometry::{Geometry, GeometryError};
use crate::model::moves::Move;
use crate::model::outcome::{EndReason, HistoryEntry, Outcome};
use crate::model::piece::{MAX_PIECE_TYPES, PieceId, PieceInfo};
use crate::model::position::Position;
use crate::notation::{self, NotationError};
use crate::variant::Variant;
use field::FieldTables;
use limits::Limits;
use paths::PathTables;
use tables::{Tables, TypeSet};

/// Why a rule set could not become a variant. Errors about one piece name it by index so that a
/// script runtime can point at the line that declared it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KitError {
    #[error("board: {0}")]
    Geometry(#[from] GeometryError),
    #[error("piece {name:?}: {message}")]
    Piece { index: usize, name: String, message: String },
    #[error("start position: {0}")]
    Start(NotationError),
    #[error("{0}")]
    Rules(String),
    /// A hook refused the variant (e.g. a capture hook naming an unknown piece).
    #[error("{0}")]
    Hook(RuleError),
}

impl RuleSet {
    /// Checks the rule set and says what it describes: the [`VariantInfo`] (promoted types,
    /// demotions, hand types) and the board. Every engine built from a rule set starts here.
    pub fn describe(&self) -> Result<(VariantInfo, Geometry), KitError> {
        let geometry = Geometry::new(&self.geometry)?;
        let n = self.pieces.len();
        if n == 0 {
            return Err(KitError::Rules("a variant needs at least one piece type".into()));
        }
        if n > MAX_PIECE_TYPES {
            return Err(KitError::Rules(format!("at most {MAX_PIECE_TYPES} piece types (got {n})")));
        }
        let piece_err =
            |index: usize, message: String| KitError::Piece { index, name: self.pieces[index].name.clone(), message };

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
        };
        notation::parse_position(&info, &geometry, &info.start).map_err(KitError::Start)?;
        Ok((info, geometry))
    }
}

impl RuleSet {
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

/// A variant built by the kit from a [`RuleSet`].
#[derive(Debug)]
pub struct KitVariant {
    rules: RuleSet,
    info: VariantInfo,
    geometry: Geometry,
    tables: Tables,
    paths: PathTables,
    hooks: Option<Arc<dyn Hooks>>,
    promotes_to: Vec<Option<PieceId>>,
    /// `promotes_to` for the types the promotion zone applies to.
    zone_promotes_to: Vec<Option<PieceId>>,
    /// For promoted types whose promotion is reversible: the base type they may switch back to.
    zone_demotes_to: Vec<Option<PieceId>>,
    /// Per-type limits per file or binding.
    limits: Limits,
    is_royal: Vec<bool>,
    holdable: Vec<bool>,
    has_royals: bool,
    any_no_drop_mate: bool,
    /// Some piece has moves the attack probes cannot see (paths): attacks are found by
    /// generating moves instead.
    generic_attacks: bool,
    /// Types that may not capture a protected royal, if any piece has the rule.
    spares_protected: Option<TypeSet>,
    /// Types whose capture asks the hooks what the captor becomes.
    capture_triggers: Option<TypeSet>,
    /// Per type: two of its moves can reach one cell (`WvR`, multi-leg paths), so its move list
    /// is de-duplicated.
    may_repeat: Vec<bool>,
    /// Per cube face: the face after a move without a capture.
    flips: Vec<Option<PieceId>>,
    /// Per cube face: the faces to choose from after a capture.
    capture_faces: Vec<Vec<PieceId>>,
    has_cubes: bool,
    /// The open field's rules, when the variant has one.
    field: Option<FieldTables>,
}

impl KitVariant {
    /// Validates and compiles a rule set.
    pub fn new(rules: RuleSet, hooks: Option<Arc<dyn Hooks>>) -> Result<KitVariant, KitError> {
        let (info, geometry) = rules.describe()?;
        let n = rules.pieces.len();
        let holdable: Vec<bool> = (0..n as PieceId).map(|i| info.hand_types.contains(&i)).collect();
        let atoms: Vec<Vec<Atom>> = rules.pieces.iter().map(|p| p.atoms.clone()).collect();
        let paths: Vec<Vec<Path>> = rules.pieces.iter().map(|p| p.paths.clone()).collect();
        let has_paths: Vec<bool> = paths.iter().map(|p| !p.is_empty()).collect();
        let tables = Tables::build(&geometry, &atoms, &has_paths, rules.promotion.zone_depth);
        let paths = PathTables::build(&geometry, &paths).map_err(KitError::Rules)?;
        let limits =
            Limits::build(&geometry, &rules.pieces.iter().map(|p| p.limit).collect::<Vec<_>>(), &atoms, &tables.column);
        let type_set = |ids: &mut dyn Iterator<Item = usize>| {
            let mut set = TypeSet::default();
            let mut any = false;
            for i in ids {
                set.insert(i);
                any = true;
            }
            any.then_some(set)
        };
        let capture_triggers = match &hooks {
            Some(h) => {
                let ids = h.capture_triggers(&info).map_err(KitError::Hook)?;
                type_set(&mut ids.into_iter().map(usize::from))
            }
            None => None,
        };
        let may_repeat = (0..n)
            .map(|i| {
                let a = &atoms[i];
                has_paths[i] || (0..a.len()).any(|x| (x + 1..a.len()).any(|y| betza::atoms_overlap(&a[x], &a[y])))
            })
            .collect();
        let mut v = KitVariant {
            flips: rules.pieces.iter().map(|p| p.opposite.map(|t| t as PieceId)).collect(),
            capture_faces: (rules.pieces.iter())
                .map(|p| p.capture_faces.iter().map(|&t| t as PieceId).collect())
                .collect(),
            has_cubes: !rules.cubes.is_empty(),
            field: None,
            may_repeat,
            generic_attacks: has_paths.iter().any(|&p| p),
            spares_protected: type_set(&mut (0..n).filter(|&i| rules.pieces[i].spares_protected_royals)),
            capture_triggers,
            paths,
            promotes_to: rules.pieces.iter().map(|p| p.promotes_to.map(|t| t as PieceId)).collect(),
            zone_promotes_to: rules
                .pieces
                .iter()
                .map(|p| p.promotes_to.filter(|_| p.zone_promotion).map(|t| t as PieceId))
                .collect(),
            zone_demotes_to: (0..n)
                .map(|i| {
                    let base = info.pieces[i].demotes_to;
                    let b = &rules.pieces[base as usize];
                    (base as usize != i && b.reversible_promotion && b.zone_promotion).then_some(base)
                })
                .collect(),
            limits,
            is_royal: rules.pieces.iter().map(|p| p.royal).collect(),
            has_royals: rules.pieces.iter().any(|p| p.royal),
            any_no_drop_mate: rules.drops && rules.pieces.iter().any(|p| p.no_drop_mate),
            holdable,
            rules,
            info,
            geometry,
            tables,
            hooks,
        };
        if let Some(rule) = &v.rules.field {
            v.field = Some(FieldTables::new(&v, rule).map_err(KitError::Rules)?);
        }
        Ok(v)
    }

    /// The rule set this variant was built from.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The support rule of an open field, compiled for its board (`None` without a field).
    pub fn support(&self) -> Option<&Arc<Support>> {
        self.field.as_ref().map(|f| &f.support)
    }

    fn side_is_bare(&self, pos: &Position, side: crate::model::side::Side) -> bool {
        pos.hand_is_empty(side) && pos.cells().iter().flatten().all(|p| p.side != side || self.is_royal[p.ty as usize])
    }
}

impl Variant for KitVariant {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let mut scratch = pos.clone();
        self.gen_legal(&mut scratch, out)
    }

    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        self.make_full(pos, mv).map(drop)
    }

    fn in_check(&self, pos: &Position) -> bool {
        self.last_royal_attacked(pos, pos.side_to_move())
    }

    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let stm = pos.side_to_move();
        // A royal still in hand (a field's Gyoku before its placement) is not lost.
        let royal_left = pos.cells().iter().flatten().any(|p| p.side == stm && self.is_royal[p.ty as usize])
            || (0..self.is_royal.len())
                .any(|t| self.is_royal[t] && self.holdable[t] && pos.hand(stm, t as PieceId) > 0);
        if self.has_royals && !royal_left {
            return Ok(Some(Outcome::win(stm.opponent(), EndReason::RoyalCaptured)));
        }
        if let Some(h) = &self.hooks
            && let Some(o) = h.outcome(pos)?
        {
            return Ok(Some(o));
        }
        if self.rules.baring == BaringRule::BoardAndHand && self.has_royals && self.side_is_bare(pos, stm) {
            return Ok(Some(Outcome::win(stm.opponent(), EndReason::Baring)));
        }
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves)?;
        let checked = self.rules.check != CheckRule::Ignore && self.in_check(pos);
        if moves.is_empty() {
            return Ok(Some(if checked {
                Outcome::win(stm.opponent(), EndReason::Checkmate)
            } else {
                self.rules.stalemate.outcome(stm)
            }));
        }
        if checked && self.rules.check == CheckRule::Optional && !self.some_move_escapes(pos, &moves) {
            return Ok(Some(Outcome::win(stm.opponent(), EndReason::Checkmate)));
        }
        Ok(self.rules.repetition.judge(pos, history, || self.in_check(pos)))
    }

    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        if depth == 0 {
            return Ok(1);
        }
        let mut scratch = pos.clone();
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        self.perft_in_place(&mut scratch, depth, &mut bufs)
    }
}

#[cfg(test)]
mod tests;
