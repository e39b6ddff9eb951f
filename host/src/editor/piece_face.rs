//! Drawing one piece: the shogi pentagon pointing at the opponent, with the piece's kanji stacked
//! as on real pieces (red when promoted), or its Latin token when there are no kanji to draw.

use std::f32::consts::PI;

use eframe::egui::{self, Align2, Color32, FontId, Painter, Rect, Shape, Stroke, pos2, vec2};
use eframe::epaint::TextShape;
use henka_api::PieceInfo;

use super::fonts;

pub const WOOD: Color32 = Color32::from_rgb(0xF3, 0xDC, 0xA4);
const EDGE: Color32 = Color32::from_rgb(0x6B, 0x4A, 0x22);
const INK: Color32 = Color32::from_rgb(0x1E, 0x16, 0x10);
const PROMOTED_INK: Color32 = Color32::from_rgb(0xB0, 0x1E, 0x1E);

/// How piece faces are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FaceText {
    /// Kanji where the variant gives them and the font has them, else the token.
    Kanji,
    /// Always the Latin token (`P`, `+R`, `LN`).
    Token,
}

/// The text on a piece's face: up to three kanji, or the written token.
pub fn face_label(ctx: &egui::Context, info: &PieceInfo, text: FaceText) -> (String, bool) {
    if text == FaceText::Kanji
        && let Some(k) = &info.kanji
        && !k.is_empty()
        && fonts::can_draw(ctx, k)
    {
        return (k.chars().take(3).collect(), true);
    }
    let token = if info.promoted { format!("+{}", info.token) } else { info.token.clone() };
    (token, false)
}

/// Paints a piece centred in `cell`, pointing up (towards the top of the screen) or down.
pub fn paint(painter: &Painter, cell: Rect, info: &PieceInfo, points_up: bool, text: FaceText, alpha: f32) {
    let s = cell.width().min(cell.height());
    let c = cell.center();
    let sign = if points_up { 1.0 } else { -1.0 };
    let p = |x: f32, y: f32| pos2(c.x + x * s, c.y - sign * y * s);
    let outline = vec![p(0.0, 0.45), p(0.33, 0.30), p(0.40, -0.42), p(-0.40, -0.42), p(-0.33, 0.30)];
    let fill = WOOD.gamma_multiply(alpha);
    let edge = Stroke::new((s * 0.025).max(0.8), EDGE.gamma_multiply(alpha));
    painter.add(Shape::convex_polygon(outline, fill, edge));

    let (label, is_kanji) = face_label(painter.ctx(), info, text);
    let color = if info.promoted { PROMOTED_INK } else { INK }.gamma_multiply(alpha);
    let n = label.chars().count().max(1);
    let (body, family) = if is_kanji {
        // Kanji stack top to bottom, one per line, as on real pieces.
        let size = match n {
            1 => s * 0.46,
            2 => s * 0.33,
            _ => s * 0.24,
        };
        (label.chars().map(String::from).collect::<Vec<_>>().join("\n"), FontId::new(size, fonts::kanji_family()))
    } else {
        let size = if n <= 2 { s * 0.36 } else { s * 0.8 / n as f32 };
        (label, FontId::proportional(size))
    };
    let galley = painter.layout(body, family, color, f32::INFINITY);
    // Centre the text on the body of the pentagon (slightly below the centre, away from the tip).
    let centre = c + vec2(0.0, sign * s * 0.03);
    let pos = centre - galley.size() / 2.0;
    let shape = TextShape::new(pos, galley, color);
    let shape = if points_up { shape } else { shape.with_angle_and_anchor(PI, Align2::CENTER_CENTER) };
    painter.add(shape);
}

/// Ink and paper of the small chip showing a cube's opposite face: quieter than the face itself.
pub const HINT_INK: Color32 = Color32::from_rgb(0x5A, 0x46, 0x2E);
const HINT_PAPER: Color32 = Color32::from_rgb(0xFB, 0xF1, 0xD8);

/// Paints a cube's opposite face (`info`: what a move flips it to) on a small chip in the cell's
/// corner beside the piece's tip, turned with the piece, so the player sees a move's effect
/// before making it.
pub fn paint_hint(painter: &Painter, cell: Rect, info: &PieceInfo, points_up: bool, text: FaceText, alpha: f32) {
    let s = cell.width().min(cell.height());
    let (label, is_kanji) = face_label(painter.ctx(), info, text);
    let n = label.chars().count().max(1) as f32;
    // A Latin token shrinks to stay within half the cell's width.
    let (size, family) = if is_kanji {
        (s * 0.22, fonts::kanji_family())
    } else {
        ((s * 0.17).min(s * 0.5 / (0.6 * n)), egui::FontFamily::Proportional)
    };
    let color = HINT_INK.gamma_multiply(alpha);
    let galley = painter.layout_no_wrap(label, FontId::new(size, family), color);
    // The corner right of the tip (for a piece pointing down, turned: left of its tip, below).
    let sign = if points_up { 1.0 } else { -1.0 };
    let chip = Rect::from_center_size(pos2(0.0, 0.0), galley.size() + vec2(s * 0.06, s * 0.02));
    let centre = cell.center() + vec2(sign * (s * 0.47 - chip.width() / 2.0), -sign * (s * 0.47 - chip.height() / 2.0));
    let chip = chip.translate(centre.to_vec2());
    painter.rect(chip, s * 0.05, HINT_PAPER.gamma_multiply(alpha), Stroke::new(1.0, color), egui::StrokeKind::Inside);
    let shape = TextShape::new(centre - galley.size() / 2.0, galley, color);
    let shape = if points_up { shape } else { shape.with_angle_and_anchor(PI, Align2::CENTER_CENTER) };
    painter.add(shape);
}
