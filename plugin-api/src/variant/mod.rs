//! Layer 4: the one trait every variant implements, scripted or compiled, and what works through
//! it alone — [`perft`] counts and [`perft_suite`] files, a [`game::Game`] in progress and, for
//! Ki Shogi, the [`compass`] notation, which names a move only among the legal moves. It needs the
//! model and the notation; the engines of layer 5 implement it.

pub mod compass;
pub mod game;
pub mod perft;
pub mod perft_suite;

use crate::model::description::VariantInfo;
use crate::model::error::RuleError;
use crate::model::geometry::{Cell, Geometry};
use crate::model::moves::Move;
use crate::model::outcome::{HistoryEntry, Outcome};
use crate::model::position::Position;
use crate::model::side::Side;
use crate::notation::{self, NotationError};

/// A variant's rules. Everything the host does (editor, CLI, perft, AI, USI) goes through this.
///
/// Methods that may run script hooks or plugin code return [`RuleError`] rather than panicking.
pub trait Variant: Send + Sync {
    fn info(&self) -> &VariantInfo;

    fn geometry(&self) -> &Geometry;

    /// The start position.
    fn start_position(&self) -> Position {
        self.parse_position(&self.info().start).expect("the start position was validated when the variant was built")
    }

    /// Appends the legal moves of the side to move to `out` (which it clears first). A position
    /// whose game is over by "no royal left" has none.
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError>;

    /// The legal moves that take a piece ([`Position::is_capture`]) into `out`: what a
    /// quiescence search asks for at most of its nodes. Default: [`Variant::legal_moves`],
    /// filtered; the kit skips drops and quiet moves before judging legality.
    fn legal_captures(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        self.legal_moves(pos, out)?;
        out.retain(|&mv| pos.is_capture(mv));
        Ok(())
    }

    /// Plays a legal move. Behaviour for a move not from [`Variant::legal_moves`] is unspecified
    /// but memory-safe.
    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError>;

    /// Whether the side to move's royal piece is attacked (for display and perpetual check).
    fn in_check(&self, pos: &Position) -> bool;

    /// Whether the legal move `mv` gives check (after it, the opponent is to move and
    /// [`Variant::in_check`]), where the variant can tell without playing it; `None` where it
    /// cannot. A search asks this of every move it means to prune, since checks are never
    /// pruned: in drop variants those are mostly drops, a hundred a node. Default: `None`, and
    /// the caller plays the move and asks. The kit answers drops and board moves in variants
    /// whose attacks and moves are plain data (no effects, no movement callbacks or paths).
    fn gives_check_unplayed(&self, _pos: &Position, _mv: Move) -> Option<bool> {
        None
    }

    /// The cells from which `by`'s pieces attack `cell` in `pos`, into `out` (cleared first, each
    /// cell once), where the variant can list them without playing moves; `false` where it
    /// cannot. A search weighs exchanges with it (static exchange evaluation: who can take on a
    /// cell, cheapest first) for the captures it orders and for most quiescence captures, so it
    /// must be cheap.
    /// Pins and the legality of a capture are not asked. Default: `false`. The kit lists them
    /// where every attack is a plain data move (no effects, fields, cubes, paths, movement
    /// callbacks or protected royals).
    fn attackers(&self, _pos: &Position, _cell: Cell, _by: Side, out: &mut Vec<Cell>) -> bool {
        out.clear();
        false
    }

    /// The game's result in `pos`, given the earlier positions of the game (oldest first), or
    /// `None` while it goes on. Covers both "no legal move" and declared results (repetition,
    /// baring, …).
    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError>;

    /// Counts the legal move sequences of `depth` plies, bulk-counting the last ply. Only "no legal
    /// move" and "no royal left" cut the tree (docs/architecture.md, Tests and measurement).
    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        generic_perft(self, pos, depth)
    }

    /// A search of many positions begins (a perft, an AI search, a game's replay). Rules that run
    /// foreign code (script hooks) give that code one time budget per search from here, so a slow
    /// hook that stays under its limit per call still cannot make a search run for ever. Pair each
    /// call with [`Variant::end_search`]; [`SearchScope`] does. Default: nothing to bound.
    fn begin_search(&self) {}

    /// The search begun last ends.
    fn end_search(&self) {}

    /// Parses a position string in this variant's notation.
    fn parse_position(&self, s: &str) -> Result<Position, NotationError> {
        notation::parse_position(self.info(), self.geometry(), s)
    }

    /// Writes a position string.
    fn format_position(&self, pos: &Position) -> String {
        notation::format_position(self.info(), self.geometry(), pos)
    }

    /// Writes a move in the variant's notation: the project's coordinates, or the compass
    /// notation of a field variant that selects it.
    fn format_move(&self, pos: &Position, mv: Move) -> String {
        if compass::uses_compass(self.info()) {
            return compass::format_move(self, pos, mv);
        }
        notation::format_move(self.info(), self.geometry(), pos, mv)
    }

    /// Writes a move as one token without spaces, in coordinates: for protocols that separate
    /// moves by spaces (USI), whatever the variant's display notation. [`Variant::parse_move`]
    /// reads it back.
    fn format_move_token(&self, pos: &Position, mv: Move) -> String {
        notation::format_move(self.info(), self.geometry(), pos, mv)
    }

    /// Reads a move (coordinates always; the compass notation where the variant uses it) and
    /// checks it is legal in `pos`.
    fn parse_move(&self, pos: &Position, s: &str) -> Result<Move, NotationError> {
        let coordinates = notation::parse_move(self.info(), self.geometry(), pos, s);
        let mv = match coordinates {
            Err(_) if compass::uses_compass(self.info()) => return compass::parse_move(self, pos, s),
            other => other?,
        };
        let mut legal = Vec::new();
        self.legal_moves(pos, &mut legal).map_err(|e| NotationError::Rule(e.to_string()))?;
        if legal.contains(&mv) { Ok(mv) } else { Err(NotationError::Illegal(s.to_string())) }
    }
}

/// One search of a variant, from [`Variant::begin_search`] until dropped ([`Variant::end_search`]).
#[must_use = "the search ends when the scope is dropped"]
pub struct SearchScope<'a, V: Variant + ?Sized>(&'a V);

impl<'a, V: Variant + ?Sized> SearchScope<'a, V> {
    pub fn new(v: &'a V) -> SearchScope<'a, V> {
        v.begin_search();
        SearchScope(v)
    }
}

impl<V: Variant + ?Sized> std::fmt::Debug for SearchScope<'_, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("SearchScope").field(&self.0.info().meta.name).finish()
    }
}

impl<V: Variant + ?Sized> Drop for SearchScope<'_, V> {
    fn drop(&mut self) {
        self.0.end_search();
    }
}

/// Perft through the `Variant` trait alone (copy-make), bulk-counting the last ply. Variants with
/// a faster internal path override [`Variant::perft`]; this is its default, and what their own
/// counts are checked against. It lives beside the trait (not in [`perft`]) because the trait's
/// default calls it.
pub fn generic_perft<V: Variant + ?Sized>(v: &V, pos: &Position, depth: u32) -> Result<u64, RuleError> {
    if depth == 0 {
        return Ok(1);
    }
    let mut moves = Vec::new();
    v.legal_moves(pos, &mut moves)?;
    if depth == 1 {
        return Ok(moves.len() as u64);
    }
    let mut nodes = 0;
    for mv in moves {
        let mut next = pos.clone();
        v.play(&mut next, mv)?;
        nodes += generic_perft(v, &next, depth - 1)?;
    }
    Ok(nodes)
}
