//! Property tests on random playouts of the bundled variants: at every ply no panic, the position
//! string round-trips, the incremental hash equals a fresh one, no legal move leaves the mover's
//! king attacked, pieces are conserved (captures go to hand; not in the gallery of open rules,
//! whose captures leave the game), make/unmake perft agrees with copy-make perft, the legal
//! captures (the AI's quiescence search) are exactly the legal moves that take a piece, and a
//! check told without playing the move is the check its playing gives.

mod common;

use std::sync::Arc;

use henka::catalog;
use henka_api::model::position::RULE_COUNTERS;
use henka_api::variant::generic_perft;
use henka_api::{Move, Position, Side, Variant};
use proptest::prelude::*;

fn variant(name: &str) -> Arc<dyn Variant> {
    catalog::find(name, &[]).expect("bundled").load().unwrap_or_else(|e| panic!("{e}")).variant
}

fn material(v: &dyn Variant, pos: &Position) -> usize {
    let hands: usize =
        Side::BOTH.iter().flat_map(|&s| v.info().hand_types.iter().map(move |&t| pos.hand(s, t) as usize)).sum();
    pos.cells().iter().flatten().count() + hands
}

/// `Variant::legal_captures` (the kit's own path, which skips quiet moves before judging them)
/// gives the legal moves that take a piece, no more and no fewer.
fn captures_agree(v: &dyn Variant, pos: &Position, moves: &[Move]) -> Result<(), TestCaseError> {
    let mut expected: Vec<Move> = moves.iter().copied().filter(|&mv| pos.is_capture(mv)).collect();
    let mut captures = Vec::new();
    v.legal_captures(pos, &mut captures).unwrap();
    expected.sort();
    captures.sort();
    prop_assert_eq!(captures, expected, "legal captures at {}", v.format_position(pos));
    Ok(())
}

/// Where a variant says without playing a move whether it gives check
/// (`Variant::gives_check_unplayed`, the kit's answer for drops), playing it says the same.
fn checks_agree(v: &dyn Variant, pos: &Position, moves: &[Move]) -> Result<(), TestCaseError> {
    for &mv in moves {
        if let Some(gives) = v.gives_check_unplayed(pos, mv) {
            let mut next = pos.clone();
            v.play(&mut next, mv).unwrap();
            let played = next.side_to_move() != pos.side_to_move() && v.in_check(&next);
            prop_assert_eq!(gives, played, "{} at {}", v.format_move(pos, mv), v.format_position(pos));
        }
    }
    Ok(())
}

fn playout(name: &str, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    playout_checking(name, seed, plies, &|_, _, _| Ok(()))
}

/// The gallery's variants have no drops: material only falls.
fn gallery_playout(name: &str, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let before = std::cell::Cell::new(usize::MAX);
    playout_checking(name, seed, plies, &move |v, pos, _| {
        let now = material(v, pos);
        prop_assert!(now <= before.get(), "material grew at {}", v.format_position(pos));
        before.set(now);
        Ok(())
    })
}

/// Checks a variant's own invariants at every ply, given the position and its legal moves.
type PlyCheck = dyn Fn(&dyn Variant, &Position, &[Move]) -> Result<(), TestCaseError>;

fn playout_checking(name: &str, seed: u64, plies: usize, extra: &PlyCheck) -> Result<(), TestCaseError> {
    let v = variant(name);
    let v: &dyn Variant = v.as_ref();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = v.start_position();
    let total = material(v, &pos);
    let conserves = !v.info().hand_types.is_empty();
    let mut moves: Vec<Move> = Vec::new();
    for ply in 0..plies {
        let text = v.format_position(&pos);
        let back = v.parse_position(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&back, &pos, "round trip of {}", text);
        prop_assert_eq!(pos.hash(), pos.fresh_hash(), "hash at {}", text);
        if conserves {
            prop_assert_eq!(material(v, &pos), total, "material at {}", text);
        }
        v.legal_moves(&pos, &mut moves).unwrap();
        captures_agree(v, &pos, &moves)?;
        checks_agree(v, &pos, &moves)?;
        extra(v, &pos, &moves)?;
        if moves.is_empty() {
            break;
        }
        let side = pos.side_to_move();
        for &mv in &moves {
            let mut next = pos.clone();
            v.play(&mut next, mv).unwrap();
            next.set_side_to_move(side);
            prop_assert!(!v.in_check(&next), "{} leaves the king attacked in {}", v.format_move(&pos, mv), text);
        }
        if ply % 16 == 0 {
            prop_assert_eq!(v.perft(&pos, 2).unwrap(), generic_perft(v, &pos, 2).unwrap(), "perft at {}", text);
        }
        let mv = moves[rng.usize(..moves.len())];
        v.play(&mut pos, mv).unwrap();
    }
    Ok(())
}

