//! The board view: any files × ranks board, and 3D boards as level slices side by side, with
//! coordinates, zoom and pan, highlights, and clicks and drags reported as cells.
//!
//! A field variant (Ki Shogi's open field of cubes) is framed on its cluster of pieces rather than
//! the whole box, following the game until the user zooms or pans, and gets the support marks of
//! [`super::field_view`]; coordinates stay on screen along the view's edges whenever the box's own
//! edges are out of view.
//!
//! The view only draws and reports; what a click means (select, move, place a piece in the setup
//! editor) is decided by its caller. Each cell is an accessible button named by its coordinate
//! (`7g`), which is how screen readers and the UI tests find it.

use eframe::egui::{self, Color32, PointerButton, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, pos2, vec2};
use henka_api::notation::{cell_name, file_label, level_label, rank_label};
use henka_api::{Cell, Geometry, Move, MoveKind, NO_CELL, Position, Side, Variant};

use super::field_view::{self, SUPPORTED, SupportMarks};
use super::piece_face::{self, FaceText};

pub(super) const BOARD: Color32 = Color32::from_rgb(0xE4, 0xBE, 0x74);
pub(super) const LINE: Color32 = Color32::from_rgb(0x5A, 0x3E, 0x1B);
const LAST_MOVE: Color32 = Color32::from_rgba_premultiplied(75, 58, 11, 96);
const SELECTED: Color32 = Color32::from_rgba_premultiplied(23, 70, 44, 128);
const TARGET: Color32 = Color32::from_rgb(0x1F, 0x6F, 0x3F);
const CAPTURE: Color32 = Color32::from_rgb(0xC0, 0x39, 0x2B);
const STOP: Color32 = Color32::from_rgb(0xD3, 0x7A, 0x00);
const CHECK: Color32 = Color32::from_rgba_premultiplied(108, 18, 18, 144);
const REACH: Color32 = Color32::from_rgba_premultiplied(24, 62, 120, 100);
const HINT_ARROW: Color32 = Color32::from_rgba_premultiplied(28, 90, 160, 190);
const THINKING_ARROW: Color32 = Color32::from_rgba_premultiplied(170, 80, 10, 170);
/// How long the view takes to glide to a new frame of the cluster, in seconds.
const FRAME_GLIDE: f32 = 0.2;

/// What a highlighted target cell means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A move ends here on an empty cell (in the inspector: moves or captures).
    Move,
    /// The piece may move here but not capture (inspector only).
    MoveOnly,
    /// A move ends here capturing.
    Capture,
    /// A move may stop here on its way (lion double moves, igui): click it, then the end.
    Stop,
    /// A jump: the piece leaps over what is between (inspector only).
    Jump,
}

/// Why an arrow is drawn, which sets its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// The AI's hint for the user.
    Hint,
    /// The move the AI's search in flight would play now.
    Thinking,
}

/// A move drawn on the board: an arrow from its start through its stop to its end, or for a drop
/// a ring on the cell it enters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub mv: Move,
    pub kind: ArrowKind,
}

impl Arrow {
    pub fn new(mv: Move, kind: ArrowKind) -> Arrow {
        Arrow { mv, kind }
    }
}

/// Highlights to draw over the position.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    pub selected: Option<Cell>,
    pub targets: Vec<(Cell, Mark)>,
    pub last_move: Vec<Cell>,
    pub check: Vec<Cell>,
    /// The cells the hovered piece can move to, on every level slice (3D boards).
    pub reach: Vec<Cell>,
    /// Support on an open field: supported cells, pieces under grace or unsupported.
    pub support: SupportMarks,
    pub arrows: Vec<Arrow>,
}

/// What the user did to the board this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardInput {
    pub clicked: Option<Cell>,
    pub secondary_clicked: Option<Cell>,
    /// A piece was dragged from the first cell and dropped on the second.
    pub dragged: Option<(Cell, Cell)>,
    pub hovered: Option<Cell>,
}

