//! The `RuleSet`: a variant as pure data. Scripts and plugins both build one; the engines compile
//! it.

use serde::{Deserialize, Serialize};

use super::betza::{self, Atom, BetzaError, Path};
use crate::model::description::Metadata;
use crate::model::field::SupportRule;
use crate::model::geometry::GeometrySpec;
use crate::model::outcome::{EndReason, HistoryEntry, Outcome};
use crate::model::position::Position;
use crate::model::side::Side;

/// A variant's rules as data. The kit's hooks ([`crate::kit::Hooks`]) add what data cannot say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleSet {
    #[serde(flatten)]
    pub meta: Metadata,
    pub geometry: GeometrySpec,
    pub pieces: Vec<PieceRule>,
    #[serde(default)]
    pub promotion: PromotionRule,
    /// Captured pieces go to the captor's hand and may be dropped.
    #[serde(default)]
    pub drops: bool,
    #[serde(default)]
    pub check: CheckRule,
    #[serde(default)]
    pub stalemate: StalemateRule,
    #[serde(default)]
    pub baring: BaringRule,
    #[serde(default)]
    pub repetition: RepetitionRule,
    /// A player may pass (a move that ends where it started without capturing) at most this many
    /// turns in a row; 0 = no limit. The count lives in the position's counter of the side.
    #[serde(default)]
    pub pass_limit: u8,
    /// The start position string.
    pub start: String,
    /// Cubes: pieces whose faces are piece types (Ki Shogi). Empty for ordinary pieces.
    #[serde(default)]
    pub cubes: Vec<CubeRule>,
    /// An open field with Gyoku placement and support instead of a set-up board (Ki Shogi).
    #[serde(default)]
    pub field: Option<FieldRule>,
    /// The most royal pieces a side may have on the board; positions with more are refused
    /// ([`crate::VariantInfo::royals_per_side`]). `None`: any number (each is a royal whose loss
    /// counts only with the last).
    #[serde(default)]
    pub royals_per_side: Option<u8>,
    /// Results declared by the position (a piece reaching a zone, the n-th check), judged after
    /// every move; a decided position has no legal moves.
    #[serde(default)]
    pub end: EndRules,
}

impl RuleSet {
    /// A variant's board and start position with no pieces yet and every other rule at its
    /// default (see [`RuleSet::default`]). Add the pieces with [`RuleSet::with_pieces`] or
    /// [`RuleSet::add`]; set other rules by struct update:
    /// `RuleSet { drops: true, ..RuleSet::new(meta, geometry, start) }`.
    pub fn new(meta: Metadata, geometry: GeometrySpec, start: impl Into<String>) -> RuleSet {
        RuleSet { meta, geometry, start: start.into(), ..RuleSet::default() }
    }

    /// Adds each piece type and its promoted type, if any, in order (see [`RuleSet::add`]).
    pub fn with_pieces(mut self, pieces: impl IntoIterator<Item = (PieceRule, Option<PieceRule>)>) -> RuleSet {
        for (piece, promoted) in pieces {
            self.add(piece, promoted);
        }
        self
    }

    /// Adds a piece type and, if it promotes, its promoted type right after it — the order in
    /// which scripts declare them.
    pub fn add(&mut self, mut piece: PieceRule, promoted: Option<PieceRule>) {
        if let Some(p) = promoted {
            piece.promotes_to = Some(self.pieces.len() + 1);
            self.pieces.push(piece);
            self.pieces.push(p);
        } else {
            self.pieces.push(piece);
        }
    }
}

/// No board (0 × 0), pieces or start position yet — set those — and every rule at its default: no
/// promotion zone, no drops, royals must escape check, no legal move loses, no baring, the fourth
/// repetition ends the game (perpetual check losing), passes unlimited, no cubes, no open field.
impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet {
            meta: Metadata::default(),
            geometry: GeometrySpec::flat(0, 0),
            pieces: Vec::new(),
            promotion: PromotionRule::default(),
            drops: false,
            check: CheckRule::default(),
            stalemate: StalemateRule::default(),
            baring: BaringRule::default(),
            repetition: RepetitionRule::default(),
            pass_limit: 0,
            start: String::new(),
            cubes: Vec::new(),
            field: None,
            royals_per_side: None,
            end: EndRules::default(),
        }
    }
}

/// Results a position declares beyond mate, stalemate and a captured last royal. The kit judges
/// them before generating moves, so a decided position has no legal moves: perft, the AI, USI and
/// the editor all see the game end there (docs/scripting.md, "How a game ends").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndRules {
    /// A piece reaching a zone wins (Dobutsu shogi's try).
    #[serde(default)]
    pub reach: Option<ReachRule>,
    /// The side that gives its n-th check wins (check shogi: 1); 0 = no such rule. Counts above 1
    /// live in the position's counters 2 (the first player's checks) and 3.
    #[serde(default)]
    pub checks: u8,
}

impl EndRules {
    /// Whether any declared end rule is switched on.
    pub fn any(&self) -> bool {
        self.reach.is_some() || self.checks > 0
    }
}

