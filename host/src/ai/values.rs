//! What each piece type is worth, estimated from the rules alone so that a design written a
//! minute ago plays sensibly, and overridable per piece by the script (`value:` in a piece map).
//!
//! The estimate is the piece's reach: one piece (and its side's royal, which the rules need to
//! generate moves) on an otherwise empty board, the distinct cells it can move to counted from
//! many cells and averaged. Cells within two steps count fully, farther ones a quarter, because
//! in a real game long rays are blocked: fitted to shogi, this gives Pawn 100, Silver 450, Gold
//! 540, Bishop 760, Rook 990, Dragon 1350 — close to what shogi engines use.

use henka_api::{Cell, Geometry, Move, MoveKind, Piece, PieceId, Position, Side, Variant};

/// Centipawns per cell of near reach (the pawn's forward step is worth about 100).
const NEAR_WEIGHT: f64 = 112.0;
/// A cell beyond [`NEAR_DISTANCE`] counts this fraction of a near one.
const FAR_FRACTION: f64 = 0.25;
const NEAR_DISTANCE: i32 = 2;
/// A piece in hand may go anywhere: worth this much more than the same piece on the board.
const HAND_BONUS: f64 = 1.15;
/// Even a piece that cannot move on an empty board (a hopper, a blocker) is worth something.
const MIN_VALUE: i32 = 30;
/// How many positions the estimate may build in all, so a 115-type variant with script hooks
/// still estimates in well under a second.
const SAMPLE_BUDGET: usize = 2000;

/// Values in centipawns (a pawn-like step piece ≈ 100) per piece type, on the board and in hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceValues {
    board: Vec<i32>,
    hand: Vec<i32>,
}

impl PieceValues {
    /// Estimates every type's value from its reach, then applies `overrides` (by piece id; a list
    /// of another length, e.g. from a script whose pieces differ from this plugin's, is ignored).
    ///
    /// Royal pieces are worth their reach plus the most valuable other piece: losing one where
    /// that is allowed (a variant with several royals) costs more than any trade, and where it is
    /// not, both sides keep theirs and the term cancels.
    pub fn estimate(v: &dyn Variant, overrides: &[Option<i32>]) -> PieceValues {
        let info = v.info();
        let n = info.pieces.len();
        let samples = sample_cells(v.geometry(), SAMPLE_BUDGET / n.max(1));
        let royal_type = info.pieces.iter().position(|p| p.royal).map(|i| i as PieceId);
        let mut board: Vec<i32> = (0..n as PieceId)
            .map(|ty| {
                let reach = average_reach(v, ty, royal_type.filter(|&r| r != ty), &samples);
                ((reach * NEAR_WEIGHT).round() as i32).max(MIN_VALUE)
            })
            .collect();
        let best_other = (0..n).filter(|&i| !info.pieces[i].royal).map(|i| board[i]).max().unwrap_or(0);
        for (i, p) in info.pieces.iter().enumerate() {
            if p.royal {
                board[i] += best_other;
            }
        }
        if overrides.len() == n {
            for (slot, o) in board.iter_mut().zip(overrides) {
                if let Some(value) = o {
                    *slot = *value;
                }
            }
        }
        let hand = board.iter().map(|&b| (b as f64 * HAND_BONUS).round() as i32).collect();
        PieceValues { board, hand }
    }

    /// Values given outright, per piece id (tuned ones, read from a file).
    pub fn from_parts(board: Vec<i32>, hand: Vec<i32>) -> PieceValues {
        PieceValues { board, hand }
    }

    /// Every type's value on the board, by piece id.
    pub fn board_values(&self) -> &[i32] {
        &self.board
    }

    /// Every type's value in hand, by piece id.
    pub fn hand_values(&self) -> &[i32] {
        &self.hand
    }

    /// The value of a piece of this type on the board.
    #[inline]
    pub fn board(&self, ty: PieceId) -> i32 {
        self.board[ty as usize]
    }

    /// The value of a piece of this type in hand.
    #[inline]
    pub fn hand(&self, ty: PieceId) -> i32 {
        self.hand[ty as usize]
    }
}

/// Chebyshev distance between two cells (levels count like files and ranks).
pub fn distance(g: &Geometry, a: Cell, b: Cell) -> i32 {
    let (af, ar, al) = g.coords(a);
    let (bf, br, bl) = g.coords(b);
    (af - bf).abs().max((ar - br).abs()).max((al - bl).abs())
}

