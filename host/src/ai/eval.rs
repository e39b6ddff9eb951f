//! The static evaluation: material on the board and in hand, plus a bonus for pieces close to the
//! enemy royal. Both terms read only the position, so they hold for any variant; the second is
//! what turns a material lead into a mating attack instead of endless captures. The bonus is
//! strong within three cells and falls by one point per cell beyond, so that on a big board
//! (Taishin's 25×25) pieces far from every royal still have a way to go.
//!
//! Five more terms are off until a variant's own games say what they are worth (`henka tune`,
//! [`super::tuned`]): royal safety (own pieces next to the own royal, pieces within two cells of
//! the enemy royal), advancement (pieces in the far third of the board, where promotion zones
//! usually are), mobility (how many cells each piece's moves reach from where it stands on an
//! empty board, read from a table made once from its move diagram, so it costs a lookup per
//! piece rather than a move generation) and king danger (the enemy's attacks on the cells around
//! a royal plus the enemy's pieces in hand, squared: [`super::king_danger`]). King danger, too,
//! stays off untuned: weighed from the start it gained no strength in shogi against
//! Fairy-Stockfish (docs/ai-strength.md, round 3) and cost a quarter of the node rate. A term that
//! weighs nothing is not computed. The evaluation is linear in its
//! [`features`](Evaluator::features), so tuning is a logistic regression of game results on them.
//!
//! A learnt placement table ([`super::placement`]: what each piece adds for where it stands and
//! what it attacks) may come on top, from `henka tune --placement`; it is not among those features, so refitting the
//! values and terms leaves it as it is.

use std::sync::{Arc, OnceLock};

use henka_api::{Geometry, PieceId, Position, Side, Variant};
use serde::{Deserialize, Serialize};

use super::king_danger::KingDanger;
use super::placement::Placement;
use super::values::PieceValues;

/// Bonus per piece at distance 1, 2, 3 from the nearest enemy royal (none farther away).
const TROPISM: [i32; 4] = [0, 12, 8, 4];
/// Bonus per cell closer to the nearest enemy royal, at any distance.
const TROPISM_PER_CELL: i32 = 1;
/// Royals per side the tropism term aims at.
const MAX_ROYALS: usize = 4;

/// The weights of the evaluation's terms beyond material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// The royal-proximity bonus, in percent of the built-in one.
    pub tropism: i32,
    /// Centipawns per own piece next to the own (first) royal, counted for both sides.
    pub royal_defenders: i32,
    /// Centipawns per own piece within two cells of the enemy (first) royal.
    pub royal_attackers: i32,
    /// Centipawns per own non-royal piece in the far third of the board.
    pub advanced: i32,
    /// Centipawns per ten cells the own non-royal pieces reach on an empty board (tuned files
    /// written before this term read as 0).
    #[serde(default)]
    pub mobility: i32,
    /// Centipawns per squared danger unit the own side puts on the enemy royal (attacks around
    /// it plus pieces in hand; tuned files written before this term read as 0).
    #[serde(default)]
    pub king_danger: i32,
}

impl Default for Terms {
    /// The untuned evaluation: material and the royal-proximity bonus alone.
    fn default() -> Terms {
        Terms { tropism: 100, royal_defenders: 0, royal_attackers: 0, advanced: 0, mobility: 0, king_danger: 0 }
    }
}

/// How many terms follow the per-type ones in [`Evaluator::features`].
pub const EXTRA_FEATURES: usize = 6;

/// Scores positions from the side to move's point of view, in centipawns.
#[derive(Clone, Debug)]
pub struct Evaluator {
    values: PieceValues,
    terms: Terms,
    royal: Vec<bool>,
    hand_types: Vec<PieceId>,
    /// `(file, rank, level)` of every cell, so distances need no division.
    coords: Vec<[i16; 3]>,
    /// The largest distance between two cells (the far tropism counts down from it).
    diameter: i32,
    /// Per side, per cell: whether it lies in the far third of the board for that side.
    far: [Vec<bool>; 2],
    /// The mobility term's table, shared by the clones of this evaluator (the search's helpers).
    mobility: Arc<Mobility>,
    king_danger: KingDanger,
    placement: Option<Arc<Placement>>,
}

/// Per side, indexed `type × cells + cell`: the cells a piece of that type reaches from there on
/// an empty board. Made on first use, so an evaluation that does not weigh mobility (the untuned
/// default) never pays for it: on Taishin's 25×25 board it is tens of milliseconds.
#[derive(Debug)]
struct Mobility {
    geometry: Geometry,
    /// Each type's move, by piece id.
    moves: Vec<String>,
    table: OnceLock<[Vec<u16>; 2]>,
}