/// How a board is drawn; kept between frames (and between runs, with the window state).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BoardView {
    /// 1.0 fits the board to the space it has.
    pub zoom: f32,
    pub pan: Vec2,
    pub flipped: bool,
    pub face_text: FaceText,
    #[serde(skip)]
    dragging: Option<Cell>,
    /// The user zoomed or panned since the last Fit: a field's frame stops following the game.
    #[serde(skip)]
    manual: bool,
    /// The region of a field fitted into the view last frame (cell coordinates, see
    /// [`field_view::frame`]); zoom and pan are relative to it.
    #[serde(skip)]
    framed: Option<Rect>,
}

impl Default for BoardView {
    fn default() -> Self {
        BoardView {
            zoom: 1.0,
            pan: Vec2::ZERO,
            flipped: false,
            face_text: FaceText::Kanji,
            dragging: None,
            manual: false,
            framed: None,
        }
    }
}

/// Gap between level slices side by side, in cells.
const SLICE_GAP: f32 = 0.8;
/// Room for coordinates around the grid, in cells.
const MARGIN: f32 = 0.55;
/// Room above a level slice for its name, in cells.
const LEVEL_TITLE: f32 = 0.6;
/// Extra gap between rows of level slices, in cells.
const ROW_GAP: f32 = 0.3;

/// How a board's level slices are laid out: `columns` side by side per row, level 0 at the top
/// left, so that the board as a whole fits its area with the largest cells. A flat board is one
/// slice.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Arrangement {
    columns: i32,
    /// The whole board's size in cells, coordinates included.
    width: f32,
    height: f32,
}

impl Arrangement {
    fn with_columns(g: &Geometry, columns: i32) -> Arrangement {
        let (files, ranks, levels) = (g.files() as f32, g.ranks() as f32, g.levels() as i32);
        let rows = (levels + columns - 1) / columns;
        let title = if levels > 1 { LEVEL_TITLE } else { 0.0 };
        let width = columns as f32 * files + (columns - 1) as f32 * SLICE_GAP + 2.0 * MARGIN;
        let height = rows as f32 * (ranks + title + 2.0 * MARGIN) + (rows - 1) as f32 * ROW_GAP;
        Arrangement { columns, width, height }
    }

    /// The arrangement with the largest cells in `width × height` (more slices per row on a tie).
    fn best(g: &Geometry, width: f32, height: f32) -> Arrangement {
        let cell = |a: &Arrangement| (width / a.width).min(height / a.height);
        (1..=g.levels() as i32)
            .map(|c| Arrangement::with_columns(g, c))
            .fold(None, |best: Option<Arrangement>, a| match best {
                Some(b) if cell(&b) > cell(&a) => Some(b),
                _ => Some(a),
            })
            .expect("a board has at least one level")
    }

    /// Distance between the tops of two rows of slices, in cells.
    fn row_pitch(&self, g: &Geometry) -> f32 {
        let title = if g.levels() > 1 { LEVEL_TITLE } else { 0.0 };
        g.ranks() as f32 + title + 2.0 * MARGIN + ROW_GAP
    }
}

/// Where each cell is on the screen.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    origin: Pos2,
    pub cell: f32,
    files: i32,
    ranks: i32,
    flipped: bool,
    columns: i32,
    row_pitch: f32,
}

impl Layout {
    /// Fits a board into `area` at `zoom`, shifted by `pan`.
    pub fn fit(g: &Geometry, area: Rect, zoom: f32, pan: Vec2, flipped: bool) -> Layout {
        let a = Arrangement::best(g, area.width(), area.height());
        let cell = ((area.width() / a.width).min(area.height() / a.height) * zoom).max(6.0);
        let size = vec2(a.width, a.height) * cell;
        let title = if g.levels() > 1 { LEVEL_TITLE } else { 0.0 };
        let origin = area.center() - size / 2.0 + pan + vec2(MARGIN, MARGIN + title) * cell;
        Layout {
            origin,
            cell,
            files: g.files() as i32,
            ranks: g.ranks() as i32,
            flipped,
            columns: a.columns,
            row_pitch: a.row_pitch(g),
        }
    }

