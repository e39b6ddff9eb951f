//! The 15×15 field's precomputed tables: coordinates, neighbours, each face's targets per side and
//! cell, slide rays, and an attack table by offset, so the hot path never does bounds arithmetic.

use crate::faces::{ALL_FACES, FACES, Face};

/// The field's size (the script's default `field = 15x15`).
pub const SIZE: i32 = 15;
pub const CELLS: usize = (SIZE * SIZE) as usize;
/// A cell index, `y * 15 + x` (the host's cell numbering); [`NONE`] for "no cell".
pub type Sq = u8;
pub const NONE: Sq = u8::MAX;

/// A set of cells.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cells([u64; 4]);

impl Cells {
    #[inline]
    pub fn union(self, other: Cells) -> Cells {
        Cells(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }
    #[inline]
    pub fn contains(&self, c: Sq) -> bool {
        self.0[c as usize >> 6] >> (c & 63) & 1 != 0
    }
    #[inline]
    pub fn insert(&mut self, c: Sq) {
        self.0[c as usize >> 6] |= 1 << (c & 63);
    }
    pub fn iter(self) -> impl Iterator<Item = Sq> {
        (0..4).flat_map(move |w| ones(self.0[w]).map(move |i| (w * 64 + i) as Sq))
    }
}

/// The indices of the set bits, lowest first (sets of cubes, faces and cells are bit sets).
#[inline]
pub fn ones(set: impl Into<u64>) -> impl Iterator<Item = usize> {
    let mut set: u64 = set.into();
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The eight directions, clockwise from north.
pub const DIRS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// What a face standing on a cell does to a cell at a given offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    No,
    /// A step or a leap: it attacks whatever stands between.
    Jump,
    /// A slide: it attacks when the cells between (along this index step) are empty.
    Slide(i16),
}

/// The faces (bit = face id) that attack a cell at some offset: by a step or leap, and by a slide
/// (then along `step`, the cell index increment, provided the cells between are empty).
#[derive(Clone, Copy, Debug, Default)]
pub struct Checkers {
    pub jump: u32,
    pub slide: u32,
    pub step: i16,
}

/// Offsets from -14 to 14 on each axis.
const SPAN: usize = (2 * SIZE - 1) as usize;

#[derive(Debug)]
pub struct Tables {
    x: [i8; CELLS],
    y: [i8; CELLS],
    /// `cell * 8 + direction` → the neighbour or [`NONE`].
    neighbours: [Sq; CELLS * 8],
    /// Per cell, its neighbours as a set.
    around: [Cells; CELLS],
    /// Per (face, side, cell): the on-field jump targets, as a range of `jump_cells`.
    jump_range: Vec<(u32, u8)>,
    jump_cells: Vec<Sq>,
    /// Per (face, side): the slide directions.
    slide_dirs: Vec<Vec<u8>>,
    /// Per `cell * 8 + direction`: the cells to the edge, as a range of `ray_cells`.
    ray_range: Vec<(u32, u8)>,
    ray_cells: Vec<Sq>,
    /// Per (face, side) and offset: how the face reaches that offset.
    reach: Vec<Reach>,
    /// Per side and offset: every face's [`Reach`] at once, for drops.
    checkers: Vec<Checkers>,
}

#[inline]
fn slot(face: Face, side: usize) -> usize {
    face as usize * 2 + side
}

/// A vector in `side`'s frame turned into field coordinates.
fn oriented((dx, dy): (i8, i8), side: usize) -> (i32, i32) {
    if side == 0 { (dx as i32, dy as i32) } else { (-dx as i32, -dy as i32) }
}

fn cell_at(x: i32, y: i32) -> Option<Sq> {
    (0..SIZE).contains(&x).then_some(())?;
    (0..SIZE).contains(&y).then_some(())?;
    Some((y * SIZE + x) as Sq)
}

impl Tables {
    pub fn new() -> Tables {
        let mut t = Tables {
            x: [0; CELLS],
            y: [0; CELLS],
            neighbours: [NONE; CELLS * 8],
            around: [Cells::default(); CELLS],
            jump_range: Vec::with_capacity(ALL_FACES * 2 * CELLS),
            jump_cells: Vec::new(),
            slide_dirs: Vec::new(),
            ray_range: Vec::with_capacity(CELLS * 8),
            ray_cells: Vec::new(),
            reach: vec![Reach::No; ALL_FACES * 2 * SPAN * SPAN],
            checkers: vec![Checkers::default(); 2 * SPAN * SPAN],
        };
        for c in 0..CELLS {
            let (x, y) = (c as i32 % SIZE, c as i32 / SIZE);
            (t.x[c], t.y[c]) = (x as i8, y as i8);
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                t.neighbours[c * 8 + d] = cell_at(x + dx as i32, y + dy as i32).unwrap_or(NONE);
                if let Some(n) = cell_at(x + dx as i32, y + dy as i32) {
                    t.around[c].insert(n);
                }
                let start = t.ray_cells.len();
                let mut k = 1;
                while let Some(r) = cell_at(x + k * dx as i32, y + k * dy as i32) {
                    t.ray_cells.push(r);
                    k += 1;
                }
                t.ray_range.push((start as u32, (t.ray_cells.len() - start) as u8));
            }
        }
        for (f, def) in FACES.iter().enumerate() {
            for side in 0..2 {
                for c in 0..CELLS {
                    let start = t.jump_cells.len();
                    for &v in def.jumps {
                        let (dx, dy) = oriented(v, side);
                        if let Some(to) = cell_at(t.x[c] as i32 + dx, t.y[c] as i32 + dy) {
                            t.jump_cells.push(to);
                        }
                    }
                    t.jump_range.push((start as u32, (t.jump_cells.len() - start) as u8));
                }
                let dirs: Vec<u8> = (def.slides.iter())
                    .map(|&v| {
                        let (dx, dy) = oriented(v, side);
                        DIRS.iter().position(|&d| (d.0 as i32, d.1 as i32) == (dx, dy)).expect("a unit vector") as u8
                    })
                    .collect();
                let base = slot(f as Face, side) * SPAN * SPAN;
                for &v in def.jumps {
                    let (dx, dy) = oriented(v, side);
                    t.reach[base + offset_index(dx, dy)] = Reach::Jump;
                }
                for &d in &dirs {
                    let (dx, dy) = (DIRS[d as usize].0 as i32, DIRS[d as usize].1 as i32);
                    for k in 1..SIZE {
                        t.reach[base + offset_index(k * dx, k * dy)] = Reach::Slide((dy * SIZE + dx) as i16);
                    }
                }
                t.slide_dirs.push(dirs);
                for off in 0..SPAN * SPAN {
                    let ch = &mut t.checkers[side * SPAN * SPAN + off];
                    match t.reach[base + off] {
                        Reach::No => {}
                        Reach::Jump => ch.jump |= 1 << f,
                        Reach::Slide(step) => (ch.slide, ch.step) = (ch.slide | 1 << f, step),
                    }
                }
            }
        }
        t
    }

