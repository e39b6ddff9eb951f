//! Swap shogi (docs/rules/swap-shogi.md) as a plugin: the rules kit with the script's movement
//! callback and move effect written as Rust [`Hooks`], so `henka verify swap-shogi` compares
//! `scripts/swap-shogi.rhai` with the same rule compiled. The Changer steps like a King (data) and
//! may step onto a friend beside it (callback), the friend taking its old cell (effect).

use henka_api::kit::{EffectTrigger, Hooks, KitVariant, MoveCallback, Played};
use henka_api::rules::shogi_pieces::piece;
use henka_api::rules::{PromotionRule, RuleSet};
use henka_api::{Cell, Geometry, GeometrySpec, Metadata, Move, Piece, PieceId, Position, RuleError, VariantInfo};

/// The Changer's type: the sixth piece, as the script declares it.
const CHANGER: PieceId = 5;

/// The script's rules, piece for piece in its order.
pub fn swap_shogi() -> RuleSet {
    let meta = Metadata {
        name: "Swap shogi".into(),
        author: "Henka gallery".into(),
        version: "1.0".into(),
        description: "Minishogi without drops or promotion; the Changer steps like a King or swaps places \
                      with a friend beside it (compiled plugin)."
            .into(),
    };
    RuleSet {
        promotion: PromotionRule { zone_depth: 0, ..Default::default() },
        drops: false,
        ..RuleSet::new(meta, GeometrySpec::flat(5, 5), "rbxgk/4p/5/P4/KGXBR b - 1")
    }
    .with_pieces([
        (piece("King", "K", "K").royal(), None),
        (piece("Gold", "G", "WfF"), None),
        (piece("Rook", "R", "R"), None),
        (piece("Bishop", "B", "B"), None),
        (piece("Pawn", "P", "fW"), None),
        (piece("Changer", "X", "K"), None),
    ])
}

/// The swap, in Rust.
#[derive(Debug)]
struct Swaps {
    board: Geometry,
}

impl Hooks for Swaps {
    fn has_outcome(&self) -> bool {
        false
    }

    fn move_callbacks(&self, _info: &VariantInfo) -> Result<Vec<MoveCallback>, RuleError> {
        Ok(vec![MoveCallback { piece: CHANGER, reach: Some("K".into()) }])
    }

    /// A move onto each friend on the eight cells around.
    fn piece_moves(&self, pos: &Position, from: Cell, piece: Piece, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let (f, r, _) = self.board.coords(from);
        for (df, dr) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            if let Some(to) = self.board.cell(f + df, r + dr, 0)
                && pos.piece_at(to).is_some_and(|q| q.side == piece.side)
            {
                out.push(Move::board(from, to, piece.ty));
            }
        }
        Ok(())
    }

    fn effect_trigger(&self, _info: &VariantInfo) -> Result<EffectTrigger, RuleError> {
        Ok(EffectTrigger::Movers(vec![CHANGER]))
    }

    /// The friend the kit lifted goes to the Changer's old cell.
    fn after_move(&self, pos: &mut Position, _before: &Position, played: &Played) -> Result<bool, RuleError> {
        for (_, p) in played.taken().filter(|(_, p)| p.side == played.side) {
            pos.set(played.mv.from, Some(p));
        }
        Ok(false)
    }
}

fn variant() -> KitVariant {
    let board = Geometry::new(&GeometrySpec::flat(5, 5)).expect("a 5×5 board");
    KitVariant::new(swap_shogi(), Some(std::sync::Arc::new(Swaps { board }))).expect("valid rules")
}

henka_api::export_variant!(KitVariant, variant());
