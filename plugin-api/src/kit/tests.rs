//! The kit's fast paths checked against brute force on random positions with unusual pieces:
//! attack probes against "can any enemy move capture here" (and the attackers they list against
//! "which enemy pieces have a move here"), and the pin-candidate legality filter against "make
//! every pseudo-legal move and look".

use proptest::prelude::*;

use super::*;
use crate::model::description::Metadata;
use crate::model::geometry::{Cell, GeometrySpec};
use crate::model::moves::MoveKind;
use crate::model::piece::Piece;
use crate::model::side::Side;
use crate::rules::betza::{self, Atom};
use crate::rules::{CubeRule, PieceRule, RuleSet};

const MOVES: [(&str, &str); 9] = [
    ("K", "K"),    // royal
    ("H", "nN"),   // xiangqi horse: lame knight
    ("J", "jR"),   // skips its first cell
    ("T", "R2"),   // short rook
    ("B", "B"),    // bishop
    ("D", "D"),    // dabbaba leaper
    ("P", "mWcF"), // moves straight, captures diagonally
    ("L", "fR"),   // lance
    ("E", "nA"),   // elephant: lame (2,2)
];

fn rules() -> RuleSet {
    let meta = Metadata { name: "Probe test".into(), ..Metadata::default() };
    RuleSet {
        pieces: MOVES
            .iter()
            .map(|&(token, moves)| {
                let p = PieceRule::new(token, token, moves).unwrap();
                if token == "K" { p.royal() } else { p }
            })
            .collect(),
        ..RuleSet::new(meta, GeometrySpec::flat(7, 7), "k6/7/7/7/7/7/6K b - 1")
    }
}

fn position(cells: &[(u8, u8, bool)], kings: (u8, u8), black: bool) -> Position {
    let mut pos = Position::empty(49, MOVES.len());
    for &(cell, ty, first) in cells {
        let side = if first { Side::First } else { Side::Second };
        pos.set(cell as Cell % 49, Some(Piece::new(1 + ty % (MOVES.len() as u8 - 1), side)));
    }
    let (k1, k2) = (kings.0 as Cell % 49, kings.1 as Cell % 49);
    if k1 != k2 {
        pos.set(k1, Some(Piece::new(0, Side::First)));
        pos.set(k2, Some(Piece::new(0, Side::Second)));
    }
    pos.set_side_to_move(if black { Side::First } else { Side::Second });
    pos
}

fn brute_attacked(v: &KitVariant, pos: &Position, target: Cell, by: Side) -> bool {
    !brute_attackers(v, pos, target, by).is_empty()
}

/// The cells of `by`'s pieces with a generated move onto `target`, sorted.
fn brute_attackers(v: &KitVariant, pos: &Position, target: Cell, by: Side) -> Vec<Cell> {
    let mut moves = Vec::new();
    v.scan(pos, &mut moves, by, MoveSet::All).expect("a kit without hooks");
    let mut from: Vec<Cell> =
        moves.iter().filter(|m| m.kind == MoveKind::Board && m.to == target).map(|m| m.from).collect();
    from.sort();
    from.dedup();
    from
}

/// Checks the probes against generated captures for every occupied cell, and the legal moves
/// against "make every pseudo-legal move and look" (royals are type 0).
fn agrees_with_brute_force(v: &KitVariant, mut pos: Position) -> Result<(), TestCaseError> {
    let cells = v.geometry().len() as Cell;
    for c in 0..cells {
        if let Some(p) = pos.piece_at(c) {
            let by = p.side.opponent();
            let brute = brute_attackers(v, &pos, c, by);
            prop_assert_eq!(v.attacked(&pos, c, by), !brute.is_empty(), "cell {} in {:?}", c, v.format_position(&pos));
            let mut listed = Vec::new();
            prop_assert!(v.attackers(&pos, c, by, &mut listed), "the probes know every attack here");
            listed.sort();
            prop_assert_eq!(listed, brute, "attackers of cell {} in {:?}", c, v.format_position(&pos));
        }
    }
    let side = pos.side_to_move();
    let mut legal = Vec::new();
    v.gen_legal(&mut pos, &mut legal, MoveSet::All).unwrap();
    let mut expected = Vec::new();
    let royals: Vec<Cell> = (0..cells).filter(|&c| pos.piece_at(c) == Some(Piece::new(0, side))).collect();
    v.scan(&pos, &mut expected, side, MoveSet::All).expect("a kit without hooks");
    if let [royal] = royals[..] {
        expected.retain(|&m| {
            let mut after = pos.clone();
            v.make(&mut after, m);
            let at = if m.from == royal { m.to } else { royal };
            !brute_attacked(v, &after, at, side.opponent())
        });
    } else if royals.is_empty() {
        expected.clear();
    }
    legal.sort();
    expected.sort();
    prop_assert_eq!(legal, expected, "in {}", v.format_position(&pos));
    Ok(())
}

/// 3D pieces on a 4 × 5 × 4 box: (token, slide sets, step sets) from [`crate::rules::directions`].
const MOVES_3D: [(&str, &[&str], &[&str]); 7] = [
    ("K", &[], &["radial"]),
    ("E", &["radial"], &[]),
    ("B", &["diagonal"], &[]),
    ("U", &["triagonal"], &[]),
    ("R", &["orthogonal"], &["forward_triagonal"]),
    ("P", &[], &["forward_orthogonal", "forward_diagonal"]),
    ("L", &["forward_orthogonal", "backward_orthogonal"], &[]),
];

