//! Compass move notation (Ki Shogi's own, docs/rules/ki-shogi.md §12): moves named by absolute
//! directions from the piece, or from the dropper's Gyoku, rather than by cells — `*Cho E`,
//! `Cho(Hi) S+`, `Hi(Chuu) x Kaku`, `*Gyoku NNE`, `Kaku(Ga) NE2 x Hi`.
//!
//! A compass string names a move only in its position, so both directions go through the legal
//! moves: reading matches the string's parts against every legal move (exactly one must fit), and
//! writing checks that its string reads back as the same move, falling back to coordinates when
//! it would not (two cubes showing the same face that can both make it). A field variant selects
//! this notation with `FieldInfo::compass`; [`Variant`]'s notation methods then use it.
//!
//! So the trait and this module call each other, the one import circle left in the crate: the
//! trait's notation methods pick the compass for the variants that write moves in it, and the
//! compass reads and writes a move through the trait's legal moves. Both halves belong to one
//! concept — notation that depends on the position's legal moves.

// Compass moves come from users, files and GUIs: no indexing, slicing or arithmetic that could panic on them (issue #17).
#![deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use super::Variant;
use crate::model::description::VariantInfo;
use crate::model::field::{FieldInfo, centre};
use crate::model::geometry::{Cell, Geometry};
use crate::model::moves::{Move, MoveKind};
use crate::model::piece::PieceId;
use crate::model::position::Position;
use crate::model::side::Side;
use crate::notation::{self, NotationError};

/// The 16 compass points, clockwise from North, with their vectors (N = +y, towards White). The
/// eight main points are unit steps; the others are the knight-shaped (1, 2) offsets.
pub const POINTS: [(&str, i32, i32); 16] = [
    ("N", 0, 1),
    ("NNE", 1, 2),
    ("NE", 1, 1),
    ("ENE", 2, 1),
    ("E", 1, 0),
    ("ESE", 2, -1),
    ("SE", 1, -1),
    ("SSE", 1, -2),
    ("S", 0, -1),
    ("SSW", -1, -2),
    ("SW", -1, -1),
    ("WSW", -2, -1),
    ("W", -1, 0),
    ("WNW", -2, 1),
    ("NW", -1, 1),
    ("NNW", -1, 2),
];

/// Accepted spellings of face names besides the names themselves (docs/rules/ki-shogi.md §12).
const ALIASES: [(&str, &str); 2] = [("Myo", "Myou"), ("Chu", "Chuu")];

fn is_main(dx: i32, dy: i32) -> bool {
    dx.abs() <= 1 && dy.abs() <= 1
}

/// The name of an offset: `E`, `NE3` (n steps along a main point) or `NNE` (a knight offset).
fn offset_name(dx: i32, dy: i32) -> Option<String> {
    let n = dx.checked_abs()?.max(dy.checked_abs()?);
    if n == 0 {
        return None;
    }
    if let Some(&(name, _, _)) = POINTS.iter().find(|&&(_, x, y)| !is_main(x, y) && (x, y) == (dx, dy)) {
        return Some(name.to_string());
    }
    let (ux, uy) = (dx.checked_div(n)?, dy.checked_div(n)?);
    if (ux.checked_mul(n)?, uy.checked_mul(n)?) != (dx, dy) {
        return None;
    }
    let name = POINTS.iter().find(|&&(_, x, y)| (x, y) == (ux, uy))?.0;
    Some(if n == 1 { name.to_string() } else { format!("{name}{n}") })
}

/// Reads `NE`, `NE2`, `NNE` as an offset. `bare_main` is how many steps a main point without a
/// count means (1 for moves and drops; 2 for the Gyoku placement ring, where `N` is (0, 2)).
fn parse_offset(s: &str, bare_main: i32) -> Option<(i32, i32)> {
    let letters = s.trim_end_matches(|c: char| c.is_ascii_digit());
    let count = s.get(letters.len()..)?;
    let &(_, x, y) = POINTS.iter().find(|(name, _, _)| name.eq_ignore_ascii_case(letters))?;
    let n: i32 = if count.is_empty() { if is_main(x, y) { bare_main } else { 1 } } else { count.parse().ok()? };
    if n < 1 || (!is_main(x, y) && n != 1) {
        return None;
    }
    Some((x.checked_mul(n)?, y.checked_mul(n)?))
}

/// A face named at the front of `s` (longest name or alias first), and the rest.
fn take_face<'a>(info: &VariantInfo, s: &'a str) -> Option<(PieceId, &'a str)> {
    let names = info.pieces.iter().enumerate().map(|(i, p)| (p.name.as_str(), i));
    let aliases =
        ALIASES.iter().filter_map(|&(a, full)| info.pieces.iter().position(|p| p.name == full).map(|i| (a, i)));
    let mut best: Option<(usize, PieceId)> = None;
    for (name, i) in names.chain(aliases) {
        // `get` rather than slicing: the input's bytes may end inside a character there.
        let fits = s.get(..name.len()).is_some_and(|head| head.eq_ignore_ascii_case(name));
        if fits && best.is_none_or(|(len, _)| name.len() > len) {
            best = Some((name.len(), i as PieceId));
        }
    }
    best.and_then(|(len, ty)| Some((ty, s.get(len..)?)))
}

