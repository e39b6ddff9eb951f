//! The editor's controller, free of any UI: what is open, the game on the board, and the policies
//! around them — opening (asking first when there are unsaved changes), saving, the autosave, when
//! a compiled script replaces the rules (the typing pause, file changes, a clash with unsaved
//! changes), which engine plays, and the rule options. The window ([`super::app`]) draws it and
//! turns clicks into calls; its tests drive it without one.
//!
//! Every script compiles on the reload worker ([`super::reload`]) and [`Controller::poll`] takes
//! the results: opening a variant, a change of rule options and going back to the script engine
//! ask for a compile as typing does, and the board keeps the last good rules until one succeeds.
//! Only the very first compile is waited for, in [`Controller::new`]: before it there are no
//! rules, so nothing to show.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use henka_api::{Move, Variant};

use super::autosave::{self, Autosave};
use super::file_dialog::write_atomically;
use super::reload::{Compiled, Reloader, Waker};
use super::session::{Document, ReloadStatus, Session, text_hash};
use crate::catalog::{self, Entry, Source};
use crate::plugin::PluginFile;
use crate::script::{LoadedScript, RuleOptions, ScriptError};
use crate::{record, template};

/// The variant the editor opens on a fresh machine.
pub const DEFAULT_VARIANT: &str = "okisaki";

/// How the editor starts.
#[derive(Clone, Debug)]
pub struct StartOptions {
    /// A variant name or script path; default: the last one open, else [`DEFAULT_VARIANT`].
    pub open: Option<String>,
    /// A position string to start the game from.
    pub position: Option<String>,
    /// Moves to play first.
    pub moves: Vec<String>,
    /// How long typing must pause before the script recompiles.
    pub typing_pause: Duration,
    /// Keep the game in progress in this file, and restore it from there at the start (unless a
    /// variant, position or moves are given).
    pub autosave: Option<PathBuf>,
}

impl Default for StartOptions {
    fn default() -> Self {
        StartOptions {
            open: None,
            position: None,
            moves: Vec::new(),
            typing_pause: Duration::from_millis(300),
            autosave: None,
        }
    }
}

/// Which implementation of the open variant plays on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Engine {
    Script,
    /// The compiled plugin of the same name, from this file.
    Plugin(PathBuf),
}

/// A compile asked for by more than a change of text: its result is reported as that.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Awaited {
    /// The document just opened has no rules yet: the first that compile start a fresh game, and
    /// then the board plays this plugin, if one was asked for.
    Open { plugin: Option<PathBuf> },
    /// Back to the script's rules from a plugin's.
    ScriptEngine,
}

/// What the legal moves on screen depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LegalKey {
    rules: u64,
    ply: usize,
    moves: usize,
    hash: u64,
}

/// A message on the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub error: bool,
}

/// Something the window must follow up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Other rules play on the board: picks, choices and counts made under the old ones are void.
    NewRules,
    /// The document just opened has its first rules: a fresh game, and whatever was set up for
    /// the previous one is void (it comes with [`Event::NewRules`]).
    Opened,
    /// A script was written where the variant browser looks.
    CatalogChanged,
}

/// What became of "Save".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum Saved {
    /// Written, or the failure is on the status line.
    Done,
    /// A bundled script with no user folder to save it in: ask where.
    AskPath,
}

/// The designer's answer when a variant is opened over unsaved changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discard {
    SaveFirst,
    Discard,
    Cancel,
}

/// The editor without its window.
pub struct Controller {
    session: Session,
    /// The rule options the designer chose: every compile of the document is asked with them.
    options: RuleOptions,
    reloader: Reloader,
    engine: Engine,
    /// A call into the plugin failed (its worker may have crashed or hung): the next use opens
    /// it again — a fresh worker — and replays the game on it.
    plugin_failed: bool,
    awaited: Option<Awaited>,
    /// When the text was last edited, while its compile waits for typing to pause.
    pending_edit: Option<Instant>,
    typing_pause: Duration,
    /// A variant to open once the designer says what to do with unsaved changes.
    confirm_discard: Option<Entry>,
    /// A newer version on disk while the editor holds unsaved changes.
    disk_conflict: Option<Compiled>,
    /// "New game" over a game with moves waits for the designer to confirm.
    confirm_new_game: bool,
    /// The game each variant left open had when another was opened, by the document's source
    /// name: opening that variant again brings its game back, moves and all.
    games: HashMap<String, record::Record>,
    autosave: Option<Autosave>,
    /// The legal moves of the shown position, kept while neither it nor the rules change (a
    /// large variant's move generation, with script hooks, would otherwise run every frame).
    legal_cache: Option<(LegalKey, Vec<Move>)>,
    message: Option<Message>,
    reload_status: Option<ReloadStatus>,
    events: Vec<Event>,
}

impl std::fmt::Debug for Controller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Controller").field("session", &self.session).field("engine", &self.engine).finish()
    }
}

/// Reads a catalog entry's text and path.
fn read_entry(entry: &Entry) -> Result<Document, String> {
    match &entry.source {
        Source::Bundled(text) => Ok(Document::new(&entry.name, None, text.to_string())),
        Source::File(p) => std::fs::read_to_string(p)
            .map(|t| Document::new(&entry.name, Some(p.clone()), t))
            .map_err(|e| format!("cannot read {}: {e}", p.display())),
    }
}

fn default_entry() -> Entry {
    catalog::find(DEFAULT_VARIANT, &[]).expect("the default variant is bundled")
}

