//! Move diagrams: the cells a piece type reaches on an empty board from its centre, told apart
//! as moves-or-captures, move-only, capture-only and jumps. Computed from the piece's move
//! definition, not from a position, so the editor's inspector and hover cards and the rules
//! sheet (`henka sheet`) draw the same diagram.

use henka_api::Vector;
use henka_api::rules::betza::{self, Atom, Mode, Reach};
use henka_api::rules::directions;

/// A diagram is this many cells a side (the piece stands in the middle).
pub const SIZE: i32 = 11;

/// A flat diagram: (df, dr) offsets with what a move does there.
pub type Cells = Vec<((i32, i32), Target)>;
/// A 3D diagram: (df, dr, dl) offsets.
pub type Cells3d = Vec<((i32, i32, i32), Target)>;

/// What a move does on a cell of the diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    MovesOrCaptures,
    MovesOnly,
    CapturesOnly,
    /// A leap over whatever stands between.
    Jump,
}

/// The cells (df, dr with forward = up) a piece reaches on an empty `SIZE`-square board from its
/// centre; for multi-leg moves (lions, hoppers, hooks), every cell some arrangement of pieces lets
/// it reach.
pub fn diagram(betza_text: &str) -> Result<Cells, betza::BetzaError> {
    let moves = betza::parse(betza_text)?;
    let mut cells: Cells = Vec::new();
    let half = SIZE / 2;
    for path in &moves.paths {
        for (at, reach) in path.reach(half) {
            let target = match reach {
                Reach::Anywhere => Target::Jump,
                Reach::Captures => Target::CapturesOnly,
                Reach::Ends(mode) => mode_target(mode),
            };
            merge(&mut cells, at, target);
        }
    }
    for atom in &moves.atoms {
        for (k, at) in reach(atom, half) {
            let target = if atom.skip_first && k == 1 {
                continue;
            } else if is_jump(atom, k) {
                Target::Jump
            } else {
                mode_target(atom.mode)
            };
            merge(&mut cells, at, target);
        }
    }
    Ok(cells)
}

/// Half the side of a 3D diagram: slices of 5 × 5 cells, levels −2 to +2.
pub const HALF_3D: i32 = 2;

/// The cells (df, dr, dl) a piece defined by a script's direction moves (`slide orthogonal,
/// triagonal + step diagonal`, vectors as `[1, 0, 1]`) reaches within [`HALF_3D`] cells of its
/// own, on an empty board; `None` for another kind of definition.
pub fn diagram_3d(text: &str) -> Option<Cells3d> {
    let mut cells = Vec::new();
    for part in text.split(" + ") {
        let (slide, rest) = match part.split_once(' ') {
            Some(("slide", rest)) => (true, rest),
            Some(("step", rest)) => (false, rest),
            _ => (false, part),
        };
        let (range, list) = match rest.strip_prefix("up to ").and_then(|r| r.split_once(' ')) {
            Some((n, list)) => (n.parse::<i32>().ok()?, list),
            None => (if slide { HALF_3D } else { 1 }, rest),
        };
        for item in split_items(list) {
            let vectors = match item.strip_prefix('[') {
                Some(v) => {
                    let n: Vec<i8> =
                        v.trim_end_matches(']').split(',').map(|x| x.trim().parse().ok()).collect::<Option<_>>()?;
                    vec![Vector::new(*n.first()?, *n.get(1)?, n.get(2).copied().unwrap_or(0))]
                }
                None => directions::named(item)?,
            };
            for v in vectors {
                for k in 1..=range.min(HALF_3D) {
                    let at = (v.df as i32 * k, v.dr as i32 * k, v.dl as i32 * k);
                    if at.0.abs() <= HALF_3D
                        && at.1.abs() <= HALF_3D
                        && at.2.abs() <= HALF_3D
                        && !cells.iter().any(|(c, _)| *c == at)
                    {
                        cells.push((at, Target::MovesOrCaptures));
                    }
                }
            }
        }
    }
    (!cells.is_empty()).then_some(cells)
}

