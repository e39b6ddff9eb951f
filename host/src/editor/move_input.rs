//! Entering a move by clicks: pick a piece (on the board or in hand), click where it goes, click
//! again through an intermediate stop (lion double moves, igui), and choose among moves that end
//! alike but differ in the resulting type (promote or not, a Ki Shogi face).
//!
//! The state machine works on the legal move list alone, so it serves every variant the same way.

use henka_api::{Cell, Move, MoveKind, NO_CELL, PieceId, Position};

use super::board::Mark;
use crate::why_illegal::Attempt;

/// What is picked so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Pick {
    #[default]
    Nothing,
    /// A board piece, and the stop clicked on its way, if any.
    Board { from: Cell, stop: Option<Cell> },
    /// A hand type of the mover's, and the types it may enter as (itself; every face of a cube).
    Hand { ty: PieceId, faces: Vec<PieceId> },
}

/// What a click led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing to play yet (a piece was picked, a stop taken, or the pick dropped).
    Continue,
    Play(Move),
    /// Several moves end this way: the user must choose (promotion dialog).
    Choose(Vec<Move>),
    /// The user tried something the rules refuse: the window says why
    /// ([`crate::why_illegal`]).
    Refused(Attempt),
}

/// The move being entered.
#[derive(Clone, Debug, Default)]
pub struct MoveInput {
    pub pick: Pick,
}

impl MoveInput {
    pub fn clear(&mut self) {
        self.pick = Pick::Nothing;
    }

    /// Cells to highlight as targets for the current pick.
    pub fn targets(&self, pos: &Position, legal: &[Move]) -> Vec<(Cell, Mark)> {
        let mover = pos.side_to_move();
        let mark_end = |c: Cell| match pos.piece_at(c) {
            Some(p) if p.side != mover => Mark::Capture,
            _ => Mark::Move,
        };
        let mut out: Vec<(Cell, Mark)> = Vec::new();
        // A cell where a move may both end and stop shows as a stop: the first click stops there.
        let mut add = |c: Cell, m: Mark| match out.iter_mut().find(|(x, _)| *x == c) {
            Some(entry) if m == Mark::Stop => entry.1 = m,
            Some(_) => {}
            None => out.push((c, m)),
        };
        match self.pick {
            Pick::Nothing => {}
            Pick::Board { from, stop: None } => {
                for m in legal.iter().filter(|m| m.kind == MoveKind::Board && m.from == from) {
                    match m.stop() {
                        None => add(m.to, mark_end(m.to)),
                        Some(s) => add(s, Mark::Stop),
                    }
                }
            }
            Pick::Board { from, stop: Some(s) } => {
                for m in legal.iter().filter(|m| m.kind == MoveKind::Board && m.from == from) {
                    if m.via == s {
                        add(m.to, mark_end(m.to));
                    } else if m.via == NO_CELL && m.to == s {
                        add(s, mark_end(s));
                    }
                }
            }
            Pick::Hand { ref faces, .. } => {
                for m in legal.iter().filter(|m| is_hand_move(m, faces)) {
                    add(m.to, Mark::Move);
                }
            }
        }
        out
    }

    /// Picks a hand piece of type `ty`, which enters the board as any of `faces` (or drops the
    /// pick if it was already picked). A drop that may show several faces asks which on the cell.
    /// A piece with no legal drop is refused.
    pub fn click_hand(&mut self, ty: PieceId, faces: Vec<PieceId>, legal: &[Move]) -> Step {
        let (pick, step) = match self.pick {
            Pick::Hand { ty: t, .. } if t == ty => (Pick::Nothing, Step::Continue),
            _ if legal.iter().any(|m| is_hand_move(m, &faces)) => (Pick::Hand { ty, faces }, Step::Continue),
            _ => (Pick::Nothing, Step::Refused(Attempt::Hand { ty })),
        };
        self.pick = pick;
        step
    }