    /// Fits `region` of a flat board (cell coordinates: x = file, y = rank, maximum exclusive) into
    /// `area` at `zoom`, shifted by `pan`; the rest of the board lies around it.
    pub fn fit_region(g: &Geometry, area: Rect, region: Rect, zoom: f32, pan: Vec2, flipped: bool) -> Layout {
        let (w, h) = (region.width() + 2.0 * MARGIN, region.height() + 2.0 * MARGIN);
        let cell = ((area.width() / w).min(area.height() / h) * zoom).max(6.0);
        let (files, ranks) = (g.files() as f32, g.ranks() as f32);
        let c = region.center();
        // The region's centre in screen cells from the board's top-left corner.
        let centre = if flipped { vec2(files - c.x, c.y) } else { vec2(c.x, ranks - c.y) };
        Layout {
            origin: area.center() + pan - centre * cell,
            cell,
            files: g.files() as i32,
            ranks: g.ranks() as i32,
            flipped,
            columns: 1,
            row_pitch: Arrangement::with_columns(g, 1).row_pitch(g),
        }
    }

    /// The height a board needs at `width` when it fits (zoom 1), capped at `max_height`, so the
    /// hands can sit right above and below it.
    pub fn fitted_height(g: &Geometry, width: f32, max_height: f32) -> f32 {
        let a = Arrangement::best(g, width, max_height);
        (width / a.width * a.height).min(max_height)
    }

    /// The top-left of a level's slice.
    fn slice_origin(&self, level: i32) -> Pos2 {
        let (row, column) = (level / self.columns, level % self.columns);
        self.origin + vec2(column as f32 * (self.files as f32 + SLICE_GAP), row as f32 * self.row_pitch) * self.cell
    }

    /// The cell's square on the screen.
    pub fn cell_rect(&self, g: &Geometry, c: Cell) -> Rect {
        let (f, r, l) = g.coords(c);
        let (col, row) = if self.flipped { (self.files - 1 - f, r) } else { (f, self.ranks - 1 - r) };
        let min = self.slice_origin(l) + vec2(col as f32, row as f32) * self.cell;
        Rect::from_min_size(min, Vec2::splat(self.cell))
    }

    /// The whole grid of one level.
    fn slice_rect(&self, level: i32) -> Rect {
        Rect::from_min_size(self.slice_origin(level), vec2(self.files as f32, self.ranks as f32) * self.cell)
    }

    /// The cell under a screen point.
    pub fn cell_at(&self, g: &Geometry, p: Pos2) -> Option<Cell> {
        (0..g.levels() as i32).find_map(|l| {
            let d = (p - self.slice_origin(l)) / self.cell;
            if d.x < 0.0 || d.y < 0.0 {
                return None;
            }
            let (col, row) = (d.x as i32, d.y as i32);
            let (f, r) = if self.flipped { (self.files - 1 - col, row) } else { (col, self.ranks - 1 - row) };
            g.cell(f, r, l)
        })
    }

    /// Whether a side's pieces point up the screen.
    pub fn points_up(&self, side: Side) -> bool {
        (side == Side::First) != self.flipped
    }
}

