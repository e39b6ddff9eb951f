//! Plain-language descriptions of piece moves ("slides any distance orthogonally; steps one
//! square diagonally forward"), from the same definition the rules are compiled from: a Betza
//! string, or a script's direction moves (`slide orthogonal, triagonal` for 3D pieces). A
//! designer reading an unfamiliar variant should not need to know Betza.

use std::collections::BTreeMap;

use henka_api::rules::betza::{self, Atom, LegDirs, Mode, Moves, Path};

/// Describes a piece's moves as the variant states them (`PieceInfo::betza`).
pub fn describe(moves: &str) -> String {
    let parts: Vec<String> = moves
        .split(" + ")
        .filter(|part| !part.trim().is_empty())
        .map(|part| match betza::parse(part) {
            Ok(m) => describe_moves(&m),
            Err(_) => describe_directions(part).unwrap_or_else(|| format!("moves as `{part}`")),
        })
        .filter(|s| !s.is_empty())
        .collect();
    if parts.is_empty() { "has no moves".to_string() } else { parts.join("; ") }
}

/// Atoms that differ only in direction, described together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Kind {
    /// The leap's shape: the larger and the smaller coordinate, and the level step.
    long: i8,
    short: i8,
    level: i8,
    range: u8,
    moves: bool,
    captures: bool,
    lame: bool,
    skip_first: bool,
}

fn kind(a: &Atom) -> Kind {
    let (x, y) = (a.vector.df.abs(), a.vector.dr.abs());
    Kind {
        long: x.max(y),
        short: x.min(y),
        level: a.vector.dl.abs(),
        range: a.range,
        moves: a.mode.moves,
        captures: a.mode.captures,
        lame: a.lame,
        skip_first: a.skip_first,
    }
}

/// Describes parsed Betza moves: atoms grouped by shape, then multi-leg paths.
pub fn describe_moves(m: &Moves) -> String {
    let mut groups: BTreeMap<Kind, Vec<(i8, i8)>> = BTreeMap::new();
    for a in &m.atoms {
        groups.entry(kind(a)).or_default().push((a.vector.df, a.vector.dr));
    }
    // Slides first, then steps and leaps, the way a player reads a piece.
    let mut parts: Vec<(bool, String)> =
        groups.iter().map(|(k, dirs)| (k.range != 0, describe_group(k, dirs))).collect();
    parts.sort_by_key(|(stepper, _)| *stepper);
    let mut out: Vec<String> = parts.into_iter().map(|(_, s)| s).collect();
    out.extend(describe_paths(&m.paths));
    out.join("; ")
}

fn describe_group(k: &Kind, dirs: &[(i8, i8)]) -> String {
    let how = match (k.long, k.short) {
        (1, 0) | (1, 1) => direction_words(k, dirs),
        (2, 1) => knight_words(dirs),
        _ => format!("{} {}", leap_name(k.long, k.short), direction_words(k, dirs)),
    };
    let unit = k.long == 1;
    let verb = match (k.range, unit) {
        (0, _) => format!("slides any distance {how}"),
        (1, true) => format!("steps one square {how}"),
        (1, false) => format!("leaps {how}"),
        (n, true) => format!("slides up to {n} squares {how}"),
        (n, false) => format!("rides up to {n} leaps {how}"),
    };
    let mut extras = Vec::new();
    if k.lame {
        extras.push("blocked by a piece on the way");
    } else if k.long > 1 && k.range == 1 && (k.long, k.short) != (2, 1) {
        // (A knight's leap is known to jump.)
        extras.push("jumping over anything between");
    }
    if k.skip_first {
        extras.push("jumping over the first square");
    }
    match (k.moves, k.captures) {
        (true, false) => extras.push("only to an empty square"),
        (false, true) => extras.push("only to capture"),
        _ => {}
    }
    if extras.is_empty() { verb } else { format!("{verb} ({})", extras.join(", ")) }
}

/// A leap's name by its shape (larger and smaller coordinate).
fn leap_name(long: i8, short: i8) -> String {
    match (long, short) {
        (2, 0) => "two squares".into(),
        (2, 2) => "two squares diagonally,".into(),
        (3, 0) => "three squares".into(),
        (3, 1) => "as a camel (3, 1),".into(),
        (3, 2) => "as a zebra (3, 2),".into(),
        (3, 3) => "three squares diagonally,".into(),
        (l, s) => format!("by ({l}, {s}),"),
    }
}

/// Orthogonal and diagonal directions in words, relative to the owner's forward.
fn direction_words(k: &Kind, dirs: &[(i8, i8)]) -> String {
    let orthogonal = k.short == 0;
    let has = |df: i8, dr: i8| dirs.iter().any(|&(x, y)| x.signum() == df && y.signum() == dr);
    if orthogonal {
        let (f, b, l, r) = (has(0, 1), has(0, -1), has(-1, 0), has(1, 0));
        match (f, b, l && r, l || r) {
            (true, true, true, _) => "orthogonally".into(),
            (true, true, false, false) => "forward or backward".into(),
            (false, false, true, _) => "sideways".into(),
            _ => {
                let mut w = Vec::new();
                if f {
                    w.push("forward");
                }
                if b {
                    w.push("backward");
                }
                if l && r {
                    w.push("sideways");
                } else if l {
                    w.push("to the left");
                } else if r {
                    w.push("to the right");
                }
                w.join(" or ")
            }
        }
    } else {
        let (fl, fr, bl, br) = (has(-1, 1), has(1, 1), has(-1, -1), has(1, -1));
        match (fl && fr, bl && br) {
            (true, true) => "diagonally".into(),
            (true, false) if !bl && !br => "diagonally forward".into(),
            (false, true) if !fl && !fr => "diagonally backward".into(),
            _ => {
                let names =
                    [(fl, "forward-left"), (fr, "forward-right"), (bl, "backward-left"), (br, "backward-right")];
                let w: Vec<&str> = names.iter().filter(|(on, _)| *on).map(|(_, n)| *n).collect();
                format!("diagonally {}", w.join(" or "))
            }
        }
    }
}

