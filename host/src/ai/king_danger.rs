//! How much danger each side's royal is in: the enemy's attacks on the cells around it, plus the
//! pieces the enemy holds in hand (each a drop that may land there). Danger grows with the square
//! of that count, as engines' king safety does: one attacker is harmless, five together mate.
//!
//! Attacks are read from each piece type's move definition ([`super::rays`], which says what
//! they leave out), walked from the piece's cell until a piece blocks the line. A ray that cannot
//! come within one cell of the royal is skipped by arithmetic alone, so a board's far pieces cost
//! a few comparisons each, which keeps the term affordable at every node on Taishin's 25×25 board.

use henka_api::{Cell, PieceId, Position, Side, Variant};

use super::rays::{Ray, Rays};

/// Hand pieces beyond this many add no more danger (a full hand is no more deadly than four).
const HAND_CAP: i32 = 4;
/// Danger units beyond this many add no more (keeps the square below a mate score on any board).
const UNITS_CAP: i32 = 20;

/// Each piece type's attacking rays and how far they reach.
#[derive(Clone, Debug)]
pub struct KingDanger {
    rays: Rays,
    /// Per type, the farthest cell its rays reach on an empty board (by the largest coordinate):
    /// a piece farther than this plus one from the royal is skipped without looking at its rays.
    reach: Vec<i32>,
}

impl KingDanger {
    pub fn new(v: &dyn Variant) -> KingDanger {
        let rays = Rays::new(v);
        // A royal guards its own surroundings; it is no attacker of the other's: it reaches
        // nowhere, so the walk skips it.
        let reach = (0..v.info().pieces.len())
            .map(|ty| {
                rays.of(Side::First, ty)
                    .iter()
                    .map(|r| r.range.saturating_mul(r.d.iter().map(|x| x.abs()).max().unwrap_or(0)))
                    .max()
                    .filter(|_| !v.info().pieces[ty].royal)
            })
            .map(|m| m.unwrap_or(-2))
            .collect();
        KingDanger { rays, reach }
    }

    /// The danger units `side` puts on the enemy royal at `royal`: its attacks on the royal's
    /// cell and the cells next to it, plus its hand pieces (capped).
    pub fn units(&self, pos: &Position, side: Side, royal: Cell, hand_types: &[PieceId]) -> i32 {
        let g = self.rays.geometry();
        let (kf, kr, kl) = g.coords(royal);
        let mut attacks = 0;
        for (c, p) in pos.cells().iter().enumerate() {
            let Some(p) = p else { continue };
            if p.side != side {
                continue;
            }
            let (f, r, l) = g.coords(c as Cell);
            let rel = [kf - f, kr - r, kl - l];
            let reach = self.reach.get(p.ty as usize).copied().unwrap_or(-2);
            if rel.iter().any(|x| x.abs() > reach + 1) {
                continue;
            }
            for ray in self.rays.of(side, p.ty as usize) {
                attacks += self.ray_attacks(pos, [f, r, l], rel, *ray);
            }
        }
        // A variant without drops has no hand types, so nothing is held.
        let held: i32 = hand_types.iter().map(|&ty| pos.hand(side, ty) as i32).sum();
        (attacks + held.min(HAND_CAP)).min(UNITS_CAP)
    }

    /// How many cells within one of the royal (at `rel` from the piece) the ray attacks.
    fn ray_attacks(&self, pos: &Position, from: [i32; 3], rel: [i32; 3], ray: Ray) -> i32 {
        // The repetitions k at which k·d lies within one cell of rel on every axis.
        let (mut lo, mut hi) = (1, ray.range);
        for axis in 0..3 {
            let (d, r) = (ray.d[axis], rel[axis]);
            if d == 0 {
                if r.abs() > 1 {
                    return 0;
                }
                continue;
            }
            let (a, b) = if d > 0 { (r - 1, r + 1) } else { (r + 1, r - 1) };
            lo = lo.max(div_ceil(a, d));
            hi = hi.min(div_floor(b, d));
        }
        if lo > hi {
            return 0;
        }
        let mut count = 0;
        for k in 1..=hi {
            let Some(c) =
                self.rays.geometry().cell(from[0] + k * ray.d[0], from[1] + k * ray.d[1], from[2] + k * ray.d[2])
            else {
                break;
            };
            if k >= lo {
                count += 1;
            }
            if pos.piece_at(c).is_some() {
                break;
            }
        }
        count
    }
}

