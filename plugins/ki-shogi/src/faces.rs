//! The cubes and their faces (docs/rules/ki-shogi.md §4–§5, docs/ki-shogi.md "Piece types"): ids,
//! names, moves in Black's frame, opposite faces and the faces a capture may turn to. Everything
//! else in the engine reads its piece data from here, and the host's description is built from it
//! too.

use henka_api::PieceInfo;
use henka_api::model::field::{CubeInfo, FieldInfo, SupportRule};

/// A face: a piece type id, as in docs/ki-shogi.md.
pub type Face = u8;

pub const GYOKU: Face = 0;
/// The first face of each cube: the type a cube counts under in hand (`G`, `H`, `K`, `U`).
pub const CUBE_FIRST_FACES: [Face; 4] = [GYOKU, 1, 7, 13];
/// The cube of the Ki extension (its faces are relays: they support like a Gyoku).
pub const KI_CUBE: usize = 3;
/// Faces of the base game (Gyoku, Hi and Kaku cubes) and with the Ki cube.
pub const BASE_FACES: usize = 13;
pub const ALL_FACES: usize = 19;

/// One face. Vectors are (x, y) for Black (forward = north = +y); White's are negated.
#[derive(Debug)]
pub struct FaceDef {
    pub name: &'static str,
    pub kanji: &'static str,
    pub betza: &'static str,
    /// Steps and leaps: never blocked.
    pub jumps: &'static [(i8, i8)],
    /// Slide directions (unit vectors): stop at the first occupied cell.
    pub slides: &'static [(i8, i8)],
    /// The face after a move without a capture (the Gyoku never changes).
    pub opposite: Face,
    /// The faces to choose from after a capture (empty: the face stays, the Gyoku).
    pub after_capture: &'static [Face],
}

const ORTH: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const KING: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

const fn face(
    name: &'static str,
    kanji: &'static str,
    betza: &'static str,
    jumps: &'static [(i8, i8)],
    slides: &'static [(i8, i8)],
    opposite: Face,
    after_capture: &'static [Face],
) -> FaceDef {
    FaceDef { name, kanji, betza, jumps, slides, opposite, after_capture }
}

/// All faces by id; the base game uses the first [`BASE_FACES`]. Ki-cube opposites are the spec's
/// placeholder pairs (`ki_opposites = ki-hou`: Ki↔Hou, Ro↔Ja, Ba↔Ryuu).
pub const FACES: [FaceDef; ALL_FACES] = [
    face("Gyoku", "玉", "K", &KING, &[], GYOKU, &[]),
    // The Hi cube.
    face("Hi", "飛", "R", &[], &ORTH, 2, &[4]),
    face("Cho", "猪", "W", &ORTH, &[], 1, &[5, 6]),
    face("Han", "反", "vR", &[], &[(0, 1), (0, -1)], 4, &[6]),
    face("Chuu", "仲", "vW", &[(0, 1), (0, -1)], &[], 3, &[2, 3, 5]),
    face("Ou", "横", "vWsR", &[(0, 1), (0, -1)], &[(1, 0), (-1, 0)], 6, &[1]),
    face("Shu", "竪", "sWvR", &[(1, 0), (-1, 0)], &[(0, 1), (0, -1)], 5, &[1]),
    // The Kaku cube.
    face("Kaku", "角", "B", &[], &DIAG, 8, &[10, 12]),
    face("Myou", "猫", "F", &DIAG, &[], 7, &[7]),
    face("Hon", "奔", "bRfB", &[], &[(0, -1), (1, 1), (-1, 1)], 10, &[7]),
    face("Ga", "瓦", "bWfF", &[(0, -1), (1, 1), (-1, 1)], &[], 9, &[9, 8]),
    face("Zou", "雑", "fRbB", &[], &[(0, 1), (1, -1), (-1, -1)], 12, &[7]),
    face("Ken", "犬", "fWbF", &[(0, 1), (1, -1), (-1, -1)], &[], 11, &[11, 8]),
    // The Ki cube (extension).
    face("Ki", "麒", "FD", &[(1, 1), (1, -1), (-1, -1), (-1, 1), (0, 2), (0, -2), (2, 0), (-2, 0)], &[], 14, &[18, 17]),
    face(
        "Hou",
        "鳳",
        "WA",
        &[(0, 1), (1, 0), (0, -1), (-1, 0), (2, 2), (2, -2), (-2, -2), (-2, 2)],
        &[],
        13,
        &[18, 17],
    ),
    face("Ro", "驢", "sWvD", &[(1, 0), (-1, 0), (0, 2), (0, -2)], &[], 16, &[13, 14]),
    face("Ja", "蛇", "sWfDbA", &[(1, 0), (-1, 0), (0, 2), (2, -2), (-2, -2)], &[], 15, &[13, 14]),
    face("Ba", "馬", "ffNbbN", &[(1, 2), (-1, 2), (1, -2), (-1, -2)], &[], 18, &[16, 15]),
    face("Ryuu", "龍", "A", &[(2, 2), (2, -2), (-2, -2), (-2, 2)], &[], 17, &[16, 15]),
];

