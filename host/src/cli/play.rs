//! `henka play`: a game in the terminal, each side a human at the keyboard, a random mover or the
//! AI.

use std::io::{BufRead, Write};
use std::sync::Arc;

use anyhow::Result;
use henka_api::{Game, Move, Side, Variant};

use super::{Engine, Loaded, PositionArgs, load_engine, position_from, sorted_moves};
use crate::text_board;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    Human,
    Random,
    Ai,
}

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    variant: String,
    /// Who plays Black (the first player).
    #[arg(long, value_enum, default_value_t = Player::Human)]
    black: Player,
    /// Who plays White (the second player).
    #[arg(long, value_enum, default_value_t = Player::Random)]
    white: Player,
    /// Seed for the random mover (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Stop after this many plies.
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
    /// Print only the moves and the result, not the board after each move.
    #[arg(long)]
    quiet: bool,
    /// The AI's thinking time per move, in seconds.
    #[arg(long, default_value_t = 1.0)]
    time_per_move: f64,
    #[arg(long, value_enum, default_value_t = Engine::Script)]
    engine: Engine,
    #[command(flatten)]
    at: PositionArgs,
}

const HELP: &str =
    "Type a move (e.g. 7g7f, 7g7f+, P*5e), or: moves, undo, board, position, reload (the rebuilt rules), help, quit";

pub fn run(args: PlayArgs) -> Result<()> {
    let mut loaded = load_engine(&args.variant, args.engine)?;
    // Made on its first move, and again after a reload (the AI is built for one set of rules).
    let mut ai: Option<Box<dyn crate::player::Player>> = None;
    let v: &dyn Variant = loaded.variant.as_ref();
    let mut game = position_from(v, &args.at)?;
    let mut rng = match args.seed {
        Some(s) => fastrand::Rng::with_seed(s),
        None => fastrand::Rng::new(),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    say!("{} — {} (Black: {:?}, White: {:?})", v.info().meta.name, loaded.origin, args.black, args.white);
    if args.black == Player::Human || args.white == Player::Human {
        say!("{HELP}");
    }
    if !args.quiet {
        say!("{}", text_board::render(v, game.position()));
    }
    while game.moves().len() < args.max_plies {
        let v: &dyn Variant = loaded.variant.as_ref();
        if let Some(o) = game.outcome(v)? {
            say!("result: {o}");
            return Ok(());
        }
        let side = game.position().side_to_move();
        let player = if side == Side::First { args.black } else { args.white };
        let before = game.position().clone();
        match player {
            Player::Random => {
                let mut moves: Vec<Move> = Vec::new();
                v.legal_moves(&before, &mut moves)?;
                let mv = moves[rng.usize(..moves.len())];
                game.play(v, mv)?;
                say!("{}. {side}: {}", game.moves().len(), v.format_move(&before, mv));
            }
            Player::Ai => {
                let player = match &mut ai {
                    Some(p) => p,
                    None => ai.insert(crate::player::PlayerSpec::Ai.create(&crate::player::Setup {
                        variant: &loaded.variant,
                        variant_name: &args.variant,
                        piece_values: &loaded.piece_values,
                        time_per_move: std::time::Duration::from_secs_f64(args.time_per_move.max(0.001)),
                        seed: 0,
                        threads: 1,
                    })?),
                };
                match player.choose(&game)? {
                    crate::player::Decision::Play(mv) => {
                        game.play(v, mv)?;
                        say!("{}. {side}: {}", game.moves().len(), v.format_move(&before, mv));
                    }
                    crate::player::Decision::Resign => {
                        say!("{side} resigns");
                        return Ok(());
                    }
                }
            }
            Player::Human => {
                print!("{side} to move> ");
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else {
                    say!("\n(end of input)");
                    return Ok(());
                };
                let line = line?;
                match line.trim() {
                    "" => continue,
                    "quit" | "exit" => return Ok(()),
                    "help" => say!("{HELP}"),
                    "moves" => say!("{}", sorted_moves(v, &game)?.join(" ")),
                    "board" => say!("{}", text_board::render(v, game.position())),
                    "position" => say!("{}", v.format_position(game.position())),
                    "reload" => {
                        if let Some(new) = reload(&args, &loaded, &mut game)? {
                            loaded = new;
                            ai = None;
                        }
                        continue;
                    }
                    "undo" => {
                        // Take back to the human's previous turn.
                        game.undo();
                        while game.position().side_to_move() != side && game.undo().is_some() {}
                        say!("{}", text_board::render(v, game.position()));
                    }
                    m => match game.play_str(v, m) {
                        Ok(mv) => say!("{}. {side}: {}", game.moves().len(), v.format_move(&before, mv)),
                        Err(e) => say!("{e} — type `moves` for the legal moves"),
                    },
                }
                if player == Player::Human && game.position().side_to_move() == side {
                    continue;
                }
            }
        }
        if !args.quiet {
            say!("{}", text_board::render(v, game.position()));
        }
    }
    match game.outcome(loaded.variant.as_ref())? {
        Some(o) => say!("result: {o}"),
        None => say!("stopped after {} plies", game.moves().len()),
    }
    Ok(())
}

/// Loads the variant again — a changed script, or a rebuilt plugin in fresh workers — and replays
/// the game under the new rules by notation (a reordered piece table renumbers pieces) up to the
/// first move that no longer reads or is not legal. On failure, or when nothing changed, the game
/// goes on under the rules it had (`None`).
fn reload(args: &PlayArgs, current: &Loaded, game: &mut Game) -> Result<Option<Loaded>> {
    let l = match load_engine(&args.variant, args.engine) {
        Ok(l) => l,
        Err(e) => {
            say!("reload failed, the game goes on under the rules it had: {e:#}");
            return Ok(None);
        }
    };
    if Arc::ptr_eq(&l.variant, &current.variant) {
        say!("{} has not changed", l.origin);
        return Ok(None);
    }
    let r = crate::replay::replay(current.variant.as_ref(), l.variant.as_ref(), args.at.position.as_deref(), game);
    if let Some(e) = &r.start_refused {
        say!("the start position does not read under the new rules ({e}); the game starts from theirs");
    }
    match r.rest.first() {
        Some(m) => say!(
            "reloaded {}; move {} ({m}) is not legal any more, the game goes on from before it",
            l.origin,
            r.game.moves().len() + 1,
        ),
        None => say!("reloaded {}; all {} moves replayed", l.origin, r.game.moves().len()),
    }
    *game = r.game;
    say!("{}", text_board::render(l.variant.as_ref(), game.position()));
    Ok(Some(l))
}
