//! The piece lab in the Pieces tab: the inspected piece's move diagram becomes clickable — a step
//! or leap to a cell, a slide along its ray, moves only or captures only, mirrored as the designer
//! chooses — and each change is written into the script's `moves:` string (live by default), so
//! the rules recompile and the game on the board plays the new piece at once. The model and the
//! Betza writer are [`crate::piece_lab`]; this module only draws and reports clicks.

use eframe::egui::{self, Color32, RichText, Sense};
use henka_api::rules::betza::Mode;
use henka_api::{PieceId, PieceInfo};

use super::action::Action;
use super::board::paint_mark;
use super::inspector::{DiagramGrid, diagram, legend, static_diagram};
use super::piece_face::{self, FaceText};
use crate::piece_lab::{LabPiece, Symmetry, Tool};

/// Which tool the clicks use (the slide's range is kept apart so switching tools keeps it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ToolChoice {
    Leap,
    Slide,
    Erase,
}

/// The lab's state: the tools chosen and the piece being edited.
#[derive(Debug)]
pub struct PieceLabPanel {
    tool: ToolChoice,
    /// The slide's range; 0 = any distance.
    range: u8,
    mode: Mode,
    symmetry: Symmetry,
    /// Each change is written into the script at once.
    live: bool,
    editing: Option<Editing>,
    /// What the last click could not do.
    note: Option<String>,
}

/// The piece on the lab's bench.
#[derive(Debug)]
struct Editing {
    piece: PieceId,
    /// The rules' moves text the lab was read from.
    source: String,
    /// The text last written into the script, until the recompiled rules show it.
    written: Option<String>,
    lab: Result<LabPiece, String>,
}

impl Default for PieceLabPanel {
    fn default() -> Self {
        PieceLabPanel {
            tool: ToolChoice::Leap,
            range: 0,
            mode: Mode::BOTH,
            symmetry: Symmetry::LeftRight,
            live: true,
            editing: None,
            note: None,
        }
    }
}

impl PieceLabPanel {
    /// Forgets the piece on the bench (another variant is open).
    pub fn clear(&mut self) {
        self.editing = None;
        self.note = None;
    }