fn div_floor(a: i32, b: i32) -> i32 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

fn div_ceil(a: i32, b: i32) -> i32 {
    -div_floor(-a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shogi() -> std::sync::Arc<dyn Variant> {
        crate::catalog::bundled_script("shogi").variant
    }

    /// The same count by brute force: every cell next to (or on) the royal, every enemy ray
    /// walked from its piece to the board's edge.
    fn brute(v: &dyn Variant, pos: &Position, side: Side, royal: Cell) -> i32 {
        let k = KingDanger::new(v);
        let g = v.geometry();
        let (kf, kr, _) = g.coords(royal);
        let mut n = 0;
        for (c, p) in pos.cells().iter().enumerate() {
            let Some(p) = p else { continue };
            if p.side != side {
                continue;
            }
            if v.info().pieces[p.ty as usize].royal {
                continue;
            }
            let (f, r, _) = g.coords(c as Cell);
            for ray in k.rays.of(side, p.ty as usize) {
                for step in 1..=ray.range {
                    let Some(t) = g.cell(f + step * ray.d[0], r + step * ray.d[1], 0) else { break };
                    let (tf, tr, _) = g.coords(t);
                    if (tf - kf).abs() <= 1 && (tr - kr).abs() <= 1 {
                        n += 1;
                    }
                    if pos.piece_at(t).is_some() {
                        break;
                    }
                }
            }
        }
        n
    }

    #[test]
    fn attacks_on_the_royals_surroundings_match_a_brute_force_count() {
        let v = shogi();
        let hand = v.info().hand_types.clone();
        let k = KingDanger::new(v.as_ref());
        for s in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BK4R1/LNSG1GSNL w - 10",
            "4k4/9/4+R4/2B6/9/9/6N2/9/4K4 b - 1",
            "l3k3l/1r2g4/p1n1pps1p/2p3B2/9/2P1P4/PP3PP1P/1+b2G1K2/LN5RL w - 40",
        ] {
            let pos = v.parse_position(s).unwrap();
            for side in Side::BOTH {
                let royal = (0..pos.cells().len() as Cell)
                    .find(|&c| pos.piece_at(c).is_some_and(|p| p.side != side && v.info().pieces[p.ty as usize].royal))
                    .unwrap();
                assert_eq!(k.units(&pos, side, royal, &hand), brute(v.as_ref(), &pos, side, royal), "{s} {side:?}");
            }
        }
    }

    #[test]
    fn a_dragon_next_to_the_king_and_pieces_in_hand_are_danger() {
        let v = shogi();
        let hand = v.info().hand_types.clone();
        let k = KingDanger::new(v.as_ref());
        let far = v.parse_position("4k4/9/9/9/9/9/9/9/R3K4 b - 1").unwrap();
        let near = v.parse_position("4k4/4+R4/9/9/9/9/9/9/4K4 b - 1").unwrap();
        let with_hand = v.parse_position("4k4/4+R4/9/9/9/9/9/9/4K4 b 2G 1").unwrap();
        let royal =
            (0..far.cells().len() as Cell).find(|&c| far.piece_at(c).is_some_and(|p| p.side == Side::Second)).unwrap();
        let units = |p: &Position| k.units(p, Side::First, royal, &hand);
        assert_eq!(units(&far), 0, "a rook on the far rank's other file attacks nothing near the king");
        // Around the king on 5a, the dragon on 5b attacks 5a itself, 4a and 6a (diagonal steps),
        // 4b and 6b (sideways slides); its other cells are not next to the king.
        assert_eq!(units(&near), 5);
        assert_eq!(units(&with_hand), 7);
    }

    #[test]
    fn floor_and_ceiling_division_round_the_right_way() {
        assert_eq!((div_floor(-3, 2), div_ceil(-3, 2), div_floor(3, 2), div_ceil(3, 2)), (-2, -1, 1, 2));
        assert_eq!((div_floor(3, -2), div_ceil(3, -2), div_floor(4, 2), div_ceil(4, 2)), (-2, -1, 2, 2));
    }
}
