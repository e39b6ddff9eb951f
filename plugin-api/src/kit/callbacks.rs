//! Movement callbacks: pieces whose moves a hook computes ([`Hooks::piece_moves`]), beside their
//! data moves.
//!
//! The kit asks the hook only for pieces of the callback types, and keeps the answers per thread in
//! a small table keyed by the position's hash, the cell and the piece: the attack tests of a
//! legality check and the move generation of the next ply ask about the same positions. A
//! callback's declared reach ([`super::hooks::MoveCallback::reach`]) decides which cells it can
//! attack, so a check test asks the hook only when a callback piece could reach the royal.
//!
//! Attack tests cannot fail, but a hook can. An error met inside one is held here and returned by
//! the move generation (or the outcome) that asked, so it is never lost and never a panic.
//!
//! [`Hooks::piece_moves`]: super::hooks::Hooks::piece_moves

use std::cell::RefCell;

use super::compiled::KitVariant;
use super::tables::Tables;
use crate::model::error::RuleError;
use crate::model::geometry::{Cell, NO_CELL};
use crate::model::moves::{Move, MoveKind};
use crate::model::piece::Piece;
use crate::model::position::Position;
use crate::model::side::Side;

/// Entries in each thread's table of callback answers (direct-mapped).
const CACHE_SLOTS: usize = 4096;

/// One remembered answer: which variant, position, cell and piece it is for, and the moves.
#[derive(Default)]
struct Answer {
    variant: u64,
    hash: u64,
    cell: Cell,
    piece: Option<Piece>,
    moves: Vec<Move>,
}

/// A thread's remembered answers, and the first error an attack test met.
struct CallbackState {
    answers: Vec<Answer>,
    held: Option<RuleError>,
}

thread_local! {
    static STATE: RefCell<CallbackState> =
        RefCell::new(CallbackState { answers: Vec::new(), held: None });
}

/// Keeps the first error met where it cannot be returned (inside an attack test).
pub(crate) fn hold_error(e: RuleError) {
    STATE.with_borrow_mut(|s| {
        s.held.get_or_insert(e);
    });
}

/// Returns the error an attack test met since the last call, if any.
pub(crate) fn take_held_error() -> Result<(), RuleError> {
    match STATE.with_borrow_mut(|s| s.held.take()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The cells each callback type can capture on, blockers ignored: its declared reach compiled as
/// move tables, or everywhere.
#[derive(Debug)]
pub(crate) struct Reach {
    tables: Tables,
    /// Per type: the callback has no declared reach, so it may capture anywhere.
    everywhere: Vec<bool>,
}

impl Reach {
    pub(crate) fn new(tables: Tables, everywhere: Vec<bool>) -> Reach {
        Reach { tables, everywhere }
    }

    /// Whether a piece of `ty` of `side` on `from` could capture on `target` by its callback.
    pub(crate) fn covers(&self, ty: u8, side: Side, from: Cell, target: Cell) -> bool {
        self.everywhere[ty as usize]
            || (self.tables.gens(ty, side, from).iter()).any(|g| self.tables.span(g.ray).contains(&target))
    }
}

impl KitVariant {
    /// Appends the callback moves of `piece` on `from`, from the thread's table when this
    /// position was asked before; each is checked before the kit uses it.
    pub(crate) fn callback_moves(
        &self,
        pos: &Position,
        from: Cell,
        piece: Piece,
        out: &mut Vec<Move>,
    ) -> Result<(), RuleError> {
        let Some(hooks) = &self.hooks else { return Ok(()) };
        let hash = pos.hash() ^ (from as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = (hash as usize ^ (self.id as usize).wrapping_mul(31)) % CACHE_SLOTS;
        let found = STATE.with_borrow(|s| {
            let a = s.answers.get(slot)?;
            (a.variant == self.id && a.hash == hash && a.cell == from && a.piece == Some(piece)).then(|| {
                out.extend_from_slice(&a.moves);
            })
        });
        if found.is_some() {
            return Ok(());
        }
        let start = out.len();
        hooks.piece_moves(pos, from, piece, out)?;
        for &mv in &out[start..] {
            self.check_callback_move(pos, from, piece, mv)?;
        }
        STATE.with_borrow_mut(|s| {
            if s.answers.is_empty() {
                s.answers.resize_with(CACHE_SLOTS, Answer::default);
            }
            let a = &mut s.answers[slot];
            (a.variant, a.hash, a.cell, a.piece) = (self.id, hash, from, Some(piece));
            a.moves.clear();
            a.moves.extend_from_slice(&out[start..]);
        });
        Ok(())
    }

    /// A callback's move must be a board move of its piece to a cell of the board, and capture
    /// only within the callback's reach.
    fn check_callback_move(&self, pos: &Position, from: Cell, piece: Piece, mv: Move) -> Result<(), RuleError> {
        let name = &self.info.pieces[piece.ty as usize].name;
        let bad = |why: String| {
            let location = self.hooks.as_ref().and_then(|h| h.callback_location(piece.ty));
            Err(RuleError { message: format!("the move callback of the {name}: {why}"), location })
        };
        let on_board = |c: Cell| self.geometry.exists(c);
        if mv.kind != MoveKind::Board || mv.from != from {
            return bad(format!("returned a move that is not the piece's own ({mv:?})"));
        }
        if !on_board(mv.to) || (mv.via != NO_CELL && !on_board(mv.via)) {
            return bad("returned a move to a cell that is not on the board".into());
        }
        if mv.piece as usize >= self.info.pieces.len() {
            return bad(format!("returned a move that ends as piece type {}, which does not exist", mv.piece));
        }
        let Some(reach) = &self.reach else { return Ok(()) };
        for c in [mv.via, mv.to] {
            let captures = c != NO_CELL && c != from && pos.piece_at(c).is_some_and(|q| q.side != piece.side);
            if captures && !reach.covers(piece.ty, piece.side, from, c) {
                let cell = crate::notation::cell_name(&self.geometry, c);
                return bad(format!(
                    "returned a capture on {cell}, outside the reach it declared; widen the reach \
                     (or drop it: the kit then asks the callback about every cell)"
                ));
            }
        }
        Ok(())
    }

    /// Whether some callback piece of `by` could capture on `target` by its reach, blockers ignored.
    pub(crate) fn callback_reaches(&self, pos: &Position, target: Cell, by: Side) -> bool {
        let Some(reach) = &self.reach else { return false };
        (pos.cells().iter().enumerate()).any(|(c, p)| {
            p.is_some_and(|p| p.side == by && self.callback[p.ty as usize] && reach.covers(p.ty, by, c as Cell, target))
        })
    }

    /// Whether a callback piece of `by` captures on `target` by one of its callback moves (its data
    /// moves are the attack probes' business). A hook error is held for the caller's caller.
    pub(crate) fn callback_attacks(&self, pos: &Position, target: Cell, by: Side) -> bool {
        let Some(reach) = &self.reach else { return false };
        let mut moves = Vec::new();
        for (c, p) in pos.cells().iter().enumerate() {
            let Some(p) = *p else { continue };
            if p.side != by || !self.callback[p.ty as usize] || !reach.covers(p.ty, by, c as Cell, target) {
                continue;
            }
            moves.clear();
            if let Err(e) = self.callback_moves(pos, c as Cell, p, &mut moves) {
                hold_error(e);
                return false;
            }
            if moves.iter().any(|m| m.to == target || m.via == target) {
                return true;
            }
        }
        false
    }
}
