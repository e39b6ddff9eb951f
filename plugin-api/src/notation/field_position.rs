//! Position strings of field variants (Ki Shogi, docs/rules/ki-shogi.md §15): the pieces as a list
//! of `<owner><Face>@<x>,<y>` rather than a board picture, since the field is mostly empty and,
//! when unbounded, has no edge to count from.
//!
//! ```text
//! <to-move> <board> <hands> <grace> [<move-number>]
//! w bGyoku@7,7;bMyou@6,6;wGyoku@8,9 b:HK,w:HK - 4
//! ```
//! Board entries are joined by `;` (`-` when empty); hands list a letter per cube (`b:GHK,w:-`);
//! grace lists the cells of the pieces under grace (`-` when none). Coordinates are the box's
//! (file, rank) from Black's lower left, or relative to the box centre on an unbounded field.
//! Written entries come in a fixed order (Black's then White's pieces, by type, then by cell), so
//! equal positions have equal strings.

// Field position strings come from users, files and GUIs: no indexing, slicing or arithmetic that could panic on them (issue #17).
#![deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::model::description::VariantInfo;
use crate::model::field::{CubeInfo, FieldInfo, GRACE, MAX_FIELD_PIECES};
use crate::model::geometry::{Cell, Geometry};
use crate::model::piece::{Piece, PieceId};
use crate::model::position::Position;
use crate::model::side::Side;
use crate::notation::error::NotationError;

fn side_of(letter: char) -> Option<Side> {
    match letter {
        'b' => Some(Side::First),
        'w' => Some(Side::Second),
        _ => None,
    }
}

/// Reads `x,y` as a cell of the box.
pub fn parse_field_cell(field: &FieldInfo, g: &Geometry, s: &str) -> Result<Cell, NotationError> {
    let bad = || NotationError::BadCell(s.to_string());
    let (x, y) = s.split_once(',').ok_or_else(bad)?;
    let (x, y): (i32, i32) = (x.trim().parse().map_err(|_| bad())?, y.trim().parse().map_err(|_| bad())?);
    let (ox, oy) = field.origin(g);
    g.cell(x.checked_add(ox).ok_or_else(bad)?, y.checked_add(oy).ok_or_else(bad)?, 0).ok_or_else(bad)
}

/// Writes a cell as `x,y`.
pub fn field_cell_name(field: &FieldInfo, g: &Geometry, c: Cell) -> String {
    let (x, y, _) = g.coords(c);
    let (ox, oy) = field.origin(g);
    format!("{},{}", x.saturating_sub(ox), y.saturating_sub(oy))
}

/// The face a cube of this kind is held in hand as (its first), if it has any (a described cube
/// always has: `RuleSet::describe` refuses one without faces).
fn hand_face(cube: &CubeInfo) -> Option<PieceId> {
    cube.faces.first().copied()
}

fn face_by_name(info: &VariantInfo, name: &str) -> Result<PieceId, NotationError> {
    (info.pieces.iter())
        .position(|p| p.name.eq_ignore_ascii_case(name))
        .map(|i| i as PieceId)
        .ok_or_else(|| NotationError::UnknownToken(name.to_string()))
}

/// Reads a field position string. Every piece of a field game is one of the cubes set out at the
/// start (captures move them to a hand, drops back), so a position with more pieces than the
/// start position is refused: no engine is handed a field it was not built for (the kit follows
/// at most [`MAX_FIELD_PIECES`], a hand-written engine may follow fewer).
pub fn parse(info: &VariantInfo, field: &FieldInfo, g: &Geometry, s: &str) -> Result<Position, NotationError> {
    let pos = parse_unchecked(info, field, g, s)?;
    let pieces = count_pieces(field, &pos);
    let most = match parse_unchecked(info, field, g, &info.start) {
        Ok(start) => count_pieces(field, &start).min(MAX_FIELD_PIECES),
        Err(_) => MAX_FIELD_PIECES,
    };
    if pieces > most {
        return Err(NotationError::BadBoard(format!(
            "{pieces} pieces on the field and in hand; {} has {most} (those of its start position)",
            info.meta.name
        )));
    }
    Ok(pos)
}

/// The pieces on the field and in both hands.
fn count_pieces(field: &FieldInfo, pos: &Position) -> usize {
    let in_hand: usize = (Side::BOTH.iter())
        .flat_map(|&side| field.cubes.iter().filter_map(hand_face).map(move |ty| (side, ty)))
        .map(|(side, ty)| usize::from(pos.hand(side, ty)))
        .fold(0, usize::saturating_add);
    pos.cells().iter().flatten().count().saturating_add(in_hand)
}

