//! (X)Betza move notation → the kit's move atoms and multi-leg paths.
//!
//! Supported: the atoms `W F D N A H C Z G`, the compounds `K Q R B`, `U` (to any cell), riders by
//! doubling (`NN`) or a range digit (`R4`, `W2`, `K2`), direction modifiers `f b l r s v` (one letter
//! picks a pair of moves on diagonal and oblique atoms, two letters a single one: `fl`, `ff` = the
//! narrow forward knight moves, `fs` = the wide ones), modes `m` (move only) and `c` (capture
//! only), `n` (lame: the path must be empty), `j` (a slider skips its first square), and the
//! multi-leg moves of XBetza on unit atoms: `a` legs with relative directions, locust captures
//! (`caK`), hops (`pafcR`, `cpR`), hooks (`masR`), area moves (`KaKaaK`) and returns to the start
//! (igui `cabK`, passing `mabK`). Every piece of the Taishin shogi configuration reads verbatim.

// Betza strings come from scripts anyone may write: the functions that read them carry
// `#[deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]`, so
// no indexing, slicing or arithmetic in them can panic on what a script wrote (issue #17). The
// vector geometry after them works on atoms the reader has already bounded.

use serde::{Deserialize, Serialize};

use crate::model::geometry::Vector;

/// What a move may do on the cell where it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Mode {
    /// May end on an empty cell.
    pub moves: bool,
    /// May end on an enemy piece, capturing it.
    pub captures: bool,
}

impl Mode {
    pub const BOTH: Mode = Mode { moves: true, captures: true };
    pub const MOVE_ONLY: Mode = Mode { moves: true, captures: false };
    pub const CAPTURE_ONLY: Mode = Mode { moves: false, captures: true };
}

/// One direction of movement: step `vector` (in the mover's own frame) up to `range` times.
///
/// Range 1 is a leap (or step); 0 means unlimited. A rider stops at the first occupied cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Atom {
    pub vector: Vector,
    pub range: u8,
    pub mode: Mode,
    /// A leap that is blocked when a cell on its path is occupied (Betza `n`).
    #[serde(default)]
    pub lame: bool,
    /// A slide that skips its first cell whatever stands there (XBetza `j`).
    #[serde(default)]
    pub skip_first: bool,
}

impl Atom {
    /// The cells (as offsets from the start) a lame leap passes over: along the long axis first,
    /// bending diagonally at the end (the Xiangqi horse's path for `nN`).
    pub fn lame_path(&self) -> Vec<Vector> {
        let (x, y) = (self.vector.df as i32, self.vector.dr as i32);
        let n = x.abs().max(y.abs());
        let short_x = x.abs() < y.abs();
        (1..n)
            .map(|k| {
                let along = |d: i32, is_short: bool| {
                    if !is_short { d.signum() * k } else { d.signum() * (k - (n - d.abs())).max(0) }
                };
                Vector::flat(along(x, short_x) as i8, along(y, !short_x) as i8)
            })
            .collect()
    }
}

/// Whether two atoms can reach the same cell: the same direction, and distances in common
/// (`W` and `R`, `D` and `R`, `A` and `B4`). A piece with such atoms would list a move twice.
pub fn atoms_overlap(a: &Atom, b: &Atom) -> bool {
    let unit = |v: Vector| {
        let g = gcd(gcd(v.df.unsigned_abs(), v.dr.unsigned_abs()), v.dl.unsigned_abs()).max(1) as i8;
        (Vector::new(v.df / g, v.dr / g, v.dl / g), g as u32)
    };
    let ((ua, ka), (ub, kb)) = (unit(a.vector), unit(b.vector));
    if ua != ub {
        return false;
    }
    // The multiples of the unit vector each reaches (a skipped first cell only narrows that).
    let reach = |k: u32, range: u8| (k, if range == 0 { u32::MAX / 64 } else { k * range as u32 });
    let ((sa, ea), (sb, eb)) = (reach(ka, a.range), reach(kb, b.range));
    (sa..=ea).step_by(ka as usize).any(|d| d >= sb && d <= eb && (d - sb) % kb == 0)
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Why a Betza string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("in move {text:?} at character {at}: {message}")]
pub struct BetzaError {
    pub text: String,
    /// 1-based character position.
    pub at: usize,
    pub message: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

/// The eight-fold (or four-fold) set of vectors of a base atom.
fn base_vectors(a: i8, b: i8) -> Vec<Vector> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let w = Vector::flat(x * sx, y * sy);
                if !v.contains(&w) {
                    v.push(w);
                }
            }
        }
    }
    v
}

