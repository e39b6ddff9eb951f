//! What one self-play game says about the rules, kept as data: the result, how long it lasted,
//! which pieces captured, were captured and promoted, the material balance ply by ply, the
//! position at ply 10, and the material differences the piece-value fit learns from.
//!
//! Summaries are what a run saves (`--json`) and what `henka playtest merge` combines: every
//! statistic of a report is computed from them, so merged shards give exactly the report of one
//! run over the same games.

use anyhow::Result;
use henka_api::{MoveKind, Position, Side, Variant};
use serde::{Deserialize, Serialize};

use super::selfplay::Played;
use crate::ai::PieceValues;

/// Only every `SAMPLE_EVERY`-th position after the opening feeds the piece-value fit: neighbouring
/// plies say almost the same thing, and a Taishin run would otherwise store thousands per game.
const SAMPLE_EVERY: usize = 2;

/// The ply whose position measures opening diversity.
pub const DIVERSITY_PLY: usize = 10;

/// A game's result from the first player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    FirstWins,
    SecondWins,
    Draw,
}

impl GameResult {
    pub fn of(winner: Option<Side>) -> GameResult {
        match winner {
            Some(Side::First) => GameResult::FirstWins,
            Some(Side::Second) => GameResult::SecondWins,
            None => GameResult::Draw,
        }
    }

    /// The first player's score: 1, ½ or 0.
    pub fn first_score(self) -> f64 {
        match self {
            GameResult::FirstWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::SecondWins => 0.0,
        }
    }
}

/// One game, as the statistics need it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's number in its run (its seed follows from it).
    pub game: u32,
    pub result: GameResult,
    pub reason: String,
    pub plies: u32,
    /// Per piece type: captures made by a piece of this type.
    pub captures: Vec<u32>,
    /// Per piece type: pieces of this type captured.
    pub captured: Vec<u32>,
    /// Per piece type: promotions of a piece of this type.
    pub promotions: Vec<u32>,
    /// After each ply: the first player's material minus the second's, in the AI's centipawns
    /// (board and hand, royals left out).
    pub material: Vec<i32>,
    /// The position hash after ply [`DIVERSITY_PLY`], if the game got that far.
    pub position_at_10: Option<u64>,
    /// Sampled positions after the opening: `(type, first's count − second's count)` for each
    /// non-royal type whose counts differ (board and hand together).
    pub samples: Vec<Vec<(u16, i16)>>,
}

/// Per type and side: pieces on the board plus pieces in hand.
fn counts(v: &dyn Variant, pos: &Position) -> [Vec<i32>; 2] {
    let n = v.info().pieces.len();
    let mut c = [vec![0; n], vec![0; n]];
    for p in pos.cells().iter().flatten() {
        c[p.side.index()][p.ty as usize] += 1;
    }
    for side in Side::BOTH {
        for ty in 0..n {
            c[side.index()][ty] += pos.hand(side, ty as u8) as i32;
        }
    }
    c
}

/// +1 for the first player's pieces, −1 for the second's.
fn sign(side: Side) -> i32 {
    if side == Side::First { 1 } else { -1 }
}

fn material(v: &dyn Variant, values: &PieceValues, pos: &Position) -> i32 {
    let info = v.info();
    let mut m = 0;
    for p in pos.cells().iter().flatten() {
        if !info.pieces[p.ty as usize].royal {
            m += sign(p.side) * values.board(p.ty);
        }
    }
    for side in Side::BOTH {
        for ty in 0..info.pieces.len() as u8 {
            m += sign(side) * values.hand(ty) * pos.hand(side, ty) as i32;
        }
    }
    m
}

/// Summarises a finished game.
pub fn summarize(v: &dyn Variant, values: &PieceValues, opening_plies: usize, played: &Played) -> Result<GameSummary> {
    let info = v.info();
    let n = info.pieces.len();
    let game = &played.game;
    let mut s = GameSummary {
        game: played.number,
        result: GameResult::of(played.winner),
        reason: played.reason.clone(),
        plies: game.moves().len() as u32,
        captures: vec![0; n],
        captured: vec![0; n],
        promotions: vec![0; n],
        material: Vec::with_capacity(game.moves().len()),
        position_at_10: None,
        samples: Vec::new(),
    };
    for (i, &mv) in game.moves().iter().enumerate() {
        let before = game.position_before(i);
        let after = if i + 1 < game.moves().len() { game.position_before(i + 1) } else { game.position() };
        let mover = before.side_to_move();
        // Captures: the opponent's pieces that left the board with this move.
        let on_board = |pos: &Position, side: Side| {
            let mut c = vec![0i32; n];
            for p in pos.cells().iter().flatten().filter(|p| p.side == side) {
                c[p.ty as usize] += 1;
            }
            c
        };
        let (them_before, them_after) = (on_board(before, mover.opponent()), on_board(after, mover.opponent()));
        let taken: u32 = (0..n).map(|t| (them_before[t] - them_after[t]).max(0) as u32).sum();
        for t in 0..n {
            s.captured[t] += (them_before[t] - them_after[t]).max(0) as u32;
        }
        let moved = match mv.kind {
            MoveKind::Board => before.piece_at(mv.from).map(|p| p.ty),
            _ => Some(mv.piece),
        };
        if let Some(ty) = moved {
            s.captures[ty as usize] += taken;
            if mv.kind == MoveKind::Board
                && info.pieces[mv.piece as usize].promoted
                && !info.pieces[ty as usize].promoted
            {
                s.promotions[ty as usize] += 1;
            }
        }
        s.material.push(material(v, values, after));
        let ply = i + 1;
        if ply == DIVERSITY_PLY {
            s.position_at_10 = Some(after.hash());
        }
        if ply >= opening_plies && (ply - opening_plies).is_multiple_of(SAMPLE_EVERY) {
            let [first, second] = counts(v, after);
            let diff = (0..n)
                .filter(|&t| !info.pieces[t].royal && first[t] != second[t])
                .map(|t| (t as u16, (first[t] - second[t]) as i16))
                .collect();
            s.samples.push(diff);
        }
    }
    Ok(s)
}
