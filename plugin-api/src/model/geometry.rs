//! Board geometry: one box of `files × ranks × levels` cells covers every seed variant.
//!
//! Coordinates are seen from the first player: `file` 0 is the first player's left, `rank` 0 is the
//! first player's back rank (forward for the first player is +rank). Levels are numbered 0 … n−1;
//! notation names level 0 first (in Ladies and Generals that is `u`, the top level).
//! Cells are numbered densely, level-major then rank then file, so a 2D board is simply one level.
//! Cells that are not part of an odd-shaped board are marked as missing and never entered.

use serde::{Deserialize, Serialize};

use crate::model::side::Side;

/// A dense cell index on a board. `u16` covers boards up to 65,535 cells.
pub type Cell = u16;

/// "No cell": the intermediate stop of a move that has none, or a step off the board.
pub const NO_CELL: Cell = Cell::MAX;

/// A displacement in cells, in the frame of whoever moves (forward = +`dr` for either player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Vector {
    pub df: i8,
    pub dr: i8,
    pub dl: i8,
}

impl Vector {
    pub const fn new(df: i8, dr: i8, dl: i8) -> Vector {
        Vector { df, dr, dl }
    }

    /// A 2D vector (level change 0).
    pub const fn flat(df: i8, dr: i8) -> Vector {
        Vector { df, dr, dl: 0 }
    }

    /// The vector pointing the other way.
    pub const fn reversed(self) -> Vector {
        Vector { df: -self.df, dr: -self.dr, dl: -self.dl }
    }

    /// Maps a vector from a player's own frame to board coordinates. The second player is turned
    /// 180° in the file/rank plane; levels are the same for both.
    #[inline]
    pub const fn for_side(self, side: Side) -> Vector {
        match side {
            Side::First => self,
            Side::Second => Vector { df: -self.df, dr: -self.dr, dl: self.dl },
        }
    }
}

/// The shape of a board, as declared by a variant. Serialisable so plugins can describe it as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeometrySpec {
    pub files: u8,
    pub ranks: u8,
    #[serde(default = "one")]
    pub levels: u8,
    /// Cells that are not part of the board (by index), for odd shapes.
    #[serde(default)]
    pub holes: Vec<Cell>,
}

fn one() -> u8 {
    1
}

impl GeometrySpec {
    pub fn flat(files: u8, ranks: u8) -> GeometrySpec {
        GeometrySpec { files, ranks, levels: 1, holes: Vec::new() }
    }
}

/// A board's cells with their coordinates and existence. Cheap to query; built once per variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    levels: u8,
    exists: Vec<bool>,
}

/// Why a geometry could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    #[error("a board needs at least one file, rank and level (got {0}×{1}×{2})")]
    Empty(u8, u8, u8),
    #[error("a board may have at most 65,534 cells (got {0})")]
    TooLarge(usize),
    #[error("hole {0} is not a cell of the board")]
    BadHole(Cell),
    #[error("a board with levels names files and levels by letters: at most 26 of each (got {0} and {1})")]
    TooManyLetters(u8, u8),
}

impl Geometry {
    pub fn new(spec: &GeometrySpec) -> Result<Geometry, GeometryError> {
        let (files, ranks, levels) = (spec.files, spec.ranks, spec.levels);
        if files == 0 || ranks == 0 || levels == 0 {
            return Err(GeometryError::Empty(files, ranks, levels));
        }
        if levels > 1 && (files > 26 || levels > 26) {
            return Err(GeometryError::TooManyLetters(files, levels));
        }
        let n = files as usize * ranks as usize * levels as usize;
        if n >= NO_CELL as usize {
            return Err(GeometryError::TooLarge(n));
        }
        let mut exists = vec![true; n];
        for &h in &spec.holes {
            *exists.get_mut(h as usize).ok_or(GeometryError::BadHole(h))? = false;
        }
        Ok(Geometry { files, ranks, levels, exists })
    }

    pub fn files(&self) -> u8 {
        self.files
    }
    pub fn ranks(&self) -> u8 {
        self.ranks
    }
    pub fn levels(&self) -> u8 {
        self.levels
    }

    /// Number of cell indices (including holes).
    pub fn len(&self) -> usize {
        self.exists.len()
    }

    pub fn is_empty(&self) -> bool {
        self.exists.is_empty()
    }

    /// Whether the cell index names a real cell of this board.
    #[inline]
    pub fn exists(&self, c: Cell) -> bool {
        self.exists.get(c as usize).copied().unwrap_or(false)
    }

    /// The cell at these coordinates, if it is on the board.
    pub fn cell(&self, file: i32, rank: i32, level: i32) -> Option<Cell> {
        if file < 0 || rank < 0 || level < 0 {
            return None;
        }
        if file >= self.files as i32 || rank >= self.ranks as i32 || level >= self.levels as i32 {
            return None;
        }
        let c = ((level * self.ranks as i32 + rank) * self.files as i32 + file) as Cell;
        self.exists[c as usize].then_some(c)
    }

    /// `(file, rank, level)` of a cell.
    #[inline]
    pub fn coords(&self, c: Cell) -> (i32, i32, i32) {
        let c = c as i32;
        let f = self.files as i32;
        let r = self.ranks as i32;
        (c % f, (c / f) % r, c / (f * r))
    }

    /// The cell reached from `c` by a board-frame vector, if on the board.
    pub fn offset(&self, c: Cell, v: Vector) -> Option<Cell> {
        let (f, r, l) = self.coords(c);
        self.cell(f + v.df as i32, r + v.dr as i32, l + v.dl as i32)
    }

    /// How far a cell is from `side`'s back rank (0 = own back rank).
    #[inline]
    pub fn rank_from(&self, side: Side, c: Cell) -> i32 {
        let (_, r, _) = self.coords(c);
        match side {
            Side::First => r,
            Side::Second => self.ranks as i32 - 1 - r,
        }
    }

    /// All real cells, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.exists.len() as Cell).filter(|&c| self.exists[c as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip_on_a_3d_box() {
        let g = Geometry::new(&GeometrySpec { files: 6, ranks: 9, levels: 6, holes: vec![] }).unwrap();
        for c in g.cells() {
            let (f, r, l) = g.coords(c);
            assert_eq!(g.cell(f, r, l), Some(c));
        }
        assert_eq!(g.len(), 324);
    }

    #[test]
    fn second_player_frame_turns_the_plane_but_not_levels() {
        let v = Vector::new(1, 2, 1);
        assert_eq!(v.for_side(Side::Second), Vector::new(-1, -2, 1));
        let g = Geometry::new(&GeometrySpec::flat(9, 9)).unwrap();
        let c = g.cell(4, 4, 0).unwrap();
        assert_eq!(g.offset(c, Vector::flat(0, 1).for_side(Side::Second)), g.cell(4, 3, 0));
        assert_eq!(g.rank_from(Side::Second, g.cell(0, 8, 0).unwrap()), 0);
    }

    #[test]
    fn holes_are_not_cells() {
        let g = Geometry::new(&GeometrySpec { files: 3, ranks: 3, levels: 1, holes: vec![4] }).unwrap();
        assert_eq!(g.cell(1, 1, 0), None);
        assert_eq!(g.cells().count(), 8);
        assert!(Geometry::new(&GeometrySpec { files: 3, ranks: 3, levels: 1, holes: vec![9] }).is_err());
    }
}
