//! The editor's document and game, free of any UI: the script text being designed, the last rules
//! that compiled, and the game on the board. Everything the editor does to a game goes through
//! here, so the rules of "a game survives every reload" live in one place and are tested without a
//! window.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use henka_api::{Game, Move, Outcome, PlayError, Position, Variant};

use crate::replay;
use crate::script::{DeclaredOption, LoadedScript, ScriptError};

/// Hashes script text the way the loader does, so "did it change?" compares like with like.
pub fn text_hash(text: &str) -> u64 {
    crate::script::content_hash(text)
}

/// The script being edited: its name, where it is saved, its text, and what is on disk.
#[derive(Clone, Debug)]
pub struct Document {
    /// The variant's catalog name (the file stem), used for "Save" of a bundled script.
    pub name: String,
    /// Where the script is saved; `None` for a bundled script not yet saved by the designer.
    pub path: Option<PathBuf>,
    /// The text in the editor, possibly ahead of the file.
    pub text: String,
    /// The hash of the text as last read from or written to disk.
    pub saved_hash: u64,
}

impl Document {
    pub fn new(name: impl Into<String>, path: Option<PathBuf>, text: String) -> Document {
        Document { name: name.into(), path, saved_hash: text_hash(&text), text }
    }

    /// The name errors and the status line use: the path, or `bundled:<name>.rhai`.
    pub fn source_name(&self) -> String {
        match &self.path {
            Some(p) => p.display().to_string(),
            None => format!("bundled:{}.rhai", self.name),
        }
    }

    /// Whether the editor holds changes not yet saved.
    pub fn is_dirty(&self) -> bool {
        text_hash(&self.text) != self.saved_hash
    }
}

/// Where the game on the board started.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Start {
    /// The variant's start position: after a reload, the new rules' start.
    Variant,
    /// A position string from the setup editor or a pasted position.
    Custom(String),
}

/// What happened to the game when new rules arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayReport {
    /// Moves replayed under the new rules.
    pub kept: usize,
    /// The first move that is no longer legal (1-based move index and its notation), if any.
    pub cut_at: Option<(usize, String)>,
}

impl std::fmt::Display for ReplayReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.cut_at {
            None => write!(f, "game kept ({} moves replayed)", self.kept),
            Some((n, mv)) => write!(f, "move {n} ({mv}) is no longer legal: the game stops before it"),
        }
    }
}

/// The editor's state: document, last good rules, last error, and the game.
pub struct Session {
    pub doc: Document,
    variant: Arc<dyn Variant>,
    /// Hash of the text the current rules were built from.
    rules_hash: u64,
    /// Counts rule swaps, so caches keyed on it (legal moves) notice new rules.
    rules_generation: u64,
    /// The AI's piece values from the script (`value:`), by piece id.
    piece_values: Vec<Option<i32>>,
    /// The error of the newest compile, if it failed (the rules stay the last good ones).
    pub error: Option<ScriptError>,
    /// The options the rules in force declare, with their values.
    declared: Vec<DeclaredOption>,
    game: Game,
    start: Start,
    /// Moves taken back, newest last, in notation (so they survive a change of rules).
    redo: Vec<String>,
    /// A ply being looked at in the history (`None` = the live position).
    view: Option<usize>,
    /// The move list in notation, for the rules generation, start and moves it was written for:
    /// the list is drawn every frame, and a notation that reads the position (Ki Shogi's
    /// compass) costs a move generation per move.
    move_texts: std::sync::Mutex<Option<MoveTexts>>,
}

#[derive(Debug)]
struct MoveTexts {
    key: (u64, u64, Vec<Move>),
    texts: Vec<String>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("doc", &self.doc.name).field("moves", &self.game.moves().len()).finish()
    }
}

impl Session {
    /// A session on freshly loaded rules, at the variant's start.
    pub fn new(doc: Document, loaded: LoadedScript) -> Session {
        let variant: Arc<dyn Variant> = loaded.variant;
        Session {
            declared: loaded.options,
            doc,
            game: Game::new(variant.start_position()),
            variant,
            rules_hash: loaded.content_hash,
            rules_generation: 0,
            piece_values: loaded.piece_values,
            error: None,
            start: Start::Variant,
            redo: Vec::new(),
            view: None,
            move_texts: Default::default(),
        }
    }