/// Taishin: no drops and at most two captures a move, so material only falls, by 0–2 a ply; the
/// check invariant does not apply (royals may stay attacked). Moves round-trip through notation,
/// the pass counters never pass 3, and the kit's perft agrees with the generic one.
fn taishin_playout(seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let v = variant("taishin");
    let v: &dyn Variant = v.as_ref();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = v.start_position();
    let mut moves: Vec<Move> = Vec::new();
    for ply in 0..plies {
        let text = v.format_position(&pos);
        prop_assert_eq!(&v.parse_position(&text).unwrap(), &pos, "round trip of {}", text);
        prop_assert_eq!(pos.hash(), pos.fresh_hash(), "hash at {}", text);
        prop_assert!(pos.counter(0) <= 3 && pos.counter(1) <= 3, "pass counters at {}", text);
        v.legal_moves(&pos, &mut moves).unwrap();
        captures_agree(v, &pos, &moves)?;
        if moves.is_empty() {
            break;
        }
        for &mv in &moves {
            let written = v.format_move(&pos, mv);
            prop_assert_eq!(v.parse_move(&pos, &written).unwrap(), mv, "{} at {}", written, text);
        }
        if ply % 32 == 0 {
            prop_assert_eq!(v.perft(&pos, 2).unwrap(), generic_perft(v, &pos, 2).unwrap(), "perft at {}", text);
        }
        play_taking_at_most_two(v, &mut pos, &moves, &mut rng)?;
    }
    Ok(())
}

/// Plays one of `moves` at random in a variant without drops where a move takes at most two
/// pieces (Taishin, Chu shogi): material falls by 0–2.
fn play_taking_at_most_two(
    v: &dyn Variant,
    pos: &mut Position,
    moves: &[Move],
    rng: &mut fastrand::Rng,
) -> Result<(), TestCaseError> {
    let before = material(v, pos);
    let mv = moves[rng.usize(..moves.len())];
    v.play(pos, mv).unwrap();
    let after = material(v, pos);
    prop_assert!(after <= before && before - after <= 2, "{} took {} pieces", v.format_move(pos, mv), before - after);
    Ok(())
}

/// Chu shogi: no drops and at most two captures a move; royals may stay attacked (the check
/// invariant does not apply). The script's counter 0 (the cell of a Lion just taken by a non-Lion,
/// docs/rules/chu-shogi.md §7.2) stays a cell code and round-trips with the position; half way,
/// moves round-trip through notation and the kit's perft (with the move effect) agrees with the
/// generic one (only there: Chu's hooks make both slow in debug).
fn chu_playout(seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let v = variant("chu-shogi");
    let v: &dyn Variant = v.as_ref();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = v.start_position();
    let mut moves: Vec<Move> = Vec::new();
    for ply in 0..plies {
        let text = v.format_position(&pos);
        prop_assert_eq!(&v.parse_position(&text).unwrap(), &pos, "round trip of {}", text);
        prop_assert_eq!(pos.hash(), pos.fresh_hash(), "hash at {}", text);
        prop_assert!(pos.counter(RULE_COUNTERS) <= 144, "lion-capture counter at {}", text);
        v.legal_moves(&pos, &mut moves).unwrap();
        captures_agree(v, &pos, &moves)?;
        if moves.is_empty() {
            break;
        }
        if ply == plies / 2 {
            for &mv in &moves {
                let written = v.format_move(&pos, mv);
                prop_assert_eq!(v.parse_move(&pos, &written).unwrap(), mv, "{} at {}", written, text);
            }
            prop_assert_eq!(v.perft(&pos, 2).unwrap(), generic_perft(v, &pos, 2).unwrap(), "perft at {}", text);
        }
        play_taking_at_most_two(v, &mut pos, &moves, &mut rng)?;
    }
    Ok(())
}

