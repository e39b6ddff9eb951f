//! The open-field view of a cube game (Ki Shogi): which part of the field to frame, and what the
//! board marks on it — cells where a cube would be supported, pieces under grace, pieces without
//! support — and how those marks are drawn and explained (hover notes, the legend). Everything
//! is read from the variant's [`FieldInfo`] and computed with the kit's [`Support`], so the view
//! is the same whether the script or a compiled plugin plays.

use eframe::egui::{self, Color32, Rect, Sense, Stroke, pos2, vec2};
use henka_api::kit::Support;
use henka_api::model::field::{FieldInfo, GRACE, centre};
use henka_api::{Cell, Geometry, PieceId, Position, Variant};

use super::board::BOARD;
use super::piece_face::{self, FaceText};

/// Empty cells framed around the cluster on each side: room for the next drops and steps.
const MARGIN_CELLS: i32 = 2;
/// The framed region is at least this many cells wide and high, so a lone Gyoku is not drawn
/// huge and White's placement ring (two cells out) stays in view with room around it.
const MIN_SIDE: i32 = 7;
/// Half the side of the region shown on an empty unbounded field (every supported piece stands
/// within 6 cells of Black's Gyoku, which the field keeps on its centre).
const UNBOUNDED_HALF: i32 = 6;

/// The region of the field to fit into the view, in cell coordinates: x = file, y = rank, the
/// maximum exclusive (the whole 15×15 box is `0..15 × 0..15`).
pub fn frame(field: &FieldInfo, g: &Geometry, pos: &Position) -> Rect {
    let (files, ranks) = (g.files() as i32, g.ranks() as i32);
    let occupied: Vec<(i32, i32)> = g
        .cells()
        .filter(|&c| pos.piece_at(c).is_some())
        .map(|c| {
            let (f, r, _) = g.coords(c);
            (f, r)
        })
        .collect();
    let (min, max) = match occupied.iter().copied().reduce(|a, b| (a.0.min(b.0), a.1.min(b.1))) {
        Some(low) => {
            let high = occupied.iter().copied().fold(low, |a, b| (a.0.max(b.0), a.1.max(b.1)));
            (low, high)
        }
        None if field.unbounded => {
            let (x, y) = centre(g);
            (
                (x - UNBOUNDED_HALF + MARGIN_CELLS, y - UNBOUNDED_HALF + MARGIN_CELLS),
                (x + UNBOUNDED_HALF - MARGIN_CELLS, y + UNBOUNDED_HALF - MARGIN_CELLS),
            )
        }
        None => return Rect::from_min_max(pos2(0.0, 0.0), pos2(files as f32, ranks as f32)),
    };
    let span = |lo: i32, hi: i32, size: i32| -> (f32, f32) {
        let (mut lo, mut hi) = (lo - MARGIN_CELLS, hi + 1 + MARGIN_CELLS);
        let short = MIN_SIDE - (hi - lo);
        if short > 0 {
            lo -= short / 2;
            hi += short - short / 2;
        }
        // Inside the box, shifted rather than cut where it can be.
        let (lo, hi) = if lo < 0 {
            (0, hi - lo)
        } else if hi > size {
            (lo - (hi - size), size)
        } else {
            (lo, hi)
        };
        (lo.max(0) as f32, hi.min(size) as f32)
    };
    let (x0, x1) = span(min.0, max.0, files);
    let (y0, y1) = span(min.1, max.1, ranks);
    Rect::from_min_max(pos2(x0, y0), pos2(x1, y1))
}

/// A faint cool wash on the warm board: distinct from the green target dots drawn over it.
pub const SUPPORTED: Color32 = Color32::from_rgba_premultiplied(20, 58, 64, 64);
const GRACE_MARK: Color32 = Color32::from_rgb(0xD0, 0x20, 0x20);
const UNSUPPORTED: Color32 = Color32::from_rgb(0xE0, 0x78, 0x00);

/// The support marks of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SupportMarks {
    /// Empty cells where a cube (other than a Ki) would be supported.
    pub supported: Vec<Cell>,
    /// Pieces under grace (flag bit 0): stranded by the opponent, lost unless recovered this turn.
    pub grace: Vec<Cell>,
    /// Pieces without support now (under grace or not).
    pub unsupported: Vec<Cell>,
}

/// The support marks of `pos`, or none when the variant does not describe its support.
pub fn support_marks(v: &dyn Variant, pos: &Position) -> SupportMarks {
    let Some(rule) = v.info().field.as_ref().and_then(|f| f.support.as_ref()) else { return SupportMarks::default() };
    let pieces = &v.info().pieces;
    let royal: Vec<bool> = pieces.iter().map(|p| p.royal).collect();
    let hand_type: Vec<_> = pieces.iter().map(|p| p.demotes_to).collect();
    let support = Support::new(v.geometry(), rule, &royal, &hand_type);
    let g = v.geometry();
    SupportMarks {
        supported: support.supported_cells(pos),
        grace: g.cells().filter(|&c| pos.piece_at(c).is_some_and(|p| p.flags & GRACE != 0)).collect(),
        unsupported: support.unsupported(pos),
    }
}

