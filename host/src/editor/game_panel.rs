//! The game panel: who is to move (or how the game ended), the move list to browse the history
//! by, and the position string to copy, or to paste one and start from it.

use eframe::egui::{self, Color32, RichText};

use super::action::Action;
use super::session::Session;

/// The game panel's state: the position string being typed, and the move the list last
/// scrolled to.
#[derive(Debug, Default)]
pub struct GamePanel {
    position_text: String,
    /// The shown ply and game length the move list last followed: it scrolls to the current move
    /// when either changes, and otherwise leaves the scrolling to the user.
    followed: Option<(usize, usize)>,
}

impl GamePanel {
    /// Draws the panel with the move list `list_height` points tall at most.
    pub fn show(&mut self, ui: &mut egui::Ui, session: &Session, list_height: f32) -> Vec<Action> {
        let mut actions = Vec::new();
        let v = session.variant();
        let pos = session.shown_position();
        match session.outcome() {
            Some(o) => {
                ui.label(RichText::new(format!("Game over: {o}")).strong().color(Color32::from_rgb(0xC0, 0x39, 0x2B)));
            }
            None => {
                let check = if v.in_check(pos) { " — check!" } else { "" };
                ui.label(RichText::new(format!("{} to move{check}", pos.side_to_move())).strong());
            }
        }
        let n = session.game().moves().len();
        let ply = session.shown_ply();
        ui.horizontal(|ui| {
            if ui.button("◀◀").on_hover_text("Start").clicked() {
                actions.push(Action::ShowPly(0));
            }
            if ui.button("◀").on_hover_text("Back (←)").clicked() && ply > 0 {
                actions.push(Action::ShowPly(ply - 1));
            }
            if ui.button("▶").on_hover_text("Forward (→)").clicked() {
                actions.push(Action::ShowPly(ply + 1));
            }
            if ui.button("▶▶").on_hover_text("Live position").clicked() {
                actions.push(Action::ShowPly(n));
            }
            ui.label(format!("{ply}/{n}"));
        });
        let texts = session.move_texts();
        let follow = self.followed != Some((ply, n));
        self.followed = Some((ply, n));
        egui::ScrollArea::vertical().id_salt("move-list").max_height(list_height).auto_shrink([false, true]).show(
            ui,
            |ui| {
                egui::Grid::new("moves").num_columns(3).show(ui, |ui| {
                    for (i, pair) in texts.chunks(2).enumerate() {
                        ui.label(RichText::new(format!("{}.", i + 1)).weak());
                        for (j, t) in pair.iter().enumerate() {
                            let after = 2 * i + j + 1;
                            let row = ui.selectable_label(after == ply, RichText::new(t).monospace());
                            if after == ply && follow {
                                row.scroll_to_me_animation(
                                    Some(egui::Align::Center),
                                    egui::style::ScrollAnimation::none(),
                                );
                            }
                            if row.clicked() {
                                actions.push(Action::ShowPly(after));
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
            self.position_text = v.format_position(pos);
        }
        ui.add(egui::TextEdit::singleline(&mut self.position_text).id(egui::Id::unique("position-text")).code_editor())
            .accessible_name("Position string");
        ui.horizontal(|ui| {
            if ui.button("Copy").clicked() {
                actions.push(Action::CopyPosition(v.format_position(pos)));
            }
            if ui.button("Set").on_hover_text("Start a game from the position string (paste one in)").clicked() {
                actions.push(Action::StartFrom(self.position_text.clone()));
            }
        });
        actions
    }
}
