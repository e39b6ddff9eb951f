//! The 26 radials of the 3D board (docs/rules/ladies-and-generals.md §3) and the direction classes
//! the pieces are made of.
//!
//! A radial is a vector whose components are each −1, 0 or +1, not all 0, written in the mover's
//! own frame (`dr = +1` is forward). A set of radials is a `u32` bit mask over their indices, so a
//! piece's move is two masks: the radials it slides along and the radials it steps along.

use henka_api::{Side, Vector};

/// How many radials there are.
pub const COUNT: usize = 26;

/// The radials in a fixed order: `dl`, then `dr`, then `df` from −1 to +1, skipping (0, 0, 0).
pub const RADIALS: [Vector; COUNT] = {
    let mut out = [Vector::new(0, 0, 0); COUNT];
    let (mut n, mut i) = (0, 0);
    while n < 27 {
        let v = Vector::new((n % 3) as i8 - 1, ((n / 3) % 3) as i8 - 1, (n / 9) as i8 - 1);
        if n != 13 {
            out[i] = v;
            i += 1;
        }
        n += 1;
    }
    out
};

/// The index of a radial.
pub const fn index_of(v: Vector) -> usize {
    let n = ((v.dl + 1) * 9 + (v.dr + 1) * 3 + (v.df + 1)) as usize;
    if n < 13 { n } else { n - 1 }
}

/// The index of the radial pointing the other way.
pub const fn opposite(d: usize) -> usize {
    index_of(RADIALS[d].reversed())
}

/// The radials whose number of non-zero components is `nonzero` and, if `dr` is given, whose
/// rank component is `dr`.
const fn select(nonzero: Option<u8>, dr: Option<i8>) -> u32 {
    let mut mask = 0;
    let mut d = 0;
    while d < COUNT {
        let v = RADIALS[d];
        let n = (v.df != 0) as u8 + (v.dr != 0) as u8 + (v.dl != 0) as u8;
        let class_ok = match nonzero {
            Some(k) => n == k,
            None => true,
        };
        let rank_ok = match dr {
            Some(r) => v.dr == r,
            None => true,
        };
        if class_ok && rank_ok {
            mask |= 1 << d;
        }
        d += 1;
    }
    mask
}

/// The 6 orthogonals (one non-zero component).
pub const O: u32 = select(Some(1), None);
/// The 12 standard diagonals (two non-zero components).
pub const SD: u32 = select(Some(2), None);
/// The 8 non-standard diagonals, the triagonals (three non-zero components).
pub const ND: u32 = select(Some(3), None);
/// Every radial: the Emperor's and Empress's directions.
pub const ALL: u32 = O | SD | ND;
/// The radials that go one rank forward for the mover.
pub const FORWARD: u32 = select(None, Some(1));
/// The radials that go one rank backward for the mover.
pub const BACKWARD: u32 = select(None, Some(-1));

/// Maps a set of radials from `side`'s frame to board coordinates (the second player is turned
/// 180° in the file/rank plane, as [`Vector::for_side`] says).
pub fn for_side(mask: u32, side: Side) -> u32 {
    (0..COUNT).filter(|&d| mask & 1 << d != 0).fold(0, |m, d| m | 1 << index_of(RADIALS[d].for_side(side)))
}

/// The indices in a set, in increasing order.
pub fn indices(mask: u32) -> impl Iterator<Item = usize> {
    (0..COUNT).filter(move |&d| mask & 1 << d != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_have_the_sizes_of_spec_section_3() {
        assert_eq!([O, SD, ND, ALL].map(u32::count_ones), [6, 12, 8, 26]);
        assert_eq!((FORWARD & O).count_ones(), 1);
        assert_eq!((FORWARD & SD).count_ones(), 4);
        assert_eq!((FORWARD & ND).count_ones(), 4);
        assert_eq!((FORWARD & ALL).count_ones(), 9, "the forward Emperor moves");
        assert_eq!(FORWARD & BACKWARD, 0);
    }

    #[test]
    fn indices_and_opposites_round_trip() {
        for d in 0..COUNT {
            assert_eq!(index_of(RADIALS[d]), d);
            assert_eq!(opposite(opposite(d)), d);
            assert_ne!(opposite(d), d);
        }
    }

    #[test]
    fn the_second_player_swaps_forward_and_backward_and_keeps_each_class() {
        assert_eq!(for_side(FORWARD, Side::Second), BACKWARD);
        for class in [O, SD, ND] {
            assert_eq!(for_side(class, Side::Second), class);
            assert_eq!(for_side(class, Side::First), class);
        }
    }
}
