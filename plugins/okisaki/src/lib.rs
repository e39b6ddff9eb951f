//! Okisaki shogi as a compiled plugin: the rules of `scripts/okisaki.rhai` (see
//! `rules/okisaki.md`), written in Rust and played on 100-cell `u128` bitboards by
//! [`henka_api::bitboard`]. `henka verify okisaki` checks the two against each other.

use henka_api::bitboard::BitboardVariant;
use henka_api::kit::{BaringRule, PieceRule, PromotionRule, RepetitionRule, RuleSet};
use henka_api::{GeometrySpec, Metadata};

fn piece(name: &str, token: &str, moves: &str) -> PieceRule {
    PieceRule::new(name, token, moves).expect("a valid Betza string")
}

/// Okisaki's rules, pieces in the script's order (which is the order hands are written).
pub fn rules() -> RuleSet {
    let promoted = |name: &str, kanji: &str, token: &str| Some(piece(name, token, "WfF").kanji(kanji));
    let mut r = RuleSet {
        meta: Metadata {
            name: "Okisaki shogi".into(),
            author: "unknown (recorded by George Hodges)".into(),
            version: "1.0".into(),
            description: "10×10 drop shogi with a Queen beside each King. Knights leap like chess knights, \
                          Lances slide forward or backward, and a player whose every piece but the King is \
                          captured loses (baring)."
                .into(),
        },
        geometry: GeometrySpec::flat(10, 10),
        pieces: Vec::new(),
        // Optional promotion; the chess Knight and the two-way Lance can always move, so only the
        // Pawn is ever forced (on the last rank).
        promotion: PromotionRule { zone_depth: 3, mandatory: false },
        drops: true,
        check: Default::default(),
        stalemate: Default::default(),
        baring: BaringRule::BoardAndHand,
        repetition: RepetitionRule { count: 4, perpetual_check_loses: true },
        start: "lnsgkqgsnl/1r6b1/pppppppppp/10/10/10/10/PPPPPPPPPP/1B6R1/LNSGQKGSNL b - 1".into(),
    };
    r.add(piece("King", "K", "K").kanji("玉将").royal(), None);
    r.add(piece("Queen", "Q", "Q").kanji("妃将"), None);
    r.add(piece("Rook", "R", "R").kanji("飛車"), Some(piece("Dragon King", "R", "RF").kanji("龍王")));
    r.add(piece("Bishop", "B", "B").kanji("角行"), Some(piece("Dragon Horse", "B", "BW").kanji("龍馬")));
    r.add(piece("Gold General", "G", "WfF").kanji("金将"), None);
    r.add(piece("Silver General", "S", "FfW").kanji("銀将"), promoted("Promoted Silver", "成銀", "S"));
    r.add(piece("Knight", "N", "N").kanji("跳馬"), promoted("Promoted Knight", "成桂", "N"));
    r.add(piece("Lance", "L", "vR").kanji("香車"), promoted("Promoted Lance", "成香", "L"));
    r.add(piece("Pawn", "P", "fW").kanji("歩兵").one_per_file().no_drop_mate(), promoted("Tokin", "と金", "P"));
    r
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