    /// A click on a cell.
    pub fn click_cell(&mut self, c: Cell, legal: &[Move]) -> Step {
        let from_here = |c: Cell| legal.iter().any(|m| m.kind == MoveKind::Board && m.from == c);
        match self.pick.clone() {
            Pick::Nothing => {
                if from_here(c) {
                    self.pick = Pick::Board { from: c, stop: None };
                    Step::Continue
                } else {
                    // An empty cell or a piece that cannot move: the window says why, if it can.
                    Step::Refused(Attempt::Piece { from: c })
                }
            }
            Pick::Hand { ty, faces } => {
                let ends: Vec<Move> = legal.iter().filter(|m| is_hand_move(m, &faces) && m.to == c).copied().collect();
                self.finish(ends, c, from_here, Attempt::Drop { ty, to: c })
            }
            Pick::Board { from, stop: None } => {
                if c == from {
                    self.clear();
                    return Step::Continue;
                }
                let mine = legal.iter().filter(|m| m.kind == MoveKind::Board && m.from == from);
                let ends: Vec<Move> = mine.clone().filter(|m| m.via == NO_CELL && m.to == c).copied().collect();
                if mine.clone().any(|m| m.via == c) {
                    // The move may go on from here; a second click on this cell ends it here.
                    self.pick = Pick::Board { from, stop: Some(c) };
                    return Step::Continue;
                }
                self.finish(ends, c, from_here, Attempt::Board { from, to: c })
            }
            Pick::Board { from, stop: Some(s) } => {
                let mine = legal.iter().filter(|m| m.kind == MoveKind::Board && m.from == from);
                let ends: Vec<Move> = if c == s {
                    mine.filter(|m| m.via == NO_CELL && m.to == s).copied().collect()
                } else {
                    mine.filter(|m| m.via == s && m.to == c).copied().collect()
                };
                self.finish(ends, c, from_here, Attempt::Board { from, to: c })
            }
        }
    }

    /// Ends the entry with `ends`, or re-picks if the click was on another movable piece; with no
    /// move to play the pick is dropped and `attempt` refused.
    fn finish(&mut self, ends: Vec<Move>, c: Cell, from_here: impl Fn(Cell) -> bool, attempt: Attempt) -> Step {
        match ends.len() {
            0 if from_here(c) => {
                self.pick = Pick::Board { from: c, stop: None };
                Step::Continue
            }
            0 => {
                self.pick = Pick::Nothing;
                Step::Refused(attempt)
            }
            1 => {
                self.clear();
                Step::Play(ends[0])
            }
            _ => {
                self.clear();
                Step::Choose(ends)
            }
        }
    }

    /// A drag from one cell to another: the same as two clicks.
    pub fn drag(&mut self, from: Cell, to: Cell, legal: &[Move]) -> Step {
        self.pick = Pick::Nothing;
        if let refused @ Step::Refused(_) = self.click_cell(from, legal) {
            return refused;
        }
        self.click_cell(to, legal)
    }
}

/// Drops from hand and placements both start from a piece type, not a cell.
fn is_hand_move(m: &Move, faces: &[PieceId]) -> bool {
    matches!(m.kind, MoveKind::Drop | MoveKind::Place) && faces.contains(&m.piece)
}

#[cfg(test)]
mod tests {
    use super::*;
    use henka_api::Variant;
    use henka_api::notation::parse_cell;

    use crate::script::load_source;

    fn setup(pos: &str) -> (std::sync::Arc<henka_api::kit::KitVariant>, Position, Vec<Move>) {
        let v = load_source("shogi", include_str!("../../../scripts/shogi.rhai")).unwrap().variant;
        let p = v.parse_position(pos).unwrap();
        let mut legal = Vec::new();
        v.legal_moves(&p, &mut legal).unwrap();
        (v, p, legal)
    }

    #[test]
    fn click_from_then_to_plays_and_a_promotion_choice_is_offered() {
        let (v, p, legal) = setup("4k4/9/9/9/9/9/9/1R7/4K4 b - 1");
        let g = v.geometry();
        let mut input = MoveInput::default();
        assert_eq!(input.click_cell(parse_cell(g, "8h").unwrap(), &legal), Step::Continue);
        assert!(input.targets(&p, &legal).iter().any(|&(c, _)| c == parse_cell(g, "8c").unwrap()));
        assert!(matches!(input.click_cell(parse_cell(g, "8d").unwrap(), &legal), Step::Play(_)));
        input.click_cell(parse_cell(g, "8h").unwrap(), &legal);
        match input.click_cell(parse_cell(g, "8c").unwrap(), &legal) {
            Step::Choose(ms) => assert_eq!(ms.len(), 2),
            other => panic!("expected a promotion choice, got {other:?}"),
        }
    }

