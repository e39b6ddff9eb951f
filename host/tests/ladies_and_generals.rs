//! Ladies and Generals through the bundled script: the start array (80 pieces a side, the rules'
//! position string verbatim), every piece type's move count on an empty board from the centre and
//! from a corner, the four restrictions on constructed positions, the reversible ranker ⇄ general
//! switch, forced promotion, drops in array form, and the 3D notation
//! (docs/rules/ladies-and-generals.md, "the rules" below).
//!
//! Cells are written as the rules write them, which is also Henka's 3D notation: filestack letter
//! (a = the first player's left), level letter (u = top … z = bottom), rank number: `dw1`.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use henka::catalog;
use henka::script::{self, RuleOptions};
use henka_api::{Cell, Move, MoveKind, Piece, Position, Side, Variant, notation};

/// The rules' §5 position string (the placeholder array), verbatim.
const SPEC_START: &str = "flcclf/6/pppppp/6/6/6/PPPPPP/6/FLCCLF|xjyyjx/1u2u1/pppppp/6/6/6/PPPPPP/1U2U1/XJYYJX|zakeaz/1r2b1/pppppp/6/6/6/PPPPPP/1B2R1/ZAEKAZ|zvdqvz/1r2b1/pppppp/6/6/6/PPPPPP/1B2R1/ZVQDVZ|xjttjx/1u2u1/pppppp/6/6/6/PPPPPP/1U2U1/XJTTJX|flcclf/6/pppppp/6/6/6/PPPPPP/6/FLCCLF b - 1";

const B: Side = Side::First;
const W: Side = Side::Second;

fn source() -> &'static str {
    catalog::BUNDLED.iter().find(|(n, _)| *n == "ladies-and-generals").expect("bundled").1
}

fn lg_with(options: &[(&str, &str)]) -> Arc<dyn Variant> {
    let chosen: RuleOptions = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    script::load_source_with("ladies-and-generals.rhai", source(), &chosen).unwrap_or_else(|e| panic!("{e}")).variant
}

fn lg() -> Arc<dyn Variant> {
    lg_with(&[])
}

