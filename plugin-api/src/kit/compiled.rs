//! [`KitVariant`]: a rule set compiled into the kit's tables, ready for the move generator.
//!
//! Building precomputes every ray, leap, zone, dead cell and attack probe ([`super::tables`]),
//! multi-leg paths ([`super::paths`]), per-type limits ([`super::limits`]) and, for an open field,
//! its own tables ([`super::field_tables`]). The fields are the kit's: its move generation
//! (`movegen`, `field`) and its `Variant` implementation read them.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::callbacks::Reach;
use super::field_tables::FieldTables;
use super::hooks::{EffectTrigger, Hooks};
use super::limits::Limits;
use super::paths::PathTables;
use super::support::Support;
use super::tables::{Tables, TypeSet};
use crate::model::description::VariantInfo;
use crate::model::error::RuleError;
use crate::model::geometry::{Cell, Geometry};
use crate::model::piece::PieceId;
use crate::model::side::Side;
use crate::rules::betza::{self, Atom, Path};
use crate::rules::{RuleSet, RuleSetError};

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

/// Which moves run the hooks' move effect, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Effects {
    /// The movers' types; `None`: every move.
    pub movers: Option<TypeSet>,
    /// Only moves that take a piece off the board.
    pub taking: bool,
    /// The effect changes only counters (and the turn): moves are judged by the data rules.
    pub counters_only: bool,
}

/// Numbers the variants built, so per-thread tables of hook answers never mix two variants.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A variant built by the kit from a [`RuleSet`].
#[derive(Debug)]
pub struct KitVariant {
    /// This build's number, unique in the process.
    pub(super) id: u64,
    pub(super) rules: RuleSet,
    pub(super) info: VariantInfo,
    pub(super) geometry: Geometry,
    pub(super) tables: Tables,
    pub(super) paths: PathTables,
    pub(super) hooks: Option<Arc<dyn Hooks>>,
    pub(super) promotes_to: Vec<Option<PieceId>>,
    /// `promotes_to` for the types the promotion zone applies to.
    pub(super) zone_promotes_to: Vec<Option<PieceId>>,
    /// For promoted types whose promotion is reversible: the base type they may switch back to.
    pub(super) zone_demotes_to: Vec<Option<PieceId>>,
    /// Per-type limits per file or binding.
    pub(super) limits: Limits,
    pub(super) is_royal: Vec<bool>,
    pub(super) holdable: Vec<bool>,
    pub(super) has_royals: bool,
    pub(super) any_no_drop_mate: bool,
    /// Some piece has moves the attack probes cannot see (paths): attacks are found by
    /// generating moves instead.
    pub(super) generic_attacks: bool,
    /// Types that may not capture a protected royal, if any piece has the rule.
    pub(super) spares_protected: Option<TypeSet>,
    /// Types whose capture asks the hooks what the captor becomes.
    pub(super) capture_triggers: Option<TypeSet>,
    /// Per type: two of its moves can reach one cell (`WvR`, multi-leg paths), so its move list
    /// is de-duplicated.
    pub(super) may_repeat: Vec<bool>,
    /// Per cube face: the face after a move without a capture.
    pub(super) flips: Vec<Option<PieceId>>,
    /// Per cube face: the faces to choose from after a capture.
    pub(super) capture_faces: Vec<Vec<PieceId>>,
    pub(super) has_cubes: bool,
    /// The open field's rules, when the variant has one.
    pub(super) field: Option<FieldTables>,
    /// Per side, per cell: the cell is in that side's far zone of the reach rule.
    pub(super) reach_zone: [Vec<bool>; 2],
    /// Per type: reaching the zone wins (the reach rule's pieces, or the royals).
    pub(super) reaches: Vec<bool>,
    /// Some rule or hook can declare a result from the position, so move generation asks first.
    pub(super) declares_ends: bool,
    /// Per type: a movement callback computes some of its moves.
    pub(super) callback: Vec<bool>,
    /// Where callback pieces can capture; `Some` exactly when some type has a callback.
    pub(super) reach: Option<Reach>,
    /// Per type: a drop callback decides where it may be dropped.
    pub(super) drop_callback: Vec<bool>,
    /// Which moves have an effect, if any do.
    pub(super) effects: Option<Effects>,
}

