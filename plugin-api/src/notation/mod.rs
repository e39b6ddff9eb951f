//! Position strings (extended SFEN) and moves (generalised USI coordinates).
//!
//! Layer 2, notation: it reads and writes the model's values ([`crate::model`]) from a variant's
//! description alone, with no rules. A move in these coordinates is read without asking whether it
//! is legal: [`crate::Variant::parse_move`] does that. (Ki Shogi's compass notation names moves
//! among the legal moves, so it sits in layer 4, with the `Variant` trait.)
//!
//! Cells: on a flat board, the file number counted from the first player's right (`1` … `files`),
//! then the rank as letters counted from the top (`a` … `z`, then `aa`, `ab`, … for boards over 26
//! ranks, like spreadsheet columns). On a board with levels (3D shogi), the file letter from the
//! first player's left, the level letter (lettered so that the last level is `z`: six levels are
//! `u` … `z`, level 0 = `u`), and the rank number from the first player's side: `dw1`.
//!
//! Positions (field variants such as Ki Shogi write theirs as [`field_position`] says):
//! `<board> <side> <hands> <move-number> [<counters>]`. The board lists ranks from the
//! top joined by `/`, levels (level 0 first) joined by `|`; runs of empty cells are numbers; a
//! token of more than one letter is wrapped in parentheses; `+` marks a promoted type; uppercase
//! is the first player. Counters, when any is non-zero, follow as comma-separated numbers.
//!
//! Moves: `7g7f`, `7g7f+` (promotes), `7g7f=(LN)` (becomes another type), `5e5d5c` (stops on
//! `5d` on the way), `P*5e` (drop), `K@5e` (placement), `pass`; in 3D `cv3cv4`, `cv3cv4+`,
//! `cv8cv9=L` (a general switches back), `P*cv5`. The long form `Pcv3-cv4`, `Ubv2xcw3` (see
//! [`parse_long_move`]) is read too.

// Position strings and moves come from users, files and GUIs: no indexing, slicing or arithmetic that could panic on them (issue #17).
#![deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

mod error;
pub mod field_position;

pub use error::NotationError;

use crate::model::description::VariantInfo;
use crate::model::geometry::{Cell, Geometry, NO_CELL};
use crate::model::moves::{Move, MoveKind};
use crate::model::piece::{Piece, PieceId, PieceInfo};
use crate::model::position::{COUNTERS, Position};
use crate::model::side::Side;

/// Letters for a rank index counted from the top: 0 → `a`, 25 → `z`, 26 → `aa`.
fn rank_letters(mut i: u32) -> String {
    let mut s = Vec::new();
    loop {
        // `i % 26` is below 26: a letter from `a` to `z`.
        s.push(b'a'.saturating_add((i % 26) as u8));
        if i < 26 {
            break;
        }
        i = (i / 26).saturating_sub(1);
    }
    s.reverse();
    String::from_utf8(s).expect("ASCII")
}

fn parse_rank_letters(s: &str) -> Option<u32> {
    let mut v: u32 = 0;
    for (k, b) in s.bytes().enumerate() {
        if !b.is_ascii_lowercase() {
            return None;
        }
        // Checked: a long run of letters names no rank of any board (and must not overflow).
        let digit = u32::from(b.checked_sub(b'a')?);
        v = if k == 0 { digit } else { v.checked_add(1)?.checked_mul(26)?.checked_add(digit)? };
    }
    (!s.is_empty()).then_some(v)
}

/// How a file is labelled: its number from the first player's right on a flat board (`7`), its
/// letter from the first player's left on a board with levels (`c`).
pub fn file_label(g: &Geometry, file: i32) -> String {
    if g.levels() > 1 {
        u8::try_from(file).ok().and_then(|f| b'a'.checked_add(f)).map_or('?', char::from).to_string()
    } else {
        i32::from(g.files()).saturating_sub(file).to_string()
    }
}

/// How a rank is labelled: letters from the top on a flat board (`g`), its number from the first
/// player's side on a board with levels (`3`).
pub fn rank_label(g: &Geometry, rank: i32) -> String {
    if g.levels() > 1 {
        rank.saturating_add(1).to_string()
    } else {
        let from_top = i32::from(g.ranks()).saturating_sub(1).saturating_sub(rank);
        u32::try_from(from_top).map_or_else(|_| "?".to_string(), rank_letters)
    }
}