fn sq(v: &dyn Variant, name: &str) -> Cell {
    notation::parse_cell(v.geometry(), name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A position with only the given pieces (written tokens, `"+L"`), the hands given as
/// `(token, count, side)`, and `stm` to move; through the position string, as a user would type it.
fn board(v: &dyn Variant, pieces: &[(&str, &str, Side)], hands: &[(&str, u8, Side)], stm: Side) -> Position {
    let info = v.info();
    let mut pos = Position::empty(v.geometry().len(), info.pieces.len());
    let ty = |written: &str| notation::lookup_token(info, written).unwrap_or_else(|e| panic!("{written}: {e}")).0;
    for &(cell, written, side) in pieces {
        pos.set(sq(v, cell), Some(Piece::new(ty(written), side)));
    }
    for &(written, n, side) in hands {
        pos.set_hand(side, ty(written), n);
    }
    pos.set_side_to_move(stm);
    v.parse_position(&v.format_position(&pos)).unwrap()
}

fn legal(v: &dyn Variant, pos: &Position) -> Vec<Move> {
    let mut all = Vec::new();
    v.legal_moves(pos, &mut all).unwrap();
    all
}

/// The legal moves as written (`cv6cv7+`, `P*bv7`); each must be listed once.
fn written(v: &dyn Variant, pos: &Position) -> BTreeSet<String> {
    let listed: Vec<String> = legal(v, pos).into_iter().map(|m| v.format_move(pos, m)).collect();
    let set: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(set.len(), listed.len(), "a move listed twice");
    set
}

fn from_cell(v: &dyn Variant, pos: &Position, from: &str) -> BTreeSet<String> {
    let prefix = from.to_string();
    written(v, pos).into_iter().filter(|m| m.starts_with(&prefix) && !m.contains('*')).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The Emperors used by constructed positions: off every line through the centre cw5 and the
/// corner au1, and far from each other (checked in `empty_board_counts`).
const OWN_EMPEROR: &str = "fu2";
const ENEMY_EMPEROR: &str = "ez9";

// ---------------------------------------------------------------------------------------------
// The start array.

#[test]
fn the_start_is_the_spec_string_with_80_pieces_a_side() {
    let v = lg();
    let start = v.start_position();
    assert_eq!(v.format_position(&start), SPEC_START, "the §5 string round-trips verbatim");
    assert_eq!((v.geometry().files(), v.geometry().ranks(), v.geometry().levels()), (6, 9, 6));
    for side in Side::BOTH {
        assert_eq!(start.cells().iter().flatten().filter(|p| p.side == side).count(), 80);
    }
    let info = v.info();
    let at =
        |cell: &str| start.piece_at(sq(v.as_ref(), cell)).map(|p| (info.pieces[p.ty as usize].name.clone(), p.side));
    // Rules §5: the Emperor on dw1, on its owner's right of the Empress (cw1); 36 Princelings on
    // rank 3; the second player is the rotation (filestack, level, rank) → (7 − f, level, 10 − r).
    assert_eq!(at("dw1"), Some(("Emperor".into(), B)));
    assert_eq!(at("cw1"), Some(("Empress".into(), B)));
    assert_eq!(at("cw9"), Some(("Emperor".into(), W)));
    assert_eq!(at("bv2"), Some(("Unicorn".into(), B)));
    assert_eq!(at("bw2"), Some(("Bishop".into(), B)));
    assert_eq!(at("ew2"), Some(("Rook".into(), B)));
    for c in v.geometry().cells() {
        let (f, r, l) = v.geometry().coords(c);
        let mirror = v.geometry().cell(5 - f, 8 - r, l).unwrap();
        let (p, q) = (start.piece_at(c), start.piece_at(mirror));
        assert_eq!(p.map(|p| p.ty), q.map(|q| q.ty));
        assert_eq!(p.map(|p| p.side), q.map(|q| q.side.opponent()));
        if r == 2 {
            assert_eq!(p.map(|p| info.pieces[p.ty as usize].name.as_str()), Some("Princeling"));
        }
        // "Level z same as Level u".
        if l == 0 {
            assert_eq!(p, start.piece_at(v.geometry().cell(f, r, 5).unwrap()));
        }
    }
    let hand: Vec<&str> = info.hand_types.iter().map(|&t| info.pieces[t as usize].token.as_str()).collect();
    assert_eq!(hand, ["E", "D", "V", "Q", "R", "B", "U", "Y", "A", "T", "C", "Z", "J", "F", "L", "X", "P"]);
}

// ---------------------------------------------------------------------------------------------
// Every type's moves on an empty board.

/// Target cells of each type, Black, on an otherwise empty board (but for the two Emperors), from
/// the centre cw5 and the corner au1. From cw5 the free cells in each direction are: files 2
/// (towards a) and 3 (towards f), ranks 4 back and 4 forward, levels 2 (towards u) and 3 (towards
/// z). A slide along a vector goes as far as its tightest coordinate allows, so from cw5:
/// orthogonal slides 2+3+4+4+2+3 = 18; standard-diagonal (SD) slides 10 (file–rank: 2+2+3+3) +
/// 9 (file–level: 2+2+2+3) + 10 (rank–level: 2+3+2+3) = 29; triagonal (ND) slides 2·(2+2+2+3) = 18;
/// forward SD 10, backward SD 10. From au1 only the + directions are open, 5 files, 8 ranks and
/// 5 levels: orthogonal 5+8+5 = 18, SD 5+5+5 = 15, ND 5; steps: 3 O, 3 SD, 1 ND, forward O 1,
/// forward SD 2, forward ND 1. A step along a line the piece already slides on adds nothing.
const EMPTY_BOARD: &[(&str, usize, usize, &str)] = &[
    ("K", 26, 7, "26 radial steps | 3 O + 3 SD + 1 ND"),
    ("E", 65, 38, "slides O 18 + SD 29 + ND 18 | 18 + 15 + 5"),
    ("D", 36, 23, "slides O 18 + ND 18 | 18 + 5"),
    ("+D", 48, 26, "D + 12 SD steps | 23 + 3"),
    ("V", 47, 20, "slides SD 29 + ND 18 | 15 + 5"),
    ("+V", 53, 23, "V + 6 O steps | 20 + 3"),
    ("Q", 47, 33, "slides O 18 + SD 29 | 18 + 15"),
    ("+Q", 55, 34, "Q + 8 ND steps | 33 + 1"),
    ("R", 18, 18, "slides O 18 | 18"),
    ("+R", 38, 22, "R + 12 SD + 8 ND steps | 18 + 3 + 1"),
    ("B", 29, 15, "slides SD 29 | 15"),
    ("+B", 43, 19, "B + 6 O + 8 ND steps | 15 + 3 + 1"),
    ("U", 18, 5, "slides ND 18 | 5"),
    ("+U", 36, 11, "U + 6 O + 12 SD steps | 5 + 3 + 3"),
    ("Y", 22, 7, "steps 6 O + 12 SD + 4 forward ND | 3 + 3 + 1"),
    ("A", 10, 4, "steps 6 O + 4 forward ND | 3 + 1"),
    ("+A", 14, 6, "A + 4 forward SD | 4 + 2"),
    ("T", 16, 4, "steps 12 SD + 4 forward ND | 3 + 1"),
    ("+T", 17, 5, "T + forward O | 4 + 1"),
    ("C", 13, 4, "steps 8 ND + forward O + 4 forward SD | 1 + 1 + 2"),
    ("Z", 9, 2, "steps 8 ND + forward O | 1 + 1"),
    ("+Z", 13, 4, "Z + 4 forward SD (the Coastgeneral's move) | 2 + 2"),
    ("J", 12, 3, "steps 8 ND + 4 forward SD | 1 + 2"),
    ("+J", 13, 4, "J + forward O (the Coastgeneral's move) | 3 + 1"),
    ("F", 28, 18, "slides forward O 4 + backward O 4 + forward SD 10 + backward SD 10 | 8 + 5 + 5"),
    ("L", 8, 8, "slides forward O 4 + backward O 4 | 8"),
    ("+L", 10, 5, "Goldgeneral: steps 6 O + 4 forward SD | 3 + 2"),
    ("X", 20, 10, "slides forward SD 10 + backward SD 10 | 5 + 5"),
    ("+X", 13, 4, "Silvergeneral: steps 12 SD + forward O | 3 + 1"),
    ("P", 5, 3, "steps forward O + 4 forward SD | 1 + 2"),
    ("+P", 18, 6, "Prince: steps 6 O + 12 SD | 3 + 3"),
];

/// The distinct cells the piece `token` on `from` can reach (promotion choices are one target).
fn targets(v: &dyn Variant, token: &str, from: &str) -> usize {
    let mut pieces = vec![(from, token, B), (ENEMY_EMPEROR, "K", W)];
    if token != "K" {
        pieces.push((OWN_EMPEROR, "K", B));
    }
    let pos = board(v, &pieces, &[], B);
    let from = sq(v, from);
    legal(v, &pos).into_iter().filter(|m| m.from == from).map(|m| m.to).collect::<BTreeSet<_>>().len()
}

/// Whether cell `a` lies on one of the 26 radial lines through `b`.
fn on_a_line(v: &dyn Variant, a: &str, b: &str) -> bool {
    let (g, (a, b)) = (v.geometry(), (sq(v, a), sq(v, b)));
    let (p, q) = (g.coords(a), g.coords(b));
    let d: BTreeSet<i32> = [p.0 - q.0, p.1 - q.1, p.2 - q.2].into_iter().map(i32::abs).filter(|&x| x != 0).collect();
    d.len() == 1
}

#[test]
fn empty_board_counts() {
    let v = lg();
    for e in [OWN_EMPEROR, ENEMY_EMPEROR] {
        assert!(!on_a_line(v.as_ref(), e, "cw5") && !on_a_line(v.as_ref(), e, "au1"), "{e} is off the lines");
    }
    assert_eq!(EMPTY_BOARD.len(), v.info().pieces.len(), "one row per type");
    for &(token, centre, corner, why) in EMPTY_BOARD {
        assert_eq!(targets(v.as_ref(), token, "cw5"), centre, "{token} from cw5: {why}");
        assert_eq!(targets(v.as_ref(), token, "au1"), corner, "{token} from au1: {why}");
    }
}

#[test]
fn stepping_rankers_with_the_option() {
    let v = lg_with(&[("rankers", "step")]);
    // One step each way: F forward O + backward O + 4 forward SD + 4 backward SD = 10 (au1: 1 + 2);
    // L 2 (au1: forward only, 1); X 8 (au1: 2).
    for (token, centre, corner) in [("F", 10, 3), ("L", 2, 1), ("X", 8, 2)] {
        assert_eq!(targets(v.as_ref(), token, "cw5"), centre, "{token}");
        assert_eq!(targets(v.as_ref(), token, "au1"), corner, "{token}");
    }
}

#[test]
fn the_second_player_moves_towards_rank_1() {
    let v = lg();
    let pos = board(v.as_ref(), &[("cw5", "P", W), ("cw9", "K", W), ("dw1", "K", B)], &[], W);
    assert_eq!(from_cell(v.as_ref(), &pos, "cw5"), set(&["cw5cw4", "cw5bw4", "cw5dw4", "cw5cv4", "cw5cx4"]));
}

// ---------------------------------------------------------------------------------------------
// The four restrictions (rules §6).

fn drops_of(v: &dyn Variant, pos: &Position, token: &str) -> BTreeSet<Cell> {
    let ty = notation::lookup_token(v.info(), token).unwrap().0;
    legal(v, pos).into_iter().filter(|m| m.kind == MoveKind::Drop && m.piece == ty).map(|m| m.to).collect()
}

fn emperors() -> Vec<(&'static str, &'static str, Side)> {
    vec![(OWN_EMPEROR, "K", B), (ENEMY_EMPEROR, "K", W)]
}

#[test]
fn at_most_two_unpromoted_princelings_per_file() {
    let v = lg();
    let v = v.as_ref();
    let mut pieces = emperors();
    pieces.extend([("cv3", "P", B), ("cv5", "P", B), ("bv5", "P", B), ("cv7", "+P", B)]);
    let pos = board(v, &pieces, &[("P", 1, B)], B);
    // bv5's forward diagonal to cv6 would make three on file cv (the Prince on cv7 does not count).
    assert_eq!(from_cell(v, &pos, "bv5"), set(&["bv5bv6", "bv5av6", "bv5bu6", "bv5bw6"]));
    let drops = drops_of(v, &pos, "P");
    assert!(!drops.contains(&sq(v, "cv4")) && !drops.contains(&sq(v, "cv6")), "file cv is full");
    assert!(drops.contains(&sq(v, "bv7")), "file bv holds one");

    // At the limit: with one Princeling on cv, bv5 may step onto it, and a drop there is allowed.
    let pieces: Vec<_> = pieces.into_iter().filter(|p| p.0 != "cv5").collect();
    let pos = board(v, &pieces, &[("P", 1, B)], B);
    assert!(from_cell(v, &pos, "bv5").contains("bv5cv6"));
    assert!(drops_of(v, &pos, "P").contains(&sq(v, "cv4")));
}

#[test]
fn at_most_four_unpromoted_rookrankers_per_file() {
    let v = lg();
    let v = v.as_ref();
    let mut pieces = emperors();
    pieces.extend([("cv1", "L", B), ("cv2", "L", B), ("cv3", "L", B), ("cv4", "L", B), ("bv7", "+L", B)]);
    let pos = board(v, &pieces, &[("L", 1, B)], B);
    // The Goldgeneral may step onto file cv but not switch back to a fifth Rookranker there.
    let gold = from_cell(v, &pos, "bv7");
    assert!(gold.contains("bv7cv7") && !gold.contains("bv7cv7=L"), "{gold:?}");
    assert!(gold.contains("bv7bv8=L"), "another file takes the switch: {gold:?}");
    assert!(!drops_of(v, &pos, "L").contains(&sq(v, "cv5")));
    assert!(drops_of(v, &pos, "L").contains(&sq(v, "bv5")));

    // At the limit: three on cv, so a fourth may arrive by switch or drop.
    let pieces: Vec<_> = pieces.into_iter().filter(|p| p.0 != "cv4").collect();
    let pos = board(v, &pieces, &[("L", 1, B)], B);
    assert!(from_cell(v, &pos, "bv7").contains("bv7cv7=L"));
    assert!(drops_of(v, &pos, "L").contains(&sq(v, "cv5")));

    // The option lowers the limit: with at most 3, three on cv are already full.
    let strict = lg_with(&[("max_rookrankers_per_file", "3")]);
    let pos = board(strict.as_ref(), &pieces, &[("L", 1, B)], B);
    assert!(!drops_of(strict.as_ref(), &pos, "L").contains(&sq(strict.as_ref(), "cv5")));
}

/// Every empty cell a drop could go to, split by a predicate on coordinates.
fn empty_cells(v: &dyn Variant, pos: &Position, keep: impl Fn(i32, i32, i32) -> bool) -> BTreeSet<Cell> {
    let g = v.geometry();
    g.cells()
        .filter(|&c| pos.piece_at(c).is_none())
        .filter(|&c| {
            let (f, r, l) = g.coords(c);
            keep(f, r, l)
        })
        .collect()
}

#[test]
fn at_most_two_unpromoted_bishops_per_binding() {
    let v = lg();
    let v = v.as_ref();
    // Bishop bindings: file + rank + level even or odd. au1 (0) and cu1 (2) are both even; the
    // Pope on eu1 (4) does not count.
    let even = |f: i32, r: i32, l: i32| (f + r + l) % 2 == 0;
    let mut pieces = emperors();
    pieces.extend([("au1", "B", B), ("cu1", "B", B), ("eu1", "+B", B)]);
    let pos = board(v, &pieces, &[("B", 1, B)], B);
    assert_eq!(drops_of(v, &pos, "B"), empty_cells(v, &pos, |f, r, l| !even(f, r, l)), "only the odd binding");
    // Moves stay within the binding, so a full binding still lets its Bishops move.
    assert!(from_cell(v, &pos, "au1").contains("au1bu2"));

    let pieces: Vec<_> = pieces.into_iter().filter(|p| p.0 != "cu1").collect();
    let pos = board(v, &pieces, &[("B", 1, B)], B);
    assert_eq!(drops_of(v, &pos, "B"), empty_cells(v, &pos, |_, _, _| true), "at the limit: anywhere");
}

#[test]
fn at_most_two_unpromoted_unicorns_per_binding() {
    let v = lg();
    let v = v.as_ref();
    // Unicorn bindings: a parity triple of (file, rank, level) and its complement. au1 is
    // (0,0,0) and bv2 is (1,1,1): one binding.
    let binding = |f: i32, r: i32, l: i32| {
        let t = (f % 2, r % 2, l % 2);
        if t.0 == 0 { t } else { (1 - t.0, 1 - t.1, 1 - t.2) }
    };
    let mut pieces = emperors();
    pieces.extend([("au1", "U", B), ("bv2", "U", B)]);
    let pos = board(v, &pieces, &[("U", 1, B)], B);
    let full = (0, 0, 0);
    assert_eq!(drops_of(v, &pos, "U"), empty_cells(v, &pos, |f, r, l| binding(f, r, l) != full));
    assert_eq!(empty_cells(v, &pos, |f, r, l| binding(f, r, l) != full).len(), 324 - 81 - 2);

    let pieces: Vec<_> = pieces.into_iter().filter(|p| p.0 != "bv2").collect();
    let pos = board(v, &pieces, &[("U", 1, B)], B);
    assert_eq!(drops_of(v, &pos, "U"), empty_cells(v, &pos, |_, _, _| true));
}

// ---------------------------------------------------------------------------------------------
// Promotion, the reversible switch and drops (rules §7–§8).

#[test]
fn rankers_switch_to_generals_and_back_in_the_zone() {
    let v = lg();
    let v = v.as_ref();
    let mut pieces = emperors();
    pieces.extend([("cv6", "L", B), ("bw8", "+L", B), ("dx4", "+L", B), ("bx6", "+X", B)]);
    let pos = board(v, &pieces, &[], B);
    // A Rookranker entering the zone may switch; within the camp it is optional either way.
    assert_eq!(
        from_cell(v, &pos, "cv6"),
        set(&[
            "cv6cv7", "cv6cv7+", "cv6cv8", "cv6cv8+", "cv6cv9", "cv6cv9+", "cv6cv5", "cv6cv4", "cv6cv3", "cv6cv2",
            "cv6cv1"
        ])
    );
    // A Goldgeneral moving within the zone may switch back (`=L`) on every one of its 10 steps.
    let gold = from_cell(v, &pos, "bw8");
    assert_eq!(gold.len(), 20, "{gold:?}");
    assert!(gold.contains("bw8bw7=L"), "leaving the zone by moving back: it starts in the zone");
    // Outside the zone it stays a Goldgeneral.
    assert!(from_cell(v, &pos, "dx4").iter().all(|m| !m.contains('=')));
    // A Silvergeneral entering the zone may switch back to a Bishoranker.
    assert!(from_cell(v, &pos, "bx6").contains("bx6cx7=X"));
    // The long form reads the same moves: `~` switches back, `+` switches, `=` declines.
    let read = |s: &str| v.parse_move(&pos, s).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(read("+Lbw8-bw9~"), read("bw8bw9=L"));
    assert_eq!(read("Lcv6-cv7+"), read("cv6cv7+"));
    assert_eq!(read("Lcv6-cv7="), read("cv6cv7"));
    assert!(v.parse_move(&pos, "Lcv6xcv7").is_err(), "`x` needs a piece to capture");
    assert!(v.parse_move(&pos, "Pcv6-cv7").is_err(), "the piece on cv6 is a Rookranker");
}

#[test]
fn princelings_must_promote_on_the_far_rank_and_are_never_dropped_there() {
    let v = lg();
    let v = v.as_ref();
    let mut pieces = emperors();
    pieces.push(("cv8", "P", B));
    let pos = board(v, &pieces, &[("P", 1, B)], B);
    assert_eq!(
        from_cell(v, &pos, "cv8"),
        set(&["cv8cv9+", "cv8bv9+", "cv8dv9+", "cv8cu9+", "cv8cw9+"]),
        "the far rank: promotion forced"
    );
    let far_rank = empty_cells(v, &pos, |_, r, _| r == 8);
    assert!(drops_of(v, &pos, "P").is_disjoint(&far_rank));
    // Every other empty cell: 324 − the 36 of rank 9 (ez9 among them) − cv8 − fu2.
    assert_eq!(drops_of(v, &pos, "P").len(), 324 - 36 - 2);
}

#[test]
fn a_captured_general_returns_to_hand_as_its_ranker() {
    let v = lg();
    let v = v.as_ref();
    let mut pieces = emperors();
    pieces.extend([("cv5", "+L", B), ("cv9", "R", W)]);
    let mut pos = board(v, &pieces, &[], W);
    let mv = v.parse_move(&pos, "Rcv9xcv5").unwrap();
    assert!(legal(v, &pos).contains(&mv));
    v.play(&mut pos, mv).unwrap();
    assert_eq!(v.format_position(&pos).split(' ').nth(2), Some("l"), "White holds a Rookranker");
    // Drops never promote or switch.
    assert!(written(v, &pos).iter().all(|m| !m.contains('*') || !m.contains('+')));
}

#[test]
fn the_long_form_reads_captures_and_drops() {
    let v = lg();
    let v = v.as_ref();
    let start = v.start_position();
    assert_eq!(v.parse_move(&start, "Pcv3-cv4").unwrap(), v.parse_move(&start, "cv3cv4").unwrap());
    let mut pieces = emperors();
    pieces.extend([("bv2", "U", B), ("cw3", "P", W)]);
    let pos = board(v, &pieces, &[("P", 1, B)], B);
    let capture = v.parse_move(&pos, "Ubv2xcw3").unwrap();
    assert_eq!(v.format_move(&pos, capture), "bv2cw3");
    assert!(legal(v, &pos).contains(&capture));
    assert_eq!(v.format_move(&pos, v.parse_move(&pos, "P*cv5").unwrap()), "P*cv5");
}

#[test]
fn stalemate_is_a_draw_and_checkmate_wins() {
    let v = lg();
    let v = v.as_ref();
    // White's Emperor in the corner au9 has seven neighbours. Black's Rooks cover them without
    // attacking au9: bu1 up file bu (bu8, bu9), bv1 up bv (bv8, bv9), av1 up av (av8, av9), fu8
    // along rank 8 of level u (bu8, au8).
    let mut pieces = vec![("au9", "K", W), ("dw1", "K", B)];
    pieces.extend([("bu1", "R", B), ("bv1", "R", B), ("av1", "R", B), ("fu8", "R", B)]);
    let stale = board(v, &pieces, &[], W);
    assert!(!v.in_check(&stale));
    assert!(legal(v, &stale).is_empty(), "{:?}", written(v, &stale));
    let o = v.outcome(&stale, &[]).unwrap().expect("game over");
    assert_eq!(o.winner, None, "stalemate is a draw (rules §9)");
    let lost = lg_with(&[("stalemate", "loss")]);
    assert_eq!(lost.outcome(&stale, &[]).unwrap().expect("game over").winner, Some(B), "option stalemate=loss");

    // A fifth Rook on au1 checks up file au: checkmate.
    pieces.push(("au1", "R", B));
    let mate = board(v, &pieces, &[], W);
    assert!(v.in_check(&mate));
    assert!(legal(v, &mate).is_empty(), "{:?}", written(v, &mate));
    assert_eq!(v.outcome(&mate, &[]).unwrap().expect("game over").winner, Some(B));
}

#[test]
fn a_princeling_drop_may_mate_unless_the_option_forbids_it() {
    // The stalemate cage of the test above with Black to move and a Princeling in hand: P*au8
    // checks au9 (forward), is protected by the Rook on fu8, and every flight cell is covered.
    let pieces = [("au9", "K", W), ("dw1", "K", B), ("bu1", "R", B), ("bv1", "R", B), ("av1", "R", B), ("fu8", "R", B)];
    for (option, allowed) in [("allowed", true), ("forbidden", false)] {
        let v = lg_with(&[("princeling_drop_mate", option)]);
        let v = v.as_ref();
        let pos = board(v, &pieces, &[("P", 1, B)], B);
        let moves = written(v, &pos);
        assert_eq!(moves.contains("P*au8"), allowed, "princeling_drop_mate={option}");
        assert!(moves.contains("P*au7"), "a drop that does not mate is always allowed");
        if allowed {
            let mut mated = pos.clone();
            v.play(&mut mated, v.parse_move(&pos, "P*au8").unwrap()).unwrap();
            assert!(v.in_check(&mated) && legal(v, &mated).is_empty());
        }
    }
}
