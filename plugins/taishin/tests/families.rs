//! One scenario per move family (§6) on constructed positions, Sente moving up the board.

mod common;

use common::{legal_from, mv, position, sq, ty};
use henka_api::{Move, Variant};
use taishin::Taishin;

/// The moves of the piece on `from`, sorted, with the Sente and Gote Kings kept out of the way.
fn moves_of(v: &Taishin, pieces: &[(&str, &str)], from: &str) -> Vec<Move> {
    let mut all = pieces.to_vec();
    all.extend([("b1", "K"), ("x25", "k")]);
    let pos = position(v, &all, "b");
    let mut m = legal_from(v, &pos, from);
    m.sort();
    m
}

fn has(moves: &[Move], m: Move) -> bool {
    moves.contains(&m)
}

#[test]
fn lion_double_capture_igui_and_pass() {
    let v = Taishin::new();
    let (ln, hawk) = (ty(&v, "(LN)"), ty(&v, "+(LN)"));
    let m = moves_of(&v, &[("m13", "(LN)"), ("m14", "p"), ("m15", "p")], "m13");
    assert!(has(&m, mv("m13", Some("m14"), "m15", hawk)), "double capture");
    assert!(has(&m, mv("m13", Some("m14"), "m13", hawk)), "igui");
    assert!(has(&m, mv("m13", None, "m13", ln)), "pass");
    assert!(has(&m, mv("m13", Some("m14"), "l15", hawk)), "capture, then step on to an empty square");
    assert!(has(&m, mv("m13", None, "m15", hawk)), "leap over the first victim");
    // 24 leaps, 7 second steps after taking m14, igui, pass.
    assert_eq!(m.len(), 24 + 7 + 1 + 1);

    // Friends all round: no pass, no igui, and the leaps to distance 2 only.
    let ring: Vec<(&str, &str)> =
        ["l12", "m12", "n12", "l13", "n13", "l14", "m14", "n14"].iter().map(|&s| (s, "P")).collect();
    let mut pieces = vec![("m13", "(LN)")];
    pieces.extend(ring);
    let m = moves_of(&v, &pieces, "m13");
    assert_eq!(m.len(), 16);
    assert!(m.iter().all(|x| x.to != x.from));
}

#[test]
fn lion_dog_power_on_one_line() {
    let v = Taishin::new();
    let ff = ty(&v, "+(LD)");
    // Forward: enemy S1, friend S2, enemy S3. Back: empty S1, enemy S2. Left: friend S1, enemy S2.
    // Right: enemy S1, enemy S2, empty S3.
    let m = moves_of(
        &v,
        &[
            ("m13", "(LD)"),
            ("m14", "p"),
            ("m15", "P"),
            ("m16", "p"),
            ("m11", "p"),
            ("l13", "P"),
            ("k13", "p"),
            ("n13", "p"),
            ("o13", "p"),
        ],
        "m13",
    );
    // Capture S1, hop over the friend on S2, capture S3.
    assert!(has(&m, mv("m13", Some("m14"), "m16", ff)));
    // Capture S1 then go on to S2: not onto a friend.
    assert!(!m.iter().any(|x| x.via == sq("m14") && x.to == sq("m15")));
    // Pass the empty S1, capture S2, then on to S3 or back to S1.
    assert!(has(&m, mv("m13", Some("m11"), "m10", ff)));
    assert!(has(&m, mv("m13", Some("m11"), "m12", ff)));
    // Over a friend on S1: on to S3 only.
    assert!(has(&m, mv("m13", Some("k13"), "j13", ff)));
    assert!(!has(&m, mv("m13", Some("k13"), "l13", ff)));
    // Two enemies: S1 then S2, S2 then back to S1 (both captured, different moves), S1 then S3.
    for (via, to) in [("n13", "o13"), ("o13", "n13"), ("o13", "p13"), ("n13", "p13")] {
        assert!(has(&m, mv("m13", Some(via), to, ff)), "{via} {to}");
    }
    // Leaps: S3 over S1 and S2; igui on S1.
    assert!(has(&m, mv("m13", None, "m16", ff)));
    assert!(has(&m, mv("m13", Some("m14"), "m13", ff)));
    // No turning: a lion dog never leaves its line.
    assert!(m.iter().all(|x| {
        let (f, t) = (x.from as i32, x.to as i32);
        let (df, dr) = (t % 25 - f % 25, t / 25 - f / 25);
        df == 0 || dr == 0 || df.abs() == dr.abs()
    }));
}