impl Mobility {
    fn table(&self) -> &[Vec<u16>; 2] {
        self.table
            .get_or_init(|| [Side::First, Side::Second].map(|side| reach_table(&self.geometry, &self.moves, side)))
    }
}

/// The raw terms of one position, per side (index = [`Side::index`]).
#[derive(Default)]
struct Raw {
    material: [i32; 2],
    tropism: [i32; 2],
    defenders: [i32; 2],
    attackers: [i32; 2],
    advanced: [i32; 2],
    mobility: [i32; 2],
    /// Squared danger units each side puts on the enemy royal.
    danger: [i32; 2],
    placement: [i32; 2],
}

impl Evaluator {
    pub fn new(v: &dyn Variant, values: PieceValues) -> Evaluator {
        Evaluator::with_terms(v, values, Terms::default())
    }

    pub fn with_terms(v: &dyn Variant, values: PieceValues, terms: Terms) -> Evaluator {
        let g: &Geometry = v.geometry();
        let coords: Vec<[i16; 3]> = (0..g.len())
            .map(|c| {
                let (f, r, l) = g.coords(c as henka_api::Cell);
                [f as i16, r as i16, l as i16]
            })
            .collect();
        let diameter = g.files().max(g.ranks()).max(g.levels()) as i32 - 1;
        // Which way is forward: the side whose start pieces stand on higher ranks moves down.
        let start = v.start_position();
        let mut rank_sum = [0i64; 2];
        let mut count = [0i64; 2];
        for (c, p) in start.cells().iter().enumerate() {
            if let Some(p) = p {
                rank_sum[p.side.index()] += coords[c][1] as i64;
                count[p.side.index()] += 1;
            }
        }
        let mean = |s: usize| if count[s] == 0 { 0.0 } else { rank_sum[s] as f64 / count[s] as f64 };
        let first_moves_down = mean(0) > mean(1);
        let ranks = g.ranks() as i16;
        let third = (ranks / 3).max(1);
        let far_for = |down: bool| -> Vec<bool> {
            coords.iter().map(|c| if down { c[1] < third } else { c[1] >= ranks - third }).collect()
        };
        let far = [far_for(first_moves_down), far_for(!first_moves_down)];
        let mobility = Arc::new(Mobility {
            geometry: g.clone(),
            moves: v.info().pieces.iter().map(|p| p.betza.clone()).collect(),
            table: OnceLock::new(),
        });
        Evaluator {
            king_danger: KingDanger::new(v),
            placement: None,
            mobility,
            diameter,
            values,
            terms,
            royal: v.info().pieces.iter().map(|p| p.royal).collect(),
            hand_types: v.info().hand_types.clone(),
            coords,
            far,
        }
    }

    /// This evaluator with a learnt placement table added to every score ([`super::placement`]).
    pub fn with_placement(mut self, placement: Option<Placement>) -> Evaluator {
        self.placement = placement.map(Arc::new);
        self
    }

    pub fn placement(&self) -> Option<&Placement> {
        self.placement.as_deref()
    }

    pub fn values(&self) -> &PieceValues {
        &self.values
    }

    pub fn terms(&self) -> Terms {
        self.terms
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let raw = self.raw(pos, None);
        let t = self.terms;
        let side = |s: usize| {
            raw.material[s]
                + raw.tropism[s] * t.tropism / 100
                + raw.defenders[s] * t.royal_defenders
                + raw.attackers[s] * t.royal_attackers
                + raw.advanced[s] * t.advanced
                + raw.mobility[s] * t.mobility / 10
                + raw.danger[s] * t.king_danger
                + raw.placement[s]
        };
        let us = pos.side_to_move().index();
        // Script values are unbounded; an evaluation must never read as a mate.
        let limit = super::search::MATE_BOUND - 1;
        (side(us) - side(1 - us)).clamp(-limit, limit)
    }

    /// The evaluation's features for the side to move (own minus the opponent's): the count of
    /// every piece type on the board, then in hand (by piece id), then the raw royal-proximity
    /// bonus, royal defenders, royal attackers, advanced pieces, mobility (in tens of cells) and
    /// squared king danger units. The evaluation is the dot
    /// product of these with [`Evaluator::weights`] (up to rounding of the percent term).
    pub fn features(&self, pos: &Position) -> Vec<f64> {
        let n = self.royal.len();
        let mut counts = vec![0i32; 2 * n];
        let raw = self.raw(pos, Some(&mut counts));
        let us = pos.side_to_move().index();
        let d = |a: [i32; 2]| (a[us] - a[1 - us]) as f64;
        let sign = if us == 0 { 1 } else { -1 };
        let mut f: Vec<f64> = counts.iter().map(|&c| (c * sign) as f64).collect();
        f.extend([
            d(raw.tropism),
            d(raw.defenders),
            d(raw.attackers),
            d(raw.advanced),
            d(raw.mobility) / 10.0,
            d(raw.danger),
        ]);
        f
    }

