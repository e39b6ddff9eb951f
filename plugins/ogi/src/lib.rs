//! Ōgi as a compiled plugin: the rules of `scripts/ogi.rhai` (see `rules/ogi.md`), written in
//! Rust and played on 64-cell `u64` bitboards by [`henka_api::bitboard`]. `henka verify ogi`
//! checks the two against each other.

use henka_api::bitboard::BitboardVariant;
use henka_api::kit::{PieceRule, PromotionRule, RepetitionRule, RuleSet};
use henka_api::{GeometrySpec, Metadata};

fn piece(name: &str, token: &str, moves: &str) -> PieceRule {
    PieceRule::new(name, token, moves).expect("a valid Betza string")
}

/// Ōgi's rules, pieces in the script's order (which is the order hands are written).
pub fn rules() -> RuleSet {
    let promoted = |name: &str, kanji: &str, token: &str| Some(piece(name, token, "WfF").kanji(kanji));
    let mut r = RuleSet {
        meta: Metadata {
            name: "Ogi".into(),
            author: "Ōgi's inventor (Chess Variant Pages, 2024)".into(),
            version: "1.0".into(),
            description: "8×8 shogi without Gold Generals. The Princess moves as Bishop and chess Knight. \
                          Every move that touches the promotion zone promotes, and a pawn drop may give mate."
                .into(),
        },
        geometry: GeometrySpec::flat(8, 8),
        pieces: Vec::new(),
        promotion: PromotionRule { zone_depth: 3, mandatory: true },
        drops: true,
        check: Default::default(),
        stalemate: Default::default(),
        baring: Default::default(),
        repetition: RepetitionRule { count: 4, perpetual_check_loses: true },
        start: "lnsiksnl/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/LNSIKSNL b - 1".into(),
    };
    r.add(piece("King", "K", "K").kanji("王将").royal(), None);
    r.add(piece("Princess", "I", "BN"), Some(piece("Promoted Princess", "I", "BNW")));
    r.add(piece("Rook", "R", "R").kanji("飛車"), Some(piece("Dragon King", "R", "RF").kanji("龍王")));
    r.add(piece("Bishop", "B", "B").kanji("角行"), Some(piece("Dragon Horse", "B", "BW").kanji("龍馬")));
    r.add(piece("Silver General", "S", "FfW").kanji("銀将"), promoted("Promoted Silver", "成銀", "S"));
    r.add(piece("Knight", "N", "ffN").kanji("桂馬"), promoted("Promoted Knight", "成桂", "N"));
    r.add(piece("Lance", "L", "fR").kanji("香車"), promoted("Promoted Lance", "成香", "L"));
    // Pawn-drop mate is allowed in Ōgi: no `no_drop_mate`.
    r.add(piece("Pawn", "P", "fW").kanji("歩兵").one_per_file(), promoted("Tokin", "と金", "P"));
    r
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