/// How a level is labelled: letters ending in `z` at the last level (six levels: `u` … `z`), so
/// level 0 is `u` on such a board.
pub fn level_label(g: &Geometry, level: i32) -> String {
    let from_last = i32::from(g.levels()).saturating_sub(1).saturating_sub(level);
    u8::try_from(from_last).ok().and_then(|d| b'z'.checked_sub(d)).map_or('?', char::from).to_string()
}

/// The name of a cell: `7f`, `10j` on a flat board; file, level and rank on a board with levels,
/// `dw1` (file `d`, level `w`, rank 1).
pub fn cell_name(g: &Geometry, c: Cell) -> String {
    let (f, r, l) = g.coords(c);
    if g.levels() > 1 {
        format!("{}{}{}", file_label(g, f), level_label(g, l), rank_label(g, r))
    } else {
        format!("{}{}", file_label(g, f), rank_label(g, r))
    }
}

/// Whether `s` starts with a cell name (as opposed to a piece token or a suffix).
fn starts_with_cell(g: &Geometry, s: &str) -> bool {
    if g.levels() > 1 {
        s.starts_with(|c: char| c.is_ascii_lowercase())
    } else {
        s.starts_with(|c: char| c.is_ascii_digit())
    }
}

/// Reads one cell name from the front of `s`, returning the cell and the rest.
pub fn parse_cell_prefix<'a>(g: &Geometry, s: &'a str) -> Result<(Cell, &'a str), NotationError> {
    let bad = || NotationError::BadCell(s.to_string());
    // The leading run of ASCII bytes `f` accepts, and the rest (a split between characters).
    let run = |t: &'a str, f: fn(&u8) -> bool| t.split_at_checked(t.bytes().take_while(f).count());
    let sub = |a: i32, b: i32| a.checked_sub(b).ok_or_else(bad);
    let (file, rank, level, rest) = if g.levels() > 1 {
        let mut chars = s.chars();
        let (Some(file), Some(level)) =
            (chars.next().filter(char::is_ascii_lowercase), chars.next().filter(char::is_ascii_lowercase))
        else {
            return Err(bad());
        };
        let (number, rest) = run(chars.as_str(), u8::is_ascii_digit).ok_or_else(bad)?;
        let rank: i32 = number.parse().map_err(|_| bad())?;
        let from_last = sub('z' as i32, level as i32)?;
        let level = sub(sub(i32::from(g.levels()), 1)?, from_last)?;
        (sub(file as i32, 'a' as i32)?, sub(rank, 1)?, level, rest)
    } else {
        let (number, after) = run(s, u8::is_ascii_digit).ok_or_else(bad)?;
        let (letters, rest) = run(after, u8::is_ascii_lowercase).ok_or_else(bad)?;
        if number.is_empty() || letters.is_empty() {
            return Err(bad());
        }
        let file: i32 = number.parse().map_err(|_| bad())?;
        let rank = i32::try_from(parse_rank_letters(letters).ok_or_else(bad)?).map_err(|_| bad())?;
        (sub(i32::from(g.files()), file)?, sub(sub(i32::from(g.ranks()), 1)?, rank)?, 0, rest)
    };
    let c = g.cell(file, rank, level).ok_or_else(bad)?;
    Ok((c, rest))
}

/// Reads a whole string as one cell.
pub fn parse_cell(g: &Geometry, s: &str) -> Result<Cell, NotationError> {
    match parse_cell_prefix(g, s)? {
        (c, "") => Ok(c),
        _ => Err(NotationError::BadCell(s.to_string())),
    }
}

/// Finds the type written as `token` (`P`, `+P`, `(LN)`, `+(LN)`, case-insensitive) and the side
/// its case names.
pub fn lookup_token(info: &VariantInfo, written: &str) -> Result<(PieceId, Side), NotationError> {
    let side = if written.chars().any(|c| c.is_ascii_lowercase()) { Side::Second } else { Side::First };
    let upper = written.to_ascii_uppercase();
    info.pieces
        .iter()
        .position(|p| p.written() == upper)
        .map(|i| (i as PieceId, side))
        .ok_or_else(|| NotationError::UnknownToken(written.to_string()))
}

