//! The setup editor: build a position by hand from a palette, set hands and the side to move,
//! then play from it, copy it, or write it into the script as the start position.

use eframe::egui::{self, Sense, Vec2};
use henka_api::{Cell, Piece, PieceId, Position, Side, Variant};

use super::piece_face::{self, FaceText};

/// What a click on the board does in setup mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brush {
    Place(PieceId, Side),
    Erase,
}

/// What the setup panel asks its owner to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupAction {
    /// Start a game from this position string.
    Play(String),
    /// Put this position string on the clipboard.
    Copy(String),
    /// Make this position string the script's start position.
    WriteToScript(String),
    /// Load the position shown in the game.
    FromGame,
}

/// The position being set up and the brush.
#[derive(Clone, Debug)]
pub struct SetupEditor {
    pub position: Position,
    pub brush: Brush,
}

impl SetupEditor {
    pub fn new(position: Position) -> SetupEditor {
        SetupEditor { position, brush: Brush::Erase }
    }

    /// A click on a cell: place the brush's piece, or take away what is there.
    pub fn click(&mut self, c: Cell) {
        let piece = match self.brush {
            Brush::Place(ty, side) if self.position.piece_at(c) != Some(Piece::new(ty, side)) => {
                Some(Piece::new(ty, side))
            }
            _ => None,
        };
        self.position.set(c, piece);
    }

    /// A right-click always clears the cell.
    pub fn erase(&mut self, c: Cell) {
        self.position.set(c, None);
    }

    /// Draws the setup panel: the actions stay at the top, always in reach, and the palette and
    /// hands scroll below them (a large variant has well over a hundred piece types).
    pub fn show(&mut self, ui: &mut egui::Ui, v: &dyn Variant, face: FaceText) -> Option<SetupAction> {
        let mut action = None;
        ui.label("Click a piece, then cells on the board to place it; click again or right-click to remove.");
        let text = v.format_position(&self.position);
        ui.horizontal_wrapped(|ui| {
            if ui.button("Play from here").clicked() {
                action = Some(SetupAction::Play(text.clone()));
            }
            if ui.button("Copy position").clicked() {
                action = Some(SetupAction::Copy(text.clone()));
            }
            if ui.button("Write into script").on_hover_text("Make this the script's start position (v.setup)").clicked()
            {
                action = Some(SetupAction::WriteToScript(text.clone()));
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.brush, Brush::Erase, "Eraser");
            if ui.button("Clear board").clicked() {
                for c in v.geometry().cells() {
                    self.position.set(c, None);
                }
            }
            if ui.button("Start position").clicked() {
                self.position = v.start_position();
            }
            if ui.button("From the game").clicked() {
                action = Some(SetupAction::FromGame);
            }
        });
        ui.horizontal(|ui| {
            ui.label("To move:");
            for side in Side::BOTH {
                if ui.radio(self.position.side_to_move() == side, side.name()).clicked() {
                    self.position.set_side_to_move(side);
                }
            }
        });
        ui.separator();
        let pieces = &v.info().pieces;
        egui::ScrollArea::vertical().id_salt("setup-palette").auto_shrink([false, false]).show(ui, |ui| {
            for side in Side::BOTH {
                ui.label(format!("{side}"));
                ui.horizontal_wrapped(|ui| {
                    for (ty, info) in pieces.iter().enumerate() {
                        let brush = Brush::Place(ty as PieceId, side);
                        let (rect, resp) = ui.allocate_exact_size(Vec2::splat(34.0), Sense::click());
                        let label = format!("place {side} {}", info.name);
                        resp.widget_info(|| {
                            egui::WidgetInfo::selected(egui::Role::Button, true, self.brush == brush, &label)
                        });
                        if self.brush == brush {
                            ui.painter().rect_filled(rect, 4.0, ui.visuals().selection.bg_fill);
                        }
                        piece_face::paint(ui.painter(), rect.shrink(2.0), info, side == Side::First, face, 1.0);
                        if resp.on_hover_text(&info.name).clicked() {
                            self.brush = brush;
                        }
                    }
                });
            }
            let hand_types = &v.info().hand_types;
            if !hand_types.is_empty() {
                ui.separator();
                ui.label("Hands");
                egui::Grid::new("setup-hands").num_columns(3).show(ui, |ui| {
                    for &ty in hand_types {
                        ui.label(&pieces[ty as usize].name);
                        for side in Side::BOTH {
                            let mut n = self.position.hand(side, ty) as u32;
                            let drag = egui::DragValue::new(&mut n).range(0..=99).prefix(format!("{side} "));
                            if ui.add(drag).changed() {
                                self.position.set_hand(side, ty, n as u8);
                            }
                        }
                        ui.end_row();
                    }
                });
            }
            ui.separator();
            ui.add(egui::Label::new(egui::RichText::new(&text).monospace()).wrap());
        });
        action
    }
}

/// Replaces the string given to the script's `setup(…)` call with `position`.
pub fn write_setup(script: &str, position: &str) -> Result<String, String> {
    let call = script.find(".setup(").ok_or("the script has no `v.setup(\"…\")` call to write into")?;
    let after = call + ".setup(".len();
    let rest = &script[after..];
    let open = rest.len() - rest.trim_start().len();
    if !rest[open..].starts_with('"') {
        return Err("`setup(…)` is not given a plain string; write the position into the script by hand".into());
    }
    let start = after + open + 1;
    let len = script[start..].find('"').ok_or("the setup string is not closed")?;
    Ok(format!("{}{}{}", &script[..start], position, &script[start + len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setup_string_is_replaced_in_place() {
        let s = "v.promotion(#{ zone: 1 });\nv.setup(\"rbsgk/4p/5/P4/KGSBR b - 1\");\nv\n";
        let out = write_setup(s, "4k/5/5/5/K4 b - 1").unwrap();
        assert_eq!(out, "v.promotion(#{ zone: 1 });\nv.setup(\"4k/5/5/5/K4 b - 1\");\nv\n");
        assert!(write_setup("v.setup(start)", "x").is_err());
        assert!(write_setup("v", "x").is_err());
    }

    #[test]
    fn clicks_place_and_remove_pieces() {
        let mut e = SetupEditor::new(Position::empty(25, 3));
        e.brush = Brush::Place(2, Side::Second);
        e.click(7);
        assert_eq!(e.position.piece_at(7), Some(Piece::new(2, Side::Second)));
        e.click(7);
        assert_eq!(e.position.piece_at(7), None);
        e.click(7);
        e.erase(7);
        assert_eq!(e.position.piece_at(7), None);
    }
}
