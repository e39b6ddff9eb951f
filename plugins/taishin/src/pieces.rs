//! The 163 piece types: the 86 initial types in the config line's order (ids 0–85), then the
//! promoted form of each of the first 77 (id = base + 86, the config's `promoOffset`).
//!
//! Each row gives the config ID, the config name, the config XBetza (for display only) and the
//! type's move families, hand-translated from docs/rules/taishin.md §5–§6.

use henka_api::{PieceId, PieceInfo};

use crate::moves::*;

/// A type's row: config ID, config name, config XBetza, move families.
#[derive(Debug)]
pub struct PieceDef {
    pub token: &'static str,
    pub name: &'static str,
    pub betza: &'static str,
    pub moves: fn() -> Moves,
}

macro_rules! def {
    ($token:literal, $name:literal, $betza:literal, $moves:expr) => {
        PieceDef { token: $token, name: $name, betza: $betza, moves: || $moves }
    };
}

/// How many initial types there are; the promoted form of type `t` is `t + INITIAL_TYPES`.
pub const INITIAL_TYPES: u8 = 86;
/// The first 77 initial types promote (config `maxPromote`).
pub const PROMOTING_TYPES: u8 = 77;
/// All types.
pub const TYPES: usize = INITIAL_TYPES as usize + PROMOTING_TYPES as usize;

pub const PAWN: u8 = 0;
pub const STONE_GENERAL: u8 = 4;
pub const IRON_GENERAL: u8 = 6;
pub const DEVA: u8 = 72;
pub const DARK_SPIRIT: u8 = 73;
pub const DRUNK_ELEPHANT: u8 = 74;
pub const PRINCE: u8 = 75;
pub const KING: u8 = 76;

/// The promoted form of a promoting initial type.
pub const fn promoted(t: u8) -> u8 {
    t + INITIAL_TYPES
}

pub const TEACHING_KING: u8 = promoted(DEVA);
pub const DIVINE_DRAGON: u8 = promoted(DARK_SPIRIT);
pub const EMPEROR: u8 = promoted(KING);

/// Royal types (§10): King, Prince, Emperor (+K), King (+CP), Prince (+DE).
pub fn is_royal(t: u8) -> bool {
    [KING, PRINCE, EMPEROR, promoted(PRINCE), promoted(DRUNK_ELEPHANT)].contains(&t)
}

// Moves shared by several types (an initial type and the promoted forms named after it).
fn queen() -> Moves {
    moves().ride(ALL, INF)
}
fn rook() -> Moves {
    moves().ride(ORTH, INF)
}
fn bishop() -> Moves {
    moves().ride(DIAG, INF)
}
fn side_soldier() -> Moves {
    // fnD: two squares forward, blocked by the first: with the step, a 2-square forward slide.
    moves().step(ORTH).ride(L | R, INF).ride(F, 2)
}
fn vertical_soldier() -> Moves {
    moves().step(ORTH).ride(F, INF).ride(L | R, 2)
}
fn side_chariot() -> Moves {
    moves().ride(L | R, INF).ride(F | B, 2)
}
fn vertical_chariot() -> Moves {
    moves().ride(F | B, INF).ride(L | R, 2)
}
fn side_mover() -> Moves {
    moves().step(ORTH).ride(L | R, INF)
}
fn vertical_mover() -> Moves {
    moves().step(ORTH).ride(F | B, INF)
}
fn whale() -> Moves {
    moves().ride(BL | BR | F | B, INF)
}
fn white_horse() -> Moves {
    moves().ride(FL | FR | F | B, INF)
}
fn roaring_dog() -> Moves {
    moves().ride(ALL, 3)
}
fn dragon_horse() -> Moves {
    bishop().step(ORTH)
}
fn dragon_king() -> Moves {
    rook().step(DIAG)
}
fn violent_falcon() -> Moves {
    bishop().knight()
}
fn fierce_eagle() -> Moves {
    rook().knight()
}
fn chariot_soldier() -> Moves {
    // W + nD sideways = a 2-square slide; forward and back the rook slides cover them.
    moves().ride(DIAG | F | B, INF).ride(L | R, 2)
}
fn water_buffalo() -> Moves {
    moves().ride(DIAG | L | R, INF).ride(F | B, 2)
}
fn horned_falcon() -> Moves {
    moves().ride(DIAG | B | L | R, INF).eagle(F)
}
fn soaring_eagle() -> Moves {
    moves().ride(ORTH | BL | BR, INF).eagle(FL | FR)
}
fn lion() -> Moves {
    moves().lion()
}
fn lion_dog() -> Moves {
    moves().lion_dog(ALL)
}
fn free_eagle() -> Moves {
    // Q, the A and D leaps, a diagonal capture then one more diagonal step straight on or turned
    // 90°, igui and pass on the diagonal neighbours (§6.4).
    queen().leap(ALL, 2).capture_then(DIAG, STRAIGHT | SQUARE_TURNS).igui(DIAG).pass(DIAG)
}
fn lion_hawk() -> Moves {
    bishop().step(ORTH).lion()
}
fn bishop_general() -> Moves {
    moves().jumping(DIAG)
}
fn rook_general() -> Moves {
    moves().jumping(ORTH)
}
fn great_general() -> Moves {
    moves().jumping(ALL)
}
fn violent_horse() -> Moves {
    moves().jumping(DIAG).ride(ORTH, 3)
}
fn violent_dragon() -> Moves {
    moves().jumping(ORTH).ride(DIAG, 3)
}
fn vice_general() -> Moves {
    moves().jumping(DIAG).area(3)
}
fn fire_demon() -> Moves {
    // B, sR, the 3-step area move and its pass, a capture on a neighbour then one more king step
    // (not back home: that is igui), igui (§6.6).
    moves().ride(DIAG | L | R, INF).area(3).capture_then(ALL, ANY_BUT_HOME).igui(ALL)
}
fn tengu() -> Moves {
    bishop().step(ORTH).hook(DIAG)
}
fn hook_mover() -> Moves {
    rook().hook(ORTH)
}
fn heavenly_tetrarch() -> Moves {
    // jsR3: sideways to S2 or S3; jB, jvR: skip S1, slide on from S2; cabK: igui all round.
    moves().skipping(L | R, 3).skipping(DIAG | F | B, INF).igui(ALL)
}
fn free_demon() -> Moves {
    moves().ride(DIAG | L | R, INF).ride(F | B, 5)
}
fn free_dream_eater() -> Moves {
    moves().ride(DIAG | F | B, INF).ride(L | R, 5)
}
fn prince() -> Moves {
    moves().step(ALL)
}
fn king() -> Moves {
    moves().ride(ALL, 2)
}

