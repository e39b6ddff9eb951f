//! Random games with invariants at every ply: position strings and hashes round-trip, no cube is
//! created or lost, support holds as the spec defines it (checked here by an independent reading
//! of docs/ki-shogi.md: only the side to move's cubes under grace may stand unsupported after a
//! turn), no legal move leaves the mover's Gyoku attacked, compass notation reads back, and the
//! engine's copy-make perft equals perft through the host's `Position` interface.

mod common;

use common::legal;
use henka_api::model::field::GRACE;
use henka_api::variant::generic_perft;
use henka_api::{EndReason, Position, Side, Variant};
use ki_shogi::KiShogi;
use proptest::prelude::*;

const GYOKU: u8 = 0;
const KI_FACES: std::ops::RangeInclusive<u8> = 13..=18;

fn chebyshev(a: usize, b: usize) -> usize {
    let (ax, ay, bx, by) = (a % 15, a / 15, b % 15, b / 15);
    ax.abs_diff(bx).max(ay.abs_diff(by))
}

/// The unsupported cubes' cells, as docs/ki-shogi.md defines support.
fn unsupported(pos: &Position) -> Vec<usize> {
    let cubes: Vec<(usize, u8, bool)> =
        (pos.cells().iter().enumerate()).filter_map(|(c, p)| p.map(|p| (c, p.ty, p.flags & GRACE != 0))).collect();
    let gyoku: Vec<usize> = cubes.iter().filter(|q| q.1 == GYOKU).map(|q| q.0).collect();
    let is_ki = |ty: u8| KI_FACES.contains(&ty);
    // Supported Ki: within 2 of a Gyoku, or next to a supported Ki, grown from the Gyoku out.
    let mut ki: Vec<usize> =
        cubes.iter().filter(|q| is_ki(q.1) && gyoku.iter().any(|&g| chebyshev(g, q.0) <= 2)).map(|q| q.0).collect();
    loop {
        let more: Vec<usize> = (cubes.iter())
            .filter(|q| is_ki(q.1) && !ki.contains(&q.0) && ki.iter().any(|&k| chebyshev(k, q.0) == 1))
            .map(|q| q.0)
            .collect();
        if more.is_empty() {
            break;
        }
        ki.extend(more);
    }
    let active: Vec<usize> = cubes.iter().filter(|q| is_ki(q.1) && (q.2 || ki.contains(&q.0))).map(|q| q.0).collect();
    (cubes.iter())
        .filter(|&&(c, ty, _)| {
            let supported = ty == GYOKU
                || if is_ki(ty) { ki.contains(&c) } else { gyoku.iter().chain(&active).any(|&s| chebyshev(s, c) == 1) };
            !supported
        })
        .map(|q| q.0)
        .collect()
}

/// Cubes on the field and in both hands: always the same number.
fn cubes(v: &KiShogi, pos: &Position) -> usize {
    let hands: usize =
        Side::BOTH.iter().flat_map(|&s| v.info().hand_types.iter().map(move |&t| pos.hand(s, t) as usize)).sum();
    pos.cells().iter().flatten().count() + hands
}

fn playout(v: &KiShogi, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = v.start_position();
    let total = cubes(v, &pos);
    for ply in 0..plies {
        let text = v.format_position(&pos);
        prop_assert_eq!(&v.parse_position(&text).unwrap(), &pos, "round trip of {}", text);
        prop_assert_eq!(pos.hash(), pos.fresh_hash(), "hash at {}", text);
        prop_assert_eq!(cubes(v, &pos), total, "cubes at {}", text);
        let stm = pos.side_to_move();
        for c in unsupported(&pos) {
            let p = pos.piece_at(c as u16).unwrap();
            prop_assert!(p.side == stm && p.flags & GRACE != 0, "unsupported {:?} without grace in {}", p, text);
        }
        for p in pos.cells().iter().flatten().filter(|p| p.flags & GRACE != 0) {
            prop_assert_eq!(p.side, stm, "a grace mark outlived its turn in {}", text);
        }
        let moves = legal(v, &pos);
        let mut sorted = moves.clone();
        sorted.sort();
        sorted.dedup();
        prop_assert_eq!(sorted.len(), moves.len(), "a move listed twice in {}", text);
        if moves.is_empty() {
            let o = v.outcome(&pos, &[]).unwrap().expect("no legal move ends the game");
            prop_assert_eq!(o.winner, Some(stm.opponent()));
            prop_assert!(matches!(o.reason, EndReason::Checkmate | EndReason::Stalemate));
            break;
        }
        for _ in 0..4 {
            let mv = moves[rng.usize(..moves.len())];
            let w = v.format_move(&pos, mv);
            prop_assert_eq!(v.parse_move(&pos, &w).unwrap(), mv, "{} at {}", w, text);
            let mut next = pos.clone();
            v.play(&mut next, mv).unwrap();
            next.set_side_to_move(stm);
            prop_assert!(!v.in_check(&next), "{} leaves the Gyoku attacked in {}", w, text);
        }
        if ply % 8 == 4 {
            let through_api = generic_perft(v, &pos, 2).unwrap();
            prop_assert_eq!(v.perft(&pos, 2).unwrap(), through_api, "at {}", text);
        }
        v.play(&mut pos, moves[rng.usize(..moves.len())]).unwrap();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn playouts_base_game(seed in any::<u64>()) { playout(&KiShogi::new(), seed, 150)?; }

    #[test]
    fn playouts_with_the_ki_cube(seed in any::<u64>()) { playout(&KiShogi::with_ki_cube(), seed, 150)?; }
}
