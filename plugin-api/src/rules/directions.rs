//! Named sets of the 26 radial directions of a 3D board, for writing 3D moves readably.
//!
//! A radial is a unit step that changes each coordinate by -1, 0 or +1 (not all 0). Radials fall
//! into three classes by how many coordinates change: **orthogonal** (one: 6 directions),
//! **diagonal** (two: the 12 standard diagonals) and **triagonal** (three: 8). Each class splits
//! by its rank step, seen from the mover (forward = +rank): **forward**, **backward** and
//! **sideways** (rank unchanged). A set is named `class` or `part_class`, e.g. `forward_diagonal`;
//! `forward`, `backward`, `sideways` and `radial` take every class. On a flat board the level
//! step is always 0, so only the vectors with `dl = 0` matter there.
//!
//! | name | vectors |
//! |---|---|
//! | `orthogonal` | 6: `[0,±1,0]`, `[±1,0,0]`, `[0,0,±1]` |
//! | `diagonal` | 12: two of the three coordinates change |
//! | `triagonal` | 8: `[±1,±1,±1]` |
//! | `radial` | all 26 |
//! | `forward_X`, `backward_X`, `sideways_X` | the part of class X with `dr` = +1, −1, 0 |
//! | `forward`, `backward`, `sideways` | 9, 9 and 8 vectors of every class |

use crate::model::geometry::Vector;

/// The class names, by how many coordinates a radial changes (1, 2, 3).
const CLASSES: [&str; 3] = ["orthogonal", "diagonal", "triagonal"];

/// The rank-step parts and the `dr` each selects.
const PARTS: [(&str, i8); 3] = [("forward", 1), ("backward", -1), ("sideways", 0)];

/// All 26 radials, in a fixed order (by `dr`, then `df`, then `dl`).
pub fn radials() -> Vec<Vector> {
    let mut out = Vec::with_capacity(26);
    for dr in [1, 0, -1] {
        for df in [-1, 0, 1] {
            for dl in [-1, 0, 1] {
                if (df, dr, dl) != (0, 0, 0) {
                    out.push(Vector::new(df, dr, dl));
                }
            }
        }
    }
    out
}

/// How many of a vector's coordinates change.
fn changed(v: Vector) -> usize {
    [v.df, v.dr, v.dl].iter().filter(|&&d| d != 0).count()
}

/// The radials a set name stands for, or `None` for an unknown name.
pub fn named(name: &str) -> Option<Vec<Vector>> {
    let (part, class) = match name.split_once('_') {
        Some((p, c)) => (Some(p), Some(c)),
        None if name == "radial" => (None, None),
        None if CLASSES.contains(&name) => (None, Some(name)),
        None => (Some(name), None),
    };
    let dr = match part {
        None => None,
        Some(p) => Some(PARTS.iter().find(|(n, _)| *n == p)?.1),
    };
    let order = match class {
        None => None,
        Some(c) => Some(CLASSES.iter().position(|n| *n == c)? + 1),
    };
    Some(
        radials()
            .into_iter()
            .filter(|&v| dr.is_none_or(|d| v.dr == d) && order.is_none_or(|k| changed(v) == k))
            .collect(),
    )
}

/// Every name [`named`] knows, for error messages and documentation.
pub fn names() -> Vec<String> {
    let mut out: Vec<String> = CLASSES.iter().map(|c| c.to_string()).collect();
    out.push("radial".into());
    for (p, _) in PARTS {
        out.push(p.to_string());
        out.extend(CLASSES.iter().map(|c| format!("{p}_{c}")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(name: &str) -> usize {
        named(name).unwrap_or_else(|| panic!("{name} is a set")).len()
    }

    #[test]
    fn the_classes_partition_the_26_radials() {
        assert_eq!(count("radial"), 26);
        assert_eq!((count("orthogonal"), count("diagonal"), count("triagonal")), (6, 12, 8));
        assert_eq!((count("forward"), count("backward"), count("sideways")), (9, 9, 8));
    }

    #[test]
    fn parts_of_each_class_match_the_ladies_and_generals_table() {
        // docs/rules/ladies-and-generals.md §3: forward O 1, forward SD 4, forward ND 4; same-rank
        // SD 4; lateral O 4.
        assert_eq!(count("forward_orthogonal"), 1);
        assert_eq!(count("backward_orthogonal"), 1);
        assert_eq!(count("sideways_orthogonal"), 4);
        assert_eq!(count("forward_diagonal"), 4);
        assert_eq!(count("sideways_diagonal"), 4);
        assert_eq!(count("forward_triagonal"), 4);
        assert_eq!(count("sideways_triagonal"), 0);
        assert_eq!(named("forward_orthogonal"), Some(vec![Vector::new(0, 1, 0)]));
    }

    #[test]
    fn every_listed_name_is_known_and_others_are_not() {
        for n in names() {
            assert!(named(&n).is_some(), "{n}");
        }
        for bad in ["diagonals", "forward_", "up_orthogonal", "", "forward_radial_x"] {
            assert_eq!(named(bad), None, "{bad}");
        }
    }
}
