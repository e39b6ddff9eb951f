//! The editor window: the controller ([`super::controller`]) and the panels around the board,
//! wired together. Each frame takes the controller's news (finished compiles), then draws each
//! panel from its state and applies the actions the panel returns. All UI is drawn by
//! [`EditorApp::show`], so eframe and the UI tests drive exactly the same code.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use eframe::egui;

use super::action::Action;
use super::ai_panel::AiPanel;
use super::board::BoardView;
use super::browser::Browser;
use super::controller::{Controller, Event, Saved, StartOptions};
use super::file_dialog::Purpose;
use super::fonts::SystemFonts;
use super::game_panel::GamePanel;
use super::modals::Modals;
use super::play_area::PlayArea;
use super::rule_options::RuleOptionsPanel;
use super::session::Session;
use super::status_line::StatusLine;
use super::tabs::{Tab, Tabs};
use super::toolbar::Toolbar;
use super::window_input;

/// The right-hand panel's width at first: the script's `v.piece(…)` lines fit with their moves.
const RIGHT_PANEL_WIDTH: f32 = 600.0;

/// A grip on a resizable panel's edge at `x`, half-way down, so the edge shows it can be dragged
/// (egui marks it only under the pointer).
fn paint_resize_grip(ui: &egui::Ui, x: f32) {
    let y = ui.max_rect().center().y;
    let visuals = ui.visuals();
    let grip = egui::Rect::from_center_size(egui::pos2(x, y), egui::vec2(7.0, 44.0));
    let painter = ui.painter();
    painter.rect_filled(grip, 3.0, visuals.widgets.inactive.bg_fill);
    painter.rect_stroke(grip, 3.0, visuals.widgets.inactive.bg_stroke, egui::StrokeKind::Inside);
    for dy in [-8.0, 0.0, 8.0] {
        painter.circle_filled(egui::pos2(x, y + dy), 1.5, visuals.widgets.inactive.fg_stroke.color);
    }
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

/// The editor.
pub struct EditorApp {
    controller: Controller,
    /// The window's context, known from the first frame; the workers' wake-ups ask it for frames.
    context: Arc<OnceLock<egui::Context>>,
    pub board: BoardView,
    pub tab: Tab,
    pub ai: AiPanel,
    toolbar: Toolbar,
    status_line: StatusLine,
    browser: Browser,
    rule_options: RuleOptionsPanel,
    game_panel: GamePanel,
    tabs: Tabs,
    play_area: PlayArea,
    modals: Modals,
    /// Installed with the first frame.
    system_fonts: SystemFonts,
}

impl std::fmt::Debug for EditorApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditorApp").field("controller", &self.controller).finish()
    }
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
        EditorApp {
            controller: Controller::new(&options, persisted.last_open, wake.clone()),
            context,
            board: persisted.board,
            tab: persisted.tab,
            ai: AiPanel::new(wake),
            toolbar: Toolbar,
            status_line: StatusLine,
            browser: Browser::default(),
            rule_options: RuleOptionsPanel,
            game_panel: GamePanel::default(),
            tabs: Tabs::default(),
            play_area: PlayArea::default(),
            modals: Modals::default(),
            system_fonts: SystemFonts::default(),
        }
    }

    /// Lets a system CJK font back up the embedded kanji (the window; tests stay hermetic).
    pub fn with_system_fonts(mut self, fonts: SystemFonts) -> EditorApp {
        self.system_fonts = fonts;
        self
    }

    pub fn controller(&self) -> &Controller {
        &self.controller
    }

    /// The document, the rules in force and the game.
    pub fn session(&self) -> &Session {
        self.controller.session()
    }

    /// What to keep for the next run.
    pub fn persisted(&self) -> Persisted {
        let doc = &self.session().doc;
        let last_open = match &doc.path {
            // Absolute, so the next run finds it from any folder.
            Some(p) => Some(p.canonicalize().unwrap_or_else(|_| p.clone()).display().to_string()),
            None => Some(doc.name.clone()),
        };
        Persisted { last_open, board: self.board.clone(), tab: self.tab }
    }

    /// Draws the whole editor and handles its input.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if self.context.set(ctx.clone()).is_ok() {
            // The first frame: the context the editor lives in is known from now on.
            super::fonts::install(&ctx, self.system_fonts);
        }
        if let Some(wait) = self.controller.poll(Instant::now()) {
            ctx.request_repaint_after(wait);
        }
        self.follow_events();
        let dropped = window_input::dropped_files(&ctx);
        let keys = window_input::shortcuts(&ctx, self.controller.session());
        self.apply(&ctx, dropped.into_iter().chain(keys));
        let name = self.controller.session().doc.name.clone();
        let ai_move = self.ai.update(self.controller.session(), &name);
        self.apply(&ctx, ai_move.map(Action::Play));
        self.controller.autosave();

        let actions =
            egui::Panel::top("toolbar").show(ui, |ui| self.toolbar.show(ui, &self.controller, &mut self.board)).inner;
        self.apply(&ctx, actions);
        egui::Panel::bottom("status").show(ui, |ui| self.status_line.show(ui, &self.controller));
        let left = egui::Panel::left("left").resizable(true).default_size(230.0).show(ui, |ui| self.left_panel(ui));
        self.apply(&ctx, left.inner);
        paint_resize_grip(ui, left.response.rect.right());
        let right = egui::Panel::right("right")
            .resizable(true)
            .default_size(RIGHT_PANEL_WIDTH)
            .show(ui, |ui| self.tabs.show(ui, &mut self.tab, &mut self.controller, self.board.face_text));
        paint_resize_grip(ui, right.response.rect.left());
        self.apply(&ctx, right.inner);
        let legal = if self.tabs.setup().is_some() { Vec::new() } else { self.controller.legal_moves() };
        let arrows = self.ai.arrows(self.controller.session());
        let actions = egui::CentralPanel::default()
            .show(ui, |ui| {
                let setup = self.tabs.setup();
                self.play_area.show(ui, &mut self.board, self.controller.session(), &legal, arrows, setup)
            })
            .inner;
        self.apply(&ctx, actions);

        let chosen = self.play_area.show_choice(&ctx, self.controller.session(), self.board.face_text);
        self.apply(&ctx, chosen);
        let actions = self.modals.show(&ctx, &self.controller);
        self.apply(&ctx, actions);
    }

    /// The variant browser, the rule options, the AI and the game, scrolling together when they
    /// are taller than the window (the move list keeps a fixed share of the height).
    fn left_panel(&mut self, ui: &mut egui::Ui) -> Vec<Action> {
        let session = self.controller.session();
        let mut actions = Vec::new();
        let list_height = (ui.available_height() * 0.4).max(160.0);
        egui::ScrollArea::vertical().id_salt("left-panel").auto_shrink([false, false]).show(ui, |ui| {
            egui::CollapsingHeader::new("Variants")
                .default_open(true)
                .show(ui, |ui| actions.extend(self.browser.show(ui, &session.doc.name)));
            actions.extend(self.rule_options.show(ui, session.declared_options(), self.controller.plays_plugin()));
            egui::CollapsingHeader::new("AI")
                .default_open(true)
                .show(ui, |ui| self.ai.show(ui, session, &session.doc.name));
            ui.separator();
            actions.extend(self.game_panel.show(ui, session, list_height));
        });
        actions
    }

    /// Applies the panels' actions to the controller, and follows up what they caused.
    fn apply(&mut self, ctx: &egui::Context, actions: impl IntoIterator<Item = Action>) {
        for action in actions {
            let c = &mut self.controller;
            match action {
                Action::Play(mv) => {
                    // The AI's move, or the end of the user's: whatever was half picked is void.
                    self.play_area.clear();
                    c.play(mv);
                }
                Action::NewGame => {
                    c.new_game();
                    if !c.asks_new_game() {
                        self.play_area.clear();
                        self.ai.forget_game();
                    }
                }
                Action::ConfirmNewGame(start) => {
                    c.resolve_new_game(start);
                    if start {
                        self.play_area.clear();
                        self.ai.forget_game();
                    }
                }
                Action::Undo => {
                    self.play_area.clear();
                    self.ai.note_undo();
                    c.undo();
                }
                Action::Redo => c.redo(),
                Action::ShowPly(ply) => c.show_ply(ply),
                Action::StartFrom(position) => {
                    if c.start_from(&position) {
                        self.play_area.clear();
                        self.ai.forget_game();
                    }
                }
                Action::PlayFromSetup(position) => {
                    if c.start_from(&position) {
                        self.tab = Tab::Script;
                        self.tabs.leave_setup();
                        self.ai.forget_game();
                    }
                }
                Action::CopyPosition(position) => {
                    ctx.copy_text(position);
                    c.say("position copied");
                }
                Action::Open(entry) => c.open(entry),
                Action::OpenPath(path) => c.open_path(&path),
                Action::OpenPlugin(plugin) => c.open_plugin(plugin),
                Action::NewVariant(name) => {
                    if c.new_variant(&name) {
                        self.tab = Tab::Script;
                    }
                }
                Action::ScriptEdited => c.text_edited(Instant::now()),
                Action::Save => {
                    if c.save() == Saved::AskPath {
                        self.modals.ask_path(Purpose::SaveScriptAs, &c.session().doc.name);
                    }
                }
                Action::SaveScriptAs(path) => c.save_as(&path),
                Action::WriteSetup(position) => c.write_setup(&position),
                Action::WriteMoves { piece, moves } => c.write_moves(&piece, &moves),
                Action::SaveGame(path) => c.save_game(&path),
                Action::SaveSheet(path) => c.save_sheet(&path),
                Action::LoadGame(path) => {
                    c.load_game(&path);
                    self.ai.forget_game();
                }
                Action::AskPath(purpose) => self.modals.ask_path(purpose, &c.session().doc.name),
                Action::Discard(answer) => c.resolve_discard(answer),
                Action::UseDiskVersion(use_disk) => c.resolve_disk_conflict(use_disk),
                Action::SetOption { name, value } => c.set_option(&name, &value),
                Action::UseScript => c.use_script(),
                Action::UsePlugin(path) => c.use_plugin(path),
            }
            self.follow_events();
        }
    }

    /// Makes the panels follow what changed in the controller.
    fn follow_events(&mut self) {
        for event in self.controller.take_events() {
            match event {
                Event::NewRules => {
                    self.play_area.clear();
                    self.tabs.cancel_perft();
                }
                Event::Opened => {
                    // Nothing of the last variant carries over: its setup, playtest and perft
                    // results, the AI's evaluation and pause, the zoom.
                    self.tabs.forget_variant();
                    self.ai.forget_game();
                    self.board.fit();
                }
                Event::CatalogChanged => self.browser.refresh(),
            }
        }
    }
}
