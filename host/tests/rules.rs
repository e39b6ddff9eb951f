//! Scenario tests for the rules the kit switches on by data, through the bundled scripts.

mod common;

use std::sync::Arc;

use henka::catalog;
use henka_api::{EndReason, Game, Outcome, Side, Variant};

fn variant(name: &str) -> Arc<dyn Variant> {
    catalog::find(name, &[]).expect("bundled").load().unwrap_or_else(|e| panic!("{e}")).variant
}

fn game(v: &dyn Variant, position: &str, moves: &[&str]) -> Game {
    let mut g = Game::new(v.parse_position(position).unwrap());
    for m in moves {
        g.play_str(v, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

#[test]
fn checkmate_ends_the_game_for_the_mated_side() {
    let v = variant("shogi");
    // White's king on 1a; Black's gold on 1b, protected by the pawn on 1c, covers 2a and 2b.
    let g = game(v.as_ref(), "8k/8G/8P/9/9/9/9/9/K8 w - 1", &[]);
    assert_eq!(g.outcome(v.as_ref()).unwrap(), Some(Outcome::win(Side::First, EndReason::Checkmate)));
}

#[test]
fn fourth_repetition_is_a_draw() {
    let v = variant("shogi");
    let shuffle = ["5i4h", "5a4b", "4h5i", "4b5a"];
    let moves: Vec<&str> = shuffle.iter().cycle().take(12).copied().collect();
    let start = v.format_position(&v.start_position());
    let g = game(v.as_ref(), &start, &moves[..11]);
    assert_eq!(g.outcome(v.as_ref()).unwrap(), None, "the third repetition is not yet the end");
    let g = game(v.as_ref(), &start, &moves);
    assert_eq!(g.outcome(v.as_ref()).unwrap(), Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let v = variant("shogi");
    // Black's rook checks White's king along file 1, then file 2, and back, forever.
    let cycle = ["2h1h", "1a2a", "1h2h", "2a1a"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let g = game(v.as_ref(), "8k/9/9/9/9/9/9/7R1/K8 b - 1", &moves);
    assert_eq!(g.outcome(v.as_ref()).unwrap(), Some(Outcome::win(Side::Second, EndReason::PerpetualCheck)));
}

#[test]
fn okisaki_baring_wins_when_the_last_other_piece_falls() {
    let v = variant("okisaki");
    // White has only the King and one pawn on 5d; Black's rook takes it.
    let g = game(v.as_ref(), "9k/10/10/5p4/10/10/10/5R4/10/K9 b - 1", &["5h5d"]);
    assert_eq!(g.outcome(v.as_ref()).unwrap(), Some(Outcome::win(Side::First, EndReason::Baring)));
    // A piece in hand still counts as White's own: no baring (docs/rules/okisaki.md §6, decision).
    let g = game(v.as_ref(), "9k/10/10/5p4/10/10/10/5R4/10/K9 b g 1", &["5h5d"]);
    assert_eq!(g.outcome(v.as_ref()).unwrap(), None);
}

#[test]
fn okisaki_lance_and_knight_may_stay_unpromoted_on_the_last_rank() {
    let v = variant("okisaki");
    let g = game(v.as_ref(), "k9/5L4/10/10/3N6/10/10/10/10/9K b - 1", &[]);
    let moves = henka::cli::sorted_moves(v.as_ref(), &g).unwrap();
    for m in ["5b5a", "5b5a+", "5b5j", "7e6c", "7e6c+", "7e8g"] {
        assert!(moves.contains(&m.to_string()), "{m} missing from {moves:?}");
    }
    // A pawn must promote on the last rank.
    let g = game(v.as_ref(), "k9/5P4/10/10/10/10/10/10/10/9K b - 1", &[]);
    let moves = henka::cli::sorted_moves(v.as_ref(), &g).unwrap();
    assert!(moves.contains(&"5b5a+".to_string()) && !moves.contains(&"5b5a".to_string()));
}

#[test]
fn ogi_promotion_is_mandatory_on_every_move_touching_the_zone() {
    let v = variant("ogi");
    // A silver entering, moving within and leaving the zone must promote each time.
    let g = game(v.as_ref(), "k7/8/4S3/3S4/8/8/8/7K b - 1", &[]);
    let moves = henka::cli::sorted_moves(v.as_ref(), &g).unwrap();
    for m in ["4c4b+", "4c3d+", "5d5c+"] {
        assert!(moves.contains(&m.to_string()), "{m} missing from {moves:?}");
    }
    for m in ["4c4b", "4c3d", "5d5c"] {
        assert!(!moves.contains(&m.to_string()), "{m} should have to promote");
    }
    // Outside the zone nothing promotes.
    assert!(moves.contains(&"5d4e".to_string()) && !moves.contains(&"5d4e+".to_string()));
}

#[test]
fn script_hooks_filter_moves_and_end_games() {
    let path = format!("{}/tests/scripts/hooks.rhai", env!("CARGO_MANIFEST_DIR"));
    let v = catalog::find(&path, &[]).unwrap().load().unwrap_or_else(|e| panic!("{e}")).variant;
    let v: &dyn Variant = v.as_ref();
    let mut g = Game::new(v.start_position());
    let first = henka::cli::sorted_moves(v, &g).unwrap();
    assert!(first.iter().all(|m| !m.contains('*')), "drops are filtered on move 1: {first:?}");
    for m in ["5e5d", "1a1b"] {
        g.play_str(v, m).unwrap();
    }
    assert!(henka::cli::sorted_moves(v, &g).unwrap().iter().any(|m| m.contains('*')), "drops allowed later");
    for m in ["5d5c", "1b1c", "5c5b", "1c1d", "5b4a"] {
        g.play_str(v, m).unwrap();
    }
    let o = g.outcome(v).unwrap().expect("the hook ends the game");
    assert_eq!(o.winner, Some(Side::First));
    assert_eq!(o.reason, EndReason::Rule("King reached the far rank".into()));
}
