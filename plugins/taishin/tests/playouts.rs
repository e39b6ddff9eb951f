//! Random games from the start: invariants that every position must keep.

mod common;

use common::legal;
use henka_api::variant::generic_perft;
use henka_api::{HistoryEntry, Variant};
use taishin::Taishin;

/// xorshift64*: a fixed, dependency-free sequence of choices.
#[test]
fn random_games_keep_every_invariant() {
    let v = Taishin::new();
    for seed in 1..=3u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut pos = v.start_position();
        let mut history: Vec<HistoryEntry> = Vec::new();
        for ply in 0..400 {
            let moves = legal(&v, &pos);
            let mut sorted = moves.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), moves.len(), "a move listed twice at ply {ply}");
            assert_eq!(pos.hash(), pos.fresh_hash());
            assert_eq!(v.parse_position(&v.format_position(&pos)).unwrap(), pos);
            if ply % 50 == 0 {
                // The engine's own make/unmake perft against copy-make through the trait.
                assert_eq!(v.perft(&pos, 2).unwrap(), generic_perft(&v, &pos, 2).unwrap(), "ply {ply}");
                for &m in moves.iter().step_by(7) {
                    let text = v.format_move(&pos, m);
                    assert_eq!(v.parse_move(&pos, &text).unwrap(), m, "{text}");
                }
            }
            if v.outcome(&pos, &history).unwrap().is_some() || moves.is_empty() {
                break;
            }
            history.push(HistoryEntry::new(pos.repetition_hash(), v.in_check(&pos)));
            // Prefer captures, so that the armies meet and the special powers come into play.
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| {
                    m.via != henka_api::NO_CELL || pos.piece_at(m.to).is_some_and(|p| p.side != pos.side_to_move())
                })
                .collect();
            let pool = if !captures.is_empty() && rng.usize(..3) > 0 { &captures } else { &moves };
            let m = pool[rng.usize(..pool.len())];
            v.play(&mut pos, m).unwrap();
        }
    }
}
