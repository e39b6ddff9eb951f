//! `henka match A B`: self-play tournaments between players (`ai`, `random`, `usi:<engine>`),
//! alternating colours, with a progress bar and a table of results. With `--jobs N`, N games are
//! played at once, each slot with its own pair of players, so a strength measurement (which needs
//! hundreds of games to see a small change) uses every core.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result};
use henka_api::{Game, Side, Variant};
use indicatif::{ProgressBar, ProgressStyle};

use super::{Engine, load_engine};
use crate::player::{Decision, Player, PlayerSpec, Setup};
use crate::playtest::significance::{EloTest, Estimate, score_elo};
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
    /// Thinking time per move for B alone, in seconds, where it differs from A's (a time-odds
    /// match: how much more time would one engine need to score level with the other?).
    #[arg(long, value_name = "SECONDS")]
    time_per_move_b: Option<f64>,
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
    /// Games played at once, each with its own players (an engine process per player and slot).
    /// Every player still thinks for `--time-per-move`, so keep this at most the cores divided by
    /// the threads a game keeps busy (one for two single-threaded players taking turns).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// Stop early once a sequential test (SPRT, α = β = 5%) decides between "A is ELO0 stronger
    /// than B" and "A is ELO1 stronger", as engine testers do: `--sprt 0,20` asks whether a
    /// change gains 20 Elo. `--games` stays the most games played.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_elo_pair)]
    sprt: Option<(f64, f64)>,
}

