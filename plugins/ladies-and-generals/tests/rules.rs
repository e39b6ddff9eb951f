//! One constructed position per rule: promotion (§7), ranker switches, drops (§8), check and
//! the end of the game (§9). Move and cell strings are never written: cells come from the
//! geometry and moves are compared as values.

mod common;

use common::{at, drops_of, endings, legal, legal_from, position, targets, ty, types, variant};
use henka_api::{EndReason, Game, Move, Outcome, Side, Variant};

/// The Emperors on fz1 and fz9, out of the way, and `pieces`.
fn board(pieces: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    [("fz1", "K"), ("fz9", "k")].iter().chain(pieces).copied().collect()
}

#[test]
fn promotion_is_offered_entering_within_and_leaving_the_zone() {
    let v = variant();
    let pos = position(&board(&[("cw5", "R"), ("av7", "R")]), Side::First, &[]);
    let from_centre = legal_from(&v, &pos, "cw5");
    // 18 cells, of which cw7, cw8, cw9 are in the zone: 3 moves more.
    assert_eq!(from_centre.len(), 21);
    assert_eq!(endings(&from_centre, "cw6"), types(&["R"]));
    assert_eq!(endings(&from_centre, "cw7"), types(&["R", "+R"]));
    assert_eq!(endings(&from_centre, "bw5"), types(&["R"]));
    let in_zone = legal_from(&v, &pos, "av7");
    assert_eq!(endings(&in_zone, "av8"), types(&["R", "+R"]), "within");
    assert_eq!(endings(&in_zone, "av3"), types(&["R", "+R"]), "leaving");
    assert_eq!(endings(&in_zone, "bv7"), types(&["R", "+R"]), "sideways in the zone");
}

#[test]
fn the_second_players_zone_is_ranks_1_to_3() {
    let v = variant();
    let pos = position(&board(&[("cw5", "r")]), Side::Second, &[]);
    let moves = legal_from(&v, &pos, "cw5");
    assert_eq!(endings(&moves, "cw4"), types(&["r"]));
    assert_eq!(endings(&moves, "cw3"), types(&["r", "+r"]));
    assert_eq!(endings(&moves, "cw7"), types(&["r"]));
}

#[test]
fn a_princeling_must_promote_on_the_far_rank_only() {
    let v = variant();
    let pos = position(&board(&[("cv8", "P"), ("cx6", "P")]), Side::First, &[]);
    let last = legal_from(&v, &pos, "cv8");
    assert_eq!(targets(&last).len(), 5);
    for to in ["cv9", "bv9", "dv9", "cu9", "cw9"] {
        assert_eq!(endings(&last, to), types(&["+P"]), "{to}");
    }
    assert_eq!(endings(&legal_from(&v, &pos, "cx6"), "cx7"), types(&["P", "+P"]));
}

#[test]
fn rankers_and_their_generals_switch_either_way_at_the_end_of_a_zone_move() {
    let v = variant();
    let pos =
        position(&board(&[("cw5", "L"), ("av7", "+L"), ("bu5", "+L"), ("cx4", "X"), ("dy7", "+X")]), Side::First, &[]);
    assert_eq!(endings(&legal_from(&v, &pos, "cw5"), "cw7"), types(&["L", "+L"]));
    assert_eq!(endings(&legal_from(&v, &pos, "cw5"), "cw6"), types(&["L"]));
    assert_eq!(endings(&legal_from(&v, &pos, "av7"), "av8"), types(&["+L", "L"]), "within");
    assert_eq!(endings(&legal_from(&v, &pos, "av7"), "av6"), types(&["+L", "L"]), "leaving");
    assert_eq!(endings(&legal_from(&v, &pos, "bu5"), "bu6"), types(&["+L"]), "outside");
    // The Bishoranker's forward SD slide from cx4 reaches dx5, ex6, fx7.
    assert_eq!(endings(&legal_from(&v, &pos, "cx4"), "ex6"), types(&["X"]));
    assert_eq!(endings(&legal_from(&v, &pos, "cx4"), "fx7"), types(&["X", "+X"]));
    assert_eq!(endings(&legal_from(&v, &pos, "dy7"), "ey8"), types(&["+X", "X"]));
}