    #[test]
    fn clicking_another_own_piece_repicks_and_clicking_the_same_cancels() {
        let (v, _, legal) = setup("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let g = v.geometry();
        let mut input = MoveInput::default();
        input.click_cell(parse_cell(g, "7g").unwrap(), &legal);
        input.click_cell(parse_cell(g, "2g").unwrap(), &legal);
        assert_eq!(input.pick, Pick::Board { from: parse_cell(g, "2g").unwrap(), stop: None });
        input.click_cell(parse_cell(g, "2g").unwrap(), &legal);
        assert_eq!(input.pick, Pick::Nothing);
    }

    #[test]
    fn a_move_with_a_stop_takes_two_clicks_and_a_second_click_on_the_stop_ends_there() {
        // Hand-made moves: a piece at 5e may go to 5d directly, or stop at 5d and go on to 5c.
        let (v, p, _) = setup("4k4/9/9/9/4R4/9/9/9/4K4 b - 1");
        let g = v.geometry();
        let cell = |s| parse_cell(g, s).unwrap();
        let rook = p.piece_at(cell("5e")).unwrap().ty;
        let direct = Move::board(cell("5e"), cell("5d"), rook);
        let double = Move { via: cell("5d"), ..Move::board(cell("5e"), cell("5c"), rook) };
        let legal = vec![direct, double];
        let mut input = MoveInput::default();
        input.click_cell(cell("5e"), &legal);
        assert_eq!(input.targets(&p, &legal), vec![(cell("5d"), Mark::Stop)]);
        assert_eq!(input.click_cell(cell("5d"), &legal), Step::Continue);
        assert_eq!(input.click_cell(cell("5c"), &legal), Step::Play(double));
        input.click_cell(cell("5e"), &legal);
        input.click_cell(cell("5d"), &legal);
        assert_eq!(input.click_cell(cell("5d"), &legal), Step::Play(direct));
    }

    #[test]
    fn drops_from_hand() {
        let (v, p, legal) = setup("4k4/9/9/9/9/9/9/9/4K4 b G 1");
        let g = v.geometry();
        let gold = legal.iter().find(|m| m.kind == MoveKind::Drop).unwrap().piece;
        let mut input = MoveInput::default();
        input.click_hand(gold, vec![gold], &legal);
        assert_eq!(input.targets(&p, &legal).len(), 79);
        let step = input.click_cell(parse_cell(g, "5b").unwrap(), &legal);
        assert_eq!(step, Step::Play(Move::drop(gold, parse_cell(g, "5b").unwrap())));
    }

    #[test]
    fn a_cube_is_placed_and_dropped_with_a_choice_of_face() {
        let v = load_source("ki-shogi", include_str!("../../../scripts/ki-shogi.rhai")).unwrap().variant;
        let g = v.geometry();
        let cell = |s| parse_cell(g, s).unwrap();
        let mut p = v.start_position();
        let legal = |p: &Position| {
            let mut l = Vec::new();
            v.legal_moves(p, &mut l).unwrap();
            l
        };
        // The Gyoku comes from hand: a placement, no choice.
        let mut input = MoveInput::default();
        input.click_hand(0, vec![0], &legal(&p));
        let Step::Play(place) = input.click_cell(cell("8h"), &legal(&p)) else { panic!("a placement") };
        assert_eq!(place, Move::place(0, cell("8h")));
        v.play(&mut p, place).unwrap();
        let ring = v.parse_move(&p, "*Gyoku NNE").unwrap();
        v.play(&mut p, ring).unwrap();
        // The Hi cube (hand type Hi) enters showing any of its six faces: West of the Gyoku all six
        // are legal, so the editor asks.
        let faces: Vec<PieceId> = (1..=6).collect();
        input.click_hand(1, faces, &legal(&p));
        assert_eq!(input.targets(&p, &legal(&p)).len(), 6, "NW, W, SW, S, SE, E");
        match input.click_cell(cell("9h"), &legal(&p)) {
            Step::Choose(ms) => {
                let shown: Vec<&str> = ms.iter().map(|m| v.info().pieces[m.piece as usize].name.as_str()).collect();
                assert_eq!(shown.len(), 6, "{shown:?}");
            }
            other => panic!("expected a choice of face, got {other:?}"),
        }
    }
}
