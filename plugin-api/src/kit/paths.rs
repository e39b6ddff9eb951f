//! Multi-leg moves: XBetza paths (`caK`, `pafcR`, `masR`, `KaKaaK`, `U`, …) compiled to direction
//! masks per piece, side and leg, and walked on the board by a small interpreter.
//!
//! Paths are the slow, general case next to the table-driven single-leg atoms: the walk follows
//! each leg through a per-cell neighbour table, so it never does coordinate arithmetic, but it
//! does branch on what stands on each cell. The rules every path obeys:
//! - the start counts as empty once the piece has left it, and a piece captured on an earlier leg
//!   is gone at once (it no longer blocks later legs);
//! - only a captured cell is recorded as the move's stop (`via`), so paths with the same effect
//!   produce the same move and the caller's de-duplication makes them one.

use crate::model::geometry::{Cell, Geometry, NO_CELL, Vector};
use crate::model::moves::{Move, MoveKind};
use crate::model::position::Position;
use crate::model::side::Side;
use crate::rules::betza::{LegDirs, Path, Stop, UNIT_DIRS, unit_dir};

/// One leg, ready to walk.
#[derive(Clone, Copy, Debug)]
struct CompiledLeg {
    /// For each previous direction (for the first leg: index 0 only), the directions allowed now.
    next: [u8; 8],
    range: u8,
    stop: Stop,
    anywhere: bool,
}

#[derive(Clone, Debug)]
struct CompiledPath {
    legs: Vec<CompiledLeg>,
}

/// Every piece's paths, per side, and the board's neighbour table.
#[derive(Debug, Default)]
pub(crate) struct PathTables {
    /// `cell * 8 + direction` → the neighbouring cell, or `NO_CELL` off the board.
    steps: Vec<Cell>,
    /// `type * 2 + side` → that piece's compiled paths.
    paths: Vec<Vec<CompiledPath>>,
    cells: usize,
}

impl PathTables {
    /// Compiles the paths of every piece type (`paths[type]`), or says why a path cannot be used.
    pub fn build(geo: &Geometry, paths: &[Vec<Path>]) -> Result<PathTables, String> {
        let cells = geo.len();
        let mut t = PathTables { steps: vec![NO_CELL; cells * 8], paths: Vec::new(), cells };
        if paths.iter().all(Vec::is_empty) {
            return Ok(t);
        }
        if geo.levels() > 1 {
            return Err("multi-leg moves are supported on boards without levels".into());
        }
        for c in geo.cells() {
            for (d, &(f, r)) in UNIT_DIRS.iter().enumerate() {
                t.steps[c as usize * 8 + d] = geo.offset(c, Vector::flat(f, r)).unwrap_or(NO_CELL);
            }
        }
        for piece_paths in paths {
            for side in Side::BOTH {
                let compiled = piece_paths.iter().map(|p| compile(p, side)).collect::<Result<_, _>>()?;
                t.paths.push(compiled);
            }
        }
        Ok(t)
    }

    pub fn has_paths(&self, ty: u8) -> bool {
        self.paths.get(ty as usize * 2).is_some_and(|p| !p.is_empty())
    }

    fn of(&self, ty: u8, side: Side) -> &[CompiledPath] {
        &self.paths[ty as usize * 2 + side.index()]
    }

    #[inline]
    fn step(&self, c: Cell, d: usize) -> Cell {
        self.steps[c as usize * 8 + d]
    }
}

fn compile(path: &Path, side: Side) -> Result<CompiledPath, String> {
    let mut legs = Vec::new();
    for leg in &path.legs {
        let mut next = [0u8; 8];
        let mut anywhere = false;
        match &leg.dirs {
            LegDirs::Absolute(vectors) => {
                for v in vectors {
                    let v = v.for_side(side);
                    let d = unit_dir(v.df, v.dr).ok_or("a multi-leg move must start with a unit step")?;
                    next[0] |= 1 << d;
                }
            }
            dirs @ LegDirs::Relative { .. } => {
                for (prev, slot) in next.iter_mut().enumerate() {
                    *slot = dirs.after(prev);
                }
            }
            LegDirs::Anywhere => anywhere = true,
        }
        legs.push(CompiledLeg { next, range: leg.range, stop: leg.stop, anywhere });
    }
    Ok(CompiledPath { legs })
}

/// One walk of one piece's paths from its cell.
struct Walk<'a> {
    paths: &'a PathTables,
    geo: &'a Geometry,
    pos: &'a Position,
    side: Side,
    ty: u8,
    from: Cell,
}

impl Walk<'_> {
    /// What stands on `c` as the paths see it: nothing on the start, nor on a captured cell.
    #[inline]
    fn occupant(&self, c: Cell, victim: Cell) -> Option<crate::model::piece::Piece> {
        if c == self.from || c == victim { None } else { self.pos.piece_at(c) }
    }

    #[inline]
    fn emit(&self, emit: &mut impl FnMut(Move, bool), to: Cell, via: Cell, captures: bool) {
        emit(Move { kind: MoveKind::Board, piece: self.ty, from: self.from, to, via }, captures);
    }

    fn leg<F: FnMut(Move, bool)>(&self, emit: &mut F, path: &CompiledPath, k: usize, at: Cell, mask: u8, victim: Cell) {
        let leg = &path.legs[k];
        let last = k + 1 == path.legs.len();
        let steps = self.paths;
        if leg.anywhere {
            for c in 0..steps.cells as Cell {
                if c == self.from || !self.geo.exists(c) {
                    continue;
                }
                match self.pos.piece_at(c) {
                    None if leg.stop.empty => self.emit(emit, c, victim, victim != NO_CELL),
                    Some(q) if leg.stop.enemy && q.side != self.side => self.emit(emit, c, victim, true),
                    _ => {}
                }
            }
            return;
        }
        let mut dirs = mask;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let onward = path.legs.get(k + 1).map_or(0, |l| l.next[d]);
            let mut c = at;
            let mut n = 0;
            loop {
                c = steps.step(c, d);
                if c == NO_CELL {
                    break;
                }
                n += 1;
                match self.occupant(c, victim) {
                    None => {
                        if leg.stop.empty {
                            if last {
                                self.emit(emit, c, victim, victim != NO_CELL);
                            } else {
                                self.leg(emit, path, k + 1, c, onward, victim);
                            }
                        }
                    }
                    Some(q) => {
                        let enemy = q.side != self.side;
                        if last {
                            if leg.stop.enemy && enemy {
                                self.emit(emit, c, victim, true);
                            }
                        } else {
                            if leg.stop.enemy && enemy {
                                self.leg(emit, path, k + 1, c, onward, c);
                            }
                            if leg.stop.hop {
                                self.leg(emit, path, k + 1, c, onward, victim);
                            }
                        }
                        break;
                    }
                }
                if leg.range != 0 && n >= leg.range {
                    break;
                }
            }
        }
    }
}

impl PathTables {
    /// Walks the multi-leg paths of the piece on `from`, handing `emit` each move (with the
    /// mover's type, before promotion choices) and whether it captures; the caller de-duplicates.
    pub fn moves(
        &self,
        geo: &Geometry,
        pos: &Position,
        side: Side,
        ty: u8,
        from: Cell,
        emit: &mut impl FnMut(Move, bool),
    ) {
        let walk = Walk { paths: self, geo, pos, side, ty, from };
        for path in self.of(ty, side) {
            walk.leg(emit, path, 0, from, path.legs[0].next[0], NO_CELL);
        }
    }
}
