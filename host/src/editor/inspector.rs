//! The piece inspector: a piece type's moves drawn on an empty board from its move definition,
//! with move-only, capture-only and jumping moves told apart. It reads the variant's current piece
//! table, so it follows the script as the designer edits it.

use eframe::egui::{self, Color32, Rect, Sense, Stroke, StrokeKind, Vec2, vec2};
use henka_api::rules::betza::{self, Atom, Mode, Reach};
use henka_api::{PieceId, Variant};

use super::board::{Mark, paint_mark};
use super::piece_face::{self, FaceText};

/// The inspector's diagram is this many cells a side (the piece stands in the middle).
const SIZE: i32 = 11;

/// What the diagram shows at each cell, relative to the piece (df, dr with forward = up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub cells: Vec<((i32, i32), Mark)>,
}

/// The cells a piece reaches on an empty `SIZE`-square board from its centre; for multi-leg moves
/// (lions, hoppers, hooks), every cell some arrangement of pieces lets it reach.
pub fn diagram(betza_text: &str) -> Result<Diagram, betza::BetzaError> {
    let moves = betza::parse(betza_text)?;
    let mut cells: Vec<((i32, i32), Mark)> = Vec::new();
    let half = SIZE / 2;
    for path in &moves.paths {
        for (at, reach) in path.reach(half) {
            let mark = match reach {
                Reach::Anywhere => Mark::Jump,
                Reach::Captures => Mark::Capture,
                Reach::Ends(mode) => mode_mark(mode),
            };
            merge(&mut cells, at, mark);
        }
    }
    for atom in &moves.atoms {
        for (k, at) in reach(atom, half) {
            let mark = if atom.skip_first && k == 1 {
                continue;
            } else if is_jump(atom, k) {
                Mark::Jump
            } else {
                mode_mark(atom.mode)
            };
            merge(&mut cells, at, mark);
        }
    }
    Ok(Diagram { cells })
}

fn mode_mark(mode: Mode) -> Mark {
    match (mode.moves, mode.captures) {
        (true, true) => Mark::Move,
        (true, false) => Mark::MoveOnly,
        _ => Mark::Capture,
    }
}

/// The steps of an atom within `half` cells of the centre: (step number, offset).
fn reach(atom: &Atom, half: i32) -> Vec<(i32, (i32, i32))> {
    let (dx, dy) = (atom.vector.df as i32, atom.vector.dr as i32);
    let max = if atom.range == 0 { SIZE } else { atom.range as i32 };
    (1..=max).map(|k| (k, (dx * k, dy * k))).take_while(|&(_, (x, y))| x.abs() <= half && y.abs() <= half).collect()
}

/// A leap longer than one step that ignores what stands between, or a slide past its skipped cell.
fn is_jump(atom: &Atom, k: i32) -> bool {
    let long = atom.vector.df.abs() > 1 || atom.vector.dr.abs() > 1;
    (long && atom.range == 1 && !atom.lame) || (atom.skip_first && k >= 2)
}

/// Two definitions reaching one cell: move-only plus capture-only makes both.
fn merge(cells: &mut Vec<((i32, i32), Mark)>, at: (i32, i32), mark: Mark) {
    match cells.iter_mut().find(|(c, _)| *c == at) {
        None => cells.push((at, mark)),
        Some((_, m)) => {
            *m = match (*m, mark) {
                (a, b) if a == b => a,
                (Mark::Jump, _) | (_, Mark::Jump) => Mark::Jump,
                _ => Mark::Move,
            }
        }
    }
}

/// The inspector panel.
#[derive(Debug, Default)]
pub struct Inspector {
    pub selected: PieceId,
}