fn leg(letter: char) -> Option<(i8, i8)> {
    Some(match letter {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' => (1, 3),
        'Z' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

fn vertical(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'v')
}

fn sign_ok(c: char, v: Vector) -> bool {
    match c {
        'f' => v.dr > 0,
        'b' => v.dr < 0,
        'v' => v.dr != 0,
        'l' => v.df < 0,
        'r' => v.df > 0,
        's' => v.df != 0,
        _ => false,
    }
}

fn long_along(c: char, v: Vector) -> bool {
    if vertical(c) { v.dr.abs() > v.df.abs() } else { v.df.abs() > v.dr.abs() }
}

/// Splits direction letters into tokens of one or two letters as the atom's shape reads them.
#[deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn direction_tokens(dirs: &[char], shape: Shape) -> Vec<(char, Option<char>)> {
    let mut out = Vec::new();
    let mut rest = dirs;
    while let [c, after @ ..] = rest {
        if shape != Shape::Orthogonal
            && let [d, after_pair @ ..] = after
            && (vertical(*c) != vertical(*d) || (shape == Shape::Oblique && c == d))
        {
            out.push((*c, Some(*d)));
            rest = after_pair;
            continue;
        }
        out.push((*c, None));
        rest = after;
    }
    out
}

fn selects(token: (char, Option<char>), v: Vector, shape: Shape) -> bool {
    match token {
        (c, None) => sign_ok(c, v),
        (c, Some(d)) if c == d => sign_ok(c, v) && long_along(c, v),
        (c, Some(d)) => sign_ok(c, v) && sign_ok(d, v) && (shape != Shape::Oblique || long_along(d, v)),
    }
}

/// A piece's whole move: single-leg atoms (the fast, table-driven case) and multi-leg paths.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moves {
    pub atoms: Vec<Atom>,
    #[serde(default)]
    pub paths: Vec<Path>,
}

/// A multi-leg move (XBetza `a`, hoppers `p`, the universal leap `U`): legs walked one after the
/// other, each starting where the previous one stopped.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Path {
    pub legs: Vec<Leg>,
}

/// One leg of a [`Path`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Leg {
    pub dirs: LegDirs,
    /// Steps along the direction: 1 for a step, 0 for a slide of any length, n for at most n.
    pub range: u8,
    /// Where the leg may stop.
    pub stop: Stop,
}

/// The directions a leg may take.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LegDirs {
    /// The first leg: unit vectors in the mover's frame.
    Absolute(Vec<Vector>),
    /// A later leg, relative to the previous leg's direction: straight on, back, a 90° turn to
    /// the left or right (all false = any direction of the atom). `orthogonal`/`diagonal` say
    /// which unit vectors the atom has (W, F or both for K, R, B, Q).
    Relative { forward: bool, back: bool, left: bool, right: bool, orthogonal: bool, diagonal: bool },
    /// XBetza `U`: a leap to any cell of the board.
    Anywhere,
}

/// The most legs a multi-leg move may have. The kit unfolds every path into tables whose size
/// grows eightfold with each leg, so a long chain of `a`s would ask for gigabytes; Taishin's
/// area moves, the longest of the bundled variants, have three.
pub const MAX_LEGS: usize = 4;

/// The eight unit directions (file, rank steps), clockwise from straight ahead, so that a turn to
/// the right is +2, to the left +6 and back +4 (mod 8).
pub const UNIT_DIRS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The index of a unit vector in [`UNIT_DIRS`].
pub fn unit_dir(df: i8, dr: i8) -> Option<usize> {
    UNIT_DIRS.iter().position(|&v| v == (df, dr))
}

