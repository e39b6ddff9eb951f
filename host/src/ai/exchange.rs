//! Static exchange evaluation (SEE): what a move wins or loses on its target cell once both
//! sides have taken there in turn, each with its cheapest attacker and each free to stop, without
//! searching. The search uses it to put captures that lose material after the killers and to
//! leave them out of the quiescence search.
//!
//! It needs the variant to list the attackers of a cell ([`Variant::attackers`]); where it
//! cannot, [`Exchange::evaluate`] says `None` and the search falls back to its slower two-ply
//! test. Pins are not looked at, and a piece that would promote on a recapture is counted
//! unpromoted: an estimate, as in every engine, never a rule.

use henka_api::{Cell, Move, MoveKind, NO_CELL, Piece, Position, Side, Variant};

use super::values::PieceValues;

/// A static exchange evaluator for one variant, with reused buffers (one per search thread).
#[derive(Clone, Debug)]
pub struct Exchange {
    /// Which piece types are royal: a royal takes only where nothing takes it back.
    royal: Vec<bool>,
    /// The position as the exchange goes on: each piece that has taken is lifted off its cell,
    /// which also uncovers the line pieces behind it.
    board: Position,
    attackers: Vec<Cell>,
    /// The other side's attackers, asked only when a royal would take.
    defenders: Vec<Cell>,
    /// The balance after each capture, from the capturing side's view, were it the last.
    gains: Vec<i32>,
}

impl Exchange {
    pub fn new(v: &dyn Variant) -> Exchange {
        Exchange {
            royal: v.info().pieces.iter().map(|p| p.royal).collect(),
            board: Position::empty(v.geometry().len(), v.info().pieces.len()),
            attackers: Vec::new(),
            defenders: Vec::new(),
            gains: Vec::new(),
        }
    }

    /// The material the mover of `mv` (legal in `pos`) has won, negative if lost, when the
    /// exchange on its target is over, by board `values`. `None` where the variant cannot list
    /// attackers, or for a move that is not a plain board move or drop (a pass, a move with a
    /// stop on the way).
    pub fn evaluate(&mut self, v: &dyn Variant, pos: &Position, mv: Move, values: &PieceValues) -> Option<i32> {
        let me = pos.side_to_move();
        let to = mv.to;
        // The balance so far, and the value of the piece standing on the target.
        let (balance, mut at_stake) = match mv.kind {
            MoveKind::Board if mv.via == NO_CELL || mv.via == mv.from || mv.via == to => {
                let mover = pos.piece_at(mv.from)?;
                let victim = pos.piece_at(to).filter(|p| p.side != me).map_or(0, |p| values.board(p.ty));
                let promoted = values.board(mv.piece);
                (victim + promoted - values.board(mover.ty), promoted)
            }
            MoveKind::Drop => (0, values.board(mv.piece)),
            _ => return None,
        };
        self.board.clone_from(pos);
        if mv.kind == MoveKind::Board {
            self.board.set(mv.from, None);
        }
        self.board.set(to, Some(Piece::new(mv.piece, me)));
        self.gains.clear();
        self.gains.push(balance);
        let mut side = me.opponent();
        loop {
            if !v.attackers(&self.board, to, side, &mut self.attackers) {
                return None;
            }
            let board = &self.board;
            let cheapest = self
                .attackers
                .iter()
                .filter_map(|&c| board.piece_at(c).map(|p| (c, p.ty)))
                .min_by_key(|&(_, ty)| values.board(ty));
            let Some((cell, ty)) = cheapest else { break };
            if self.royal[ty as usize] && self.defended(v, to, side) {
                break;
            }
            let last = self.gains[self.gains.len() - 1];
            self.gains.push(at_stake - last);
            // Neither side can come out ahead by going on: the result is settled.
            if (-last).max(at_stake - last) < 0 {
                break;
            }
            at_stake = values.board(ty);
            self.board.set(cell, None);
            self.board.set(to, Some(Piece::new(ty, side)));
            side = side.opponent();
        }
        // Back from the last capture: each side takes only if that beats stopping.
        while self.gains.len() > 1 {
            let next = self.gains.pop().unwrap_or_default();
            let last = self.gains.len() - 1;
            self.gains[last] = -(-self.gains[last]).max(next);
        }
        Some(self.gains[0])
    }

