//! The status line: the compile error the board is waiting out, else the last reload's report,
//! else the script's name; and the latest message.

use eframe::egui::{self, RichText};

use super::controller::Controller;

/// The status line (it keeps nothing between frames).
#[derive(Debug, Default)]
pub struct StatusLine;

impl StatusLine {
    pub fn show(&mut self, ui: &mut egui::Ui, controller: &Controller) {
        let session = controller.session();
        ui.horizontal(|ui| {
            if let Some(e) = &session.error {
                ui.colored_label(ui.visuals().error_fg_color, format!("Keeping the last good rules: {e}"));
            } else if let Some(r) = controller.reload_status() {
                ui.label(r.to_string());
            } else {
                ui.label(RichText::new(session.doc.source_name()).weak());
            }
            if let Some(m) = controller.message() {
                ui.separator();
                let color = if m.error { ui.visuals().warn_fg_color } else { ui.visuals().text_color() };
                ui.colored_label(color, &m.text);
            }
        });
    }
}