impl KitVariant {
    /// Validates and compiles a rule set.
    pub fn new(rules: RuleSet, hooks: Option<Arc<dyn Hooks>>) -> Result<KitVariant, KitError> {
        let (mut info, geometry) = rules.describe()?;
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
        let field = (rules.field.as_ref())
            .map(|rule| FieldTables::new(&rules, rule, &info, &geometry))
            .transpose()
            .map_err(KitError::Compile)?;
        let reach_zone = Side::BOTH.map(|side| {
            let depth = rules.end.reach.as_ref().map_or(0, |r| r.zone) as i32;
            let ranks = geometry.ranks() as i32;
            (0..geometry.len() as Cell).map(|c| depth > 0 && geometry.rank_from(side, c) >= ranks - depth).collect()
        });
        let reaches = (0..n)
            .map(|i| match &rules.end.reach {
                Some(r) if r.pieces.is_empty() => rules.pieces[i].royal,
                Some(r) => r.pieces.contains(&i),
                None => false,
            })
            .collect();
        let declares_ends = rules.end.any() || hooks.as_ref().is_some_and(|h| h.has_outcome());
        let (callback, reach, drop_callback, effects) = match &hooks {
            Some(h) => Self::compile_hooks(h.as_ref(), &info, &geometry, n, rules.field.is_some())?,
            None => (vec![false; n], None, vec![false; n], None),
        };
        for (p, &computed) in info.pieces.iter_mut().zip(&callback) {
            p.computed = computed;
        }
        Ok(KitVariant {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            callback,
            reach,
            drop_callback,
            effects,
            reach_zone,
            reaches,
            declares_ends,
            flips: rules.pieces.iter().map(|p| p.opposite.map(|t| t as PieceId)).collect(),
            capture_faces: (rules.pieces.iter())
                .map(|p| p.capture_faces.iter().map(|&t| t as PieceId).collect())
                .collect(),
            has_cubes: !rules.cubes.is_empty(),
            field,
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
        })
    }

    /// Asks the hooks which types have movement and drop callbacks and which moves have effects,
    /// and compiles the callbacks' reaches.
    #[allow(clippy::type_complexity)]
    fn compile_hooks(
        h: &dyn Hooks,
        info: &VariantInfo,
        geometry: &Geometry,
        n: usize,
        on_field: bool,
    ) -> Result<(Vec<bool>, Option<Reach>, Vec<bool>, Option<Effects>), KitError> {
        let known = |ty: PieceId, what: &str| {
            if (ty as usize) < n {
                Ok(ty as usize)
            } else {
                Err(KitError::Compile(format!("the hooks name piece type {ty} for {what}, which does not exist")))
            }
        };
        let mut callback = vec![false; n];
        let mut everywhere = vec![false; n];
        let mut reach_atoms: Vec<Vec<Atom>> = vec![Vec::new(); n];
        for cb in h.move_callbacks(info).map_err(KitError::Hook)? {
            let ty = known(cb.piece, "a move callback")?;
            callback[ty] = true;
            match &cb.reach {
                None => everywhere[ty] = true,
                Some(text) => {
                    let name = &info.pieces[ty].name;
                    let m = betza::parse(text)
                        .map_err(|e| KitError::Compile(format!("the reach of the {name}'s move callback: {e}")))?;
                    if !m.paths.is_empty() {
                        return Err(KitError::Compile(format!(
                            "the reach of the {name}'s move callback must be simple moves (no multi-leg moves): {text:?}"
                        )));
                    }
                    reach_atoms[ty] = m.atoms;
                }
            }
        }
        let mut drop_callback = vec![false; n];
        for ty in h.drop_callbacks(info).map_err(KitError::Hook)? {
            drop_callback[known(ty, "a drop callback")?] = true;
        }
        let effects = match h.effect_trigger(info).map_err(KitError::Hook)? {
            None => None,
            Some(EffectTrigger { movers, taking, counters_only }) => {
                let movers = match movers {
                    None => None,
                    Some(types) => {
                        let mut set = TypeSet::default();
                        for ty in types {
                            set.insert(known(ty, "a move effect")?);
                        }
                        Some(set)
                    }
                };
                Some(Effects { movers, taking, counters_only })
            }
        };
        let any_callback = callback.iter().any(|&c| c);
        if on_field && (any_callback || drop_callback.iter().any(|&c| c) || effects.is_some()) {
            return Err(KitError::Compile(
                "movement callbacks, drop callbacks and move effects need a board, not an open field".into(),
            ));
        }
        let reach =
            any_callback.then(|| Reach::new(Tables::build(geometry, &reach_atoms, &vec![false; n], 0), everywhere));
        Ok((callback, reach, drop_callback, effects))
    }

    /// The rule set this variant was built from.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The support rule of an open field, compiled for its board (`None` without a field).
    pub fn support(&self) -> Option<&Arc<Support>> {
        self.field.as_ref().map(|f| &f.support)
    }
}