#[test]
fn other_types_never_change() {
    let v = variant();
    let pieces = [("cw5", "E"), ("av6", "Y"), ("bu6", "C"), ("ex6", "F"), ("dy7", "+R")];
    let pos = position(&board(&pieces), Side::First, &[]);
    for (cell, token) in pieces {
        let moves = legal_from(&v, &pos, cell);
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|m| m.piece == ty(token)), "{token}");
    }
}

#[test]
fn captures_go_to_hand_in_array_form() {
    let v = variant();
    let pos = position(&board(&[("cw5", "R"), ("cw6", "+l"), ("bw5", "+p"), ("dw5", "+b")]), Side::First, &[]);
    for (to, token) in [("cw6", "L"), ("bw5", "P"), ("dw5", "B")] {
        let mut after = pos.clone();
        v.play(&mut after, Move::board(at("cw5"), at(to), ty("R"))).unwrap();
        assert_eq!(after.hand(Side::First, ty(token)), 1, "{to}");
        assert!(v.info().hand_types.contains(&ty(token)));
    }
}

#[test]
fn drops_go_to_every_empty_cell_unpromoted() {
    let v = variant();
    let pos = position(&board(&[]), Side::First, &[("R", 1), ("L", 2)]);
    let moves = legal(&v, &pos);
    // The Emperor's 7 steps from the corner fz1, and each type on each of 322 empty cells.
    assert_eq!(moves.len(), 7 + 2 * 322);
    let rook_drops = drops_of(&v, &pos, "R");
    assert!(rook_drops.iter().all(|m| m.piece == ty("R")));
    assert!(targets(&rook_drops).contains(&at("cw9")), "in the zone, still unpromoted");
    // Playing a drop takes the piece from hand.
    let mut after = pos.clone();
    v.play(&mut after, Move::drop(ty("L"), at("cw9"))).unwrap();
    assert_eq!(after.hand(Side::First, ty("L")), 1);
    assert_eq!(after.piece_at(at("cw9")).map(|p| p.ty), Some(ty("L")));
}

#[test]
fn a_pinned_piece_moves_only_along_its_line() {
    let v = variant();
    // The Rook on cw3 stands between its Emperor on cw1 and the enemy Rook on cw7.
    let pos = position(&[("cw1", "K"), ("cw3", "R"), ("cw7", "r"), ("fz9", "k")], Side::First, &[]);
    assert_eq!(targets(&legal_from(&v, &pos, "cw3")), ["cw2", "cw4", "cw5", "cw6", "cw7"].map(at).into());
    // A Bishop pinned on a triagonal (au1, bv2, … dx4) has no move: it slides only on SDs.
    let pos = position(&[("au1", "K"), ("bv2", "B"), ("dx4", "u"), ("fz9", "k")], Side::First, &[]);
    assert!(legal_from(&v, &pos, "bv2").is_empty());
    // The Unicorn pinned on the same line may slide along it, up to the pinner.
    let pos = position(&[("au1", "K"), ("bv2", "U"), ("dx4", "u"), ("fz9", "k")], Side::First, &[]);
    assert_eq!(targets(&legal_from(&v, &pos, "bv2")), ["cw3", "dx4"].map(at).into());
}