fn knight_words(dirs: &[(i8, i8)]) -> String {
    let forward_narrow = dirs.iter().filter(|&&(x, y)| y == 2 && x.abs() == 1).count();
    match (dirs.len(), forward_narrow) {
        (8, _) => "like a chess knight".into(),
        (2, 2) => "like a shogi knight (two forward and one sideways)".into(),
        (n, _) => format!("like a knight in {n} of its 8 directions"),
    }
}

/// Multi-leg moves, in words: hoppers, lion-style double moves, hooks, locust captures.
fn describe_paths(paths: &[Path]) -> Vec<String> {
    if paths.is_empty() {
        return Vec::new();
    }
    if paths.iter().any(|p| matches!(p.legs.first().map(|l| &l.dirs), Some(LegDirs::Anywhere))) {
        return vec!["may leap to any square of the board".into()];
    }
    let hops = paths.iter().any(|p| p.legs.iter().any(|l| l.stop.hop));
    let locust = paths.iter().any(|p| p.legs.iter().rev().skip(1).any(|l| l.stop.enemy));
    let legs = paths.iter().map(|p| p.legs.len()).max().unwrap_or(0);
    let turns = paths.iter().any(|p| {
        p.legs
            .iter()
            .skip(1)
            .any(|l| matches!(l.dirs, LegDirs::Relative { left: true, .. } | LegDirs::Relative { right: true, .. }))
    });
    let slides = paths.iter().any(|p| p.legs.iter().any(|l| l.range != 1));
    let mut out = Vec::new();
    if hops {
        out.push("jumps over a piece on its line (a hopper), landing beyond it".to_string());
    }
    if locust {
        out.push(format!("may capture on the way and go on, up to {legs} moves in one turn (lion-style)"));
    } else if turns && slides {
        out.push("may turn a corner once in the middle of a slide (a hook move)".to_string());
    } else if !hops {
        out.push(format!("moves in up to {legs} steps in one turn, each from where the last ended"));
    }
    out
}

/// A script's direction moves: `slide orthogonal, triagonal`, `step radial`, `slide up to 2 …`.
fn describe_directions(text: &str) -> Option<String> {
    let (verb, rest) = text.split_once(' ')?;
    let (range, sets) = match rest.strip_prefix("up to ") {
        Some(r) => {
            let (n, sets) = r.split_once(' ')?;
            (Some(n.parse::<u32>().ok()?), sets)
        }
        None => (None, rest),
    };
    let sets: Vec<String> = sets.split(", ").map(|s| s.replace('_', " ")).collect();
    let along = format!("along the {} directions", sets.join(" and "));
    Some(match (verb, range) {
        ("slide", None) => format!("slides any distance {along}"),
        ("slide", Some(n)) => format!("slides up to {n} cells {along}"),
        ("step", _) => format!("steps one cell {along}"),
        _ => return None,
    })
}

/// Whether moves end only on empty cells, only on captures, or both: for legends.
pub fn mode_words(mode: Mode) -> &'static str {
    match (mode.moves, mode.captures) {
        (true, true) => "moves or captures",
        (true, false) => "moves only",
        _ => "captures only",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shogi_pieces_read_as_a_player_would_say_them() {
        assert_eq!(describe("K"), "steps one square orthogonally; steps one square diagonally");
        assert_eq!(describe("R"), "slides any distance orthogonally");
        assert_eq!(describe("FfW"), "steps one square forward; steps one square diagonally");
        assert_eq!(describe("WfF"), "steps one square orthogonally; steps one square diagonally forward");
        assert_eq!(describe("fR"), "slides any distance forward");
        assert_eq!(describe("ffN"), "leaps like a shogi knight (two forward and one sideways)");
        assert_eq!(describe("RF"), "slides any distance orthogonally; steps one square diagonally");
        assert_eq!(describe("N"), "leaps like a chess knight");
        assert_eq!(describe("fW"), "steps one square forward");
    }

    #[test]
    fn modes_leaps_and_multi_leg_moves_are_named() {
        assert_eq!(
            describe("mfWcfF"),
            "steps one square forward (only to an empty square); steps one square diagonally forward (only to capture)"
        );
        assert_eq!(describe("D"), "leaps two squares orthogonally (jumping over anything between)");
        assert_eq!(describe("nN"), "leaps like a chess knight (blocked by a piece on the way)");
        assert_eq!(describe("R2"), "slides up to 2 squares orthogonally");
        assert!(describe("pR").contains("hopper"), "{}", describe("pR"));
        assert!(describe("KNADcaKmcabK").contains("lion-style"), "{}", describe("KNADcaKmcabK"));
        assert_eq!(describe("U"), "may leap to any square of the board");
    }

    #[test]
    fn direction_moves_of_3d_pieces() {
        assert_eq!(describe("step radial"), "steps one cell along the radial directions");
        assert_eq!(
            describe("slide orthogonal, triagonal + step diagonal"),
            "slides any distance along the orthogonal and triagonal directions; steps one cell along the diagonal directions"
        );
        assert_eq!(
            describe("slide up to 2 forward_orthogonal"),
            "slides up to 2 cells along the forward orthogonal directions"
        );
    }
}
