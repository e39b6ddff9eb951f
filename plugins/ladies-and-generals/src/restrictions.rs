//! The four restrictions of docs/rules/ladies-and-generals.md §6 and the groups they count: files
//! (fixed filestack and level), Bishop bindings (parity of filestack + level + rank) and Unicorn
//! bindings (a parity triple together with its complement).
//!
//! A restriction is a condition on the mover's own unpromoted pieces after every action. In a
//! position that meets them, an action can break one only by adding a limited piece to a group:
//! a Princeling changing file, a Goldgeneral switching back to a Rookranker, a drop. So the
//! generator asks [`Groups::may_add`] for exactly those; Bishops and Unicorns never leave their
//! binding and Rookrankers never leave their file. (A position that already breaks a limit is
//! not checked again: it cannot arise in play.)
//!
//! The same groups, counted by how many of their cells are filled, let perft count drops
//! without listing them.

use henka_api::{PieceId, Side};

use crate::board::{FILESTACKS, RANKS, SQUARES, Sq, coords};
use crate::pieces::{BISHOP, PRINCELING, ROOKRANKER, UNICORN};

/// Files on the board (36): the 9-cell lines of fixed filestack and level.
pub const FILES: usize = FILESTACKS * crate::board::LEVELS;
/// Cells of one file.
pub const FILE_CELLS: u8 = RANKS as u8;
/// Cells of one Bishop binding (half the board).
pub const BISHOP_BINDING_CELLS: u16 = 162;
/// Cells of one Unicorn binding (a quarter of the board).
pub const UNICORN_BINDING_CELLS: u8 = 81;

/// §6.1: at most two unpromoted Princelings per file.
pub const PRINCELINGS_PER_FILE: u8 = 2;
/// §6.2: at most four unpromoted Rookrankers per file (as written; `max_rookrankers_per_file`).
pub const ROOKRANKERS_PER_FILE: u8 = 4;
/// §6.3: at most two unpromoted Bishops per Bishop binding.
pub const BISHOPS_PER_BINDING: u8 = 2;
/// §6.4: at most two unpromoted Unicorns per Unicorn binding.
pub const UNICORNS_PER_BINDING: u8 = 2;

/// Which file, Bishop binding and Unicorn binding a square is in (0 for guards, never asked).
#[derive(Clone, Copy, Debug)]
pub struct Membership {
    pub file: u8,
    pub bishop: u8,
    pub unicorn: u8,
}

pub const MEMBERSHIP: [Membership; SQUARES] = {
    let mut a = [Membership { file: 0, bishop: 0, unicorn: 0 }; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r, l) = coords(sq);
        if f >= 0 && r >= 0 && l >= 0 && f < FILESTACKS as isize && r < RANKS as isize && l < 6 {
            a[sq] = Membership {
                file: (l * FILESTACKS as isize + f) as u8,
                bishop: ((f + l + r) & 1) as u8,
                // The triple (f, l, r) and its complement agree on f ^ l and f ^ r.
                unicorn: ((((f ^ l) & 1) << 1) | ((f ^ r) & 1)) as u8,
            };
        }
        sq += 1;
    }
    a
};

/// Per group: how many cells are filled (by anyone) and how many limited pieces each side has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groups {
    filled_file: [u8; FILES],
    filled_bishop: [u16; 2],
    filled_unicorn: [u8; 4],
    princelings: [[u8; FILES]; 2],
    rookrankers: [[u8; FILES]; 2],
    bishops: [[u8; 2]; 2],
    unicorns: [[u8; 4]; 2],
}

impl Default for Groups {
    fn default() -> Groups {
        Groups {
            filled_file: [0; FILES],
            filled_bishop: [0; 2],
            filled_unicorn: [0; 4],
            princelings: [[0; FILES]; 2],
            rookrankers: [[0; FILES]; 2],
            bishops: [[0; 2]; 2],
            unicorns: [[0; 4]; 2],
        }
    }
}

impl Groups {
    #[inline]
    pub fn add(&mut self, sq: Sq, ty: PieceId, side: Side) {
        self.change(sq, ty, side, 1);
    }

    #[inline]
    pub fn remove(&mut self, sq: Sq, ty: PieceId, side: Side) {
        self.change(sq, ty, side, -1);
    }

