//! Per-type limits: "at most N of your own pieces of this type on one file / one binding", checked
//! after every move and drop (Ladies and Generals' restrictions on Princelings, Rookrankers,
//! Bishops and Unicorns).
//!
//! Each limited type gets a partition of the board into groups. A file is the line of cells with
//! one file and level. A binding is a connected component of the graph whose edges are the type's
//! own single steps (each atom's vector, either side's frame) on an empty board: two for a 3D
//! bishop (the parity of file + rank + level), four for a triagonal unicorn.
//!
//! A move or drop adds at most one piece of a type to one group (the mover's type after the move,
//! on its target's group); captures only remove enemy pieces. So a legal position stays legal
//! exactly when the receiving group holds fewer than N such pieces beforehand — the only count
//! taken, and skipped when a piece moves within its group without changing type.

use crate::model::geometry::{Cell, Geometry};
use crate::model::moves::{Move, MoveKind};
use crate::model::position::Position;
use crate::model::side::Side;
use crate::rules::betza::Atom;
use crate::rules::{Limit, LimitScope};

/// One limited type's groups.
#[derive(Debug)]
struct Groups {
    most: u8,
    /// Cell → group index.
    group: Vec<u16>,
    /// Group index → its cells.
    cells: Vec<Vec<Cell>>,
}

/// The limits of every type that has one.
#[derive(Debug, Default)]
pub(crate) struct Limits {
    per_type: Vec<Option<Groups>>,
}

impl Limits {
    /// `column[cell]` is the file index the tables use for nifu.
    pub fn build(geo: &Geometry, limits: &[Option<Limit>], atoms: &[Vec<Atom>], column: &[u16]) -> Limits {
        let per_type = limits
            .iter()
            .zip(atoms)
            .map(|(limit, atoms)| {
                limit.map(|l| {
                    let group = match l.per {
                        LimitScope::File => column.to_vec(),
                        LimitScope::Binding => components(geo, atoms),
                    };
                    let n = group.iter().copied().max().map_or(0, |m| m as usize + 1);
                    let mut cells = vec![Vec::new(); n];
                    for c in geo.cells() {
                        cells[group[c as usize] as usize].push(c);
                    }
                    Groups { most: l.most, group, cells }
                })
            })
            .collect();
        Limits { per_type }
    }

    pub fn any(&self) -> bool {
        self.per_type.iter().any(Option::is_some)
    }

    /// Whether `mv` by `side` keeps the side within every limit.
    pub fn allows(&self, pos: &Position, side: Side, mv: Move) -> bool {
        let Some(g) = self.per_type.get(mv.piece as usize).and_then(Option::as_ref) else { return true };
        let target = g.group[mv.to as usize];
        if mv.kind == MoveKind::Board
            && g.group[mv.from as usize] == target
            && pos.piece_at(mv.from).is_some_and(|p| p.ty == mv.piece)
        {
            return true;
        }
        let own = g.cells[target as usize]
            .iter()
            .filter(|&&c| c != mv.from && pos.piece_at(c).is_some_and(|p| p.side == side && p.ty == mv.piece))
            .count();
        own < g.most as usize
    }

    /// For drops of `ty`: per group, whether it is already full (`None` without a limit).
    pub fn full_groups(&self, pos: &Position, side: Side, ty: u8) -> Option<(Vec<bool>, &[u16])> {
        let g = self.per_type.get(ty as usize).and_then(Option::as_ref)?;
        let full = g
            .cells
            .iter()
            .map(|cells| {
                cells.iter().filter(|&&c| pos.piece_at(c).is_some_and(|p| p.side == side && p.ty == ty)).count()
                    >= g.most as usize
            })
            .collect();
        Some((full, &g.group))
    }
}

/// Connected components of the cells linked by one step of any atom (in either side's frame).
fn components(geo: &Geometry, atoms: &[Atom]) -> Vec<u16> {
    let mut parent: Vec<usize> = (0..geo.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for c in geo.cells() {
        for a in atoms {
            for side in Side::BOTH {
                if let Some(n) = geo.offset(c, a.vector.for_side(side)) {
                    let (x, y) = (root(&mut parent, c as usize), root(&mut parent, n as usize));
                    parent[x] = y;
                }
            }
        }
    }
    // Number the roots densely, in cell order.
    let mut id = vec![u16::MAX; geo.len()];
    let mut next = 0;
    let mut group = vec![0; geo.len()];
    for c in geo.cells() {
        let r = root(&mut parent, c as usize);
        if id[r] == u16::MAX {
            id[r] = next;
            next += 1;
        }
        group[c as usize] = id[r];
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::GeometrySpec;
    use crate::rules::betza::Mode;
    use crate::rules::directions;

    fn slides(set: &str) -> Vec<Atom> {
        let to_atom = |v| Atom { vector: v, range: 0, mode: Mode::BOTH, lame: false, skip_first: false };
        directions::named(set).unwrap().into_iter().map(to_atom).collect()
    }

    fn groups(set: &str) -> usize {
        let g = Geometry::new(&GeometrySpec { files: 6, ranks: 9, levels: 6, holes: vec![] }).unwrap();
        let c = components(&g, &slides(set));
        c.iter().copied().max().unwrap() as usize + 1
    }

    #[test]
    fn bindings_of_3d_slides() {
        // Standard diagonals keep file + rank + level even or odd: two bindings. Triagonals flip
        // all three parities: a parity triple and its complement, four bindings. Orthogonals
        // reach everything.
        assert_eq!(groups("diagonal"), 2);
        assert_eq!(groups("triagonal"), 4);
        assert_eq!(groups("orthogonal"), 1);
    }
}
