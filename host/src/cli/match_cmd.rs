//! `henka match A B`: self-play tournaments between players (`ai`, `random`, `usi:<engine>`),
//! alternating colours, with a progress bar and a table of results.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use henka_api::{Game, Side, Variant};
use indicatif::{ProgressBar, ProgressStyle};

use super::{Engine, load_engine};
use crate::player::{Decision, Player, PlayerSpec, Setup};
use crate::record::Record;

#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// The first player (Black in the odd games): `ai`, `random` or `usi:<engine command line>`;
    /// engine options follow the command line after semicolons:
    /// `usi:fairy-stockfish;Skill Level=10` (each sent as `setoption` before the game).
    a: PlayerSpec,
    /// The second player (Black in the even games).
    b: PlayerSpec,
    /// The variant: a name from `henka list` or a script path.
    #[arg(long)]
    variant: String,
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Thinking time per move for the AI and USI engines, in seconds.
    #[arg(long, default_value_t = 1.0)]
    time_per_move: f64,
    /// Search threads for the `ai` players (Lazy SMP).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Seed for the random players (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    #[arg(long, value_enum, default_value_t = Engine::Script)]
    engine: Engine,
    /// Write every game's record into this folder (game-001.henka, …).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Start each pair of games with this many random legal moves (seeded), the same opening
    /// for both games of the pair with the colours swapped. Engines that search deterministically
    /// otherwise replay the same few games; an A/B test of two AIs needs this.
    #[arg(long, default_value_t = 0)]
    opening_plies: usize,
}

/// One player's results.
#[derive(Clone, Debug, Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

/// How one game ended: the winner (`None` = draw) and why.
struct GameEnd {
    winner: Option<Side>,
    reason: String,
}

pub fn run(args: MatchArgs) -> Result<()> {
    let loaded = load_engine(&args.variant, args.engine)?;
    let v = loaded.variant.clone();
    let name = variant_name(&args.variant);
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..));
    let time = Duration::from_secs_f64(args.time_per_move.max(0.001));
    let setup = |seed| Setup {
        variant: &v,
        variant_name: &name,
        piece_values: &loaded.piece_values,
        time_per_move: time,
        seed,
        threads: args.threads.max(1),
    };
    let mut players: [Box<dyn Player>; 2] = [args.a.create(&setup(seed))?, args.b.create(&setup(seed ^ 0x9e37))?];
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }

    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]").expect("template"));
    let mut tally = [Tally::default(), Tally::default()];
    let mut reasons: BTreeMap<String, u32> = BTreeMap::new();
    let mut plies = 0usize;
    for g in 0..args.games {
        // A plays Black in the odd games (1st, 3rd, …), B in the even ones.
        let black = (g % 2) as usize;
        for p in players.iter_mut() {
            p.new_game()?;
        }
        let pair_seed = seed ^ u64::from(g / 2).wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let opening = random_opening(v.as_ref(), args.opening_plies, pair_seed)?;
        let (game, end) = play_game(v.as_ref(), opening, &mut players, black, args.max_plies, |msg| bar.println(msg))?;
        plies += game.moves().len();
        *reasons.entry(end.reason.clone()).or_default() += 1;
        let seat_of = |side: Side| if side == Side::First { black } else { 1 - black };
        match end.winner {
            Some(w) => {
                tally[seat_of(w)].wins += 1;
                tally[seat_of(w.opponent())].losses += 1;
            }
            None => {
                tally[0].draws += 1;
                tally[1].draws += 1;
            }
        }
        if let Some(dir) = &args.records {
            let mut rec = Record::of_game(&name, v.as_ref(), &game);
            rec.script_hash = loaded.script_hash;
            rec.result = Some(match end.winner {
                Some(w) => format!("{w} wins by {}", end.reason),
                None => format!("draw by {}", end.reason),
            });
            rec.options = vec![
                ("black".into(), players[black].name().to_string()),
                ("white".into(), players[1 - black].name().to_string()),
                ("time-per-move".into(), format!("{}", args.time_per_move)),
            ];
            if args.opening_plies > 0 {
                rec.options.push(("opening-plies".into(), args.opening_plies.to_string()));
            }
            let path = dir.join(format!("game-{:03}.henka", g + 1));
            std::fs::write(&path, rec.to_text()).with_context(|| format!("writing {}", path.display()))?;
        }
        bar.set_message(format!("{} {}–{} {}", players[0].name(), tally[0].wins, tally[1].wins, players[1].name()));
        bar.inc(1);
    }
    bar.finish_and_clear();

    say!("{}: {} games, {} s per move, at most {} plies", name, args.games, args.time_per_move, args.max_plies);
    let width = players.iter().map(|p| p.name().chars().count()).max().unwrap_or(6).max(6);
    say!("{:<width$} {:>6} {:>6} {:>7} {:>7}", "player", "wins", "draws", "losses", "score");
    for (p, t) in players.iter().zip(&tally) {
        let score = (t.wins as f64 + t.draws as f64 / 2.0) / args.games.max(1) as f64 * 100.0;
        say!("{:<width$} {:>6} {:>6} {:>7} {:>6.1}%", p.name(), t.wins, t.draws, t.losses, score);
    }
    say!("average length: {:.1} plies", plies as f64 / args.games.max(1) as f64);
    let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    say!("end reasons: {}", reasons.join(", "));
    Ok(())
}

/// The catalog name of a variant argument (a script path names it by its file stem).
pub(super) fn variant_name(arg: &str) -> String {
    let path = std::path::Path::new(arg);
    if arg.ends_with(".rhai") || arg.ends_with(".so") {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        return stem.strip_prefix("lib").map(str::to_string).unwrap_or(stem).replace('_', "-");
    }
    arg.to_string()
}

/// The game after `plies` random legal moves from the start (fewer if it ends first).
fn random_opening(v: &dyn Variant, plies: usize, seed: u64) -> Result<Game> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = Game::new(v.start_position());
    let mut moves = Vec::new();
    while game.moves().len() < plies && game.outcome(v)?.is_none() {
        v.legal_moves(game.position(), &mut moves)?;
        if moves.is_empty() {
            break;
        }
        game.play(v, moves[rng.usize(..moves.len())])?;
    }
    Ok(game)
}

/// Plays one game on from `game` (the start, or a random opening); `black` is the index of the
/// player with the first move. A player that fails (an engine that hangs or answers nonsense)
/// loses the game, and the failure is reported.
fn play_game(
    v: &dyn Variant,
    mut game: Game,
    players: &mut [Box<dyn Player>; 2],
    black: usize,
    max_plies: usize,
    report: impl Fn(String),
) -> Result<(Game, GameEnd)> {
    loop {
        if let Some(o) = game.outcome(v)? {
            return Ok((game, GameEnd { winner: o.winner, reason: o.reason.to_string() }));
        }
        if game.moves().len() >= max_plies {
            return Ok((game, GameEnd { winner: None, reason: "move limit".into() }));
        }
        let side = game.position().side_to_move();
        let seat = if side == Side::First { black } else { 1 - black };
        let player = &mut players[seat];
        let lost = |reason: &str| GameEnd { winner: Some(side.opponent()), reason: reason.to_string() };
        match player.choose(&game) {
            Ok(Decision::Play(mv)) => {
                if let Err(e) = game.play(v, mv) {
                    report(format!("{} played an illegal move: {e}", player.name()));
                    return Ok((game, lost("illegal move")));
                }
            }
            Ok(Decision::Resign) => return Ok((game, lost("resignation"))),
            Err(e) => {
                report(format!("{} failed: {e:#}", player.name()));
                return Ok((game, lost("player failure")));
            }
        }
    }
}
