//! Property tests on random playouts of the bundled variants: at every ply no panic, the position
//! string round-trips, the incremental hash equals a fresh one, no legal move leaves the mover's
//! king attacked, pieces are conserved (captures go to hand), and make/unmake perft agrees with
//! copy-make perft.

use std::sync::Arc;

use henka::catalog;
use henka_api::{Move, Position, Side, Variant, perft};
use proptest::prelude::*;

fn variant(name: &str) -> Arc<dyn Variant> {
    catalog::find(name, &[]).expect("bundled").load().unwrap_or_else(|e| panic!("{e}")).variant
}

fn material(v: &dyn Variant, pos: &Position) -> usize {
    let hands: usize =
        Side::BOTH.iter().flat_map(|&s| v.info().hand_types.iter().map(move |&t| pos.hand(s, t) as usize)).sum();
    pos.cells().iter().flatten().count() + hands
}

fn playout(name: &str, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let v = variant(name);
    let v: &dyn Variant = v.as_ref();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = v.start_position();
    let total = material(v, &pos);
    let mut moves: Vec<Move> = Vec::new();
    for ply in 0..plies {
        let text = v.format_position(&pos);
        let back = v.parse_position(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&back, &pos, "round trip of {}", text);
        prop_assert_eq!(pos.hash(), pos.fresh_hash(), "hash at {}", text);
        prop_assert_eq!(material(v, &pos), total, "material at {}", text);
        v.legal_moves(&pos, &mut moves).unwrap();
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
            prop_assert_eq!(v.perft(&pos, 2).unwrap(), perft::generic_perft(v, &pos, 2).unwrap(), "perft at {}", text);
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
        if moves.is_empty() {
            break;
        }
        for &mv in &moves {
            let written = v.format_move(&pos, mv);
            prop_assert_eq!(v.parse_move(&pos, &written).unwrap(), mv, "{} at {}", written, text);
        }
        if ply % 32 == 0 {
            prop_assert_eq!(v.perft(&pos, 2).unwrap(), perft::generic_perft(v, &pos, 2).unwrap(), "perft at {}", text);
        }
        let before = material(v, &pos);
        let mv = moves[rng.usize(..moves.len())];
        v.play(&mut pos, mv).unwrap();
        let after = material(v, &pos);
        prop_assert!(
            after <= before && before - after <= 2,
            "{} took {} pieces",
            v.format_move(&pos, mv),
            before - after
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn shogi_playouts(seed in any::<u64>()) { playout("shogi", seed, 120)?; }

    #[test]
    fn okisaki_playouts(seed in any::<u64>()) { playout("okisaki", seed, 120)?; }

    #[test]
    fn ogi_playouts(seed in any::<u64>()) { playout("ogi", seed, 120)?; }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn taishin_playouts(seed in any::<u64>()) { taishin_playout(seed, 300)?; }
}
