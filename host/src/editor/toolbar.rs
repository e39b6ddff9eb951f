//! The toolbar: the variant's name, the game's buttons, the board's view, game records, "Save
//! script as…", and the choice of engine when the variant has a compiled plugin.

use eframe::egui::{self, RichText};

use super::action::Action;
use super::board::BoardView;
use super::controller::Controller;
use super::file_dialog::Purpose;
use super::piece_face::FaceText;

/// The toolbar (it keeps nothing between frames).
#[derive(Debug, Default)]
pub struct Toolbar;

impl Toolbar {
    /// Draws the toolbar; the board's view changes at once, the rest is returned.
    pub fn show(&mut self, ui: &mut egui::Ui, controller: &Controller, board: &mut BoardView) -> Vec<Action> {
        let mut actions = Vec::new();
        let session = controller.session();
        ui.horizontal(|ui| {
            let info = &session.variant().info().meta;
            ui.heading(RichText::new(format!("変化 Henka — {}", info.name)).strong());
            ui.separator();
            if ui.button("New game").clicked() {
                actions.push(Action::NewGame);
            }
            if ui.add_enabled(!session.game().moves().is_empty(), egui::Button::new("Undo")).clicked() {
                actions.push(Action::Undo);
            }
            if ui.add_enabled(session.can_redo(), egui::Button::new("Redo")).clicked() {
                actions.push(Action::Redo);
            }
            ui.separator();
            if ui.button("Flip").on_hover_text("Turn the board around").clicked() {
                board.flipped = !board.flipped;
            }
            let fit = if session.variant().info().field.is_some() {
                "Frame the pieces on the field, following the game (scroll to zoom, right-drag to pan)"
            } else {
                "Zoom to the whole board (scroll to zoom, right-drag to pan)"
            };
            if ui.button("Fit").on_hover_text(fit).clicked() {
                board.fit();
            }
            let kanji = board.face_text == FaceText::Kanji;
            if ui.selectable_label(kanji, "漢字").on_hover_text("Kanji on pieces (else Latin tokens)").clicked() {
                board.face_text = if kanji { FaceText::Token } else { FaceText::Kanji };
            }
            ui.separator();
            for (purpose, label) in [
                (Purpose::SaveGame, "Save game…"),
                (Purpose::LoadGame, "Load game…"),
                (Purpose::SaveScriptAs, "Save script as…"),
            ] {
                if ui.button(label).clicked() {
                    actions.push(Action::AskPath(purpose));
                }
            }
            let share = "One HTML page with the rules, every piece's moves drawn and in words, and the script";
            if ui.button("Share as page…").on_hover_text(share).clicked() {
                actions.push(Action::AskPath(Purpose::SaveSheet));
            }
            engine_choice(ui, controller, &mut actions);
        });
        actions
    }
}

/// Script or plugin, when the variant has a compiled plugin.
fn engine_choice(ui: &mut egui::Ui, controller: &Controller, actions: &mut Vec<Action>) {
    let Some(plugin) = controller.plugin() else { return };
    ui.separator();
    let on_plugin = controller.plays_plugin();
    if ui.selectable_label(!on_plugin, "Script engine").on_hover_text("The board plays the script's rules").clicked()
        && on_plugin
    {
        actions.push(Action::UseScript);
    }
    let hint = format!("The board plays the compiled plugin {}", plugin.display());
    if ui.selectable_label(on_plugin, "Plugin engine").on_hover_text(hint).clicked() && !on_plugin {
        actions.push(Action::UsePlugin(plugin.clone()));
    }
    if on_plugin && ui.button("Reload plugin").on_hover_text("Load the plugin again after a rebuild").clicked() {
        actions.push(Action::UsePlugin(plugin));
    }
}
