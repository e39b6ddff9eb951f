//! The piece lab's model: a piece's single-leg moves as a set of [`Atom`]s a designer changes by
//! clicking cells of a move diagram (a step or leap to the cell, a slide along the cell's ray,
//! moves only or captures only), written back as the shortest Betza string this module finds, and
//! put into the script in place of the piece's `moves:` string.
//!
//! The Interactive Diagram's Piece Lab does this for chess variants; here the result is the very
//! text the rules compile from, so the board plays the new piece at once. Every string written is
//! read back by the rules' own Betza parser and must give the same atoms, so the lab can never
//! write a move the rules would read differently.

use std::collections::BTreeMap;

use henka_api::Vector;
use henka_api::rules::betza::{self, Atom, Mode, atoms_overlap};

/// The largest offset the lab's diagram shows (and Betza's single letters reach: `H`, `C`,
/// `Z`, `G` are three cells out).
pub const REACH: i8 = 3;

/// What a click on a diagram cell does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// A step or leap to exactly that cell.
    Leap,
    /// A slide along the cell's ray, up to `range` cells (0: any distance).
    Slide { range: u8 },
    /// Removes whatever reaches the cell.
    Erase,
}

/// Which cells a click also sets, so a symmetric piece takes one click per move shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Only the cell clicked.
    None,
    /// The cell and its mirror image across the file of the piece (shogi pieces are symmetric so).
    LeftRight,
    /// All eight rotations and reflections (chess-like pieces).
    All,
}

/// A piece's single-leg moves being edited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabPiece {
    atoms: Vec<Atom>,
}

impl LabPiece {
    /// Reads a piece's moves, if the lab can edit them: flat, single-leg moves without the lame
    /// (`n`) or skip (`j`) modifiers. Anything else is said, so the designer edits the text.
    pub fn from_betza(text: &str) -> Result<LabPiece, String> {
        let moves = betza::parse(text).map_err(|e| e.to_string())?;
        if !moves.paths.is_empty() {
            return Err("it has multi-leg moves (lion moves, hops, hooks): edit its Betza string in the script".into());
        }
        if let Some(a) = moves.atoms.iter().find(|a| a.lame || a.skip_first || a.vector.dl != 0) {
            let why = if a.vector.dl != 0 { "moves through levels" } else { "lame or skipping moves (n, j)" };
            return Err(format!("it has {why}: edit its Betza string in the script"));
        }
        Ok(LabPiece { atoms: moves.atoms })
    }

    pub fn atoms(&self) -> &[Atom] {
        &self.atoms
    }

    /// Applies `tool` with `mode` to the cell `(df, dr)` (forward = +dr) and its images under
    /// `symmetry`. A new move replaces any it overlaps (the rules refuse a move listed twice); the
    /// same move clicked again is removed. Returns an error for cells Betza cannot write.
    pub fn click(&mut self, at: (i8, i8), tool: Tool, mode: Mode, symmetry: Symmetry) -> Result<(), String> {
        if at == (0, 0) {
            return Err("that is the piece's own cell".into());
        }
        let images = images(at, symmetry);
        match tool {
            Tool::Erase => {
                for &(df, dr) in &images {
                    self.atoms.retain(|a| !reaches(a, df, dr));
                }
            }
            Tool::Leap => {
                if shape_letter(at).is_none() {
                    return Err(format!(
                        "Betza writes leaps up to {REACH} cells out on either axis; ({}, {}) is too far",
                        at.0, at.1
                    ));
                }
                let atoms = images.iter().map(|&(df, dr)| Atom { range: 1, ..atom(df, dr, mode) }).collect();
                self.toggle(atoms);
            }
            Tool::Slide { range } => {
                let step = unit(at);
                if shape_letter(step).is_none() {
                    return Err(format!("Betza has no slide along ({}, {})", step.0, step.1));
                }
                let atoms =
                    images.iter().map(|&c| unit(c)).map(|(df, dr)| Atom { range, ..atom(df, dr, mode) }).collect();
                self.toggle(atoms);
            }
        }
        Ok(())
    }

