//! Random games from the start (captures preferred, so that hands fill and drops, promotions and
//! checks come into play), with invariants every position must keep:
//!
//! - no move listed twice; the hash kept incrementally equals a fresh one; position strings
//!   round-trip;
//! - pieces are conserved: 160 on the board and in hands (an Emperor is never taken);
//! - after every move the mover is within the four restrictions, counted here from scratch;
//! - at regular plies the legal moves equal a brute-force filter of the pseudo-legal moves
//!   (each piece's own moves and every drop, played out, keeping the side's Emperor out of
//!   reach of every enemy piece's moves and the restrictions met), and the engine's
//!   make/unmake perft equals copy-make perft through the `Variant` trait.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{coords, legal, ty, variant};
use henka_api::variant::generic_perft;
use henka_api::{Cell, HistoryEntry, Move, MoveKind, Position, Side, Variant};
use ladies_and_generals::LadiesAndGenerals;
use ladies_and_generals::pieces::{EMPEROR, PRINCELING};

/// xorshift64*: a fixed, dependency-free sequence of choices.
/// Whether `side` keeps §6, counted from scratch.
fn within_restrictions(pos: &Position, side: Side) -> bool {
    let mut groups: BTreeMap<(u8, (i32, i32, i32)), usize> = BTreeMap::new();
    for (c, p) in pos.cells().iter().enumerate() {
        let Some(p) = p.filter(|p| p.side == side) else { continue };
        let (f, l, r) = coords(c as Cell);
        let key = if p.ty == ty("P") || p.ty == ty("L") {
            (f, l, 0)
        } else if p.ty == ty("B") {
            ((f + l + r) % 2, 0, 0)
        } else if p.ty == ty("U") {
            if f % 2 == 0 { (0, l % 2, r % 2) } else { (0, 1 - l % 2, 1 - r % 2) }
        } else {
            continue;
        };
        *groups.entry((p.ty, key)).or_default() += 1;
    }
    groups.iter().all(|(&(t, _), &n)| n <= if t == ty("L") { 4 } else { 2 })
}

/// Whether `side`'s Emperor is a destination of some enemy piece's moves. Every move runs
/// along a radial, so only the first piece along each of the 26 radials can reach it.
fn emperor_attacked(v: &LadiesAndGenerals, pos: &Position, side: Side) -> bool {
    let g = v.geometry();
    let Some(emperor) = g.cells().find(|&c| pos.piece_at(c).is_some_and(|p| p.side == side && p.ty == EMPEROR)) else {
        return false;
    };
    let (f, r, l) = g.coords(emperor);
    (-1..=1).flat_map(|df| (-1..=1).flat_map(move |dr| (-1..=1).map(move |dl| (df, dr, dl)))).any(|(df, dr, dl)| {
        let mut k = 1;
        while let Some(c) = g.cell(f + k * df, r + k * dr, l + k * dl) {
            if (df, dr, dl) == (0, 0, 0) {
                return false;
            }
            if let Some(p) = pos.piece_at(c) {
                return p.side != side && v.piece_moves(pos, c).iter().any(|m| m.to == emperor);
            }
            k += 1;
        }
        false
    })
}

/// The legal moves by brute force, among board moves and the drops onto every `drop_stride`-th
/// cell.
fn brute_force(v: &LadiesAndGenerals, pos: &Position, drop_stride: usize) -> BTreeSet<Move> {
    let side = pos.side_to_move();
    let g = v.geometry();
    let mut candidates: Vec<Move> = Vec::new();
    for c in g.cells() {
        if pos.piece_at(c).is_some_and(|p| p.side == side) {
            candidates.extend(v.piece_moves(pos, c));
        }
    }
    let far = if side == Side::First { 8 } else { 0 };
    for &t in &v.info().hand_types {
        if pos.hand(side, t) > 0 {
            for c in g.cells().step_by(drop_stride) {
                if pos.piece_at(c).is_none() && !(t == PRINCELING && coords(c).2 == far) {
                    candidates.push(Move::drop(t, c));
                }
            }
        }
    }
    candidates
        .into_iter()
        .filter(|&m| {
            let mut after = pos.clone();
            v.play(&mut after, m).unwrap();
            !emperor_attacked(v, &after, side) && within_restrictions(&after, side)
        })
        .collect()
}

#[test]
fn random_games_keep_every_invariant() {
    let v = variant();
    let mut drops_seen = 0;
    let mut checks_seen = 0;
    for seed in 1..=3u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut pos = v.start_position();
        let mut history: Vec<HistoryEntry> = Vec::new();
        for ply in 0..300 {
            let moves = legal(&v, &pos);
            let listed: BTreeSet<Move> = moves.iter().copied().collect();
            assert_eq!(listed.len(), moves.len(), "a move listed twice at ply {ply}");
            assert_eq!(pos.hash(), pos.fresh_hash());
            assert_eq!(v.parse_position(&v.format_position(&pos)).unwrap(), pos);
            let on_board = pos.cells().iter().flatten().count();
            let in_hand: usize = Side::BOTH
                .iter()
                .flat_map(|&s| (0..31).map(move |t| (s, t)))
                .map(|(s, t)| pos.hand(s, t) as usize)
                .sum();
            assert_eq!(on_board + in_hand, 160, "ply {ply}");
            drops_seen += moves.iter().filter(|m| m.kind == MoveKind::Drop).count();
            checks_seen += usize::from(v.in_check(&pos));
            if ply % 30 == 0 {
                let stride = 7;
                let sampled: BTreeSet<Move> = listed
                    .iter()
                    .copied()
                    .filter(|m| m.kind == MoveKind::Board || (m.to as usize).is_multiple_of(stride))
                    .collect();
                assert_eq!(sampled, brute_force(&v, &pos, stride), "seed {seed} ply {ply}");
                assert_eq!(v.perft(&pos, 2).unwrap(), generic_perft(&v, &pos, 2).unwrap(), "seed {seed} ply {ply}");
            }
            let outcome = v.outcome(&pos, &history).unwrap();
            assert_eq!(moves.is_empty(), outcome.is_some() && moves.is_empty(), "ply {ply}");
            if outcome.is_some() {
                break;
            }
            history.push(HistoryEntry::new(pos.repetition_hash(), v.in_check(&pos)));
            let side = pos.side_to_move();
            let captures: Vec<Move> =
                moves.iter().copied().filter(|m| pos.piece_at(m.to).is_some_and(|p| p.side != side)).collect();
            let pool = if !captures.is_empty() && rng.usize(..4) > 0 { &captures } else { &moves };
            v.play(&mut pos, pool[rng.usize(..pool.len())]).unwrap();
            assert!(within_restrictions(&pos, side), "seed {seed} ply {ply}");
        }
    }
    assert!(drops_seen > 0 && checks_seen > 0, "the games reached drops ({drops_seen}) and checks ({checks_seen})");
}
