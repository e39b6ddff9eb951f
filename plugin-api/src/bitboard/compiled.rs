//! [`BitboardVariant`]: a rule set checked against what the engine plays and compiled into its
//! tables. The fields are the engine's: its move generation (`movegen`) and its `Variant`
//! implementation read them.

use super::bits::Bits;
use super::board::HandRule;
use super::tables::{MAX_TYPES, Tables};
use crate::model::description::VariantInfo;
use crate::model::geometry::Geometry;
use crate::rules::{CheckRule, RuleSet, RuleSetError};

/// Why a rule set cannot run on the bitboard engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BitboardError {
    #[error(transparent)]
    Rules(#[from] RuleSetError),
    #[error("outside the bitboard engine: {0}")]
    Unsupported(String),
}

/// A variant played on bitboards of type `B` (`u64` for boards up to 64 cells, else `u128`).
#[derive(Debug)]
pub struct BitboardVariant<B: Bits> {
    pub(super) rules: RuleSet,
    pub(super) info: VariantInfo,
    pub(super) geometry: Geometry,
    pub(super) t: Tables<B>,
    pub(super) types: usize,
    pub(super) promotes_to: [Option<u8>; MAX_TYPES],
    pub(super) royal_types: u32,
    pub(super) one_per_file: u32,
    pub(super) no_drop_mate: u32,
    pub(super) mandatory: bool,
    pub(super) hand_types: Vec<usize>,
    pub(super) hand_rule: HandRule,
}

impl<B: Bits> BitboardVariant<B> {
    /// Checks the rule set (as the kit does) and that it fits the engine, and builds the tables.
    pub fn new(rules: RuleSet) -> Result<BitboardVariant<B>, BitboardError> {
        let (info, geometry) = rules.describe()?;
        if rules.check != CheckRule::MustEscape {
            return Err(BitboardError::Unsupported("royals that may be left in check".into()));
        }
        if rules.end.any() {
            return Err(BitboardError::Unsupported("results declared by reach or check-count rules".into()));
        }
        if let Some(p) = rules.pieces.iter().find(|p| p.drop_immobile) {
            return Err(BitboardError::Unsupported(format!("{}: drops where the piece could never move", p.name)));
        }
        if let Some(p) = rules.pieces.iter().find(|p| p.reversible_promotion || p.limit.is_some()) {
            return Err(BitboardError::Unsupported(format!("{}: reversible promotions and per-file limits", p.name)));
        }
        let t = Tables::build(&rules).map_err(BitboardError::Unsupported)?;
        let mask = |f: &dyn Fn(usize) -> bool| (0..rules.pieces.len()).filter(|&i| f(i)).fold(0u32, |m, i| m | 1 << i);
        let mut promotes_to = [None; MAX_TYPES];
        let mut hand_rule = [None; MAX_TYPES];
        for (i, p) in info.pieces.iter().enumerate() {
            promotes_to[i] = p.promotes_to;
            hand_rule[i] = info.hand_types.contains(&p.demotes_to).then_some(p.demotes_to);
        }
        Ok(BitboardVariant {
            types: rules.pieces.len(),
            royal_types: mask(&|i| rules.pieces[i].royal),
            one_per_file: mask(&|i| rules.pieces[i].one_per_file),
            no_drop_mate: mask(&|i| rules.drops && rules.pieces[i].no_drop_mate),
            mandatory: rules.promotion.mandatory,
            hand_types: info.hand_types.iter().map(|&t| t as usize).collect(),
            promotes_to,
            hand_rule,
            t,
            rules,
            info,
            geometry,
        })
    }

    /// The rule set this variant was built from.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }
}
