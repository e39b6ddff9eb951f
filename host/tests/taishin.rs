//! Taishin shogi through the bundled script: the start position against the Interactive Diagram
//! configuration, every piece type's move count on an empty board, and one scenario per special
//! move family and rule (docs/rules/taishin.md §6–§8, §10: "the rules" below).
//!
//! Squares are written as the rules write them (`m13`: file a–y from Sente's left, rank 1–25 from
//! Sente's side); `sq` turns them into Henka cells.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use henka::catalog;
use henka_api::{Cell, Game, Move, Piece, Position, Side, Variant, notation};

const CONFIG: &str = include_str!("data/taishin-config.txt");

fn taishin() -> Arc<dyn Variant> {
    catalog::find("taishin", &[]).expect("bundled").load().unwrap_or_else(|e| panic!("{e}")).variant
}

/// The cell of a spec square like `m13`.
fn sq(v: &dyn Variant, name: &str) -> Cell {
    let file = (name.as_bytes()[0] - b'a') as i32;
    let rank: i32 = name[1..].parse().expect("rank");
    v.geometry().cell(file, rank - 1, 0).unwrap_or_else(|| panic!("no square {name}"))
}

fn sq_name(v: &dyn Variant, c: Cell) -> String {
    let (f, r, _) = v.geometry().coords(c);
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// A position with only the given pieces (`"+LN"`, `"K"`: written tokens) and `stm` to move.
fn board(v: &dyn Variant, pieces: &[(&str, &str, Side)], stm: Side) -> Position {
    let info = v.info();
    let mut pos = Position::empty(v.geometry().len(), info.pieces.len());
    for &(square, written, side) in pieces {
        let (ty, _) = notation::lookup_token(info, written).unwrap_or_else(|e| panic!("{written}: {e}"));
        pos.set(sq(v, square), Some(Piece::new(ty, side)));
    }
    pos.set_side_to_move(stm);
    // Through the position string, so the position is exactly what a user could type.
    v.parse_position(&v.format_position(&pos)).unwrap()
}

/// A move written `[via x] to [+ or =type]` in spec squares; a pass or igui ends on its start.
fn describe(v: &dyn Variant, pos: &Position, m: Move) -> String {
    let mut s = String::new();
    if let Some(via) = m.stop() {
        s += &format!("{}x", sq_name(v, via));
    }
    s += &sq_name(v, m.to);
    let before = pos.piece_at(m.from).expect("a board move").ty;
    if m.piece != before {
        let info = &v.info().pieces;
        if info[before as usize].promotes_to == Some(m.piece) {
            s.push('+');
        } else {
            s += &format!("={}", info[m.piece as usize].written());
        }
    }
    s
}

fn legal(v: &dyn Variant, pos: &Position) -> Vec<Move> {
    let mut all = Vec::new();
    v.legal_moves(pos, &mut all).unwrap();
    all
}

/// The legal moves of the piece on `from`, described; each must be listed once.
fn moves_from(v: &dyn Variant, pos: &Position, from: &str) -> BTreeSet<String> {
    let from = sq(v, from);
    let listed: Vec<String> =
        legal(v, pos).into_iter().filter(|m| m.from == from).map(|m| describe(v, pos, m)).collect();
    let set: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(set.len(), listed.len(), "a move listed twice: {listed:?}");
    set
}

/// Plays the move of the piece on `from` described as `what`.
fn play(v: &dyn Variant, pos: &mut Position, from: &str, what: &str) {
    let from = sq(v, from);
    let m = legal(v, pos)
        .into_iter()
        .find(|&m| m.from == from && describe(v, pos, m) == what)
        .unwrap_or_else(|| panic!("no move {what} from {}", sq_name(v, from)));
    v.play(pos, m).unwrap();
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

const B: Side = Side::First;
const W: Side = Side::Second;

// ---------------------------------------------------------------------------------------------
// The start position against the configuration.

/// The configuration's entries: (name, ID, XBetza, squares) in order.
fn config_entries() -> Vec<(String, String, String, String)> {
    let rest = CONFIG.split("symmetry=rotate ").nth(1).expect("piece list");
    let mut out = Vec::new();
    // `name:ID:betza:image:squares` separated by spaces; names contain spaces themselves.
    let mut fields: Vec<String> = Vec::new();
    let mut current = String::new();
    for ch in rest.trim().chars() {
        if ch == ':' {
            fields.push(std::mem::take(&mut current));
        } else if ch == ' ' && fields.len() == 4 {
            fields.push(std::mem::take(&mut current));
            let f = std::mem::take(&mut fields);
            out.push((f[0].clone(), f[1].to_ascii_uppercase(), f[2].clone(), f[4].clone()));
        } else {
            current.push(ch);
        }
    }
    fields.push(current);
    out.push((fields[0].clone(), fields[1].to_ascii_uppercase(), fields[2].clone(), fields[4].clone()));
    out
}

/// Squares of a config list: `a7-y7` (a run along a rank) or `d2,v2`.
fn config_squares(list: &str) -> Vec<String> {
    list.split(',')
        .filter(|s| !s.is_empty())
        .flat_map(|item| match item.split_once('-') {
            Some((a, b)) => {
                let (fa, fb) = (a.as_bytes()[0], b.as_bytes()[0]);
                (fa..=fb).map(|f| format!("{}{}", f as char, &a[1..])).collect::<Vec<_>>()
            }
            None => vec![item.to_string()],
        })
        .collect()
}

#[test]
fn the_start_position_matches_the_configuration_square_by_square() {
    let v = taishin();
    let info = v.info();
    let start = v.start_position();
    let entries = config_entries();
    assert_eq!(entries.len(), 163, "86 initial and 77 promoted types in the configuration");
    assert_eq!(info.pieces.len(), 163);
    let mut placed = 0;
    for (i, (name, id, betza, squares)) in entries.iter().enumerate() {
        // Initial type i promotes to entry i + 86; promoted IDs are written `+ID`.
        let written = if let Some(bare) = id.strip_prefix('+') {
            if bare.len() > 1 { format!("+({bare})") } else { id.clone() }
        } else if id.len() > 1 {
            format!("({id})")
        } else {
            id.clone()
        };
        let (ty, _) = notation::lookup_token(info, &written).unwrap_or_else(|e| panic!("{name}: {e}"));
        let piece = &info.pieces[ty as usize];
        assert_eq!(piece.betza, *betza, "{name}: the script's move is the configuration's, verbatim");
        assert!(piece.name.eq_ignore_ascii_case(name), "{} vs {name}", piece.name);
        if i < 77 {
            let promoted = &entries[i + 86];
            let (pty, _) = notation::lookup_token(info, &format!("+{}", written)).unwrap();
            assert_eq!(piece.promotes_to, Some(pty), "{name} promotes to {}", promoted.0);
        } else if i < 86 {
            assert_eq!(piece.promotes_to, None, "{name} never promotes");
        }
        for s in config_squares(squares) {
            let c = sq(v.as_ref(), &s);
            assert_eq!(start.piece_at(c), Some(Piece::new(ty, Side::First)), "Sente's {name} on {s}");
            // Gote's setup is the 180° rotation.
            let (f, r, _) = v.geometry().coords(c);
            let rotated = v.geometry().cell(24 - f, 24 - r, 0).unwrap();
            assert_eq!(start.piece_at(rotated), Some(Piece::new(ty, Side::Second)), "Gote's {name} opposite {s}");
            placed += 1;
        }
    }
    assert_eq!(placed, 177, "177 pieces a side");
    for side in Side::BOTH {
        let mine: Vec<u8> = start.cells().iter().flatten().filter(|p| p.side == side).map(|p| p.ty).collect();
        assert_eq!(mine.len(), 177);
        assert_eq!(mine.iter().collect::<BTreeSet<_>>().len(), 86, "86 types a side");
    }
}

// ---------------------------------------------------------------------------------------------
// Every type's moves from the centre of an empty board.

/// Moves of each configuration XBetza string from m13 on an otherwise empty board (own King on
/// b1 and enemy King on x25: off every line and leap of the centre, so only the Emperor's `U` and
/// the hooks, which reach almost everything, see them). 12 free cells lie in each direction.
///
/// Derivations: `R`/`B` slide 4×12 = 48 each, `Q` 96; one direction of a slide is 12; a step or
/// leap is 1 per direction; `fnD`-style lame leaps are 1 each on an empty board; leaps and steps
/// already on a slide's line add nothing. Lion-style "pass" (`mabK`, `mcabK`, `fmabW`, …) adds 1
/// (the move back to m13); locust captures (`caK`, `fcavW`), hops (`pafpafcB`, `cpB`) and igui
/// (`cabK`) need pieces and add 0 here.
const EMPTY_BOARD: &[(&str, usize, &str)] = &[
    ("fW", 1, "one step"),
    ("bFfW", 3, "1 + 2"),
    ("N", 8, "8 knight leaps"),
    ("vW", 2, ""),
    ("fF", 2, ""),
    ("fFbW", 3, ""),
    ("fFfW", 3, ""),
    ("fFvW", 4, ""),
    ("FfW", 5, ""),
    ("FsbW", 7, "4 diagonal + 3 orthogonal"),
    ("FvW", 6, ""),
    ("WfF", 6, ""),
    ("F", 4, ""),
    ("W", 4, ""),
    ("fFfsW", 5, ""),
    ("bFvW", 4, ""),
    ("fFsbW", 5, ""),
    ("FbW", 5, ""),
    ("WbF", 6, ""),
    ("F2", 8, "4 × 2"),
    ("W2", 8, "4 × 2"),
    ("K3", 24, "8 × 3"),
    ("vR", 24, "2 × 12"),
    ("fRbW2", 14, "12 + 2"),
    ("bBvR", 48, "24 + 24"),
    ("fBvR", 48, "24 + 24"),
    ("fRbW", 13, "12 + 1"),
    ("FD", 8, "4 + 4"),
    ("WA", 8, "4 + 4"),
    ("WfFA", 10, "6 + 4"),
    ("FvWD", 10, "6 + 4"),
    ("fRbWflbrB", 37, "fR 12 + bW 1 + two diagonals 24"),
    ("fRbWfrblB", 37, "mirror"),
    ("RbB", 72, "48 + 24"),
    ("WsR", 26, "sR 24 + vW 2"),
    ("WvR", 26, "vR 24 + sW 2"),
    ("B", 48, ""),
    ("WsRfnD", 27, "sR 24 + vW 2 + fnD 1"),
    ("WfRsnD", 17, "fR 12 + bW 1 + sW 2 + snD 2"),
    ("R", 48, ""),
    ("sRvW2", 28, "24 + 4"),
    ("vRsW2", 28, "24 + 4"),
    ("BW", 52, "48 + 4"),
    ("RF", 52, "48 + 4"),
    ("RfB4bB2", 60, "48 + 2×4 + 2×2"),
    ("RbB4fB2", 60, "48 + 2×4 + 2×2"),
    ("BsR4vR2", 60, "48 + 2×4 + 2×2"),
    ("BvR4sR2", 60, "48 + 2×4 + 2×2"),
    ("BN", 56, "48 + 8"),
    ("RN", 56, "48 + 8"),
    ("BvRWnD", 76, "B 48 + vR 24 + sW 2 + snD 2 (vertical W and D lie on vR)"),
    ("RfBbB2fD", 76, "R 48 + fB 24 + bB2 4 (fD lies on R)"),
    ("RlbfBrbB2lvA", 86, "R 48 + three diagonals 36 + rbB2 2 (lvA lies on the slides)"),
    ("RrbfBlbB2rvA", 86, "mirror"),
    ("BbsRfWfDfcavWfmabW", 87, "B 48 + bsR 36 + fW 1 + fD 1 + pass 1"),
    ("RbBfFfAfcavFfmabF", 77, "R 48 + bB 24 + fF 2 + fA 2 + pass 1"),
    ("KNADcaKmcabK", 25, "the 24 cells of the 5×5 + pass"),
    ("KADGHcafKmcabKcafmpafKmpafcavK", 25, "8 lines × 3 cells + pass"),
    ("Q", 96, ""),
    ("QADcasFcafFmcabF", 97, "Q 96 (A, D on it) + pass"),
    ("BWNADcaKmcabK", 65, "B 48 + W 4 + N 8 + D 4 + pass (A on B)"),
    ("pafpafcBmcBcpB", 48, "the bishop; jumps need pieces"),
    ("pafpafcRmcRcpR", 48, "the rook"),
    ("R3pafpafcBmcBcpB", 60, "12 + 48"),
    ("B3pafpafcRmcRcpR", 60, "12 + 48"),
    ("DpafpafcBmcBcpB", 52, "4 + 48"),
    ("ApafpafcRmcRcpR", 52, "4 + 48"),
    ("BsRWnD", 76, "B 48 + sR 24 + vW 2 + vnD 2"),
    (
        "bB2fBfmasB",
        226,
        "bB2 4 + fB 24 + hooks 198: turning on a forward diagonal reaches, with a 90° turn, the \
         cells strictly inside the forward cone (66: Σ_{y=2..12}(y−1) of matching colour, reached \
         from both diagonals) and the right and left cones (66 each)",
    ),
    ("BmasB", 312, "every cell of the centre's colour but the centre: 13² + 12² − 1"),
    ("FvrW", 7, "F 4 + vW 2 + rW 1"),
    ("FvlW", 7, ""),
    ("lfbFW", 7, "W 4 + forward-left + 2 backward diagonals"),
    ("rfbFW", 7, ""),
    ("FsfW", 7, ""),
    ("K", 8, ""),
    ("K2", 16, "8 × 2"),
    ("BsRvW5", 82, "48 + 24 + 2×5"),
    ("BvRsW5", 82, "48 + 24 + 2×5"),
    ("KNADGHcaKmcabKcafmpafKmpafcavK", 33, "5×5 24 + G 4 + H 4 + pass"),
    ("pafpafcBmcBcpBKaKaaKmabK", 85, "B 48 + the 7×7 off the diagonals 36 + pass"),
    ("pafpafcQmcQcpQ", 96, "the queen"),
    ("jsR3jBjvRcabK", 70, "sideways S2, S3: 4 + diagonals 4×11 + vertical 2×11; never adjacent"),
    ("BsRKaKaaKcaKmcabK", 103, "B 48 + sR 24 + the 7×7 off those lines 30 + pass"),
    ("WBmasB", 316, "BmasB 312 + W 4"),
    ("RmasR", 623, "every cell but the centre (624) but the own King's b1"),
    ("bBfR", 36, "24 + 12"),
    ("KvR", 30, "K 8 + vR 24 − 2"),
    ("KsR", 30, "K 8 + sR 24 − 2"),
    ("BsfRbW", 85, "48 + 36 + 1"),
    ("BsbRfW", 85, "48 + 36 + 1"),
    ("bBvRsR2", 52, "24 + 24 + 4"),
    ("fBvRsR2", 52, "24 + 24 + 4"),
    ("KrvBrR", 41, "K 8 + right diagonals 24 + rR 12 − 3 right steps"),
    ("KlvBlR", 41, "mirror"),
    ("RfB", 72, ""),
    ("BsR", 72, ""),
    ("BvR", 72, ""),
    ("BbsRfWfDfHfcafWfmcabWfcafmpafWfmpafcavW", 88, "B 48 + bsR 36 + fW fD fH 3 + pass"),
    ("RbBfFfAfGfcafFfmcabFfcafmpafFfmpafcavF", 79, "R 48 + bB 24 + fF fA fG 6 + pass"),
    ("BWaKmabK", 65, "B 48 + W 4 + the 5×5 ring off the diagonals 12 + pass"),
    ("RFaKmabK", 65, "R 48 + F 4 + the 5×5 ring off the lines 12 + pass"),
    ("QDcasWcafWmcabW", 97, "Q 96 + pass"),
    ("RFNADcaKmcabK", 65, "R 48 + F 4 + N 8 + A 4 + pass"),
    ("pafpafcBmcBcpBKaKmabK", 65, "B 48 + the 5×5 off the diagonals 16 + pass"),
    ("pafpafcRmcRcpRKaKmabK", 65, "R 48 + the 5×5 off the lines 16 + pass"),
    ("KaKaaKmabK", 49, "the 7×7 48 + pass"),
    ("QADGHcafKmcabKcafmpafKmpafcavK", 97, "Q 96 + pass"),
    ("QNADcaKmcabK", 105, "Q 96 + N 8 + pass"),
    ("U", 623, "every cell but m13 and the own King's b1 (x25's King may be taken)"),
];

#[test]
fn every_type_moves_as_its_definition_gives_on_an_empty_board() {
    let v = taishin();
    let info = v.info();
    let mut failures = Vec::new();
    for piece in &info.pieces {
        let Some(&(_, expected, _)) = EMPTY_BOARD.iter().find(|(betza, _, _)| *betza == piece.betza) else {
            panic!("no expectation for {} ({})", piece.name, piece.betza);
        };
        let written = piece.written();
        let pos = board(v.as_ref(), &[("m13", &written, B), ("b1", "K", B), ("x25", "K", W)], B);
        let got = moves_from(v.as_ref(), &pos, "m13");
        if got.len() != expected {
            failures.push(format!(
                "{} {written} {}: {} moves, expected {expected}",
                piece.name,
                piece.betza,
                got.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// One scenario per special family and rule.

#[test]
fn lion_double_capture_igui_and_pass() {
    let v = taishin();
    let v = v.as_ref();
    let pos = board(v, &[("m13", "(LN)", B), ("m14", "P", W), ("m15", "P", W), ("a1", "K", B), ("y25", "K", W)], B);
    let m = moves_from(v, &pos, "m13");
    assert!(m.contains("m14xm15+"), "capture both pawns");
    assert!(m.contains("m14xm13+"), "igui: capture and stay");
    assert!(m.contains("m14xl15+") && m.contains("m14xn13+"), "capture, then a step to an empty cell");
    assert!(m.contains("m13"), "pass: an adjacent cell is empty");
    assert!(m.contains("m15+") && m.contains("m14+"), "the 5×5 leaps");
    // 24 leaps + pass + 8 continuations after taking m14 (to m14's neighbours, home included).
    assert_eq!(m.len(), 24 + 1 + 8);
    let mut after = pos.clone();
    play(v, &mut after, "m13", "m14xm15+");
    assert_eq!(after.piece_at(sq(v, "m14")), None);
    let lion_hawk = notation::lookup_token(v.info(), "+(LN)").unwrap().0;
    assert_eq!(after.piece_at(sq(v, "m15")), Some(Piece::new(lion_hawk, B)), "a capture promotes");
    // Boxed in by friends: no pass.
    let mut boxed = vec![("m13", "(LN)", B), ("a1", "K", B), ("y25", "K", W)];
    let ring = ["l12", "m12", "n12", "l13", "n13", "l14", "m14", "n14"];
    boxed.extend(ring.iter().map(|&s| (s, "G", B)));
    let pos = board(v, &boxed, B);
    assert!(!moves_from(v, &pos, "m13").contains("m13"));
}

#[test]
fn lion_dog_moves_along_one_line_of_three() {
    let v = taishin();
    let v = v.as_ref();
    // Enemy on S1 and S2, a friend on S3 of the upward line.
    let pos = board(
        v,
        &[("m13", "(LD)", B), ("m14", "P", W), ("m15", "P", W), ("m16", "G", B), ("a1", "K", B), ("y25", "K", W)],
        B,
    );
    let m = moves_from(v, &pos, "m13");
    assert!(m.contains("m14xm15+"), "capture S1, then S2");
    assert!(m.contains("m14xm13+"), "igui on S1");
    assert!(!m.iter().any(|d| d.ends_with("m16") || d.ends_with("m16+")), "S3 holds a friend");
    assert!(!m.iter().any(|d| d.contains("m17")), "no further than three");
    // S1 a friend, S2 an enemy, S3 empty: pass over S1, take S2, go on to S3 — not back to S1.
    let pos = board(v, &[("m13", "(LD)", B), ("m14", "G", B), ("m15", "P", W), ("a1", "K", B), ("y25", "K", W)], B);
    let m = moves_from(v, &pos, "m13");
    assert!(m.contains("m15xm16+"));
    assert!(!m.contains("m15xm14+"), "a friend on S1 forbids coming back");
    // Capture S1, hop over whatever is on S2, land on S3: the hopped piece stays.
    let pos = board(
        v,
        &[("m13", "(LD)", B), ("m14", "P", W), ("m15", "G", B), ("m16", "P", W), ("a1", "K", B), ("y25", "K", W)],
        B,
    );
    assert!(moves_from(v, &pos, "m13").contains("m14xm16+"));
    let mut after = pos.clone();
    play(v, &mut after, "m13", "m14xm16+");
    assert!(after.piece_at(sq(v, "m15")).is_some_and(|p| p.side == B), "S2 hopped, not taken");
    assert_eq!(after.piece_at(sq(v, "m14")), None);
    // Empty S1, enemy S2: take S2 and come back to S1.
    let pos = board(v, &[("m13", "(LD)", B), ("m15", "P", W), ("a1", "K", B), ("y25", "K", W)], B);
    let m = moves_from(v, &pos, "m13");
    assert!(m.contains("m15xm14+") && m.contains("m15xm16+") && m.contains("m15+"));
}

#[test]
fn range_jumping_captures_over_one_or_two_pieces_and_leaves_them() {
    let v = taishin();
    let v = v.as_ref();
    let pos = board(
        v,
        &[
            ("m13", "(RG)", B),
            ("m15", "G", B),
            ("m17", "P", W),
            ("m19", "P", W),
            ("m21", "P", W),
            ("a1", "K", B),
            ("y25", "K", W),
        ],
        B,
    );
    let m = moves_from(v, &pos, "m13");
    assert!(m.contains("m14"), "ordinary move");
    assert!(!m.contains("m16"), "a non-capturing move never passes a piece");
    assert!(m.contains("m17+"), "over one piece (a friend)");
    assert!(m.contains("m19+"), "over two pieces");
    assert!(!m.contains("m21+"), "never over three");
    let mut after = pos.clone();
    play(v, &mut after, "m13", "m19+");
    assert!(after.piece_at(sq(v, "m15")).is_some() && after.piece_at(sq(v, "m17")).is_some(), "jumped, not taken");
}

#[test]
fn a_hook_mover_turns_a_corner() {
    let v = taishin();
    let v = v.as_ref();
    // Walls on m14 and l13/n13 leave only the way down, then the turn at m9 to the right.
    let pos = board(
        v,
        &[("m13", "(HM)", B), ("m14", "G", B), ("l13", "G", B), ("n13", "G", B), ("a1", "K", B), ("y25", "K", W)],
        B,
    );
    let m = moves_from(v, &pos, "m13");
    assert!(m.contains("q9"), "down to m9, turn, right to q9");
    assert!(m.contains("a12") && m.contains("y1"), "any turning cell on the way down");
    assert!(!m.contains("p14"), "the way up is walled");
    // The turning cell must be empty.
    let pos = board(v, &[("m13", "(HM)", B), ("m9", "P", W), ("m14", "G", B), ("l13", "G", B), ("n13", "G", B)], B);
    let pos = board_with_kings(v, pos);
    let m = moves_from(v, &pos, "m13");
    // (The Hook Mover never promotes, so its capture has no `+`.)
    assert!(m.contains("m9") && !m.contains("q9") && m.contains("q10"), "{m:?}");
}

/// Adds the two Kings far away (a1 and y25) to a position.
fn board_with_kings(v: &dyn Variant, mut pos: Position) -> Position {
    let k = notation::lookup_token(v.info(), "K").unwrap().0;
    pos.set(sq(v, "a1"), Some(Piece::new(k, B)));
    pos.set(sq(v, "y25"), Some(Piece::new(k, W)));
    pos
}

#[test]
fn an_area_move_stops_at_its_first_capture() {
    let v = taishin();
    let v = v.as_ref();
    // A Shogun boxed in by friends except for an enemy on m14.
    let mut pieces = vec![("m13", "+(LT)", B), ("m14", "P", W), ("m15", "P", W), ("a1", "K", B), ("y25", "K", W)];
    let ring = ["l12", "m12", "n12", "l13", "n13", "l14", "n14"];
    pieces.extend(ring.iter().map(|&s| (s, "G", B)));
    let pos = board(v, &pieces, B);
    // The Shogun never promotes, so its capture is written without `+`.
    assert_eq!(moves_from(v, &pos, "m13"), set(&["m14"]), "the capture ends the move; no pass");
}

#[test]
fn the_heavenly_tetrarch_skips_its_first_square() {
    let v = taishin();
    let v = v.as_ref();
    let pos = board(v, &[("m13", "(HT)", B), ("m14", "G", B), ("n14", "P", W), ("a1", "K", B), ("y25", "K", W)], B);
    let m = moves_from(v, &pos, "m13");
    assert!(m.contains("m15") && m.contains("m25"), "straight on past the friend on m14");
    assert!(!m.contains("m14") && !m.contains("l13"), "never to an adjacent cell");
    assert!(m.contains("n14xm13"), "igui on the diagonal enemy");
    assert!(m.contains("o15"), "the diagonal slide starts on its second cell");
    assert!(m.contains("o13") && m.contains("p13") && !m.contains("q13"), "sideways to S2 or S3 only");
    assert!(!m.contains("m13"), "it cannot pass");
}

#[test]
fn the_emperor_may_not_take_a_protected_king() {
    let v = taishin();
    let v = v.as_ref();
    // Gote's King on m13 is protected by its Gold on m14 (Gold steps forward = down for Gote).
    let protected = board(v, &[("a1", "+K", B), ("m13", "K", W), ("m14", "G", W)], B);
    let m = moves_from(v, &protected, "a1");
    assert!(!m.contains("m13"), "protected");
    assert!(m.contains("m14"), "the Gold itself may be taken");
    let alone = board(v, &[("a1", "+K", B), ("m13", "K", W), ("y25", "G", W)], B);
    assert!(moves_from(v, &alone, "a1").contains("m13"), "an unprotected King may be taken");
    // A protected King still counts as in check only from pieces that may take it.
    assert!(!v.in_check(&board(v, &[("a1", "+K", B), ("m13", "K", W), ("m14", "G", W)], W)));
    assert!(v.in_check(&board(v, &[("a1", "+K", B), ("m13", "K", W), ("y25", "G", W)], W)));
}

#[test]
fn capturing_a_deva_makes_a_teaching_king_but_royals_keep_their_promotion() {
    let v = taishin();
    let v = v.as_ref();
    let pos = board(v, &[("m1", "R", B), ("m20", "(DV)", W), ("a1", "K", B), ("y25", "K", W)], B);
    assert!(moves_from(v, &pos, "m1").contains("m20=+(DV)"), "the Rook becomes a Teaching King");
    let pos = board(v, &[("m1", "R", B), ("m20", "(DS)", W), ("a1", "K", B), ("y25", "K", W)], B);
    assert!(moves_from(v, &pos, "m1").contains("m20=+(DS)"), "… a Divine Dragon for the Dark Spirit");
    // Even a piece that never promotes (the Great General) becomes one.
    let pos = board(v, &[("m1", "(GG)", B), ("m20", "(DV)", W), ("a1", "K", B), ("y25", "K", W)], B);
    assert!(moves_from(v, &pos, "m1").contains("m20=+(DV)"));
    // The King is exempt: it becomes the Emperor as usual.
    let pos = board(v, &[("m13", "K", B), ("m14", "(DV)", W), ("y25", "K", W)], B);
    assert!(moves_from(v, &pos, "m13").contains("m14+"));
    // Two captures in one move: the later one decides (a Lion takes the Deva, then the Spirit).
    let pos =
        board(v, &[("m13", "(LN)", B), ("m14", "(DV)", W), ("m15", "(DS)", W), ("a1", "K", B), ("y25", "K", W)], B);
    let m = moves_from(v, &pos, "m13");
    assert!(m.contains("m14xm15=+(DS)"), "{m:?}");
}

#[test]
fn a_fourth_pass_in_a_row_is_refused() {
    let v = taishin();
    let v = v.as_ref();
    let pos = board(v, &[("m13", "(LN)", B), ("a1", "K", B), ("y25", "K", W), ("y1", "G", W)], B);
    let mut g = Game::new(pos);
    let cell = |s: &str| notation::cell_name(v.geometry(), sq(v, s));
    let lion_pass = format!("{}{}", cell("m13"), cell("m13"));
    let gold_moves = [("y1", "y2"), ("y2", "y1"), ("y1", "y2")];
    for (from, to) in gold_moves {
        g.play_str(v, &lion_pass).unwrap();
        g.play_str(v, &format!("{}{}", cell(from), cell(to))).unwrap();
    }
    assert_eq!(g.position().counter(0), 3, "three passes counted");
    assert!(g.play_str(v, &lion_pass).is_err(), "the fourth is illegal");
    // Any other move resets the count.
    g.play_str(v, &format!("{}{}", cell("m13"), cell("m14"))).unwrap();
    assert_eq!(g.position().counter(0), 0);
}

#[test]
fn the_last_rank_promotion_of_a_pawn_is_optional() {
    let v = taishin();
    let v = v.as_ref();
    let pos = board(v, &[("c24", "P", B), ("d24", "(CT)", B), ("a1", "K", B), ("y25", "K", W), ("c25", "G", W)], B);
    assert_eq!(moves_from(v, &pos, "c24"), set(&["c25+"]), "a capture always promotes");
    let pos = board(v, &[("c24", "P", B), ("a1", "K", B), ("y25", "K", W)], B);
    assert_eq!(moves_from(v, &pos, "c24"), set(&["c25", "c25+"]), "promote or stay a dead piece");
    // Other pieces promote only by capturing.
    assert_eq!(moves_from(v, &pos, "a1").len(), 6, "the King's K2 from the corner: 3 lines × 2");
}