    /// Removes `atoms` if they are all there already, else adds them, replacing overlaps.
    fn toggle(&mut self, mut atoms: Vec<Atom>) {
        atoms.dedup();
        if atoms.iter().all(|a| self.atoms.contains(a)) {
            self.atoms.retain(|a| !atoms.contains(a));
            return;
        }
        self.atoms.retain(|old| !atoms.iter().any(|new| atoms_overlap(old, new)));
        self.atoms.extend(atoms);
    }

    /// The moves as Betza: atoms grouped by shape, range and mode, each group with the fewest
    /// direction modifiers found; `K`/`Q` where a group of steps or slides goes every way.
    pub fn to_betza(&self) -> String {
        let mut groups: BTreeMap<(i8, i8, u8, bool, bool), Vec<Vector>> = BTreeMap::new();
        for a in &self.atoms {
            let (x, y) = (a.vector.df.abs(), a.vector.dr.abs());
            let key = (x.min(y), x.max(y), a.range, !a.mode.captures, !a.mode.moves);
            groups.entry(key).or_default().push(a.vector);
        }
        let mut parts: Vec<String> = Vec::new();
        let full = |v: &[Vector], shape| v.len() == betza_vectors(shape, "").len();
        // A king's or queen's whole star is one letter.
        for range in [1u8, 0] {
            for (m, c) in [(false, false), (true, false), (false, true)] {
                let (w, f) = ((0, 1, range, m, c), (1, 1, range, m, c));
                if groups.get(&w).is_some_and(|v| full(v, (0, 1))) && groups.get(&f).is_some_and(|v| full(v, (1, 1))) {
                    groups.remove(&w);
                    groups.remove(&f);
                    parts.push(format!("{}{}", mode_prefix(m, c), if range == 1 { "K" } else { "Q" }));
                }
            }
        }
        for ((short, long, range, m, c), vectors) in groups {
            parts.push(write_group((short, long), range, mode_prefix(m, c), &vectors));
        }
        parts.join("")
    }
}

/// `(df, dr)` and its images under `symmetry`, without repeats.
fn images((df, dr): (i8, i8), symmetry: Symmetry) -> Vec<(i8, i8)> {
    let mut out = match symmetry {
        Symmetry::None => vec![(df, dr)],
        Symmetry::LeftRight => vec![(df, dr), (-df, dr)],
        Symmetry::All => {
            let mut v = Vec::new();
            for (x, y) in [(df, dr), (dr, df)] {
                for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    v.push((x * sx, y * sy));
                }
            }
            v
        }
    };
    out.sort_unstable();
    out.dedup();
    out
}

fn atom(df: i8, dr: i8, mode: Mode) -> Atom {
    Atom { vector: Vector::flat(df, dr), range: 1, mode, lame: false, skip_first: false }
}

/// The primitive step along the ray through `(df, dr)`.
fn unit((df, dr): (i8, i8)) -> (i8, i8) {
    let g = gcd(df.unsigned_abs(), dr.unsigned_abs()).max(1) as i8;
    (df / g, dr / g)
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Whether the atom's move can end on `(df, dr)` on an empty board.
fn reaches(a: &Atom, df: i8, dr: i8) -> bool {
    let (x, y) = (a.vector.df, a.vector.dr);
    let limit = if a.range == 0 { i8::MAX } else { a.range as i8 };
    (1..=limit.min(2 * REACH)).any(|k| x * k == df && y * k == dr)
}

/// The Betza letter of a leap's shape: the shorter and the longer coordinate, in any order.
fn shape_letter((df, dr): (i8, i8)) -> Option<char> {
    let (x, y) = (df.abs(), dr.abs());
    Some(match (x.min(y), x.max(y)) {
        (0, 1) => 'W',
        (1, 1) => 'F',
        (0, 2) => 'D',
        (1, 2) => 'N',
        (2, 2) => 'A',
        (0, 3) => 'H',
        (1, 3) => 'C',
        (2, 3) => 'Z',
        (3, 3) => 'G',
        _ => return None,
    })
}

fn mode_prefix(move_only: bool, capture_only: bool) -> &'static str {
    match (move_only, capture_only) {
        (true, false) => "m",
        (false, true) => "c",
        _ => "",
    }
}

