//! Promotion (§8), passes (§7), the Emperor (§6.10), check and the game's end (§10).

mod common;

use common::{legal, legal_from, mv, position, ty};
use henka_api::{EndReason, HistoryEntry, Outcome, Side, Variant};
use taishin::Taishin;

#[test]
fn the_emperor_may_not_take_a_protected_royal() {
    let v = Taishin::new();
    let emperor = ty(&v, "+K");
    // Gote's King on m13 is protected by its Gold (Gote's forward is down the board); its Prince
    // on c20 is not.
    let pos = position(&v, &[("a1", "+K"), ("m13", "k"), ("m14", "g"), ("c20", "(cp)")], "b");
    let m = legal_from(&v, &pos, "a1");
    assert!(!m.contains(&mv("a1", None, "m13", emperor)));
    assert!(m.contains(&mv("a1", None, "c20", emperor)));
    assert!(m.contains(&mv("a1", None, "m14", emperor)), "the Gold itself is no royal");
    // Protection is judged after the capture: the Emperor standing between Gote's Rook and King
    // blocks the file only until it leaves.
    let pos = position(&v, &[("m16", "+K"), ("m13", "k"), ("m20", "r")], "b");
    assert!(!legal_from(&v, &pos, "m16").contains(&mv("m16", None, "m13", emperor)));
}

#[test]
fn capturing_a_deva_makes_a_teaching_king() {
    let v = Taishin::new();
    let (tk, dd) = (ty(&v, "+(DV)"), ty(&v, "+(DS)"));
    let pos = position(&v, &[("m13", "G"), ("m14", "(dv)"), ("a1", "K"), ("y25", "k")], "b");
    let m = mv("m13", None, "m14", tk);
    assert!(legal(&v, &pos).contains(&m));
    assert_eq!(v.format_move(&pos, m), "13m13l=+(DV)");
    // Two captures of both kinds: the later decides.
    let pos = position(&v, &[("m13", "(LN)"), ("m14", "(dv)"), ("m15", "(ds)"), ("a1", "K"), ("y25", "k")], "b");
    let m = legal_from(&v, &pos, "m13");
    assert!(m.contains(&mv("m13", Some("m14"), "m15", dd)));
    let pos = position(&v, &[("m13", "(LN)"), ("m14", "(ds)"), ("m15", "(dv)"), ("a1", "K"), ("y25", "k")], "b");
    assert!(legal_from(&v, &pos, "m13").contains(&mv("m13", Some("m14"), "m15", tk)));
    // Royal and potentially royal captors keep their normal promotion.
    let pos = position(&v, &[("m13", "K"), ("m14", "(dv)"), ("y25", "k")], "b");
    assert!(legal(&v, &pos).contains(&mv("m13", None, "m14", ty(&v, "+K"))));
    let pos = position(&v, &[("m13", "(DE)"), ("m14", "(ds)"), ("a1", "K"), ("y25", "k")], "b");
    assert!(legal(&v, &pos).contains(&mv("m13", None, "m14", ty(&v, "+(DE)"))));
    // A piece that never promotes still becomes a Divine Dragon.
    let pos = position(&v, &[("m13", "(HM)"), ("m20", "(ds)"), ("a1", "K"), ("y25", "k")], "b");
    assert!(legal(&v, &pos).contains(&mv("m13", None, "m20", dd)));
}

#[test]
fn a_fourth_pass_in_a_row_is_refused() {
    let v = Taishin::new();
    let ln = ty(&v, "(LN)");
    let pass = mv("m13", None, "m13", ln);
    let mut pos = position(&v, &[("m13", "(LN)"), ("a1", "K"), ("y25", "k"), ("y24", "(ln)")], "b");
    let gote_pass = mv("y24", None, "y24", ln);
    for turn in 0..3 {
        assert!(legal(&v, &pos).contains(&pass), "pass {}", turn + 1);
        v.play(&mut pos, pass).unwrap();
        assert_eq!(pos.counter(0), turn + 1);
        v.play(&mut pos, gote_pass).unwrap();
    }
    assert!(!legal(&v, &pos).contains(&pass));
    assert!(v.format_position(&pos).ends_with(" 3,3,0,0"));
    // Any other move resets the count; the opponent's count is its own.
    v.play(&mut pos, mv("m13", None, "m14", ln)).unwrap();
    assert_eq!((pos.counter(0), pos.counter(1)), (0, 3));
    assert!(!legal(&v, &pos).contains(&gote_pass));
    // Igui is no pass.
    let pos = position(&v, &[("m13", "(LN)"), ("m14", "p"), ("a1", "K"), ("y25", "k")], "b");
    let mut after = pos.clone();
    v.play(&mut after, mv("m13", Some("m14"), "m13", ty(&v, "+(LN)"))).unwrap();
    assert_eq!(after.counter(0), 0);
}