/// What a compass string says about its move.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Written {
    /// `*Gyoku` (no offset: the field's centre) or `*Gyoku NNE` (offset from the enemy Gyoku).
    Place(Option<(i32, i32)>),
    /// `*Face DIR`: offset from the own Gyoku.
    Drop(PieceId, (i32, i32)),
    /// `Face(New) DIR`, `Face(New) x Target`, `Face(New) DIR x Target`.
    Board { face: PieceId, after: Option<PieceId>, delta: Option<(i32, i32)>, target: Option<PieceId> },
}

fn parse_written(info: &VariantInfo, royal: PieceId, s: &str) -> Result<(Written, bool), String> {
    let s = s.trim();
    let (s, check) = match s.strip_suffix('+') {
        Some(rest) => (rest.trim_end(), true),
        None => (s, false),
    };
    if let Some(rest) = s.strip_prefix('*') {
        let (face, rest) = take_face(info, rest.trim_start()).ok_or("no face after `*`")?;
        let dir = rest.trim();
        if face == royal {
            let offset = if dir.is_empty() {
                None
            } else {
                Some(parse_offset(dir, 2).ok_or_else(|| format!("{dir:?} is not a compass point"))?)
            };
            return Ok((Written::Place(offset), check));
        }
        let offset = parse_offset(dir, 1).ok_or_else(|| format!("a drop needs a compass point, not {dir:?}"))?;
        return Ok((Written::Drop(face, offset), check));
    }
    let (face, mut rest) = take_face(info, s).ok_or("the move must start with a face name")?;
    let mut after = None;
    if let Some(r) = rest.trim_start().strip_prefix('(') {
        let (inner, r) = r.split_once(')').ok_or("unclosed `(`")?;
        let (new, left) = take_face(info, inner.trim()).ok_or_else(|| format!("{inner:?} is not a face"))?;
        if !left.trim().is_empty() {
            return Err(format!("{inner:?} is not a face"));
        }
        after = Some(new);
        rest = r;
    }
    // What follows: [DIR[n]] [x Target]; `x` may touch its neighbours.
    let (dir, target) = match rest.split_once(['x', 'X']) {
        Some((dir, target)) => (dir, Some(target)),
        None => (rest, None),
    };
    let dir = dir.trim();
    let delta = if dir.is_empty() {
        None
    } else {
        Some(parse_offset(dir, 1).ok_or_else(|| format!("{dir:?} is not a compass point"))?)
    };
    let target = match target.map(str::trim) {
        None => None,
        Some(t) => match take_face(info, t) {
            Some((ty, "")) => Some(ty),
            _ => return Err(format!("{t:?} is not a face to capture")),
        },
    };
    if delta.is_none() && target.is_none() {
        return Err("a move needs a direction or a capture (`x Face`)".into());
    }
    Ok((Written::Board { face, after, delta, target }, check))
}

/// The field's royal type and where each side's royal stands.
fn royals(info: &VariantInfo, pos: &Position) -> (PieceId, [Option<Cell>; 2]) {
    let royal = info.pieces.iter().position(|p| p.royal).unwrap_or(0) as PieceId;
    let mut at = [None, None];
    for (c, p) in pos.cells().iter().enumerate() {
        if let Some(p) = p
            && p.ty == royal
            && let Some(slot) = at.get_mut(p.side.index())
        {
            *slot = Some(c as Cell);
        }
    }
    (royal, at)
}

/// `side`'s royal cell in `royals`' answer.
fn royal_of(at: [Option<Cell>; 2], side: Side) -> Option<Cell> {
    at.get(side.index()).copied().flatten()
}

fn delta(g: &Geometry, from: Cell, to: Cell) -> (i32, i32) {
    let ((fx, fy, _), (tx, ty, _)) = (g.coords(from), g.coords(to));
    // Cells of one box: the differences are far from overflowing.
    (tx.saturating_sub(fx), ty.saturating_sub(fy))
}

/// Whether `mv` fits what the string says.
fn fits(g: &Geometry, pos: &Position, royals: [Option<Cell>; 2], w: &Written, mv: Move) -> bool {
    let side = pos.side_to_move();
    match *w {
        Written::Place(offset) => {
            mv.kind == MoveKind::Place
                && match (offset, royal_of(royals, side.opponent())) {
                    (None, None) => {
                        let (cx, cy) = centre(g);
                        g.cell(cx, cy, 0) == Some(mv.to)
                    }
                    (Some(o), Some(enemy)) => delta(g, enemy, mv.to) == o,
                    _ => false,
                }
        }
        Written::Drop(face, offset) => {
            mv.kind == MoveKind::Drop
                && mv.piece == face
                && royal_of(royals, side).is_some_and(|own| delta(g, own, mv.to) == offset)
        }
        Written::Board { face, after, delta: d, target } => {
            if mv.kind != MoveKind::Board {
                return false;
            }
            let Some(mover) = pos.piece_at(mv.from) else { return false };
            let victim = pos.piece_at(mv.to).filter(|q| q.side != side).map(|q| q.ty);
            mover.ty == face
                && after.is_none_or(|a| a == mv.piece)
                && d.is_none_or(|d| delta(g, mv.from, mv.to) == d)
                && victim == target
        }
    }
}