#[test]
fn in_check_only_moves_that_end_the_check_are_legal() {
    let v = variant();
    // The Rook on cw7 checks the Emperor on cw1 along the file. A Princeling in hand may block
    // on cw2 … cw6; the Queen on aw3 reaches the line only at cw3 (along the filestack line)
    // and cw5 (forward SD through bw4).
    let pos = position(&[("cw1", "K"), ("aw3", "Q"), ("cw7", "r"), ("fz9", "k")], Side::First, &[("P", 1)]);
    assert!(v.in_check(&pos));
    assert_eq!(targets(&drops_of(&v, &pos, "P")), ["cw2", "cw3", "cw4", "cw5", "cw6"].map(at).into());
    assert_eq!(targets(&legal_from(&v, &pos, "aw3")), ["cw3", "cw5"].map(at).into());
    // The Emperor may go to its 17 neighbours (8 on rank 1, 9 on rank 2) but cw2, on the file.
    let emperor = targets(&legal_from(&v, &pos, "cw1"));
    assert!(!emperor.contains(&at("cw2")));
    assert_eq!(emperor.len(), 16);
    // Double check, the Bishop on ew3 checking through dw2 too: only the Emperor moves.
    let pos =
        position(&[("cw1", "K"), ("aw3", "Q"), ("cw7", "r"), ("ew3", "b"), ("fz9", "k")], Side::First, &[("P", 1)]);
    let moves = legal(&v, &pos);
    assert!(!moves.is_empty() && moves.iter().all(|m| m.from == at("cw1")));
}

#[test]
fn checkmate_wins_for_the_checker() {
    let v = variant();
    // Four Rooks cover the Emperor's corner au1 and its 7 neighbours, the one on au5 checking.
    let pos = position(
        &[("au1", "K"), ("au5", "r"), ("bu5", "r"), ("av5", "r"), ("bv5", "r"), ("fz9", "k")],
        Side::First,
        &[],
    );
    assert!(legal(&v, &pos).is_empty());
    assert_eq!(v.outcome(&pos, &[]).unwrap(), Some(Outcome::win(Side::Second, EndReason::Checkmate)));
}

#[test]
fn stalemate_is_a_draw() {
    let v = variant();
    // Three Rooks cover bu*, av*, bv*; the Bishop on cu4 covers au2 along cu4-bu3-au2 but not au1.
    let pos = position(
        &[("au1", "K"), ("cu4", "b"), ("bu5", "r"), ("av5", "r"), ("bv5", "r"), ("fz9", "k")],
        Side::First,
        &[],
    );
    assert!(!v.in_check(&pos));
    assert!(legal(&v, &pos).is_empty());
    assert_eq!(v.outcome(&pos, &[]).unwrap(), Some(Outcome::draw(EndReason::Stalemate)));
}

/// Plays `cycle` (pairs of cells, each a board move keeping its type) `times` times.
fn replay(v: &impl Variant, game: &mut Game, cycle: &[(&str, &str)], times: usize) {
    for _ in 0..times {
        for &(from, to) in cycle {
            let piece = game.position().piece_at(at(from)).expect("a piece to move").ty;
            game.play(v, Move::board(at(from), at(to), piece)).unwrap();
        }
    }
}

#[test]
fn the_fourth_occurrence_of_a_position_is_a_draw() {
    let v = variant();
    let mut game = Game::new(position(&[("au1", "K"), ("fz9", "k")], Side::First, &[]));
    let shuffle = [("au1", "bu1"), ("fz9", "ez9"), ("bu1", "au1"), ("ez9", "fz9")];
    replay(&v, &mut game, &shuffle, 2);
    assert_eq!(game.outcome(&v).unwrap(), None, "the third occurrence");
    replay(&v, &mut game, &shuffle, 1);
    assert_eq!(game.outcome(&v).unwrap(), Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let v = variant();
    // The Rook checks along the fz and ez files in turn; the Emperor steps between fz9 and ez9.
    let mut game = Game::new(position(&[("au1", "K"), ("ez5", "R"), ("fz9", "k")], Side::First, &[]));
    let checks = [("ez5", "fz5"), ("fz9", "ez9"), ("fz5", "ez5"), ("ez9", "fz9")];
    replay(&v, &mut game, &checks, 3);
    assert_eq!(game.outcome(&v).unwrap(), Some(Outcome::win(Side::Second, EndReason::PerpetualCheck)));
}

#[test]
fn a_side_may_have_only_one_emperor() {
    let v = variant();
    let two = v.start_position();
    let mut text = v.format_position(&two);
    // Replace the first player's Empress token in level w (…ZAEKAZ) with a second Emperor.
    text = text.replacen("ZAEKAZ", "ZAKKAZ", 1);
    assert!(v.parse_position(&text).is_err());
}