/// Up to `limit` real cells spread evenly over the board (all of them on small boards).
fn sample_cells(g: &Geometry, limit: usize) -> Vec<Cell> {
    let cells: Vec<Cell> = g.cells().collect();
    let limit = limit.clamp(16, 128);
    if cells.len() <= limit {
        return cells;
    }
    // An odd stride over the cell order walks across files and ranks alike.
    let stride = (cells.len() / limit) | 1;
    cells.iter().step_by(stride).copied().collect()
}

/// The weighted number of cells a piece of type `ty` reaches from each sample cell, averaged.
/// Samples the rules refuse (a hook error on an odd position) are left out.
fn average_reach(v: &dyn Variant, ty: PieceId, royal: Option<PieceId>, samples: &[Cell]) -> f64 {
    let g = v.geometry();
    let n = v.info().pieces.len();
    let mut moves: Vec<Move> = Vec::new();
    let mut targets: Vec<Cell> = Vec::new();
    let (mut total, mut counted) = (0.0, 0usize);
    for &c in samples {
        let mut pos = Position::empty(g.len(), n);
        pos.set(c, Some(Piece::new(ty, Side::First)));
        if let Some(r) = royal {
            let Some(far) = g.cells().filter(|&x| x != c).max_by_key(|&x| distance(g, c, x)) else { continue };
            pos.set(far, Some(Piece::new(r, Side::First)));
        }
        if v.legal_moves(&pos, &mut moves).is_err() {
            continue;
        }
        targets.clear();
        targets.extend(moves.iter().filter(|m| m.kind == MoveKind::Board && m.from == c).map(|m| m.to));
        targets.sort_unstable();
        targets.dedup();
        total +=
            targets.iter().map(|&t| if distance(g, c, t) <= NEAR_DISTANCE { 1.0 } else { FAR_FRACTION }).sum::<f64>();
        counted += 1;
    }
    if counted == 0 { 0.0 } else { total / counted as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(name: &str) -> (std::sync::Arc<henka_api::kit::KitVariant>, PieceValues) {
        let v = crate::catalog::bundled_script(name).variant;
        let values = PieceValues::estimate(v.as_ref(), &[]);
        (v, values)
    }

    fn value_of(v: &dyn Variant, values: &PieceValues, written: &str) -> i32 {
        let ty = v.info().pieces.iter().position(|p| p.written() == written).unwrap();
        values.board(ty as PieceId)
    }

    #[test]
    fn shogi_values_come_out_in_the_usual_order() {
        let (v, values) = values("shogi");
        let val = |w| value_of(v.as_ref(), &values, w);
        assert!((80..=120).contains(&val("P")), "pawn {}", val("P"));
        assert!(val("P") < val("L") && val("L") < val("S") && val("S") < val("G"));
        assert!(val("G") < val("B") && val("B") < val("R") && val("R") < val("+R"));
        assert!(val("+P") > 4 * val("P"), "a tokin moves like a gold");
        assert!(val("K") > val("+R"), "the king outweighs any other piece");
        let p = v.info().pieces.iter().position(|p| p.token == "P").unwrap() as PieceId;
        assert!(values.hand(p) > values.board(p));
    }

    #[test]
    fn a_script_sets_values_with_the_value_key() {
        let src = r#"
            let v = variant(#{ name: "Valued", board: [5, 5] });
            v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
            v.piece(#{ name: "Pawn", token: "P", moves: "fW", value: 150,
                       promotes: #{ name: "Tokin", moves: "WfF", value: 600 } });
            v.piece(#{ name: "Rook", token: "R", moves: "R" });
            v.promotion(#{ zone: 1 });
            v.setup("4k/5/5/5/PR2K b - 1");
            v
        "#;
        let loaded = crate::script::load_source("valued.rhai", src).unwrap();
        assert_eq!(loaded.piece_values, [None, Some(150), Some(600), None]);
        let values = PieceValues::estimate(loaded.variant.as_ref(), &loaded.piece_values);
        assert_eq!((values.board(1), values.board(2)), (150, 600));
        assert!(values.board(3) > 150, "the rook keeps its estimate");
        let bad = src.replace("value: 150", "value: -3");
        let e = crate::script::load_source("valued.rhai", &bad).unwrap_err();
        assert!(e.to_string().contains("`value` must be from 0 to 100000"), "{e}");
    }

    #[test]
    fn overrides_replace_the_estimate() {
        let (v, _) = values("okisaki");
        let n = v.info().pieces.len();
        let mut overrides = vec![None; n];
        overrides[1] = Some(1234);
        let values = PieceValues::estimate(v.as_ref(), &overrides);
        assert_eq!(values.board(1), 1234);
        // A list that does not fit the piece table is ignored.
        let ignored = PieceValues::estimate(v.as_ref(), &[Some(1)]);
        assert_ne!(ignored.board(0), 1);
    }
}
