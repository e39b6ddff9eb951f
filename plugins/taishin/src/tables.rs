//! Precomputed tables: every type's move families as padded-board offsets for each side, and the
//! per-type promotion data the generator needs for every capture.

use henka_api::Side;

use crate::board::{STRIDE, Sq, type_of};
use crate::moves::{Moves, STEP, dirs};
use crate::pieces::{
    DARK_SPIRIT, DEVA, DIVINE_DRAGON, DRUNK_ELEPHANT, IRON_GENERAL, KING, PAWN, PRINCE, PROMOTING_TYPES, STONE_GENERAL,
    TEACHING_KING, TYPES, def, is_royal, promoted,
};

/// A board offset between padded squares.
pub type Offset = isize;

/// The offset of a (file, rank) vector in `side`'s frame: Gote's forward is Sente's backward.
pub fn offset(side: Side, (f, r): (i8, i8)) -> Offset {
    let o = r as Offset * STRIDE as Offset + f as Offset;
    match side {
        Side::First => o,
        Side::Second => -o,
    }
}

/// The eight king-step offsets in `side`'s frame, by owner direction.
pub fn dir_offsets(side: Side) -> [Offset; 8] {
    STEP.map(|v| offset(side, v))
}

/// A slide: direction and range.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    pub step: Offset,
    pub range: u8,
}

/// One type's families for one side, as the generator walks them.
#[derive(Clone, Debug)]
pub struct Kind {
    pub lines: Vec<Line>,
    /// Directions whose slide also captures over one or two pieces.
    pub jumps: Vec<Offset>,
    /// Slides that skip their first square: (step, range counting the skipped square).
    pub skips: Vec<(Offset, u8)>,
    pub leaps: Vec<Offset>,
    /// (the captured neighbour's offset, the offsets of the second step from it).
    pub locusts: Vec<(Offset, Vec<Offset>)>,
    /// Lion-dog rays: the step of each.
    pub hops: Vec<Offset>,
    pub fars: Vec<Offset>,
    pub igui: Vec<Offset>,
    pub pass: Vec<Offset>,
    pub area: u8,
    /// (first leg's step, the two perpendicular steps).
    pub hooks: Vec<(Offset, [Offset; 2])>,
    pub anywhere: bool,
    /// Two families may name the same destination, so destinations are deduplicated.
    pub dedup: bool,
    /// The type has a family other than plain slides.
    pub special: bool,
}

impl Kind {
    fn new(m: &Moves, side: Side) -> Kind {
        let dir = dir_offsets(side);
        let lines: Vec<Line> =
            (0..8).filter(|&d| m.slide[d] > 0).map(|d| Line { step: dir[d], range: m.slide[d] }).collect();
        let skips: Vec<(Offset, u8)> = (0..8).filter(|&d| m.skip[d] > 0).map(|d| (dir[d], m.skip[d])).collect();
        // A one-square leap where the type also slides is that slide's first square: drop it.
        let leap_vectors: Vec<(i8, i8)> =
            m.leaps.iter().copied().filter(|&v| !(0..8).any(|d| STEP[d] == v && m.slide[d] > 0)).collect();
        // Whether a leap lands where a slide (or skipping slide) of the type may also arrive.
        let leap_on_line = leap_vectors.iter().any(|&(f, r)| {
            (0..8).any(|d| {
                let (sf, sr) = STEP[d];
                (1..=3).any(|k| (sf * k, sr * k) == (f, r) && (m.slide[d] >= k as u8 || m.skip[d] >= k as u8))
            })
        });
        let has_lines = !lines.is_empty() || !skips.is_empty();
        let hooks: Vec<(Offset, [Offset; 2])> =
            dirs(m.hook).map(|d| (dir[d], [dir[(d + 2) % 8], dir[(d + 6) % 8]])).collect();
        // Anything but slides is a special family.
        let special = *m != Moves { slide: m.slide, ..Moves::default() };
        Kind {
            // A hook reaches most squares by two corners; an area move covers the first squares
            // of slides and leaps.
            dedup: !hooks.is_empty() || leap_on_line || (m.area > 0 && (has_lines || !leap_vectors.is_empty())),
            lines,
            jumps: dirs(m.jump).map(|d| dir[d]).collect(),
            skips,
            leaps: leap_vectors.into_iter().map(|v| offset(side, v)).collect(),
            locusts: (0..8)
                .filter(|&d| m.locust[d] != 0)
                .map(|d| (dir[d], dirs(m.locust[d]).map(|r| dir[(d + r) % 8]).collect()))
                .collect(),
            hops: dirs(m.hop).map(|d| dir[d]).collect(),
            fars: dirs(m.far).map(|d| dir[d]).collect(),
            igui: dirs(m.igui).map(|d| dir[d]).collect(),
            pass: dirs(m.pass).map(|d| dir[d]).collect(),
            area: m.area,
            hooks,
            anywhere: m.anywhere,
            special,
        }
    }
}

