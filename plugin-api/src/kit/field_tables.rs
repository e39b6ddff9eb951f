//! An open field's rule (Ki Shogi) compiled for the kit: the support rule on this board, the
//! droppable cubes, the royal type, and per offset the types whose captures reach it (what lets the
//! field's move generator, `field.rs`, skip most attack walks).

use std::sync::Arc;

use super::support::Support;
use super::tables::TypeSet;
use crate::model::description::VariantInfo;
use crate::model::field::centre;
use crate::model::geometry::{Cell, Geometry};
use crate::model::piece::PieceId;
use crate::model::side::Side;
use crate::rules::{FieldRule, PieceRule, RuleSet};

/// A field rule compiled for the kit.
#[derive(Debug)]
pub(crate) struct FieldTables {
    pub unbounded: bool,
    pub placement_distance: i32,
    pub royal_distance: i32,
    pub moves_end_supported: bool,
    pub support: Arc<Support>,
    /// The royal type (placed from hand on each side's first turn).
    pub royal: PieceId,
    /// Every droppable cube: its hand type, its faces, and whether they are relays (Ki drop rule).
    pub drops: Vec<(PieceId, Vec<PieceId>, bool)>,
    /// The box's centre cell (where an unbounded field keeps the first player's royal).
    pub centre: Cell,
    /// Per type and side, the offsets its captures can reach on an empty board: a drop whose
    /// offset to the enemy royal is not among them cannot give check, so the rays are walked only
    /// for the few that are.
    pub reach: OffsetSet,
}

/// Per side and offset `(dx, dy)` within a box's size, the types whose captures reach it.
#[derive(Debug)]
pub(crate) struct OffsetSet {
    files: i32,
    ranks: i32,
    types: Vec<TypeSet>,
}

impl OffsetSet {
    fn index(&self, side: Side, dx: i32, dy: i32) -> usize {
        let (w, h) = (2 * self.files - 1, 2 * self.ranks - 1);
        (side.index() * h as usize + (dy + self.ranks - 1) as usize) * w as usize + (dx + self.files - 1) as usize
    }

    fn build(geometry: &Geometry, pieces: &[PieceRule]) -> OffsetSet {
        let (files, ranks) = (geometry.files() as i32, geometry.ranks() as i32);
        let len = 2 * (2 * files as usize - 1) * (2 * ranks as usize - 1);
        let mut set = OffsetSet { files, ranks, types: vec![TypeSet::default(); len] };
        for (ty, p) in pieces.iter().enumerate() {
            for side in Side::BOTH {
                for a in p.atoms.iter().filter(|a| a.mode.captures) {
                    let v = a.vector.for_side(side);
                    let steps = if a.range == 0 { files.max(ranks) } else { a.range as i32 };
                    for k in 1..=steps {
                        let (dx, dy) = (v.df as i32 * k, v.dr as i32 * k);
                        if dx.abs() < files && dy.abs() < ranks {
                            let i = set.index(side, dx, dy);
                            set.types[i].insert(ty);
                        }
                    }
                }
            }
        }
        set
    }

    /// The types of `side` whose captures reach `(dx, dy)` away on an empty board.
    #[inline]
    pub fn at(&self, side: Side, dx: i32, dy: i32) -> &TypeSet {
        &self.types[self.index(side, dx, dy)]
    }

    pub fn contains(&self, ty: PieceId, side: Side, dx: i32, dy: i32) -> bool {
        self.at(side, dx, dy).contains(ty)
    }
}

impl FieldTables {
    /// Compiles `rule`, the field rule of `rules`, which describe as `info` on `geometry`.
    pub fn new(
        rules: &RuleSet,
        rule: &FieldRule,
        info: &VariantInfo,
        geometry: &Geometry,
    ) -> Result<FieldTables, String> {
        let is_royal: Vec<bool> = rules.pieces.iter().map(|p| p.royal).collect();
        let royals: Vec<usize> = (0..is_royal.len()).filter(|&t| is_royal[t]).collect();
        let [royal] = royals[..] else {
            return Err("an open field needs exactly one royal piece type".into());
        };
        if rules.cubes.is_empty() {
            return Err("an open field needs cubes (its hands hold cubes)".into());
        }
        if geometry.levels() != 1 {
            return Err("an open field is flat".into());
        }
        let hand_type: Vec<PieceId> = info.pieces.iter().map(|p| p.demotes_to).collect();
        let support = Support::new(geometry, &rule.support, &is_royal, &hand_type);
        let drops = (rules.cubes.iter())
            .filter(|c| !c.faces.contains(&royal))
            .map(|c| {
                let faces: Vec<PieceId> = c.faces.iter().map(|&f| f as PieceId).collect();
                (faces[0], faces.clone(), rule.support.relays.contains(&c.faces[0]))
            })
            .collect();
        if rules.pieces.iter().any(|p| !p.paths.is_empty()) {
            return Err("open fields support single-leg moves only".into());
        }
        let (cx, cy) = centre(geometry);
        Ok(FieldTables {
            reach: OffsetSet::build(geometry, &rules.pieces),
            unbounded: rule.unbounded,
            placement_distance: rule.placement_distance as i32,
            royal_distance: rule.royal_distance as i32,
            moves_end_supported: rule.support.moves_end_supported,
            support: Arc::new(support),
            royal: royal as PieceId,
            drops,
            centre: geometry.cell(cx, cy, 0).expect("the centre is on the board"),
        })
    }
}