/// The 86 initial types, config order.
pub const INITIAL: [PieceDef; INITIAL_TYPES as usize] = [
    def!("P", "pawn", "fW", moves().step(F)),
    def!("D", "dog", "bFfW", moves().step(BL | BR | F)),
    def!("N", "knight", "N", moves().knight()),
    def!("E", "earth general", "vW", moves().step(F | B)),
    def!("O", "stone general", "fF", moves().step(FL | FR)),
    def!("T", "tile general", "fFbW", moves().step(FL | FR | B)),
    def!("I", "iron general", "fFfW", moves().step(FL | FR | F)),
    def!("C", "copper general", "fFvW", moves().step(FL | FR | F | B)),
    def!("S", "silver general", "FfW", moves().step(DIAG | F)),
    def!("BT", "blind tiger", "FsbW", moves().step(DIAG | L | R | B)),
    def!("FL", "ferocious leopard", "FvW", moves().step(DIAG | F | B)),
    def!("G", "gold general", "WfF", moves().step(ORTH | FL | FR)),
    def!("CT", "cat sword", "F", moves().step(DIAG)),
    def!("AB", "angry boar", "W", moves().step(ORTH)),
    def!("EW", "evil wolf", "fFfsW", moves().step(FL | FR | F | L | R)),
    def!("CO", "coiled serpent", "bFvW", moves().step(BL | BR | F | B)),
    def!("BD", "blind dog", "fFsbW", moves().step(FL | FR | L | R | B)),
    def!("OM", "old monkey", "FbW", moves().step(DIAG | B)),
    def!("RN", "reclining dragon", "WbF", moves().step(ORTH | BL | BR)),
    def!("FH", "flying horse", "F2", moves().ride(DIAG, 2)),
    def!("FN", "flying dragon", "W2", moves().ride(ORTH, 2)),
    def!("RD", "roaring dog", "K3", roaring_dog()),
    def!("RV", "reverse chariot", "vR", moves().ride(F | B, INF)),
    def!("L", "lance", "fRbW2", moves().ride(F, INF).ride(B, 2)),
    def!("WL", "whale", "bBvR", whale()),
    def!("WH", "white horse", "fBvR", white_horse()),
    def!("HD", "howling dog", "fRbW", moves().ride(F, INF).step(B)),
    def!("KY", "kirin", "FD", moves().step(DIAG).leap(ORTH, 2)),
    def!("PH", "phoenix", "WA", moves().step(ORTH).leap(DIAG, 2)),
    def!("WR", "warrior", "WfFA", moves().step(ORTH | FL | FR).leap(DIAG, 2)),
    def!("PS", "poisonous snake", "FvWD", moves().step(DIAG | F | B).leap(ORTH, 2)),
    def!("LC", "left chariot", "fRbWflbrB", moves().ride(F | FL | BR, INF).step(B)),
    def!("RC", "right chariot", "fRbWfrblB", moves().ride(F | FR | BL, INF).step(B)),
    def!("SO", "soldier", "RbB", moves().ride(ORTH | BL | BR, INF)),
    def!("SM", "side mover", "WsR", side_mover()),
    def!("VM", "vertical mover", "WvR", vertical_mover()),
    def!("B", "bishop", "B", bishop()),
    def!("SS", "side soldier", "WsRfnD", side_soldier()),
    def!("VS", "vertical soldier", "WfRsnD", vertical_soldier()),
    def!("R", "rook", "R", rook()),
    def!("SC", "side chariot", "sRvW2", side_chariot()),
    def!("VC", "vertical chariot", "vRsW2", vertical_chariot()),
    def!("DH", "dragon horse", "BW", dragon_horse()),
    def!("DK", "dragon king", "RF", dragon_king()),
    def!("F", "fire dragon", "RfB4bB2", rook().ride(FL | FR, 4).ride(BL | BR, 2)),
    def!("W", "water dragon", "RbB4fB2", rook().ride(BL | BR, 4).ride(FL | FR, 2)),
    def!("H", "earth dragon", "BsR4vR2", bishop().ride(L | R, 4).ride(F | B, 2)),
    def!("A", "wind dragon", "BvR4sR2", bishop().ride(F | B, 4).ride(L | R, 2)),
    def!("VF", "violent falcon", "BN", violent_falcon()),
    def!("VE", "fierce eagle", "RN", fierce_eagle()),
    def!("CS", "chariot soldier", "BvRWnD", chariot_soldier()),
    def!("MF", "mountain falcon", "RfBbB2fD", moves().ride(ORTH | FL | FR, INF).ride(BL | BR, 2).leap(F, 2)),
    def!(
        "LE",
        "left mountain eagle",
        "RlbfBrbB2lvA",
        moves().ride(ORTH | BL | FL | FR, INF).ride(BR, 2).leap(FL | BL, 2)
    ),
    def!(
        "RE",
        "right mountain eagle",
        "RrbfBlbB2rvA",
        moves().ride(ORTH | BR | FL | FR, INF).ride(BL, 2).leap(FR | BR, 2)
    ),
    def!("HF", "horned falcon", "BbsRfWfDfcavWfmabW", horned_falcon()),
    def!("SE", "soaring eagle", "RbBfFfAfcavFfmabF", soaring_eagle()),
    def!("LN", "lion", "KNADcaKmcabK", lion()),
    def!("LD", "lion dog", "KADGHcafKmcabKcafmpafKmpafcavK", lion_dog()),
    def!("Q", "queen", "Q", queen()),
    def!("FE", "free eagle", "QADcasFcafFmcabF", free_eagle()),
    def!("LH", "lion hawk", "BWNADcaKmcabK", lion_hawk()),
    def!("BG", "bishop general", "pafpafcBmcBcpB", bishop_general()),
    def!("RG", "rook general", "pafpafcRmcRcpR", rook_general()),
    def!("VH", "violent horse", "R3pafpafcBmcBcpB", violent_horse()),
    def!("VD", "violent dragon", "B3pafpafcRmcRcpR", violent_dragon()),
    def!("VA", "vice master", "DpafpafcBmcBcpB", bishop_general().leap(ORTH, 2)),
    def!("GA", "great master", "ApafpafcRmcRcpR", rook_general().leap(DIAG, 2)),
    def!("WB", "water buffalo", "BsRWnD", water_buffalo()),
    def!("PC", "peacock", "bB2fBfmasB", moves().ride(BL | BR, 2).ride(FL | FR, INF).hook(FL | FR)),
    def!("CA", "capricorn", "BmasB", bishop().hook(DIAG)),
    def!("LT", "left general", "FvrW", moves().step(DIAG | F | B | R)),
    def!("RT", "right general", "FvlW", moves().step(DIAG | F | B | L)),
    def!("DV", "deva", "lfbFW", moves().step(ORTH | FL | BL | BR)),
    def!("DS", "dark spirit", "rfbFW", moves().step(ORTH | FR | BL | BR)),
    def!("DE", "drunk elephant", "FsfW", moves().step(DIAG | L | R | F)),
    def!("CP", "crown prince", "K", prince()),
    def!("K", "king", "K2", king()),
    def!("HK", "free demon", "BsRvW5", free_demon()),
    def!("HB", "free dream eater", "BvRsW5", free_dream_eater()),
    def!("FF", "furious fiend", "KNADGHcaKmcabKcafmpafKmpafcavK", lion().lion_dog(ALL)),
    def!("VG", "vice general", "pafpafcBmcBcpBKaKaaKmabK", vice_general()),
    def!("GG", "great general", "pafpafcQmcQcpQ", great_general()),
    def!("HT", "heavenly tetrarch", "jsR3jBjvRcabK", heavenly_tetrarch()),
    def!("FD", "fire demon", "BsRKaKaaKcaKmcabK", fire_demon()),
    def!("TG", "tengu", "WBmasB", tengu()),
    def!("HM", "hook mover", "RmasR", hook_mover()),
];

