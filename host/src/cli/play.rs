//! `henka play`: a game in the terminal, each side a human at the keyboard or a random mover.

use std::io::{BufRead, Write};

use anyhow::Result;
use henka_api::{Move, Side, Variant};

use super::{PositionArgs, load_variant, position_from, sorted_moves};
use crate::text_board;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    Human,
    Random,
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
    #[command(flatten)]
    at: PositionArgs,
}

const HELP: &str = "Type a move (e.g. 7g7f, 7g7f+, P*5e), or: moves, undo, board, position, help, quit";

pub fn run(args: PlayArgs) -> Result<()> {
    let (entry, v) = load_variant(&args.variant)?;
    let v: &dyn Variant = v.as_ref();
    let mut game = position_from(v, &args.at)?;
    let mut rng = match args.seed {
        Some(s) => fastrand::Rng::with_seed(s),
        None => fastrand::Rng::new(),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    say!("{} — {} (Black: {:?}, White: {:?})", v.info().meta.name, entry.origin(), args.black, args.white);
    if args.black == Player::Human || args.white == Player::Human {
        say!("{HELP}");
    }
    if !args.quiet {
        say!("{}", text_board::render(v, game.position()));
    }
    while game.moves().len() < args.max_plies {
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
    match game.outcome(v)? {
        Some(o) => say!("result: {o}"),
        None => say!("stopped after {} plies", game.moves().len()),
    }
    Ok(())
}
