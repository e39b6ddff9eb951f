//! Everything the bitboard engine would otherwise compute from coordinates, built once per
//! variant: rays, step and leap attack sets, slide directions, zones, dead cells, files, and the
//! groupings that make "is this cell attacked" a handful of ANDs.

use crate::model::geometry::Vector;
use crate::model::side::Side;
use crate::rules::RuleSet;
use crate::rules::betza::Atom;

use super::bits::Bits;

/// The most piece types the engine handles (it keeps one bitboard per type).
pub const MAX_TYPES: usize = 16;

/// The eight slide directions as (file, rank) steps: E N NE NW W S SW SE. Directions 0–3 go up
/// in cell index and 4–7 down, so the first piece along a ray is its lowest or highest bit, and
/// `d ^ 4` is the opposite direction.
pub const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)];

/// Types whose step and leap sets are the same: one lookup finds every checker among them.
#[derive(Clone, Copy, Debug)]
pub struct StepGroup {
    /// One of the types, whose table stands for all.
    pub rep: usize,
}

#[derive(Debug)]
pub struct Tables<B> {
    pub cells: usize,
    pub types: usize,
    /// Every cell of the board.
    pub all: B,
    /// `[c][d]`: the cells from `c` (exclusive) to the edge in direction `d`.
    rays: Vec<[B; 8]>,
    /// `(type * 2 + side) * cells + c`: where the type's steps and leaps reach from `c`.
    steps: Vec<B>,
    /// `type * 2 + side`: the type's slide directions as a bit set over [`DIRECTIONS`].
    slides: Vec<u8>,
    /// Each side's promotion zone.
    pub zone: [B; 2],
    /// `type * 2 + side`: cells where the type could never move again.
    dead: Vec<B>,
    /// `c`: every cell of `c`'s file.
    pub file_of: Vec<B>,
    pub step_groups: Vec<StepGroup>,
    /// `type`: its step group, if it steps or leaps at all.
    pub group_of: [Option<u8>; MAX_TYPES],
}

/// A piece's move in the first player's frame, split the way the tables store it.
struct Split {
    /// (file, rank) steps of plain leaps (range 1), sorted.
    leaps: Vec<(i32, i32)>,
    /// Directions of plain slides (unlimited range).
    slides: Vec<Vector>,
}

/// Splits a piece's atoms into leaps and slides; anything else is outside this engine.
fn split_atoms(atoms: &[Atom]) -> Result<Split, String> {
    let mut leaps = Vec::new();
    let mut slides = Vec::new();
    for a in atoms {
        let v = a.vector;
        if v.dl != 0 || a.lame || a.skip_first || !a.mode.moves || !a.mode.captures {
            return Err(format!("{a:?} is not a plain 2D step, leap or slide"));
        }
        match a.range {
            1 => leaps.push((v.df as i32, v.dr as i32)),
            0 if v.df.abs() <= 1 && v.dr.abs() <= 1 => slides.push(v),
            _ => return Err(format!("{a:?}: only unlimited slides along the eight lines are supported")),
        }
    }
    leaps.sort();
    leaps.dedup();
    Ok(Split { leaps, slides })
}

impl<B: Bits> Tables<B> {
    pub fn build(rules: &RuleSet) -> Result<Tables<B>, String> {
        let g = &rules.geometry;
        let (files, ranks) = (g.files as usize, g.ranks as usize);
        let cells = files * ranks;
        if g.levels != 1 || !g.holes.is_empty() {
            return Err("only flat boards without holes".into());
        }
        if cells > B::CELLS {
            return Err(format!("a {files}×{ranks} board does not fit in {} bits", B::CELLS));
        }
        if rules.pieces.len() > MAX_TYPES {
            return Err(format!("at most {MAX_TYPES} piece types"));
        }
        let at = |f: i32, r: i32| {
            (f >= 0 && r >= 0 && f < files as i32 && r < ranks as i32).then(|| r as usize * files + f as usize)
        };
        let coords = |c: usize| ((c % files) as i32, (c / files) as i32);

        let mut t = Tables {
            cells,
            types: rules.pieces.len(),
            all: (0..cells).fold(B::EMPTY, |b, c| b | B::bit(c)),
            rays: vec![[B::EMPTY; 8]; cells],
            steps: Vec::with_capacity(rules.pieces.len() * 2 * cells),
            slides: Vec::new(),
            zone: [B::EMPTY; 2],
            dead: Vec::new(),
            file_of: vec![B::EMPTY; cells],
            step_groups: Vec::new(),
            group_of: [None; MAX_TYPES],
        };
        for c in 0..cells {
            let (f, r) = coords(c);
            for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
                let mut k = 1;
                while let Some(n) = at(f + k * df, r + k * dr) {
                    t.rays[c][d] |= B::bit(n);
                    k += 1;
                }
            }
            for other in 0..ranks {
                t.file_of[c] |= B::bit(other * files + f as usize);
            }
            let depth = rules.promotion.zone_depth as usize;
            if r as usize >= ranks.saturating_sub(depth) && depth > 0 {
                t.zone[Side::First.index()] |= B::bit(c);
            }
            if (r as usize) < depth {
                t.zone[Side::Second.index()] |= B::bit(c);
            }
        }

