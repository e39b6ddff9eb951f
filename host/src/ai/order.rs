//! Move ordering: the best guesses first, so alpha-beta cuts early. The transposition table's
//! move, then captures by most valuable victim / least valuable attacker, then promotions (and
//! any change of piece that gains value, such as a face choice), then the two killer moves of the
//! ply, then captures that lose material to a recapture, then quiet moves by their history score.
//!
//! Hundreds of moves per position are common on big boards, and a cut usually comes within the
//! first few: moves are scored once and picked best-first lazily rather than sorted.

use henka_api::{Move, MoveKind, Position, Side};

use super::values::PieceValues;

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const PROMOTION: i32 = 1 << 27;
const KILLER: [i32; 2] = [(1 << 26) + 1, 1 << 26];
/// Bad captures are scored below this, above every history score.
const HISTORY_MAX: i32 = (1 << 26) - 1;
/// History scores move within ±this: each update moves a score part of the way to the bound, so
/// old lessons fade as new ones come (a cut's bonus, a failed move's malus).
const HISTORY_BOUND: i32 = 16_384;
/// The most one cut adds to a move's history (an eighth of the bound).
const HISTORY_BONUS_MAX: i32 = 2_000;

/// What a move captures, in value: enemy pieces on its stop and its target.
#[inline]
pub fn victim_value(pos: &Position, mv: Move, values: &PieceValues) -> i32 {
    if mv.kind != MoveKind::Board {
        return 0;
    }
    let me = pos.side_to_move();
    let mut v = 0;
    for c in [mv.via, mv.to] {
        if c != henka_api::NO_CELL
            && c != mv.from
            && let Some(p) = pos.piece_at(c)
            && p.side != me
        {
            v += values.board(p.ty);
        }
    }
    v
}

/// Killer moves and history counters, kept across the iterations of one search.
#[derive(Clone, Debug)]
pub struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    /// `[side][drop or board move][piece after the move][target cell]`: a Pawn dropped on a cell
    /// and a Pawn stepping there are different ideas.
    history: Vec<i16>,
    types: usize,
    cells: usize,
}

impl Ordering {
    pub fn new(types: usize, cells: usize) -> Ordering {
        Ordering { killers: Vec::new(), history: vec![0; 2 * 2 * types * cells], types, cells }
    }

    /// Before a new search: killers belong to the old tree; history is halved, not forgotten
    /// (the next move's search meets mostly the same ideas).
    pub fn new_search(&mut self) {
        self.killers.clear();
        for h in &mut self.history {
            *h /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.killers.clear();
        self.history.fill(0);
    }

    #[inline]
    fn history_index(&self, side: Side, mv: Move) -> Option<usize> {
        let to = mv.to as usize;
        let dropped = matches!(mv.kind, MoveKind::Drop | MoveKind::Place) as usize;
        (mv.kind != MoveKind::Pass && to < self.cells && (mv.piece as usize) < self.types)
            .then(|| ((side.index() * 2 + dropped) * self.types + mv.piece as usize) * self.cells + to)
    }

    /// Scores `moves` into `scores` for picking.
    pub fn score(
        &self,
        pos: &Position,
        moves: &[Move],
        tt_move: Option<Move>,
        ply: usize,
        values: &PieceValues,
        scores: &mut Vec<i32>,
    ) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let side = pos.side_to_move();
        scores.clear();
        scores.extend(moves.iter().map(|&mv| {
            if Some(mv) == tt_move {
                return TT_MOVE;
            }
            let victim = victim_value(pos, mv, values);
            let mover = match mv.kind {
                MoveKind::Board => pos.piece_at(mv.from).map_or(0, |p| values.board(p.ty)),
                _ => values.hand(mv.piece),
            };
            if victim > 0 {
                return CAPTURE + victim * 64 - mover / 16;
            }
            let gain = match mv.kind {
                MoveKind::Board => values.board(mv.piece) - mover,
                _ => 0,
            };
            if gain > 0 {
                return PROMOTION + gain;
            }
            if let Some(k) = killers.iter().position(|&k| k == Some(mv)) {
                return KILLER[k];
            }
            self.history_index(side, mv).map_or(0, |i| self.history[i] as i32)
        }));
    }

    /// A quiet move caused a cut at `ply`: remember it as a killer and credit its history; the
    /// quiet moves `tried` before it in vain lose as much.
    pub fn reward(&mut self, side: Side, mv: Move, tried: &[Move], ply: usize, depth: i32) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = history_bonus(depth);
        self.update_history(side, mv, bonus);
        for &m in tried {
            self.update_history(side, m, -bonus);
        }
    }

    /// Moves a history score by `delta` (at most the bound), less the nearer it already is to
    /// the bound on that side, so it never leaves ±[`HISTORY_BOUND`].
    fn update_history(&mut self, side: Side, mv: Move, delta: i32) {
        if let Some(i) = self.history_index(side, mv) {
            let h = self.history[i] as i32;
            self.history[i] = (h + delta - h * delta.abs() / HISTORY_BOUND) as i16;
        }
    }
}