/// The values a load used, as choices for the next compile.
fn chosen(loaded: &LoadedScript) -> RuleOptions {
    loaded.options.iter().map(|o| (o.name.clone(), o.value.clone())).collect()
}

/// Compiles `doc` on the worker and waits for it: only for the first rules, before there is a
/// board to show.
fn first_compile(reloader: &Reloader, doc: &Document, options: &RuleOptions) -> Result<LoadedScript, ScriptError> {
    reloader.compile_text(&doc.source_name(), &doc.text, options, Instant::now());
    reloader.wait().expect("the compile worker runs").result
}

impl Controller {
    /// Opens `start.open` (or the game autosaved last, or `last_open`, or the default), waiting
    /// for its first rules; `wake` asks the window for a frame when a later compile is done.
    pub fn new(start: &StartOptions, last_open: Option<String>, wake: Waker) -> Controller {
        let reloader = Reloader::new(wake);
        let autosave = start.autosave.clone().map(Autosave::new);
        // The game in progress when the editor last ran, unless told what to open.
        let fresh_start = start.open.is_none() && start.position.is_none() && start.moves.is_empty();
        let mut autosave_problem = None;
        let restore = match autosave.as_ref().and_then(Autosave::load) {
            Some(Ok(r)) if fresh_start => Some(r),
            Some(Err(e)) => {
                autosave_problem = Some(e);
                None
            }
            _ => None,
        };
        let restore_open = restore
            .as_ref()
            .and_then(|r| r.option(autosave::SCRIPT_OPTION).map(str::to_string).or_else(|| r.variant.clone()));
        let wanted = start.open.clone().or(restore_open).or(last_open);
        let mut message = None;
        let entry = match wanted.as_deref().map(|w| (w, catalog::find(w, &catalog::search_dirs()))) {
            Some((_, Some(e))) => e,
            Some((w, None)) => {
                message = Some(Message { text: format!("no variant {w:?}; opened {DEFAULT_VARIANT}"), error: true });
                default_entry()
            }
            None => default_entry(),
        };
        // The rule options: the restored game's, else the command line's.
        let options: RuleOptions = match &restore {
            Some(r) => r.rules.iter().cloned().collect(),
            None => catalog::chosen_options(),
        };
        let default_doc = || read_entry(&default_entry()).expect("bundled text");
        let doc = read_entry(&entry).unwrap_or_else(|e| {
            message = Some(Message { text: e, error: true });
            default_doc()
        });
        let (session, options, awaited) = match first_compile(&reloader, &doc, &options) {
            Ok(loaded) => {
                let options = chosen(&loaded);
                (Session::new(doc, loaded), options, None)
            }
            Err(err) => {
                // Open the broken script anyway so it can be fixed here; play goes on under the
                // default rules until it compiles.
                let loaded =
                    first_compile(&reloader, &default_doc(), &RuleOptions::new()).expect("the bundled default loads");
                let mut s = Session::new(default_doc(), loaded);
                s.doc = doc;
                s.error = Some(err);
                message = Some(Message {
                    text: format!("the script has errors; the board plays {DEFAULT_VARIANT} until it compiles"),
                    error: true,
                });
                (s, options, Some(Awaited::Open { plugin: None }))
            }
        };
        let mut c = Controller {
            session,
            options,
            reloader,
            engine: Engine::Script,
            plugin_failed: false,
            awaited,
            pending_edit: None,
            typing_pause: start.typing_pause,
            confirm_discard: None,
            disk_conflict: None,
            confirm_new_game: false,
            games: HashMap::new(),
            autosave,
            legal_cache: None,
            message,
            reload_status: None,
            events: Vec::new(),
        };
        c.watch_document();
        if let Some(r) = restore
            && r.variant.as_deref() == Some(c.session.doc.name.as_str())
        {
            match c.autosave.clone() {
                Some(a) => a.guard_restore(|| c.restore(&r)),
                None => c.restore(&r),
            }
        }
        if let Some(e) = autosave_problem {
            c.say_error(e);
        }
        if let Some(p) = &start.position
            && let Err(e) = c.session.start_from(p)
        {
            c.say_error(format!("position {p:?}: {e}"));
        }
        for m in &start.moves {
            let v = c.session.variant().clone();
            match v.parse_move(c.session.game().position(), m) {
                Ok(mv) => {
                    let _ = c.session.play(mv);
                }
                Err(e) => {
                    c.say_error(format!("move {m}: {e}"));
                    break;
                }
            }
        }
        c
    }

    // ----- what the window shows ------------------------------------------------------------

    /// The document, the rules in force and the game.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The script text, for the script panel to edit in place; call [`Controller::text_edited`]
    /// after a change.
    pub fn text_mut(&mut self) -> &mut String {
        &mut self.session.doc.text
    }

    /// The rule options the designer chose (the rules in force declare theirs with the values
    /// they were built with: [`Session::declared_options`]).
    pub fn options(&self) -> &RuleOptions {
        &self.options
    }

    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The last reload, for the status line.
    pub fn reload_status(&self) -> Option<&ReloadStatus> {
        self.reload_status.as_ref()
    }

    /// Whether an open waits for the designer to say what becomes of unsaved changes.
    pub fn asks_to_discard(&self) -> bool {
        self.confirm_discard.is_some()
    }

    /// Whether a newer version on disk waits for the designer's choice.
    pub fn asks_about_disk_version(&self) -> bool {
        self.disk_conflict.is_some()
    }

