//! Standard shogi as a compiled plugin: the rules of `scripts/shogi.rhai`, written in Rust and
//! played on 81-cell `u128` bitboards by [`henka_api::bitboard`]. `henka verify shogi` checks the
//! two against each other.

use henka_api::bitboard::BitboardVariant;
use henka_api::rules::shogi_pieces::{bishop, gold, king, knight, lance, pawn, rook, silver};
use henka_api::rules::{PromotionRule, RepetitionRule, RuleSet};
use henka_api::{GeometrySpec, Metadata};

/// Shogi's rules, pieces in the script's order (which is the order hands are written).
pub fn rules() -> RuleSet {
    let meta = Metadata {
        name: "Shogi".into(),
        author: "traditional".into(),
        version: "1.0".into(),
        description: "Standard Japanese chess on a 9×9 board, with drops.".into(),
    };
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let (p, tokin) = pawn();
    RuleSet {
        // Optional promotion in the last three ranks; forced where a piece could never move again.
        promotion: PromotionRule { zone_depth: 3, mandatory: false, ..Default::default() },
        drops: true,
        repetition: RepetitionRule { count: 4, perpetual_check_loses: true },
        ..RuleSet::new(meta, GeometrySpec::flat(9, 9), start)
    }
    .with_pieces([king("玉将"), rook(), bishop(), gold(), silver(), knight(), lance(), (p.no_drop_mate(), tokin)])
}

henka_api::export_variant!(
    BitboardVariant<u128>,
    BitboardVariant::new(rules()).expect("shogi fits the bitboard engine")
);

#[cfg(test)]
mod tests {
    use henka_api::Variant;

    use super::*;

    #[test]
    fn the_published_start_counts() {
        let v = BitboardVariant::<u128>::new(rules()).unwrap();
        let start = v.start_position();
        assert_eq!(v.perft(&start, 1).unwrap(), 30);
        assert_eq!(v.perft(&start, 3).unwrap(), 25_470);
    }
}