#[test]
fn range_jumping_captures_over_one_and_two_pieces() {
    let v = Taishin::new();
    let (rg, gg) = (ty(&v, "(RG)"), ty(&v, "+(RG)"));
    let pieces = [("m13", "(RG)"), ("m15", "P"), ("m17", "p"), ("m19", "g"), ("m21", "r")];
    let m = moves_of(&v, &pieces, "m13");
    assert!(has(&m, mv("m13", None, "m14", rg)));
    assert!(has(&m, mv("m13", None, "m17", gg)), "over one (a friend)");
    assert!(has(&m, mv("m13", None, "m19", gg)), "over two (a friend and an enemy)");
    assert!(
        !m.iter().any(|x| [sq("m16"), sq("m18"), sq("m21")].contains(&x.to)),
        "never quietly past a piece, never over three"
    );

    // The jumped pieces stay.
    let mut pos = position(&v, &[pieces.as_slice(), &[("b1", "K"), ("x25", "k")]].concat(), "b");
    v.play(&mut pos, mv("m13", None, "m19", gg)).unwrap();
    for (s, kept) in [("m15", "P"), ("m17", "p"), ("m19", "+(RG)")] {
        let p = pos.piece_at(sq(s)).unwrap();
        assert_eq!(p.ty, ty(&v, &kept.to_ascii_uppercase()), "{s}");
    }
    assert_eq!(pos.piece_at(sq("m13")), None);
}

#[test]
fn hooks_turn_one_corner_on_an_empty_square() {
    let v = Taishin::new();
    let hm = ty(&v, "(HM)");
    // Up to m16, turn left, slide to the enemy on j16. k18 needs a corner at m18 (behind the
    // friend on m17) or at k13 (behind the friend on l13).
    let m = moves_of(&v, &[("m13", "(HM)"), ("m17", "P"), ("l13", "P"), ("j16", "p")], "m13");
    assert!(has(&m, mv("m13", None, "j16", hm)), "capture after the turn; the Hook Mover never promotes");
    assert!(!m.iter().any(|x| x.to == sq("i16")), "the capture ends the slide");
    assert!(!m.iter().any(|x| x.to == sq("k18")));
    assert!(has(&m, mv("m13", None, "n20", hm)), "right then up");
    assert_eq!(m.iter().filter(|x| x.to == sq("p16")).count(), 1, "two corners, one move");

    // The Peacock's first leg goes forward only: m9 (two squares back-left then back-right) is a
    // Capricorn's move, not a Peacock's.
    let to_m9 = |t: &str| moves_of(&v, &[("m13", t)], "m13").iter().any(|x| x.to == sq("m9"));
    assert!(to_m9("(CA)"));
    assert!(!to_m9("(PC)"));
}

#[test]
fn area_moves_stop_at_their_first_capture() {
    let v = Taishin::new();
    let shogun = ty(&v, "+(LT)");
    let friends = ["l12", "m12", "n12", "l13", "n13", "l14", "n14"].map(|s| (s, "P"));
    let with = |m14: &'static str| {
        let mut p = vec![("m13", "+(LT)"), ("m14", m14)];
        p.extend(friends);
        p
    };
    // The only way out is through the enemy on m14: taking it ends the move; no empty neighbour,
    // no pass.
    let m = moves_of(&v, &with("p"), "m13");
    assert_eq!(m, vec![mv("m13", None, "m14", shogun)]);
    // An empty m14: then m14, three squares beyond it and nine beyond those, and the pass.
    let mut pieces = with("P");
    pieces.retain(|&(s, _)| s != "m14");
    let m = moves_of(&v, &pieces, "m13");
    assert_eq!(m.len(), 1 + 3 + 9 + 1);
    assert!(has(&m, mv("m13", None, "m16", shogun)));
    assert!(has(&m, mv("m13", None, "m13", shogun)));
}

