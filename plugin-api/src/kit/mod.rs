//! The rules kit: a [`RuleSet`] (data) plus optional [`Hooks`] (code) becomes a fast [`Variant`].
//!
//! Building precomputes every ray, leap, zone, dead cell and attack probe (see `tables`), so move
//! generation never does coordinate arithmetic; multi-leg moves (lions, hoppers, hooks, area moves)
//! are walked by a small interpreter over a neighbour table (see `paths`). Standard mechanics —
//! promotion zones (optional, mandatory, forced on dead cells unless immobile pieces are allowed),
//! promotion by capture, drops with nifu, no-drop-mate and dead-cell bans, check (enforced,
//! optional with mate, or ignored), mate and stalemate, several royals, a limit on consecutive
//! passes, royals immune to certain captors when protected, repetition with perpetual check,
//! baring — are switched on by data.
//!
//! Inside, each file imports only the ones listed before it:
//! - `tables`, `paths`, `limits`, `support`, `hooks`, `field_tables`: what a rule set compiles to
//!   (per-cell moves and attack probes, multi-leg paths, per-type limits, support on a field, the
//!   hooks' trait, an open field's own tables);
//! - `compiled`: [`KitVariant`] itself, built from those;
//! - `callbacks`: pieces whose moves a hook computes, with the kit's table of their answers;
//! - `movegen`: moves on a board — generation, legality, make/unmake, move effects;
//! - `field`: play on an open field, built on `movegen`'s make/unmake;
//! - this file: the [`Variant`] the rest of Henka sees, which sends each call to the board or the
//!   field.
//!
//! [`RuleSet`]: crate::rules::RuleSet

use std::cell::RefCell;

mod callbacks;
mod compiled;
mod field;
mod field_tables;
mod hooks;
mod limits;
mod movegen;
mod paths;
mod query;
mod support;
mod tables;

pub use compiled::{KitError, KitVariant};
pub use hooks::{EffectTrigger, Hooks, MoveCallback, Played};
pub use support::Support;

use field::FieldNode;
use movegen::MoveSet;

use crate::model::description::VariantInfo;
use crate::model::error::RuleError;
use crate::model::geometry::{Cell, Geometry};
use crate::model::moves::{Move, MoveKind};
use crate::model::outcome::{EndReason, HistoryEntry, Outcome};
use crate::model::piece::PieceId;
use crate::model::position::Position;
use crate::model::side::Side;
use crate::rules::{BaringRule, CheckRule};
use crate::variant::Variant;

thread_local! {
    /// The position that move generation plays its trial moves on, kept per thread: a search
    /// asks for moves at every node, and a fresh copy each time was two allocations.
    static SCRATCH: RefCell<Option<Position>> = const { RefCell::new(None) };
}

/// Runs `f` on a copy of `pos` it may change: the thread's scratch, or a fresh copy when that is
/// in use (a hook that asks for moves while moves are being generated).
fn with_scratch<R>(pos: &Position, f: impl FnOnce(&mut Position) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let scratch = match slot.as_mut() {
                Some(scratch) => {
                    scratch.clone_from(pos);
                    scratch
                }
                None => slot.insert(pos.clone()),
            };
            f(scratch)
        }
        Err(_) => f(&mut pos.clone()),
    })
}

impl KitVariant {
    fn side_is_bare(&self, pos: &Position, side: Side) -> bool {
        pos.hand_is_empty(side) && pos.cells().iter().flatten().all(|p| p.side != side || self.is_royal[p.ty as usize])
    }
}

