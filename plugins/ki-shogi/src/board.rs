//! The engine's own position: the few cubes on the field as a list plus an occupancy bit set,
//! hands by cube, both Gyoku's cells and the side to move. About a hundred bytes, so moves are
//! tried on a copy rather than made and unmade.

use henka_api::model::field::GRACE;
use henka_api::{Move, MoveKind, Piece, Position, Side};

use crate::faces::{CUBE_FIRST_FACES, Face, GYOKU, cube_of};
use crate::tables::{CELLS, NONE, Reach, Sq, Tables};

/// The most cubes the engine follows on the field: twice the 4 cubes of the Ki extension, with
/// room for positions written with more.
pub const MAX_MEN: usize = 16;

/// A cube on the field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Man {
    pub sq: Sq,
    pub face: Face,
    /// 0 Black, 1 White.
    pub side: u8,
    /// Stranded by the opponent: its owner may recover it this turn (docs/rules/ki-shogi.md §9).
    pub grace: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct Board {
    men: [Man; MAX_MEN],
    len: u8,
    occ: [u64; 4],
    /// Cubes in hand: `hands[side][cube]`, cube 0 Gyoku, 1 Hi, 2 Kaku, 3 Ki.
    pub hands: [[u8; 4]; 2],
    /// Each side's Gyoku cell, [`NONE`] while in hand.
    pub gyoku: [Sq; 2],
    /// The side to move, 0 Black, 1 White.
    pub stm: usize,
}

impl Board {
    /// Reads a host position of a variant with `faces` piece types and `cubes` kinds of cube.
    pub fn from_position(pos: &Position, faces: usize, cubes: usize) -> Result<Board, String> {
        if pos.cells().len() != CELLS || pos.piece_types() != faces {
            return Err(format!(
                "the position has {} cells and {} piece types, Ki Shogi {CELLS} and {faces}",
                pos.cells().len(),
                pos.piece_types()
            ));
        }
        let mut b = Board {
            men: [Man::default(); MAX_MEN],
            len: 0,
            occ: [0; 4],
            hands: [[0; 4]; 2],
            gyoku: [NONE; 2],
            stm: pos.side_to_move().index(),
        };
        for (c, p) in pos.cells().iter().enumerate() {
            let Some(p) = p else { continue };
            if b.len as usize == MAX_MEN {
                return Err(format!("more than {MAX_MEN} cubes on the field"));
            }
            let side = p.side.index();
            if p.ty == GYOKU {
                if b.gyoku[side] != NONE {
                    return Err(format!("{} has two Gyoku on the field", p.side));
                }
                b.gyoku[side] = c as Sq;
            }
            b.add(Man { sq: c as Sq, face: p.ty, side: side as u8, grace: p.flags & GRACE != 0 });
        }
        for side in Side::BOTH {
            for cube in 0..cubes {
                b.hands[side.index()][cube] = pos.hand(side, CUBE_FIRST_FACES[cube]);
            }
        }
        Ok(b)
    }

    /// Writes the board as a host position (`faces` piece types) with the given move number.
    pub fn write_position(&self, faces: usize, move_number: u32) -> Position {
        let mut pos = Position::empty(CELLS, faces);
        for m in self.men() {
            let side = if m.side == 0 { Side::First } else { Side::Second };
            let flags = if m.grace { GRACE } else { 0 };
            pos.set(m.sq as u16, Some(Piece { ty: m.face, side, flags }));
        }
        for side in Side::BOTH {
            for (cube, &n) in self.hands[side.index()].iter().enumerate() {
                if n > 0 {
                    pos.set_hand(side, CUBE_FIRST_FACES[cube], n);
                }
            }
        }
        pos.set_side_to_move(if self.stm == 0 { Side::First } else { Side::Second });
        pos.set_move_number(move_number);
        pos
    }

    #[inline]
    pub fn men(&self) -> &[Man] {
        &self.men[..self.len as usize]
    }

