//! The editor window: panels around the board, and the glue between the session (document, rules,
//! game), the compile worker, and the panels. All UI is drawn by [`EditorApp::show`], so eframe and
//! the UI tests drive exactly the same code.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use eframe::egui::{self, Color32, RichText};
use henka_api::{Cell, Move, MoveKind, NO_CELL, PieceId, Position, Side, Variant};

use super::ai_panel::AiPanel;
use super::autosave::{self, Autosave};
use super::board::{BoardInput, BoardView, Marks};
use super::browser::{Browser, BrowserAction};
use super::field_view;
use super::file_dialog::{FileDialog, Purpose, write_atomically};
use super::fonts::SystemFonts;
use super::inspector::Inspector;
use super::move_input::{MoveInput, Pick, Step};
use super::perft_panel::PerftPanel;
use super::piece_face;
use super::reload::{Compiled, Reloader};
use super::script_panel::ScriptPanel;
use super::session::{Document, ReloadStatus, Session, text_hash};
use super::setup::{SetupAction, SetupEditor, write_setup};
use crate::catalog::{self, Entry, Source};
use crate::{record, template};

/// The right-hand panel's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Tab {
    Script,
    Pieces,
    Setup,
    Perft,
}

/// What is kept between runs (with the window's size and place, which eframe keeps).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Persisted {
    /// The variant last open: a catalog name or a script path.
    pub last_open: Option<String>,
    pub board: BoardView,
    pub tab: Tab,
}

impl Default for Persisted {
    fn default() -> Self {
        Persisted { last_open: None, board: BoardView::default(), tab: Tab::Script }
    }
}

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
    /// Whether a system CJK font may back up the embedded kanji (the window: yes; tests: no, so
    /// they draw the same on every machine).
    pub system_fonts: SystemFonts,
}

impl Default for StartOptions {
    fn default() -> Self {
        StartOptions {
            open: None,
            position: None,
            moves: Vec::new(),
            typing_pause: Duration::from_millis(300),
            autosave: None,
            system_fonts: SystemFonts::EmbeddedOnly,
        }
    }
}

/// The variant the editor opens on a fresh machine.
pub const DEFAULT_VARIANT: &str = "okisaki";

/// Which implementation of the open variant plays on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Engine {
    Script,
    /// The compiled plugin of the same name, from this file.
    Plugin(PathBuf),
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
#[derive(Clone, Debug)]
struct Message {
    text: String,
    error: bool,
}

/// The editor.
pub struct EditorApp {
    pub session: Session,
    reloader: Reloader,
    context: Arc<OnceLock<egui::Context>>,
    pub board: BoardView,
    input: MoveInput,
    choice: Option<Vec<Move>>,
    pub tab: Tab,
    script_panel: ScriptPanel,
    inspector: Inspector,
    setup: Option<SetupEditor>,
    perft: PerftPanel,
    browser: Browser,
    dialog: Option<FileDialog>,
    /// A variant to open once the designer says what to do with unsaved changes.
    confirm_discard: Option<Entry>,
    /// A newer version on disk while the editor holds unsaved changes.
    disk_conflict: Option<Compiled>,
    pending_edit: Option<Instant>,
    typing_pause: Duration,
    position_text: String,
    /// The legal moves of the shown position, kept while neither it nor the rules change (a
    /// large variant's move generation, with script hooks, would otherwise run every frame).
    legal_cache: Option<(LegalKey, Vec<Move>)>,
    message: Option<Message>,
    pub reload_status: Option<ReloadStatus>,
    engine: Engine,
    pub ai: AiPanel,
    autosave: Option<Autosave>,
    /// The board cell under the pointer in the last frame.
    hovered: Option<Cell>,
    /// Installed with the first frame.
    system_fonts: SystemFonts,
}

impl std::fmt::Debug for EditorApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditorApp").field("session", &self.session).finish()
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