/// Marks the piece on `c` if it is under grace or unsupported.
pub fn paint_support_mark(painter: &egui::Painter, rect: Rect, marks: &SupportMarks, c: Cell) {
    if marks.grace.contains(&c) {
        paint_stranded(painter, rect, GRACE_MARK, true);
    } else if marks.unsupported.contains(&c) {
        paint_stranded(painter, rect, UNSUPPORTED, false);
    }
}

/// A piece without support: a dashed outline around its cell, and for a piece under grace (to be
/// recovered this turn or lost) a "!" badge in the corner.
fn paint_stranded(painter: &egui::Painter, rect: Rect, color: Color32, badge: bool) {
    let s = rect.width();
    let r = rect.shrink(s * 0.04);
    let corners = [r.left_top(), r.right_top(), r.right_bottom(), r.left_bottom(), r.left_top()];
    let stroke = Stroke::new((s * 0.05).clamp(1.5, 4.0), color);
    painter.extend(egui::Shape::dashed_line(&corners, stroke, s * 0.12, s * 0.08));
    if badge {
        let centre = r.left_top() + vec2(s * 0.16, s * 0.16);
        painter.circle_filled(centre, s * 0.14, color);
        let font = egui::FontId::proportional((s * 0.22).max(8.0));
        painter.text(centre, egui::Align2::CENTER_CENTER, "!", font, Color32::WHITE);
    }
}

/// The field lines of a piece's hover card: what a move flips it to and why it is marked.
pub fn notes(ui: &mut egui::Ui, opposite: Option<&str>, grace: bool, unsupported: bool) {
    if let Some(o) = opposite {
        ui.label(format!("A move without a capture flips it to {o} (shown on the chip in its corner)."));
    }
    if grace {
        ui.colored_label(GRACE_MARK, "Under grace: stranded by the opponent. Support it this turn or lose it.");
    } else if unsupported {
        ui.colored_label(UNSUPPORTED, "Unsupported: no Gyoku or active Ki next to it.");
    }
}

/// The height of [`legend`]'s row.
pub const LEGEND_HEIGHT: f32 = 24.0;