/// Whether playing `mv` leaves the opponent in check.
fn gives_check<V: Variant + ?Sized>(v: &V, pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    v.play(&mut after, mv).is_ok() && v.in_check(&after)
}

/// Reads a compass move in `pos`: exactly one legal move must fit it.
pub fn parse_move<V: Variant + ?Sized>(v: &V, pos: &Position, s: &str) -> Result<Move, NotationError> {
    let info = v.info();
    let bad = |why: String| NotationError::BadMove(s.to_string(), why);
    let (royal, at) = royals(info, pos);
    let (written, check) = parse_written(info, royal, s).map_err(bad)?;
    let mut legal = Vec::new();
    v.legal_moves(pos, &mut legal).map_err(|e| NotationError::Rule(e.to_string()))?;
    let g = v.geometry();
    let fitting: Vec<Move> = legal.into_iter().filter(|&m| fits(g, pos, at, &written, m)).collect();
    match fitting[..] {
        [] => Err(NotationError::Illegal(s.to_string())),
        [mv] => {
            if check && !gives_check(v, pos, mv) {
                return Err(bad("the move gives no check (`+`)".into()));
            }
            Ok(mv)
        }
        _ => {
            let names: Vec<String> = fitting.iter().map(|&m| notation::format_move(info, g, pos, m)).collect();
            Err(bad(format!("fits several moves: {}", names.join(", "))))
        }
    }
}

/// The compass form of a move, before the ambiguity check; `None` where the notation has no name
/// for it (a drop far from the Gyoku, a Black placement off centre).
fn compass_form(info: &VariantInfo, g: &Geometry, pos: &Position, mv: Move, with_dir: bool) -> Option<String> {
    let side = pos.side_to_move();
    let (_, at) = royals(info, pos);
    let name = |ty: PieceId| info.pieces.get(usize::from(ty)).map_or("?", |p| p.name.as_str());
    match mv.kind {
        MoveKind::Place => match royal_of(at, side.opponent()) {
            None => {
                let (cx, cy) = centre(g);
                (g.cell(cx, cy, 0) == Some(mv.to)).then(|| format!("*{}", name(mv.piece)))
            }
            Some(enemy) => {
                let (dx, dy) = delta(g, enemy, mv.to);
                let ring = offset_name(dx, dy)?;
                Some(format!("*{} {}", name(mv.piece), ring.trim_end_matches('2')))
            }
        },
        MoveKind::Drop => {
            let (dx, dy) = delta(g, royal_of(at, side)?, mv.to);
            Some(format!("*{} {}", name(mv.piece), offset_name(dx, dy)?))
        }
        MoveKind::Board => {
            let mover = pos.piece_at(mv.from)?;
            let mut s = name(mover.ty).to_string();
            if !info.pieces.get(usize::from(mover.ty)).is_some_and(|p| p.royal) {
                s.push_str(&format!("({})", name(mv.piece)));
            }
            let (dx, dy) = delta(g, mv.from, mv.to);
            match pos.piece_at(mv.to).filter(|q| q.side != side) {
                None => s.push_str(&format!(" {}", offset_name(dx, dy)?)),
                Some(victim) => {
                    if with_dir {
                        s.push_str(&format!(" {}", offset_name(dx, dy)?));
                    }
                    s.push_str(&format!(" x {}", name(victim.ty)));
                }
            }
            Some(s)
        }
        MoveKind::Pass => None,
    }
}

/// Writes a move in compass notation, or in coordinates where the compass cannot name it alone.
pub fn format_move<V: Variant + ?Sized>(v: &V, pos: &Position, mv: Move) -> String {
    let (info, g) = (v.info(), v.geometry());
    let mut legal = Vec::new();
    if v.legal_moves(pos, &mut legal).is_err() || !legal.contains(&mv) {
        return notation::format_move(info, g, pos, mv);
    }
    let (royal, at) = royals(info, pos);
    let unique = |s: &str| {
        parse_written(info, royal, s)
            .is_ok_and(|(w, _)| legal.iter().filter(|&&m| fits(g, pos, at, &w, m)).eq(std::iter::once(&mv)))
    };
    let written =
        [false, true].into_iter().filter_map(|with_dir| compass_form(info, g, pos, mv, with_dir)).find(|s| unique(s));
    match written {
        Some(s) if gives_check(v, pos, mv) => s + "+",
        Some(s) => s,
        None => notation::format_move(info, g, pos, mv),
    }
}

/// Whether a variant writes its moves in compass notation.
pub fn uses_compass(info: &VariantInfo) -> bool {
    info.field.as_ref().is_some_and(|f: &FieldInfo| f.compass)
}