/// What a cut `depth` plies from the horizon adds to the move's history (and takes from the moves
/// tried before it): nearly linear in the depth and a sizeable part of the bound, as in
/// Stockfish. A bonus of 32·depth² against a bound of 65,536 (rounds 1 to 24) learnt so slowly
/// that a 0.1 s search hardly ordered its quiet moves by what it had seen; docs/ai-strength.md,
/// round 25.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (300 * depth - 200).clamp(0, HISTORY_BONUS_MAX)
}

/// Moves the best-scored remaining move to position `i` and returns it.
#[inline]
pub fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}

/// [`pick`] for a node's full move list, which in a drop variant can hold a hundred moves or
/// more. Most nodes cut after a move or two, so the first few are picked by a scan; a node that
/// goes on sorts the rest once, best first (equal scores keep their order), instead of scanning
/// them again for every move. `sorted` belongs to the list (false for a new one); `pairs` is a
/// scratch buffer.
pub fn pick_from_list(
    moves: &mut [Move],
    scores: &mut [i32],
    i: usize,
    sorted: &mut bool,
    pairs: &mut Vec<(i32, Move)>,
) -> Move {
    /// Moves picked by a scan before the rest is sorted.
    const SCANNED: usize = 3;
    if !*sorted && i == SCANNED && moves.len() > 4 * SCANNED {
        pairs.clear();
        pairs.extend(scores[i..].iter().copied().zip(moves[i..].iter().copied()));
        pairs.sort_by_key(|p| std::cmp::Reverse(p.0));
        for (k, &(score, mv)) in pairs.iter().enumerate() {
            scores[i + k] = score;
            moves[i + k] = mv;
        }
        *sorted = true;
    }
    if *sorted { moves[i] } else { pick(moves, scores, i) }
}

/// The score of a capture that loses `loss` to a recapture: after the killers, before most quiet
/// moves, and counted as quiet (late move reductions apply to it).
#[inline]
pub fn bad_capture_score(loss: i32) -> i32 {
    HISTORY_MAX - loss.clamp(0, HISTORY_MAX / 2)
}

/// Whether a move's score says it is quiet (no capture, no gain, not the table's move).
#[inline]
pub fn is_quiet(score: i32) -> bool {
    score < KILLER[1]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One cut reorders at once: the quiet move that cut gains, the ones tried before it lose, a
    /// drop learns apart from a board move of the same piece to the same cell, each side learns
    /// for itself, no run of cuts takes a score past the bound, and the next search starts from
    /// half of what was learnt.
    #[test]
    fn a_cut_teaches_the_history_within_its_bound() {
        let mut order = Ordering::new(14, 81);
        let score = |o: &Ordering, side: Side, mv: Move| o.history[o.history_index(side, mv).unwrap()] as i32;
        let (me, you) = (Side::First, Side::Second);
        let stepped = Move::board(10, 20, 3);
        let dropped = Move::drop(3, 20);
        let other = Move::board(11, 21, 3);
        order.reward(me, stepped, &[other, dropped], 0, 4);
        assert_eq!(score(&order, me, stepped), history_bonus(4));
        assert_eq!(score(&order, me, other), -history_bonus(4));
        assert_eq!(score(&order, me, dropped), -history_bonus(4), "the drop is scored apart from the step");
        assert_eq!(score(&order, you, stepped), 0, "the other side's history is its own");
        for _ in 0..1_000 {
            order.reward(me, stepped, &[other], 0, 40);
        }
        let (high, low) = (score(&order, me, stepped), score(&order, me, other));
        assert!((HISTORY_BOUND - HISTORY_BONUS_MAX + 1..=HISTORY_BOUND).contains(&high), "{high}");
        assert!((-HISTORY_BOUND..-HISTORY_BOUND + HISTORY_BONUS_MAX).contains(&low), "{low}");
        order.new_search();
        assert_eq!(score(&order, me, stepped), high / 2);
    }

    /// A long list comes out best first, each move with its own score, and is sorted once; a
    /// short one is picked by the scan alone.
    #[test]
    fn a_long_list_is_picked_best_first_and_sorted_once() {
        let scores_in: Vec<i32> = (0..40).map(|k| k * 37 % 11).collect();
        let mut moves: Vec<Move> = (0..40).map(|k| Move::drop(0, k as henka_api::Cell)).collect();
        let mut scores = scores_in.clone();
        let (mut sorted, mut pairs) = (false, Vec::new());
        let picked: Vec<(i32, Move)> = (0..moves.len())
            .map(|i| {
                let mv = pick_from_list(&mut moves, &mut scores, i, &mut sorted, &mut pairs);
                (scores[i], mv)
            })
            .collect();
        assert!(sorted, "forty moves are sorted after the first three");
        assert!(picked.windows(2).all(|w| w[0].0 >= w[1].0), "best first: {picked:?}");
        for (score, mv) in &picked {
            assert_eq!(*score, scores_in[mv.to as usize], "each move keeps its own score");
        }
        let mut short: Vec<Move> = (0..5).map(|k| Move::drop(0, k)).collect();
        let mut short_scores = vec![1, 5, 3, 5, 2];
        let mut sorted = false;
        let order: Vec<i32> = (0..5)
            .map(|i| {
                pick_from_list(&mut short, &mut short_scores, i, &mut sorted, &mut pairs);
                short_scores[i]
            })
            .collect();
        assert_eq!(order, [5, 5, 3, 2, 1]);
        assert!(!sorted, "five moves are only scanned");
    }
}
