//! The 31 piece types of the rules' §4 (docs/rules/ladies-and-generals.md), in the order the lead
//! fixed for script and plugin alike: each promoting type is followed by its promoted form.
//!
//! A type's move is two sets of radials in its owner's frame: the radials it slides along and
//! the radials it steps along. "Adding the remaining (forward) Emperor moves" on promotion means
//! steps along the radials the base lacks, so a promoted slider keeps its slides.

use henka_api::{PieceId, PieceInfo};

use crate::radials::{ALL, BACKWARD, FORWARD, ND, O, SD};

pub const EMPEROR: PieceId = 0;
pub const EMPRESS: PieceId = 1;
pub const DUCHESS: PieceId = 2;
pub const GOVERNOR: PieceId = 4;
pub const QUEEN: PieceId = 6;
pub const ROOK: PieceId = 8;
pub const BISHOP: PieceId = 10;
pub const UNICORN: PieceId = 12;
pub const SKYGENERAL: PieceId = 14;
pub const BRASSGENERAL: PieceId = 15;
pub const STEELGENERAL: PieceId = 17;
pub const COASTGENERAL: PieceId = 19;
pub const AZUREGENERAL: PieceId = 20;
pub const JADEGENERAL: PieceId = 22;
pub const QUEENRANKER: PieceId = 24;
pub const ROOKRANKER: PieceId = 25;
pub const GOLDGENERAL: PieceId = 26;
pub const BISHORANKER: PieceId = 27;
pub const SILVERGENERAL: PieceId = 28;
pub const PRINCELING: PieceId = 29;
pub const PRINCE: PieceId = 30;

/// How many types there are.
pub const TYPES: usize = 31;

/// What a type does at the end of a move that touches its owner's promotion zone (§7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// It never changes (the Emperor, the Empress, …, and every promoted form but the two
    /// generals below).
    Never,
    /// It may become this type (must, for a Princeling reaching the far rank).
    To(PieceId),
    /// A Goldgeneral or Silvergeneral: it may switch back to this ranker.
    SwitchBack(PieceId),
}

/// One type: names, token, move, promotion.
#[derive(Clone, Copy, Debug)]
pub struct PieceDef {
    pub name: &'static str,
    pub token: &'static str,
    /// Radials it slides along, in its owner's frame.
    pub slides: u32,
    /// Radials it steps along, in its owner's frame.
    pub steps: u32,
    pub promotion: Promotion,
    /// The move in words, for display (the spec's table).
    pub description: &'static str,
}

const fn slider(name: &'static str, token: &'static str, slides: u32, description: &'static str) -> PieceDef {
    PieceDef { name, token, slides, steps: 0, promotion: Promotion::Never, description }
}

const fn stepper(name: &'static str, token: &'static str, steps: u32, description: &'static str) -> PieceDef {
    PieceDef { name, token, slides: 0, steps, promotion: Promotion::Never, description }
}

impl PieceDef {
    const fn promotes_to(self, to: PieceId) -> PieceDef {
        PieceDef { promotion: Promotion::To(to), ..self }
    }

    const fn switches_back_to(self, ranker: PieceId) -> PieceDef {
        PieceDef { promotion: Promotion::SwitchBack(ranker), ..self }
    }

    /// The promoted form of a slider: its slides plus steps along `steps`.
    const fn promoted(self, name: &'static str, steps: u32, description: &'static str) -> PieceDef {
        PieceDef { name, steps: self.steps | steps, promotion: Promotion::Never, description, ..self }
    }
}

const F_O: u32 = FORWARD & O;
const B_O: u32 = BACKWARD & O;
const F_SD: u32 = FORWARD & SD;
const B_SD: u32 = BACKWARD & SD;
const F_ND: u32 = FORWARD & ND;

const DUCHESS_DEF: PieceDef = slider("Duchess", "D", O | ND, "slides 6 O, 8 ND").promotes_to(DUCHESS + 1);
const GOVERNOR_DEF: PieceDef = slider("Governor", "V", SD | ND, "slides 12 SD, 8 ND").promotes_to(GOVERNOR + 1);
const QUEEN_DEF: PieceDef = slider("Queen", "Q", O | SD, "slides 6 O, 12 SD").promotes_to(QUEEN + 1);
const ROOK_DEF: PieceDef = slider("Rook", "R", O, "slides 6 O").promotes_to(ROOK + 1);
const BISHOP_DEF: PieceDef = slider("Bishop", "B", SD, "slides 12 SD").promotes_to(BISHOP + 1);
const UNICORN_DEF: PieceDef = slider("Unicorn", "U", ND, "slides 8 ND").promotes_to(UNICORN + 1);
const BRASS_DEF: PieceDef =
    stepper("Brassgeneral", "A", O | F_ND, "steps 6 O, 4 forward ND").promotes_to(BRASSGENERAL + 1);
const STEEL_DEF: PieceDef =
    stepper("Steelgeneral", "T", SD | F_ND, "steps 12 SD, 4 forward ND").promotes_to(STEELGENERAL + 1);
const AZURE_DEF: PieceDef =
    stepper("Azuregeneral", "Z", ND | F_O, "steps 8 ND, forward O").promotes_to(AZUREGENERAL + 1);
