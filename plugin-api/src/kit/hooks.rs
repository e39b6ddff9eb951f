//! Hooks: the places where a variant's rules are code rather than data.
//!
//! The kit calls most hooks once per position (never per candidate move) — the capture hook only
//! for the rare moves that capture one of the types it names, a movement callback only for pieces
//! of its types, a move effect only after moves of the movers it names — so a variant made only of
//! data runs at native speed and a variant with hooks pays only where it needs them.

use std::sync::Arc;

use super::support::Support;
use crate::model::description::VariantInfo;
use crate::model::error::RuleError;
use crate::model::geometry::Cell;
use crate::model::moves::Move;
use crate::model::outcome::{HistoryEntry, Outcome};
use crate::model::piece::{Piece, PieceId};
use crate::model::position::Position;

/// A piece type whose moves a callback computes ([`Hooks::piece_moves`]), beside its data moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveCallback {
    pub piece: PieceId,
    /// Betza moves whose cells, blockers ignored, hold every cell the callback can ever capture
    /// on (`"R"` for a piece that captures only along its lines). The kit tests attacks on a cell
    /// only by the callback pieces whose reach covers it, so a reach makes check tests cheap;
    /// `None` means anywhere. The kit refuses a callback move that captures outside its reach.
    pub reach: Option<String>,
}

/// Which moves run [`Hooks::after_move`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EffectTrigger {
    /// The moves (and drops) of pieces of these types, by their type before the move; `None`:
    /// every move, drops and passes included.
    pub movers: Option<Vec<PieceId>>,
    /// Only those of them that take a piece off the board (a capture, or a callback move onto a
    /// friend): an explosion or a swap needs no call after a quiet move.
    pub taking: bool,
    /// The effect only sets the rule's counters and may keep the turn; it never changes a piece
    /// or a hand. The kit then judges such moves by the data rules alone and runs the effect only
    /// when a move is played — not for every move it generates — and refuses an effect that
    /// breaks the promise.
    pub counters_only: bool,
}

impl EffectTrigger {
    /// Every move.
    pub fn every() -> EffectTrigger {
        EffectTrigger { movers: None, taking: false, counters_only: false }
    }

    /// The moves of pieces of these types.
    pub fn movers(types: Vec<PieceId>) -> EffectTrigger {
        EffectTrigger { movers: Some(types), taking: false, counters_only: false }
    }

    /// Only the moves that take a piece off the board.
    pub fn taking(self) -> EffectTrigger {
        EffectTrigger { taking: true, ..self }
    }

    /// An effect that only sets counters (and may keep the turn).
    pub fn counters_only(self) -> EffectTrigger {
        EffectTrigger { counters_only: true, ..self }
    }
}

/// A move the kit has just made, as [`Hooks::after_move`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub mv: Move,
    /// Who moved.
    pub side: crate::model::side::Side,
    /// The piece as it stood before the move (a drop's or placement's: the piece put down; a
    /// pass has none).
    pub mover: Option<Piece>,
    /// What the move took off the board, in capture order, with the cells it stood on: enemies
    /// (in hand now where drops are played) and friends a callback move landed on (lifted,
    /// for the effect to put somewhere: a swap or a push).
    pub taken: [Option<(Cell, Piece)>; 2],
}

impl Played {
    /// The pieces taken off the board, in capture order.
    pub fn taken(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.taken.iter().flatten().copied()
    }
}

/// Rule code supplied by a script or a plugin. Every method has a "no effect" default.
pub trait Hooks: Send + Sync + std::fmt::Debug {
    /// Whether [`Hooks::filter_moves`] does anything (lets the kit skip the call).
    fn has_move_filter(&self) -> bool {
        false
    }

    /// Removes moves the data rules allow but the variant forbids. Called with the full legal list.
    fn filter_moves(&self, _pos: &Position, _moves: &mut Vec<Move>) -> Result<(), RuleError> {
        Ok(())
    }

    /// The piece types whose capture makes the kit ask [`Hooks::after_capture`] what the capturing
    /// piece becomes. Asked once, when the variant is built; unknown names are the hook's error.
    fn capture_triggers(&self, _info: &VariantInfo) -> Result<Vec<PieceId>, RuleError> {
        Ok(Vec::new())
    }

    /// The type the mover ends as after `mv`, which captured `victims` (in capture order; at
    /// least one is of a trigger type). `mv.piece` is what the data rules gave.
    fn after_capture(&self, _pos: &Position, mv: Move, _victims: &[Piece]) -> Result<PieceId, RuleError> {
        Ok(mv.piece)
    }