/// The vectors `"{dirs}{letter}"` selects, by the rules' own parser.
fn betza_vectors(shape: (i8, i8), dirs: &str) -> Vec<Vector> {
    let letter = shape_letter(shape).expect("a lettered shape");
    betza::parse(&format!("{dirs}{letter}")).map(|m| m.atoms.iter().map(|a| a.vector).collect()).unwrap_or_default()
}

/// The letter and range suffix of a shape: `R`/`B` for the orthogonal and diagonal slides,
/// a doubled letter for other riders, a digit for a limited range.
fn atom_text(shape: (i8, i8), range: u8) -> String {
    let letter = shape_letter(shape).expect("a lettered shape");
    match (letter, range) {
        (l, 1) => l.to_string(),
        ('W', 0) => "R".into(),
        ('F', 0) => "B".into(),
        (l, 0) => format!("{l}{l}"),
        ('W', n) => format!("R{n}"),
        ('F', n) => format!("B{n}"),
        (l, n) => format!("{l}{n}"),
    }
}

/// One group's Betza: the shape's atom with direction modifiers that select exactly `vectors`.
/// The modifiers are a greedy cover by the largest selections that stay inside the group, checked
/// by parsing; should two tokens read together differently, each vector is written on its own.
fn write_group(shape: (i8, i8), range: u8, prefix: &str, vectors: &[Vector]) -> String {
    let text = atom_text(shape, range);
    let all = betza_vectors(shape, "");
    if all.iter().all(|v| vectors.contains(v)) {
        return format!("{prefix}{text}");
    }
    const LETTERS: [char; 6] = ['f', 'b', 'l', 'r', 'v', 's'];
    let mut tokens: Vec<(String, Vec<Vector>)> = LETTERS
        .iter()
        .map(|c| c.to_string())
        .chain(LETTERS.iter().flat_map(|a| LETTERS.iter().map(move |b| format!("{a}{b}"))))
        .map(|t| {
            let selected = betza_vectors(shape, &t);
            (t, selected)
        })
        .filter(|(_, sel)| !sel.is_empty() && sel.iter().all(|v| vectors.contains(v)))
        .collect();
    tokens.sort_by_key(|(t, sel)| (std::cmp::Reverse(sel.len()), t.len()));
    let mut covered: Vec<Vector> = Vec::new();
    let mut chosen: Vec<&str> = Vec::new();
    for (t, sel) in &tokens {
        if sel.iter().any(|v| !covered.contains(v)) {
            chosen.push(t);
            covered.extend(sel.iter().copied());
        }
        if vectors.iter().all(|v| covered.contains(v)) {
            break;
        }
    }
    let together = format!("{prefix}{}{text}", chosen.concat());
    if same_vectors(&together, vectors) {
        return together;
    }
    // Side by side some tokens pair up into another (`f` then `r` reads as `fr`): one atom each.
    chosen.iter().map(|t| format!("{prefix}{t}{text}")).collect()
}

fn same_vectors(text: &str, vectors: &[Vector]) -> bool {
    let Ok(m) = betza::parse(text) else { return false };
    m.atoms.len() == vectors.len() && m.atoms.iter().all(|a| vectors.contains(&a.vector))
}

/// Puts `moves` in place of the `moves:` string of the piece named `piece` in a script: the
/// `moves` key of the map that holds `name: "<piece>"` (a promoted form's own map included).
pub fn write_moves(script: &str, piece: &str, moves: &str) -> Result<String, String> {
    let key = format!("name: \"{piece}\"");
    let at = script.find(&key).ok_or_else(|| format!("the script has no `{key}` to write the moves into"))?;
    let (open, close) = enclosing_map(script, at).ok_or_else(|| format!("`{key}` is not inside a #{{ … }} map"))?;
    let inner = &script[open..close];
    let Some(value) = key_value(inner, "moves") else {
        return Err(format!("the {piece}'s map has no `moves:`; add `moves: \"{moves}\"` by hand"));
    };
    let value_at = open + value;
    let rest = &script[value_at..];
    if !rest.starts_with('"') {
        return Err(format!(
            "the {piece}'s moves are not a plain string in the script; write `moves: \"{moves}\"` by hand"
        ));
    }
    let len = rest[1..].find('"').ok_or("the moves string is not closed")?;
    Ok(format!("{}\"{moves}\"{}", &script[..value_at], &script[value_at + len + 2..]))
}

