//! What rule code may ask about a position, answered by the kit's own move generator and attack
//! tests: the queries a script hook's position handle calls (docs/scripting.md, "Hooks"). Each is
//! native code; none changes the position or calls a hook, so a hook may call any of them
//! without recursion.

use super::compiled::KitVariant;
use super::movegen::MoveSet;
use crate::model::error::RuleError;
use crate::model::geometry::Cell;
use crate::model::moves::{Move, MoveKind};
use crate::model::position::Position;
use crate::model::side::Side;

impl KitVariant {
    /// Whether some piece of `by` attacks `cell` (could capture there if it were `by`'s move),
    /// by the same test the kit's check rule uses.
    pub fn attacks(&self, pos: &Position, cell: Cell, by: Side) -> bool {
        self.attacked(pos, cell, by)
    }

    /// Whether `side` is in check: it has exactly one royal and that royal is attacked.
    pub fn side_in_check(&self, pos: &Position, side: Side) -> bool {
        self.last_royal_attacked(pos, side)
    }

    /// The cells of `side`'s royal pieces on the board, in cell order.
    pub fn royal_cells(&self, pos: &Position, side: Side) -> Vec<Cell> {
        (pos.cells().iter().enumerate())
            .filter(|(_, p)| matches!(p, Some(p) if p.side == side && self.is_royal[p.ty as usize]))
            .map(|(c, _)| c as Cell)
            .collect()
    }

    /// The side to move's legal moves by the data rules alone: check, drops, limits and the
    /// capture hook apply; the move filter and declared results (end rules, `game_end`) do not,
    /// so the hooks that are those rules can ask for them.
    pub fn rule_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let mut scratch = pos.clone();
        match &self.field {
            Some(f) => self.field_moves(f, &mut scratch, out),
            None => self.gen_moves(&mut scratch, out, false, MoveSet::All),
        }
    }

    /// The moves of the piece on `cell`, as [`KitVariant::rule_moves`] gives them when it is its
    /// side's turn (whoever is to move in `pos`); none for an empty cell.
    pub fn rule_moves_from(&self, pos: &Position, cell: Cell, out: &mut Vec<Move>) -> Result<(), RuleError> {
        out.clear();
        let Some(piece) = pos.piece_at(cell) else { return Ok(()) };
        let mut turn = pos.clone();
        turn.set_side_to_move(piece.side);
        self.rule_moves(&turn, out)?;
        out.retain(|m| m.kind == MoveKind::Board && m.from == cell);
        Ok(())
    }
}
