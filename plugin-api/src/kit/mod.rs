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
mod support;
mod tables;

use std::sync::Arc;

pub use hooks::Hooks;
pub use support::Support;

use crate::model::description::VariantInfo;
use crate::model::error::RuleError;
use crate::model::geometry::Geometry;
use crate::model::moves::Move;
use crate::model::outcome::{EndReason, HistoryEntry, Outcome};
use crate::model::piece::PieceId;
use crate::model::position::Position;
use crate::rules::betza::{self, Atom, Path};
use crate::rules::{BaringRule, CheckRule, RuleSet, RuleSetError};
use crate::variant::Variant;
use field::FieldTables;
use limits::Limits;
use paths::PathTables;
use tables::{Tables, TypeSet};

/// Why a rule set could not become a kit variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KitError {
    #[error(transparent)]
    Rules(#[from] RuleSetError),
    /// Rules the kit cannot compile: multi-leg moves on a board with levels, an open field without
    /// cubes or with several royal types, …
    #[error("{0}")]
    Compile(String),
    /// A hook refused the variant (e.g. a capture hook naming an unknown piece).
    #[error("{0}")]
    Hook(RuleError),
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
        let paths = PathTables::build(&geometry, &paths).map_err(KitError::Compile)?;
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
            v.field = Some(FieldTables::new(&v, rule).map_err(KitError::Compile)?);
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
