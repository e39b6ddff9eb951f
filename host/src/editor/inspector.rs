//! The piece inspector: a piece type's facts, and its moves drawn on an empty board from its move
//! definition, with move-only, capture-only and jumping moves told apart. It reads the variant's current piece
//! table, so it follows the script as the designer edits it.

use eframe::egui::{self, Rect, Sense, Stroke, StrokeKind, Vec2, vec2};
use henka_api::{PieceId, Variant};

use super::board::{BOARD, LINE, Mark, paint_mark};
use super::piece_face::{self, FaceText};
use crate::diagram::{SIZE, Target};

/// What the diagram shows at each cell, relative to the piece (df, dr with forward = up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub cells: Vec<((i32, i32), Mark)>,
}

/// The piece's move diagram ([`crate::diagram`]) in the board's marks.
pub fn diagram(betza_text: &str) -> Result<Diagram, henka_api::rules::betza::BetzaError> {
    let cells = crate::diagram::diagram(betza_text)?;
    let mark = |t: Target| match t {
        Target::MovesOrCaptures => Mark::Move,
        Target::MovesOnly => Mark::MoveOnly,
        Target::CapturesOnly => Mark::Capture,
        Target::Jump => Mark::Jump,
    };
    Ok(Diagram { cells: cells.into_iter().map(|(at, t)| (at, mark(t))).collect() })
}

/// The inspector panel.
#[derive(Debug, Default)]
pub struct Inspector {
    pub selected: PieceId,
}

impl Inspector {
    /// Draws the piece chooser and the chosen piece's facts (its diagram is drawn by the piece
    /// lab, or [`static_diagram`]).
    pub fn show(&mut self, ui: &mut egui::Ui, v: &dyn Variant) {
        let pieces = &v.info().pieces;
        if pieces.is_empty() {
            return;
        }
        self.selected = self.selected.min(pieces.len() as PieceId - 1);
        egui::ComboBox::from_label("Piece")
            .selected_text(pieces[self.selected as usize].name.clone())
            .height(400.0)
            .show_ui(ui, |ui| {
                for (i, p) in pieces.iter().enumerate() {
                    let label = match &p.kanji {
                        Some(k) => format!("{} {} ({})", p.name, k, p.written()),
                        None => format!("{} ({})", p.name, p.written()),
                    };
                    ui.selectable_value(&mut self.selected, i as PieceId, label);
                }
            });
        let info = &pieces[self.selected as usize];
        egui::Grid::new("piece-facts").num_columns(2).show(ui, |ui| {
            ui.label("Token");
            ui.monospace(info.written());
            ui.end_row();
            if let Some(k) = &info.kanji {
                ui.label("Kanji");
                ui.label(k);
                ui.end_row();
            }
            ui.label("Moves");
            ui.monospace(&info.betza);
            ui.end_row();
            ui.label("In words");
            ui.add(egui::Label::new(crate::describe::describe(&info.betza)).wrap());
            ui.end_row();
            if info.computed {
                ui.label("Computed");
                ui.add(egui::Label::new(COMPUTED_NOTE).wrap());
                ui.end_row();
            }
            if let Some(to) = info.promotes_to {
                ui.label("Promotes to");
                ui.label(&pieces[to as usize].name);
                ui.end_row();
            }
            if info.promoted {
                ui.label("Demotes to");
                ui.label(&pieces[info.demotes_to as usize].name);
                ui.end_row();
            }
            if info.royal {
                ui.label("Royal");
                ui.label("yes: losing the last royal loses the game");
                ui.end_row();
            }
        });
    }
}

/// A piece's moves drawn on an empty board (the piece lab draws its own, clickable, where it can
/// edit the piece), with the legend; a 3D piece's moves are shown on the board instead.
pub fn static_diagram(ui: &mut egui::Ui, levels: u8, info: &henka_api::PieceInfo, face: FaceText) {
    match diagram(&info.betza) {
        Ok(d) => paint_diagram(ui, info, &d, face, 360.0),
        // A flat diagram cannot show moves through levels; the board can.
        Err(_) if levels > 1 => {
            ui.label("Moves through levels: hover a piece of this type on the board to light up every cell it can reach, on every level.");
        }
        Err(e) => {
            ui.colored_label(ui.visuals().warn_fg_color, format!("No diagram: {e}"));
        }
    }
    legend(ui);
}