/// One line under the board explaining the field's marks, each with a sample and hover text;
/// the opposite face's sample is a real cube of `v` with its chip.
pub fn legend(ui: &mut egui::Ui, v: &dyn Variant, face_text: FaceText) {
    let pieces = &v.info().pieces;
    let example = v.info().field.as_ref().and_then(|f| {
        (0..pieces.len() as PieceId).find_map(|t| f.opposite(t).map(|o| (&pieces[t as usize], &pieces[o as usize])))
    });
    ui.horizontal_wrapped(|ui| {
        ui.set_min_height(LEGEND_HEIGHT - 4.0);
        let entry = |ui: &mut egui::Ui, name: &str, hover: &str, sample: &dyn Fn(&egui::Painter, Rect)| {
            let (rect, _) = ui.allocate_exact_size(vec2(22.0, 22.0), Sense::hover());
            ui.painter().rect_filled(rect, 2.0, BOARD);
            sample(ui.painter(), rect);
            ui.label(egui::RichText::new(name).small()).on_hover_text(hover);
            ui.add_space(8.0);
        };
        entry(
            ui,
            "supported cell",
            "A cube (other than a Ki) here would be supported: next to a Gyoku or an active Ki of either \
             side. Drops must also be next to your own Gyoku or Ki.",
            &|p, r| {
                p.rect_filled(r, 0.0, SUPPORTED);
            },
        );
        entry(
            ui,
            "under grace",
            "Stranded by the opponent's last turn: its owner must support it again this turn, or it is \
             lost. Meanwhile it still moves, attacks and (a Ki) supports.",
            &|p, r| paint_stranded(p, r, GRACE_MARK, true),
        );
        entry(ui, "unsupported", "No Gyoku or active Ki next to it.", &|p, r| paint_stranded(p, r, UNSUPPORTED, false));
        if let Some((face, opposite)) = example {
            let hover = format!(
                "The chip in a cube's corner shows its opposite face, the one it turns to after a move \
                 without a capture (a capture lets the mover choose): a {} flips to {}.",
                face.name, opposite.name
            );
            entry(ui, "face after a move", &hover, &|p, r| {
                piece_face::paint(p, r, face, true, face_text, 1.0);
                piece_face::paint_hint(p, r, opposite, true, face_text, 1.0);
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use henka_api::notation::cell_name;

    fn ki_shogi(options: &[(&str, &str)]) -> std::sync::Arc<dyn Variant> {
        let options = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        crate::script::load_source_with("ki-shogi", include_str!("../../../scripts/ki-shogi.rhai"), &options)
            .unwrap()
            .variant
    }

    fn region(v: &dyn Variant, position: &str) -> Rect {
        let pos = v.parse_position(position).unwrap();
        frame(v.info().field.as_ref().unwrap(), v.geometry(), &pos)
    }

    fn names(v: &dyn Variant, cells: &[Cell]) -> Vec<String> {
        let mut n: Vec<String> = cells.iter().map(|&c| cell_name(v.geometry(), c)).collect();
        n.sort();
        n
    }

    #[test]
    fn the_frame_is_the_cluster_with_a_margin_inside_the_box() {
        let v = ki_shogi(&[]);
        let v = v.as_ref();
        // Empty: the whole box.
        assert_eq!(region(v, "b - b:GHK,w:GHK - 1"), Rect::from_min_max(pos2(0.0, 0.0), pos2(15.0, 15.0)));
        // A lone Gyoku: the smallest frame, centred on it.
        assert_eq!(region(v, "w bGyoku@7,7 b:HK,w:GHK - 2"), Rect::from_min_max(pos2(4.0, 4.0), pos2(11.0, 11.0)));
        // Both Gyoku and a cube: their bounding box (x 7..9, y 6..9) and two cells around.
        assert_eq!(
            region(v, "b bGyoku@7,7;bHi@8,6;wGyoku@9,8;wMyou@9,9 b:K,w:H - 7"),
            Rect::from_min_max(pos2(5.0, 4.0), pos2(12.0, 12.0))
        );
        // In a corner the frame shifts inside the box rather than shrink.
        assert_eq!(region(v, "w bGyoku@0,0 b:HK,w:GHK - 2"), Rect::from_min_max(pos2(0.0, 0.0), pos2(7.0, 7.0)));
        // Unbounded and empty: the centre region, not the whole 25×25 box.
        let u = ki_shogi(&[("field", "unbounded")]);
        assert_eq!(region(u.as_ref(), "b - b:GHK,w:GHK - 1"), Rect::from_min_max(pos2(6.0, 6.0), pos2(19.0, 19.0)));
    }

    #[test]
    fn support_marks_follow_the_gyoku_and_active_ki_and_grace_is_read_from_the_flags() {
        let v = ki_shogi(&[]);
        let v = v.as_ref();
        // Black's Kaku (11,9) stands next to White's Cho only: unsupported, under grace.
        let pos =
            v.parse_position("b bGyoku@7,7;bHi@8,6;bKaku@11,9;wGyoku@9,8;wCho@10,9;wMyou@9,9 b:-,w:- 11,9 12").unwrap();
        let m = support_marks(v, &pos);
        assert_eq!(names(v, &m.grace), names(v, &[v.geometry().cell(11, 9, 0).unwrap()]));
        assert_eq!(m.unsupported, m.grace);
        // The cells next to either Gyoku, less the occupied ones: 8 + 8 - 2 shared - 3 taken (Hi, Cho,
        // Myou).
        assert_eq!(m.supported.len(), 11, "{:?}", names(v, &m.supported));
        assert!(m.supported.iter().all(|&c| pos.piece_at(c).is_none()));

        // A Ki (a relay) two cells from its Gyoku supports the cells around it; a second Ki
        // away from everything supports nothing and is unsupported itself.
        let ki = ki_shogi(&[("ki_cube", "on")]);
        let ki = ki.as_ref();
        let pos = ki.parse_position("b bGyoku@7,7;bKi@9,7;wGyoku@7,9;wKi@12,12 b:HK,w:HK - 5").unwrap();
        let m = support_marks(ki, &pos);
        let at = |x, y| ki.geometry().cell(x, y, 0).unwrap();
        assert!(m.supported.contains(&at(10, 7)), "next to the supported Ki");
        assert!(!m.supported.contains(&at(12, 11)), "not next to the lone Ki");
        assert_eq!(m.unsupported, vec![at(12, 12)]);
        assert!(m.grace.is_empty());
    }

    #[test]
    fn each_face_names_its_opposite() {
        let v = ki_shogi(&[]);
        let (field, pieces) = (v.info().field.as_ref().unwrap(), &v.info().pieces);
        let id = |name: &str| pieces.iter().position(|p| p.name == name).unwrap() as henka_api::PieceId;
        assert_eq!(field.opposite(id("Cho")), Some(id("Hi")));
        assert_eq!(field.opposite(id("Kaku")), Some(id("Myou")));
        assert_eq!(field.opposite(id("Gyoku")), None, "the Gyoku never flips");
    }
}