/// The byte range inside the innermost `#{ … }` around `at` (strings and comments skipped).
fn enclosing_map(script: &str, at: usize) -> Option<(usize, usize)> {
    let mut stack: Vec<usize> = Vec::new();
    let mut open = None;
    for (i, kind) in scan(script) {
        match kind {
            Token::Open => stack.push(i + 1),
            Token::Close => {
                let start = stack.pop()?;
                if start <= at && i > at && open.is_none() {
                    open = Some((start, i));
                }
            }
        }
    }
    open.filter(|&(start, _)| script.get(start.saturating_sub(2)..start) == Some("#{"))
}

/// Where the value of `key:` starts in a map's text, at the map's own depth (not in a nested map).
fn key_value(inner: &str, key: &str) -> Option<usize> {
    let mut depth = 0i32;
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'`' => i = skip_string(inner, i),
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => depth -= 1,
            _ if depth == 0 && inner[i..].starts_with(key) => {
                let before_ok = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
                let after = inner[i + key.len()..].trim_start();
                if before_ok && after.starts_with(':') {
                    let colon = inner.len() - after.len();
                    let value = &inner[colon + 1..];
                    return Some(colon + 1 + (value.len() - value.trim_start().len()));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of a string's closing quote (or the end), from its opening quote at `i`.
fn skip_string(text: &str, i: usize) -> usize {
    let bytes = text.as_bytes();
    let quote = bytes[i];
    let mut j = i + 1;
    while j < bytes.len() && bytes[j] != quote {
        if bytes[j] == b'\\' {
            j += 1;
        }
        j += 1;
    }
    j
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Open,
    Close,
}

/// The script's curly braces outside strings and comments, in order.
fn scan(script: &str) -> Vec<(usize, Token)> {
    let bytes = script.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'`' => i = skip_string(script, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = script[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'{' => out.push((i, Token::Open)),
            b'}' => out.push((i, Token::Close)),
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn atoms_of(text: &str) -> Vec<Atom> {
        let mut a = betza::parse(text).unwrap().atoms;
        a.sort_by_key(|a| (a.vector.df, a.vector.dr, a.range, a.mode.moves, a.mode.captures));
        a
    }

    /// The lab writes a string that reads back as the same moves.
    fn round_trip(text: &str) -> String {
        let lab = LabPiece::from_betza(text).unwrap();
        let written = lab.to_betza();
        assert_eq!(atoms_of(&written), atoms_of(text), "{text} → {written}");
        written
    }

    #[test]
    fn every_single_leg_piece_of_the_bundled_variants_reads_back_the_same() {
        let mut tried = 0;
        for (name, src) in crate::catalog::BUNDLED {
            let v = crate::script::load_source(name, src).unwrap().variant;
            for p in &henka_api::Variant::info(v.as_ref()).pieces {
                if LabPiece::from_betza(&p.betza).is_ok() {
                    round_trip(&p.betza);
                    tried += 1;
                }
            }
        }
        assert!(tried > 100, "{tried} pieces tried");
    }

    #[test]
    fn common_pieces_are_written_as_a_designer_would() {
        assert_eq!(round_trip("WfF"), "WfF");
        assert_eq!(round_trip("K"), "K");
        assert_eq!(round_trip("FR"), "RF");
        assert_eq!(round_trip("ffN"), "ffN");
        assert_eq!(round_trip("fR"), "fR");
        assert_eq!(round_trip("cfFmfW"), "mfWcfF");
        // Forward and right diagonals: `f` and `r` side by side would read as `fr`.
        assert_eq!(round_trip("fFbrF"), "fFrF");
    }

    #[test]
    fn clicks_build_a_piece() {
        let mut lab = LabPiece::default();
        let both = Mode::BOTH;
        // One click with left-right symmetry: a silver's forward diagonals.
        lab.click((1, 1), Tool::Leap, both, Symmetry::LeftRight).unwrap();
        lab.click((0, 1), Tool::Leap, both, Symmetry::LeftRight).unwrap();
        lab.click((1, -1), Tool::Leap, both, Symmetry::LeftRight).unwrap();
        assert_eq!(atoms_of(&lab.to_betza()), atoms_of("FfW"));
        // A slide forward replaces the forward step it overlaps.
        lab.click((0, 3), Tool::Slide { range: 0 }, both, Symmetry::None).unwrap();
        assert_eq!(atoms_of(&lab.to_betza()), atoms_of("FfR"));
        // Clicking the same slide again removes it; erase removes what reaches a cell.
        lab.click((0, 2), Tool::Slide { range: 0 }, both, Symmetry::None).unwrap();
        assert_eq!(atoms_of(&lab.to_betza()), atoms_of("F"));
        lab.click((-1, -1), Tool::Erase, both, Symmetry::None).unwrap();
        assert_eq!(atoms_of(&lab.to_betza()), atoms_of("fFrbF"));
        // A knight's eight leaps in one click; a capture-only step.
        let mut knight = LabPiece::default();
        knight.click((1, 2), Tool::Leap, both, Symmetry::All).unwrap();
        assert_eq!(knight.to_betza(), "N");
        knight.click((0, 1), Tool::Leap, Mode::CAPTURE_ONLY, Symmetry::None).unwrap();
        assert_eq!(atoms_of(&knight.to_betza()), atoms_of("NcfW"));
        assert!(knight.click((0, 5), Tool::Leap, both, Symmetry::None).is_err(), "no letter for a (0,5) leap");
        assert!(knight.click((0, 0), Tool::Leap, both, Symmetry::None).is_err());
    }

    #[test]
    fn multi_leg_and_3d_pieces_are_left_to_the_text() {
        assert!(LabPiece::from_betza("KaK").unwrap_err().contains("multi-leg"));
        assert!(LabPiece::from_betza("nN").unwrap_err().contains("lame"));
    }

    proptest! {
        /// Any set of clicks gives a string the parser reads back as exactly the lab's moves.
        #[test]
        fn any_clicks_write_a_string_that_reads_back(clicks in prop::collection::vec(
            ((-3i8..=3, -3i8..=3), 0u8..3, 0u8..3, 0u8..3, 0u8..3), 1..12)) {
            let mut lab = LabPiece::default();
            for ((df, dr), tool, mode, sym, range) in clicks {
                let tool = match tool { 0 => Tool::Leap, 1 => Tool::Slide { range }, _ => Tool::Erase };
                let mode = [Mode::BOTH, Mode::MOVE_ONLY, Mode::CAPTURE_ONLY][mode as usize];
                let sym = [Symmetry::None, Symmetry::LeftRight, Symmetry::All][sym as usize];
                let _ = lab.click((df, dr), tool, mode, sym);
            }
            let written = lab.to_betza();
            if lab.atoms().is_empty() {
                prop_assert_eq!(written, "");
            } else {
                let mut want = lab.atoms().to_vec();
                want.sort_by_key(|a| (a.vector.df, a.vector.dr, a.range, a.mode.moves, a.mode.captures));
                prop_assert_eq!(atoms_of(&written), want, "{}", written);
            }
        }
    }

    #[test]
    fn the_moves_string_of_the_named_piece_is_replaced() {
        let script = r#"v.piece(#{ name: "Silver", token: "S", moves: "FfW",
        promotes: #{ name: "Promoted Silver", moves: "WfF" } });
v.piece(#{ moves: "K", name: "King", royal: true });"#;
        let out = write_moves(script, "Silver", "FfWbW").unwrap();
        assert!(
            out.contains(
                r#"moves: "FfWbW",
        promotes: #{ name: "Promoted Silver", moves: "WfF" }"#
            ),
            "{out}"
        );
        let out = write_moves(script, "Promoted Silver", "K").unwrap();
        assert!(out.contains(r#"name: "Promoted Silver", moves: "K" }"#), "{out}");
        let out = write_moves(script, "King", "WF").unwrap();
        assert!(out.contains(r#"v.piece(#{ moves: "WF", name: "King""#), "{out}");
        assert!(write_moves(script, "Gold", "K").unwrap_err().contains("no `name: \"Gold\"`"));
        let computed = r#"v.piece(#{ name: "Ranker", moves: ranker_moves("orthogonal") });"#;
        assert!(write_moves(computed, "Ranker", "R").unwrap_err().contains("not a plain string"));
    }
}