/// What the diagram's marks mean.
pub fn legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.small(
            "● moves or captures   ○ moves only   ◯ (red) captures only   ◎ jumps over pieces. \
             Multi-leg moves show every cell some arrangement of pieces allows.",
        );
    });
}

/// What the inspector and the hover card say of a piece whose moves a callback computes.
const COMPUTED_NOTE: &str = "The rules' code computes more of its moves (a movement callback): hover one on the \
                             board to light up where it can go as the position stands.";

/// The board's hover card for a piece: its names, token and move, the move in words, and its
/// diagram.
pub fn piece_card(ui: &mut egui::Ui, info: &henka_api::PieceInfo, face: FaceText) {
    let title = match &info.kanji {
        Some(k) => format!("{} {k}", info.name),
        None => info.name.clone(),
    };
    ui.strong(title);
    piece_moves(ui, info, face, 200.0);
}

/// A piece's token and move definition, the move in words, and its diagram `side` points wide
/// (the hover card, and the dialogs that ask which piece a move leaves).
pub fn piece_moves(ui: &mut egui::Ui, info: &henka_api::PieceInfo, face: FaceText, side: f32) {
    ui.set_max_width(side.max(200.0));
    ui.horizontal(|ui| {
        ui.monospace(info.written());
        ui.monospace(&info.betza);
    });
    ui.add(egui::Label::new(crate::describe::describe(&info.betza)).wrap());
    if info.computed {
        ui.add(egui::Label::new(COMPUTED_NOTE).wrap());
    }
    if let Ok(d) = diagram(&info.betza) {
        ui.set_min_width(side);
        paint_diagram(ui, info, &d, face, side);
    }
}

/// The empty board a move diagram is drawn on: `SIZE` cells square, the piece in the middle,
/// forward up. The inspector, the hover card and the piece lab draw on the same grid.
pub struct DiagramGrid {
    rect: Rect,
    cell: f32,
}

impl DiagramGrid {
    /// Takes room for the grid (at most `max_side` wide) and paints the wood and the lines.
    pub fn allocate(ui: &mut egui::Ui, max_side: f32) -> (DiagramGrid, egui::Painter) {
        let side = ui.available_width().min(max_side);
        let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
        let painter = ui.painter_at(rect);
        let grid = DiagramGrid { rect, cell: side / SIZE as f32 };
        painter.rect_filled(rect, 2.0, BOARD);
        for (x, y) in DiagramGrid::offsets() {
            painter.rect_stroke(grid.at(x, y), 0.0, Stroke::new(0.6, LINE), StrokeKind::Middle);
        }
        (grid, painter)
    }

    /// Every cell's offset from the piece, `(df, dr)` with forward = +dr.
    pub fn offsets() -> impl Iterator<Item = (i32, i32)> {
        let half = SIZE / 2;
        (-half..=half).flat_map(move |x| (-half..=half).map(move |y| (x, y)))
    }

    /// The square of the cell at offset `(x, y)`.
    pub fn at(&self, x: i32, y: i32) -> Rect {
        let half = SIZE / 2;
        let min = self.rect.min + vec2((x + half) as f32 * self.cell, (half - y) as f32 * self.cell);
        Rect::from_min_size(min, Vec2::splat(self.cell))
    }
}

fn paint_diagram(ui: &mut egui::Ui, info: &henka_api::PieceInfo, d: &Diagram, face: FaceText, max_side: f32) {
    let (grid, painter) = DiagramGrid::allocate(ui, max_side);
    let at = |x: i32, y: i32| grid.at(x, y);
    for &((x, y), mark) in &d.cells {
        paint_mark(&painter, at(x, y), mark);
    }
    piece_face::paint(&painter, at(0, 0), info, true, face, 1.0);
}