    #[inline]
    fn change(&mut self, sq: Sq, ty: PieceId, side: Side, by: i8) {
        let m = MEMBERSHIP[sq];
        let s = side.index();
        let (file, bishop, unicorn) = (m.file as usize, m.bishop as usize, m.unicorn as usize);
        self.filled_file[file] = self.filled_file[file].wrapping_add_signed(by);
        self.filled_bishop[bishop] = self.filled_bishop[bishop].wrapping_add_signed(by.into());
        self.filled_unicorn[unicorn] = self.filled_unicorn[unicorn].wrapping_add_signed(by);
        let count = match ty {
            PRINCELING => &mut self.princelings[s][file],
            ROOKRANKER => &mut self.rookrankers[s][file],
            BISHOP => &mut self.bishops[s][bishop],
            UNICORN => &mut self.unicorns[s][unicorn],
            _ => return,
        };
        *count = count.wrapping_add_signed(by);
    }

    /// Whether `side` may add one more unpromoted piece of type `ty` on `sq` and stay within §6
    /// (always, for the types §6 does not limit).
    #[inline]
    pub fn may_add(&self, side: Side, ty: PieceId, sq: Sq) -> bool {
        let m = MEMBERSHIP[sq];
        let s = side.index();
        match ty {
            PRINCELING => self.princelings[s][m.file as usize] < PRINCELINGS_PER_FILE,
            ROOKRANKER => self.rookrankers[s][m.file as usize] < ROOKRANKERS_PER_FILE,
            BISHOP => self.bishops[s][m.bishop as usize] < BISHOPS_PER_BINDING,
            UNICORN => self.unicorns[s][m.unicorn as usize] < UNICORNS_PER_BINDING,
            _ => true,
        }
    }

    /// How many empty cells `side` may add an unpromoted piece of type `ty` to, by §6 alone:
    /// the empty cells of the groups below their limit (all empty cells for unlimited types).
    pub fn cells_open_to(&self, side: Side, ty: PieceId) -> u16 {
        let s = side.index();
        let files = |counts: &[u8; FILES], limit: u8| -> u16 {
            (0..FILES).filter(|&f| counts[f] < limit).map(|f| u16::from(FILE_CELLS - self.filled_file[f])).sum()
        };
        match ty {
            PRINCELING => files(&self.princelings[s], PRINCELINGS_PER_FILE),
            ROOKRANKER => files(&self.rookrankers[s], ROOKRANKERS_PER_FILE),
            BISHOP => (0..2)
                .filter(|&b| self.bishops[s][b] < BISHOPS_PER_BINDING)
                .map(|b| BISHOP_BINDING_CELLS - self.filled_bishop[b])
                .sum(),
            UNICORN => (0..4)
                .filter(|&u| self.unicorns[s][u] < UNICORNS_PER_BINDING)
                .map(|u| u16::from(UNICORN_BINDING_CELLS - self.filled_unicorn[u]))
                .sum(),
            _ => 2 * BISHOP_BINDING_CELLS - self.filled_bishop[0] - self.filled_bishop[1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::REAL;

    #[test]
    fn the_groups_partition_the_board_into_equal_parts() {
        let mut files = [0u8; FILES];
        let mut bishop = [0u16; 2];
        let mut unicorn = [0u8; 4];
        for &sq in &REAL {
            let m = MEMBERSHIP[sq];
            files[m.file as usize] += 1;
            bishop[m.bishop as usize] += 1;
            unicorn[m.unicorn as usize] += 1;
        }
        assert_eq!(files, [FILE_CELLS; FILES]);
        assert_eq!(bishop, [BISHOP_BINDING_CELLS; 2]);
        assert_eq!(unicorn, [UNICORN_BINDING_CELLS; 4]);
    }

    #[test]
    fn standard_diagonals_keep_the_bishop_binding_and_triagonals_the_unicorn_binding() {
        use crate::board::offset;
        use crate::radials::{ND, RADIALS, SD, indices};
        let real = |sq: isize| REAL.contains(&(sq as usize));
        for &sq in &REAL {
            for d in indices(SD) {
                let to = sq as isize + offset(RADIALS[d]);
                if real(to) {
                    assert_eq!(MEMBERSHIP[to as usize].bishop, MEMBERSHIP[sq].bishop);
                }
            }
            for d in indices(ND) {
                let to = sq as isize + offset(RADIALS[d]);
                if real(to) {
                    assert_eq!(MEMBERSHIP[to as usize].unicorn, MEMBERSHIP[sq].unicorn);
                }
            }
        }
    }
}
