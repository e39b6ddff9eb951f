//! Players: whatever picks the next move of a game — the AI, a random mover, or an external USI
//! engine — behind one trait, so `henka match`, `henka play` and the editor seat any of them.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use henka_api::{Game, Move, Variant};

use crate::ai::{Limits, Searcher, searcher_for};
use crate::usi::client::UsiClient;

/// The AI's transposition table per player, in megabytes.
const TABLE_MB: usize = 32;

/// What a player does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// Picks moves for one side of a game.
pub trait Player: Send {
    /// For tables and messages.
    fn name(&self) -> &str;
    /// A new game starts (with the same variant).
    fn new_game(&mut self) -> Result<()>;
    /// The move to play in `game`'s current position, which has legal moves.
    fn choose(&mut self, game: &Game) -> Result<Decision>;
}

/// A player as named on the command line: `ai`, `random` or `usi:<command line>`, where the
/// command line may end in engine options: `usi:fairy-stockfish;Skill Level=10;Hash=64`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Ai,
    Random,
    Usi(String),
}

impl std::str::FromStr for PlayerSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        match s {
            "ai" => Ok(PlayerSpec::Ai),
            "random" => Ok(PlayerSpec::Random),
            _ => match s.strip_prefix("usi:") {
                Some(cmd) if !cmd.trim().is_empty() => Ok(PlayerSpec::Usi(cmd.trim().to_string())),
                _ => Err(format!("a player is `ai`, `random` or `usi:<engine command line>`, not {s:?}")),
            },
        }
    }
}

impl std::fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerSpec::Ai => f.write_str("ai"),
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Usi(cmd) => write!(f, "usi:{cmd}"),
        }
    }
}

/// How a player is set up for a game of one variant.
#[derive(Clone)]
pub struct Setup<'a> {
    pub variant: &'a Arc<dyn Variant>,
    /// The variant's catalog name (what a USI engine is asked to play).
    pub variant_name: &'a str,
    /// The script's piece values for the AI, by piece id.
    pub piece_values: &'a [Option<i32>],
    pub time_per_move: Duration,
    pub seed: u64,
    /// Search threads for the AI (Lazy SMP; 1 keeps it to one core).
    pub threads: usize,
}

impl std::fmt::Debug for Setup<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setup").field("variant", &self.variant_name).field("time", &self.time_per_move).finish()
    }
}

impl std::fmt::Debug for RandomPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RandomPlayer").field("name", &self.name).finish()
    }
}

impl std::fmt::Debug for UsiPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UsiPlayer").field("client", &self.client).field("time", &self.time).finish()
    }
}

impl PlayerSpec {
    /// Seats the player: builds the AI, or starts and handshakes the engine process.
    pub fn create(&self, setup: &Setup) -> Result<Box<dyn Player>> {
        Ok(match self {
            PlayerSpec::Ai => {
                let mut searcher = searcher_for(setup.variant.clone(), setup.piece_values, TABLE_MB);
                searcher.set_threads(setup.threads);
                Box::new(AiPlayer { name: self.to_string(), searcher, time: setup.time_per_move })
            }
            PlayerSpec::Random => Box::new(RandomPlayer {
                name: self.to_string(),
                variant: setup.variant.clone(),
                rng: fastrand::Rng::with_seed(setup.seed),
            }),
            PlayerSpec::Usi(cmd) => Box::new(UsiPlayer {
                name: self.to_string(),
                client: UsiClient::start(cmd, Some(setup.variant_name))?,
                variant: setup.variant.clone(),
                time: setup.time_per_move,
            }),
        })
    }
}

/// Henka's own AI with a fixed time per move.
#[derive(Debug)]
pub struct AiPlayer {
    name: String,
    searcher: Searcher,
    time: Duration,
}

impl Player for AiPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<()> {
        self.searcher.new_game();
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Decision> {
        self.searcher.stop_flag().store(false, std::sync::atomic::Ordering::Relaxed);
        let report = self.searcher.search(game.position(), game.history(), Limits::time(self.time), |_| {})?;
        Ok(report.map_or(Decision::Resign, |r| Decision::Play(r.best())))
    }
}

/// Plays a uniformly random legal move: the baseline any AI must beat.
pub struct RandomPlayer {
    name: String,
    variant: Arc<dyn Variant>,
    rng: fastrand::Rng,
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<()> {
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Decision> {
        let mut moves = Vec::new();
        self.variant.legal_moves(game.position(), &mut moves)?;
        if moves.is_empty() {
            return Ok(Decision::Resign);
        }
        Ok(Decision::Play(moves[self.rng.usize(..moves.len())]))
    }
}

/// An external USI engine, given the same time per move.
pub struct UsiPlayer {
    name: String,
    client: UsiClient,
    variant: Arc<dyn Variant>,
    time: Duration,
}

/// The `position` command's arguments for a game: `startpos` when it began at the variant's
/// start (what any engine for the variant understands), else the start as a position string.
pub fn usi_position(v: &dyn Variant, game: &Game) -> String {
    let start = v.format_position(game.start());
    let mut s =
        if start == v.format_position(&v.start_position()) { "startpos".to_string() } else { format!("sfen {start}") };
    if !game.moves().is_empty() {
        s.push_str(" moves");
        for (i, &mv) in game.moves().iter().enumerate() {
            s.push(' ');
            s.push_str(&v.format_move_token(game.position_before(i), mv));
        }
    }
    s
}

impl Player for UsiPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<()> {
        self.client.new_game()
    }

    fn choose(&mut self, game: &Game) -> Result<Decision> {
        let v = self.variant.as_ref();
        let go = format!("movetime {}", self.time.as_millis().max(1));
        // Generous: a slow engine is slow, not hung; a hung one loses the game, not Henka.
        let timeout = self.time * 3 + Duration::from_secs(5);
        let answer = self.client.best_move(&usi_position(v, game), &go, timeout)?;
        match answer.as_str() {
            "resign" => Ok(Decision::Resign),
            "win" => bail!("the engine {} declared a win, which Henka does not judge", self.client.name()),
            m => v
                .parse_move(game.position(), m)
                .map(Decision::Play)
                .with_context(|| format!("the engine {} answered {m:?}", self.client.name())),
        }
    }
}
