//! The bitboard engine against the kit, which plays the same rule sets by a different method
//! (precomputed rays, make/unmake legality), on random positions: every piece shape the engine
//! supports, hands full of pieces, pins, double checks, positions with no royal or two.

use proptest::prelude::*;

use super::*;
use crate::kit::KitVariant;
use crate::model::description::Metadata;
use crate::model::geometry::GeometrySpec;
use crate::model::piece::{Piece, PieceId};
use crate::model::side::Side;
use crate::rules::{BaringRule, PieceRule, PromotionRule, RuleSet};

fn rules(files: u8, ranks: u8, mandatory: bool) -> RuleSet {
    let p = crate::rules::shogi_pieces::piece;
    let gold = |name: &str, token: &str| Some(p(name, token, "WfF"));
    let meta = Metadata { name: "Everything".into(), ..Metadata::default() };
    // Kings in opposite corners; the tests place their own pieces.
    let start = format!("k{}/{}{}K b - 1", files - 1, format!("{files}/").repeat(ranks as usize - 2), files - 1);
    RuleSet {
        promotion: PromotionRule { zone_depth: 2, mandatory, ..Default::default() },
        drops: true,
        baring: BaringRule::BoardAndHand,
        ..RuleSet::new(meta, GeometrySpec::flat(files, ranks), start)
    }
    .with_pieces([
        (p("King", "K", "K").royal(), None),
        (p("Queen", "Q", "Q"), None),
        (p("Rook", "R", "R"), Some(p("Dragon", "R", "RF"))),
        (p("Bishop", "B", "B"), Some(p("Horse", "B", "BW"))),
        (p("Gold", "G", "WfF"), None),
        (p("Silver", "S", "FfW"), gold("Promoted Silver", "S")),
        (p("Knight", "N", "ffN"), gold("Promoted Knight", "N")),
        (p("Chess Knight", "X", "N"), None),
        (p("Lance", "L", "vR"), gold("Promoted Lance", "L")),
        (p("Pawn", "P", "fW").one_per_file().no_drop_mate(), gold("Tokin", "P")),
    ])
}

/// A random position: pieces (cell, type, first player?), hands, side to move. Kings are
/// ordinary entries, so a side may have none, one or several.
fn position(v: &dyn Variant, pieces: &[(u16, u8, bool)], hands: &[u8], black: bool) -> Position {
    let cells = v.geometry().len();
    let n = v.info().pieces.len();
    let mut pos = Position::empty(cells, n);
    // Most positions get exactly one king each, placed first.
    for (i, &(cell, ty, first)) in pieces.iter().enumerate() {
        let ty = if i < 2 { 0 } else { 1 + ty % (n as u8 - 1) };
        let side = if i < 2 {
            if i == 0 { Side::First } else { Side::Second }
        } else if first {
            Side::First
        } else {
            Side::Second
        };
        let c = cell as usize % cells;
        if pos.piece_at(c as u16).is_none() {
            pos.set(c as u16, Some(Piece::new(ty as PieceId, side)));
        }
    }
    for (i, &h) in hands.iter().enumerate() {
        let types = &v.info().hand_types;
        let ty = types[i % types.len()];
        let side = if i % 2 == 0 { Side::First } else { Side::Second };
        pos.set_hand(side, ty, h % 3);
    }
    pos.set_side_to_move(if black { Side::First } else { Side::Second });
    pos
}

fn compare<B: Bits>(files: u8, ranks: u8, mandatory: bool, pieces: &[(u16, u8, bool)], hands: &[u8], black: bool) {
    let kit = KitVariant::new(rules(files, ranks, mandatory), None).unwrap();
    let fast = BitboardVariant::<B>::new(rules(files, ranks, mandatory)).unwrap();
    let pos = position(&kit, pieces, hands, black);
    let text = kit.format_position(&pos);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    kit.legal_moves(&pos, &mut a).unwrap();
    fast.legal_moves(&pos, &mut b).unwrap();
    a.sort();
    b.sort();
    assert_eq!(a, b, "legal moves in {text}");
    assert_eq!(kit.in_check(&pos), fast.in_check(&pos), "check in {text}");
    assert_eq!(kit.outcome(&pos, &[]).unwrap(), fast.outcome(&pos, &[]).unwrap(), "outcome in {text}");
    assert_eq!(kit.perft(&pos, 2).unwrap(), fast.perft(&pos, 2).unwrap(), "perft 2 in {text}");
    for &mv in a.iter().take(8) {
        let (mut p, mut q) = (pos.clone(), pos.clone());
        kit.play(&mut p, mv).unwrap();
        fast.play(&mut q, mv).unwrap();
        assert_eq!(p, q, "after {} in {text}", kit.format_move(&pos, mv));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn agrees_with_the_kit_on_a_u128_board(
        pieces in prop::collection::vec((any::<u16>(), any::<u8>(), any::<bool>()), 2..28),
        hands in prop::collection::vec(any::<u8>(), 0..16),
        black in any::<bool>(),
    ) {
        compare::<u128>(9, 10, false, &pieces, &hands, black);
    }

    #[test]
    fn agrees_with_the_kit_on_a_u64_board_with_mandatory_promotion(
        pieces in prop::collection::vec((any::<u16>(), any::<u8>(), any::<bool>()), 2..20),
        hands in prop::collection::vec(any::<u8>(), 0..16),
        black in any::<bool>(),
    ) {
        compare::<u64>(7, 8, true, &pieces, &hands, black);
    }
}

#[test]
fn rules_outside_the_engine_are_refused() {
    let mut r = rules(9, 9, false);
    r.pieces[1] = PieceRule::new("Horse", "Q", "nN").unwrap();
    assert!(matches!(BitboardVariant::<u128>::new(r), Err(BitboardError::Unsupported(m)) if m.contains("Horse")));
    assert!(
        matches!(BitboardVariant::<u64>::new(rules(9, 9, false)), Err(BitboardError::Unsupported(m)) if m.contains("64 bits"))
    );
}