    pub fn variant(&self) -> &Arc<dyn Variant> {
        &self.variant
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Changes whenever the rules in force change.
    pub fn rules_generation(&self) -> u64 {
        self.rules_generation
    }

    /// The script's piece values for the AI, by piece id (also used with its plugin, whose
    /// piece table is the script's).
    pub fn piece_values(&self) -> &[Option<i32>] {
        &self.piece_values
    }

    /// The rule options of the rules in force, with their values.
    pub fn declared_options(&self) -> &[DeclaredOption] {
        &self.declared
    }

    /// The hash of the script text the rules in force were built from.
    pub fn rules_hash(&self) -> u64 {
        self.rules_hash
    }

    /// Whether the rules in force were built from exactly this text.
    pub fn rules_match(&self, text: &str) -> bool {
        text_hash(text) == self.rules_hash
    }

    /// Takes the result of compiling `text`: new rules replace the old and the game is replayed
    /// under them; an error is kept for display and the old rules stay.
    pub fn apply_compiled(&mut self, text: &str, result: Result<LoadedScript, ScriptError>) -> Option<ReplayReport> {
        match result {
            Err(e) => {
                self.error = Some(e);
                None
            }
            Ok(loaded) => {
                self.error = None;
                self.rules_hash = text_hash(text);
                self.piece_values = loaded.piece_values;
                self.declared = loaded.options;
                Some(self.swap_rules(loaded.variant))
            }
        }
    }

    /// Takes the first rules of the document just opened: a fresh game from their start. The
    /// rules generation counts on, so what is keyed on it (legal moves, the AI's jobs) sees new
    /// rules even when the old game looked the same.
    pub fn open(&mut self, loaded: LoadedScript) {
        let doc = std::mem::replace(&mut self.doc, Document::new("", None, String::new()));
        *self = Session { rules_generation: self.rules_generation + 1, ..Session::new(doc, loaded) };
    }

    /// Plays on under other rules of the same variant (its compiled plugin, or the script again),
    /// replaying the game as after a reload.
    pub fn use_rules(&mut self, rules: Arc<dyn Variant>) -> ReplayReport {
        self.swap_rules(rules)
    }

    /// Replays the game under `new` (see [`crate::replay`]): the moves from the first that no
    /// longer reads or is legal are kept for Redo, in case the designer changes the rule back.
    fn swap_rules(&mut self, new: Arc<dyn Variant>) -> ReplayReport {
        let old = std::mem::replace(&mut self.variant, new);
        self.rules_generation += 1;
        let start = match &self.start {
            Start::Variant => None,
            Start::Custom(s) => Some(s.as_str()),
        };
        let r = replay::replay(old.as_ref(), self.variant.as_ref(), start, &self.game);
        if r.start_refused.is_some() {
            self.start = Start::Variant;
        }
        self.game = r.game;
        let kept = self.game.moves().len();
        let cut_at = r.rest.first().map(|m| (kept + 1, m.clone()));
        if !r.rest.is_empty() {
            self.redo = r.rest.into_iter().rev().collect();
        }
        self.view = self.view.map(|v| v.min(kept));
        ReplayReport { kept, cut_at }
    }

    /// The position on the board: the live one, or a past one while browsing the history.
    pub fn shown_position(&self) -> &Position {
        match self.view {
            Some(ply) => self.game.position_before(ply),
            None => self.game.position(),
        }
    }

    /// The ply shown (number of moves played before the shown position).
    pub fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.moves().len())
    }

    /// Shows the position after `ply` moves (the live one if `ply` is the last).
    pub fn show_ply(&mut self, ply: usize) {
        let n = self.game.moves().len();
        self.view = (ply < n).then_some(ply);
    }

    /// The move that led to the shown position, if any.
    pub fn last_shown_move(&self) -> Option<Move> {
        let ply = self.shown_ply();
        (ply > 0).then(|| self.game.moves()[ply - 1])
    }

    /// Legal moves in the shown position (none while browsing history or after the game's end).
    pub fn legal_moves(&self) -> Result<Vec<Move>, henka_api::RuleError> {
        let mut out = Vec::new();
        if self.view.is_none() && self.outcome().is_none() {
            self.variant.legal_moves(self.game.position(), &mut out)?;
        }
        Ok(out)
    }

    /// The game's result, if it is over (a hook error counts as "not over": it is shown elsewhere).
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(self.variant.as_ref()).ok().flatten()
    }

    /// Plays a move in the live position; playing while browsing the history branches from there.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if let Some(ply) = self.view.take() {
            while self.game.moves().len() > ply {
                self.game.undo();
            }
            self.redo.clear();
        }
        self.game.play(self.variant.as_ref(), mv)?;
        self.redo.clear();
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> bool {
        self.view = None;
        let n = self.game.moves().len();
        if n == 0 {
            return false;
        }
        let text = self.variant.format_move(self.game.position_before(n - 1), self.game.moves()[n - 1]);
        self.game.undo();
        self.redo.push(text);
        true
    }

    /// Plays again the last move taken back.
    pub fn redo(&mut self) -> bool {
        self.view = None;
        let Some(text) = self.redo.pop() else { return false };
        if self.game.play_str(self.variant.as_ref(), &text).is_err() {
            self.redo.clear();
            return false;
        }
        true
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The moves Redo would play, in the order it plays them.
    pub fn redo_moves(&self) -> Vec<String> {
        self.redo.iter().rev().cloned().collect()
    }

    /// A new game from the variant's start.
    pub fn new_game(&mut self) {
        self.start = Start::Variant;
        self.reset(self.variant.start_position());
    }

    /// A new game from a position string.
    pub fn start_from(&mut self, position: &str) -> Result<(), henka_api::NotationError> {
        let pos = self.variant.parse_position(position)?;
        self.start = Start::Custom(self.variant.format_position(&pos));
        self.reset(pos);
        Ok(())
    }

    /// Replaces the game with a replayed record's game, with `redo` (in the order Redo plays
    /// them) to go forward.
    pub fn load_game(&mut self, game: Game, redo: Vec<String>) {
        let start = self.variant.format_position(game.start());
        self.start = if start == self.variant.format_position(&self.variant.start_position()) {
            Start::Variant
        } else {
            Start::Custom(start)
        };
        self.game = game;
        self.redo = redo.into_iter().rev().collect();
        self.view = None;
    }

    fn reset(&mut self, pos: Position) {
        self.game = Game::new(pos);
        self.redo.clear();
        self.view = None;
    }

    /// The moves played, in notation.
    pub fn move_texts(&self) -> Vec<String> {
        let key = (self.rules_generation, self.game.start().hash(), self.game.moves().to_vec());
        let mut cache = self.move_texts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = cache.as_ref().filter(|c| c.key == key) {
            return c.texts.clone();
        }
        let texts = replay::notation(self.variant.as_ref(), &self.game);
        *cache = Some(MoveTexts { key, texts: texts.clone() });
        texts
    }
}