/// A field position string read as written, before the piece count is checked.
fn parse_unchecked(info: &VariantInfo, field: &FieldInfo, g: &Geometry, s: &str) -> Result<Position, NotationError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let (to_move, board, hands, grace, number) = match fields.as_slice() {
        &[t, b, h, g] => (t, b, h, g, None),
        &[t, b, h, g, n] => (t, b, h, g, Some(n)),
        [_, _, _, _, _, extra @ ..] => return Err(NotationError::BadCounters(extra.join(" "))),
        _ => return Err(NotationError::MissingFields(s.to_string())),
    };
    let mut pos = Position::empty(g.len(), info.pieces.len());
    match to_move {
        "b" => pos.set_side_to_move(Side::First),
        "w" => pos.set_side_to_move(Side::Second),
        other => return Err(NotationError::BadSide(other.to_string())),
    }
    if board != "-" {
        for entry in board.split(';') {
            let bad = |why: &str| NotationError::BadBoard(format!("{entry:?}: {why}"));
            let mut chars = entry.chars();
            let side = chars.next().and_then(side_of).ok_or_else(|| bad("starts with b or w"))?;
            let (face, cell) = chars.as_str().split_once('@').ok_or_else(|| bad("is <owner><Face>@<x>,<y>"))?;
            let ty = face_by_name(info, face)?;
            let c = parse_field_cell(field, g, cell)?;
            if pos.piece_at(c).is_some() {
                return Err(bad("the cell is taken twice"));
            }
            pos.set(c, Some(Piece::new(ty, side)));
        }
    }
    let bad_hands = |why: String| NotationError::BadHands(hands.to_string(), why);
    let mut seen = [false; 2];
    for part in hands.split(',') {
        let (who, cubes) =
            part.split_once(':').ok_or_else(|| bad_hands("each side is b:<cubes> or w:<cubes>".into()))?;
        let side = who.chars().next().filter(|_| who.len() == 1).and_then(side_of);
        let side = side.ok_or_else(|| bad_hands(format!("{who:?} is not b or w")))?;
        if seen.get_mut(side.index()).is_some_and(|s| std::mem::replace(s, true)) {
            return Err(bad_hands(format!("{who} given twice")));
        }
        if cubes == "-" {
            continue;
        }
        for letter in cubes.chars() {
            let cube = (field.cubes.iter())
                .find(|c| c.letter.eq_ignore_ascii_case(&letter))
                .ok_or_else(|| bad_hands(format!("no cube is written {letter}")))?;
            let ty = hand_face(cube).ok_or_else(|| bad_hands(format!("the cube {letter} has no faces")))?;
            let n = pos.hand(side, ty).checked_add(1).ok_or_else(|| bad_hands("count over 255".into()))?;
            pos.set_hand(side, ty, n);
        }
    }
    if seen != [true, true] {
        return Err(bad_hands("give both sides, e.g. b:GHK,w:-".into()));
    }
    if grace != "-" {
        for cell in grace.split(';') {
            let c = parse_field_cell(field, g, cell)?;
            let mut p = pos
                .piece_at(c)
                .ok_or_else(|| NotationError::BadBoard(format!("grace mark on the empty cell {cell}")))?;
            p.flags |= GRACE;
            pos.set(c, Some(p));
        }
    }
    if let Some(n) = number {
        let n: u32 = n.parse().map_err(|_| NotationError::BadMoveNumber(n.to_string()))?;
        pos.set_move_number(n.max(1));
    }
    Ok(pos)
}

/// Writes a field position string.
pub fn format(info: &VariantInfo, field: &FieldInfo, g: &Geometry, pos: &Position) -> String {
    let mut pieces: Vec<(Side, PieceId, Cell)> =
        (0..g.len() as Cell).filter_map(|c| pos.piece_at(c).map(|p| (p.side, p.ty, c))).collect();
    pieces.sort();
    let board: Vec<String> = (pieces.iter())
        .map(|&(side, ty, c)| {
            // A type the variant lacks (a position made elsewhere) is written `?`, which no
            // parser reads back.
            let name = info.pieces.get(usize::from(ty)).map_or("?", |p| p.name.as_str());
            format!("{}{name}@{}", side.letter(), field_cell_name(field, g, c))
        })
        .collect();
    let hand = |side: Side| {
        let cubes: String = (field.cubes.iter())
            .flat_map(|c| std::iter::repeat_n(c.letter, hand_face(c).map_or(0, |ty| pos.hand(side, ty).into())))
            .collect();
        if cubes.is_empty() { "-".to_string() } else { cubes }
    };
    let grace: Vec<String> = (pieces.iter())
        .filter(|&&(_, _, c)| pos.piece_at(c).is_some_and(|p| p.flags & GRACE != 0))
        .map(|&(_, _, c)| field_cell_name(field, g, c))
        .collect();
    let or_dash = |v: Vec<String>| if v.is_empty() { "-".to_string() } else { v.join(";") };
    format!(
        "{} {} b:{},w:{} {} {}",
        pos.side_to_move().letter(),
        or_dash(board),
        hand(Side::First),
        hand(Side::Second),
        or_dash(grace),
        pos.move_number()
    )
}