/// Which kind of captured piece the Deva / Dark Spirit rule (§8.3) looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Victim {
    Ordinary,
    /// A Deva or Teaching King: the captor becomes a Teaching King.
    Teaching,
    /// A Dark Spirit or Divine Dragon: the captor becomes a Divine Dragon.
    Divine,
}

/// Everything the generator looks up per type.
#[derive(Debug)]
pub struct Tables {
    /// `kinds[side][type]`.
    kinds: [Vec<Kind>; 2],
    /// The type a piece becomes when it captures (its promoted form, or itself).
    capture_promotion: Vec<u8>,
    /// Royal and potentially royal pieces keep their normal promotion whatever they capture.
    deva_exempt: Vec<bool>,
    victim: Vec<Victim>,
    royal: Vec<bool>,
    /// Pawn, Stone and Iron General: promotion optional on reaching the last rank (§8.2).
    last_rank_choice: Vec<bool>,
    /// Each side's eight king-step offsets.
    pub dirs: [[Offset; 8]; 2],
}

impl Default for Tables {
    fn default() -> Tables {
        let all = 0..TYPES as u8;
        let moves: Vec<Moves> = all.clone().map(|t| (def(t).moves)()).collect();
        let exempt = [KING, PRINCE, DRUNK_ELEPHANT];
        Tables {
            kinds: Side::BOTH.map(|side| moves.iter().map(|m| Kind::new(m, side)).collect()),
            capture_promotion: all.clone().map(|t| if t < PROMOTING_TYPES { promoted(t) } else { t }).collect(),
            deva_exempt: all.clone().map(|t| exempt.contains(&t) || exempt.map(promoted).contains(&t)).collect(),
            victim: all
                .clone()
                .map(|t| match t {
                    DEVA | TEACHING_KING => Victim::Teaching,
                    DARK_SPIRIT | DIVINE_DRAGON => Victim::Divine,
                    _ => Victim::Ordinary,
                })
                .collect(),
            royal: all.clone().map(is_royal).collect(),
            last_rank_choice: all.map(|t| [PAWN, STONE_GENERAL, IRON_GENERAL].contains(&t)).collect(),
            dirs: Side::BOTH.map(dir_offsets),
        }
    }
}

impl Tables {
    #[inline]
    pub fn kind(&self, side: Side, t: u8) -> &Kind {
        &self.kinds[side.index()][t as usize]
    }

    #[inline]
    pub fn is_royal(&self, t: u8) -> bool {
        self.royal[t as usize]
    }

    #[inline]
    pub fn has_last_rank_choice(&self, t: u8) -> bool {
        self.last_rank_choice[t as usize]
    }

    /// The type a piece of type `t` ends as after capturing `first` and then `second` (codes; 0 =
    /// no second capture): its capture promotion (§8.1), unless the Deva / Dark Spirit rule takes
    /// over, the later such victim deciding (§8.3).
    #[inline]
    pub fn after_capture(&self, t: u8, first: u16, second: u16) -> u8 {
        let mut result = self.capture_promotion[t as usize];
        if !self.deva_exempt[t as usize] {
            for v in [first, second] {
                if v != 0 {
                    match self.victim[type_of(v) as usize] {
                        Victim::Teaching => result = TEACHING_KING,
                        Victim::Divine => result = DIVINE_DRAGON,
                        Victim::Ordinary => {}
                    }
                }
            }
        }
        result
    }
}

/// Whether a padded square is on `side`'s last rank.
#[inline]
pub fn on_last_rank(side: Side, sq: Sq) -> bool {
    let rank = crate::board::rank_of(sq);
    match side {
        Side::First => rank == crate::board::FILES - 1,
        Side::Second => rank == 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::code;
    use crate::pieces::{EMPEROR, INITIAL_TYPES};

    #[test]
    fn promotion_data_follows_the_config() {
        let t = Tables::default();
        assert_eq!(t.capture_promotion[PAWN as usize], promoted(PAWN));
        assert_eq!(t.capture_promotion[INITIAL_TYPES as usize - 1], INITIAL_TYPES - 1);
        assert_eq!(t.capture_promotion[EMPEROR as usize], EMPEROR);
        let deva = code(DEVA, Side::Second);
        let spirit = code(DARK_SPIRIT, Side::Second);
        assert_eq!(t.after_capture(PAWN, deva, spirit), DIVINE_DRAGON);
        assert_eq!(t.after_capture(PAWN, spirit, deva), TEACHING_KING);
        assert_eq!(t.after_capture(KING, deva, 0), EMPEROR);
        assert_eq!(t.after_capture(EMPEROR, deva, 0), EMPEROR);
    }
}
