//! (X)Betza move notation → the kit's move atoms.
//!
//! Supported now: the atoms `W F D N A H C Z G`, the compounds `K Q R B`, riders by doubling
//! (`NN`) or a range digit (`R4`, `W2`, `K2`), direction modifiers `f b l r s v` (one letter picks a
//! pair of moves on diagonal and oblique atoms, two letters a single one: `fl`, `ff` = the narrow
//! forward knight moves, `fs` = the wide ones), modes `m` (move only) and `c` (capture only), `n`
//! (lame: the path must be empty) and `j` (a slider skips its first square). Multi-leg moves (`a`,
//! `p`, …) are reported as not supported yet.

use serde::{Deserialize, Serialize};

use crate::geometry::Vector;

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
fn direction_tokens(dirs: &[char], shape: Shape) -> Vec<(char, Option<char>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let c = dirs[i];
        if shape != Shape::Orthogonal
            && let Some(&d) = dirs.get(i + 1)
            && (vertical(c) != vertical(d) || (shape == Shape::Oblique && c == d))
        {
            out.push((c, Some(d)));
            i += 2;
            continue;
        }
        out.push((c, None));
        i += 1;
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

/// Parses a Betza string into atoms in the mover's frame.
pub fn parse(text: &str) -> Result<Vec<Atom>, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let err = |at: usize, message: String| BetzaError { text: text.to_string(), at: at + 1, message };
    let mut atoms = Vec::new();
    let mut i = 0;
    if chars.is_empty() {
        return Err(err(0, "empty move".into()));
    }
    while i < chars.len() {
        let group_start = i;
        let mut dirs = Vec::new();
        let (mut only_move, mut only_capture, mut lame, mut skip) = (false, false, false, false);
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'f' | 'b' | 'l' | 'r' | 's' | 'v' => dirs.push(chars[i]),
                'm' => only_move = true,
                'c' => only_capture = true,
                'n' => lame = true,
                'j' => skip = true,
                'a' | 'p' | 'g' | 'x' | 'y' | 'o' | 'z' | 'q' | 'i' | 'u' | 'e' | 't' | 'h' | 'k' | 'd' => {
                    return Err(err(i, format!("modifier '{}' is not supported by this kit yet", chars[i])));
                }
                other => return Err(err(i, format!("unknown modifier '{other}'"))),
            }
            i += 1;
        }
        let Some(&letter) = chars.get(i) else {
            return Err(err(i.saturating_sub(1), "modifiers without an atom letter".into()));
        };
        let (parts, mut range): (Vec<(i8, i8)>, u8) = match letter {
            'K' => (vec![(0, 1), (1, 1)], 1),
            'Q' => (vec![(0, 1), (1, 1)], 0),
            'R' => (vec![(0, 1)], 0),
            'B' => (vec![(1, 1)], 0),
            l => match leg(l) {
                Some(p) => (vec![p], 1),
                None => return Err(err(i, format!("unknown atom '{l}'"))),
            },
        };
        i += 1;
        if range == 1 && chars.get(i) == Some(&letter) && !matches!(letter, 'K') {
            range = 0;
            i += 1;
        }
        let digits: String = chars[i..].iter().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() {
            range = digits.parse().map_err(|_| err(i, "range too large".into()))?;
            if range == 0 {
                return Err(err(i, "a range of 0 means no move".into()));
            }
            i += digits.len();
        }
        if only_move && only_capture {
            // "mc" is the default: either.
            only_move = false;
            only_capture = false;
        }
        let mode = match (only_move, only_capture) {
            (true, _) => Mode::MOVE_ONLY,
            (_, true) => Mode::CAPTURE_ONLY,
            _ => Mode::BOTH,
        };
        if skip && range == 1 {
            return Err(err(group_start, "'j' applies to sliders, not to single leaps".into()));
        }
        let before = atoms.len();
        for (a, b) in parts {
            let shape = if a == 0 {
                Shape::Orthogonal
            } else if a == b {
                Shape::Diagonal
            } else {
                Shape::Oblique
            };
            let tokens = direction_tokens(&dirs, shape);
            for v in base_vectors(a, b) {
                if tokens.is_empty() || tokens.iter().any(|&t| selects(t, v, shape)) {
                    let atom = Atom { vector: v, range, mode, lame, skip_first: skip };
                    if !atoms.contains(&atom) {
                        atoms.push(atom);
                    }
                }
            }
        }
        if atoms.len() == before {
            return Err(err(group_start, "these direction modifiers select no move".into()));
        }
    }
    Ok(atoms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(s: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse(s).unwrap().iter().map(|a| (a.vector.df, a.vector.dr)).collect();
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
        assert_eq!(parse("fR").unwrap()[0].range, 0);
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
        let a = parse("R3").unwrap();
        assert!(a.iter().all(|a| a.range == 3 && a.vector.df.abs() + a.vector.dr.abs() == 1));
        assert!(parse("NN").unwrap().iter().all(|a| a.range == 0));
        assert!(parse("K2").unwrap().iter().all(|a| a.range == 2));
        assert!(
            parse("mWcF")
                .unwrap()
                .iter()
                .all(|a| a.mode
                    == if a.vector.df == 0 || a.vector.dr == 0 { Mode::MOVE_ONLY } else { Mode::CAPTURE_ONLY })
        );
        assert!(parse("jR").unwrap().iter().all(|a| a.skip_first));
    }

    #[test]
    fn lame_paths() {
        let n = parse("nN").unwrap();
        let a = n.iter().find(|a| a.vector == Vector::flat(1, 2)).unwrap();
        assert_eq!(a.lame_path(), vec![Vector::flat(0, 1)]);
        let d = parse("nD").unwrap();
        assert_eq!(d[0].lame_path().len(), 1);
        let z = parse("nZ").unwrap();
        let a = z.iter().find(|a| a.vector == Vector::flat(2, 3)).unwrap();
        assert_eq!(a.lame_path(), vec![Vector::flat(0, 1), Vector::flat(1, 2)]);
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = parse("fX").unwrap_err();
        assert_eq!(e.at, 2);
        assert!(parse("aK").unwrap_err().message.contains("not supported"));
        assert!(parse("").is_err());
        assert!(parse("f").is_err());
    }
}