impl BoardView {
    /// Draws `pos` and reports input. `area` is the space given to the board.
    pub fn show(&mut self, ui: &mut egui::Ui, v: &dyn Variant, pos: &Position, marks: &Marks) -> BoardInput {
        let g = v.geometry();
        let (area, bg) = ui.allocate_exact_size(ui.available_size(), Sense::hover());
        self.zoom_and_pan(ui, area);
        let layout = match self.field_frame(ui, v, pos) {
            Some(region) => Layout::fit_region(g, area, region, self.zoom, self.pan, self.flipped),
            None => Layout::fit(g, area, self.zoom, self.pan, self.flipped),
        };
        let painter = ui.painter_at(area);
        self.paint_grid(&painter, g, &layout);
        let field = v.info().field.as_ref();

        let mut input = BoardInput::default();
        for c in g.cells() {
            let rect = layout.cell_rect(g, c);
            if marks.last_move.contains(&c) {
                painter.rect_filled(rect.shrink(1.0), 0.0, LAST_MOVE);
            }
            if marks.selected == Some(c) {
                painter.rect_filled(rect.shrink(1.0), 0.0, SELECTED);
            }
            if marks.reach.contains(&c) {
                painter.rect_filled(rect.shrink(1.0), 0.0, REACH);
            }
            if marks.support.supported.contains(&c) {
                painter.rect_filled(rect.shrink(1.0), 0.0, SUPPORTED);
            }
            if marks.check.contains(&c) {
                painter.circle_filled(rect.center(), layout.cell * 0.48, CHECK);
            }
            if let Some(p) = pos.piece_at(c) {
                let alpha = if self.dragging == Some(c) { 0.35 } else { 1.0 };
                let info = &v.info().pieces[p.ty as usize];
                piece_face::paint(&painter, rect, info, layout.points_up(p.side), self.face_text, alpha);
                if let Some(o) = field.and_then(|f| f.opposite(p.ty)) {
                    let opposite = &v.info().pieces[o as usize];
                    piece_face::paint_hint(&painter, rect, opposite, layout.points_up(p.side), self.face_text, alpha);
                }
                field_view::paint_support_mark(&painter, rect, &marks.support, c);
            }
            if let Some(&(_, mark)) = marks.targets.iter().find(|(t, _)| *t == c) {
                paint_mark(&painter, rect, mark);
            }
            if !area.intersects(rect) {
                continue;
            }
            let mut resp = cell_response(ui, c, rect.intersect(area), &cell_name(g, c));
            if let Some(p) = pos.piece_at(c) {
                let info = &v.info().pieces[p.ty as usize];
                let face = self.face_text;
                let opposite = field.and_then(|f| f.opposite(p.ty)).map(|o| v.info().pieces[o as usize].name.as_str());
                let (grace, unsupported) = (marks.support.grace.contains(&c), marks.support.unsupported.contains(&c));
                resp = resp.on_hover_ui(|ui| {
                    super::inspector::piece_card(ui, info, face);
                    field_view::notes(ui, opposite, grace, unsupported);
                });
            }
            if resp.clicked() {
                input.clicked = Some(c);
            }
            if resp.secondary_clicked() {
                input.secondary_clicked = Some(c);
            }
            if resp.hovered() {
                input.hovered = Some(c);
            }
            if resp.drag_started_by(PointerButton::Primary) && pos.piece_at(c).is_some() {
                self.dragging = Some(c);
            }
            if resp.dragged_by(PointerButton::Middle) || resp.dragged_by(PointerButton::Secondary) {
                self.pan += resp.drag_delta();
                self.manual = true;
            }
        }
        if let Some(from) = self.dragging {
            let pointer = ui.input(|i| i.pointer.interact_pos());
            if ui.input(|i| i.pointer.primary_released()) {
                self.dragging = None;
                if let Some(to) = pointer.and_then(|p| layout.cell_at(g, p))
                    && to != from
                {
                    input.dragged = Some((from, to));
                }
            } else if let (Some(p), Some(piece)) = (pointer, pos.piece_at(from)) {
                let rect = Rect::from_center_size(p, Vec2::splat(layout.cell));
                let info = &v.info().pieces[piece.ty as usize];
                let top = ui.ctx().layer_painter(egui::LayerId::new(egui::Order::Tooltip, bg.id));
                piece_face::paint(&top, rect, info, layout.points_up(piece.side), self.face_text, 0.9);
            }
        }
        for arrow in &marks.arrows {
            paint_arrow(&painter, g, &layout, arrow);
        }
        self.paint_labels(&painter, g, &layout, area);
        input
    }

    /// The region of a field variant to fit: the cluster (see [`field_view::frame`]), gliding to
    /// each new frame, until the user zooms or pans; then the last frame stays put. `None` for
    /// boards, which fit whole.
    fn field_frame(&mut self, ui: &egui::Ui, v: &dyn Variant, pos: &Position) -> Option<Rect> {
        let field = v.info().field.as_ref().filter(|_| v.geometry().levels() == 1)?;
        if self.manual && self.framed.is_some() {
            return self.framed;
        }
        let target = field_view::frame(field, v.geometry(), pos);
        let id = ui.scope_id().with("field-frame");
        let glide = |i: usize, to: f32| ui.ctx().animate_value_with_time(id.with(i), to, FRAME_GLIDE);
        let framed = Rect::from_min_max(
            pos2(glide(0, target.min.x), glide(1, target.min.y)),
            pos2(glide(2, target.max.x), glide(3, target.max.y)),
        );
        self.framed = Some(framed);
        Some(framed)
    }