impl Inspector {
    pub fn show(&mut self, ui: &mut egui::Ui, v: &dyn Variant, face: FaceText) {
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
        match diagram(&info.betza) {
            Ok(d) => paint_diagram(ui, info, &d, face, 360.0),
            // A flat diagram cannot show moves through levels; the board can.
            Err(_) if v.geometry().levels() > 1 => {
                ui.label("Moves through levels: hover a piece of this type on the board to light up every cell it can reach, on every level.");
            }
            Err(e) => {
                ui.colored_label(ui.visuals().warn_fg_color, format!("No diagram: {e}"));
            }
        }
        ui.horizontal_wrapped(|ui| {
            ui.small(
                "● moves or captures   ○ moves only   ◯ (red) captures only   ◎ jumps over pieces. \
                 Multi-leg moves show every cell some arrangement of pieces allows.",
            );
        });
    }
}

/// The board's hover card for a piece: its names, token and move, and its diagram.
pub fn piece_card(ui: &mut egui::Ui, info: &henka_api::PieceInfo, face: FaceText) {
    let title = match &info.kanji {
        Some(k) => format!("{} {k}", info.name),
        None => info.name.clone(),
    };
    ui.strong(title);
    ui.horizontal(|ui| {
        ui.monospace(info.written());
        ui.monospace(&info.betza);
    });
    if let Ok(d) = diagram(&info.betza) {
        ui.set_min_width(200.0);
        paint_diagram(ui, info, &d, face, 200.0);
    }
}

fn paint_diagram(ui: &mut egui::Ui, info: &henka_api::PieceInfo, d: &Diagram, face: FaceText, max_side: f32) {
    let side = ui.available_width().min(max_side);
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(rect);
    let cell = side / SIZE as f32;
    let half = SIZE / 2;
    let at = |x: i32, y: i32| {
        Rect::from_min_size(rect.min + vec2((x + half) as f32 * cell, (half - y) as f32 * cell), Vec2::splat(cell))
    };
    painter.rect_filled(rect, 2.0, Color32::from_rgb(0xE4, 0xBE, 0x74));
    for x in -half..=half {
        for y in -half..=half {
            painter.rect_stroke(
                at(x, y),
                0.0,
                Stroke::new(0.6, Color32::from_rgb(0x5A, 0x3E, 0x1B)),
                StrokeKind::Middle,
            );
        }
    }
    for &((x, y), mark) in &d.cells {
        paint_mark(&painter, at(x, y), mark);
    }
    piece_face::paint(&painter, at(0, 0), info, true, face, 1.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(d: &Diagram, m: Mark) -> usize {
        d.cells.iter().filter(|(_, x)| *x == m).count()
    }

    #[test]
    fn a_gold_general_has_six_steps() {
        let d = diagram("WfF").unwrap();
        assert_eq!(d.cells.len(), 6);
        assert_eq!(count(&d, Mark::Move), 6);
    }

    #[test]
    fn a_rook_reaches_the_edge_and_a_knight_jumps() {
        assert_eq!(diagram("R").unwrap().cells.len(), 4 * (SIZE as usize / 2));
        let mut knight = diagram("ffN").unwrap().cells;
        knight.sort_by_key(|c| c.0);
        assert_eq!(knight, [((-1, 2), Mark::Jump), ((1, 2), Mark::Jump)]);
    }

    #[test]
    fn move_only_capture_only_and_their_union() {
        let d = diagram("mfWcfF").unwrap();
        assert_eq!(count(&d, Mark::MoveOnly), 1);
        assert_eq!(count(&d, Mark::Capture), 2);
        let both = diagram("mfWcfW").unwrap();
        assert_eq!(both.cells, vec![((0, 1), Mark::Move)]);
    }

    #[test]
    fn multi_leg_moves_show_every_cell_they_can_reach() {
        // The lion: the whole 5×5, the adjacent cells also as locust captures (merged: both).
        let lion = diagram("KNADcaKmcabK").unwrap();
        assert_eq!(lion.cells.len(), 24);
        assert_eq!(count(&lion, Mark::Jump), 16, "the outer ring is leapt to");
        // The hook mover reaches every cell of the diagram.
        assert_eq!(diagram("RmasR").unwrap().cells.len(), (SIZE * SIZE - 1) as usize);
        // The Emperor leaps anywhere.
        assert_eq!(count(&diagram("U").unwrap(), Mark::Jump), (SIZE * SIZE - 1) as usize);
    }
}
