//! The kit's precomputed tables: everything move generation and attack detection would otherwise
//! compute from coordinates, laid out flat so the hot path is index arithmetic and memory reads.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::geometry::{Cell, Geometry, Vector};
use crate::model::side::Side;
use crate::rules::betza::Atom;

/// A set of piece types as a bitset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TypeSet([u64; 4]);

impl TypeSet {
    #[inline]
    pub fn insert(&mut self, ty: usize) {
        self.0[ty >> 6] |= 1 << (ty & 63);
    }
    #[inline]
    pub fn contains(&self, ty: u8) -> bool {
        (self.0[(ty >> 6) as usize] >> (ty & 63)) & 1 != 0
    }
}

/// A span of the cell arena.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}

/// One direction a piece on a given cell can move: the cells along it (already cut at the board
/// edge and at the atom's range), the cells that must be empty first (lame leaps), and the mode.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gen {
    pub ray: Span,
    pub block: Span,
    pub moves: bool,
    pub captures: bool,
}

/// An attack probe: "a piece of `types` of the attacking side, standing along this reverse ray,
/// attacks the target". Probes merge every type that shares a vector, range and kind; a slide
/// also takes in the single leaps along its vector as `steppers`, so that one walk of the ray
/// answers for both (a Dragon's diagonal step and a Bishop's diagonal slide, say).
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub types: TypeSet,
    /// For a slide: the types that attack only from the ray's first cell (a leap of its vector).
    pub steppers: TypeSet,
    pub kind: ProbeKind,
    /// Index of this probe's first per-cell entry in `Tables::probe_cells`.
    pub base: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ProbeKind {
    /// A single leap: the ray is the one cell an attacker would stand on.
    Leap,
    /// A slide: the first occupied cell on the reverse ray is the only possible attacker.
    Slide,
    /// A lame leap: one attacker cell, and block cells that must be empty.
    Lame,
    /// A slide that skips its first cell: the cell next to the attacker may hold anything.
    SkipFirst,
}

/// Per-cell data of a probe.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ProbeCell {
    pub ray: Span,
    pub block: Span,
}

#[derive(Debug)]
pub(crate) struct Tables {
    pub cells: usize,
    pub arena: Vec<Cell>,
    pub gens: Vec<Gen>,
    /// `(type * 2 + side) * cells + cell` → span of `gens`.
    pub gen_spans: Vec<Span>,
    /// Same index: the piece could never move again from here (promotion forced, drops banned).
    pub dead: Vec<bool>,
    /// `side * cells + cell`: the cell is in that side's promotion zone.
    pub zone: Vec<bool>,
    /// Probes by attacking side.
    pub probes: [Vec<Probe>; 2],
    pub probe_cells: Vec<ProbeCell>,
    /// `cell` → its column (file and level), for one-per-file drop rules.
    pub column: Vec<u16>,
}

impl Tables {
    #[inline]
    pub fn slot(&self, ty: u8, side: Side, cell: Cell) -> usize {
        (ty as usize * 2 + side.index()) * self.cells + cell as usize
    }

    #[inline]
    pub fn gens(&self, ty: u8, side: Side, cell: Cell) -> &[Gen] {
        let s = self.gen_spans[self.slot(ty, side, cell)];
        &self.gens[s.start as usize..(s.start + s.len) as usize]
    }

    #[inline]
    pub fn span(&self, s: Span) -> &[Cell] {
        &self.arena[s.start as usize..(s.start + s.len) as usize]
    }

    #[inline]
    pub fn in_zone(&self, side: Side, cell: Cell) -> bool {
        self.zone[side.index() * self.cells + cell as usize]
    }

    /// `has_paths[type]`: the type also has multi-leg moves, so it is never "dead" on a cell.
    pub fn build(geo: &Geometry, atoms: &[Vec<Atom>], has_paths: &[bool], zone_depth: u8) -> Tables {
        let cells = geo.len();
        let mut t = Tables {
            cells,
            arena: Vec::new(),
            gens: Vec::new(),
            gen_spans: Vec::with_capacity(atoms.len() * 2 * cells),
            dead: Vec::with_capacity(atoms.len() * 2 * cells),
            zone: vec![false; 2 * cells],
            probes: [Vec::new(), Vec::new()],
            probe_cells: Vec::new(),
            column: vec![0; cells],
        };
        for c in geo.cells() {
            let (f, _, l) = geo.coords(c);
            t.column[c as usize] = (l * geo.files() as i32 + f) as u16;
            for side in Side::BOTH {
                let from_back = geo.rank_from(side, c);
                t.zone[side.index() * cells + c as usize] =
                    zone_depth > 0 && from_back >= geo.ranks() as i32 - zone_depth as i32;
            }
        }
        for (piece_atoms, &has_paths) in atoms.iter().zip(has_paths) {
            for side in Side::BOTH {
                for c in 0..cells as Cell {
                    let start = t.gens.len() as u32;
                    let mut can_move = has_paths;
                    if geo.exists(c) {
                        for a in piece_atoms {
                            if let Some(g) = t.gen_for(geo, c, side, a) {
                                can_move |= g.ray.len > 0;
                                t.gens.push(g);
                            }
                        }
                    }
                    t.gen_spans.push(Span { start, len: t.gens.len() as u32 - start });
                    t.dead.push(!can_move);
                }
            }
        }
        for side in Side::BOTH {
            t.build_probes(geo, atoms, side);
        }
        t
    }