    /// Ctrl+scroll or pinch zooms about the pointer; plain scroll also zooms, since a board has
    /// nothing to scroll. A middle- or right-button drag pans (handled per cell in `show`).
    fn zoom_and_pan(&mut self, ui: &egui::Ui, area: Rect) {
        if !ui.rect_contains_pointer(area) {
            return;
        }
        let (zoom_delta, scroll) = ui.input(|i| (i.zoom_delta(), i.smooth_scroll_delta.y));
        let factor = zoom_delta * (scroll / 400.0).exp();
        if (factor - 1.0).abs() > 1e-4 {
            let new_zoom = (self.zoom * factor).clamp(0.3, 8.0);
            // Keep the point under the pointer fixed.
            if let Some(p) = ui.input(|i| i.pointer.hover_pos()) {
                let from_centre = p - area.center() - self.pan;
                self.pan -= from_centre * (new_zoom / self.zoom - 1.0);
            }
            self.zoom = new_zoom;
            self.manual = true;
        }
    }

    /// Back to the whole board in view (a field: its cluster, following the game again).
    pub fn fit(&mut self) {
        self.zoom = 1.0;
        self.pan = Vec2::ZERO;
        self.manual = false;
    }

    fn paint_grid(&self, painter: &egui::Painter, g: &Geometry, layout: &Layout) {
        let line = Stroke::new((layout.cell * 0.03).clamp(0.6, 1.5), LINE);
        let font = egui::FontId::proportional(label_size(layout));
        let label_color = painter.ctx().global_style().visuals.text_color();
        for l in 0..g.levels() as i32 {
            let slice = layout.slice_rect(l);
            painter.rect_filled(slice.expand(layout.cell * 0.08), 2.0, BOARD);
            for c in g.cells().filter(|&c| g.coords(c).2 == l) {
                painter.rect_stroke(layout.cell_rect(g, c), 0.0, line, StrokeKind::Middle);
            }
            painter.rect_stroke(
                slice.expand(layout.cell * 0.08),
                2.0,
                Stroke::new(line.width * 2.0, LINE),
                StrokeKind::Middle,
            );
            if g.levels() > 1 {
                // Level 0 is the top of the stack, as the notation counts them.
                let place = match l {
                    0 => " (top)",
                    l if l == g.levels() as i32 - 1 => " (bottom)",
                    _ => "",
                };
                painter.text(
                    slice.center_top() - vec2(0.0, layout.cell * 0.75),
                    egui::Align2::CENTER_BOTTOM,
                    format!("level {}{place}", level_label(g, l)),
                    font.clone(),
                    label_color,
                );
            }
        }
    }

    /// File labels above the grid, rank labels to its right, as on a shogi diagram. On a flat
    /// board whose top or right edge is out of view (zoomed in, or a field framed on its cluster)
    /// they stay on screen along the view's edge, on a strip of the panel's colour.
    fn paint_labels(&self, painter: &egui::Painter, g: &Geometry, layout: &Layout, area: Rect) {
        let size = label_size(layout);
        let font = egui::FontId::proportional(size);
        let visuals = &painter.ctx().global_style().visuals;
        let (label_color, strip) = (visuals.text_color(), visuals.panel_fill.gamma_multiply(0.88));
        let flat = g.levels() == 1;
        for l in 0..g.levels() as i32 {
            let slice = layout.slice_rect(l);
            // Labels on a strip keep out of the other strip's corner.
            let (mut top, mut top_strip) = (slice.top() - layout.cell * 0.12, area.top());
            if flat && top - size * 1.2 < area.top() {
                let band = Rect::from_min_max(area.left_top(), pos2(area.right(), area.top() + size * 1.4));
                painter.rect_filled(band, 0.0, strip);
                (top, top_strip) = (band.bottom() - size * 0.15, band.bottom());
            }
            let (mut left, mut right_strip) = (slice.right() + layout.cell * 0.14, area.right());
            if flat && left + size * 1.3 > area.right() {
                let band = Rect::from_min_max(pos2(area.right() - size * 1.6, area.top()), area.right_bottom());
                painter.rect_filled(band, 0.0, strip);
                (left, right_strip) = (band.left() + size * 0.2, band.left());
            }
            for f in 0..g.files() as i32 {
                if let Some(c) = (0..g.ranks() as i32).find_map(|r| g.cell(f, r, l)) {
                    let at = pos2(layout.cell_rect(g, c).center().x, top);
                    if at.x < right_strip - size * 0.5 && at.x > area.left() + size * 0.6 {
                        painter.text(at, egui::Align2::CENTER_BOTTOM, file_label(g, f), font.clone(), label_color);
                    }
                }
            }
            for r in 0..g.ranks() as i32 {
                if let Some(c) = (0..g.files() as i32).find_map(|f| g.cell(f, r, l)) {
                    let at = pos2(left, layout.cell_rect(g, c).center().y);
                    if at.y > top_strip + size * 0.5 && at.y < area.bottom() {
                        painter.text(at, egui::Align2::LEFT_CENTER, rank_label(g, r), font.clone(), label_color);
                    }
                }
            }
        }
    }
}

