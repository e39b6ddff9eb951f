//! The editor: design and playtest a variant in a window, with the script hot-reloaded as it is
//! edited here or in any external editor (docs/architecture.md, "Hot reload").
//!
//! Modules, one concept each:
//! - no UI: [`controller`] (what is open, the game, saving, autosave, reload policy, engine and
//!   rule options), [`session`] (document, rules and game), [`reload`] (the compile worker every
//!   compile goes through, and the folder watcher), [`autosave`] (the game in progress, kept on
//!   disk), `move_input` (clicks to moves);
//! - the panels, each a struct drawn by `show` that returns `action`s: `toolbar`,
//!   `status_line`, `browser`, `rule_options`, `ai_panel` (with the AI's worker thread),
//!   `game_panel`, `tabs` (`script_panel`, `inspector`, `piece_lab_panel`, `setup`,
//!   `perft_panel`), `play_area` (the board, hands and move choice), `modals` (and its
//!   `file_dialog`);
//! - drawing: `board`, `piece_face`, `field_view` (an open field's frame and support marks),
//!   `highlight`, [`fonts`];
//! - `app`, the window: the controller and the panels wired together, and `window_input` (files
//!   dropped on it, keyboard shortcuts).

mod action;
mod ai_panel;
mod app;
pub mod autosave;
pub mod bench;
mod board;
mod browser;
pub mod controller;
mod field_view;
mod file_dialog;
pub mod fonts;
mod game_panel;
mod highlight;
mod inspector;
mod modals;
mod move_input;
mod perft_panel;
mod piece_face;
mod piece_lab_panel;
mod play_area;
pub mod playtest_panel;
pub mod reload;
mod rule_options;
mod screenshot;
mod script_panel;
pub mod session;
mod setup;
mod status_line;
mod tabs;
mod toolbar;
mod window_input;

pub use app::{EditorApp, Persisted};
pub use board::{Arrow, ArrowKind};
pub use controller::{Controller, DEFAULT_VARIANT, StartOptions};
pub use tabs::Tab;

use std::path::PathBuf;

use fonts::SystemFonts;

/// How to run the window.
#[derive(Clone, Debug, Default)]
pub struct WindowOptions {
    /// Save a screenshot of the first frames here, then exit (the smoke test and README image).
    pub screenshot: Option<PathBuf>,
    /// Window size in points.
    pub size: Option<[f32; 2]>,
    /// Whether a system CJK font may back up the embedded kanji (the window: yes; tests: no, so
    /// they draw the same on every machine).
    pub system_fonts: SystemFonts,
}

/// Opens the editor window and runs until it is closed.
pub fn run(mut start: StartOptions, window: WindowOptions) -> anyhow::Result<()> {
    let size = window.size.unwrap_or([1440.0, 900.0]);
    let persist = window.screenshot.is_none();
    if persist && start.autosave.is_none() {
        start.autosave = autosave::default_path();
    }
    let options = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default()
            .with_inner_size(size)
            .with_min_inner_size([640.0, 420.0])
            .with_title("Henka — 変化")
            .with_drag_and_drop(true),
        // Both renderers can be compiled in (tests bring wgpu); the editor draws with glow.
        renderer: eframe::Renderer::Glow,
        persist_window: persist,
        ..Default::default()
    };
    let capture = window.screenshot.map(screenshot::Capture::new);
    let outcome = capture.as_ref().map(screenshot::Capture::outcome);
    eframe::run_native(
        "henka",
        options,
        Box::new(move |cc| {
            let persisted: Persisted = match (persist, cc.storage) {
                (true, Some(s)) => eframe::get_value(s, eframe::APP_KEY).unwrap_or_default(),
                _ => Persisted::default(),
            };
            let app = EditorApp::new(start, persisted).with_system_fonts(window.system_fonts);
            Ok(Box::new(Window { app, screenshot: capture, persist }))
        }),
    )
    .map_err(|e| anyhow::anyhow!("the editor window failed: {e}"))?;
    match outcome.map(|o| o.lock().expect("screenshot lock").take()) {
        None | Some(Some(Ok(()))) => Ok(()),
        Some(Some(Err(e))) => anyhow::bail!("screenshot: {e}"),
        Some(None) => anyhow::bail!("the window closed before the screenshot was taken"),
    }
}

/// The eframe side of the editor: persistence and the screenshot mode around [`EditorApp`].
struct Window {
    app: EditorApp,
    screenshot: Option<screenshot::Capture>,
    persist: bool,
}

impl eframe::App for Window {
    fn ui(&mut self, ui: &mut eframe::egui::Ui, _frame: &mut eframe::Frame) {
        self.app.show(ui);
        if let Some(shot) = &mut self.screenshot {
            shot.frame(ui.ctx());
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.persist {
            eframe::set_value(storage, eframe::APP_KEY, &self.app.persisted());
        }
    }
}
