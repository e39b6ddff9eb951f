//! Each piece type's capture rays, read from its move definition: what the evaluation's attack
//! terms walk ([`super::king_danger`], and the attack families of [`super::placement`]).
//!
//! A ray is a step vector and how often it may repeat; a piece attacks the cells along it up to
//! and including the first piece in the way. Only the single-leg Betza atoms that may capture
//! count: lions, hook movers and hoppers then count fewer attacks than they have, and a lame
//! leaper counts its blocked leaps, an approximation the terms accept, not a rule.

use henka_api::rules::betza;
use henka_api::{Cell, Geometry, Piece, Position, Side, Variant};

/// One way a piece attacks: a step vector (board frame, for its side) and how many times it may
/// be repeated (an unlimited slide: the board's longest side).
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    pub d: [i32; 3],
    pub range: i32,
}

/// Every piece type's rays, per side, and the board to walk them on.
#[derive(Clone, Debug)]
pub struct Rays {
    by_side: [Vec<Vec<Ray>>; 2],
    geometry: Geometry,
}

impl Rays {
    pub fn new(v: &dyn Variant) -> Rays {
        let geometry = v.geometry().clone();
        let unlimited = geometry.files().max(geometry.ranks()).max(geometry.levels()) as i32;
        let rays_for = |side: Side| -> Vec<Vec<Ray>> {
            v.info()
                .pieces
                .iter()
                .map(|p| {
                    let Ok(moves) = betza::parse(&p.betza) else { return Vec::new() };
                    moves
                        .atoms
                        .iter()
                        .filter(|a| a.mode.captures && !a.skip_first)
                        .map(|a| {
                            let v = a.vector.for_side(side);
                            Ray {
                                d: [v.df as i32, v.dr as i32, v.dl as i32],
                                range: if a.range == 0 { unlimited } else { a.range as i32 },
                            }
                        })
                        .collect()
                })
                .collect()
        };
        Rays { by_side: [rays_for(Side::First), rays_for(Side::Second)], geometry }
    }

    /// The rays of a piece of type `ty` belonging to `side`.
    #[inline]
    pub fn of(&self, side: Side, ty: usize) -> &[Ray] {
        self.by_side[side.index()].get(ty).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }
}

/// Every ray of every piece type from every cell, as the cells it passes in order: the walk
/// without coordinate arithmetic, for terms read at every evaluation. Made from [`Rays`] when
/// first needed, since on a big board with many types it takes megabytes.
#[derive(Clone, Debug)]
pub struct RayCells {
    /// The cells of all rays, one ray after another.
    cells: Vec<Cell>,
    /// Per ray: its range in `cells`.
    rays: Vec<(u32, u32)>,
    /// Per side, type and cell (in that order): the range of its rays in `rays`.
    from: Vec<(u32, u32)>,
    types: usize,
    board: usize,
}

impl RayCells {
    pub fn new(rays: &Rays, types: usize) -> RayCells {
        let g = rays.geometry();
        let board = g.len();
        let mut out = RayCells { cells: Vec::new(), rays: Vec::new(), from: Vec::new(), types, board };
        for side in Side::BOTH {
            for ty in 0..types {
                for from in 0..board {
                    let first = out.rays.len() as u32;
                    let (x, y, z) = g.coords(from as Cell);
                    for ray in rays.of(side, ty) {
                        let start = out.cells.len() as u32;
                        for k in 1..=ray.range {
                            let Some(c) = g.cell(x + k * ray.d[0], y + k * ray.d[1], z + k * ray.d[2]) else { break };
                            out.cells.push(c);
                        }
                        if out.cells.len() as u32 > start {
                            out.rays.push((start, out.cells.len() as u32));
                        }
                    }
                    out.from.push((first, out.rays.len() as u32));
                }
            }
        }
        out
    }

    /// Calls `f(cell, occupant)` for every cell a piece of `side` and type `ty` on `from` attacks
    /// in `pos`: each ray followed until it leaves the board or meets a piece (whose cell it
    /// attacks). The occupant is handed over because the walk reads it anyway, to stop there.
    #[inline]
    pub fn walk(&self, pos: &Position, from: Cell, side: Side, ty: usize, mut f: impl FnMut(Cell, Option<Piece>)) {
        let board = pos.cells();
        let (a, b) = self.from[(side.index() * self.types + ty) * self.board + from as usize];
        for &(start, end) in &self.rays[a as usize..b as usize] {
            for &c in &self.cells[start as usize..end as usize] {
                let occupant = board[c as usize];
                f(c, occupant);
                if occupant.is_some() {
                    break;
                }
            }
        }
    }
}
