//! The start position (§3) and perft from it.

mod common;

use common::{position, sq};
use henka_api::{Side, Variant};
use taishin::Taishin;

#[test]
fn each_side_has_177_pieces_of_86_types() {
    let v = Taishin::new();
    let start = v.start_position();
    for side in Side::BOTH {
        let mine: Vec<u8> = start.cells().iter().flatten().filter(|p| p.side == side).map(|p| p.ty).collect();
        assert_eq!(mine.len(), 177);
        let mut types = mine.clone();
        types.sort();
        types.dedup();
        assert_eq!(types.len(), 86);
        assert!(types.iter().all(|&t| !v.info().pieces[t as usize].promoted));
    }
}

#[test]
fn the_position_string_round_trips() {
    let v = Taishin::new();
    let start = v.start_position();
    assert_eq!(v.format_position(&start), taishin::START);
    assert_eq!(v.parse_position(&v.format_position(&start)).unwrap(), start);
}

#[test]
fn squares_match_the_spec_table() {
    let v = Taishin::new();
    let start = v.start_position();
    let at = |s: &str| {
        start.piece_at(sq(s)).map(|p| {
            let w = v.info().pieces[p.ty as usize].written();
            if p.side == Side::First { w } else { w.to_ascii_lowercase() }
        })
    };
    // §3.1, Sente: rank 1, 2, 3, 5, 6, 8; and an empty square.
    for (s, w) in [
        ("a1", "L"),
        ("b1", "(GA)"),
        ("l1", "(DV)"),
        ("m1", "K"),
        ("n1", "(DS)"),
        ("y1", "L"),
        ("k2", "S"),
        ("l2", "(LT)"),
        ("m2", "(CP)"),
        ("n2", "(RT)"),
        ("g3", "(LD)"),
        ("h3", "(LN)"),
        ("l3", "(GG)"),
        ("m3", "(DE)"),
        ("n3", "(VG)"),
        ("m4", "(FF)"),
        ("a5", "(LC)"),
        ("l5", "(TG)"),
        ("m5", "(LH)"),
        ("n5", "(HM)"),
        ("y5", "(RC)"),
        ("e6", "(LE)"),
        ("m6", "(FE)"),
        ("u6", "(RE)"),
        ("h8", "D"),
        ("r8", "D"),
    ] {
        assert_eq!(at(s).as_deref(), Some(w), "{s}");
    }
    assert_eq!(at("m8"), None);
    // Gote is the 180° rotation: (file, rank) → (mirror file, 26 − rank).
    for (s, w) in [
        ("m25", "k"),
        ("y25", "l"),
        ("n25", "(dv)"),
        ("l25", "(ds)"),
        ("a21", "(rc)"),
        ("y21", "(lc)"),
        ("r18", "d"),
        ("h18", "d"),
    ] {
        assert_eq!(at(s).as_deref(), Some(w), "{s}");
    }
}

#[test]
fn spec_m1_is_written_13y() {
    let v = Taishin::new();
    let pos = position(&v, &[("m1", "K"), ("a25", "k")], "b");
    assert_eq!(v.format_position(&pos).split('/').next_back().unwrap(), "12K12 b - 1");
    assert_eq!(henka_api::notation::cell_name(v.geometry(), sq("m1")), "13y");
    assert_eq!(henka_api::notation::cell_name(v.geometry(), sq("a25")), "25a");
}

#[test]
fn perft_from_the_start() {
    let v = Taishin::new();
    let start = v.start_position();
    for depth in 1..=3 {
        println!("perft({depth}) = {}", v.perft(&start, depth).unwrap());
    }
}
