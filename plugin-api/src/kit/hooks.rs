//! Hooks: the few places where a variant's rules are code rather than data.
//!
//! The kit calls a hook once per position (never per candidate move) — the capture hook only for
//! the rare moves that capture one of the types it names — so a variant made only of data runs at
//! native speed and a variant with hooks pays only where it needs them.

use std::sync::Arc;

use super::support::Support;
use crate::model::description::VariantInfo;
use crate::model::error::RuleError;
use crate::model::moves::Move;
use crate::model::outcome::{HistoryEntry, Outcome};
use crate::model::piece::{Piece, PieceId};
use crate::model::position::Position;

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

    /// A search begins (a perft, an AI search, a game's replay): hooks that run foreign code bound
    /// its total time per search from here, beside any limit per call ([`crate::Variant::begin_search`]).
    fn begin_search(&self) {}

    /// The search begun last ends.
    fn end_search(&self) {}
}