/// `orthogonal, [1, 0, 1], diagonal` → its items (commas inside brackets kept).
fn split_items(list: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, ch) in list.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                items.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(list[start..].trim());
    items.into_iter().filter(|s| !s.is_empty()).collect()
}

fn mode_target(mode: Mode) -> Target {
    match (mode.moves, mode.captures) {
        (true, true) => Target::MovesOrCaptures,
        (true, false) => Target::MovesOnly,
        _ => Target::CapturesOnly,
    }
}

/// The steps of an atom within `half` cells of the centre: (step number, offset).
fn reach(atom: &Atom, half: i32) -> Vec<(i32, (i32, i32))> {
    let (dx, dy) = (atom.vector.df as i32, atom.vector.dr as i32);
    let max = if atom.range == 0 { SIZE } else { atom.range as i32 };
    (1..=max).map(|k| (k, (dx * k, dy * k))).take_while(|&(_, (x, y))| x.abs() <= half && y.abs() <= half).collect()
}

/// A leap longer than one step that ignores what stands between, or a slide past its skipped cell.
fn is_jump(atom: &Atom, k: i32) -> bool {
    let long = atom.vector.df.abs() > 1 || atom.vector.dr.abs() > 1;
    (long && atom.range == 1 && !atom.lame) || (atom.skip_first && k >= 2)
}

/// Two definitions reaching one cell: move-only plus capture-only makes both.
fn merge(cells: &mut Cells, at: (i32, i32), target: Target) {
    match cells.iter_mut().find(|(c, _)| *c == at) {
        None => cells.push((at, target)),
        Some((_, m)) => {
            *m = match (*m, target) {
                (a, b) if a == b => a,
                (Target::Jump, _) | (_, Target::Jump) => Target::Jump,
                _ => Target::MovesOrCaptures,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(d: &[((i32, i32), Target)], m: Target) -> usize {
        d.iter().filter(|(_, x)| *x == m).count()
    }

    #[test]
    fn a_gold_general_has_six_steps() {
        let d = diagram("WfF").unwrap();
        assert_eq!(d.len(), 6);
        assert_eq!(count(&d, Target::MovesOrCaptures), 6);
    }

    #[test]
    fn a_rook_reaches_the_edge_and_a_knight_jumps() {
        assert_eq!(diagram("R").unwrap().len(), 4 * (SIZE as usize / 2));
        let mut knight = diagram("ffN").unwrap();
        knight.sort_by_key(|c| c.0);
        assert_eq!(knight, [((-1, 2), Target::Jump), ((1, 2), Target::Jump)]);
    }

    #[test]
    fn move_only_capture_only_and_their_union() {
        let d = diagram("mfWcfF").unwrap();
        assert_eq!(count(&d, Target::MovesOnly), 1);
        assert_eq!(count(&d, Target::CapturesOnly), 2);
        assert_eq!(diagram("mfWcfW").unwrap(), vec![((0, 1), Target::MovesOrCaptures)]);
    }

    #[test]
    fn direction_moves_reach_through_levels() {
        // The 3D king: the 26 radial neighbours.
        assert_eq!(diagram_3d("step radial").unwrap().len(), 26);
        // Orthogonal slides: 6 directions, 2 cells each within the diagram.
        assert_eq!(diagram_3d("slide orthogonal").unwrap().len(), 12);
        assert_eq!(diagram_3d("step [1, 0, 1], orthogonal").unwrap().len(), 7);
        assert!(diagram_3d("KNAD").is_none());
    }

    #[test]
    fn multi_leg_moves_show_every_cell_they_can_reach() {
        // The lion: the whole 5×5, the adjacent cells also as locust captures (merged: both).
        let lion = diagram("KNADcaKmcabK").unwrap();
        assert_eq!(lion.len(), 24);
        assert_eq!(count(&lion, Target::Jump), 16, "the outer ring is leapt to");
        // The hook mover reaches every cell of the diagram.
        assert_eq!(diagram("RmasR").unwrap().len(), (SIZE * SIZE - 1) as usize);
        // The Emperor leaps anywhere.
        assert_eq!(count(&diagram("U").unwrap(), Target::Jump), (SIZE * SIZE - 1) as usize);
    }
}
