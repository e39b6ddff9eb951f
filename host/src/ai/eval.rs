//! The static evaluation: material on the board and in hand, plus a bonus for pieces close to the
//! enemy royal. Both terms read only the position, so they hold for any variant; the second is
//! what turns a material lead into a mating attack instead of endless captures. The bonus is
//! strong within three cells and falls by one point per cell beyond, so that on a big board
//! (Taishin's 25×25) pieces far from every royal still have a way to go.

use henka_api::{Geometry, PieceId, Position, Side, Variant};

use super::values::PieceValues;

/// Bonus per piece at distance 1, 2, 3 from the nearest enemy royal (none farther away).
const TROPISM: [i32; 4] = [0, 12, 8, 4];
/// Bonus per cell closer to the nearest enemy royal, at any distance.
const TROPISM_PER_CELL: i32 = 1;
/// Royals per side the tropism term aims at.
const MAX_ROYALS: usize = 4;

/// Scores positions from the side to move's point of view, in centipawns.
#[derive(Clone, Debug)]
pub struct Evaluator {
    values: PieceValues,
    royal: Vec<bool>,
    hand_types: Vec<PieceId>,
    /// `(file, rank, level)` of every cell, so distances need no division.
    coords: Vec<[i16; 3]>,
    /// The largest distance between two cells (the far tropism counts down from it).
    diameter: i32,
}

impl Evaluator {
    pub fn new(v: &dyn Variant, values: PieceValues) -> Evaluator {
        let g: &Geometry = v.geometry();
        let coords = (0..g.len())
            .map(|c| {
                let (f, r, l) = g.coords(c as henka_api::Cell);
                [f as i16, r as i16, l as i16]
            })
            .collect();
        let diameter = g.files().max(g.ranks()).max(g.levels()) as i32 - 1;
        Evaluator {
            diameter,
            values,
            royal: v.info().pieces.iter().map(|p| p.royal).collect(),
            hand_types: v.info().hand_types.clone(),
            coords,
        }
    }

    pub fn values(&self) -> &PieceValues {
        &self.values
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut score = [0i32; 2];
        // Royal cells per side: the first few are enough to aim at.
        let mut royals = [[0usize; MAX_ROYALS]; 2];
        let mut royal_count = [0usize; 2];
        for (c, p) in pos.cells().iter().enumerate() {
            if let Some(p) = p {
                let s = p.side.index();
                score[s] += self.values.board(p.ty);
                if self.royal[p.ty as usize] && royal_count[s] < MAX_ROYALS {
                    royals[s][royal_count[s]] = c;
                    royal_count[s] += 1;
                }
            }
        }
        for side in Side::BOTH {
            for &ty in &self.hand_types {
                score[side.index()] += pos.hand(side, ty) as i32 * self.values.hand(ty);
            }
        }
        for (c, p) in pos.cells().iter().enumerate() {
            let Some(p) = p else { continue };
            if self.royal[p.ty as usize] {
                continue;
            }
            let them = p.side.opponent().index();
            let enemy = &royals[them][..royal_count[them]];
            if let Some(d) = enemy.iter().map(|&k| self.distance(c, k)).min() {
                let near = TROPISM.get(d).copied().unwrap_or(0);
                score[p.side.index()] += near + TROPISM_PER_CELL * (self.diameter - d as i32);
            }
        }
        let us = pos.side_to_move().index();
        // Script values are unbounded; an evaluation must never read as a mate.
        let limit = super::search::MATE_BOUND - 1;
        (score[us] - score[1 - us]).clamp(-limit, limit)
    }

    fn distance(&self, a: usize, b: usize) -> usize {
        let (a, b) = (self.coords[a], self.coords[b]);
        (0..3).map(|i| (a[i] - b[i]).unsigned_abs() as usize).max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_counts_for_the_side_to_move_and_hand_pieces_count_more() {
        let (_, src) = crate::catalog::BUNDLED.iter().find(|(n, _)| *n == "shogi").unwrap();
        let v = crate::script::load_source("shogi", src).unwrap().variant;
        let e = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]));
        let start = v.start_position();
        assert_eq!(e.evaluate(&start), 0, "the start is symmetric");
        let up_a_pawn = v.parse_position("lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1").unwrap();
        let on_board = v.parse_position("lnsgkgsnl/1r5b1/pppppppp1/9/9/4P4/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").unwrap();
        assert!(e.evaluate(&up_a_pawn) > 0);
        assert!(e.evaluate(&up_a_pawn) > e.evaluate(&on_board), "a pawn in hand beats one on the board");
        let mut white_view = up_a_pawn.clone();
        white_view.set_side_to_move(Side::Second);
        assert_eq!(e.evaluate(&white_view), -e.evaluate(&up_a_pawn));
    }

    #[test]
    fn a_huge_material_lead_on_a_big_board_is_still_not_a_mate() {
        let (_, src) = crate::catalog::BUNDLED.iter().find(|(n, _)| *n == "taishin").unwrap();
        let v = crate::script::load_source("taishin", src).unwrap().variant;
        let e = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]));
        let mut pos = v.start_position();
        for c in 0..pos.cells().len() {
            if let Some(p) = pos.piece_at(c as henka_api::Cell)
                && p.side == Side::Second
                && !v.info().pieces[p.ty as usize].royal
            {
                pos.set(c as henka_api::Cell, None);
            }
        }
        let lead = e.evaluate(&pos);
        assert!(lead > 30_000, "a Taishin army outweighs what a small-board mate score would be: {lead}");
        assert!(lead < super::super::search::MATE_BOUND, "{lead}");
    }
}
