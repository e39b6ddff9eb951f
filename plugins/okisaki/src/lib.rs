//! Okisaki shogi as a compiled plugin: the rules of `scripts/okisaki.rhai` (see
//! `docs/rules/okisaki.md`), written in Rust and played on 100-cell `u128` bitboards by
//! [`henka_api::bitboard`]. `henka verify okisaki` checks the two against each other.

use henka_api::bitboard::BitboardVariant;
use henka_api::rules::shogi_pieces::{bishop, gold, king, pawn, piece, promotes_to_gold, rook, silver};
use henka_api::rules::{BaringRule, PromotionRule, RepetitionRule, RuleSet};
use henka_api::{GeometrySpec, Metadata};

/// Okisaki's rules, pieces in the script's order (which is the order hands are written).
pub fn rules() -> RuleSet {
    let meta = Metadata {
        name: "Okisaki shogi".into(),
        author: "unknown (recorded by George Hodges)".into(),
        version: "1.0".into(),
        description: "10×10 drop shogi with a Queen beside each King. Knights leap like chess knights, \
                      Lances slide forward or backward, and a player whose every piece but the King is \
                      captured loses (baring)."
            .into(),
    };
    let start = "lnsgkqgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQKGSNL b - 1";
    // Okisaki's own pieces: the Queen, the chess Knight and the two-way Lance.
    let queen = (piece("Queen", "Q", "Q").kanji("妃将"), None);
    let knight = promotes_to_gold(piece("Knight", "N", "N").kanji("跳馬"), "Promoted Knight", "成桂");
    let lance = promotes_to_gold(piece("Lance", "L", "vR").kanji("香車"), "Promoted Lance", "成香");
    let (p, tokin) = pawn();
    let pieces = [king("玉将"), queen, rook(), bishop(), gold(), silver(), knight, lance, (p.no_drop_mate(), tokin)];
    RuleSet {
        // Optional promotion; the chess Knight and the two-way Lance can always move, so only the
        // Pawn is ever forced (on the last rank).
        promotion: PromotionRule { zone_depth: 3, mandatory: false, ..Default::default() },
        drops: true,
        baring: BaringRule::BoardAndHand,
        repetition: RepetitionRule { count: 4, perpetual_check_loses: true },
        ..RuleSet::new(meta, GeometrySpec::flat(10, 10), start)
    }
    .with_pieces(pieces)
}

henka_api::export_variant!(
    BitboardVariant<u128>,
    BitboardVariant::new(rules()).expect("Okisaki fits the bitboard engine")
);

#[cfg(test)]
mod tests {
    use henka_api::Variant;

    use super::*;

    #[test]
    fn the_start_counts_of_the_suite() {
        let v = BitboardVariant::<u128>::new(rules()).unwrap();
        let start = v.start_position();
        assert_eq!(v.perft(&start, 1).unwrap(), 37);
        assert_eq!(v.perft(&start, 3).unwrap(), 48_211);
    }
}