    /// The weights that go with [`Evaluator::features`].
    pub fn weights(&self) -> Vec<f64> {
        let mut w: Vec<f64> = self.values.board_values().iter().map(|&x| x as f64).collect();
        w.extend(self.values.hand_values().iter().map(|&x| x as f64));
        let t = self.terms;
        w.extend([
            t.tropism as f64 / 100.0,
            t.royal_defenders as f64,
            t.royal_attackers as f64,
            t.advanced as f64,
            t.mobility as f64,
            t.king_danger as f64,
        ]);
        w
    }

    /// The raw terms; with `counts`, also every type's count difference (first side minus second),
    /// on the board in the first half and in hand in the second.
    fn raw(&self, pos: &Position, mut counts: Option<&mut Vec<i32>>) -> Raw {
        // Mobility is counted only where it weighs, or for tuning, which asks for every feature.
        let reach = (self.terms.mobility != 0 || counts.is_some()).then(|| self.mobility.table());
        let n = self.royal.len();
        let mut raw = Raw::default();
        // Royal cells per side: the first few are enough to aim at.
        let mut royals = [[0usize; MAX_ROYALS]; 2];
        let mut royal_count = [0usize; 2];
        for (c, p) in pos.cells().iter().enumerate() {
            if let Some(p) = p {
                let s = p.side.index();
                raw.material[s] += self.values.board(p.ty);
                if let Some(counts) = counts.as_deref_mut() {
                    counts[p.ty as usize] += if s == 0 { 1 } else { -1 };
                }
                if self.royal[p.ty as usize] {
                    if royal_count[s] < MAX_ROYALS {
                        royals[s][royal_count[s]] = c;
                        royal_count[s] += 1;
                    }
                } else if self.far[s][c] {
                    raw.advanced[s] += 1;
                }
            }
        }
        for side in Side::BOTH {
            for &ty in &self.hand_types {
                let held = pos.hand(side, ty) as i32;
                raw.material[side.index()] += held * self.values.hand(ty);
                if let Some(counts) = counts.as_deref_mut() {
                    counts[n + ty as usize] += if side == Side::First { held } else { -held };
                }
            }
        }
        // The terms that weigh nothing are not counted, unless tuning asks for every feature.
        let all = counts.is_some();
        let attackers = all || self.terms.royal_attackers != 0;
        let defenders = all || self.terms.royal_defenders != 0;
        // The placement table is read in the same walk as the terms, which need the royals too.
        let placement = self.placement.as_deref().map(|table| {
            let first = |s: usize| (royal_count[s] > 0).then(|| royals[s][0] as henka_api::Cell);
            (table, table.royals([first(0), first(1)]))
        });
        if let Some((table, royals)) = &placement {
            let attacks = table.attacks(pos, royals);
            for side in Side::BOTH {
                raw.placement[side.index()] += table.hand(pos, side) + attacks[side.index()];
            }
        }
        for (c, p) in pos.cells().iter().enumerate() {
            let Some(p) = *p else { continue };
            let s = p.side.index();
            if let Some((table, royals)) = &placement {
                raw.placement[s] += table.piece(c, p, royals);
            }
            if self.royal[p.ty as usize] {
                continue;
            }
            if let Some(reach) = reach {
                raw.mobility[s] += reach[s].get(p.ty as usize * self.coords.len() + c).copied().unwrap_or(0) as i32;
            }
            let them = 1 - s;
            let enemy = &royals[them][..royal_count[them]];
            if let Some((&first, others)) = enemy.split_first() {
                // To the nearest enemy royal for tropism, to the first for the attackers' count.
                let to_first = self.distance(c, first);
                let d = others.iter().map(|&k| self.distance(c, k)).fold(to_first, usize::min);
                let near = TROPISM.get(d).copied().unwrap_or(0);
                raw.tropism[s] += near + TROPISM_PER_CELL * (self.diameter - d as i32);
                if attackers && to_first <= 2 {
                    raw.attackers[s] += 1;
                }
            }
            if defenders && royal_count[s] > 0 && self.distance(c, royals[s][0]) == 1 {
                raw.defenders[s] += 1;
            }
        }
        if self.terms.king_danger != 0 || counts.is_some() {
            for side in Side::BOTH {
                let them = 1 - side.index();
                if royal_count[them] > 0 {
                    let units = self.king_danger.units(pos, side, royals[them][0] as henka_api::Cell, &self.hand_types);
                    raw.danger[side.index()] = units * units;
                }
            }
        }
        raw
    }

    fn distance(&self, a: usize, b: usize) -> usize {
        let (a, b) = (self.coords[a], self.coords[b]);
        (0..3).map(|i| (a[i] - b[i]).unsigned_abs() as usize).max().unwrap_or(0)
    }
}