    /// Whether [`Hooks::stranded`] does anything (lets the kit skip the call).
    fn has_stranding(&self) -> bool {
        false
    }

    /// The end of a turn on an open field: what happens to unsupported pieces (Ki Shogi's
    /// stranding). `pos` is the position after the move with `pos.side_to_move()` the player whose
    /// turn ends. The kit calls it only when some piece is unsupported or that player has pieces
    /// under grace, so the common move never gets here. The hook changes the position only through
    /// `support`: [`Support::capture`] (which refuses supported pieces) and [`Support::set_grace`].
    /// The kit's legality test relies on that: a move after which every piece is supported is judged
    /// without calling the hook, since grace marks alone never change an attack.
    fn stranded(&self, _pos: &mut Position, _support: &Arc<Support>) -> Result<(), RuleError> {
        Ok(())
    }

    /// Whether [`Hooks::outcome`] can ever declare a result. The kit then asks it before
    /// generating moves in every position (a decided position has no legal moves), so a hook
    /// set that never declares one should say `false` and cost nothing.
    fn has_outcome(&self) -> bool {
        true
    }

    /// A result the data rules do not know (checked after the data's end rules and before mate
    /// and stalemate). A decided position has no legal moves: the kit asks this before generating
    /// moves, in perft and search too, where `history` is empty. `history` holds the game's
    /// earlier positions only when [`crate::Variant::outcome`] is asked with them, so a result
    /// that depends on it ends the game as the repetition rule does: in the game, not in perft.
    fn outcome(&self, _pos: &Position, _history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        Ok(None)
    }

    /// The piece types whose moves [`Hooks::piece_moves`] computes. Asked once, when the variant
    /// is built; unknown names are the hook's error.
    fn move_callbacks(&self, _info: &VariantInfo) -> Result<Vec<MoveCallback>, RuleError> {
        Ok(Vec::new())
    }

    /// Appends the moves of `piece` on `from` that the callback computes, pseudo-legal (the kit
    /// judges check, and generates the piece's data moves beside them). Each is a board move from
    /// `from`; `piece` of the move is the type the mover ends as (the kit adds no promotion
    /// choices of its own). A move onto a piece takes it off the board: an enemy is captured, a
    /// friend is lifted for [`Hooks::after_move`] to put somewhere. The kit may call this
    /// several times for one position (its attack tests do), so it must depend on the position only.
    fn piece_moves(&self, _pos: &Position, _from: Cell, _piece: Piece, _out: &mut Vec<Move>) -> Result<(), RuleError> {
        Ok(())
    }

    /// Where the movement callback of `piece` is written (a script's file:line:col), for the kit's
    /// errors about what it returned.
    fn callback_location(&self, _piece: PieceId) -> Option<crate::model::error::SourceLocation> {
        None
    }

    /// The piece types whose drops [`Hooks::drop_cells`] decides. Asked once, when the variant is built.
    fn drop_callbacks(&self, _info: &VariantInfo) -> Result<Vec<PieceId>, RuleError> {
        Ok(Vec::new())
    }

    /// Where `side` may drop a piece of type `ty`: `cells` comes with the cells the data rules
    /// allow (empty, not dead, within limits, nifu) and is left holding the cells the variant
    /// allows; the kit checks each is empty. The no-mate rule still applies after it.
    fn drop_cells(
        &self,
        _pos: &Position,
        _ty: PieceId,
        _side: crate::model::side::Side,
        _cells: &mut Vec<Cell>,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Which moves have an effect ([`Hooks::after_move`]), if any. Asked once, when the variant
    /// is built.
    fn effect_trigger(&self, _info: &VariantInfo) -> Result<Option<EffectTrigger>, RuleError> {
        Ok(None)
    }

    /// A move's effect: called after the kit has made `played.mv` on `pos` (the turn already
    /// passed to the opponent; `before` is the position the move was played in), it may change anything in `pos` — pieces, hands, the rule's own
    /// counters ([`crate::model::position::RULE_COUNTERS`]) — but not the side to move. Returns
    /// whether the mover moves again (the kit then hands the turn back). The kit judges the move's
    /// legality after the effect: the mover must still have a royal, and its last royal must not
    /// be attacked.
    fn after_move(&self, _pos: &mut Position, _before: &Position, _played: &Played) -> Result<bool, RuleError> {
        Ok(false)
    }

    /// A search begins (a perft, an AI search, a game's replay): hooks that run foreign code bound
    /// its total time per search from here, beside any limit per call ([`crate::Variant::begin_search`]).
    fn begin_search(&self) {}

    /// The search begun last ends.
    fn end_search(&self) {}
}