#[test]
fn the_kit_tells_a_drops_check_without_playing_it() {
    let v = variant("shogi");
    let pos = v.parse_position("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
    let told = |s: &str| v.gives_check_unplayed(&pos, v.parse_move(&pos, s).unwrap());
    assert_eq!(told("G*5b"), Some(true));
    assert_eq!(told("G*4b"), Some(true));
    assert_eq!(told("G*5c"), Some(false));
    assert_eq!(told("5i5h"), Some(false));
    // Board moves: a direct check, a discovered one (the Silver leaves the Rook's file), a
    // move that keeps the line closed, and a check by a piece moving along its own line.
    let pos = v.parse_position("4k4/9/9/9/4S4/9/9/4R4/K8 b - 1").unwrap();
    let told = |s: &str| v.gives_check_unplayed(&pos, v.parse_move(&pos, s).unwrap());
    assert_eq!(told("5e4d"), Some(true), "discovered");
    assert_eq!(told("5e5d"), Some(false), "still in the way");
    assert_eq!(told("5h6h"), Some(false));
    let pos = v.parse_position("4k4/9/9/9/9/9/9/4R4/K8 b - 1").unwrap();
    let told = |s: &str| v.gives_check_unplayed(&pos, v.parse_move(&pos, s).unwrap());
    assert_eq!(told("5h5c"), Some(true), "along its own line");
    assert_eq!(told("5h5c+"), Some(true), "promoting");
    assert_eq!(told("5h4h"), Some(false));
    let pos = v.parse_position("3k5/9/9/9/9/9/9/4R4/K8 b - 1").unwrap();
    let told = |s: &str| v.gives_check_unplayed(&pos, v.parse_move(&pos, s).unwrap());
    assert_eq!(told("5h5b+"), Some(true), "a Dragon steps next to the King");
    assert_eq!(told("5h5b"), Some(false), "an unpromoted Rook does not");
    // A move effect may change the board after the drop: the kit does not guess.
    let src = r#"let v = variant(#{ name: "Effects", board: [5, 5] });
v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
v.piece(#{ name: "Rook", token: "R", moves: "R" });
v.drops(true);
v.setup("4k/5/5/5/K4 b R 1");
v.after_move([], |fx| ());
v
"#;
    let effects = henka::script::load_source("effects.rhai", src).unwrap().variant;
    let pos = effects.start_position();
    let mut moves = Vec::new();
    effects.legal_moves(&pos, &mut moves).unwrap();
    let drops: Vec<Move> = moves.iter().copied().filter(|m| m.kind == henka_api::MoveKind::Drop).collect();
    assert!(!drops.is_empty());
    assert!(drops.iter().all(|&mv| effects.gives_check_unplayed(&pos, mv).is_none()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn shogi_playouts(seed in any::<u64>()) { playout("shogi", seed, 120)?; }

    #[test]
    fn okisaki_playouts(seed in any::<u64>()) { playout("okisaki", seed, 120)?; }

    #[test]
    fn ogi_playouts(seed in any::<u64>()) { playout("ogi", seed, 120)?; }

    #[test]
    fn kyoto_playouts(seed in any::<u64>()) { playout("kyoto", seed, 120)?; }

    /// Callbacks and effects: the kit's make/unmake perft (with effects, copy-make) agrees with
    /// perft through legal_moves and play, and no move leaves the mover's King attacked.
    #[test]
    fn gallery_playouts(seed in any::<u64>()) {
        for name in ["blast-shogi", "crowd-shogi", "double-move-shogi", "push-shogi", "swap-shogi"] {
            gallery_playout(name, seed, 80)?;
        }
    }

    /// The first check ends the game: a position that still has moves has no side in check, and
    /// a position without moves after a check is won by the checking side.
    #[test]
    fn check_shogi_playouts(seed in any::<u64>()) {
        playout_checking("check-shogi", seed, 120, &|v, pos, moves| {
            if moves.is_empty() {
                let o = v.outcome(pos, &[]).unwrap().expect("no moves: decided");
                if v.in_check(pos) {
                    prop_assert_eq!(o.winner, Some(pos.side_to_move().opponent()));
                }
            } else {
                prop_assert!(!v.in_check(pos), "play went on after a check in {}", v.format_position(pos));
            }
            Ok(())
        })?;
    }
}

/// Ladies and Generals: every move round-trips through notation, and the four restrictions hold
/// for both sides in every position reached (counted here from coordinates: files are (file,
/// level) lines, Bishop bindings the parity of file + rank + level, Unicorn bindings a parity
/// triple with its complement).
fn ladies_and_generals_invariants(v: &dyn Variant, pos: &Position, moves: &[Move]) -> Result<(), TestCaseError> {
    for &mv in moves {
        let written = v.format_move(pos, mv);
        prop_assert_eq!(v.parse_move(pos, &written).unwrap(), mv, "{}", written);
    }
    let g = v.geometry();
    let token = |ty: u8| v.info().pieces[ty as usize].written();
    // (side, token, file or binding) → count.
    type Group = (Side, String, (i32, i32, i32));
    let mut groups: std::collections::BTreeMap<Group, usize> = Default::default();
    for c in g.cells() {
        let Some(p) = pos.piece_at(c) else { continue };
        let (f, r, l) = g.coords(c);
        let key = match token(p.ty).as_str() {
            "P" | "L" => (f, l, 0),
            "B" => ((f + r + l) % 2, 0, 0),
            "U" if f % 2 == 0 => (0, r % 2, l % 2),
            "U" => (0, 1 - r % 2, 1 - l % 2),
            _ => continue,
        };
        *groups.entry((p.side, token(p.ty), key)).or_default() += 1;
    }
    for ((side, t, key), n) in groups {
        let most = if t == "L" { 4 } else { 2 };
        prop_assert!(n <= most, "{:?} has {} {} on {:?} in {}", side, n, t, key, v.format_position(pos));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn ladies_and_generals_playouts(seed in any::<u64>()) {
        playout_checking("ladies-and-generals", seed, 200, &ladies_and_generals_invariants)?;
    }

    #[test]
    fn taishin_playouts(seed in any::<u64>()) { taishin_playout(seed, 300)?; }

    #[test]
    fn chu_shogi_playouts(seed in any::<u64>()) { chu_playout(seed, 200)?; }
}