/// For `side`, per piece type and cell: how many cells the type's move diagram reaches from
/// there on an empty board. Types without a flat diagram (3D moves) reach 0, which leaves the term
/// to the other variants.
fn reach_table(g: &Geometry, moves: &[String], side: Side) -> Vec<u16> {
    let cells = g.len();
    let mut table = vec![0u16; moves.len() * cells];
    for (ty, betza) in moves.iter().enumerate() {
        let Ok(offsets) = crate::diagram::diagram(betza) else { continue };
        for c in g.cells() {
            let reached = offsets
                .iter()
                .filter(|&&((df, dr), _)| {
                    g.offset(c, henka_api::Vector::flat(df as i8, dr as i8).for_side(side)).is_some()
                })
                .count();
            table[ty * cells + c as usize] = reached.min(u16::MAX as usize) as u16;
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_counts_for_the_side_to_move_and_hand_pieces_count_more() {
        let v = crate::catalog::bundled_script("shogi").variant;
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
    fn mobility_counts_the_cells_a_piece_reaches_from_where_it_stands() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let terms = Terms { mobility: 10, tropism: 0, ..Terms::default() };
        let e = Evaluator::with_terms(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]), terms);
        // A Black Knight on 5e reaches two cells; on 5b, none (its leaps leave the board).
        let centre = v.parse_position("k8/9/9/9/4N4/9/9/9/8K b - 1").unwrap();
        let edge = v.parse_position("k8/4N4/9/9/9/9/9/9/8K b - 1").unwrap();
        assert_eq!(e.evaluate(&centre) - e.evaluate(&edge), 2, "two cells at 10 cp per ten cells");
        // The same for White, whose Knight points the other way.
        let centre = v.parse_position("k8/9/9/9/4n4/9/9/9/8K w - 1").unwrap();
        let edge = v.parse_position("k8/9/9/9/9/9/9/4n4/8K w - 1").unwrap();
        assert_eq!(e.evaluate(&centre) - e.evaluate(&edge), 2);
        let features = e.features(&centre);
        let weights = e.weights();
        assert_eq!(features.len(), weights.len());
        let dot: f64 = features.iter().zip(&weights).map(|(f, w)| f * w).sum();
        assert_eq!(dot.round() as i32, e.evaluate(&centre), "the evaluation is the features' dot product");
    }

    #[test]
    fn a_huge_material_lead_on_a_big_board_is_still_not_a_mate() {
        let v = crate::catalog::bundled_script("taishin").variant;
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

    #[test]
    fn the_evaluation_is_its_features_times_its_weights() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let terms =
            Terms { tropism: 100, royal_defenders: 7, royal_attackers: 11, advanced: 13, mobility: 20, king_danger: 3 };
        let e = Evaluator::with_terms(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]), terms);
        for s in [
            "lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
            "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BK4R1/LNSG1GSNL w 2Pb 10",
            "8k/9/8P/9/9/9/9/9/K8 b G 1",
        ] {
            let pos = v.parse_position(s).unwrap();
            let dot: f64 = e.features(&pos).iter().zip(e.weights()).map(|(f, w)| f * w).sum();
            assert_eq!(dot.round() as i32, e.evaluate(&pos), "{s}");
        }
        let advanced = v.parse_position("4k4/9/4P4/9/9/9/9/9/4K4 b - 1").unwrap();
        let home = v.parse_position("4k4/9/9/9/9/9/4P4/9/4K4 b - 1").unwrap();
        // Tropism 14 against 2, an attacker near the king, the far third, and one danger unit
        // (the pawn attacks 5b, next to the king).
        assert_eq!(e.evaluate(&advanced) - e.evaluate(&home), 12 + 11 + 13 + 3);
    }

    #[test]
    fn a_placement_table_adds_its_features_times_its_weights() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let table = Placement::new(v.as_ref());
        // Every weight different, so a feature read from the wrong piece, side or royal shows.
        let weights: Vec<i32> = (0..table.weight_count()).map(|i| (i as i32 * 37) % 301 - 150).collect();
        let table = Placement::with_weights(v.as_ref(), &weights);
        let plain = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]));
        let placed = plain.clone().with_placement(Some(table.clone()));
        for s in [
            "lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
            "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BK4R1/LNSG1GSNL w 2Pb 10",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8k/9/8P/9/9/9/9/9/9 b 9P2G 1",
        ] {
            let pos = v.parse_position(s).unwrap();
            let dot: f32 = table.features(&pos).iter().map(|&(i, x)| x * weights[i as usize] as f32).sum();
            assert_eq!(placed.evaluate(&pos) - plain.evaluate(&pos), dot as i32, "{s}");
        }
    }
}