/// How a type is written (`P`, `+(LN)`); `?` for a type the variant lacks (a position or move
/// made elsewhere), which no parser reads back.
fn written(info: &VariantInfo, ty: PieceId) -> String {
    info.pieces.get(usize::from(ty)).map_or_else(|| "?".to_string(), PieceInfo::written)
}

fn written_for(info: &VariantInfo, p: Piece) -> String {
    let w = written(info, p.ty);
    if p.side == Side::Second { w.to_ascii_lowercase() } else { w }
}

/// Splits the front token of a board or hand field: `+`? then one letter or `( … )`.
fn take_token(s: &str) -> Result<(&str, &str), String> {
    let body = s.strip_prefix('+').unwrap_or(s);
    let len = if body.starts_with('(') {
        body.find(')').ok_or_else(|| format!("unclosed '(' in {s:?}"))?.saturating_add(1)
    } else {
        body.chars().next().map(char::len_utf8).ok_or_else(|| format!("dangling '+' in {s:?}"))?
    };
    let plus = s.len().saturating_sub(body.len());
    s.split_at_checked(plus.saturating_add(len)).ok_or_else(|| format!("a token of {s:?} ends inside a character"))
}

/// Reads a position string.
pub fn parse_position(info: &VariantInfo, g: &Geometry, s: &str) -> Result<Position, NotationError> {
    let pos = match &info.field {
        Some(field) => field_position::parse(info, field, g, s)?,
        None => parse_board_position(info, g, s)?,
    };
    check_royals(info, &pos)?;
    Ok(pos)
}

/// Refuses a position where a side has more royal pieces than the variant allows
/// ([`VariantInfo::royals_per_side`]).
fn check_royals(info: &VariantInfo, pos: &Position) -> Result<(), NotationError> {
    let Some(most) = info.royals_per_side else { return Ok(()) };
    for side in Side::BOTH {
        let royals: Vec<&str> = (pos.cells().iter().flatten())
            .filter(|p| p.side == side && info.pieces.get(usize::from(p.ty)).is_some_and(|t| t.royal))
            .filter_map(|p| info.pieces.get(usize::from(p.ty)).map(|t| t.name.as_str()))
            .collect();
        if royals.len() > usize::from(most) {
            return Err(NotationError::BadBoard(format!(
                "{side} has {} royal pieces ({}); {} allows at most {most} a side",
                royals.len(),
                royals.join(", "),
                info.meta.name
            )));
        }
    }
    Ok(())
}

