//! The start position (docs/rules/ladies-and-generals.md §5): 80 pieces a side in the §4 numbers,
//! the second army the first turned about the vertical axis, and the first player's 317 moves
//! counted by hand.

mod common;

use std::collections::BTreeMap;

use common::{at, coords, legal, ty, variant};
use henka_api::{Side, Variant};

/// §4: code and number of each type in an army.
const ARMY: [(&str, usize); 18] = [
    ("K", 1),
    ("E", 1),
    ("D", 1),
    ("V", 2),
    ("Q", 1),
    ("R", 2),
    ("B", 2),
    ("U", 4),
    ("Y", 2),
    ("A", 2),
    ("T", 2),
    ("C", 4),
    ("Z", 4),
    ("J", 4),
    ("F", 4),
    ("L", 4),
    ("X", 4),
    ("P", 36),
];

#[test]
fn each_side_has_80_pieces_in_the_numbers_of_section_4() {
    let v = variant();
    let start = v.start_position();
    for side in Side::BOTH {
        let mut counts: BTreeMap<u8, usize> = BTreeMap::new();
        for p in start.cells().iter().flatten().filter(|p| p.side == side) {
            *counts.entry(p.ty).or_default() += 1;
        }
        assert_eq!(counts.values().sum::<usize>(), 80, "{side}");
        for (token, n) in ARMY {
            assert_eq!(counts.get(&ty(token)).copied().unwrap_or(0), n, "{side} {token}");
        }
        assert!(start.hand_is_empty(side));
    }
    assert_eq!(start.side_to_move(), Side::First);
}

#[test]
fn the_second_army_is_the_first_turned_about_the_vertical_axis() {
    let v = variant();
    let start = v.start_position();
    let g = v.geometry();
    for c in g.cells() {
        let (f, l, r) = coords(c);
        let turned = g.cell(5 - f, 8 - r, l).unwrap();
        let (a, b) = (start.piece_at(c), start.piece_at(turned));
        assert_eq!(a.map(|p| p.ty), b.map(|p| p.ty), "cell {c}");
        assert_eq!(a.map(|p| p.side), b.map(|p| p.side.opponent()), "cell {c}");
        if l == 0 {
            assert_eq!(start.piece_at(c), start.piece_at(g.cell(f, r, 5).unwrap()), "level z same as level u");
        }
    }
    assert_eq!(start.piece_at(at("dw1")).map(|p| p.ty), Some(ty("K")));
    assert_eq!(start.piece_at(at("cw9")).map(|p| p.ty), Some(ty("K")), "each Emperor on its owner's right");
}

/// The first player's moves at the start, per piece, derived from the array: rank 3 is 36
/// Princelings, rank 2 holds U at b/e × v/y, B at bw2 bx2, R at ew2 ex2, and rank 1 is full,
/// so only forward moves onto rank 2 (and a few sideways slides on it) are open.
#[rustfmt::skip]
const START_MOVES: [(&str, usize); 18] = [
    ("P", 156), // 36 × forward O + forward SD to existing cells: 6 levels × (1+2+2+2+2+1) filestack
                //   moves + the same for level moves = 36 + 60 + 60; each file has 1 P, so 2 is allowed
    ("U", 0),   // forward ND onto own P, backward ND onto own rank 1
    ("B", 14),  // same-rank SD on rank 2: bw2 → cx2 dy2 ez2, cv2 du2, ax2, av2 (7); bx2 → cy2 dz2,
                //   cw2 dv2 eu2, ay2, aw2 (7)
    ("R", 6),   // ew2: dw2 cw2 (to B), fw2; ex2: dx2 cx2, fx2 (levels: own U and R)
    ("F", 12),  // 4 corners × (forward O + 2 forward SD onto rank 2, then own P)
    ("L", 4),   // forward O one cell each
    ("C", 20),  // 4 × (forward O 1 + forward SD 3 + forward ND 1: the other ND cell holds a U)
    ("X", 8),   // 4 × 2 forward SD (the filestack one hits a U)
    ("J", 28),  // 4 × (forward SD 3 (one hits B or R) + forward ND 4)
    ("Y", 14),  // 2 × (forward O 1 + forward SD 3 + forward ND 3)
    ("Z", 4),   // 4 × forward O (both forward ND cells hold U, B or R)
    ("A", 8),   // 2 × 4 forward ND (forward O holds B or R)
    ("E", 6),   // cw1: cw2; forward SD dw2 cv2 cx2; forward ND dv2 dx2
    ("K", 6),   // dw1: dw2; forward SD cw2 dv2 dx2; forward ND cv2 cx2
    ("V", 12),  // 2 × (forward SD 2 + forward ND 4)
    ("Q", 4),   // cx1: cx2; forward SD dx2 cw2 cy2
    ("D", 3),   // dx1: dx2; forward ND cw2 cy2
    ("T", 12),  // 2 × (forward SD 3 + forward ND 3)
];

#[test]
fn the_first_player_has_317_moves_counted_piece_by_piece() {
    let v = variant();
    let start = v.start_position();
    let moves = legal(&v, &start);
    for (token, n) in START_MOVES {
        let of_type = moves.iter().filter(|m| start.piece_at(m.from).is_some_and(|p| p.ty == ty(token))).count();
        assert_eq!(of_type, n, "{token}");
    }
    assert_eq!(START_MOVES.iter().map(|(_, n)| n).sum::<usize>(), 317);
    assert_eq!(moves.len(), 317);
}

#[test]
fn perft_from_the_start() {
    let v = variant();
    let start = v.start_position();
    assert_eq!(v.perft(&start, 1).unwrap(), 317);
    assert_eq!(v.perft(&start, 2).unwrap(), 100_473);
    assert_eq!(v.perft(&start, 3).unwrap(), 31_653_913);
}
