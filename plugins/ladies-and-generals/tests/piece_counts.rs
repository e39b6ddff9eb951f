//! Every type alone on the empty board, moving as the first player: the number of cells it can
//! reach, derived by hand from docs/rules/ladies-and-generals.md §3–§4. (Distinct destinations:
//! where a move may promote or not, both choices go to one cell; the choices are counted in
//! `rules.rs`.)
//!
//! Centre `cw5` = (filestack 2, level 2, rank 4) counted from 0: free cells per direction are
//! 2 towards filestack a, 3 towards f, 2 towards level u, 3 towards z, 4 forward, 4 backward.
//! A slide along a radial goes as far as its tightest component allows:
//! - O: 2 + 3 + 2 + 3 + 4 + 4 = 18 (forward O 4, backward O 4);
//! - SD: same-rank (filestack, level) pairs 2 + 2 + 2 + 3 = 9, forward 2 + 3 + 2 + 3 = 10,
//!   backward 10: 29;
//! - ND: forward 2 + 2 + 2 + 3 = 9, backward 9: 18; all 26 step cells exist.
//!
//! Corner `au1` = (0, 0, 0): 5 free cells towards f, 5 towards z, 8 forward, none otherwise.
//! - O: 5 + 5 + 8 = 18 (forward O 8); SD: same-rank 5, forward 5 + 5: 15; ND: forward 5;
//! - step cells: O 3 (forward 1), SD 3 (forward 2), ND 1 (forward).

mod common;

use common::{at, position, targets, variant};
use henka_api::Side;

/// (token, from the centre, from the corner), with the sums that give them.
#[rustfmt::skip]
const COUNTS: [(&str, usize, usize); 31] = [
    ("K",  26, 7),           // steps all 26 | 3 + 3 + 1
    ("E",  65, 38),          // slides O SD ND: 18 + 29 + 18 | 18 + 15 + 5
    ("D",  36, 23),          // slides O ND: 18 + 18 | 18 + 5
    ("+D", 48, 26),          // + step SD: 36 + 12 | 23 + 3
    ("V",  47, 20),          // slides SD ND: 29 + 18 | 15 + 5
    ("+V", 53, 23),          // + step O: 47 + 6 | 20 + 3
    ("Q",  47, 33),          // slides O SD: 18 + 29 | 18 + 15
    ("+Q", 55, 34),          // + step ND: 47 + 8 | 33 + 1
    ("R",  18, 18),          // slides O
    ("+R", 38, 22),          // + step SD ND: 18 + 12 + 8 | 18 + 3 + 1
    ("B",  29, 15),          // slides SD
    ("+B", 43, 19),          // + step O ND: 29 + 6 + 8 | 15 + 3 + 1
    ("U",  18, 5),           // slides ND
    ("+U", 36, 11),          // + step O SD: 18 + 6 + 12 | 5 + 3 + 3
    ("Y",  22, 7),           // steps O SD fND: 6 + 12 + 4 | 3 + 3 + 1
    ("A",  10, 4),           // steps O fND: 6 + 4 | 3 + 1
    ("+A", 14, 6),           // + step fSD: 10 + 4 | 4 + 2
    ("T",  16, 4),           // steps SD fND: 12 + 4 | 3 + 1
    ("+T", 17, 5),           // + step fO: 16 + 1 | 4 + 1
    ("C",  13, 4),           // steps ND fO fSD: 8 + 1 + 4 | 1 + 1 + 2
    ("Z",  9, 2),            // steps ND fO: 8 + 1 | 1 + 1
    ("+Z", 13, 4),           // + step fSD: 9 + 4 | 2 + 2
    ("J",  12, 3),           // steps ND fSD: 8 + 4 | 1 + 2
    ("+J", 13, 4),           // + step fO: 12 + 1 | 3 + 1
    ("F",  28, 18),          // slides fO bO fSD bSD: 4 + 4 + 10 + 10 | 8 + 0 + 10 + 0
    ("L",  8, 8),            // slides fO bO: 4 + 4 | 8 + 0
    ("+L", 10, 5),           // Goldgeneral, steps O fSD: 6 + 4 | 3 + 2
    ("X",  20, 10),          // slides fSD bSD: 10 + 10 | 10 + 0
    ("+X", 13, 4),           // Silvergeneral, steps SD fO: 12 + 1 | 3 + 1
    ("P",  5, 3),            // steps fO fSD: 1 + 4 | 1 + 2
    ("+P", 18, 6),           // Prince, steps O SD: 6 + 12 | 3 + 3
];

/// The number of cells the piece `token` on `cell`, alone on the board, can move to.
fn reach(token: &str, cell: &str) -> usize {
    let v = variant();
    let pos = position(&[(cell, token)], Side::First, &[]);
    targets(&v.piece_moves(&pos, at(cell))).len()
}

#[test]
fn every_type_and_promoted_form_is_in_the_table_once() {
    let v = variant();
    let written: Vec<String> = henka_api::Variant::info(&v).pieces.iter().map(|p| p.written()).collect();
    let listed: Vec<String> = COUNTS.iter().map(|(t, _, _)| t.to_string()).collect();
    assert_eq!(written, listed);
}

#[test]
fn from_the_centre() {
    for (token, centre, _) in COUNTS {
        assert_eq!(reach(token, "cw5"), centre, "{token}");
    }
}

#[test]
fn from_the_corner() {
    for (token, _, corner) in COUNTS {
        assert_eq!(reach(token, "au1"), corner, "{token}");
    }
}

#[test]
fn the_second_player_moves_the_same_from_the_turned_cells() {
    // Turning the board about the vertical axis maps cw5 to dw5 and au1 to fu9.
    for (token, centre, corner) in COUNTS {
        let lower = token.to_ascii_lowercase();
        assert_eq!(reach(&lower, "dw5"), centre, "{lower}");
        assert_eq!(reach(&lower, "fu9"), corner, "{lower}");
    }
}