/// A position string of a board (not an open field).
fn parse_board_position(info: &VariantInfo, g: &Geometry, s: &str) -> Result<Position, NotationError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let (board, to_move, hands, rest) = match fields.as_slice() {
        &[board, to_move, hands, ref rest @ ..] => (board, to_move, hands, rest),
        _ => return Err(NotationError::MissingFields(s.to_string())),
    };
    let mut pos = Position::empty(g.len(), info.pieces.len());

    // Board: levels in index order (level 0 first), each level's ranks from the top.
    let levels: Vec<&str> = board.split('|').collect();
    if levels.len() != g.levels() as usize {
        return Err(NotationError::BadBoard(format!(
            "the board has {} level(s) but the string gives {}",
            g.levels(),
            levels.len()
        )));
    }
    for (l, level) in levels.iter().enumerate() {
        let ranks: Vec<&str> = level.split('/').collect();
        if ranks.len() != g.ranks() as usize {
            return Err(NotationError::BadBoard(format!(
                "the board has {} ranks but the string gives {}",
                g.ranks(),
                ranks.len()
            )));
        }
        // Both counts were checked against the board's, which are bytes.
        let l = i32::try_from(l).unwrap_or(i32::MAX);
        for (r, row) in (0..i32::from(g.ranks())).rev().zip(ranks.iter()) {
            let too_long = || NotationError::BadBoard(format!("rank {:?} is longer than {} files", row, g.files()));
            let mut f = 0i32;
            let mut rest = *row;
            while !rest.is_empty() {
                let (number, after) = rest
                    .split_at_checked(rest.bytes().take_while(u8::is_ascii_digit).count())
                    .ok_or_else(|| NotationError::BadBoard(row.to_string()))?;
                if !number.is_empty() {
                    let n: i32 = number.parse().map_err(|_| NotationError::BadBoard(row.to_string()))?;
                    f = f.checked_add(n).ok_or_else(too_long)?;
                    rest = after;
                    continue;
                }
                let (tok, after) = take_token(rest).map_err(NotationError::BadBoard)?;
                let (ty, side) = lookup_token(info, tok)?;
                let c = g.cell(f, r, l).ok_or_else(too_long)?;
                pos.set(c, Some(Piece::new(ty, side)));
                f = f.checked_add(1).ok_or_else(too_long)?;
                rest = after;
            }
            if f != i32::from(g.files()) {
                return Err(NotationError::BadBoard(format!(
                    "rank {:?} covers {f} files, the board has {}",
                    row,
                    g.files()
                )));
            }
        }
    }

    match to_move {
        "b" => pos.set_side_to_move(Side::First),
        "w" => pos.set_side_to_move(Side::Second),
        other => return Err(NotationError::BadSide(other.to_string())),
    }

    if hands != "-" {
        let mut rest = hands;
        while !rest.is_empty() {
            let bad = |why: String| NotationError::BadHands(hands.to_string(), why);
            let (number, after) = rest
                .split_at_checked(rest.bytes().take_while(u8::is_ascii_digit).count())
                .ok_or_else(|| bad("count".into()))?;
            let count: u32 = if number.is_empty() { 1 } else { number.parse().map_err(|_| bad("count".into()))? };
            let (tok, after) = take_token(after).map_err(bad)?;
            let (ty, side) = lookup_token(info, tok)?;
            if !info.hand_types.contains(&ty) {
                return Err(bad(format!("{tok} cannot be held in hand")));
            }
            let total = u32::from(pos.hand(side, ty)).saturating_add(count);
            pos.set_hand(side, ty, u8::try_from(total).map_err(|_| bad("count over 255".into()))?);
            rest = after;
        }
    }

    if let Some(n) = rest.first() {
        let n: u32 = n.parse().map_err(|_| NotationError::BadMoveNumber(n.to_string()))?;
        pos.set_move_number(n.max(1));
    }
    if let Some(cs) = rest.get(1) {
        let values: Vec<&str> = cs.split(',').collect();
        if values.len() > COUNTERS {
            return Err(NotationError::BadCounters(cs.to_string()));
        }
        for (i, v) in values.iter().enumerate() {
            pos.set_counter(i, v.parse().map_err(|_| NotationError::BadCounters(cs.to_string()))?);
        }
    }
    if let Some(extra) = rest.get(2..).filter(|e| !e.is_empty()) {
        return Err(NotationError::BadCounters(extra.join(" ")));
    }
    Ok(pos)
}

