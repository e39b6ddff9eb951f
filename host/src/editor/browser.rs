//! The variant browser: every variant the catalog finds (bundled, the project's `scripts/`, the
//! user's variants folder), grouped by where it lives, plus "Open…" and "New variant…".

use eframe::egui::{self, RichText};

use super::action::Action;
use super::file_dialog::Purpose;
use crate::catalog::{self, Entry, Source};

/// The browser's state.
#[derive(Debug, Default)]
pub struct Browser {
    entries: Vec<Entry>,
    plugins: Vec<crate::plugin::PluginFile>,
    new_name: String,
}

impl Browser {
    /// Re-reads the folders (after a save or a new variant).
    pub fn refresh(&mut self) {
        self.entries = catalog::discover(&catalog::search_dirs());
        self.plugins = crate::plugin::discover::discover(&crate::plugin::search_dirs());
    }

    /// Lists the variants, `open_name` selected; asks to open one, or to open or make a script.
    pub fn show(&mut self, ui: &mut egui::Ui, open_name: &str) -> Option<Action> {
        if self.entries.is_empty() {
            self.refresh();
        }
        let mut action = None;
        let user = catalog::user_dir();
        let group_of = |e: &Entry| match &e.source {
            Source::Bundled(_) => "Bundled",
            Source::File(p) if user.as_ref().is_some_and(|u| p.starts_with(u)) => "Your variants",
            Source::File(_) => "Project scripts",
        };
        for group in ["Your variants", "Project scripts", "Bundled"] {
            let members: Vec<&Entry> = self.entries.iter().filter(|e| group_of(e) == group).collect();
            if members.is_empty() {
                continue;
            }
            ui.label(RichText::new(group).small().strong());
            for e in members {
                let resp = ui.selectable_label(e.name == open_name, &e.name).on_hover_text(e.origin());
                if resp.clicked() {
                    action = Some(Action::Open(e.clone()));
                }
            }
        }
        if !self.plugins.is_empty() {
            // Folded at first: the scripts are what a designer opens; a long list of plugins
            // would push the game's controls below the panel's fold.
            let title = RichText::new(format!("Compiled plugins ({})", self.plugins.len())).small().strong();
            egui::CollapsingHeader::new(title).id_salt("compiled-plugins").default_open(false).show(ui, |ui| {
                for p in &self.plugins {
                    let hint = format!("{}\nOpens the script of this name and plays its plugin", p.path.display());
                    if ui.selectable_label(false, format!("{} (plugin)", p.name)).on_hover_text(hint).clicked() {
                        action = Some(Action::OpenPlugin(p.clone()));
                    }
                }
            });
        }
        ui.separator();
        ui.horizontal(|ui| {
            if ui.button("Open…").on_hover_text("Open a .rhai script from disk (or drop one on the window)").clicked()
            {
                action = Some(Action::AskPath(Purpose::OpenScript));
            }
            if ui.button("Rescan").on_hover_text("Look for new scripts in the folders").clicked() {
                self.refresh();
            }
        });
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut self.new_name).hint_text("new-variant").desired_width(110.0));
            let name = self.new_name.trim().to_string();
            let folder = user.as_deref().map_or("(no folder: set HENKA_VARIANTS)".to_string(), short);
            let hint = format!("Start a variant from the annotated template, saved in {folder}");
            if ui.add_enabled(!name.is_empty(), egui::Button::new("New variant")).on_hover_text(hint).clicked() {
                action = Some(Action::NewVariant(name));
                self.new_name.clear();
            }
        });
        action
    }
}

fn short(p: &std::path::Path) -> String {
    match std::env::var_os("HOME") {
        Some(home) if p.starts_with(&home) => format!("~/{}", p.strip_prefix(&home).unwrap_or(p).display()),
        _ => p.display().to_string(),
    }
}
