//! Self-play games for the playtest lab: the AI against itself, on every core.
//!
//! Every game has its own seed, derived from the run's seed and the game's number, so a game is
//! the same whichever thread or shard plays it (exactly so under a node limit; a time limit
//! depends on the machine's speed). The first plies are random legal moves, so the games do not
//! all follow the AI's one favourite line: opening diversity is part of what a designer asks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Result;
use henka_api::{Game, Side, Variant};

use super::summary::{GameSummary, summarize};
use crate::ai::eval::Evaluator;
use crate::ai::{Limits, PieceValues, Searcher};

/// The AI's transposition table per playing thread, in megabytes: playtest games are short
/// searches, and every thread has its own (the tuner's teacher searches use the same).
pub(super) const TABLE_MB: usize = 16;

/// How the AI thinks per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    Time(Duration),
    /// Searched nodes: reproducible, whatever the machine.
    Nodes(u64),
}

impl MoveLimit {
    fn limits(self) -> Limits {
        match self {
            MoveLimit::Time(t) => Limits::time(t),
            MoveLimit::Nodes(n) => Limits { nodes: Some(n.max(1)), ..Limits::default() },
        }
    }
}

/// Which games of a run this process plays: game `g` belongs to shard `g % of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u32,
    pub of: u32,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, of: 1 };

    pub fn owns(self, game: u32) -> bool {
        game % self.of == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or("a shard is i/n, e.g. 0/4")?;
        let parse = |t: &str| t.trim().parse::<u32>().map_err(|e| format!("{t:?}: {e}"));
        let (index, of) = (parse(i)?, parse(n)?);
        if of == 0 || index >= of {
            return Err(format!("shard {index}/{of}: the index runs from 0 to n-1"));
        }
        Ok(Shard { index, of })
    }
}

/// How to play a run of games.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Games in the whole run (all shards together).
    pub games: u32,
    pub threads: usize,
    pub limit: MoveLimit,
    /// Random legal moves at the start of every game.
    pub opening_plies: usize,
    /// A game still going after this many plies is a draw ("move limit").
    pub max_plies: usize,
    pub seed: u64,
    pub shard: Shard,
    /// Set it to stop: games under way are dropped, finished ones kept.
    pub cancel: Arc<AtomicBool>,
}

/// The seed of game `g`: a splitmix64 step of the run's seed and the game number.
pub fn game_seed(run_seed: u64, g: u32) -> u64 {
    let mut z = run_seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One finished game: its moves and how it ended.
#[derive(Debug)]
pub struct Played {
    pub number: u32,
    pub game: Game,
    pub winner: Option<Side>,
    pub reason: String,
}

/// Plays the games of `plan.shard` whose numbers `wanted` accepts (all, for a plain run), on
/// `plan.threads` threads. `on_game` sees each game as it ends (from the playing thread, in the
/// order they end), e.g. to save its record or advance a progress bar; the summaries come back
/// sorted by game number.
///
/// The AI plays with the variant's tuned evaluation when `henka tune` stored one for its script
/// (see [`crate::ai::tuned`]), else with `values`.
pub fn play(
    variant: &Arc<dyn Variant>,
    values: &PieceValues,
    plan: &SelfPlay,
    wanted: impl Fn(u32) -> bool + Sync,
    on_game: impl Fn(&Played) + Sync,
) -> Result<Vec<GameSummary>> {
    let make = || crate::ai::tuned::searcher(variant.clone(), values.clone(), TABLE_MB);
    play_games(variant, values, plan, make, wanted, on_game)
}

/// [`play`] with the AI evaluating by `eval` whatever is stored (what tuning starts from).
pub fn play_with(
    variant: &Arc<dyn Variant>,
    eval: &Evaluator,
    plan: &SelfPlay,
    wanted: impl Fn(u32) -> bool + Sync,
    on_game: impl Fn(&Played) + Sync,
) -> Result<Vec<GameSummary>> {
    let make = || Searcher::with_evaluator(variant.clone(), eval.clone(), TABLE_MB);
    play_games(variant, eval.values(), plan, make, wanted, on_game)
}

fn play_games(
    variant: &Arc<dyn Variant>,
    values: &PieceValues,
    plan: &SelfPlay,
    make: impl Fn() -> Searcher + Sync,
    wanted: impl Fn(u32) -> bool + Sync,
    on_game: impl Fn(&Played) + Sync,
) -> Result<Vec<GameSummary>> {
    let numbers: Vec<u32> = (0..plan.games).filter(|&g| plan.shard.owns(g) && wanted(g)).collect();
    let next = AtomicUsize::new(0);
    let threads = plan.threads.clamp(1, numbers.len().max(1));
    let results: Vec<Result<Vec<GameSummary>>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut searcher = make();
                    searcher.share_stop_flag(plan.cancel.clone());
                    let mut out = Vec::new();
                    while let Some(&g) = numbers.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let Some(played) = play_one(variant.as_ref(), &mut searcher, plan, g)? else { break };
                        on_game(&played);
                        out.push(summarize(variant.as_ref(), values, plan.opening_plies, &played)?);
                    }
                    Ok(out)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err(anyhow::anyhow!("a playing thread panicked"))))
            .collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    all.sort_by_key(|s| s.game);
    Ok(all)
}

/// Plays game number `g` to its end (or the move limit); `None` when the run was cancelled.
fn play_one(v: &dyn Variant, searcher: &mut Searcher, plan: &SelfPlay, g: u32) -> Result<Option<Played>> {
    let mut rng = fastrand::Rng::with_seed(game_seed(plan.seed, g));
    searcher.new_game();
    let mut game = Game::new(v.start_position());
    let mut moves = Vec::new();
    loop {
        if plan.cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        if let Some(o) = game.outcome(v)? {
            return Ok(Some(Played { number: g, game, winner: o.winner, reason: o.reason.to_string() }));
        }
        if game.moves().len() >= plan.max_plies {
            return Ok(Some(Played { number: g, game, winner: None, reason: "move limit".into() }));
        }
        let mv = if game.moves().len() < plan.opening_plies {
            v.legal_moves(game.position(), &mut moves)?;
            moves[rng.usize(..moves.len())]
        } else {
            match searcher.search(game.position(), game.history(), plan.limit.limits(), |_| {})? {
                Some(report) => report.best(),
                // `outcome` said the game goes on, so there is a legal move; a variant whose two
                // answers disagree loses the game for the side to move rather than hang the run.
                None => {
                    let side = game.position().side_to_move();
                    return Ok(Some(Played {
                        number: g,
                        game,
                        winner: Some(side.opponent()),
                        reason: "no move".into(),
                    }));
                }
            }
        };
        game.play(v, mv)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games_without_overlap() {
        let shards: Vec<Shard> = (0..3).map(|i| Shard { index: i, of: 3 }).collect();
        for g in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.owns(g)).count(), 1);
        }
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, of: 3 }));
        assert!("3/3".parse::<Shard>().is_err() && "1/0".parse::<Shard>().is_err() && "1".parse::<Shard>().is_err());
    }

    #[test]
    fn game_seeds_differ_per_game_and_run() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 5), game_seed(7, 5));
    }
}