/// Writes a position string.
pub fn format_position(info: &VariantInfo, g: &Geometry, pos: &Position) -> String {
    if let Some(field) = &info.field {
        return field_position::format(info, field, g, pos);
    }
    let mut s = String::new();
    for l in 0..g.levels() as i32 {
        if l > 0 {
            s.push('|');
        }
        for r in (0..g.ranks() as i32).rev() {
            if r.saturating_add(1) != i32::from(g.ranks()) {
                s.push('/');
            }
            let mut empty = 0u32;
            for f in 0..g.files() as i32 {
                match g.cell(f, r, l).and_then(|c| pos.piece_at(c)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(&written_for(info, p));
                    }
                    None => empty = empty.saturating_add(1),
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
    }
    s.push(' ');
    s.push(pos.side_to_move().letter());
    s.push(' ');
    let mut hands = String::new();
    for side in Side::BOTH {
        for &ty in &info.hand_types {
            let n = pos.hand(side, ty);
            if n > 1 {
                hands.push_str(&n.to_string());
            }
            if n > 0 {
                hands.push_str(&written_for(info, Piece::new(ty, side)));
            }
        }
    }
    s.push_str(if hands.is_empty() { "-" } else { &hands });
    s.push(' ');
    s.push_str(&pos.move_number().to_string());
    if let Some(last) = pos.counters().iter().rposition(|&c| c != 0) {
        // The kit's four counters always, a rule's own only up to the last one in use: positions
        // written before rules had counters read the same.
        let shown = (last + 1).max(crate::model::position::RULE_COUNTERS);
        let cs: Vec<String> = pos.counters()[..shown].iter().map(u16::to_string).collect();
        s.push(' ');
        s.push_str(&cs.join(","));
    }
    s
}

/// Writes a move: `7g7f`, `7g7f+`, `7g7f=(LN)`, `5e5d5c`, `P*5e`, `K@5e`, `pass`.
pub fn format_move(info: &VariantInfo, g: &Geometry, pos: &Position, mv: Move) -> String {
    match mv.kind {
        MoveKind::Pass => "pass".to_string(),
        MoveKind::Drop => format!("{}*{}", written(info, mv.piece), cell_name(g, mv.to)),
        MoveKind::Place => format!("{}@{}", written(info, mv.piece), cell_name(g, mv.to)),
        MoveKind::Board => {
            let mut s = cell_name(g, mv.from);
            if let Some(via) = mv.stop() {
                s.push_str(&cell_name(g, via));
            }
            s.push_str(&cell_name(g, mv.to));
            if let Some(before) = pos.piece_at(mv.from).map(|p| p.ty)
                && before != mv.piece
            {
                if info.pieces.get(usize::from(before)).is_some_and(|p| p.promotes_to == Some(mv.piece)) {
                    s.push('+');
                } else {
                    s.push('=');
                    s.push_str(&written(info, mv.piece));
                }
            }
            s
        }
    }
}

/// Reads a move's notation in `pos` (without checking legality): the USI-style form that
/// [`format_move`] writes, or the long form [`parse_long_move`] reads.
pub fn parse_move(info: &VariantInfo, g: &Geometry, pos: &Position, s: &str) -> Result<Move, NotationError> {
    let bad = |why: &str| NotationError::BadMove(s.to_string(), why.to_string());
    let s = s.trim();
    if s == "pass" {
        return Ok(Move::pass());
    }
    for (sep, make) in [('*', Move::drop as fn(PieceId, Cell) -> Move), ('@', Move::place)] {
        if let Some((tok, cell)) = s.split_once(sep) {
            let (ty, _) = lookup_token(info, &tok.to_ascii_uppercase())?;
            return Ok(make(ty, parse_cell(g, cell)?));
        }
    }
    if s.starts_with(|c: char| c == '+' || c == '(' || c.is_ascii_uppercase()) {
        return parse_long_move(info, g, pos, s);
    }
    let mut cells = Vec::new();
    let mut rest = s;
    while starts_with_cell(g, rest) {
        let (c, r) = parse_cell_prefix(g, rest)?;
        cells.push(c);
        rest = r;
    }
    let (from, via, to) = match *cells.as_slice() {
        [from, to] => (from, NO_CELL, to),
        [from, via, to] => (from, via, to),
        _ => return Err(bad("expected two or three cells")),
    };
    let moving = pos.piece_at(from).ok_or_else(|| bad("no piece on the starting cell"))?;
    let after = match rest {
        "" => moving.ty,
        "+" => (info.pieces.get(usize::from(moving.ty)))
            .and_then(|p| p.promotes_to)
            .ok_or_else(|| bad("this piece does not promote"))?,
        _ => match rest.strip_prefix('=') {
            Some(tok) => lookup_token(info, &tok.to_ascii_uppercase())?.0,
            None => return Err(bad("unexpected text after the cells")),
        },
    };
    Ok(Move { kind: MoveKind::Board, piece: after, from, to, via })
}

/// Reads the long form of a board move: the piece's token, its cell, `-` (to an empty cell) or
/// `x` (capturing), the target cell, and `+` (promotes, or a ranker switches to its general),
/// `~` (a promoted piece switches back to its unpromoted type), `=` (promotion declined) or
/// nothing: `Pcv3-cv4`, `Ubv2xcw3`, `+Lcv8-cv9~`, `P7g-7f`. The token and the `-`/`x` must agree
/// with the position.
pub fn parse_long_move(info: &VariantInfo, g: &Geometry, pos: &Position, s: &str) -> Result<Move, NotationError> {
    let bad = |why: String| NotationError::BadMove(s.to_string(), why);
    let (tok, rest) = take_token(s).map_err(bad)?;
    let (ty, _) = lookup_token(info, &tok.to_ascii_uppercase())?;
    let (from, rest) = parse_cell_prefix(g, rest)?;
    let (captures, rest) = match (rest.strip_prefix('-'), rest.strip_prefix('x')) {
        (Some(rest), _) => (false, rest),
        (_, Some(rest)) => (true, rest),
        _ => return Err(bad("expected `-` or `x` after the starting cell".into())),
    };
    let (to, rest) = parse_cell_prefix(g, rest)?;
    let moving = pos.piece_at(from).ok_or_else(|| bad(format!("no piece on {}", cell_name(g, from))))?;
    if moving.ty != ty {
        let there = written(info, moving.ty);
        return Err(bad(format!("{} holds {there}, not {}", cell_name(g, from), tok.to_ascii_uppercase())));
    }
    if captures != pos.piece_at(to).is_some() {
        let why = if captures { "`x` but nothing stands on the target" } else { "the target is occupied: write `x`" };
        return Err(bad(why.into()));
    }
    let piece = info.pieces.get(usize::from(ty)).ok_or_else(|| bad(format!("no piece type {ty}")))?;
    let after = match rest {
        "" | "=" => ty,
        "+" => piece.promotes_to.ok_or_else(|| bad("this piece does not promote".into()))?,
        "~" if piece.promoted => piece.demotes_to,
        "~" => return Err(bad("only a promoted piece can switch back".into())),
        _ => return Err(bad(format!("unexpected {rest:?} after the cells"))),
    };
    Ok(Move { kind: MoveKind::Board, piece: after, from, to, via: NO_CELL })
}

// Tests index and count what they have just built: a panic there is a failing test, not a
// parser reached by input.
#[cfg(test)]
#[allow(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use crate::model::geometry::GeometrySpec;

    #[test]
    fn rank_letters_extend_past_z() {
        for i in 0..800 {
            assert_eq!(parse_rank_letters(&rank_letters(i)), Some(i));
        }
        assert_eq!(rank_letters(25), "z");
        assert_eq!(rank_letters(26), "aa");
    }

    #[test]
    fn cells_on_a_ten_file_board() {
        let g = Geometry::new(&GeometrySpec::flat(10, 10)).unwrap();
        let c = parse_cell(&g, "10j").unwrap();
        assert_eq!(g.coords(c), (0, 0, 0));
        assert_eq!(cell_name(&g, c), "10j");
        assert_eq!(cell_name(&g, parse_cell(&g, "1a").unwrap()), "1a");
        assert!(parse_cell(&g, "11a").is_err());
        assert!(parse_cell(&g, "1k").is_err());
    }

    #[test]
    fn cells_with_levels() {
        let g = Geometry::new(&GeometrySpec { files: 6, ranks: 9, levels: 6, holes: vec![] }).unwrap();
        for c in g.cells() {
            assert_eq!(parse_cell(&g, &cell_name(&g, c)).unwrap(), c);
        }
        // File a = the first player's left (file 0), level u = level 0 (the last is z), rank 1.
        assert_eq!(cell_name(&g, g.cell(0, 0, 0).unwrap()), "au1");
        assert_eq!(cell_name(&g, g.cell(3, 0, 2).unwrap()), "dw1");
        assert_eq!(cell_name(&g, g.cell(5, 8, 5).unwrap()), "fz9");
        for bad in ["gu1", "at1", "au0", "au10", "au", "1a", "dw1x"] {
            assert!(parse_cell(&g, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fewer_levels_end_in_z_too() {
        let g = Geometry::new(&GeometrySpec { files: 3, ranks: 3, levels: 2, holes: vec![] }).unwrap();
        assert_eq!(cell_name(&g, g.cell(0, 0, 0).unwrap()), "ay1");
        assert_eq!(cell_name(&g, g.cell(2, 2, 1).unwrap()), "cz3");
    }
}