impl EditorApp {
    /// Opens the editor on `options.open` (or the last variant, or the default). Fonts are
    /// installed on the first frame, when the window's context is known.
    pub fn new(options: StartOptions, persisted: Persisted) -> EditorApp {
        let context: Arc<OnceLock<egui::Context>> = Arc::new(OnceLock::new());
        let waker_ctx = context.clone();
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(move || {
            if let Some(c) = waker_ctx.get() {
                c.request_repaint();
            }
        });
        let reloader = Reloader::new(wake.clone());
        let dirs = catalog::search_dirs();
        // The game in progress when the editor last ran, unless told what to open.
        let autosave = options.autosave.clone().map(Autosave::new);
        let fresh_start = options.open.is_none() && options.position.is_none() && options.moves.is_empty();
        let restore = match autosave.as_ref().and_then(Autosave::load) {
            Some(Ok(r)) if fresh_start => Some(r),
            _ => None,
        };
        let restore_open = restore
            .as_ref()
            .and_then(|r| r.option(autosave::SCRIPT_OPTION).map(str::to_string).or_else(|| r.variant.clone()));
        let wanted = options.open.clone().or(restore_open).or(persisted.last_open.clone());
        let mut message = None;
        let entry = match wanted.as_deref().map(|w| (w, catalog::find(w, &dirs))) {
            Some((_, Some(e))) => e,
            Some((w, None)) => {
                message = Some(Message { text: format!("no variant {w:?}; opened {DEFAULT_VARIANT}"), error: true });
                default_entry()
            }
            None => default_entry(),
        };
        // The rule options: the restored game's, else the command line's.
        let rule_options = match &restore {
            Some(r) => r.rules.iter().cloned().collect(),
            None => catalog::chosen_options(),
        };
        let default_session = || {
            let e = default_entry();
            let doc = read_entry(&e).expect("bundled text");
            let loaded = crate::script::load_source(&doc.source_name(), &doc.text).expect("the bundled default loads");
            Session::new(doc, loaded)
        };
        let session = match read_entry(&entry) {
            Err(e) => {
                message = Some(Message { text: e, error: true });
                default_session()
            }
            Ok(doc) => match crate::script::load_source_with(&doc.source_name(), &doc.text, &rule_options) {
                Ok(loaded) => Session::new(doc, loaded),
                Err(err) => {
                    // Open the broken script anyway so it can be fixed here; play goes on under
                    // the default rules until it compiles.
                    let mut s = default_session();
                    s.doc = doc;
                    s.error = Some(err);
                    message = Some(Message {
                        text: format!("the script has errors; the board plays {DEFAULT_VARIANT} until it compiles"),
                        error: true,
                    });
                    s
                }
            },
        };
        let mut app = EditorApp {
            session,
            reloader,
            context,
            board: persisted.board,
            input: MoveInput::default(),
            choice: None,
            tab: persisted.tab,
            script_panel: ScriptPanel::default(),
            inspector: Inspector::default(),
            setup: None,
            perft: PerftPanel::default(),
            browser: Browser::default(),
            dialog: None,
            confirm_discard: None,
            disk_conflict: None,
            pending_edit: None,
            typing_pause: options.typing_pause,
            position_text: String::new(),
            legal_cache: None,
            message,
            reload_status: None,
            engine: Engine::Script,
            ai: AiPanel::new(wake),
            autosave,
            hovered: None,
            system_fonts: options.system_fonts,
        };
        app.watch_document();
        if let Some(r) = restore
            && r.variant.as_deref() == Some(app.session.doc.name.as_str())
        {
            app.restore(&r);
        }
        if let Some(p) = &options.position
            && let Err(e) = app.session.start_from(p)
        {
            app.say_error(format!("position {p:?}: {e}"));
        }
        for m in &options.moves {
            let v = app.session.variant().clone();
            match v.parse_move(app.session.game().position(), m) {
                Ok(mv) => {
                    let _ = app.session.play(mv);
                }
                Err(e) => {
                    app.say_error(format!("move {m}: {e}"));
                    break;
                }
            }
        }
        app
    }

    /// What to keep for the next run.
    pub fn persisted(&self) -> Persisted {
        let last_open = match &self.session.doc.path {
            // Absolute, so the next run finds it from any folder.
            Some(p) => Some(p.canonicalize().unwrap_or_else(|_| p.clone()).display().to_string()),
            None => Some(self.session.doc.name.clone()),
        };
        Persisted { last_open, board: self.board.clone(), tab: self.tab }
    }

