//! Ōgi as a compiled plugin: the rules of `scripts/ogi.rhai` (see `docs/rules/ogi.md`), written in
//! Rust and played on 64-cell `u64` bitboards by [`henka_api::bitboard`]. `henka verify ogi` checks
//! the two against each other.

use henka_api::bitboard::BitboardVariant;
use henka_api::rules::shogi_pieces::{bishop, king, knight, lance, pawn, piece, rook, silver};
use henka_api::rules::{PromotionRule, RepetitionRule, RuleSet};
use henka_api::{GeometrySpec, Metadata};

/// Ōgi's rules, pieces in the script's order (which is the order hands are written).
pub fn rules() -> RuleSet {
    let meta = Metadata {
        name: "Ogi".into(),
        author: "Ōgi's inventor (Chess Variant Pages, 2024)".into(),
        version: "1.0".into(),
        description: "8×8 shogi without Gold Generals. The Princess moves as Bishop and chess Knight. \
                      Every move that touches the promotion zone promotes, and a pawn drop may give mate."
            .into(),
    };
    let start = "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1";
    let princess = (piece("Princess", "I", "BN"), Some(piece("Promoted Princess", "I", "BNW")));
    // Pawn-drop mate is allowed in Ōgi: the Pawn keeps nifu but not `no_drop_mate`.
    let pieces = [king("王将"), princess, rook(), bishop(), silver(), knight(), lance(), pawn()];
    RuleSet {
        promotion: PromotionRule { zone_depth: 3, mandatory: true, ..Default::default() },
        drops: true,
        repetition: RepetitionRule { count: 4, perpetual_check_loses: true },
        ..RuleSet::new(meta, GeometrySpec::flat(8, 8), start)
    }
    .with_pieces(pieces)
}

henka_api::export_variant!(BitboardVariant<u64>, BitboardVariant::new(rules()).expect("Ōgi fits the bitboard engine"));

#[cfg(test)]
mod tests {
    use henka_api::Variant;

    use super::*;

    #[test]
    fn the_start_counts_of_the_suite() {
        let v = BitboardVariant::<u64>::new(rules()).unwrap();
        let start = v.start_position();
        assert_eq!(v.perft(&start, 4).unwrap(), 356_853);
    }
}