    fn push_cells(&mut self, cells: &[Cell]) -> Span {
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(cells);
        Span { start, len: cells.len() as u32 }
    }

    /// The cells along `w` from `c`: `range` steps (0 = to the edge), skipping the first if asked.
    fn walk(geo: &Geometry, c: Cell, w: Vector, range: u8, skip_first: bool) -> Vec<Cell> {
        let mut out = Vec::new();
        let mut at = c;
        let mut k = 0u32;
        while range == 0 || k < range as u32 {
            match geo.offset(at, w) {
                Some(n) => at = n,
                None => break,
            }
            k += 1;
            if !(skip_first && k == 1) {
                out.push(at);
            }
        }
        out
    }

    fn gen_for(&mut self, geo: &Geometry, c: Cell, side: Side, a: &Atom) -> Option<Gen> {
        let w = a.vector.for_side(side);
        let mut block = Vec::new();
        if a.lame {
            for step in a.lame_path() {
                block.push(geo.offset(c, step.for_side(side))?);
            }
        }
        let ray = Self::walk(geo, c, w, a.range, a.skip_first);
        if ray.is_empty() {
            return None;
        }
        Some(Gen {
            ray: self.push_cells(&ray),
            block: self.push_cells(&block),
            moves: a.mode.moves,
            captures: a.mode.captures,
        })
    }

    fn build_probes(&mut self, geo: &Geometry, atoms: &[Vec<Atom>], attacker: Side) {
        // Merge every capturing atom by (board vector, range, kind).
        let mut merged: BTreeMap<(Vector, u8, ProbeKind), (TypeSet, Atom)> = BTreeMap::new();
        for (ty, piece_atoms) in atoms.iter().enumerate() {
            for a in piece_atoms.iter().filter(|a| a.mode.captures) {
                let kind = match (a.lame, a.skip_first, a.range) {
                    (true, _, _) => ProbeKind::Lame,
                    (_, true, _) => ProbeKind::SkipFirst,
                    (_, _, 1) => ProbeKind::Leap,
                    _ => ProbeKind::Slide,
                };
                let w = a.vector.for_side(attacker);
                merged.entry((w, a.range, kind)).or_insert((TypeSet::default(), *a)).0.insert(ty);
            }
        }
        // A single leap whose vector also slides is looked at by that slide's walk: its one cell
        // is the slide ray's first.
        let slides: BTreeSet<Vector> = merged.keys().filter(|k| k.2 == ProbeKind::Slide).map(|k| k.0).collect();
        let mut steppers: BTreeMap<Vector, TypeSet> = BTreeMap::new();
        merged.retain(|&(w, _, kind), (types, _)| {
            let folded = kind == ProbeKind::Leap && slides.contains(&w);
            if folded {
                steppers.insert(w, *types);
            }
            !folded
        });
        for ((w, range, kind), (types, atom)) in merged {
            let base = self.probe_cells.len();
            for t in 0..self.cells as Cell {
                let mut pc = ProbeCell::default();
                if geo.exists(t) {
                    let back = Self::walk(geo, t, w.reversed(), range, false);
                    if kind == ProbeKind::Lame {
                        // The attacker stands one leap back; its path must lie on the board.
                        let path: Option<Vec<Cell>> = back
                            .first()
                            .map(|&a| atom.lame_path().iter().map(|s| geo.offset(a, s.for_side(attacker))).collect())
                            .unwrap_or(None);
                        if let Some(path) = path {
                            pc = ProbeCell { ray: self.push_cells(&back), block: self.push_cells(&path) };
                        }
                    } else {
                        pc.ray = self.push_cells(&back);
                    }
                }
                self.probe_cells.push(pc);
            }
            let steppers = if kind == ProbeKind::Slide { steppers.remove(&w) } else { None };
            self.probes[attacker.index()].push(Probe { types, steppers: steppers.unwrap_or_default(), kind, base });
        }
    }
}
