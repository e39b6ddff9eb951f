//! Replaying a game by notation: the one way a game is carried over to new rules (every reload —
//! the editor's, `henka play`'s) and read back from a record.
//!
//! A move value names pieces by their index in the rules' piece table, and a designer who reorders
//! the pieces in a script renumbers that table: the same value would move another piece, or none,
//! under the new rules. Notation names pieces by what the designer calls them, so each move is
//! written with the rules it was played under and read with the new ones.

use henka_api::{Game, NotationError, PlayError, Position, Variant};

/// A game replayed as far as its moves still read and are legal.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub game: Game,
    /// The moves not replayed, in notation and in order: the first that no longer reads or is not
    /// legal, and every move after it (the editor keeps them for Redo).
    pub rest: Vec<String>,
    /// Why the first of `rest` was refused.
    pub refused: Option<PlayError>,
    /// Why the start position string no longer reads, if it does not: the game then starts from
    /// the new rules' start position.
    pub start_refused: Option<NotationError>,
}

/// Carries `game`, played under `old`, over to `new`: from `start` (a position string; `None` is
/// the variant's start position, so the new rules' own start), each move written by `old` and read
/// by `new`, stopping at the first move that no longer reads or is not legal.
pub fn replay(old: &dyn Variant, new: &dyn Variant, start: Option<&str>, game: &Game) -> Replayed {
    let (start, start_refused) = match start.map(|s| new.parse_position(s)) {
        None => (new.start_position(), None),
        Some(Ok(p)) => (p, None),
        Some(Err(e)) => (new.start_position(), Some(e)),
    };
    Replayed { start_refused, ..play_notation(new, start, &notation(old, game)) }
}

/// Plays `moves`, in `v`'s notation, from `start`, stopping at the first that does not read or is
/// not legal.
pub fn play_notation(v: &dyn Variant, start: Position, moves: &[String]) -> Replayed {
    // A replay is one search for the hooks' time budget: a slow hook cannot stall a reload.
    let _search = henka_api::variant::SearchScope::new(v);
    let mut game = Game::new(start);
    for (i, m) in moves.iter().enumerate() {
        if let Err(e) = game.play_str(v, m) {
            return Replayed { game, rest: moves[i..].to_vec(), refused: Some(e), start_refused: None };
        }
    }
    Replayed { game, rest: Vec::new(), refused: None, start_refused: None }
}

/// The moves of `game` in the notation of `v`, the rules it was played under.
pub fn notation(v: &dyn Variant, game: &Game) -> Vec<String> {
    (0..game.moves().len()).map(|i| v.format_move(game.position_before(i), game.moves()[i])).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::script::load_source;

    pub const MINI: &str = include_str!("../../examples/first-variant.rhai");
    const GOLD: &str = "v.piece(#{ name: \"Gold General\", kanji: \"金将\", token: \"G\", moves: \"WfF\" });\n";

    /// Minishogi with the Gold General defined after the Silver General: every piece id from the
    /// Silver on is renumbered, the rules are the same.
    pub fn reordered() -> String {
        let pawn_at = MINI.find("// `drop` restrictions").unwrap();
        let text = format!("{}{GOLD}{}", &MINI[..pawn_at], &MINI[pawn_at..]).replacen(GOLD, "", 1);
        assert!(text.find("name: \"Silver General\"").unwrap() < text.find("name: \"Gold General\"").unwrap());
        text
    }

    /// A game of `plies` random moves (fixed seed) under `v`.
    fn random_game(v: &dyn Variant, plies: usize) -> Game {
        let mut game = Game::new(v.start_position());
        let mut rng = fastrand::Rng::with_seed(11);
        let mut moves = Vec::new();
        while game.moves().len() < plies && game.outcome(v).unwrap().is_none() {
            v.legal_moves(game.position(), &mut moves).unwrap();
            game.play(v, moves[rng.usize(..moves.len())]).unwrap();
        }
        game
    }

    #[test]
    fn reordered_pieces_replay_the_same_game() {
        let old = load_source("mini.rhai", MINI).unwrap().variant;
        let new = load_source("mini.rhai", &reordered()).unwrap().variant;
        assert_ne!(old.info().pieces[5].name, new.info().pieces[5].name, "the ids moved");
        let game = random_game(old.as_ref(), 60);
        assert!(game.moves().len() > 20, "a game long enough to capture and drop");
        let r = replay(old.as_ref(), new.as_ref(), None, &game);
        assert!(r.rest.is_empty() && r.refused.is_none(), "{:?}", r.refused);
        assert_eq!(notation(new.as_ref(), &r.game), notation(old.as_ref(), &game));
        for i in 0..=game.moves().len() {
            assert_eq!(
                new.format_position(r.game.position_before(i)),
                old.format_position(game.position_before(i)),
                "the same pieces stand on the same cells after {i} moves"
            );
        }
        assert_ne!(r.game.moves(), game.moves(), "by value, the moves would name other pieces");
    }

    #[test]
    fn a_replay_stops_at_the_first_move_made_illegal_and_returns_the_rest() {
        let old = load_source("mini.rhai", MINI).unwrap().variant;
        // Pawns step sideways instead of forward.
        let text = MINI.replace(r#"token: "P", moves: "fW""#, r#"token: "P", moves: "sW""#);
        let new = load_source("mini.rhai", &text).unwrap().variant;
        let start = "4k/4p/5/P4/KGSBR b - 1";
        let mut game = Game::new(old.parse_position(start).unwrap());
        for m in ["4e4d", "1a2a", "5d5c", "2a1a"] {
            game.play_str(old.as_ref(), m).unwrap();
        }
        let r = replay(old.as_ref(), new.as_ref(), Some(start), &game);
        assert_eq!(notation(new.as_ref(), &r.game), ["4e4d", "1a2a"]);
        assert_eq!(r.rest, ["5d5c", "2a1a"]);
        assert!(r.refused.is_some() && r.start_refused.is_none());
        assert_eq!(new.format_position(r.game.start()), start);
    }

    #[test]
    fn a_start_that_no_longer_reads_falls_back_to_the_new_start() {
        let old = load_source("mini.rhai", MINI).unwrap().variant;
        // The Gold General is gone, and with it the token G of the start string.
        let text = MINI.replace(GOLD, "").replace("rbsgk/4p/5/P4/KGSBR", "rbs1k/4p/5/P4/K1SBR");
        let new = load_source("mini.rhai", &text).unwrap().variant;
        let start = "4k/5/5/5/KG3 b - 1";
        let game = Game::new(old.parse_position(start).unwrap());
        let r = replay(old.as_ref(), new.as_ref(), Some(start), &game);
        assert!(r.start_refused.is_some());
        assert_eq!(r.game.start(), &new.start_position());
    }
}