const JADE_DEF: PieceDef =
    stepper("Jadegeneral", "J", ND | F_SD, "steps 8 ND, 4 forward SD").promotes_to(JADEGENERAL + 1);

/// Every type, by id.
pub const DEFS: [PieceDef; TYPES] = [
    stepper("Emperor", "K", ALL, "steps all 26 radials"),
    slider("Empress", "E", ALL, "slides all 26 radials"),
    DUCHESS_DEF,
    DUCHESS_DEF.promoted("Dowager", SD, "slides 6 O, 8 ND; steps 12 SD"),
    GOVERNOR_DEF,
    GOVERNOR_DEF.promoted("Regent", O, "slides 12 SD, 8 ND; steps 6 O"),
    QUEEN_DEF,
    QUEEN_DEF.promoted("Diarch", ND, "slides 6 O, 12 SD; steps 8 ND"),
    ROOK_DEF,
    ROOK_DEF.promoted("Baroness", SD | ND, "slides 6 O; steps 12 SD, 8 ND"),
    BISHOP_DEF,
    BISHOP_DEF.promoted("Pope", O | ND, "slides 12 SD; steps 6 O, 8 ND"),
    UNICORN_DEF,
    UNICORN_DEF.promoted("Usurper", O | SD, "slides 8 ND; steps 6 O, 12 SD"),
    stepper("Skygeneral", "Y", O | SD | F_ND, "steps 6 O, 12 SD, 4 forward ND"),
    BRASS_DEF,
    BRASS_DEF.promoted("Sungeneral", F_SD, "steps 6 O, 4 forward ND, 4 forward SD"),
    STEEL_DEF,
    STEEL_DEF.promoted("Moongeneral", F_O, "steps 12 SD, 4 forward ND, forward O"),
    stepper("Coastgeneral", "C", ND | F_O | F_SD, "steps 8 ND, forward O, 4 forward SD"),
    AZURE_DEF,
    AZURE_DEF.promoted("Forestgeneral", F_SD, "steps 8 ND, forward O, 4 forward SD"),
    JADE_DEF,
    JADE_DEF.promoted("Seageneral", F_O, "steps 8 ND, 4 forward SD, forward O"),
    slider("Queenranker", "F", F_O | B_O | F_SD | B_SD, "slides forward and backward O, 4 forward and 4 backward SD"),
    slider("Rookranker", "L", F_O | B_O, "slides forward and backward O").promotes_to(GOLDGENERAL),
    stepper("Goldgeneral", "L", O | F_SD, "steps 6 O, 4 forward SD").switches_back_to(ROOKRANKER),
    slider("Bishoranker", "X", F_SD | B_SD, "slides 4 forward and 4 backward SD").promotes_to(SILVERGENERAL),
    stepper("Silvergeneral", "X", SD | F_O, "steps 12 SD, forward O").switches_back_to(BISHORANKER),
    stepper("Princeling", "P", F_O | F_SD, "steps forward O, 4 forward SD").promotes_to(PRINCE),
    stepper("Prince", "P", O | SD, "steps 6 O, 12 SD"),
];

/// The type a piece of type `ty` is promoted from, if it is a promoted form.
fn base_of(ty: PieceId) -> Option<PieceId> {
    (0..TYPES as PieceId).find(|&b| DEFS[b as usize].promotion == Promotion::To(ty))
}

/// The type a captured piece of type `ty` becomes in its captor's hand: its array form.
pub fn array_form(ty: PieceId) -> PieceId {
    base_of(ty).unwrap_or(ty)
}

/// The types that can be held in hand, in the order position strings list them: every
/// unpromoted type but the Emperor.
pub fn hand_types() -> Vec<PieceId> {
    (0..TYPES as PieceId).filter(|&t| t != EMPEROR && base_of(t).is_none()).collect()
}

/// The host's description of every type.
pub fn piece_infos() -> Vec<PieceInfo> {
    DEFS.iter()
        .enumerate()
        .map(|(i, d)| {
            let ty = i as PieceId;
            PieceInfo {
                name: d.name.into(),
                kanji: None,
                token: d.token.into(),
                promoted: base_of(ty).is_some(),
                betza: d.description.into(),
                royal: ty == EMPEROR,
                promotes_to: match d.promotion {
                    Promotion::To(t) => Some(t),
                    _ => None,
                },
                demotes_to: array_form(ty),
                computed: false,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_promoted_form_follows_its_base() {
        for (i, d) in DEFS.iter().enumerate() {
            if let Promotion::To(t) = d.promotion {
                assert_eq!(t as usize, i + 1, "{}", d.name);
                assert_eq!(DEFS[t as usize].token, d.token);
            }
        }
        assert_eq!(hand_types().len(), 17);
    }

    #[test]
    fn the_switching_generals_point_back_at_their_rankers() {
        assert_eq!(DEFS[GOLDGENERAL as usize].promotion, Promotion::SwitchBack(ROOKRANKER));
        assert_eq!(DEFS[SILVERGENERAL as usize].promotion, Promotion::SwitchBack(BISHORANKER));
        assert_eq!(array_form(GOLDGENERAL), ROOKRANKER);
        assert_eq!(array_form(PRINCE), PRINCELING);
    }
}