fn label_size(layout: &Layout) -> f32 {
    (layout.cell * 0.3).clamp(7.0, 16.0)
}

/// An accessible, clickable cell named by its coordinate.
fn cell_response(ui: &egui::Ui, c: Cell, rect: Rect, name: &str) -> egui::Response {
    let resp = ui.interact(rect, ui.scope_id().with(("cell", c)), Sense::click_and_drag());
    resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, name));
    resp
}

/// An arrow over the board for a move: a shaft through its stop, if any, and a head on its end;
/// a drop, which has no start, is a ring on its cell.
fn paint_arrow(painter: &egui::Painter, g: &Geometry, layout: &Layout, arrow: &Arrow) {
    let color = match arrow.kind {
        ArrowKind::Hint => HINT_ARROW,
        ArrowKind::Thinking => THINKING_ARROW,
    };
    let width = (layout.cell * 0.12).max(2.0);
    let centre = |c: Cell| layout.cell_rect(g, c).center();
    let mv = arrow.mv;
    if mv.kind != MoveKind::Board || mv.from == mv.to {
        painter.circle_stroke(centre(mv.to), layout.cell * 0.4, Stroke::new(width, color));
        return;
    }
    let points: Vec<Pos2> = [mv.from, mv.via, mv.to].into_iter().filter(|&c| c != NO_CELL).map(centre).collect();
    let (Some(&tip), Some(&before)) = (points.last(), points.iter().rev().nth(1)) else { return };
    let dir = (tip - before).normalized();
    let head = layout.cell * 0.32;
    let base = tip - dir * head;
    let mut shaft = points.clone();
    *shaft.last_mut().expect("two points") = base;
    painter.add(egui::Shape::line(shaft, Stroke::new(width, color)));
    let side = dir.rot90() * head * 0.55;
    painter.add(egui::Shape::convex_polygon(vec![tip, base + side, base - side], color, Stroke::NONE));
}

pub(super) fn paint_mark(painter: &egui::Painter, rect: Rect, mark: Mark) {
    let s = rect.width();
    match mark {
        Mark::Move => {
            painter.circle_filled(rect.center(), s * 0.14, TARGET.gamma_multiply(0.85));
        }
        Mark::MoveOnly => {
            painter.circle_stroke(rect.center(), s * 0.14, Stroke::new(s * 0.05, TARGET));
        }
        Mark::Capture => {
            painter.circle_stroke(rect.center(), s * 0.44, Stroke::new(s * 0.07, CAPTURE.gamma_multiply(0.85)));
        }
        Mark::Stop => {
            let c = rect.center();
            let d = s * 0.2;
            let diamond = vec![c + vec2(0.0, -d), c + vec2(d, 0.0), c + vec2(0.0, d), c + vec2(-d, 0.0)];
            painter.add(egui::Shape::convex_polygon(diamond, STOP, Stroke::NONE));
        }
        Mark::Jump => {
            painter.circle_stroke(rect.center(), s * 0.2, Stroke::new(s * 0.06, TARGET));
        }
    }
}