fn rules_3d() -> RuleSet {
    let atoms = |sets: &[&str], range| -> Vec<Atom> {
        let vectors = sets.iter().flat_map(|s| crate::rules::directions::named(s).expect("a direction set"));
        vectors.map(|vector| Atom { vector, range, mode: betza::Mode::BOTH, lame: false, skip_first: false }).collect()
    };
    let pieces = MOVES_3D
        .iter()
        .map(|&(token, slides, steps)| {
            let mut p = PieceRule::new(token, token, "W").unwrap();
            p.atoms = atoms(slides, 0);
            p.atoms.extend(atoms(steps, 1));
            p.betza = format!("slide {slides:?} step {steps:?}");
            if token == "K" { p.royal() } else { p }
        })
        .collect();
    RuleSet {
        geometry: GeometrySpec { files: 4, ranks: 5, levels: 4, holes: vec![] },
        pieces,
        start: "k3/4/4/4/4|4/4/4/4/4|4/4/4/4/4|4/4/4/4/3K b - 1".into(),
        ..rules()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn probes_and_pins_agree_with_brute_force(
        cells in proptest::collection::vec((0u8..49, 0u8..16, any::<bool>()), 0..18),
        kings in (0u8..49, 0u8..49),
        black in any::<bool>(),
    ) {
        let v = KitVariant::new(rules(), None).unwrap();
        agrees_with_brute_force(&v, position(&cells, kings, black))?;
    }

    #[test]
    fn probes_and_pins_agree_with_brute_force_in_3d(
        cells in proptest::collection::vec((0u8..80, 0u8..16, any::<bool>()), 0..24),
        kings in (0u8..80, 0u8..80),
        black in any::<bool>(),
    ) {
        let v = KitVariant::new(rules_3d(), None).unwrap();
        let mut pos = Position::empty(80, MOVES_3D.len());
        for &(cell, ty, first) in &cells {
            let side = if first { Side::First } else { Side::Second };
            pos.set(cell as Cell, Some(Piece::new(1 + ty % (MOVES_3D.len() as u8 - 1), side)));
        }
        if kings.0 != kings.1 {
            pos.set(kings.0 as Cell, Some(Piece::new(0, Side::First)));
            pos.set(kings.1 as Cell, Some(Piece::new(0, Side::Second)));
        }
        pos.set_side_to_move(if black { Side::First } else { Side::Second });
        agrees_with_brute_force(&v, pos)?;
    }
}

/// Cubes on an ordinary board: a king and a two-faced die (`A` steps orthogonally and flips to
/// `B`; `B` steps diagonally and flips to `A`; a capturing `A` chooses `A` or `B`).
fn die_rules() -> RuleSet {
    let mut r = rules();
    r.pieces = vec![
        PieceRule::new("King", "K", "K").unwrap().royal(),
        PieceRule::new("A", "A", "W").unwrap(),
        PieceRule::new("B", "B", "F").unwrap(),
    ];
    r.pieces[1].opposite = Some(2);
    r.pieces[1].capture_faces = vec![1, 2];
    r.pieces[2].opposite = Some(1);
    r.drops = true;
    r.cubes = vec![
        CubeRule { name: "King".into(), letter: 'K', faces: vec![0] },
        CubeRule { name: "Die".into(), letter: 'D', faces: vec![1, 2] },
    ];
    r.start = "k6/7/7/7/7/7/6K b - 1".into();
    r
}

#[test]
fn a_cube_flips_on_a_move_chooses_on_a_capture_and_drops_any_face() {
    let v = KitVariant::new(die_rules(), None).unwrap();
    assert_eq!(v.info().hand_types, [0, 1], "a cube counts in hand under its first face");
    assert_eq!(v.info().pieces[2].demotes_to, 1);
    let mut pos = v.parse_position("k6/7/7/3a3/3A3/7/6K b A 1").unwrap();
    let mut moves = Vec::new();
    v.legal_moves(&pos, &mut moves).unwrap();
    let from = v.geometry().cell(3, 2, 0).unwrap();
    let die: Vec<Move> = moves.iter().copied().filter(|m| m.from == from).collect();
    // Three steps that flip to B, and the capture ahead twice (staying A or turning B).
    assert_eq!(die.iter().filter(|m| m.piece == 2).count(), 4);
    assert_eq!(die.iter().filter(|m| m.piece == 1).count(), 1);
    // The B in hand is a die: it drops as either face; empty cells 49 - 4 = 45, two faces each.
    assert_eq!(moves.iter().filter(|m| m.kind == MoveKind::Drop).count(), 90);
    let capture = *die.iter().find(|m| m.piece == 1).unwrap();
    v.play(&mut pos, capture).unwrap();
    assert_eq!(pos.hand(Side::First, 1), 2, "the captured die joins the one in hand");
}

#[test]
fn faces_must_belong_to_exactly_one_cube() {
    let mut r = die_rules();
    r.cubes[1].faces = vec![1];
    let e = KitVariant::new(r, None).unwrap_err().to_string();
    assert!(e.contains("turns into a face that is not on its cube") || e.contains("no cube's face"), "{e}");
    let mut r = die_rules();
    r.cubes[0].faces = vec![0, 1];
    assert!(KitVariant::new(r, None).unwrap_err().to_string().contains("two cubes"));
}