        let mut leap_sets = Vec::new();
        for (ty, p) in rules.pieces.iter().enumerate() {
            let Split { leaps, slides } = split_atoms(&p.atoms).map_err(|e| format!("piece {:?}: {e}", p.name))?;
            for side in Side::BOTH {
                let mut dirs = 0u8;
                for v in &slides {
                    let w = v.for_side(side);
                    let d = DIRECTIONS.iter().position(|&x| x == (w.df as i32, w.dr as i32)).expect("a unit direction");
                    dirs |= 1 << d;
                }
                t.slides.push(dirs);
                let mut dead = B::EMPTY;
                for c in 0..cells {
                    let (f, r) = coords(c);
                    let mut reach = B::EMPTY;
                    for &(df, dr) in &leaps {
                        let w = Vector::flat(df as i8, dr as i8).for_side(side);
                        if let Some(n) = at(f + w.df as i32, r + w.dr as i32) {
                            reach |= B::bit(n);
                        }
                    }
                    t.steps.push(reach);
                    let slide_reach = (0..8).filter(|d| dirs >> d & 1 != 0).any(|d| !t.rays[c][d].is_empty());
                    if reach.is_empty() && !slide_reach {
                        dead |= B::bit(c);
                    }
                }
                t.dead.push(dead);
            }
            if leaps.is_empty() {
                continue;
            }
            let group = leap_sets.iter().position(|l| *l == leaps).unwrap_or_else(|| {
                leap_sets.push(leaps);
                t.step_groups.push(StepGroup { rep: ty });
                t.step_groups.len() - 1
            });
            t.group_of[ty] = Some(group as u8);
        }
        Ok(t)
    }

    #[inline]
    pub fn ray(&self, c: usize, d: usize) -> B {
        self.rays[c][d & 7]
    }

    /// Where a type's steps and leaps reach, by cell.
    #[inline]
    pub fn step_table(&self, ty: usize, side: Side) -> &[B] {
        let start = (ty * 2 + side.index()) * self.cells;
        &self.steps[start..start + self.cells]
    }

    /// Where a type's steps and leaps reach from `c`.
    #[inline]
    pub fn steps(&self, ty: usize, side: Side, c: usize) -> B {
        self.step_table(ty, side)[c]
    }

    #[inline]
    pub fn slide_dirs(&self, ty: usize, side: Side) -> u8 {
        self.slides[ty * 2 + side.index()]
    }

    #[inline]
    pub fn dead(&self, ty: usize, side: Side) -> B {
        self.dead[ty * 2 + side.index()]
    }

    /// The first occupied cell of `occupied` (a subset of a ray in direction `d`) seen from the
    /// ray's start.
    #[inline]
    pub fn first(d: usize, occupied: B) -> usize {
        if d < 4 { occupied.lowest() } else { occupied.highest() }
    }

    /// The cells a slider on `c` reaches in direction `d`: up to and including the first piece.
    #[inline]
    pub fn slide(&self, d: usize, c: usize, occ: B) -> B {
        let ray = self.ray(c, d);
        let blockers = ray & occ;
        if blockers.is_empty() { ray } else { ray ^ self.ray(Self::first(d, blockers), d) }
    }

    /// The slides in the directions `dirs` (a bit set) from `c`.
    #[inline]
    pub fn slides(&self, mut dirs: u8, c: usize, occ: B) -> B {
        let mut a = B::EMPTY;
        while dirs != 0 {
            a |= self.slide(dirs.trailing_zeros() as usize, c, occ);
            dirs &= dirs - 1;
        }
        a
    }

    /// Every cell a piece of `ty` on `c` attacks with the board occupied as `occ`.
    #[inline]
    pub fn attacks(&self, ty: usize, side: Side, c: usize, occ: B) -> B {
        self.steps(ty, side, c) | self.slides(self.slide_dirs(ty, side), c, occ)
    }
}
