//! A bitboard engine for shogi-family variants: the fast path that compiled plugins build on.
//!
//! It plays the same [`RuleSet`] as the rules kit, restricted to what bitboards do best — a flat
//! board of at most 64 or 128 cells (`u64` or `u128`, chosen by the plugin to fit its board), up to
//! 16 piece types whose moves are plain steps, leaps and slides along the eight lines, royals that
//! must not be left in check — and in exchange it is several times faster than the kit:
//!
//! - attack sets per type, side and cell, and rays per direction, are precomputed (`tables`);
//!   a slide is one lookup and one lowest/highest-bit search per direction;
//! - legality comes from checkers, interposition lines and pins computed once per position, not
//!   from trying moves (`movegen`);
//! - the position is bitboards per side and per type plus a cell array, updated incrementally and
//!   copied rather than unmade (`board`);
//! - generation writes into the caller's buffer, and perft's last ply is counted with popcounts
//!   without generating moves at all.
//!
//! Rules outside that scope (3D or holed boards, lame or hopping moves, hooks, royals that may be
//! left in check) are refused when the variant is built; such variants run on the kit.
//!
//! [`RuleSet`]: crate::rules::RuleSet
//!
//! ```
//! use henka_api::bitboard::BitboardVariant;
//! use henka_api::{rules::{PieceRule, RuleSet}, GeometrySpec, Metadata, Variant};
//! let piece = |name: &str, token: &str, moves: &str| PieceRule::new(name, token, moves).unwrap();
//! let meta = Metadata { name: "Kings and a rook".into(), ..Metadata::default() };
//! let rules = RuleSet {
//!     pieces: vec![piece("King", "K", "K").royal(), piece("Rook", "R", "R")],
//!     ..RuleSet::new(meta, GeometrySpec::flat(3, 3), "k2/3/KR1 b - 1")
//! };
//! let v = BitboardVariant::<u64>::new(rules).unwrap();
//! assert_eq!(v.perft(&v.start_position(), 1).unwrap(), 3);
//! ```

mod bits;
mod board;
mod compiled;
mod movegen;
mod tables;

pub use bits::{Bits, CellIter};
pub use compiled::{BitboardError, BitboardVariant};

use crate::model::description::VariantInfo;
use crate::model::error::RuleError;
use crate::model::geometry::Geometry;
use crate::model::moves::Move;
use crate::model::outcome::{EndReason, HistoryEntry, Outcome};
use crate::model::position::Position;
use crate::rules::BaringRule;
use crate::variant::Variant;
use board::Board;
use movegen::{Count, List};

impl<B: Bits> BitboardVariant<B> {
    fn count_moves(&self, b: &Board<B>) -> u64 {
        let mut n = Count(0);
        self.generate(b, &mut n);
        n.0
    }
}

impl<B: Bits> Variant for BitboardVariant<B> {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        out.clear();
        self.generate(&Board::from_position(pos), &mut List(out));
        Ok(())
    }

    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        let mut b = Board::<B>::from_position(pos);
        b.make(mv, &self.hand_rule);
        b.store(pos);
        Ok(())
    }

    fn in_check(&self, pos: &Position) -> bool {
        let b = Board::<B>::from_position(pos);
        self.royal_attacked(&b, b.stm)
    }

    /// The kit's end rules, in the kit's order: royal lost, baring, no legal move, repetition.
    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let b = Board::<B>::from_position(pos);
        let stm = b.stm;
        let royals = self.royals(&b, stm);
        if self.royal_types != 0 && royals.is_empty() {
            return Ok(Some(Outcome::win(stm.opponent(), EndReason::RoyalCaptured)));
        }
        let bare = b.by_side[stm.index()] == royals && b.hands[stm.index()].iter().all(|&n| n == 0);
        if self.rules.baring == BaringRule::BoardAndHand && self.royal_types != 0 && bare {
            return Ok(Some(Outcome::win(stm.opponent(), EndReason::Baring)));
        }
        if self.count_moves(&b) == 0 {
            return Ok(Some(if self.royal_attacked(&b, stm) {
                Outcome::win(stm.opponent(), EndReason::Checkmate)
            } else {
                self.rules.stalemate.outcome(stm)
            }));
        }
        Ok(self.rules.repetition.judge(pos, history, || self.royal_attacked(&b, stm)))
    }

    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        if depth == 0 {
            return Ok(1);
        }
        let mut bufs: Vec<Vec<Move>> = (1..depth).map(|_| Vec::with_capacity(256)).collect();
        Ok(self.perft_board(&Board::from_position(pos), depth, &mut bufs))
    }
}

#[cfg(test)]
mod tests;