impl LegDirs {
    /// The directions (a bitmask over [`UNIT_DIRS`]) a relative leg may take after a leg in
    /// direction `prev`. Only for [`LegDirs::Relative`]; other kinds give 0.
    pub fn after(&self, prev: usize) -> u8 {
        let LegDirs::Relative { forward, back, left, right, orthogonal, diagonal } = *self else { return 0 };
        // No letter means any direction of the atom, the way back included.
        let any = !(forward | back | left | right);
        let mut mask = 0;
        for d in 0..8 {
            let turn = (d + 8 - prev) % 8;
            let wanted =
                any || (turn == 0 && forward) || (turn == 4 && back) || (turn == 6 && left) || (turn == 2 && right);
            let in_atom = if d % 2 == 0 { orthogonal } else { diagonal };
            if wanted && in_atom {
                mask |= 1 << d;
            }
        }
        mask
    }
}

/// What a path can do on a cell when nothing is known about the board (for move diagrams).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The move may end here, moving or capturing.
    Ends(Mode),
    /// The move may capture here and go on (a locust capture).
    Captures,
    /// A leap to any cell.
    Anywhere,
}

impl Path {
    /// The cells (mover's frame offsets within `half` of the start) the path may reach on some
    /// board, assuming any cell could be empty or occupied as each leg needs: what a move diagram
    /// shows. A return to the start (pass, igui) is left out.
    pub fn reach(&self, half: i32) -> Vec<((i32, i32), Reach)> {
        let mut out = Vec::new();
        if let Some(Leg { dirs: LegDirs::Anywhere, .. }) = self.legs.first() {
            for x in -half..=half {
                for y in -half..=half {
                    if (x, y) != (0, 0) {
                        out.push(((x, y), Reach::Anywhere));
                    }
                }
            }
            return out;
        }
        self.reach_leg(0, (0, 0), None, half, &mut out);
        out.retain(|&(at, _)| at != (0, 0));
        out.sort_by_key(|&(at, r)| (at, r != Reach::Captures));
        out.dedup();
        out
    }

    fn reach_leg(&self, k: usize, at: (i32, i32), prev: Option<usize>, half: i32, out: &mut Vec<((i32, i32), Reach)>) {
        let leg = &self.legs[k];
        let mask = match (&leg.dirs, prev) {
            (LegDirs::Absolute(v), _) => v.iter().filter_map(|v| unit_dir(v.df, v.dr)).fold(0u8, |m, d| m | 1 << d),
            (dirs, Some(p)) => dirs.after(p),
            _ => 0,
        };
        let last = k + 1 == self.legs.len();
        for (d, &(df, dr)) in UNIT_DIRS.iter().enumerate().filter(|&(d, _)| mask & (1 << d) != 0) {
            let mut n = 0;
            let mut c = at;
            loop {
                c = (c.0 + df as i32, c.1 + dr as i32);
                n += 1;
                if c.0.abs() > half || c.1.abs() > half {
                    break;
                }
                if last {
                    out.push((c, Reach::Ends(Mode { moves: leg.stop.empty, captures: leg.stop.enemy })));
                } else {
                    if leg.stop.enemy {
                        out.push((c, Reach::Captures));
                    }
                    self.reach_leg(k + 1, c, Some(d), half, out);
                }
                if leg.range != 0 && n >= leg.range as i32 {
                    break;
                }
            }
        }
    }
}

/// Where a leg may end. On the last leg `hop` is never set; `empty` and `enemy` are the usual
/// move and capture. On an earlier leg an `enemy` stop captures it (a locust capture) and a `hop`
/// stop passes over whatever stands there, friend or foe, leaving it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stop {
    pub empty: bool,
    pub enemy: bool,
    pub hop: bool,
}

/// The unit vectors a multi-leg atom may use: orthogonal, diagonal.
fn unit_atom(letter: char) -> Option<(bool, bool)> {
    Some(match letter {
        'W' | 'R' => (true, false),
        'F' | 'B' => (false, true),
        'K' | 'Q' => (true, true),
        _ => return None,
    })
}

