//! Precomputed tables: each type's slides and steps as board directions for each side, which
//! types attack along each radial, and each square's promotion-zone and far-rank flags.

use henka_api::{PieceId, Side};

use crate::board::{RANKS, SQUARES, Sq, coords, offset};
use crate::pieces::{DEFS, TYPES};
use crate::radials::{self, COUNT, RADIALS, indices};

/// The ranks of a side's promotion zone (§7): the enemy camp.
const ZONE_DEPTH: isize = 3;

/// A list of radial indices (board frame).
#[derive(Clone, Copy, Debug, Default)]
pub struct Dirs {
    list: [u8; COUNT],
    len: u8,
}

impl Dirs {
    fn of(mask: u32) -> Dirs {
        let mut dirs = Dirs::default();
        for d in indices(mask) {
            dirs.list[dirs.len as usize] = d as u8;
            dirs.len += 1;
        }
        dirs
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.list[..self.len as usize]
    }
}

/// Square flags: bit `side` = in that side's promotion zone, bit `2 + side` = on its far rank.
const FLAGS: [u8; SQUARES] = {
    let mut a = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (_, r, _) = coords(sq);
        let last = RANKS as isize - 1;
        let mut f = 0;
        if r > last - ZONE_DEPTH && r <= last {
            f |= 1;
        }
        if r >= 0 && r < ZONE_DEPTH {
            f |= 2;
        }
        if r == last {
            f |= 4;
        }
        if r == 0 {
            f |= 8;
        }
        a[sq] = f;
        sq += 1;
    }
    a
};

/// Whether `sq` is in `side`'s promotion zone.
#[inline]
pub fn in_zone(side: Side, sq: Sq) -> bool {
    FLAGS[sq] & (1 << side.index()) != 0
}

/// Whether `sq` is on `side`'s far rank, where a Princeling must promote and may not be dropped.
#[inline]
pub fn on_far_rank(side: Side, sq: Sq) -> bool {
    FLAGS[sq] & (4 << side.index()) != 0
}

/// Everything the generator looks up.
#[derive(Debug)]
pub struct Tables {
    /// The board offset of each radial.
    pub off: [isize; COUNT],
    /// The radial pointing the other way.
    pub opposite: [u8; COUNT],
    /// `[side][type]`: the board radials the type slides along.
    slides: [[Dirs; TYPES]; 2],
    /// `[side][type]`: the board radials the type steps along.
    steps: [[Dirs; TYPES]; 2],
    /// `[side][d]`: the types of `side` that attack a square from the first occupied square
    /// along radial `d` of it, when that square is adjacent (steps and slides) …
    near_attackers: [[u32; COUNT]; 2],
    /// … and when it is further away (slides only).
    far_attackers: [[u32; COUNT]; 2],
}

impl Default for Tables {
    fn default() -> Tables {
        let mut t = Tables {
            off: RADIALS.map(offset),
            opposite: std::array::from_fn(|d| radials::opposite(d) as u8),
            slides: [[Dirs::default(); TYPES]; 2],
            steps: [[Dirs::default(); TYPES]; 2],
            near_attackers: [[0; COUNT]; 2],
            far_attackers: [[0; COUNT]; 2],
        };
        for side in Side::BOTH {
            let s = side.index();
            for (ty, def) in DEFS.iter().enumerate() {
                let slides = radials::for_side(def.slides, side);
                let steps = radials::for_side(def.steps, side);
                t.slides[s][ty] = Dirs::of(slides);
                t.steps[s][ty] = Dirs::of(steps);
                // A piece moving along radial m attacks from the square that lies along the
                // opposite radial from its target.
                for m in indices(slides) {
                    t.far_attackers[s][radials::opposite(m)] |= 1 << ty;
                    t.near_attackers[s][radials::opposite(m)] |= 1 << ty;
                }
                for m in indices(steps) {
                    t.near_attackers[s][radials::opposite(m)] |= 1 << ty;
                }
            }
        }
        t
    }
}

impl Tables {
    #[inline]
    pub fn slides(&self, side: Side, ty: PieceId) -> &[u8] {
        self.slides[side.index()][ty as usize].as_slice()
    }

    #[inline]
    pub fn steps(&self, side: Side, ty: PieceId) -> &[u8] {
        self.steps[side.index()][ty as usize].as_slice()
    }

    /// Whether a piece of `side` and type `ty`, the first one met going from a square along
    /// radial `d`, `distance` squares away, attacks that square.
    #[inline]
    pub fn attacks_along(&self, side: Side, ty: PieceId, d: usize, distance: u32) -> bool {
        let mask =
            if distance == 1 { self.near_attackers[side.index()][d] } else { self.far_attackers[side.index()][d] };
        mask & (1 << ty) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::square;

    #[test]
    fn zones_are_the_enemy_camps_and_far_ranks_their_last_rank() {
        for r in 0..RANKS {
            let sq = square(2, r, 3);
            assert_eq!(in_zone(Side::First, sq), r >= 6);
            assert_eq!(in_zone(Side::Second, sq), r <= 2);
            assert_eq!(on_far_rank(Side::First, sq), r == 8);
            assert_eq!(on_far_rank(Side::Second, sq), r == 0);
        }
    }
}