    /// Draws the lab for `info` (piece `id` of the rules in force, on a board of `levels`), or
    /// its plain diagram and why the lab cannot edit it. Returns the moves to write.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        id: PieceId,
        info: &PieceInfo,
        levels: u8,
        face: FaceText,
    ) -> Option<Action> {
        self.follow_rules(id, info);
        let editing = self.editing.as_mut().expect("just set");
        let lab = match &mut editing.lab {
            Ok(lab) if levels == 1 => lab,
            Ok(_) => {
                static_diagram(ui, levels, info, face);
                return None;
            }
            Err(why) => {
                static_diagram(ui, levels, info, face);
                ui.label(RichText::new(format!("The piece lab cannot edit the {}: {why}.", info.name)).weak());
                return None;
            }
        };
        ui.label(RichText::new("Piece lab: click the diagram to change the moves").strong());
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tool, ToolChoice::Leap, "Step / leap")
                .on_hover_text("A click adds (or removes) a move to exactly that cell");
            ui.selectable_value(&mut self.tool, ToolChoice::Slide, "Slide")
                .on_hover_text("A click adds (or removes) a slide along the cell's line");
            ui.selectable_value(&mut self.tool, ToolChoice::Erase, "Erase")
                .on_hover_text("A click removes every move that reaches the cell");
            if self.tool == ToolChoice::Slide {
                ui.add(
                    egui::DragValue::new(&mut self.range)
                        .range(0..=9)
                        .prefix("range ")
                        .custom_formatter(|n, _| if n == 0.0 { "any".into() } else { format!("{n}") }),
                );
            }
        });
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("Mode").selected_text(mode_name(self.mode)).show_ui(ui, |ui| {
                for m in [Mode::BOTH, Mode::MOVE_ONLY, Mode::CAPTURE_ONLY] {
                    ui.selectable_value(&mut self.mode, m, mode_name(m));
                }
            });
            egui::ComboBox::from_label("Mirror").selected_text(symmetry_name(self.symmetry)).show_ui(ui, |ui| {
                for s in [Symmetry::LeftRight, Symmetry::All, Symmetry::None] {
                    ui.selectable_value(&mut self.symmetry, s, symmetry_name(s));
                }
            });
        });
        let text = lab.to_betza();
        let clicked = paint_lab(ui, info, &text, face, 330.0);
        let mut changed = false;
        if let Some(at) = clicked {
            let tool = match self.tool {
                ToolChoice::Leap => Tool::Leap,
                ToolChoice::Slide => Tool::Slide { range: self.range },
                ToolChoice::Erase => Tool::Erase,
            };
            self.note = lab.click(at, tool, self.mode, self.symmetry).err();
            changed = self.note.is_none();
        }
        legend(ui);
        let text = lab.to_betza();
        ui.horizontal(|ui| {
            ui.label("Betza");
            ui.monospace(if text.is_empty() { "(no moves)" } else { &text });
        });
        if !text.is_empty() {
            ui.add(egui::Label::new(crate::describe::describe(&text)).wrap());
        }
        let mut write = changed && self.live;
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.live, "Live").on_hover_text("Write each change into the script at once");
            let differs = text != editing.source;
            if !self.live && ui.add_enabled(differs, egui::Button::new("Write into script")).clicked() {
                write = true;
            }
            if ui.add_enabled(differs, egui::Button::new("Back to the script's")).clicked() {
                editing.lab = LabPiece::from_betza(&editing.source);
                self.note = None;
            }
        });
        if let Some(n) = &self.note {
            ui.colored_label(ui.visuals().warn_fg_color, n);
        }
        if write && text.is_empty() {
            self.note = Some("A piece needs at least one move: the script keeps its last one.".into());
            return None;
        }
        if write {
            editing.written = Some(text.clone());
            return Some(Action::WriteMoves { piece: info.name.clone(), moves: text });
        }
        None
    }

    /// Puts the piece on the bench afresh when another is inspected or the script's moves for it
    /// changed by other means than the lab (an edit, a reload); the lab's own write is awaited.
    fn follow_rules(&mut self, id: PieceId, info: &PieceInfo) {
        if let Some(e) = &mut self.editing
            && e.piece == id
        {
            if e.written.as_deref() == Some(info.betza.as_str()) {
                e.written = None;
                e.source = info.betza.clone();
            }
            if e.source == info.betza || e.written.is_some() {
                return;
            }
        }
        self.note = None;
        self.editing = Some(Editing {
            piece: id,
            source: info.betza.clone(),
            written: None,
            lab: LabPiece::from_betza(&info.betza),
        });
    }
}

fn mode_name(m: Mode) -> &'static str {
    match (m.moves, m.captures) {
        (true, false) => "moves only",
        (false, true) => "captures only",
        _ => "moves and captures",
    }
}

fn symmetry_name(s: Symmetry) -> &'static str {
    match s {
        Symmetry::LeftRight => "mirrored left–right",
        Symmetry::All => "all eight ways",
        Symmetry::None => "this cell only",
    }
}

/// The lab's diagram: the moves of `betza` around the piece, every cell a button named by its
/// offset (`lab +1 +2`: one file right, two ranks forward). Returns the cell clicked.
fn paint_lab(ui: &mut egui::Ui, info: &PieceInfo, betza: &str, face: FaceText, max_side: f32) -> Option<(i8, i8)> {
    let (grid, painter) = DiagramGrid::allocate(ui, max_side);
    let at = |x: i32, y: i32| grid.at(x, y);
    let marks = if betza.is_empty() { Vec::new() } else { diagram(betza).map(|d| d.cells).unwrap_or_default() };
    let mut clicked = None;
    for (x, y) in DiagramGrid::offsets() {
        let r = at(x, y);
        let resp = ui.interact(r, ui.scope_id().with(("lab-cell", x, y)), Sense::click());
        let name = format!("lab {x:+} {y:+}");
        resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
        if resp.hovered() {
            painter.rect_filled(r.shrink(1.0), 0.0, Color32::from_rgba_premultiplied(23, 70, 44, 90));
        }
        if resp.clicked() && (x, y) != (0, 0) {
            clicked = Some((x as i8, y as i8));
        }
    }
    for &((x, y), mark) in &marks {
        paint_mark(&painter, at(x, y), mark);
    }
    piece_face::paint(&painter, at(0, 0), info, true, face, 1.0);
    clicked
}