    fn say(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), error: false });
    }

    fn say_error(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), error: true });
    }

    /// Watches the open script's file (if it has one) and compiles later edits with the
    /// session's rule options.
    fn watch_document(&mut self) {
        self.reloader.set_options(&self.session.options);
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

    // ----- the document ---------------------------------------------------------------------

    /// Opens a catalog entry, asking first if there are unsaved changes.
    pub fn open(&mut self, entry: Entry) {
        if self.session.doc.is_dirty() {
            self.confirm_discard = Some(entry);
            return;
        }
        self.open_now(entry);
    }

    fn open_now(&mut self, entry: Entry) {
        let doc = match read_entry(&entry) {
            Ok(d) => d,
            Err(e) => return self.say_error(e),
        };
        self.perft.cancel();
        self.input.clear();
        self.setup = None;
        self.engine = Engine::Script;
        match crate::script::load_source_with(&doc.source_name(), &doc.text, &catalog::chosen_options()) {
            Ok(loaded) => {
                let name = loaded.variant.info().meta.name.clone();
                self.session = Session::new(doc, loaded);
                self.say(format!("opened {name}"));
            }
            Err(e) => {
                self.session.doc = doc;
                self.session.error = Some(e);
                self.say_error("the script has errors; the board keeps the previous rules until it compiles");
            }
        }
        self.watch_document();
    }

    /// Opens a script file (from the dialog or dropped on the window).
    pub fn open_path(&mut self, path: &Path) {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        self.open(Entry { name, source: Source::File(path.to_path_buf()) });
    }

    /// Saves the script; a bundled script is saved to the user's variants folder under its name
    /// (where it then overrides the bundled one).
    pub fn save(&mut self) {
        let path = match &self.session.doc.path {
            Some(p) => p.clone(),
            None => match catalog::user_dir() {
                Some(d) => d.join(format!("{}.rhai", self.session.doc.name)),
                None => return self.open_dialog(Purpose::SaveScriptAs),
            },
        };
        self.save_as(&path);
    }

    fn save_as(&mut self, path: &Path) {
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
            self.browser.refresh();
        }
        self.say(format!("saved {}", path.display()));
    }

    fn new_variant(&mut self, name: &str) {
        let Some(dir) = catalog::user_dir() else { return self.say_error("no user folder (set HENKA_VARIANTS)") };
        match template::create(name, &dir) {
            Ok(path) => {
                self.browser.refresh();
                self.open_path(&path);
                self.tab = Tab::Script;
            }
            Err(e) => self.say_error(e.to_string()),
        }
    }

    fn open_dialog(&mut self, purpose: Purpose) {
        let cwd = std::env::current_dir().unwrap_or_default();
        let (dir, name) = match purpose {
            Purpose::OpenScript => (cwd, String::new()),
            Purpose::SaveScriptAs => (catalog::user_dir().unwrap_or(cwd), format!("{}.rhai", self.session.doc.name)),
            Purpose::SaveGame => (cwd, format!("{}-game.henka", self.session.doc.name)),
            Purpose::LoadGame => (cwd, String::new()),
        };
        self.dialog = Some(FileDialog::new(purpose, dir, name));
    }

    fn dialog_chose(&mut self, purpose: Purpose, path: PathBuf) {
        match purpose {
            Purpose::OpenScript => self.open_path(&path),
            Purpose::SaveScriptAs => self.save_as(&path),
            Purpose::SaveGame => {
                let text = self.game_record().to_text();
                match write_atomically(&path, &text) {
                    Ok(()) => self.say(format!("game saved to {}", path.display())),
                    Err(e) => self.say_error(format!("cannot save {}: {e}", path.display())),
                }
            }
            Purpose::LoadGame => {
                let v = self.session.variant().clone();
                let loaded = std::fs::read_to_string(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|t| record::parse(&t))
                    .and_then(|r| record::replay(v.as_ref(), &r).map(|g| (g, r)));
                match loaded {
                    Ok((game, r)) => {
                        self.session.load_game(game);
                        let note = r.rules_changed(self.session.rules_hash()).map(|w| format!(" ({w})"));
                        self.say(format!("game loaded from {}{}", path.display(), note.unwrap_or_default()));
                    }
                    Err(e) => self.say_error(format!("{}: {e}", path.display())),
                }
            }
        }
    }

    /// A game record of the game on the board, with the script it was played under.
    fn game_record(&self) -> record::Record {
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
        r
    }

    /// The variant's rule options, each a choice that recompiles the rules and replays the game.
    fn rule_options(&mut self, ui: &mut egui::Ui) {
        let declared = self.session.declared_options().to_vec();
        if declared.is_empty() {
            return;
        }
        let plugin = self.engine != Engine::Script;
        // Closed at first: the move list below matters more while playing.
        egui::CollapsingHeader::new(format!("Rule options ({})", declared.len())).id_salt("rule-options").show(
            ui,
            |ui| {
                if plugin {
                    ui.label(RichText::new("The plugin plays the default rules.").weak());
                }
                let mut changed = None;
                for o in &declared {
                    ui.add_enabled_ui(!plugin, |ui| {
                        if o.choices.is_empty() {
                            ui.horizontal(|ui| {
                                let id = egui::Id::unique(("rule-option", &o.name));
                                let mut text =
                                    ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_else(|| o.value.clone());
                                let r = ui
                                    .add(egui::TextEdit::singleline(&mut text).desired_width(90.0))
                                    .accessible_name(o.name.clone());
                                if r.lost_focus() && text != o.value {
                                    changed = Some((o.name.clone(), text.clone()));
                                }
                                if r.has_focus() {
                                    ui.data_mut(|d| d.insert_temp(id, text));
                                } else {
                                    ui.data_mut(|d| d.remove::<String>(id));
                                }
                                ui.label(&o.name).on_hover_text(format!("default: {}", o.default));
                            });
                        } else {
                            egui::ComboBox::from_label(&o.name).selected_text(&o.value).show_ui(ui, |ui| {
                                for c in &o.choices {
                                    if ui.selectable_label(*c == o.value, c).clicked() && *c != o.value {
                                        changed = Some((o.name.clone(), c.clone()));
                                    }
                                }
                            });
                        }
                    });
                }
                if let Some((name, value)) = changed {
                    self.session.options.insert(name, value);
                    self.reloader.set_options(&self.session.options);
                    let doc = &self.session.doc;
                    self.reloader.compile_text(&doc.source_name(), &doc.text, Instant::now());
                }
            },
        );
    }

    /// Plays an autosaved game back onto the board, as far as the rules still allow.
    fn restore(&mut self, r: &record::Record) {
        let v = self.session.variant().clone();
        match record::replay_prefix(v.as_ref(), r) {
            Ok((game, cut)) => {
                let n = game.moves().len();
                self.session.load_game(game);
                match cut {
                    None => self.say(format!("restored the game in progress ({n} moves)")),
                    Some(e) => self.say_error(format!("restored the game in progress up to {e}")),
                }
            }
            Err(e) => self.say_error(format!("the autosaved game could not be restored: {e}")),
        }
    }

    /// Saves the game to the autosave file when it changed.
    fn autosave(&mut self) {
        let Some(mut a) = self.autosave.take() else { return };
        if let Err(e) = a.save(&self.game_record()) {
            self.say_error(format!("cannot autosave to {}: {e}", a.path().display()));
        }
        self.autosave = Some(a);
    }

    // ----- reloads --------------------------------------------------------------------------

    /// Takes finished compiles and typed changes whose pause is over.
    fn poll_reloads(&mut self, ctx: &egui::Context) {
        while let Some(c) = self.reloader.try_recv() {
            self.take_compiled(c);
        }
        if let Some(t) = self.pending_edit {
            let waited = t.elapsed();
            if waited >= self.typing_pause {
                self.pending_edit = None;
                let doc = &self.session.doc;
                self.reloader.compile_text(&doc.source_name(), &doc.text, Instant::now());
            } else {
                ctx.request_repaint_after(self.typing_pause - waited);
            }
        }
    }

    fn take_compiled(&mut self, c: Compiled) {
        let doc = &self.session.doc;
        match &c.path {
            Some(p) => {
                let ours = doc.path.as_ref().and_then(|d| d.canonicalize().ok()).as_deref() == Some(p.as_path());
                if !ours {
                    return;
                }
                if c.text == doc.text {
                    if self.session.rules_match(&c.text) && self.session.error.is_none() {
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

    fn apply(&mut self, c: Compiled) {
        if self.engine != Engine::Script && c.result.is_ok() {
            // The board plays the plugin; the script is checked but does not replace it.
            self.session.error = None;
            self.say("the script compiled; the board plays the plugin (choose Script engine to play it)");
            return;
        }
        let failed = c.result.is_err();
        if !failed {
            self.perft.cancel();
            self.input.clear();
            self.choice = None;
        }
        let report = self.session.apply_compiled(&c.text, c.result);
        self.reload_status =
            Some(ReloadStatus { source: c.source_name, total: c.since.elapsed(), compile: c.compile, report, failed });
    }

    // ----- engines --------------------------------------------------------------------------

    /// The compiled plugin of the open variant, if one is built.
    fn plugin_file(&self) -> Option<PathBuf> {
        crate::plugin::find(&self.session.doc.name, &crate::plugin::search_dirs()).map(|f| f.path)
    }

    /// Plays on with the plugin loaded from `path`: the first time, or again after a rebuild (the
    /// loader maps a fresh copy when the file changed, so the running one is never disturbed).
    fn use_plugin(&mut self, path: PathBuf) {
        match crate::plugin::open(&path) {
            Ok(p) => {
                self.perft.cancel();
                self.input.clear();
                let report = self.session.use_rules(p);
                self.say(format!("plugin {}: {report}", path.display()));
                self.engine = Engine::Plugin(path);
            }
            Err(e) => self.say_error(e.to_string()),
        }
    }

    /// Back to the script's rules (recompiled from the editor's text).
    fn use_script(&mut self) {
        self.engine = Engine::Script;
        let doc = &self.session.doc;
        match crate::script::load_source_with(&doc.source_name(), &doc.text, &self.session.options) {
            Ok(loaded) => {
                let report = self.session.use_rules(loaded.variant);
                self.say(format!("script: {report}"));
            }
            Err(e) => self.session.error = Some(e),
        }
    }

    fn engine_controls(&mut self, ui: &mut egui::Ui) {
        let plugin = match &self.engine {
            Engine::Plugin(p) => Some(p.clone()),
            Engine::Script => self.plugin_file(),
        };
        let Some(plugin) = plugin else { return };
        ui.separator();
        let on_plugin = self.engine != Engine::Script;
        if ui
            .selectable_label(!on_plugin, "Script engine")
            .on_hover_text("The board plays the script's rules")
            .clicked()
            && on_plugin
        {
            self.use_script();
        }
        let hint = format!("The board plays the compiled plugin {}", plugin.display());
        if ui.selectable_label(on_plugin, "Plugin engine").on_hover_text(hint).clicked() && !on_plugin {
            self.use_plugin(plugin.clone());
        }
        if on_plugin && ui.button("Reload plugin").on_hover_text("Load the plugin again after a rebuild").clicked() {
            self.use_plugin(plugin);
        }
    }

    // ----- play -----------------------------------------------------------------------------

    fn play(&mut self, mv: Move) {
        if let Err(e) = self.session.play(mv) {
            self.say_error(e.to_string());
        }
    }

    fn step(&mut self, step: Step) {
        match step {
            Step::Continue => {}
            Step::Play(mv) => self.play(mv),
            Step::Choose(moves) => self.choice = Some(moves),
        }
    }

    fn board_input(&mut self, input: BoardInput) {
        self.hovered = input.hovered;
        if let Some(setup) = &mut self.setup {
            if let Some(c) = input.clicked {
                setup.click(c);
            }
            if let Some(c) = input.secondary_clicked {
                setup.erase(c);
            }
            return;
        }
        let legal = self.legal_moves();
        if let Some((from, to)) = input.dragged {
            let step = self.input.drag(from, to, &legal);
            self.step(step);
        } else if let Some(c) = input.clicked {
            let step = self.input.click_cell(c, &legal);
            self.step(step);
        }
    }

    fn legal_moves(&mut self) -> Vec<Move> {
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
        let moves = match self.session.legal_moves() {
            Ok(m) => m,
            Err(e) => {
                self.say_error(e.to_string());
                Vec::new()
            }
        };
        self.legal_cache = Some((key, moves.clone()));
        moves
    }

    /// Where the hovered piece can move, for either side: on a 3D board its lines through the
    /// levels are hard to follow by eye, so hovering lights them up on every slice.
    fn hovered_reach(&self, pos: &Position, legal: &[Move]) -> Vec<Cell> {
        let Some((c, piece)) = self.hovered.and_then(|c| pos.piece_at(c).map(|p| (c, p))) else { return Vec::new() };
        let theirs;
        let moves = if piece.side == pos.side_to_move() {
            legal
        } else {
            let mut as_mover = pos.clone();
            as_mover.set_side_to_move(piece.side);
            let mut moves = Vec::new();
            if self.session.variant().legal_moves(&as_mover, &mut moves).is_err() {
                return Vec::new();
            }
            theirs = moves;
            &theirs
        };
        let mut cells: Vec<Cell> =
            moves.iter().filter(|m| m.kind == MoveKind::Board && m.from == c).map(|m| m.to).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    fn marks(&self, legal: &[Move]) -> Marks {
        let pos = self.session.shown_position();
        let v = self.session.variant();
        let mut marks = Marks::default();
        if let Some(m) = self.session.last_shown_move() {
            marks.last_move = [m.from, m.via, m.to].into_iter().filter(|&c| c != henka_api::NO_CELL).collect();
        }
        if self.setup.is_none() {
            marks.targets = self.input.targets(pos, legal);
            if let Pick::Board { from, stop } = self.input.pick {
                marks.selected = Some(from);
                if let Some(s) = stop {
                    marks.last_move.push(s);
                }
            }
            if v.geometry().levels() > 1 && marks.selected.is_none() {
                marks.reach = self.hovered_reach(pos, legal);
            }
            if v.info().field.is_some() {
                marks.support = field_view::support_marks(v.as_ref(), pos);
            }
            if v.in_check(pos) {
                let mover = pos.side_to_move();
                marks.check = v
                    .geometry()
                    .cells()
                    .filter(|&c| {
                        pos.piece_at(c).is_some_and(|p| p.side == mover && v.info().pieces[p.ty as usize].royal)
                    })
                    .collect();
            }
        }
        marks
    }

    // ----- drawing --------------------------------------------------------------------------

    /// Draws the whole editor and handles its input.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if self.context.set(ctx.clone()).is_ok() {
            // The first frame: the context the editor lives in is known from now on.
            super::fonts::install(&ctx, self.system_fonts);
        }
        self.poll_reloads(&ctx);
        self.dropped_files(&ctx);
        self.shortcuts(&ctx);
        let name = self.session.doc.name.clone();
        if let Some(mv) = self.ai.update(&self.session, &name) {
            self.input.clear();
            self.play(mv);
        }
        self.autosave();

        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui));
        egui::Panel::left("left").resizable(true).default_size(230.0).show(ui, |ui| self.left_panel(ui));
        egui::Panel::right("right").resizable(true).default_size(520.0).show(ui, |ui| self.right_panel(ui));
        egui::CentralPanel::default().show(ui, |ui| self.centre(ui));

        self.modals(&ctx);
    }

    fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()).collect()
        });
        if let Some(p) = dropped.into_iter().find(|p| p.extension().is_some_and(|x| x == "rhai")) {
            self.open_path(&p);
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        // While a text field has the keyboard, its own undo and arrows win.
        if ctx.memory(|m| m.focused().is_some()) {
            return;
        }
        let (undo, redo, back, forward) = ctx.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y),
                i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowLeft),
                i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowRight),
            )
        });
        if undo {
            self.session.undo();
        }
        if redo {
            self.session.redo();
        }
        let ply = self.session.shown_ply();
        if back && ply > 0 {
            self.session.show_ply(ply - 1);
        }
        if forward {
            self.session.show_ply(ply + 1);
        }
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let info = self.session.variant().info().meta.clone();
            ui.heading(RichText::new(format!("変化 Henka — {}", info.name)).strong());
            ui.separator();
            if ui.button("New game").clicked() {
                self.input.clear();
                self.session.new_game();
            }
            if ui.add_enabled(!self.session.game().moves().is_empty(), egui::Button::new("Undo")).clicked() {
                self.input.clear();
                self.session.undo();
            }
            if ui.add_enabled(self.session.can_redo(), egui::Button::new("Redo")).clicked() {
                self.session.redo();
            }
            ui.separator();
            if ui.button("Flip").on_hover_text("Turn the board around").clicked() {
                self.board.flipped = !self.board.flipped;
            }
            let fit = if self.session.variant().info().field.is_some() {
                "Frame the pieces on the field, following the game (scroll to zoom, right-drag to pan)"
            } else {
                "Zoom to the whole board (scroll to zoom, right-drag to pan)"
            };
            if ui.button("Fit").on_hover_text(fit).clicked() {
                self.board.fit();
            }
            let kanji = self.board.face_text == piece_face::FaceText::Kanji;
            if ui.selectable_label(kanji, "漢字").on_hover_text("Kanji on pieces (else Latin tokens)").clicked() {
                self.board.face_text = if kanji { piece_face::FaceText::Token } else { piece_face::FaceText::Kanji };
            }
            ui.separator();
            if ui.button("Save game…").clicked() {
                self.open_dialog(Purpose::SaveGame);
            }
            if ui.button("Load game…").clicked() {
                self.open_dialog(Purpose::LoadGame);
            }
            if ui.button("Save script as…").clicked() {
                self.open_dialog(Purpose::SaveScriptAs);
            }
            self.engine_controls(ui);
        });
    }

    fn status_line(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if let Some(e) = &self.session.error {
                ui.colored_label(ui.visuals().error_fg_color, format!("Keeping the last good rules: {e}"));
            } else if let Some(r) = &self.reload_status {
                ui.label(r.to_string());
            } else {
                ui.label(RichText::new(self.session.doc.source_name()).weak());
            }
            if let Some(m) = &self.message {
                ui.separator();
                let color = if m.error { ui.visuals().warn_fg_color } else { ui.visuals().text_color() };
                ui.colored_label(color, &m.text);
            }
        });
    }

    fn left_panel(&mut self, ui: &mut egui::Ui) {
        egui::CollapsingHeader::new("Variants").default_open(true).show(ui, |ui| {
            let open = self.session.doc.name.clone();
            match self.browser.show(ui, &open) {
                Some(BrowserAction::Open(e)) => self.open(e),
                Some(BrowserAction::OpenPlugin(p)) => match catalog::find(&p.name, &catalog::search_dirs()) {
                    Some(e) if !self.session.doc.is_dirty() => {
                        self.open_now(e);
                        self.use_plugin(p.path);
                    }
                    Some(e) => self.open(e),
                    None => self.say_error(format!("no script called {}: a plugin plays beside its script", p.name)),
                },
                Some(BrowserAction::OpenDialog) => self.open_dialog(Purpose::OpenScript),
                Some(BrowserAction::New(name)) => self.new_variant(&name),
                None => {}
            }
        });
        self.rule_options(ui);
        egui::CollapsingHeader::new("AI").default_open(true).show(ui, |ui| {
            let name = self.session.doc.name.clone();
            self.ai.show(ui, &self.session, &name);
        });
        ui.separator();
        self.game_panel(ui);
    }

    fn game_panel(&mut self, ui: &mut egui::Ui) {
        let v = self.session.variant().clone();
        let pos = self.session.shown_position().clone();
        match self.session.outcome() {
            Some(o) => {
                ui.label(RichText::new(format!("Game over: {o}")).strong().color(Color32::from_rgb(0xC0, 0x39, 0x2B)));
            }
            None => {
                let check = if v.in_check(&pos) { " — check!" } else { "" };
                ui.label(RichText::new(format!("{} to move{check}", pos.side_to_move())).strong());
            }
        }
        let n = self.session.game().moves().len();
        let ply = self.session.shown_ply();
        ui.horizontal(|ui| {
            if ui.button("◀◀").on_hover_text("Start").clicked() {
                self.session.show_ply(0);
            }
            if ui.button("◀").on_hover_text("Back (←)").clicked() && ply > 0 {
                self.session.show_ply(ply - 1);
            }
            if ui.button("▶").on_hover_text("Forward (→)").clicked() {
                self.session.show_ply(ply + 1);
            }
            if ui.button("▶▶").on_hover_text("Live position").clicked() {
                self.session.show_ply(n);
            }
            ui.label(format!("{ply}/{n}"));
        });
        let texts = self.session.move_texts();
        egui::ScrollArea::vertical().max_height(ui.available_height() - 90.0).auto_shrink([false, true]).show(
            ui,
            |ui| {
                egui::Grid::new("moves").num_columns(3).show(ui, |ui| {
                    for (i, pair) in texts.chunks(2).enumerate() {
                        ui.label(RichText::new(format!("{}.", i + 1)).weak());
                        for (j, t) in pair.iter().enumerate() {
                            let after = 2 * i + j + 1;
                            if ui.selectable_label(after == ply, RichText::new(t).monospace()).clicked() {
                                self.session.show_ply(after);
                            }
                        }
                        ui.end_row();
                    }
                });
            },
        );
        ui.separator();
        ui.label("Position");
        if !ui.memory(|m| m.has_focus(egui::Id::unique("position-text"))) {
            self.position_text = v.format_position(&pos);
        }
        ui.add(egui::TextEdit::singleline(&mut self.position_text).id(egui::Id::unique("position-text")).code_editor())
            .accessible_name("Position string");
        ui.horizontal(|ui| {
            if ui.button("Copy").clicked() {
                ui.ctx().copy_text(v.format_position(&pos));
                self.say("position copied");
            }
            if ui.button("Set").on_hover_text("Start a game from the position string (paste one in)").clicked() {
                let text = self.position_text.clone();
                match self.session.start_from(&text) {
                    Ok(()) => self.input.clear(),
                    Err(e) => self.say_error(format!("position: {e}")),
                }
            }
        });
    }

    fn right_panel(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            for (tab, name) in
                [(Tab::Script, "Script"), (Tab::Pieces, "Pieces"), (Tab::Setup, "Setup"), (Tab::Perft, "Perft")]
            {
                ui.selectable_value(&mut self.tab, tab, name);
            }
        });
        ui.separator();
        if self.tab != Tab::Setup {
            self.setup = None;
        }
        let v = self.session.variant().clone();
        match self.tab {
            Tab::Script => {
                let dirty = self.session.doc.is_dirty();
                ui.label(RichText::new(self.session.doc.source_name()).small().weak());
                let error = self.session.error.clone();
                let events = self.script_panel.show(ui, &mut self.session.doc.text, error.as_ref(), dirty);
                if events.changed {
                    self.pending_edit = Some(Instant::now());
                }
                if events.save {
                    self.save();
                }
            }
            Tab::Pieces => self.inspector.show(ui, v.as_ref(), self.board.face_text),
            Tab::Setup => {
                let shown = self.session.shown_position().clone();
                let setup = self.setup.get_or_insert_with(|| SetupEditor::new(shown.clone()));
                match setup.show(ui, v.as_ref(), self.board.face_text) {
                    Some(SetupAction::Play(text)) => {
                        if let Err(e) = self.session.start_from(&text) {
                            self.say_error(format!("position: {e}"));
                        } else {
                            self.tab = Tab::Script;
                            self.setup = None;
                        }
                    }
                    Some(SetupAction::Copy(text)) => {
                        ui.ctx().copy_text(text);
                        self.say("position copied");
                    }
                    Some(SetupAction::WriteToScript(text)) => match write_setup(&self.session.doc.text, &text) {
                        Ok(new) => {
                            self.session.doc.text = new;
                            self.pending_edit = Some(Instant::now() - self.typing_pause);
                            self.say("start position written into the script (save to keep it)");
                        }
                        Err(e) => self.say_error(e),
                    },
                    Some(SetupAction::FromGame) => setup.position = shown,
                    None => {}
                }
            }
            Tab::Perft => {
                let pos = self.session.shown_position().clone();
                self.perft.show(ui, &v, &pos);
            }
        }
    }

    fn centre(&mut self, ui: &mut egui::Ui) {
        let v = self.session.variant().clone();
        let legal = if self.setup.is_some() { Vec::new() } else { self.legal_moves() };
        let pos = match &self.setup {
            Some(s) => s.position.clone(),
            None => self.session.shown_position().clone(),
        };
        let (top, bottom) = if self.board.flipped { (Side::First, Side::Second) } else { (Side::Second, Side::First) };
        if self.setup.is_some() {
            ui.label(RichText::new("Setting up a position — the board edits the setup").italics());
        }
        if let Some(o) = self.session.outcome()
            && self.setup.is_none()
        {
            ui.label(RichText::new(format!("Game over: {o}")).size(18.0).strong());
        }
        // Variants without drops (Taishin) give the hands' room to the board.
        let hands = !v.info().hand_types.is_empty();
        if hands {
            self.hand_row(ui, v.as_ref(), &pos, top, &legal);
        }
        let field = v.info().field.is_some();
        let hand_height = if hands { 46.0 } else { 0.0 } + if field { field_view::LEGEND_HEIGHT } else { 0.0 };
        let room = (ui.available_height() - hand_height).max(100.0);
        // An open field has no edge to fit: it fills the room around the framed cluster.
        let board_height = if self.board.zoom == 1.0 && !field {
            super::board::Layout::fitted_height(v.geometry(), ui.available_width(), room)
        } else {
            room
        };
        let marks = self.marks(&legal);
        let input = ui
            .allocate_ui(egui::vec2(ui.available_width(), board_height), |ui| {
                self.board.show(ui, v.as_ref(), &pos, &marks)
            })
            .inner;
        if hands {
            self.hand_row(ui, v.as_ref(), &pos, bottom, &legal);
        }
        if field {
            field_view::legend(ui, v.as_ref(), self.board.face_text);
        }
        self.board_input(input);
        let has_pass = legal.iter().any(|m| m.kind == MoveKind::Pass);
        if has_pass && ui.button("Pass").clicked() {
            self.play(Move::pass());
        }
        // A piece that may skip the turn (a lion stepping out and back) passes by this button:
        // clicking the piece again only puts it down.
        if let Pick::Board { from, stop: None } = self.input.pick
            && let Some(&m) =
                legal.iter().find(|m| m.kind == MoveKind::Board && m.from == from && m.to == from && m.via == NO_CELL)
        {
            let name = &v.info().pieces[m.piece as usize].name;
            if ui.button(format!("Pass with the {name}")).clicked() {
                self.input.clear();
                self.play(m);
            }
        }
    }

    /// A side's pieces in hand; the mover's are clickable to drop.
    fn hand_row(&mut self, ui: &mut egui::Ui, v: &dyn Variant, pos: &henka_api::Position, side: Side, legal: &[Move]) {
        ui.horizontal(|ui| {
            ui.set_min_height(40.0);
            ui.label(RichText::new(format!("{side} hand")).weak());
            let types: Vec<PieceId> = v.info().hand_types.clone();
            let up = (side == Side::First) != self.board.flipped;
            for ty in types {
                let n = pos.hand(side, ty);
                if n == 0 {
                    continue;
                }
                let info = &v.info().pieces[ty as usize];
                let (rect, resp) = ui.allocate_exact_size(egui::vec2(36.0, 36.0), egui::Sense::click());
                let label = format!("{side} hand {}", info.name);
                resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
                if matches!(self.input.pick, Pick::Hand { ty: t, .. } if t == ty) && side == pos.side_to_move() {
                    ui.painter().rect_filled(rect, 4.0, Color32::from_rgba_premultiplied(23, 70, 44, 128));
                }
                piece_face::paint(ui.painter(), rect, info, up, self.board.face_text, 1.0);
                if n > 1 {
                    ui.label(RichText::new(format!("×{n}")).strong());
                }
                if resp.on_hover_text(&info.name).clicked() && side == pos.side_to_move() && self.setup.is_none() {
                    // A cube in hand enters showing any of its faces (all types held as `ty`).
                    let pieces = &v.info().pieces;
                    let faces = (0..pieces.len() as PieceId).filter(|&f| pieces[f as usize].demotes_to == ty).collect();
                    self.input.click_hand(ty, faces, legal);
                }
            }
        });
    }

    fn modals(&mut self, ctx: &egui::Context) {
        if let Some(moves) = self.choice.clone() {
            let v = self.session.variant().clone();
            let pos = self.session.game().position().clone();
            let mut chosen = None;
            let mut cancel = false;
            egui::Modal::new(egui::Id::unique("choice")).show(ctx, |ui| {
                ui.heading("Choose");
                for &m in &moves {
                    let info = &v.info().pieces[m.piece as usize];
                    let was = match m.kind {
                        MoveKind::Board => pos.piece_at(m.from).map(|p| p.ty),
                        _ => None,
                    };
                    let label = if m.kind == MoveKind::Drop {
                        format!("Drop showing {}", info.name)
                    } else if was == Some(m.piece) {
                        format!("Keep {}", info.name)
                    } else if info.promoted {
                        format!("Promote to {}", info.name)
                    } else {
                        format!("Become {}", info.name)
                    };
                    if ui.button(label).on_hover_text(v.format_move(&pos, m)).clicked() {
                        chosen = Some(m);
                    }
                }
                cancel = ui.button("Cancel").clicked();
            });
            if let Some(m) = chosen {
                self.choice = None;
                self.play(m);
            } else if cancel {
                self.choice = None;
            }
        }
        if let Some(d) = &mut self.dialog {
            let purpose = d.purpose;
            if let Some(result) = d.show(ctx) {
                self.dialog = None;
                if let Some(path) = result {
                    self.dialog_chose(purpose, path);
                }
            }
        }
        if let Some(entry) = self.confirm_discard.clone() {
            let mut decided = None;
            egui::Modal::new(egui::Id::unique("discard")).show(ctx, |ui| {
                ui.label(format!("{} has unsaved changes.", self.session.doc.name));
                ui.horizontal(|ui| {
                    if ui.button("Save, then open").clicked() {
                        decided = Some(true);
                    }
                    if ui.button("Discard changes").clicked() {
                        decided = Some(false);
                    }
                    if ui.button("Cancel").clicked() {
                        self.confirm_discard = None;
                    }
                });
            });
            if let Some(save) = decided {
                if save {
                    self.save();
                }
                self.confirm_discard = None;
                self.session.doc.saved_hash = text_hash(&self.session.doc.text);
                self.open_now(entry);
            }
        }
        if self.disk_conflict.is_some() {
            let mut take = None;
            egui::Modal::new(egui::Id::unique("conflict")).show(ctx, |ui| {
                ui.label("The script changed on disk, and you have unsaved changes here.");
                ui.horizontal(|ui| {
                    if ui.button("Use the disk version").clicked() {
                        take = Some(true);
                    }
                    if ui.button("Keep mine").clicked() {
                        take = Some(false);
                    }
                });
            });
            if let Some(disk) = take
                && let Some(c) = self.disk_conflict.take()
                && disk
            {
                self.session.doc.text = c.text.clone();
                self.session.doc.saved_hash = text_hash(&c.text);
                self.apply(c);
            }
        }
    }
}
