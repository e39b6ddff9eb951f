//! Standard shogi as a compiled plugin: the rules of `scripts/shogi.rhai`, written in Rust and
//! played on 81-cell `u128` bitboards by [`henka_api::bitboard`]. `henka verify shogi` checks the
//! two against each other.

use henka_api::bitboard::BitboardVariant;
use henka_api::kit::{PieceRule, PromotionRule, RepetitionRule, RuleSet};
use henka_api::{GeometrySpec, Metadata};

fn piece(name: &str, token: &str, moves: &str) -> PieceRule {
    PieceRule::new(name, token, moves).expect("a valid Betza string")
}

/// Shogi's rules, pieces in the script's order (which is the order hands are written).
pub fn rules() -> RuleSet {
    let promoted = |name: &str, kanji: &str, token: &str| Some(piece(name, token, "WfF").kanji(kanji));
    let mut r = RuleSet {
        meta: Metadata {
            name: "Shogi".into(),
            author: "traditional".into(),
            version: "1.0".into(),
            description: "Standard Japanese chess on a 9×9 board, with drops.".into(),
        },
        geometry: GeometrySpec::flat(9, 9),
        pieces: Vec::new(),
        // Optional promotion in the last three ranks; forced where a piece could never move again.
        promotion: PromotionRule { zone_depth: 3, mandatory: false },
        drops: true,
        check: Default::default(),
        stalemate: Default::default(),
        baring: Default::default(),
        repetition: RepetitionRule { count: 4, perpetual_check_loses: true },
        start: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
    };
    r.add(piece("King", "K", "K").kanji("玉将").royal(), None);
    r.add(piece("Rook", "R", "R").kanji("飛車"), Some(piece("Dragon King", "R", "RF").kanji("龍王")));
    r.add(piece("Bishop", "B", "B").kanji("角行"), Some(piece("Dragon Horse", "B", "BW").kanji("龍馬")));
    r.add(piece("Gold General", "G", "WfF").kanji("金将"), None);
    r.add(piece("Silver General", "S", "FfW").kanji("銀将"), promoted("Promoted Silver", "成銀", "S"));
    r.add(piece("Knight", "N", "ffN").kanji("桂馬"), promoted("Promoted Knight", "成桂", "N"));
    r.add(piece("Lance", "L", "fR").kanji("香車"), promoted("Promoted Lance", "成香", "L"));
    r.add(piece("Pawn", "P", "fW").kanji("歩兵").one_per_file().no_drop_mate(), promoted("Tokin", "と金", "P"));
    r
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