    #[inline]
    pub fn occupied(&self, c: Sq) -> bool {
        self.occ[c as usize >> 6] >> (c & 63) & 1 != 0
    }

    /// The index in [`Board::men`] of the cube on `c`.
    #[inline]
    pub fn man_at(&self, c: Sq) -> Option<usize> {
        if !self.occupied(c) {
            return None;
        }
        self.men().iter().position(|m| m.sq == c)
    }

    #[inline]
    fn flip_occ(&mut self, c: Sq) {
        self.occ[c as usize >> 6] ^= 1 << (c & 63);
    }

    fn add(&mut self, m: Man) {
        self.flip_occ(m.sq);
        self.men[self.len as usize] = m;
        self.len += 1;
    }

    /// Takes the cube `i` off the field (the list's order is not kept).
    fn remove(&mut self, i: usize) -> Man {
        let m = self.men[i];
        self.flip_occ(m.sq);
        self.len -= 1;
        self.men[i] = self.men[self.len as usize];
        if m.face == GYOKU {
            self.gyoku[m.side as usize] = NONE;
        }
        m
    }

    /// Captures the cube `i` for `captor`: it goes to hand as its cube.
    pub fn capture(&mut self, i: usize, captor: usize) {
        let m = self.remove(i);
        let held = &mut self.hands[captor][cube_of(m.face)];
        *held = held.saturating_add(1);
    }

    /// Sets or clears the grace mark of cube `i`.
    #[inline]
    pub fn set_grace(&mut self, i: usize, on: bool) {
        self.men[i].grace = on;
    }

    /// Plays `mv` for the side to move without the end of the turn: the cube moves (and drops any
    /// grace mark) or enters from hand, a captured cube goes to the mover's hand.
    pub fn apply(&mut self, mv: Move) {
        let me = self.stm;
        let to = mv.to as Sq;
        match mv.kind {
            MoveKind::Board => {
                if let Some(j) = self.man_at(to) {
                    self.capture(j, me);
                }
                let i = self.man_at(mv.from as Sq).expect("a board move starts on a cube");
                self.flip_occ(mv.from as Sq);
                self.flip_occ(to);
                self.men[i] = Man { sq: to, face: mv.piece, side: me as u8, grace: false };
                if mv.piece == GYOKU {
                    self.gyoku[me] = to;
                }
            }
            MoveKind::Drop | MoveKind::Place => {
                let held = &mut self.hands[me][cube_of(mv.piece)];
                *held = held.saturating_sub(1);
                self.add(Man { sq: to, face: mv.piece, side: me as u8, grace: false });
                if mv.piece == GYOKU {
                    self.gyoku[me] = to;
                }
            }
            MoveKind::Pass => {}
        }
    }

    /// Whether the cube `face` of `side` standing on `from` attacks `target` on this board.
    #[inline]
    pub fn reaches(&self, t: &Tables, face: Face, side: usize, from: Sq, target: Sq) -> bool {
        match t.reach(face, side, from, target) {
            Reach::No => false,
            Reach::Jump => true,
            Reach::Slide(step) => self.clear_between(from, target, step),
        }
    }

    /// Whether the cells strictly between `from` and `to`, `step` apart, are empty.
    #[inline]
    pub fn clear_between(&self, from: Sq, to: Sq, step: i16) -> bool {
        let mut c = from as i16 + step;
        while c != to as i16 {
            if self.occupied(c as Sq) {
                return false;
            }
            c += step;
        }
        true
    }

    /// Whether some cube of `by` (grace-marked ones too) attacks `target`.
    #[inline]
    pub fn attacked(&self, t: &Tables, target: Sq, by: usize) -> bool {
        self.men().iter().any(|m| m.side as usize == by && self.reaches(t, m.face, by, m.sq, target))
    }

    /// Whether the side to move's Gyoku stands on the field attacked.
    pub fn in_check(&self, t: &Tables) -> bool {
        let g = self.gyoku[self.stm];
        g != NONE && self.attacked(t, g, 1 - self.stm)
    }
}