    /// Whether the board plays the compiled plugin rather than the script.
    pub fn plays_plugin(&self) -> bool {
        self.engine != Engine::Script
    }

    /// The plugin the board plays, else the open variant's compiled plugin if one is built.
    pub fn plugin(&self) -> Option<PathBuf> {
        match &self.engine {
            Engine::Plugin(p) => Some(p.clone()),
            Engine::Script => {
                crate::plugin::find(&self.session.doc.name, &crate::plugin::search_dirs()).map(|f| f.path)
            }
        }
    }

    /// What happened since the last call that the window must follow up.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), error: false });
    }

    pub fn say_error(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), error: true });
    }

    // ----- the game -------------------------------------------------------------------------

    /// The legal moves of the shown position (none while browsing history), computed once per
    /// position and rules.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        self.recover_plugin();
        let s = &self.session;
        let key = LegalKey {
            rules: s.rules_generation(),
            ply: s.shown_ply(),
            moves: s.game().moves().len(),
            hash: s.shown_position().hash(),
        };
        if let Some((k, moves)) = &self.legal_cache
            && *k == key
        {
            return moves.clone();
        }
        match self.session.legal_moves() {
            Ok(moves) => {
                self.legal_cache = Some((key, moves.clone()));
                moves
            }
            Err(e) => {
                self.failed(e.to_string());
                Vec::new()
            }
        }
    }

    pub fn play(&mut self, mv: Move) {
        self.recover_plugin();
        if let Err(e) = self.session.play(mv) {
            self.failed(e.to_string());
        }
    }

    /// Says what failed; a failure of the plugin's marks it for a restart on the next use.
    fn failed(&mut self, message: String) {
        if self.plays_plugin() {
            self.plugin_failed = true;
        }
        self.say_error(message);
    }

    /// After a plugin failure: opens the plugin again (a worker that died is replaced by a fresh
    /// one) and replays the game on it, so a crash costs the game nothing.
    fn recover_plugin(&mut self) {
        if !std::mem::take(&mut self.plugin_failed) {
            return;
        }
        let Engine::Plugin(path) = self.engine.clone() else { return };
        match crate::plugin::open(&path) {
            Ok(p) => {
                let report = self.session.use_rules(p);
                self.new_rules();
                self.say(format!("plugin {}: restarted after the failure; {report}", path.display()));
            }
            Err(e) => {
                self.plugin_failed = true;
                self.say_error(e.to_string());
            }
        }
    }

    pub fn undo(&mut self) {
        self.session.undo();
    }

    pub fn redo(&mut self) {
        self.session.redo();
    }

    /// Starts a new game at once when nothing would be lost; over a game with moves it asks first
    /// ([`Controller::asks_new_game`], answered by [`Controller::resolve_new_game`]).
    pub fn new_game(&mut self) {
        if self.session.game().moves().is_empty() {
            self.session.new_game();
        } else {
            self.confirm_new_game = true;
        }
    }

    /// Whether "New game" waits for the designer to confirm dropping the game in progress.
    pub fn asks_new_game(&self) -> bool {
        self.confirm_new_game
    }

    /// The answer to "drop the game in progress?": a new game, or the game goes on.
    pub fn resolve_new_game(&mut self, start: bool) {
        if std::mem::take(&mut self.confirm_new_game) && start {
            self.session.new_game();
        }
    }

    /// Shows the position after `ply` moves (the live one from the last on).
    pub fn show_ply(&mut self, ply: usize) {
        self.session.show_ply(ply);
    }

    /// A new game from a position string; whether it read.
    pub fn start_from(&mut self, position: &str) -> bool {
        match self.session.start_from(position) {
            Ok(()) => true,
            Err(e) => {
                self.say_error(format!("position: {e}"));
                false
            }
        }
    }

    /// A game record of the game on the board, with the script it was played under and the moves
    /// Redo would play (so an autosave or a game kept for another variant can still go forward).
    pub fn game_record(&self) -> record::Record {
        let v = self.session.variant();
        let mut r = record::Record::of_game(&self.session.doc.name, v.as_ref(), self.session.game());
        if self.engine == Engine::Script {
            r.script_hash = Some(self.session.rules_hash());
        }
        if let Some(p) = &self.session.doc.path {
            let p = p.canonicalize().unwrap_or_else(|_| p.clone());
            r.options.push((autosave::SCRIPT_OPTION.to_string(), p.display().to_string()));
        }
        r.rules = self.session.declared_options().iter().map(|o| (o.name.clone(), o.value.clone())).collect();
        r.redo = self.session.redo_moves();
        r
    }

    pub fn save_game(&mut self, path: &Path) {
        match write_atomically(path, &self.game_record().to_text()) {
            Ok(()) => self.say(format!("game saved to {}", path.display())),
            Err(e) => self.say_error(format!("cannot save {}: {e}", path.display())),
        }
    }

    /// Writes the rules sheet of the rules in force (the script's text as it compiled them) to
    /// `path`; a script with an error is fixed first, so the sheet never shows other rules than
    /// its script.
    pub fn save_sheet(&mut self, path: &Path) {
        if let Some(e) = &self.session.error {
            self.say_error(format!("fix the script first ({e}): the sheet carries the script"));
            return;
        }
        let file_name = format!("{}.rhai", self.session.doc.name);
        let page = crate::sheet::sheet(&crate::sheet::SheetInput {
            variant: self.session.variant().as_ref(),
            file_name: &file_name,
            script: &self.session.doc.text,
            options: self.session.declared_options(),
        });
        match write_atomically(path, &page) {
            Ok(()) => self.say(format!("rules sheet saved to {}", path.display())),
            Err(e) => self.say_error(format!("cannot save {}: {e}", path.display())),
        }
    }

    pub fn load_game(&mut self, path: &Path) {
        let v = self.session.variant().clone();
        let loaded = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| record::parse(&t))
            .and_then(|r| record::replay(v.as_ref(), &r).map(|g| (g, r)));
        match loaded {
            Ok((game, r)) => {
                self.session.load_game(game, r.redo.clone());
                let note = r.rules_changed(self.session.rules_hash()).map(|w| format!(" ({w})"));
                self.say(format!("game loaded from {}{}", path.display(), note.unwrap_or_default()));
            }
            Err(e) => self.say_error(format!("{}: {e}", path.display())),
        }
    }

    /// Plays an autosaved game back onto the board, as far as the rules still allow.
    fn restore(&mut self, r: &record::Record) {
        self.replay_onto_board(r, "restored the game in progress", "the autosaved game could not be restored");
    }

    /// Plays a kept game back onto the board as far as the rules allow, and says how far
    /// (`done` for the message, `failed` when not even its start reads).
    fn replay_onto_board(&mut self, r: &record::Record, done: &str, failed: &str) {
        let v = self.session.variant().clone();
        match record::replay_prefix(v.as_ref(), r) {
            Ok(record::Prefix { game, cut, redo }) => {
                let n = game.moves().len();
                self.session.load_game(game, redo);
                match cut {
                    None => self.say(format!("{done} ({n} moves)")),
                    Some(e) => self.say_error(format!("{done} up to {e}")),
                }
            }
            Err(e) => self.say_error(format!("{failed}: {e}")),
        }
    }

    /// Saves the game to the autosave file when it changed.
    pub fn autosave(&mut self) {
        let Some(mut a) = self.autosave.take() else { return };
        if let Err(e) = a.save(&self.game_record()) {
            self.say_error(format!("cannot autosave to {}: {e}", a.path().display()));
        }
        self.autosave = Some(a);
    }

    // ----- the document ---------------------------------------------------------------------

    /// Opens a catalog entry, asking first if there are unsaved changes.
    pub fn open(&mut self, entry: Entry) {
        if self.session.doc.is_dirty() {
            self.confirm_discard = Some(entry);
            return;
        }
        self.open_now(entry, None);
    }

    /// Opens a script file (from the dialog or dropped on the window).
    pub fn open_path(&mut self, path: &Path) {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        self.open(Entry { name, source: Source::File(path.to_path_buf()) });
    }

    /// Opens the script a plugin is named after, and plays the plugin once the script's rules are
    /// in (the script stays the reference: the pieces, the values, the text to edit).
    pub fn open_plugin(&mut self, plugin: PluginFile) {
        match catalog::find(&plugin.name, &catalog::search_dirs()) {
            Some(e) if !self.session.doc.is_dirty() => self.open_now(e, Some(plugin.path)),
            Some(e) => self.open(e),
            None => self.say_error(format!("no script called {}: a plugin plays beside its script", plugin.name)),
        }
    }

    /// The designer's answer to "unsaved changes": the open waiting on it goes ahead or not.
    pub fn resolve_discard(&mut self, answer: Discard) {
        let Some(entry) = self.confirm_discard.take() else { return };
        match answer {
            Discard::Cancel => return,
            Discard::SaveFirst => {
                if self.save() == Saved::AskPath {
                    self.say_error("no variants folder to save in (set HENKA_VARIANTS): use Save script as…");
                }
                // Not saved (the status line says why): the changes stay, and so does the document.
                if self.session.doc.is_dirty() {
                    return;
                }
            }
            Discard::Discard => {}
        }
        self.open_now(entry, None);
    }

    /// Starts using `entry`'s text at once; its rules follow from the worker (the board keeps the
    /// current ones until they compile).
    fn open_now(&mut self, entry: Entry, plugin: Option<PathBuf>) {
        let doc = match read_entry(&entry) {
            Ok(d) => d,
            Err(e) => return self.say_error(e),
        };
        self.keep_game();
        self.engine = Engine::Script;
        self.options = catalog::chosen_options();
        self.reload_status = None;
        self.confirm_new_game = false;
        self.session.doc = doc;
        self.session.error = None;
        self.pending_edit = None;
        self.disk_conflict = None;
        self.awaited = Some(Awaited::Open { plugin });
        self.compile(Instant::now());
        self.watch_document();
    }

    /// Keeps the game on the board for when its variant is opened again (while the document's
    /// first rules are awaited, the board's game is not the document's: nothing is kept).
    fn keep_game(&mut self) {
        if matches!(self.awaited, Some(Awaited::Open { .. })) {
            return;
        }
        let key = self.session.doc.source_name();
        let v = self.session.variant();
        let fresh = self.session.game().moves().is_empty()
            && v.format_position(self.session.game().start()) == v.format_position(&v.start_position());
        if fresh {
            self.games.remove(&key);
        } else {
            let record = self.game_record();
            self.games.insert(key, record);
        }
    }

    /// A new variant from the template, in the user's folder, opened; whether it was made.
    pub fn new_variant(&mut self, name: &str) -> bool {
        let Some(dir) = catalog::user_dir() else {
            self.say_error("no user folder (set HENKA_VARIANTS)");
            return false;
        };
        match template::create(name, &dir) {
            Ok(path) => {
                self.events.push(Event::CatalogChanged);
                self.open_path(&path);
                true
            }
            Err(e) => {
                self.say_error(e.to_string());
                false
            }
        }
    }

    /// Saves the script; a bundled script is saved to the user's variants folder under its name
    /// (where it then overrides the bundled one).
    pub fn save(&mut self) -> Saved {
        let path = match &self.session.doc.path {
            Some(p) => p.clone(),
            None => match catalog::user_dir() {
                Some(d) => d.join(format!("{}.rhai", self.session.doc.name)),
                None => return Saved::AskPath,
            },
        };
        self.save_as(&path);
        Saved::Done
    }

    /// Saves the script to `path`, which becomes its file.
    pub fn save_as(&mut self, path: &Path) {
        let text = self.session.doc.text.clone();
        // Tell the watcher first, so the echo of this save is recognised as ours.
        self.reloader.note_file_text(path, &text);
        if let Err(e) = write_atomically(path, &text) {
            return self.say_error(format!("cannot save {}: {e}", path.display()));
        }
        let doc = &mut self.session.doc;
        doc.saved_hash = text_hash(&text);
        if doc.path.as_deref() != Some(path) {
            doc.path = Some(path.to_path_buf());
            doc.name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            self.watch_document();
            self.events.push(Event::CatalogChanged);
        }
        self.say(format!("saved {}", path.display()));
    }

    /// Makes `position` the script's start position (`v.setup(…)`), compiled at once.
    pub fn write_setup(&mut self, position: &str) {
        match super::setup::write_setup(&self.session.doc.text, position) {
            Ok(new) => {
                self.session.doc.text = new;
                self.pending_edit = None;
                self.compile(Instant::now());
                self.say("start position written into the script (save to keep it)");
            }
            Err(e) => self.say_error(e),
        }
    }

    /// Writes `moves` as the `moves:` string of the piece named `piece` in the script text, and
    /// recompiles: the game on the board plays on under the new piece (the piece lab).
    pub fn write_moves(&mut self, piece: &str, moves: &str) {
        match crate::piece_lab::write_moves(&self.session.doc.text, piece, moves) {
            Ok(new) => {
                self.session.doc.text = new;
                self.pending_edit = None;
                self.compile(Instant::now());
                self.say(format!("the {piece}'s moves are now {moves} (save to keep them)"));
            }
            Err(e) => self.say_error(e),
        }
    }

    /// Watches the open script's file (if it has one).
    fn watch_document(&mut self) {
        match self.session.doc.path.clone() {
            Some(p) => {
                self.reloader.note_file_text(&p, &self.session.doc.text);
                if let Err(e) = self.reloader.watch(&p) {
                    self.say_error(e);
                }
            }
            None => self.reloader.unwatch(),
        }
    }

    // ----- reloads --------------------------------------------------------------------------

    /// The script text was edited: it compiles once typing pauses.
    pub fn text_edited(&mut self, now: Instant) {
        self.pending_edit = Some(now);
    }

    /// Chooses a rule option's value: the script compiles with it and the game is replayed.
    pub fn set_option(&mut self, name: &str, value: &str) {
        self.options.insert(name.to_string(), value.to_string());
        self.compile(Instant::now());
    }

    /// Asks the worker for the document's text with the chosen options.
    fn compile(&self, since: Instant) {
        let doc = &self.session.doc;
        self.reloader.compile_text(&doc.source_name(), &doc.text, &self.options, since);
    }

    /// Takes finished compiles, and compiles typed text whose pause is over. Returns when to
    /// call again while typed text waits for its pause.
    pub fn poll(&mut self, now: Instant) -> Option<Duration> {
        while let Some(c) = self.reloader.try_recv() {
            self.take_compiled(c);
        }
        let t = self.pending_edit?;
        let waited = now.saturating_duration_since(t);
        if waited < self.typing_pause {
            return Some(self.typing_pause - waited);
        }
        self.pending_edit = None;
        self.compile(now);
        None
    }

    /// Decides whether a compile is for the document as it is now.
    fn take_compiled(&mut self, c: Compiled) {
        let doc = &self.session.doc;
        match &c.path {
            Some(p) => {
                let ours = doc.path.as_ref().and_then(|d| d.canonicalize().ok()).as_deref() == Some(p.as_path());
                if !ours {
                    return;
                }
                if c.text == doc.text {
                    if self.session.rules_match(&c.text) && self.session.error.is_none() && self.awaited.is_none() {
                        return;
                    }
                } else if doc.is_dirty() {
                    self.say_error("the file changed on disk while you have unsaved changes here");
                    self.disk_conflict = Some(c);
                    return;
                } else {
                    self.session.doc.text = c.text.clone();
                    self.session.doc.saved_hash = text_hash(&c.text);
                }
            }
            None if c.text != doc.text => return, // typed text that has since changed again
            None => {}
        }
        self.apply(c);
    }

    /// The designer's answer to "changed on disk": take the file's text, or keep the editor's.
    pub fn resolve_disk_conflict(&mut self, use_disk: bool) {
        if let Some(c) = self.disk_conflict.take()
            && use_disk
        {
            self.session.doc.text = c.text.clone();
            self.session.doc.saved_hash = text_hash(&c.text);
            self.apply(c);
        }
    }

    /// Puts a compile of the document's text into force: new rules replace the old (the game is
    /// replayed, or starts afresh for a document just opened); an error keeps the last good ones.
    fn apply(&mut self, c: Compiled) {
        if self.engine != Engine::Script && c.result.is_ok() {
            // The board plays the plugin; the script is checked but does not replace it.
            self.session.error = None;
            self.say("the script compiled; the board plays the plugin (choose Script engine to play it)");
            return;
        }
        match (self.awaited.take(), c.result) {
            (Some(Awaited::Open { plugin }), Ok(loaded)) => {
                let name = loaded.variant.info().meta.name.clone();
                self.options = chosen(&loaded);
                self.session.open(loaded);
                self.new_rules();
                self.events.push(Event::Opened);
                self.say(format!("opened {name}"));
                if let Some(r) = self.games.remove(&self.session.doc.source_name()) {
                    self.replay_onto_board(
                        &r,
                        &format!("opened {name}: its game is back"),
                        &format!("opened {name}; its last game could not be replayed"),
                    );
                }
                if let Some(p) = plugin {
                    self.use_plugin(p);
                }
            }
            (Some(Awaited::Open { plugin }), Err(e)) => {
                self.session.error = Some(e);
                self.awaited = Some(Awaited::Open { plugin });
                self.say_error("the script has errors; the board keeps the previous rules until it compiles");
            }
            (Some(Awaited::ScriptEngine), result) => {
                if let Some(report) = self.session.apply_compiled(&c.text, result) {
                    self.new_rules();
                    self.say(format!("script: {report}"));
                }
            }
            (None, result) => {
                let failed = result.is_err();
                let report = self.session.apply_compiled(&c.text, result);
                if !failed {
                    self.new_rules();
                }
                let (source, total, compile) = (c.source_name, c.since.elapsed(), c.compile);
                self.reload_status = Some(ReloadStatus { source, total, compile, report, failed });
            }
        }
    }

    fn new_rules(&mut self) {
        self.legal_cache = None;
        self.events.push(Event::NewRules);
    }

    // ----- engines --------------------------------------------------------------------------

    /// Plays on with the plugin from `path`: the first time, or again after a rebuild (a changed
    /// file gets fresh workers, so the running one is never disturbed).
    pub fn use_plugin(&mut self, path: PathBuf) {
        self.plugin_failed = false;
        match crate::plugin::open(&path) {
            Ok(p) => {
                let report = self.session.use_rules(p);
                self.new_rules();
                self.say(format!("plugin {}: {report}", path.display()));
                self.engine = Engine::Plugin(path);
            }
            Err(e) => self.say_error(e.to_string()),
        }
    }

    /// Back to the script's rules, compiled again from the editor's text.
    pub fn use_script(&mut self) {
        self.engine = Engine::Script;
        self.awaited = Some(Awaited::ScriptEngine);
        self.compile(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::tests::{MINI, reordered};
    use std::sync::Arc;

    /// A fresh folder holding `text` as `name.rhai`.
    fn script(tag: &str, name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("henka-controller-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.rhai"));
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Removes the folder `script` made.
    fn remove(path: &Path) {
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    fn start(path: &Path) -> StartOptions {
        StartOptions { open: Some(path.display().to_string()), typing_pause: Duration::ZERO, ..Default::default() }
    }

    fn controller(options: &StartOptions) -> Controller {
        Controller::new(options, None, Arc::new(|| {}))
    }

    fn play(c: &mut Controller, m: &str) {
        let s = c.session();
        let mv = s.variant().parse_move(s.game().position(), m).unwrap();
        c.play(mv);
        assert_eq!(c.session().move_texts().last().map(String::as_str), Some(m), "{:?}", c.message());
    }

    /// Polls until `done` holds: compiles and file events take real time.
    fn settle(c: &mut Controller, what: &str, done: impl Fn(&Controller) -> bool) {
        let t = Instant::now();
        while !done(c) {
            assert!(t.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(2));
            c.poll(Instant::now());
        }
    }

    fn name(c: &Controller) -> String {
        c.session().variant().info().meta.name.clone()
    }

    #[test]
    fn the_first_rules_are_waited_for_and_a_later_open_compiles_on_the_worker() {
        let path = script("open", "mini", MINI);
        let mut c = controller(&start(&path));
        assert_eq!(name(&c), "Minishogi");
        play(&mut c, "5d5c");
        let (_, ogi) = catalog::BUNDLED.iter().find(|(n, _)| *n == "ogi").unwrap();
        c.open(Entry { name: "ogi".into(), source: Source::Bundled(ogi) });
        assert_eq!(c.session().doc.name, "ogi", "the text is there at once");
        settle(&mut c, "Ogi's rules", |c| name(c) == "Ogi");
        assert!(c.session().move_texts().is_empty(), "an opened variant starts a fresh game");
        assert_eq!(c.take_events(), [Event::NewRules, Event::Opened]);
        assert_eq!(c.message().unwrap().text, "opened Ogi");
        remove(&path);
    }

    #[test]
    fn a_variant_opened_again_gets_its_game_back_and_new_game_asks_first() {
        let path = script("games", "mini", MINI);
        let mut c = controller(&start(&path));
        play(&mut c, "5d5c");
        play(&mut c, "1b1c");
        std::thread::sleep(Duration::from_millis(50)); // let the watcher settle
        std::fs::write(&path, format!("{MINI}// saved elsewhere\n")).unwrap();
        settle(&mut c, "the external save", |c| c.reload_status().is_some());
        let (_, ogi) = catalog::BUNDLED.iter().find(|(n, _)| *n == "ogi").unwrap();
        c.open(Entry { name: "ogi".into(), source: Source::Bundled(ogi) });
        settle(&mut c, "Ogi's rules", |c| name(c) == "Ogi");
        assert!(c.session().move_texts().is_empty(), "Ogi starts its own game");
        assert!(c.reload_status().is_none(), "nothing of the last variant's reloads is reported");
        c.open_path(&path);
        settle(&mut c, "Minishogi again", |c| name(c) == "Minishogi");
        assert_eq!(c.session().move_texts(), ["5d5c", "1b1c"], "the first game is back");
        assert_eq!(c.message().unwrap().text, "opened Minishogi: its game is back (2 moves)");

        c.new_game();
        assert!(c.asks_new_game(), "a game with moves is not dropped without asking");
        c.resolve_new_game(false);
        assert!(!c.asks_new_game());
        assert_eq!(c.session().move_texts().len(), 2, "kept");
        c.new_game();
        c.resolve_new_game(true);
        assert!(c.session().move_texts().is_empty());
        c.new_game();
        assert!(!c.asks_new_game(), "nothing to lose: no question");
        remove(&path);
    }

    #[test]
    fn a_broken_script_opened_keeps_the_rules_until_it_compiles_then_starts_fresh() {
        let path = script("open-broken", "mini", MINI);
        let mut c = controller(&start(&path));
        play(&mut c, "5d5c");
        let broken = script("open-broken-2", "broken", &MINI.replace("v.drops(true);", "v.drops(true;"));
        c.open_path(&broken);
        settle(&mut c, "the compile error", |c| c.session().error.is_some());
        assert_eq!(c.session().doc.name, "broken");
        assert_eq!(c.session().move_texts(), ["5d5c"], "the board plays on under the last good rules");
        assert!(c.message().unwrap().error);
        c.text_mut().replace_range(.., MINI);
        c.text_edited(Instant::now());
        settle(&mut c, "the fix", |c| c.session().error.is_none());
        assert!(c.session().move_texts().is_empty(), "the fixed script's rules start its own game");
        remove(&path);
        remove(&broken);
    }

    #[test]
    fn opening_over_unsaved_changes_asks_and_the_answer_is_kept() {
        let path = script("discard", "mini", MINI);
        let other = script("discard-2", "other", &MINI.replace("Minishogi", "Other"));
        let mut c = controller(&start(&path));
        c.text_mut().push_str("// an edit\n");
        c.open_path(&other);
        assert!(c.asks_to_discard());
        c.resolve_discard(Discard::Cancel);
        assert!(!c.asks_to_discard());
        assert_eq!(c.session().doc.name, "mini");
        c.open_path(&other);
        c.resolve_discard(Discard::SaveFirst);
        assert!(std::fs::read_to_string(&path).unwrap().ends_with("// an edit\n"), "saved before opening");
        settle(&mut c, "the other script", |c| name(c) == "Other");
        c.text_mut().push_str("// thrown away\n");
        c.open_path(&path);
        c.resolve_discard(Discard::Discard);
        settle(&mut c, "the first script", |c| name(c) == "Minishogi");
        assert!(!std::fs::read_to_string(&other).unwrap().contains("thrown away"));
        remove(&path);
        remove(&other);
    }

    #[test]
    fn saving_writes_the_file_and_save_as_makes_it_the_documents_file() {
        let path = script("save", "mini", MINI);
        let mut c = controller(&start(&path));
        c.text_mut().push_str("// saved\n");
        assert!(c.session().doc.is_dirty());
        assert_eq!(c.save(), Saved::Done);
        assert!(!c.session().doc.is_dirty());
        assert!(std::fs::read_to_string(&path).unwrap().ends_with("// saved\n"));
        let copy = path.with_file_name("copy.rhai");
        c.save_as(&copy);
        assert_eq!((c.session().doc.name.as_str(), c.session().doc.path.as_deref()), ("copy", Some(copy.as_path())));
        assert_eq!(c.take_events(), [Event::CatalogChanged], "the browser lists the new file");
        remove(&path);
    }

    #[test]
    fn typing_compiles_after_the_pause_and_a_broken_script_keeps_the_last_good_rules() {
        let path = script("typing", "mini", MINI);
        let mut c = controller(&StartOptions { typing_pause: Duration::from_secs(60), ..start(&path) });
        play(&mut c, "5d5c");
        let edited = MINI.replace(r#"token: "P", moves: "fW""#, r#"token: "P", moves: "fWbW""#);
        c.text_mut().replace_range(.., &edited);
        let typed = Instant::now();
        c.text_edited(typed);
        assert!(c.poll(typed).is_some_and(|wait| wait > Duration::from_secs(59)), "no compile while typing");
        assert!(c.poll(typed + Duration::from_secs(60)).is_none());
        settle(&mut c, "the edited rules", |c| c.session().rules_match(&edited));
        assert_eq!(c.session().move_texts(), ["5d5c"]);
        assert!(c.reload_status().unwrap().to_string().contains("game kept (1 moves replayed)"));

        let broken = edited.replace("v.drops(true);", "v.drops(true;");
        c.text_mut().replace_range(.., &broken);
        c.text_edited(typed);
        c.poll(typed + Duration::from_secs(60));
        settle(&mut c, "the compile error", |c| c.session().error.is_some());
        assert!(c.session().rules_match(&edited), "the last good rules stay");
        play(&mut c, "1b1c");
        remove(&path);
    }

    #[test]
    fn a_file_saved_elsewhere_reloads_with_the_pieces_reordered_and_the_game_goes_on() {
        let path = script("reorder", "mini", MINI);
        let mut c = controller(&start(&path));
        play(&mut c, "4e4d"); // the Gold General
        play(&mut c, "2a2b");
        std::thread::sleep(Duration::from_millis(50)); // let the watcher settle
        let text = reordered();
        std::fs::write(&path, &text).unwrap();
        settle(&mut c, "the external save", |c| c.session().rules_match(&text));
        assert_eq!(c.session().doc.text, text);
        assert_eq!(c.session().move_texts(), ["4e4d", "2a2b"]);
        play(&mut c, "4d3c"); // still the Gold: it steps diagonally forward
        remove(&path);
    }

    #[test]
    fn a_file_saved_elsewhere_over_unsaved_changes_asks_which_to_keep() {
        let path = script("conflict", "mini", MINI);
        let mut c = controller(&start(&path));
        c.text_mut().push_str("// mine\n");
        std::thread::sleep(Duration::from_millis(50));
        let theirs = format!("{MINI}// theirs\n");
        std::fs::write(&path, &theirs).unwrap();
        settle(&mut c, "the clash", Controller::asks_about_disk_version);
        assert!(c.session().doc.text.ends_with("// mine\n"), "nothing changes before the answer");
        c.resolve_disk_conflict(true);
        assert_eq!(c.session().doc.text, theirs);
        assert!(!c.session().doc.is_dirty() && c.session().rules_match(&theirs));
        remove(&path);
    }

    #[test]
    fn a_rule_option_recompiles_the_script_and_later_reloads_keep_it() {
        let text = MINI.replace("v.drops(true);", "v.drops(option(\"drops\", [\"on\", \"off\"]) == \"on\");");
        let path = script("options", "mini", &text);
        let mut c = controller(&start(&path));
        assert_eq!(c.options().get("drops").map(String::as_str), Some("on"));
        play(&mut c, "5d5c");
        c.set_option("drops", "off");
        settle(&mut c, "the rules without drops", |c| c.session().variant().info().hand_types.is_empty());
        assert_eq!(c.session().declared_options()[0].value, "off");
        assert_eq!(c.session().move_texts(), ["5d5c"]);
        // A save from another editor compiles with the option chosen here.
        std::thread::sleep(Duration::from_millis(50));
        let saved = format!("{text}// saved elsewhere\n");
        std::fs::write(&path, &saved).unwrap();
        settle(&mut c, "the external save", |c| c.session().rules_match(&saved));
        assert!(c.session().variant().info().hand_types.is_empty());
        assert_eq!(c.game_record().rules, [("drops".to_string(), "off".to_string())]);
        remove(&path);
    }

    #[test]
    fn the_autosave_brings_the_game_back_in_the_next_editor() {
        let path = script("autosave", "mini", MINI);
        let file = path.with_file_name("autosave.henka");
        let options = StartOptions { autosave: Some(file.clone()), ..Default::default() };
        let mut c = controller(&StartOptions { open: Some(path.display().to_string()), ..options.clone() });
        play(&mut c, "5d5c");
        play(&mut c, "1b1c");
        c.autosave();
        drop(c);
        // Opened without naming a variant: the autosave says which, and where the game was.
        let c = controller(&options);
        assert_eq!(c.session().doc.path.as_deref(), Some(path.as_path()));
        assert_eq!(c.session().move_texts(), ["5d5c", "1b1c"]);
        assert_eq!(c.message().unwrap().text, "restored the game in progress (2 moves)");
        remove(&path);
    }

    #[test]
    fn the_autosave_keeps_the_moves_to_redo() {
        let path = script("autosave-redo", "mini", MINI);
        let file = path.with_file_name("autosave.henka");
        let options = StartOptions { autosave: Some(file.clone()), ..Default::default() };
        let mut c = controller(&StartOptions { open: Some(path.display().to_string()), ..options.clone() });
        for m in ["5d5c", "1b1c", "4e4d", "2a2b"] {
            play(&mut c, m);
        }
        c.undo();
        c.undo();
        c.autosave();
        drop(c);
        let mut c = controller(&options);
        assert_eq!(c.session().move_texts(), ["5d5c", "1b1c"]);
        assert!(c.session().can_redo(), "{:?}", std::fs::read_to_string(&file));
        c.redo();
        c.redo();
        assert_eq!(c.session().move_texts(), ["5d5c", "1b1c", "4e4d", "2a2b"]);
        assert!(!c.session().can_redo());
        remove(&path);
    }

    #[test]
    fn the_plugin_takes_over_and_the_script_comes_back_with_the_game_kept() {
        let (_, okisaki) = catalog::BUNDLED.iter().find(|(n, _)| *n == "okisaki").unwrap();
        let path = script("engines", "okisaki", okisaki);
        let mut c = controller(&start(&path));
        // Needs the plugins built (`cargo build --workspace`, as the README's test command does).
        let plugin = c.plugin().expect("the okisaki plugin is built");
        play(&mut c, "3h3g");
        c.use_plugin(plugin);
        assert!(c.plays_plugin());
        assert!(c.take_events().contains(&Event::NewRules));
        play(&mut c, "8c8d");
        c.use_script();
        assert!(!c.plays_plugin());
        settle(&mut c, "the script's rules", |c| c.message().is_some_and(|m| m.text.starts_with("script: ")));
        assert_eq!(c.message().unwrap().text, "script: game kept (2 moves replayed)");
        play(&mut c, "2h2g");
        remove(&path);
    }
}