/// The promoted forms of the first 77 initial types, in the same order (token = the base's).
pub const PROMOTED: [PieceDef; PROMOTING_TYPES as usize] = [
    def!("P", "tokin", "WfF", moves().step(ORTH | FL | FR)),
    def!("D", "multi general", "bBfR", moves().ride(BL | BR | F, INF)),
    def!("N", "side soldier", "WsRfnD", side_soldier()),
    def!("E", "reverse chariot", "vR", moves().ride(F | B, INF)),
    def!("O", "side chariot", "sRvW2", side_chariot()),
    def!("T", "vertical chariot", "vRsW2", vertical_chariot()),
    def!("I", "vertical soldier", "WfRsnD", vertical_soldier()),
    def!("C", "side mover", "WsR", side_mover()),
    def!("S", "vertical mover", "WvR", vertical_mover()),
    def!("BT", "flying stag", "KvR", moves().step(ALL).ride(F | B, INF)),
    def!("FL", "bishop", "B", bishop()),
    def!("G", "rook", "R", rook()),
    def!("CT", "free cat", "B", bishop()),
    def!("AB", "running boar", "R", rook()),
    def!("EW", "free wolf", "KsR", moves().step(ALL).ride(L | R, INF)),
    def!("CO", "free serpent", "bBvR", whale()),
    def!("BD", "wizard stork", "BsfRbW", moves().ride(DIAG | L | R | F, INF).step(B)),
    def!("OM", "mountain witch", "BsbRfW", moves().ride(DIAG | L | R | B, INF).step(F)),
    def!("RN", "free dragon", "RbB", moves().ride(ORTH | BL | BR, INF)),
    def!("FH", "violent falcon", "BN", violent_falcon()),
    def!("FN", "fierce eagle", "RN", fierce_eagle()),
    def!("RD", "lion dog", "KADGHcafKmcabKcafmpafKmpafcavK", lion_dog()),
    def!("RV", "whale", "bBvR", whale()),
    def!("L", "white horse", "fBvR", white_horse()),
    def!("WL", "great whale", "bBvRsR2", whale().ride(L | R, 2)),
    def!("WH", "great horse", "fBvRsR2", white_horse().ride(L | R, 2)),
    def!("HD", "roaring dog", "K3", roaring_dog()),
    def!("KY", "lion", "KNADcaKmcabK", lion()),
    def!("PH", "queen", "Q", queen()),
    def!("WR", "tengu", "WBmasB", tengu()),
    def!("PS", "hook mover", "RmasR", hook_mover()),
    def!("LC", "left army", "KrvBrR", moves().step(ALL).ride(FR | BR | R, INF)),
    def!("RC", "right army", "KlvBlR", moves().step(ALL).ride(FL | BL | L, INF)),
    def!("SO", "cavalier", "RfB", moves().ride(ORTH | FL | FR, INF)),
    def!("SM", "free boar", "BsR", moves().ride(DIAG | L | R, INF)),
    def!("VM", "flying ox", "BvR", moves().ride(DIAG | F | B, INF)),
    def!("B", "dragon horse", "BW", dragon_horse()),
    def!("SS", "water buffalo", "BsRWnD", water_buffalo()),
    def!("VS", "chariot soldier", "BvRWnD", chariot_soldier()),
    def!("R", "dragon king", "RF", dragon_king()),
    def!("SC", "free demon", "BsRvW5", free_demon()),
    def!("VC", "free dream eater", "BvRsW5", free_dream_eater()),
    def!("DH", "horned falcon", "BbsRfWfDfcavWfmabW", horned_falcon()),
    def!("DK", "soaring eagle", "RbBfFfAfcavFfmabF", soaring_eagle()),
    // The 3-square lion-dog power on one ray (§6.3).
    def!(
        "F",
        "kirin master",
        "BbsRfWfDfHfcafWfmcabWfcafmpafWfmpafcavW",
        moves().ride(DIAG | B | L | R, INF).lion_dog(F)
    ),
    def!(
        "W",
        "phoenix master",
        "RbBfFfAfGfcafFfmcabFfcafmpafFfmpafcavF",
        moves().ride(ORTH | BL | BR, INF).lion_dog(FL | FR)
    ),
    def!("H", "earthward net", "BWaKmabK", dragon_horse().area(2)),
    def!("A", "skyward net", "RFaKmabK", dragon_king().area(2)),
    def!("VF", "violent horse", "R3pafpafcBmcBcpB", violent_horse()),
    def!("VE", "violent dragon", "B3pafpafcRmcRcpR", violent_dragon()),
    def!("CS", "heavenly tetrarch", "jsR3jBjvRcabK", heavenly_tetrarch()),
    def!("MF", "horned falcon", "BbsRfWfDfcavWfmabW", horned_falcon()),
    def!("LE", "soaring eagle", "RbBfFfAfcavFfmabF", soaring_eagle()),
    def!("RE", "soaring eagle", "RbBfFfAfcavFfmabF", soaring_eagle()),
    def!("HF", "bishop general", "pafpafcBmcBcpB", bishop_general()),
    def!("SE", "rook general", "pafpafcRmcRcpR", rook_general()),
    def!("LN", "lion hawk", "BWNADcaKmcabK", lion_hawk()),
    def!("LD", "furious fiend", "KNADGHcaKmcabKcafmpafKmpafcavK", lion().lion_dog(ALL)),
    def!("Q", "free eagle", "QADcasFcafFmcabF", free_eagle()),
    // Golden Bird: as the Free Eagle with the roles of the two kinds of neighbour swapped (§6.4).
    def!(
        "FE",
        "golden bird",
        "QDcasWcafWmcabW",
        queen().leap(ORTH, 2).capture_then(ORTH, STRAIGHT | SQUARE_TURNS).igui(ORTH).pass(ORTH)
    ),
    def!("LH", "great dragon", "RFNADcaKmcabK", dragon_king().lion()),
    def!("BG", "vice general", "pafpafcBmcBcpBKaKaaKmabK", vice_general()),
    def!("RG", "great general", "pafpafcQmcQcpQ", great_general()),
    def!("VH", "horse master", "pafpafcBmcBcpBKaKmabK", bishop_general().area(2)),
    def!("VD", "dragon master", "pafpafcRmcRcpRKaKmabK", rook_general().area(2)),
    def!("VA", "vice general", "pafpafcBmcBcpBKaKaaKmabK", vice_general()),
    def!("GA", "great general", "pafpafcQmcQcpQ", great_general()),
    def!("WB", "fire demon", "BsRKaKaaKcaKmcabK", fire_demon()),
    def!("PC", "tengu", "WBmasB", tengu()),
    def!("CA", "hook mover", "RmasR", hook_mover()),
    def!("LT", "shogun", "KaKaaKmabK", moves().area(3)),
    def!("RT", "shogun", "KaKaaKmabK", moves().area(3)),
    def!("DV", "teaching king", "QADGHcafKmcabKcafmpafKmpafcavK", queen().lion_dog(ALL)),
    def!("DS", "divine dragon", "QNADcaKmcabK", queen().lion()),
    def!("DE", "crown prince", "K", prince()),
    def!("CP", "king", "K2", king()),
    def!("K", "emperor", "U", moves().anywhere()),
];

/// The definition of any type id.
pub fn def(t: u8) -> &'static PieceDef {
    match t.checked_sub(INITIAL_TYPES) {
        Some(p) => &PROMOTED[p as usize],
        None => &INITIAL[t as usize],
    }
}

/// "lion hawk" → "Lion Hawk".
fn capitalised(name: &str) -> String {
    let words: Vec<String> = name
        .split(' ')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|first| first.to_uppercase().chain(c).collect()).unwrap_or_default()
        })
        .collect();
    words.join(" ")
}

/// The piece table the host sees, ids as above.
pub fn piece_infos() -> Vec<PieceInfo> {
    (0..TYPES as u8)
        .map(|t| {
            let d = def(t);
            let base = if t >= INITIAL_TYPES { t - INITIAL_TYPES } else { t };
            PieceInfo {
                name: capitalised(d.name),
                kanji: None,
                token: d.token.into(),
                promoted: t >= INITIAL_TYPES,
                betza: d.betza.into(),
                royal: is_royal(t),
                promotes_to: (t < PROMOTING_TYPES).then(|| promoted(t) as PieceId),
                demotes_to: base,
                computed: false,
            }
        })
        .collect()
}