/// The vectors of one atom letter's `parts` that the direction letters `dirs` select.
#[deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn select(parts: &[(i8, i8)], dirs: &[char]) -> Vec<Vector> {
    let mut out = Vec::new();
    for &(a, b) in parts {
        let shape = if a == 0 {
            Shape::Orthogonal
        } else if a == b {
            Shape::Diagonal
        } else {
            Shape::Oblique
        };
        let tokens = direction_tokens(dirs, shape);
        for v in base_vectors(a, b) {
            if (tokens.is_empty() || tokens.iter().any(|&t| selects(t, v, shape))) && !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// The modifiers of one leg, read from its letters.
#[derive(Default)]
struct LegMods {
    dirs: Vec<char>,
    only_move: bool,
    only_capture: bool,
    hop: bool,
    lame: bool,
    skip: bool,
}

#[deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn read_mods(
    chars: &[char],
    from: usize,
    to: usize,
    err: &dyn Fn(usize, String) -> BetzaError,
) -> Result<LegMods, BetzaError> {
    let mut m = LegMods::default();
    for (k, &c) in chars.get(from..to).unwrap_or_default().iter().enumerate() {
        let at = from.saturating_add(k);
        match c {
            'f' | 'b' | 'l' | 'r' | 's' | 'v' => m.dirs.push(c),
            'm' => m.only_move = true,
            'c' => m.only_capture = true,
            'p' => m.hop = true,
            'n' => m.lame = true,
            'j' => m.skip = true,
            'g' | 'x' | 'y' | 'o' | 'z' | 'q' | 'i' | 'u' | 'e' | 't' | 'h' | 'k' | 'd' => {
                return Err(err(at, format!("modifier '{c}' is not supported by this kit yet")));
            }
            other => return Err(err(at, format!("unknown modifier '{other}'"))),
        }
    }
    Ok(m)
}

/// Parses an (X)Betza string into the mover's-frame atoms and paths.
///
/// Multi-leg moves follow H. G. Muller's XBetza: `a` separates legs of the same atom; the
/// modifiers before the first `a` belong to the first leg; a later leg's `f b l r s v` are
/// relative to the previous leg (none = any direction). An earlier leg stops on an empty cell by
/// default; `c` makes it capture (locust), `p` hop over an occupied cell, `mp` either. A
/// single-leg `p` is a cannon-style hop (`cpR`). `U` leaps to any cell.
#[deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub fn parse(text: &str) -> Result<Moves, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let err = |at: usize, message: String| BetzaError { text: text.to_string(), at: at.saturating_add(1), message };
    let mut moves = Moves::default();
    let mut i = 0;
    if chars.is_empty() {
        return Err(err(0, "empty move".into()));
    }
    while i < chars.len() {
        let group_start = i;
        while chars.get(i).is_some_and(char::is_ascii_lowercase) {
            i = i.saturating_add(1);
        }
        let Some(&letter) = chars.get(i) else {
            return Err(err(i.saturating_sub(1), "modifiers without an atom letter".into()));
        };
        // Leg boundaries: the modifier letters split at each `a`.
        let mut bounds = vec![group_start];
        for (k, &c) in chars.iter().enumerate().take(i).skip(group_start) {
            if c == 'a' {
                bounds.push(k.saturating_add(1));
            }
        }
        let leg_mods: Vec<LegMods> = bounds
            .iter()
            .enumerate()
            .map(|(n, &from)| {
                let to = bounds.get(n.saturating_add(1)).map_or(i, |&next| next.saturating_sub(1));
                read_mods(&chars, from, to, &err)
            })
            .collect::<Result<_, _>>()?;
        let (parts, mut range): (Vec<(i8, i8)>, u8) = match letter {
            'K' => (vec![(0, 1), (1, 1)], 1),
            'Q' => (vec![(0, 1), (1, 1)], 0),
            'R' => (vec![(0, 1)], 0),
            'B' => (vec![(1, 1)], 0),
            'U' => (vec![], 1),
            l => match leg(l) {
                Some(p) => (vec![p], 1),
                None => return Err(err(i, format!("unknown atom '{l}'"))),
            },
        };
        let atom_at = i;
        i = i.saturating_add(1);
        if range == 1 && chars.get(i) == Some(&letter) && !matches!(letter, 'K' | 'U') {
            range = 0;
            i = i.saturating_add(1);
        }
        let digits: String = chars.get(i..).unwrap_or_default().iter().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() {
            range = digits.parse().map_err(|_| err(i, "range too large".into()))?;
            if range == 0 {
                return Err(err(i, "a range of 0 means no move".into()));
            }
            i = i.saturating_add(digits.len());
        }
        // One set of modifiers per leg, and always a first (the letters before the first `a`).
        let [first, later @ ..] = leg_mods.as_slice() else {
            return Err(err(group_start, "modifiers without a leg".into()));
        };
        if letter == 'U' {
            if !later.is_empty() || !first.dirs.is_empty() || first.hop {
                return Err(err(group_start, "'U' takes no direction, leg or hop modifiers".into()));
            }
            let stop = final_stop(first);
            moves.paths.push(Path { legs: vec![Leg { dirs: LegDirs::Anywhere, range: 1, stop }] });
            continue;
        }
        if later.is_empty() && !first.hop {
            single_leg(&mut moves.atoms, &parts, range, first).map_err(|m| err(group_start, m))?;
            continue;
        }
        let Some((orthogonal, diagonal)) = unit_atom(letter) else {
            return Err(err(atom_at, "multi-leg and hopping moves need a W, F, K, R, B or Q atom".into()));
        };
        let path = multi_leg(&parts, range, &leg_mods, orthogonal, diagonal).map_err(|m| err(group_start, m))?;
        if !moves.paths.contains(&path) {
            moves.paths.push(path);
        }
    }
    Ok(moves)
}

