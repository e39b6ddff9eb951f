//! The script panel: a code editor with Rhai highlighting, line numbers and an error gutter. Long
//! lines wrap (a `v.piece(…)` line keeps its `moves:` string in view), continuation rows have no
//! number. A click on the error puts the cursor on its line and column, with the keyboard focus.

use eframe::egui::text::{CCursor, CCursorRange};
use eframe::egui::{self, Color32, FontId, RichText, Stroke, TextEdit, pos2, vec2};

use super::highlight;
use crate::script::ScriptError;

const ERROR_BG: Color32 = Color32::from_rgba_premultiplied(0x60, 0x10, 0x10, 0x50);

/// What the panel asks of its owner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanelEvents {
    /// The text was edited this frame.
    pub changed: bool,
    pub save: bool,
}

/// Per-panel state: a pending jump to a line and column.
#[derive(Debug, Default)]
pub struct ScriptPanel {
    jump_to: Option<(u32, u32)>,
}

impl ScriptPanel {
    /// Moves the cursor to a 1-based line and column on the next frame.
    pub fn jump_to(&mut self, line: u32, column: u32) {
        self.jump_to = Some((line, column));
    }

    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        text: &mut String,
        error: Option<&ScriptError>,
        dirty: bool,
    ) -> PanelEvents {
        let mut events = PanelEvents::default();
        // A jump asked for in an earlier frame: the frame of the click on the error would take
        // the focus away again (a click outside a focused text surrenders its focus).
        let jump = self.jump_to.take();
        let error_line = error.and_then(|e| e.location.as_ref()).map(|l| (l.line, l.column));
        ui.horizontal(|ui| {
            events.save =
                ui.button("Save").on_hover_text("Save the script (Ctrl+S); the file is replaced atomically").clicked();
            if dirty {
                ui.label(RichText::new("● unsaved changes").color(ui.visuals().warn_fg_color));
            }
        });
        events.save |= ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::S));
        if let Some(e) = error {
            let text = RichText::new(format!("⚠ {e}")).color(ui.visuals().error_fg_color);
            let resp = ui.add(egui::Label::new(text).sense(egui::Sense::click()));
            if let Some((line, col)) = error_line
                && resp.on_hover_text("Click to jump to the error").clicked()
            {
                self.jump_to(line, col);
                ui.ctx().request_repaint();
            }
        }

        let font = FontId::monospace(13.0);
        let dark = ui.visuals().dark_mode;
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, wrap_width: f32| {
            let mut job = highlight::layout_job(buf.as_str(), font.clone(), dark);
            job.wrap.max_width = wrap_width;
            ui.fonts_mut(|f| f.layout_job(job))
        };
        let gutter = 44.0;
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            ui.horizontal_top(|ui| {
                let (gutter_rect, _) =
                    ui.allocate_exact_size(vec2(gutter, ui.available_height()), egui::Sense::hover());
                let id = ui.scope_id().with("script-text");
                // A jump puts the cursor and the focus on the text before it is drawn, so this
                // very frame shows the text focused with the cursor at the error.
                let jump = jump.map(|(line, col)| char_index(text, line, col));
                if let Some(index) = jump {
                    let mut state = egui::text_edit::TextEditState::load(ui.ctx(), id).unwrap_or_default();
                    state.cursor.set_char_range(Some(CCursorRange::one(CCursor::new(index))));
                    state.store(ui.ctx(), id);
                    ui.memory_mut(|m| m.request_focus(id));
                }
                let output = TextEdit::multiline(text)
                    .id(id)
                    .code_editor()
                    .desired_width(f32::INFINITY)
                    .desired_rows(30)
                    .lock_focus(true)
                    .layouter(&mut layouter)
                    .show(ui);
                let response = output.response.response.clone().accessible_name("Script text");
                events.changed = response.changed();

                // Line numbers and the error marker, aligned with the galley's rows.
                let painter = ui.painter();
                let number_color = ui.visuals().weak_text_color();
                let mut line = 1u32;
                let mut starts_line = true;
                for row in &output.galley.rows {
                    let y = output.galley_pos.y + row.pos.y;
                    let h = row.row.size.y;
                    if starts_line {
                        if error_line.map(|(l, _)| l) == Some(line) {
                            let band =
                                egui::Rect::from_min_size(pos2(gutter_rect.left(), y), vec2(ui.max_rect().width(), h));
                            painter.rect_filled(band, 0.0, ERROR_BG);
                            painter.circle(
                                pos2(gutter_rect.left() + 7.0, y + h / 2.0),
                                4.0,
                                ui.visuals().error_fg_color,
                                Stroke::NONE,
                            );
                        }
                        painter.text(
                            pos2(gutter_rect.right() - 6.0, y),
                            egui::Align2::RIGHT_TOP,
                            line.to_string(),
                            FontId::monospace(11.0),
                            number_color,
                        );
                    }
                    starts_line = row.ends_with_newline;
                    if row.ends_with_newline {
                        line += 1;
                    }
                }

                if let Some(index) = jump {
                    let at = output.galley.pos_from_cursor(CCursor::new(index));
                    ui.scroll_to_rect(
                        at.translate(output.galley_pos.to_vec2()).expand(20.0),
                        Some(egui::Align::Center),
                    );
                }
            });
        });
        events
    }
}

/// The character index of a 1-based line and column.
pub fn char_index(text: &str, line: u32, column: u32) -> usize {
    let mut index = 0;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line as usize {
            return index + (column.saturating_sub(1) as usize).min(l.chars().count());
        }
        index += l.chars().count() + 1;
    }
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::char_index;

    #[test]
    fn line_and_column_to_a_character_index() {
        let t = "ab\n駒cd\nx";
        assert_eq!(char_index(t, 1, 1), 0);
        assert_eq!(char_index(t, 2, 2), 4);
        assert_eq!(char_index(t, 3, 9), 8);
        assert_eq!(char_index(t, 7, 1), 8);
    }
}
