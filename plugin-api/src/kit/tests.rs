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
        cubes: Vec::new(),
        field: None,
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn probes_and_pins_agree_with_brute_force(
        cells in proptest::collection::vec((0u8..49, 0u8..16, any::<bool>()), 0..18),
        kings in (0u8..49, 0u8..49),
        black in any::<bool>(),
    ) {
        let v = KitVariant::new(rules(), None).unwrap();
        let mut pos = position(&cells, kings, black);
        for c in 0..49 {
            if let Some(p) = pos.piece_at(c) {
                let by = p.side.opponent();
                prop_assert_eq!(v.attacked(&pos, c, by), brute_attacked(&v, &pos, c, by), "cell {} in {:?}", c, v.format_position(&pos));
            }
        }
        let side = pos.side_to_move();
        let mut legal = Vec::new();
        v.gen_legal(&mut pos, &mut legal).unwrap();
        let mut expected = Vec::new();
        let royals: Vec<Cell> = (0..49).filter(|&c| pos.piece_at(c) == Some(Piece::new(0, side))).collect();
        v.scan(&pos, &mut expected, side);
        if let [royal] = royals[..] {
            expected.retain(|&m| {
                let mut after = pos.clone();
                v.make(&mut after, m);
                let at = if m.from == royal { m.to } else { royal };
                !brute_attacked(&v, &after, at, side.opponent())
            });
        } else if royals.is_empty() {
            expected.clear();
        }
        legal.sort();
        expected.sort();
        prop_assert_eq!(legal, expected, "in {}", v.format_position(&pos));
    }
}
