//! A game in progress: a start position, the moves played, and the history repetition needs.

use super::Variant;
use crate::model::error::RuleError;
use crate::model::moves::Move;
use crate::model::outcome::{HistoryEntry, Outcome};
use crate::model::position::Position;
use crate::notation::NotationError;

/// A game: start, moves, current position, and each earlier position's hash and check flag.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    positions: Vec<Position>,
    history: Vec<HistoryEntry>,
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error("the game is over: {0}")]
    Over(String),
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game { positions: vec![start.clone()], start, moves: Vec::new(), history: Vec::new() }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before move `i` (0 = start).
    pub fn position_before(&self, i: usize) -> &Position {
        &self.positions[i]
    }

    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// The result so far, if the game has ended.
    pub fn outcome(&self, v: &dyn Variant) -> Result<Option<Outcome>, RuleError> {
        v.outcome(self.position(), &self.history)
    }

    /// Plays a move after checking it is legal and the game is not over.
    pub fn play(&mut self, v: &dyn Variant, mv: Move) -> Result<(), PlayError> {
        if let Some(o) = self.outcome(v)? {
            return Err(PlayError::Over(o.to_string()));
        }
        let mut legal = Vec::new();
        v.legal_moves(self.position(), &mut legal)?;
        if !legal.contains(&mv) {
            return Err(NotationError::Illegal(v.format_move(self.position(), mv)).into());
        }
        self.push_unchecked(v, mv)
    }

    /// Reads and plays a move in the variant's notation.
    pub fn play_str(&mut self, v: &dyn Variant, s: &str) -> Result<Move, PlayError> {
        let mv = v.parse_move(self.position(), s)?;
        self.play(v, mv)?;
        Ok(mv)
    }

    fn push_unchecked(&mut self, v: &dyn Variant, mv: Move) -> Result<(), PlayError> {
        let before = self.position().clone();
        self.history.push(HistoryEntry::new(before.repetition_hash(), v.in_check(&before)).with_move(mv));
        let mut next = before;
        v.play(&mut next, mv)?;
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move; returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.history.pop();
        Some(mv)
    }
}