/// What the last leg may do: move (`m`), capture (`c`) or, by default, either.
fn final_stop(m: &LegMods) -> Stop {
    match (m.only_move, m.only_capture) {
        (true, false) => Stop { empty: true, enemy: false, hop: false },
        (false, true) => Stop { empty: false, enemy: true, hop: false },
        _ => Stop { empty: true, enemy: true, hop: false },
    }
}

#[deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn single_leg(atoms: &mut Vec<Atom>, parts: &[(i8, i8)], range: u8, m: &LegMods) -> Result<(), String> {
    let stop = final_stop(m);
    let mode = Mode { moves: stop.empty, captures: stop.enemy };
    if m.skip && range == 1 {
        return Err("'j' applies to sliders, not to single leaps".into());
    }
    let vectors = select(parts, &m.dirs);
    if vectors.is_empty() {
        return Err("these direction modifiers select no move".into());
    }
    for v in vectors {
        let atom = Atom { vector: v, range, mode, lame: m.lame, skip_first: m.skip };
        if !atoms.contains(&atom) {
            atoms.push(atom);
        }
    }
    Ok(())
}

#[deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn multi_leg(
    parts: &[(i8, i8)],
    range: u8,
    mods: &[LegMods],
    orthogonal: bool,
    diagonal: bool,
) -> Result<Path, String> {
    if mods.iter().any(|m| m.lame || m.skip) {
        return Err("'n' and 'j' are not supported in multi-leg moves".into());
    }
    let Some(first_mods) = mods.first() else { return Err("a move needs at least one leg".into()) };
    let first = select(parts, &first_mods.dirs);
    if first.is_empty() {
        return Err("these direction modifiers select no move".into());
    }
    if mods.len() > MAX_LEGS {
        return Err(format!("a move has at most {MAX_LEGS} legs ('a' joins legs), this one {}", mods.len()));
    }
    let mut legs = Vec::new();
    // A single-leg hop (`cpR`) is a hop leg followed by a straight-on leg that does the rest.
    let hop_then_on = mods.len() == 1;
    let leg_count = if hop_then_on { 2 } else { mods.len() };
    for n in 0..leg_count {
        let m = if hop_then_on { first_mods } else { mods.get(n).unwrap_or(first_mods) };
        let last = n.saturating_add(1) == leg_count;
        let stop = if hop_then_on && n == 0 {
            Stop { empty: false, enemy: false, hop: true }
        } else if last {
            if m.hop && !hop_then_on {
                return Err("a hop ('p') on the last leg is not supported; hop on an earlier leg".into());
            }
            final_stop(m)
        } else {
            match (m.only_move, m.only_capture, m.hop) {
                (false, false, false) => Stop { empty: true, enemy: false, hop: false },
                (mv, c, p) => Stop { empty: mv, enemy: c, hop: p },
            }
        };
        let dirs = if n == 0 {
            LegDirs::Absolute(first.clone())
        } else if hop_then_on {
            LegDirs::Relative { forward: true, back: false, left: false, right: false, orthogonal, diagonal }
        } else {
            let has = |c: char| m.dirs.contains(&c);
            LegDirs::Relative {
                forward: has('f') || has('v'),
                back: has('b') || has('v'),
                left: has('l') || has('s'),
                right: has('r') || has('s'),
                orthogonal,
                diagonal,
            }
        };
        legs.push(Leg { dirs, range, stop });
    }
    let earlier = legs.split_last().map_or(&[][..], |(_, earlier)| earlier);
    let locusts = earlier.iter().filter(|l| l.stop.enemy).count();
    if locusts > 1 {
        return Err("at most one locust capture ('c' on an earlier leg) per move".into());
    }
    Ok(Path { legs })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(s: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse(s).unwrap().atoms.iter().map(|a| (a.vector.df, a.vector.dr)).collect();
        v.sort();
        v
    }

    #[test]
    fn shogi_pieces() {
        assert_eq!(vectors("fW"), vec![(0, 1)]);
        assert_eq!(vectors("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(vectors("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(vectors("fN").len(), 4);
        assert_eq!(vectors("WfF"), vec![(-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1)]);
        assert_eq!(vectors("FfW"), vec![(-1, -1), (-1, 1), (0, 1), (1, -1), (1, 1)]);
        assert_eq!(vectors("K").len(), 8);
        assert_eq!(vectors("vR"), vec![(0, -1), (0, 1)]);
        assert_eq!(parse("fR").unwrap().atoms[0].range, 0);
        assert_eq!(vectors("BN").len(), 12);
    }

    #[test]
    fn two_letters_pick_single_diagonals() {
        assert_eq!(vectors("flF"), vec![(-1, 1)]);
        assert_eq!(vectors("rvB"), vec![(1, -1), (1, 1)]);
        assert_eq!(vectors("lbfB"), vec![(-1, -1), (-1, 1), (1, 1)]);
        assert_eq!(vectors("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
    }

    #[test]
    fn ranges_riders_and_modes() {
        let a = parse("R3").unwrap().atoms;
        assert!(a.iter().all(|a| a.range == 3 && a.vector.df.abs() + a.vector.dr.abs() == 1));
        assert!(parse("NN").unwrap().atoms.iter().all(|a| a.range == 0));
        assert!(parse("K2").unwrap().atoms.iter().all(|a| a.range == 2));
        assert!(
            parse("mWcF")
                .unwrap()
                .atoms
                .iter()
                .all(|a| a.mode
                    == if a.vector.df == 0 || a.vector.dr == 0 { Mode::MOVE_ONLY } else { Mode::CAPTURE_ONLY })
        );
        assert!(parse("jR").unwrap().atoms.iter().all(|a| a.skip_first));
    }

    #[test]
    fn overlapping_atoms() {
        let first = |s: &str| parse(s).unwrap().atoms[0];
        assert!(atoms_overlap(&first("fW"), &first("fR")));
        assert!(atoms_overlap(&first("fD"), &first("fR")));
        assert!(!atoms_overlap(&first("fD"), &first("fW")));
        assert!(!atoms_overlap(&first("fW"), &first("bR")));
        assert!(atoms_overlap(&first("fA"), &first("frB4")) || atoms_overlap(&first("fA"), &first("flB4")));
        assert!(!atoms_overlap(&first("fH"), &first("fR2")));
    }

    #[test]
    fn lame_paths() {
        let n = parse("nN").unwrap().atoms;
        let a = n.iter().find(|a| a.vector == Vector::flat(1, 2)).unwrap();
        assert_eq!(a.lame_path(), vec![Vector::flat(0, 1)]);
        let d = parse("nD").unwrap().atoms;
        assert_eq!(d[0].lame_path().len(), 1);
        let z = parse("nZ").unwrap().atoms;
        let a = z.iter().find(|a| a.vector == Vector::flat(2, 3)).unwrap();
        assert_eq!(a.lame_path(), vec![Vector::flat(0, 1), Vector::flat(1, 2)]);
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = parse("fX").unwrap_err();
        assert_eq!(e.at, 2);
        assert!(parse("gQ").unwrap_err().message.contains("not supported"));
        assert!(parse("aN").unwrap_err().message.contains("W, F, K, R, B or Q"));
        assert!(parse("caKcaK").is_ok());
        assert!(parse("cacaK").unwrap_err().message.contains("one locust"));
        assert!(parse("apK").unwrap_err().message.contains("last leg"));
        assert!(parse("").is_err());
        assert!(parse("f").is_err());
    }

    fn relative(forward: bool, back: bool, left: bool, right: bool, o: bool, d: bool) -> LegDirs {
        LegDirs::Relative { forward, back, left, right, orthogonal: o, diagonal: d }
    }
    const MOVE: Stop = Stop { empty: true, enemy: false, hop: false };
    const BOTH: Stop = Stop { empty: true, enemy: true, hop: false };
    const CAPTURE: Stop = Stop { empty: false, enemy: true, hop: false };
    const HOP: Stop = Stop { empty: false, enemy: false, hop: true };

    #[test]
    fn lion_power_reads_as_leaps_and_two_paths() {
        let m = parse("KNADcaKmcabK").unwrap();
        assert_eq!(m.atoms.len(), 24, "the 5×5 leaps");
        assert_eq!(m.paths.len(), 2);
        let locust = &m.paths[0].legs;
        assert_eq!(locust[0].stop, CAPTURE);
        assert!(matches!(&locust[0].dirs, LegDirs::Absolute(v) if v.len() == 8));
        assert_eq!(locust[1], Leg { dirs: relative(false, false, false, false, true, true), range: 1, stop: BOTH });
        let igui = &m.paths[1].legs;
        assert_eq!(igui[0].stop, Stop { empty: true, enemy: true, hop: false });
        assert_eq!(igui[1].dirs, relative(false, true, false, false, true, true));
    }

    #[test]
    fn hops_hooks_and_area_moves() {
        // The range-jumping general: over one or two pieces, plus the plain slide and the cannon.
        let m = parse("pafpafcBmcBcpB").unwrap();
        assert_eq!(m.atoms.len(), 4);
        assert_eq!(m.paths.len(), 2);
        let stops: Vec<Stop> = m.paths[0].legs.iter().map(|l| l.stop).collect();
        assert_eq!(stops, vec![HOP, HOP, CAPTURE]);
        let cannon: Vec<Stop> = m.paths[1].legs.iter().map(|l| l.stop).collect();
        assert_eq!(cannon, vec![HOP, CAPTURE]);
        assert!(m.paths[0].legs.iter().all(|l| l.range == 0));
        // The hook mover turns 90° after an empty stop.
        let hook = parse("RmasR").unwrap();
        assert_eq!(hook.paths[0].legs[0].stop, MOVE);
        assert_eq!(hook.paths[0].legs[1].dirs, relative(false, false, true, true, true, false));
        // Three king steps, every stop before the last empty.
        let area = parse("KaKaaKmabK").unwrap();
        assert_eq!(area.paths.iter().map(|p| p.legs.len()).collect::<Vec<_>>(), vec![2, 3, 2]);
        assert_eq!(area.paths[1].legs[1].stop, MOVE);
        // The lion dog's "pass over S1, capture S2, go on or come back".
        let dog = parse("mpafcavK").unwrap();
        let legs = &dog.paths[0].legs;
        assert_eq!(legs[0].stop, Stop { empty: true, enemy: false, hop: true });
        assert_eq!(legs[1].stop, CAPTURE);
        assert_eq!(legs[2].dirs, relative(true, true, false, false, true, true));
        // Direction letters of the first leg are absolute: forward diagonals only.
        let eagle = parse("fcavF").unwrap();
        assert!(
            matches!(&eagle.paths[0].legs[0].dirs, LegDirs::Absolute(v) if v.len() == 2 && v.iter().all(|v| v.dr > 0))
        );
        assert!(matches!(parse("U").unwrap().paths[0].legs[0].dirs, LegDirs::Anywhere));
    }
}