    #[inline]
    pub fn xy(&self, c: Sq) -> (i32, i32) {
        (self.x[c as usize] as i32, self.y[c as usize] as i32)
    }

    /// Chebyshev distance (king steps) between two cells.
    #[inline]
    pub fn distance(&self, a: Sq, b: Sq) -> i32 {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        (ax - bx).abs().max((ay - by).abs())
    }

    /// The (up to 8) cells next to `c`.
    #[inline]
    pub fn neighbours(&self, c: Sq) -> impl Iterator<Item = Sq> + '_ {
        self.neighbours[c as usize * 8..c as usize * 8 + 8].iter().copied().filter(|&n| n != NONE)
    }

    /// The cells next to `c`, as a set.
    #[inline]
    pub fn around(&self, c: Sq) -> Cells {
        self.around[c as usize]
    }

    /// The step and leap targets of `face` owned by `side` standing on `c`.
    #[inline]
    pub fn jumps(&self, face: Face, side: usize, c: Sq) -> &[Sq] {
        let (start, len) = self.jump_range[slot(face, side) * CELLS + c as usize];
        &self.jump_cells[start as usize..start as usize + len as usize]
    }

    #[inline]
    pub fn slide_dirs(&self, face: Face, side: usize) -> &[u8] {
        &self.slide_dirs[slot(face, side)]
    }

    /// The cells from `c` (excluded) to the edge in direction `d`.
    #[inline]
    pub fn ray(&self, c: Sq, d: u8) -> &[Sq] {
        let (start, len) = self.ray_range[c as usize * 8 + d as usize];
        &self.ray_cells[start as usize..start as usize + len as usize]
    }

    /// How `face` owned by `side` on `from` reaches `to`.
    #[inline]
    pub fn reach(&self, face: Face, side: usize, from: Sq, to: Sq) -> Reach {
        self.reach[slot(face, side) * SPAN * SPAN + self.offset(from, to)]
    }

    /// Which faces owned by `side` on `from` reach `to`.
    #[inline]
    pub fn checkers(&self, side: usize, from: Sq, to: Sq) -> Checkers {
        self.checkers[side * SPAN * SPAN + self.offset(from, to)]
    }

    #[inline]
    fn offset(&self, from: Sq, to: Sq) -> usize {
        let (fx, fy) = self.xy(from);
        let (tx, ty) = self.xy(to);
        offset_index(tx - fx, ty - fy)
    }
}

#[inline]
fn offset_index(dx: i32, dy: i32) -> usize {
    let m = SIZE - 1;
    ((dx + m) as usize) * SPAN + (dy + m) as usize
}

impl Default for Tables {
    fn default() -> Self {
        Tables::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corner_has_three_neighbours_and_rays_reach_the_edge() {
        let t = Tables::new();
        assert_eq!(t.neighbours(0).count(), 3);
        assert_eq!(t.neighbours(7 * 15 + 7).count(), 8);
        // North from (7, 7): (7, 8) … (7, 14).
        assert_eq!(t.ray(7 * 15 + 7, 0), &(8..15).map(|y| (y * 15 + 7) as Sq).collect::<Vec<_>>()[..]);
        assert!(t.ray(14, 2).is_empty());
    }

    #[test]
    fn white_moves_are_blacks_turned_around() {
        let t = Tables::new();
        let centre = 7 * 15 + 7;
        // Ken (fWbF): Black steps north, White south.
        assert!(t.jumps(12, 0, centre).contains(&(centre + 15)));
        assert!(t.jumps(12, 1, centre).contains(&(centre - 15)));
        assert_eq!(t.reach(11, 1, centre, centre - 45), Reach::Slide(-15));
        assert_eq!(t.reach(11, 0, centre, centre - 45), Reach::No);
    }
}