/// "A piece of these types standing in the far zone after its side's move wins."
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReachRule {
    /// The types that win by reaching, as indices in `pieces`; empty means the royal types.
    #[serde(default)]
    pub pieces: Vec<usize>,
    /// The zone: the last `zone` ranks from the mover's view (at least 1).
    pub zone: u8,
    /// The piece must also survive the reply: it wins only if no enemy piece attacks it after the
    /// move (Dobutsu's try, as Fairy-Stockfish plays it). Otherwise reaching wins at once.
    #[serde(default)]
    pub survives: bool,
}

/// A cube: a piece whose faces are piece types. A move without a capture turns it to the moving
/// face's `opposite`; a capture turns it to one of the moving face's `capture_faces` (the mover's
/// choice: one move per face); a drop shows any face. In hand it counts under its first face, and a
/// captured face goes to the captor's hand as its cube.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CubeRule {
    pub name: String,
    /// The cube's letter in the hands of field position strings.
    pub letter: char,
    /// Indices of its faces in `pieces`, first face first.
    pub faces: Vec<usize>,
}

/// The open field of Ki Shogi: how royals enter and keep their distance, and which pieces must stay
/// next to a supporter. The end-of-turn consequence of being unsupported (stranding) is the
/// variant's `stranded` hook (see [`crate::kit::Hooks::stranded`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldRule {
    /// The field has no edge: the board is a box kept centred on the first player's royal.
    #[serde(default)]
    pub unbounded: bool,
    /// Each side's first turn places its royal from hand: the first player anywhere, the second at
    /// exactly this Chebyshev distance from the first player's royal.
    pub placement_distance: u8,
    /// The royals always stand exactly this far apart (a royal move must keep it); 0 = no rule.
    pub royal_distance: u8,
    pub support: SupportRule,
    /// Moves are written in compass notation.
    #[serde(default)]
    pub compass: bool,
}

/// One piece type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceRule {
    pub name: String,
    #[serde(default)]
    pub kanji: Option<String>,
    /// Token without `+` or parentheses; a promoted type usually repeats its base's token.
    pub token: String,
    /// The move as written by the designer (Betza or a vector description), for display.
    #[serde(default)]
    pub betza: String,
    /// The move, compiled from `betza` and/or explicit vector atoms: single legs …
    pub atoms: Vec<Atom>,
    /// … and multi-leg paths (lions, hoppers, hooks, area moves).
    #[serde(default)]
    pub paths: Vec<Path>,
    #[serde(default)]
    pub royal: bool,
    /// Index of the type this one promotes to.
    #[serde(default)]
    pub promotes_to: Option<usize>,
    /// Drop restriction: no drop on a file that holds an own unpromoted piece of this type (nifu).
    #[serde(default)]
    pub one_per_file: bool,
    /// Drop restriction: a drop of this type may not give immediate checkmate (uchifuzume).
    #[serde(default)]
    pub no_drop_mate: bool,
    /// May be dropped where it could never move again (Dobutsu's Chick on the last rank);
    /// otherwise such cells are refused.
    #[serde(default)]
    pub drop_immobile: bool,
    /// Whether the promotion zone applies to this type (Taishin: only Pawn, Stone and Iron
    /// General promote on the last rank; the rest promote only by capturing).
    #[serde(default = "yes")]
    pub zone_promotion: bool,
    /// May not capture a royal that the royal's side could recapture (Taishin's Emperor).
    #[serde(default)]
    pub spares_protected_royals: bool,
    /// The promotion is a switch the piece may also undo: its promoted type may turn back into
    /// this type at the end of any move that starts or ends in the zone (Ladies and Generals'
    /// Rookranker ⇄ Goldgeneral). Such a move's `piece` is this type.
    #[serde(default)]
    pub reversible_promotion: bool,
    /// At most this many of the side's own pieces of this type on one file or binding, after
    /// every move and drop (Ladies and Generals' restrictions).
    #[serde(default)]
    pub limit: Option<Limit>,
    /// A cube face: the face it turns to after a move without a capture (index in `pieces`).
    #[serde(default)]
    pub opposite: Option<usize>,
    /// A cube face: the faces it may turn to after a capture (the mover chooses); empty keeps it.
    #[serde(default)]
    pub capture_faces: Vec<usize>,
}

/// A cap on how many pieces of one type a side may have together on a group of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limit {
    pub most: u8,
    pub per: LimitScope,
}

/// The groups of cells a [`Limit`] counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitScope {
    /// A file: the line of cells with one file and level (the column nifu counts in).
    File,
    /// A binding: the cells the type's own moves can link on an empty board (a bishop's colour).
    Binding,
}

fn yes() -> bool {
    true
}