#[test]
fn heavenly_tetrarch_skips_its_first_square() {
    let v = Taishin::new();
    let ht = ty(&v, "(HT)"); // never promotes
    let m = moves_of(&v, &[("m13", "(HT)"), ("m14", "P"), ("m16", "p"), ("m12", "p"), ("k13", "P")], "m13");
    assert!(has(&m, mv("m13", None, "m15", ht)), "over the friend on S1");
    assert!(has(&m, mv("m13", None, "m16", ht)), "the first piece from S2 on is captured");
    assert!(!m.iter().any(|x| x.to == sq("m17") || x.to == sq("m14") || x.to == sq("m12")));
    assert!(has(&m, mv("m13", Some("m12"), "m13", ht)), "igui on a neighbour");
    assert!(has(&m, mv("m13", None, "m11", ht)), "backwards over the enemy on S1");
    // Sideways: S2 and S3, S3 only through an empty S2.
    assert!(has(&m, mv("m13", None, "o13", ht)) && has(&m, mv("m13", None, "p13", ht)));
    assert!(!m.iter().any(|x| [sq("q13"), sq("n13"), sq("j13"), sq("l13")].contains(&x.to)));
    assert!(!m.iter().any(|x| x.to == x.from && x.via == henka_api::NO_CELL), "no pass");
}

#[test]
fn free_eagle_and_golden_bird_turn_after_their_capture() {
    let v = Taishin::new();
    let bird = ty(&v, "+(FE)"); // what a capturing Free Eagle becomes, too
    // Free Eagle: diagonal capture, then straight on (n14 → o15) or turned 90° (n14 → o13 / m15).
    let m = moves_of(&v, &[("m13", "(FE)"), ("n14", "p")], "m13");
    for to in ["o15", "o13", "m15", "m13"] {
        assert!(has(&m, mv("m13", Some("n14"), to, bird)), "{to}");
    }
    assert!(!m.iter().any(|x| x.via == sq("n14") && [sq("n15"), sq("o14")].contains(&x.to)));
    // Golden Bird: orthogonal capture, then straight on or to a diagonal neighbour of its square.
    let m = moves_of(&v, &[("m13", "+(FE)"), ("m14", "p")], "m13");
    for to in ["m15", "l14", "n14", "m13"] {
        assert!(has(&m, mv("m13", Some("m14"), to, bird)), "{to}");
    }
    assert_eq!(m.iter().filter(|x| x.via == sq("m14")).count(), 4);
}

#[test]
fn soaring_eagle_power_is_forward_diagonal_only() {
    let v = Taishin::new();
    let bg = ty(&v, "+(SE)");
    let m = moves_of(&v, &[("m13", "(SE)"), ("n14", "p"), ("l12", "p")], "m13");
    assert!(has(&m, mv("m13", Some("n14"), "o15", bg)));
    assert!(has(&m, mv("m13", Some("n14"), "m13", bg)));
    assert!(!m.iter().any(|x| x.via == sq("l12")), "no locust or igui backwards");
    assert!(has(&m, mv("m13", None, "l12", bg)), "a plain capture backwards");
}

#[test]
fn fire_demon_captures_then_steps_again() {
    let v = Taishin::new();
    let fd = ty(&v, "(FD)");
    let m = moves_of(&v, &[("m13", "(FD)"), ("m14", "p"), ("m15", "p")], "m13");
    assert!(has(&m, mv("m13", Some("m14"), "m15", fd)), "two captures; the Fire Demon never promotes");
    assert!(has(&m, mv("m13", Some("m14"), "m13", fd)), "igui");
    // The area move goes round m14 to m16 (m14 is not passed through: it holds a piece).
    assert!(has(&m, mv("m13", None, "m16", fd)));
}