impl Variant for KitVariant {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        with_scratch(pos, |scratch| match &self.field {
            Some(f) => self.field_legal(f, scratch, out),
            None => self.gen_legal(scratch, out, MoveSet::All),
        })
    }

    fn legal_captures(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let Some(f) = &self.field else {
            return with_scratch(pos, |scratch| self.gen_legal(scratch, out, MoveSet::Captures));
        };
        with_scratch(pos, |scratch| self.field_legal(f, scratch, out))?;
        out.retain(|&mv| pos.is_capture(mv));
        Ok(())
    }

    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        self.make_full(pos, mv).map(drop)
    }

    fn in_check(&self, pos: &Position) -> bool {
        self.last_royal_attacked(pos, pos.side_to_move())
    }

    fn gives_check_unplayed(&self, pos: &Position, mv: Move) -> Option<bool> {
        let side = pos.side_to_move();
        match mv.kind {
            // Where check must be escaped, the enemy royal is not attacked before the drop, and a
            // piece set down only blocks other pieces' lines: the check, if any, is the dropped
            // piece's own. Only a last royal can be in check.
            MoveKind::Drop if self.drops_only_add_attacks() => Some(
                self.lone_royal(pos, side.opponent())
                    .is_some_and(|royal| self.gives_check_from(pos, mv.piece, side, mv.to, royal)),
            ),
            // A board move can check directly or by opening a line: the probes look at the board
            // the move leaves.
            MoveKind::Board if self.attacks_are_data() => {
                Some(self.lone_royal(pos, side.opponent()).is_some_and(|royal| self.board_move_checks(pos, mv, royal)))
            }
            _ => None,
        }
    }

    fn attackers(&self, pos: &Position, cell: Cell, by: Side, out: &mut Vec<Cell>) -> bool {
        KitVariant::attackers(self, pos, cell, by, out)
    }

    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let stm = pos.side_to_move();
        // A royal still in hand (a field's Gyoku before its placement) is not lost.
        let royal_left = pos.cells().iter().flatten().any(|p| p.side == stm && self.is_royal[p.ty as usize])
            || (0..self.is_royal.len())
                .any(|t| self.is_royal[t] && self.holdable[t] && pos.hand(stm, t as PieceId) > 0);
        if self.has_royals && !royal_left {
            return Ok(Some(Outcome::win(stm.opponent(), EndReason::RoyalCaptured)));
        }
        if self.declares_ends
            && let Some(o) = self.declared_end(pos, history)?
        {
            return Ok(Some(o));
        }
        if self.rules.baring == BaringRule::BoardAndHand && self.has_royals && self.side_is_bare(pos, stm) {
            return Ok(Some(Outcome::win(stm.opponent(), EndReason::Baring)));
        }
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves)?;
        let checked = self.rules.check != CheckRule::Ignore && self.in_check(pos);
        if moves.is_empty() {
            // Move generation judges declared results without the history; a hook whose answer
            // depends on it may have decided there what it did not decide above. The position
            // has no moves either way, so its result is the one that removed them.
            if self.declares_ends
                && let Some(o) = self.declared_end(pos, &[])?
            {
                return Ok(Some(o));
            }
            return Ok(Some(if checked {
                Outcome::win(stm.opponent(), EndReason::Checkmate)
            } else {
                self.rules.stalemate.outcome(stm)
            }));
        }
        if checked && self.rules.check == CheckRule::Optional && !self.some_move_escapes(pos, &moves)? {
            return Ok(Some(Outcome::win(stm.opponent(), EndReason::Checkmate)));
        }
        let judged = self.rules.repetition.judge(pos, history, || self.in_check(pos));
        // A movement callback's error inside the check tests above.
        callbacks::take_held_error().map(|_| judged)
    }

    fn begin_search(&self) {
        if let Some(h) = &self.hooks {
            h.begin_search();
        }
    }

    fn end_search(&self) {
        if let Some(h) = &self.hooks {
            h.end_search();
        }
    }

    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        if depth == 0 {
            return Ok(1);
        }
        let _search = crate::variant::SearchScope::new(self);
        let mut scratch = pos.clone();
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        match &self.field {
            Some(f) => {
                let node = FieldNode::scan(&scratch)?;
                self.field_perft(f, &mut scratch, &node, depth, &mut bufs)
            }
            None => self.board_perft(&mut scratch, depth, &mut bufs),
        }
    }
}

#[cfg(test)]
mod tests;