/// `--sprt`'s two Elo differences, the first below the second.
fn parse_elo_pair(text: &str) -> Result<(f64, f64), String> {
    let parse = |t: &str| {
        let t = t.trim();
        t.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or(format!("\"{t}\" is not a number of Elo"))
    };
    let (a, b) = text.split_once(',').ok_or("give two Elo differences separated by a comma, e.g. 0,20")?;
    let (elo0, elo1) = (parse(a)?, parse(b)?);
    if elo0 >= elo1 {
        return Err(format!("the first Elo difference ({elo0}) must be below the second ({elo1})"));
    }
    Ok((elo0, elo1))
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

/// A game a slot finished: its number (from 0), its moves and end, and which seat had Black.
struct Finished {
    number: u32,
    game: Game,
    end: GameEnd,
    black: usize,
    /// The players' names, seat by seat (the table's rows).
    names: [String; 2],
}

pub fn run(args: MatchArgs) -> Result<()> {
    let loaded = load_engine(&args.variant, args.engine)?;
    let v = loaded.variant.clone();
    let name = variant_name(&args.variant);
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..));
    let time = Duration::from_secs_f64(args.time_per_move.max(0.001));
    let time_b = args.time_per_move_b.map_or(time, |t| Duration::from_secs_f64(t.max(0.001)));
    let setup = |seed, time| Setup {
        variant: &v,
        variant_name: &name,
        piece_values: &loaded.piece_values,
        time_per_move: time,
        seed,
        threads: args.threads.max(1),
    };
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }

    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]").expect("template"));
    let mut tally = [Tally::default(), Tally::default()];
    let mut reasons: BTreeMap<String, u32> = BTreeMap::new();
    let mut plies = 0usize;
    // A's score game by game, for the interval.
    let mut a_scores = Vec::with_capacity(args.games as usize);
    let mut names = [args.a.to_string(), args.b.to_string()];
    // The sequential test as it stood when it decided (the games still being played count in
    // the table, not in the verdict).
    let mut decided: Option<(EloTest, usize, bool)> = None;
    let next = AtomicU32::new(0);
    let (sender, finished) = mpsc::channel::<Finished>();
    std::thread::scope(|scope| -> Result<()> {
        let slots: Vec<_> = (0..args.jobs.min(args.games.max(1)))
            .map(|slot| {
                let sender = sender.clone();
                let (next, bar, v) = (&next, &bar, &v);
                let setup = &setup;
                let args = &args;
                scope.spawn(move || -> Result<()> {
                    // Slot 0's random players draw as a match without slots always did.
                    let slot_seed = seed ^ u64::from(slot).wrapping_mul(0x2545_f491_4f6c_dd1d);
                    let mut players: [Box<dyn Player>; 2] =
                        [args.a.create(&setup(slot_seed, time))?, args.b.create(&setup(slot_seed ^ 0x9e37, time_b))?];
                    loop {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= args.games {
                            return Ok(());
                        }
                        // A plays Black in the odd games (1st, 3rd, …), B in the even ones.
                        let black = (g % 2) as usize;
                        for p in players.iter_mut() {
                            p.new_game()?;
                        }
                        let pair_seed = seed ^ u64::from(g / 2).wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        let opening = random_opening(v.as_ref(), args.opening_plies, pair_seed)?;
                        let (game, end) = play_game(v.as_ref(), opening, &mut players, black, args.max_plies, |msg| {
                            bar.println(msg)
                        })?;
                        let names = [players[0].name().to_string(), players[1].name().to_string()];
                        if sender.send(Finished { number: g, game, end, black, names }).is_err() {
                            return Ok(());
                        }
                    }
                })
            })
            .collect();
        drop(sender);
        for f in finished {
            plies += f.game.moves().len();
            *reasons.entry(f.end.reason.clone()).or_default() += 1;
            let seat_of = |side: Side| if side == Side::First { f.black } else { 1 - f.black };
            match f.end.winner {
                Some(w) => {
                    tally[seat_of(w)].wins += 1;
                    tally[seat_of(w.opponent())].losses += 1;
                    a_scores.push(if seat_of(w) == 0 { 1.0 } else { 0.0 });
                }
                None => {
                    tally[0].draws += 1;
                    tally[1].draws += 1;
                    a_scores.push(0.5);
                }
            }
            names = f.names.clone();
            if let Some(dir) = &args.records {
                write_record(dir, &f, &name, v.as_ref(), loaded.script_hash, &args)?;
            }
            let mut message = format!("{} {}–{} {}", names[0], tally[0].wins, tally[1].wins, names[1]);
            if let (Some((elo0, elo1)), None) = (args.sprt, decided) {
                let test = EloTest::of(&a_scores, elo0, elo1);
                message += &format!("  LLR {:.2} ({:.2}, {:.2})", test.llr, test.lower, test.upper);
                if let Some(h1) = test.verdict() {
                    decided = Some((test, a_scores.len(), h1));
                    // No slot starts another game; those being played are finished.
                    next.store(args.games, Ordering::Relaxed);
                    bar.set_length(a_scores.len() as u64 + u64::from(args.jobs) - 1);
                }
            }
            bar.set_message(message);
            bar.inc(1);
        }
        for slot in slots {
            slot.join().map_err(|_| anyhow::anyhow!("a game slot panicked"))??;
        }
        Ok(())
    })?;
    bar.finish_and_clear();

    let played = a_scores.len();
    let times = match args.time_per_move_b {
        Some(b) => format!("{} s per move for {}, {b} s for {}", args.time_per_move, names[0], names[1]),
        None => format!("{} s per move", args.time_per_move),
    };
    say!("{}: {} games, {times}, at most {} plies", name, played, args.max_plies);
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(6).max(6);
    say!("{:<width$} {:>6} {:>6} {:>7} {:>7}", "player", "wins", "draws", "losses", "score");
    for (n, t) in names.iter().zip(&tally) {
        let score = (t.wins as f64 + t.draws as f64 / 2.0) / played.max(1) as f64 * 100.0;
        say!("{:<width$} {:>6} {:>6} {:>7} {:>6.1}%", n, t.wins, t.draws, t.losses, score);
    }
    let a = Estimate::of(&a_scores);
    say!("{}'s score: {:.1}% (95% interval {:.1}–{:.1}%)", names[0], 100.0 * a.mean, 100.0 * a.low, 100.0 * a.high);
    let elo = |score: f64| match score_elo(score) {
        e if e.is_finite() => format!("{e:+.0}"),
        e if e > 0.0 => "+∞".to_string(),
        _ => "−∞".to_string(),
    };
    say!("Elo difference: {} (95% interval {} to {})", elo(a.mean), elo(a.low), elo(a.high));
    if let Some((elo0, elo1)) = args.sprt {
        let (a_name, b_name) = (&names[0], &names[1]);
        match decided {
            Some((test, games, true)) => say!(
                "sequential test: {a_name} is {elo1} Elo stronger than {b_name} rather than {elo0} (H1 accepted after {games} games, LLR {:.2} ≥ {:.2})",
                test.llr,
                test.upper
            ),
            Some((test, games, false)) => say!(
                "sequential test: {a_name} is not {elo1} Elo stronger than {b_name}; {elo0} fits better (H0 accepted after {games} games, LLR {:.2} ≤ {:.2})",
                test.llr,
                test.lower
            ),
            None => {
                let test = EloTest::of(&a_scores, elo0, elo1);
                say!(
                    "sequential test: undecided after {played} games (LLR {:.2}, between {:.2} and {:.2}); more games would tell",
                    test.llr,
                    test.lower,
                    test.upper
                )
            }
        }
    }
    say!("average length: {:.1} plies", plies as f64 / played.max(1) as f64);
    let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    say!("end reasons: {}", reasons.join(", "));
    Ok(())
}

/// Writes game `f` into `dir` as `game-NNN.henka`.
fn write_record(
    dir: &std::path::Path,
    f: &Finished,
    name: &str,
    v: &dyn Variant,
    script_hash: Option<u64>,
    args: &MatchArgs,
) -> Result<()> {
    let mut rec = Record::of_game(name, v, &f.game);
    rec.script_hash = script_hash;
    rec.result = Some(match f.end.winner {
        Some(w) => format!("{w} wins by {}", f.end.reason),
        None => format!("draw by {}", f.end.reason),
    });
    rec.options = vec![
        ("black".into(), f.names[f.black].clone()),
        ("white".into(), f.names[1 - f.black].clone()),
        ("time-per-move".into(), format!("{}", args.time_per_move)),
    ];
    if let Some(b) = args.time_per_move_b {
        rec.options.push(("time-per-move-b".into(), format!("{b}")));
    }
    if args.opening_plies > 0 {
        rec.options.push(("opening-plies".into(), args.opening_plies.to_string()));
    }
    let path = dir.join(format!("game-{:03}.henka", f.number + 1));
    std::fs::write(&path, rec.to_text()).with_context(|| format!("writing {}", path.display()))
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
