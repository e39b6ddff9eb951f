//! The kit's fast paths checked against brute force on random positions with unusual pieces:
//! attack probes against "can any enemy move capture here", and the pin-candidate legality filter
//! against "make every pseudo-legal move and look".

use proptest::prelude::*;

use super::*;
use crate::geometry::{Cell, GeometrySpec};
use crate::moves::MoveKind;
use crate::piece::Piece;
use crate::side::Side;
use crate::variant::Metadata;

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
    RuleSet {
        meta: Metadata { name: "Probe test".into(), ..Metadata::default() },
        geometry: GeometrySpec::flat(7, 7),
        pieces: MOVES
            .iter()
            .map(|&(token, moves)| {
                let p = PieceRule::new(token, token, moves).unwrap();
                if token == "K" { p.royal() } else { p }
            })
            .collect(),
        promotion: PromotionRule::default(),
        drops: false,
        check: CheckRule::MustEscape,
        stalemate: StalemateRule::Loss,
        baring: BaringRule::Off,
        repetition: RepetitionRule::default(),
        pass_limit: 0,
        start: "k6/7/7/7/7/7/6K b - 1".into(),
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
    let mut moves = Vec::new();
    v.scan(pos, &mut moves, by);
    moves.iter().any(|m| m.kind == MoveKind::Board && m.to == target)
}

/// Checks the probes against generated captures for every occupied cell, and the legal moves
/// against "make every pseudo-legal move and look" (royals are type 0).
fn agrees_with_brute_force(v: &KitVariant, mut pos: Position) -> Result<(), TestCaseError> {
    let cells = v.geometry().len() as Cell;
    for c in 0..cells {
        if let Some(p) = pos.piece_at(c) {
            let by = p.side.opponent();
            prop_assert_eq!(
                v.attacked(&pos, c, by),
                brute_attacked(v, &pos, c, by),
                "cell {} in {:?}",
                c,
                v.format_position(&pos)
            );
        }
    }
    let side = pos.side_to_move();
    let mut legal = Vec::new();
    v.gen_legal(&mut pos, &mut legal).unwrap();
    let mut expected = Vec::new();
    let royals: Vec<Cell> = (0..cells).filter(|&c| pos.piece_at(c) == Some(Piece::new(0, side))).collect();
    v.scan(&pos, &mut expected, side);
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

/// 3D pieces on a 4 × 5 × 4 box: (token, slide sets, step sets) from [`crate::directions`].
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
        let vectors = sets.iter().flat_map(|s| crate::directions::named(s).expect("a direction set"));
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
