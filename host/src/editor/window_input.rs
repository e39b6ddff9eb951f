//! What the window takes by itself, outside any panel: script files dropped on it, and the game's
//! keyboard shortcuts.

use std::path::PathBuf;

use eframe::egui;

use super::action::Action;
use super::session::Session;

/// A `.rhai` file dropped on the window opens.
pub fn dropped_files(ctx: &egui::Context) -> Option<Action> {
    let dropped: Vec<PathBuf> = ctx.input(|i| {
        i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()).collect()
    });
    dropped.into_iter().find(|p| p.extension().is_some_and(|x| x == "rhai")).map(Action::OpenPath)
}

/// Ctrl+Z and Ctrl+Y undo and redo, ← and → browse the history.
pub fn shortcuts(ctx: &egui::Context, session: &Session) -> Vec<Action> {
    // While a text field has the keyboard, its own undo and arrows win.
    if ctx.memory(|m| m.focused().is_some()) {
        return Vec::new();
    }
    let (undo, redo, back, forward) = ctx.input_mut(|i| {
        (
            i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z),
            i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowLeft),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowRight),
        )
    });
    let ply = session.shown_ply();
    let mut actions = Vec::new();
    if undo {
        actions.push(Action::Undo);
    }
    if redo {
        actions.push(Action::Redo);
    }
    if back && ply > 0 {
        actions.push(Action::ShowPly(ply - 1));
    }
    if forward {
        actions.push(Action::ShowPly(ply + 1));
    }
    actions
}