#[test]
fn pawns_stone_and_iron_generals_may_decline_on_the_last_rank() {
    let v = Taishin::new();
    let pos = position(&v, &[("a24", "P"), ("e24", "O"), ("j24", "I"), ("k25", "p"), ("m13", "K"), ("y1", "k")], "b");
    let (p, o, i) = (ty(&v, "P"), ty(&v, "O"), ty(&v, "I"));
    let m = legal(&v, &pos);
    for (from, to, t) in [("a24", "a25", p), ("e24", "d25", o), ("e24", "f25", o), ("j24", "j25", i), ("j24", "i25", i)]
    {
        assert!(m.contains(&mv(from, None, to, t)), "{from}-{to} declined");
        assert!(m.contains(&mv(from, None, to, t + 86)), "{from}-{to} promoted");
    }
    // A capture on the last rank always promotes.
    assert!(m.contains(&mv("j24", None, "k25", i + 86)));
    assert!(!m.contains(&mv("j24", None, "k25", i)));
    // Gote's last rank is rank 1; a declined Pawn there is dead.
    let pos = position(&v, &[("c2", "p"), ("m13", "K"), ("y25", "k")], "w");
    let m = legal_from(&v, &pos, "c2");
    assert_eq!(m, vec![mv("c2", None, "c1", p), mv("c2", None, "c1", p + 86)]);
    let pos = position(&v, &[("c1", "p"), ("m13", "K"), ("y25", "k")], "w");
    assert!(legal_from(&v, &pos, "c1").is_empty());
}

#[test]
fn no_royal_no_moves_and_the_game_is_lost() {
    let v = Taishin::new();
    let pos = position(&v, &[("m13", "Q"), ("y25", "k")], "b");
    assert!(legal(&v, &pos).is_empty());
    assert_eq!(v.outcome(&pos, &[]).unwrap(), Some(Outcome::win(Side::Second, EndReason::RoyalCaptured)));
}

#[test]
fn check_needs_a_single_royal() {
    let v = Taishin::new();
    let pos = position(&v, &[("m1", "K"), ("m20", "r"), ("y25", "k")], "b");
    assert!(v.in_check(&pos));
    let pos = position(&v, &[("m1", "K"), ("a1", "(CP)"), ("m20", "r"), ("y25", "k")], "b");
    assert!(!v.in_check(&pos), "a second royal may be sacrificed");
    // An enemy Emperor attacks only an unprotected royal.
    let pos = position(&v, &[("m1", "K"), ("y25", "+k")], "b");
    assert!(v.in_check(&pos));
    let pos = position(&v, &[("m1", "K"), ("m2", "G"), ("y25", "+k")], "b");
    assert!(!v.in_check(&pos));
}

#[test]
fn checkmate_and_stalemate() {
    let v = Taishin::new();
    // Sente's lone King on a1 (K2: a2, a3, b1, b2, c1, c3) against Rooks on the a, b and c files:
    // it has moves, and every one of them leaves it attacked.
    let mate = position(&v, &[("a1", "K"), ("a25", "r"), ("b25", "r"), ("c24", "r"), ("y13", "k")], "b");
    assert!(v.in_check(&mate));
    assert_eq!(legal(&v, &mate).len(), 6);
    assert_eq!(v.outcome(&mate, &[]).unwrap(), Some(Outcome::win(Side::Second, EndReason::Checkmate)));
    // Without the c-file Rook, c1 and c3 are safe: check, but no mate.
    let check = position(&v, &[("a1", "K"), ("a25", "r"), ("b25", "r"), ("y13", "k")], "b");
    assert!(v.in_check(&check));
    assert_eq!(v.outcome(&check, &[]).unwrap(), None);
    // Stalemate: a Prince walled in by Sente's own Stone Generals, dead on the last rank or
    // blocked; no move and no check, and the stalemated player loses.
    let stale =
        position(&v, &[("a25", "(CP)"), ("b25", "O"), ("c25", "O"), ("a24", "O"), ("b24", "O"), ("y1", "k")], "b");
    assert!(legal(&v, &stale).is_empty());
    assert!(!v.in_check(&stale));
    assert_eq!(v.outcome(&stale, &[]).unwrap(), Some(Outcome::win(Side::Second, EndReason::Stalemate)));
}

#[test]
fn the_fourth_occurrence_is_a_draw() {
    let v = Taishin::new();
    let pos = position(&v, &[("m1", "K"), ("m25", "k")], "b");
    let entry = HistoryEntry::new(pos.repetition_hash(), false);
    let other = HistoryEntry::new(pos.repetition_hash() ^ 1, false);
    assert_eq!(v.outcome(&pos, &[entry, other, entry]).unwrap(), None);
    assert_eq!(
        v.outcome(&pos, &[entry, other, entry, other, entry]).unwrap(),
        Some(Outcome::draw(EndReason::Repetition))
    );
    // Pass counters are not part of the position for repetition.
    let mut counted = pos.clone();
    counted.set_counter(0, 2);
    assert_eq!(v.outcome(&counted, &[entry, entry, entry]).unwrap(), Some(Outcome::draw(EndReason::Repetition)));
}