/// A reload as the status line reports it.
#[derive(Clone, Debug)]
pub struct ReloadStatus {
    pub source: String,
    /// From the change (file event or last keystroke of the pause) to the new rules being live.
    pub total: Duration,
    pub compile: Duration,
    pub report: Option<ReplayReport>,
    pub failed: bool,
}

impl std::fmt::Display for ReloadStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = std::path::Path::new(&self.source).file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        if self.failed {
            return write!(f, "{name}: error — keeping the last good rules");
        }
        write!(f, "reloaded {name} in {} ms (compile {} ms)", self.total.as_millis(), self.compile.as_millis())?;
        if let Some(r) = &self.report {
            write!(f, " — {r}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::load_source;

    const MINI: &str = include_str!("../../../examples/first-variant.rhai");

    fn session() -> Session {
        let doc = Document::new("mini", None, MINI.to_string());
        Session::new(doc, load_source("mini.rhai", MINI).unwrap())
    }

    fn play(s: &mut Session, m: &str) {
        let mv = s.variant().parse_move(s.game().position(), m).unwrap();
        s.play(mv).unwrap();
    }

    #[test]
    fn a_reload_keeps_the_game() {
        let mut s = session();
        play(&mut s, "5d5c");
        play(&mut s, "1b1c");
        let text = MINI.replace("Shogi on 5×5", "Shogi on a 5×5 board");
        let r = s.apply_compiled(&text, load_source("mini.rhai", &text)).unwrap();
        assert_eq!(r, ReplayReport { kept: 2, cut_at: None });
        assert_eq!(s.move_texts(), ["5d5c", "1b1c"]);
    }

    #[test]
    fn a_reload_stops_at_the_first_move_made_illegal_and_keeps_the_rest_for_redo() {
        let mut s = session();
        play(&mut s, "5d5c");
        play(&mut s, "1b1c");
        // The pawn no longer moves forward: its move becomes a sideways step.
        let text = MINI.replace(r#"token: "P", moves: "fW""#, r#"token: "P", moves: "sW""#);
        assert_ne!(text, MINI);
        let r = s.apply_compiled(&text, load_source("mini.rhai", &text)).unwrap();
        assert_eq!(r.cut_at, Some((1, "5d5c".to_string())));
        assert_eq!(s.game().moves().len(), 0);
        // Changing the rule back brings the moves back through Redo.
        s.apply_compiled(MINI, load_source("mini.rhai", MINI)).unwrap();
        assert!(s.redo() && s.redo());
        assert_eq!(s.move_texts(), ["5d5c", "1b1c"]);
    }

    #[test]
    fn a_reload_that_reorders_the_pieces_continues_the_same_game() {
        let mut s = session();
        play(&mut s, "4e4d"); // the Gold General
        play(&mut s, "2a2b");
        play(&mut s, "3e3d"); // the Silver General
        let before = s.variant().format_position(s.game().position());
        let text = crate::replay::tests::reordered();
        let r = s.apply_compiled(&text, load_source("mini.rhai", &text)).unwrap();
        assert_eq!(r, ReplayReport { kept: 3, cut_at: None });
        assert_eq!(s.variant().format_position(s.game().position()), before);
        play(&mut s, "1a2a");
        play(&mut s, "4d3c"); // still the Gold: it steps diagonally forward
        let v = s.variant().clone();
        let g = v.geometry();
        let on = |cell: &str| {
            let c = henka_api::notation::parse_cell(g, cell).unwrap();
            v.info().pieces[s.game().position().piece_at(c).unwrap().ty as usize].name.clone()
        };
        assert_eq!(on("3c"), "Gold General");
        assert_eq!(on("3d"), "Silver General");
    }

    #[test]
    fn a_broken_script_keeps_the_last_good_rules_and_the_game() {
        let mut s = session();
        play(&mut s, "5d5c");
        let text = MINI.replace("v.drops(true);", "v.drops(true;");
        assert!(s.apply_compiled(&text, load_source("mini.rhai", &text)).is_none());
        let e = s.error.as_ref().unwrap();
        assert_eq!(e.location.as_ref().unwrap().line, 39, "{e}");
        assert_eq!(s.move_texts(), ["5d5c"]);
        assert!(!s.legal_moves().unwrap().is_empty());
    }

    #[test]
    fn undo_redo_and_history_browsing() {
        let mut s = session();
        play(&mut s, "5d5c");
        play(&mut s, "1b1c");
        s.show_ply(1);
        assert_eq!(s.shown_ply(), 1);
        assert!(s.legal_moves().unwrap().is_empty(), "no moves while looking at the past");
        assert!(s.undo());
        assert_eq!(s.move_texts(), ["5d5c"]);
        assert!(s.redo());
        assert_eq!(s.move_texts(), ["5d5c", "1b1c"]);
        // Playing from a past position branches the game there.
        s.show_ply(1);
        play_shown(&mut s, "2a2b");
        assert_eq!(s.move_texts(), ["5d5c", "2a2b"]);
        assert!(!s.can_redo());
    }

    fn play_shown(s: &mut Session, m: &str) {
        let mv = s.variant().parse_move(s.shown_position(), m).unwrap();
        s.play(mv).unwrap();
    }

    #[test]
    fn a_custom_start_survives_a_reload() {
        let mut s = session();
        s.start_from("4k/5/5/5/K4 b P 1").unwrap();
        play(&mut s, "P*3c");
        let text = MINI.replace("1.0", "1.1");
        s.apply_compiled(&text, load_source("mini.rhai", &text)).unwrap();
        assert_eq!(s.variant().format_position(s.game().start()), "4k/5/5/5/K4 b P 1");
        assert_eq!(s.move_texts(), ["P*3c"]);
    }
}
