//! The window's questions: the file dialog, "unsaved changes" before opening another variant, and
//! "changed on disk" while the editor holds unsaved changes.

use std::path::PathBuf;

use eframe::egui;

use super::action::Action;
use super::controller::{Controller, Discard};
use super::file_dialog::{FileDialog, Purpose};
use crate::catalog;

/// The open file dialog, if any (the other questions are the controller's to ask).
#[derive(Debug, Default)]
pub struct Modals {
    dialog: Option<FileDialog>,
}

impl Modals {
    /// Opens the file dialog for `purpose`, in the folder and with the name it suggests for the
    /// variant `doc_name`.
    pub fn ask_path(&mut self, purpose: Purpose, doc_name: &str) {
        let cwd = std::env::current_dir().unwrap_or_default();
        let (dir, name) = match purpose {
            Purpose::OpenScript => (cwd, String::new()),
            Purpose::SaveScriptAs => (catalog::user_dir().unwrap_or(cwd), format!("{doc_name}.rhai")),
            Purpose::SaveGame => (cwd, format!("{doc_name}-game.henka")),
            Purpose::LoadGame => (cwd, String::new()),
            Purpose::SaveSheet => (cwd, format!("{doc_name}.html")),
        };
        self.dialog = Some(FileDialog::new(purpose, dir, name));
    }

    /// Draws whatever is being asked; the answers are returned.
    pub fn show(&mut self, ctx: &egui::Context, controller: &Controller) -> Vec<Action> {
        let mut actions = Vec::new();
        if let Some(d) = &mut self.dialog {
            let purpose = d.purpose;
            if let Some(result) = d.show(ctx) {
                self.dialog = None;
                actions.extend(result.map(|path| chosen(purpose, path)));
            }
        }
        if controller.asks_to_discard() {
            egui::Modal::new(egui::Id::unique("discard")).show(ctx, |ui| {
                ui.label(format!("{} has unsaved changes.", controller.session().doc.name));
                ui.horizontal(|ui| {
                    for (label, answer) in [
                        ("Save, then open", Discard::SaveFirst),
                        ("Discard changes", Discard::Discard),
                        ("Cancel", Discard::Cancel),
                    ] {
                        if ui.button(label).clicked() {
                            actions.push(Action::Discard(answer));
                        }
                    }
                });
            });
        }
        if controller.asks_new_game() {
            egui::Modal::new(egui::Id::unique("new-game")).show(ctx, |ui| {
                let n = controller.session().game().moves().len();
                ui.label(format!("Start a new game? The game in progress ({n} moves) will be lost."));
                ui.horizontal(|ui| {
                    if ui.button("Start a new game").clicked() {
                        actions.push(Action::ConfirmNewGame(true));
                    }
                    if ui.button("Keep playing").clicked() {
                        actions.push(Action::ConfirmNewGame(false));
                    }
                });
            });
        }
        if controller.asks_about_disk_version() {
            egui::Modal::new(egui::Id::unique("conflict")).show(ctx, |ui| {
                ui.label("The script changed on disk, and you have unsaved changes here.");
                ui.horizontal(|ui| {
                    if ui.button("Use the disk version").clicked() {
                        actions.push(Action::UseDiskVersion(true));
                    }
                    if ui.button("Keep mine").clicked() {
                        actions.push(Action::UseDiskVersion(false));
                    }
                });
            });
        }
        actions
    }
}

/// What a path chosen in the dialog is for.
fn chosen(purpose: Purpose, path: PathBuf) -> Action {
    match purpose {
        Purpose::OpenScript => Action::OpenPath(path),
        Purpose::SaveScriptAs => Action::SaveScriptAs(path),
        Purpose::SaveGame => Action::SaveGame(path),
        Purpose::LoadGame => Action::LoadGame(path),
        Purpose::SaveSheet => Action::SaveSheet(path),
    }
}