    /// Whether `side`'s opponent attacks `cell` on the exchange's board (so `side`'s royal may
    /// not take there).
    fn defended(&mut self, v: &dyn Variant, cell: Cell, side: Side) -> bool {
        v.attackers(&self.board, cell, side.opponent(), &mut self.defenders) && !self.defenders.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::order::victim_value;
    use super::*;

    fn shogi() -> Arc<dyn Variant> {
        crate::catalog::bundled_script("shogi").variant
    }

    /// The exchange's result for `mv` in `position`, and the values it was reckoned with.
    fn see(v: &Arc<dyn Variant>, position: &str, mv: &str) -> (Option<i32>, PieceValues) {
        let pos = v.parse_position(position).unwrap();
        let mv = v.parse_move(&pos, mv).unwrap();
        let values = PieceValues::estimate(v.as_ref(), &[]);
        (Exchange::new(v.as_ref()).evaluate(v.as_ref(), &pos, mv, &values), values)
    }

    /// The value of the unpromoted piece written `token`.
    fn value(v: &Arc<dyn Variant>, values: &PieceValues, token: &str) -> i32 {
        let ty = v.info().pieces.iter().position(|p| p.token == token && !p.promoted).unwrap();
        values.board(ty as henka_api::PieceId)
    }

    #[test]
    fn a_drop_the_opponent_takes_for_free_loses_the_piece() {
        let v = shogi();
        let (s, values) = see(&v, "4k4/9/4p4/9/9/9/9/9/4K4 b S 1", "S*5d");
        assert_eq!(s, Some(-value(&v, &values, "S")));
        // Somewhere the pawn does not reach, nothing is lost.
        assert_eq!(see(&v, "4k4/9/4p4/9/9/9/9/9/4K4 b S 1", "S*6e").0, Some(0));
    }

    #[test]
    fn a_defended_drop_trades_the_piece_for_the_taker() {
        let v = shogi();
        // The pawn takes the Silver, and Black's pawn takes the pawn back.
        let (s, values) = see(&v, "4k4/9/4p4/9/4P4/9/9/9/4K4 b S 1", "S*5d");
        assert_eq!(s, Some(value(&v, &values, "P") - value(&v, &values, "S")));
    }

    #[test]
    fn a_line_piece_behind_the_taker_joins_the_exchange() {
        let v = shogi();
        // Rook takes the pawn, the Gold takes the Rook, the second Rook (behind the first)
        // takes the Gold: Black gains a pawn and a Gold for a Rook.
        let position = "k8/5g3/4p4/9/9/9/9/4R4/4R3K b - 1";
        let (s, values) = see(&v, position, "5h5c");
        let expected = value(&v, &values, "P") + value(&v, &values, "G") - value(&v, &values, "R");
        assert_eq!(s, Some(expected));
    }

    #[test]
    fn a_king_does_not_take_a_defended_piece() {
        let v = shogi();
        // The Gold checks from 5b; the King cannot take it, for the pawn guards it.
        assert_eq!(see(&v, "4k4/9/4P4/9/9/9/9/9/K8 b G 1", "G*5b").0, Some(0));
        let (s, values) = see(&v, "4k4/9/9/9/9/9/9/9/K8 b G 1", "G*5b");
        assert_eq!(s, Some(-value(&v, &values, "G")));
    }

    /// Over the moves of random shogi positions: an exchange ends between its worst case (the
    /// piece that moved is lost) and what the move itself takes and gains by promoting; and
    /// every move is weighed (shogi's attacks are data).
    #[test]
    fn an_exchange_ends_between_its_worst_and_best_cases() {
        let v = shogi();
        let values = PieceValues::estimate(v.as_ref(), &[]);
        let mut exchange = Exchange::new(v.as_ref());
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        let mut moves = Vec::new();
        let mut weighed = 0;
        for _game in 0..8 {
            let mut pos = v.start_position();
            for _ply in 0..80 {
                v.legal_moves(&pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    let s = exchange.evaluate(v.as_ref(), &pos, mv, &values).expect("shogi lists attackers");
                    // Worst: the piece that ends on the target is lost; best: nothing is taken back.
                    let moved = match mv.kind {
                        MoveKind::Board => values.board(pos.piece_at(mv.from).unwrap().ty),
                        _ => values.board(mv.piece),
                    };
                    let worst = victim_value(&pos, mv, &values) - moved;
                    let best = worst + values.board(mv.piece);
                    assert!(
                        (worst..=best).contains(&s),
                        "{} in {}: {s} outside {worst}..={best}",
                        v.format_move(&pos, mv),
                        v.format_position(&pos)
                    );
                    weighed += 1;
                }
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let mv = moves[(rng >> 33) as usize % moves.len()];
                v.play(&mut pos, mv).unwrap();
            }
        }
        assert!(weighed > 10_000, "{weighed}");
    }

    #[test]
    fn a_variant_that_cannot_list_attackers_gets_no_answer() {
        struct Opaque(Arc<dyn Variant>);
        impl Variant for Opaque {
            fn info(&self) -> &henka_api::VariantInfo {
                self.0.info()
            }
            fn geometry(&self) -> &henka_api::Geometry {
                self.0.geometry()
            }
            fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), henka_api::RuleError> {
                self.0.legal_moves(pos, out)
            }
            fn play(&self, pos: &mut Position, mv: Move) -> Result<(), henka_api::RuleError> {
                self.0.play(pos, mv)
            }
            fn in_check(&self, pos: &Position) -> bool {
                self.0.in_check(pos)
            }
            fn outcome(
                &self,
                pos: &Position,
                history: &[henka_api::HistoryEntry],
            ) -> Result<Option<henka_api::Outcome>, henka_api::RuleError> {
                self.0.outcome(pos, history)
            }
        }
        let v: Arc<dyn Variant> = Arc::new(Opaque(shogi()));
        assert_eq!(see(&v, "4k4/9/4p4/9/9/9/9/9/4K4 b S 1", "S*5d").0, None);
    }
}