/// The cube a face belongs to: 0 Gyoku, 1 Hi, 2 Kaku, 3 Ki (also its hand slot).
#[inline]
pub const fn cube_of(f: Face) -> usize {
    match f {
        0 => 0,
        1..=6 => 1,
        7..=12 => 2,
        _ => 3,
    }
}

/// Whether a face is a Ki-cube face (a relay of support).
#[inline]
pub const fn is_relay(f: Face) -> bool {
    cube_of(f) == KI_CUBE
}

const CUBE_NAMES: [(&str, char); 4] = [("Gyoku", 'G'), ("Hi", 'H'), ("Kaku", 'K'), ("Ki", 'U')];

/// The host's description of the faces in play (`faces` = 13, or 19 with the Ki cube), as the
/// script declares them: token = the name in capitals; a captured face goes to hand as its cube.
pub fn piece_infos(faces: usize) -> Vec<PieceInfo> {
    FACES[..faces]
        .iter()
        .enumerate()
        .map(|(id, f)| PieceInfo {
            name: f.name.into(),
            kanji: Some(f.kanji.into()),
            token: f.name.to_ascii_uppercase(),
            promoted: false,
            betza: f.betza.into(),
            royal: id == GYOKU as usize,
            promotes_to: None,
            demotes_to: CUBE_FIRST_FACES[cube_of(id as Face)],
            computed: false,
        })
        .collect()
}

/// The field description: the cubes in play, a bounded field, compass notation, each face's
/// opposite, and support as the engine plays it (`support.rs`), for the host's display.
pub fn field_info(cubes: usize, sacrifices: bool) -> FieldInfo {
    let faces_of = |c: usize| -> Vec<Face> { (0..ALL_FACES as Face).filter(|&f| cube_of(f) == c).collect() };
    let faces = if cubes > KI_CUBE { ALL_FACES } else { BASE_FACES };
    FieldInfo {
        unbounded: false,
        compass: true,
        cubes: (0..cubes)
            .map(|c| CubeInfo { name: CUBE_NAMES[c].0.into(), letter: CUBE_NAMES[c].1, faces: faces_of(c) })
            .collect(),
        opposites: (0..faces as Face).map(|f| Some(FACES[f as usize].opposite).filter(|&o| o != f)).collect(),
        support: Some(SupportRule {
            relays: (0..faces as Face).filter(|&f| cube_of(f) == KI_CUBE).map(usize::from).collect(),
            relay_reach: crate::support::KI_REACH as u8,
            relay_anchor_own: false,
            moves_end_supported: !sacrifices,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposites_pair_up_within_a_cube_and_captures_stay_on_the_cube() {
        for (id, f) in FACES.iter().enumerate().skip(1) {
            let id = id as Face;
            assert_eq!(FACES[f.opposite as usize].opposite, id, "{}", f.name);
            assert_eq!(cube_of(f.opposite), cube_of(id), "{}", f.name);
            assert!(!f.after_capture.is_empty(), "{}", f.name);
            assert!(f.after_capture.iter().all(|&a| cube_of(a) == cube_of(id)), "{}", f.name);
        }
    }

    #[test]
    fn faces_are_left_right_symmetric() {
        // White's vectors are Black's negated, which is only the spec's "turned around" reading
        // because every face is its own mirror image.
        for f in &FACES {
            for list in [f.jumps, f.slides] {
                assert!(list.iter().all(|&(x, y)| list.contains(&(-x, y))), "{}", f.name);
            }
        }
    }
}