impl PieceRule {
    /// A piece type that moves as the (X)Betza string `moves`, with no flags set; chain the
    /// methods below for the rest.
    pub fn new(name: &str, token: &str, moves: &str) -> Result<PieceRule, BetzaError> {
        let parsed = betza::parse(moves)?;
        Ok(PieceRule {
            name: name.into(),
            kanji: None,
            token: token.into(),
            betza: moves.into(),
            atoms: parsed.atoms,
            paths: parsed.paths,
            royal: false,
            promotes_to: None,
            one_per_file: false,
            no_drop_mate: false,
            drop_immobile: false,
            zone_promotion: true,
            spares_protected_royals: false,
            reversible_promotion: false,
            limit: None,
            opposite: None,
            capture_faces: Vec::new(),
        })
    }

    pub fn kanji(mut self, kanji: &str) -> PieceRule {
        self.kanji = Some(kanji.into());
        self
    }

    /// Losing every royal piece loses the game.
    pub fn royal(mut self) -> PieceRule {
        self.royal = true;
        self
    }

    /// No drop on a file that holds an own unpromoted piece of this type (nifu).
    pub fn one_per_file(mut self) -> PieceRule {
        self.one_per_file = true;
        self
    }

    /// A drop of this type may not checkmate (uchifuzume).
    pub fn no_drop_mate(mut self) -> PieceRule {
        self.no_drop_mate = true;
        self
    }
}

/// Where and how pieces promote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromotionRule {
    /// The zone is the last `zone_depth` ranks from each player's view (0 = no promotion).
    pub zone_depth: u8,
    /// Every promotable piece whose move starts or ends in the zone must promote (Ōgi); otherwise
    /// promotion is optional except where the piece could never move again (dead cells).
    pub mandatory: bool,
    /// Promotion by capture: a piece that captures must promote, wherever it stands (Taishin, Tai
    /// shogi). Scripts switch it on with `promotion(#{ on_capture: true })`. Not the capture hook
    /// (a script's `v.on_capture(…)`, [`crate::kit::Hooks::after_capture`]), which is code that
    /// says what a capturing piece becomes.
    #[serde(default)]
    pub by_capture: bool,
    /// A piece may decline promotion even where it could never move again (Taishin's "dead
    /// pieces"); otherwise promotion is forced there.
    #[serde(default)]
    pub allow_immobile: bool,
}

/// Whether a move may leave the mover's royal attacked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckRule {
    /// Moves that leave the side's only royal attacked are illegal (shogi).
    #[default]
    MustEscape,
    /// Royals may be left attacked, but a last royal that is attacked and that no move can save
    /// is checkmated and the game ends (Taishin's default).
    Optional,
    /// Royals may be left en prise; the game goes on until the last one is captured.
    Ignore,
}

/// What having no legal move means for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StalemateRule {
    #[default]
    Loss,
    Draw,
    Win,
}

impl StalemateRule {
    /// The result when `stm`, not in check, has no legal move.
    pub fn outcome(self, stm: Side) -> Outcome {
        match self {
            StalemateRule::Loss => Outcome::win(stm.opponent(), EndReason::Stalemate),
            StalemateRule::Win => Outcome::win(stm, EndReason::Stalemate),
            StalemateRule::Draw => Outcome::draw(EndReason::Stalemate),
        }
    }
}

/// Okisaki's baring rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaringRule {
    #[default]
    Off,
    /// A side with nothing but royals on the board and nothing in hand loses.
    BoardAndHand,
}

/// Repetition: the same position for the `count`-th time ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepetitionRule {
    /// 0 switches the rule off.
    pub count: u8,
    /// A repetition reached through one side's unbroken checks loses for that side (sennichite).
    pub perpetual_check_loses: bool,
}

impl RepetitionRule {
    /// The result of repetition in `pos` given the earlier positions, if it ends the game.
    /// `now_in_check` says whether the side to move in `pos` is in check (asked only when needed).
    pub fn judge(
        &self,
        pos: &Position,
        history: &[HistoryEntry],
        now_in_check: impl FnOnce() -> bool,
    ) -> Option<Outcome> {
        if self.count == 0 {
            return None;
        }
        let earlier: Vec<usize> = (0..history.len()).filter(|&i| history[i].hash == pos.repetition_hash()).collect();
        if earlier.len() + 1 < self.count as usize {
            return None;
        }
        if self.perpetual_check_loses {
            // The cycle since the previous occurrence: if every position in it with side X to move
            // had X in check, X's opponent gave perpetual check and loses.
            let from = *earlier.last().expect("count >= 2");
            let now_in_check = now_in_check();
            let stm = pos.side_to_move();
            for checked in Side::BOTH {
                let all_checked = (from..history.len())
                    .filter(|&i| (history.len() - i) % 2 == (checked != stm) as usize)
                    .all(|i| history[i].in_check)
                    && (checked != stm || now_in_check);
                if all_checked {
                    return Some(Outcome::win(checked, EndReason::PerpetualCheck));
                }
            }
        }
        Some(Outcome::draw(EndReason::Repetition))
    }
}

impl Default for RepetitionRule {
    fn default() -> Self {
        RepetitionRule { count: 4, perpetual_check_loses: true }
    }
}
