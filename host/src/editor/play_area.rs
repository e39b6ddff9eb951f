//! The centre of the window: the board between the two hands, and playing on it — clicks and
//! drags become moves through [`MoveInput`], a move that ends several ways asks which, pass
//! buttons where the rules allow one. While the Setup tab is open the board edits the setup
//! instead.

use eframe::egui::{self, Color32, RichText};
use henka_api::{Cell, Move, MoveKind, NO_CELL, PieceId, Position, Side, Variant};

use super::action::Action;
use super::board::{Arrow, BoardInput, BoardView, Layout, Marks};
use super::field_view;
use super::move_input::{MoveInput, Pick, Step};
use super::piece_face;
use super::session::Session;
use super::setup::SetupEditor;
use crate::why_illegal::{self, Attempt};

/// The move being entered, a choice being asked, and the cell under the pointer.
#[derive(Debug, Default)]
pub struct PlayArea {
    input: MoveInput,
    /// Moves that differ only in the piece they leave: the dialog asks which.
    choice: Option<Vec<Move>>,
    /// The board cell under the pointer in the last frame.
    hovered: Option<Cell>,
    /// Why the user's last try was refused, shown under the board until the next try.
    refusal: Option<String>,
}

impl PlayArea {
    /// Drops the piece picked and the choice asked (the game or the rules changed under them).
    pub fn clear(&mut self) {
        self.input.clear();
        self.choice = None;
        self.refusal = None;
    }

    /// Draws the hands and the board for the shown position (`setup`'s, when setting up), with
    /// `legal` the moves that can be played there and `arrows` the AI's moves to show.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        board: &mut BoardView,
        session: &Session,
        legal: &[Move],
        arrows: Vec<Arrow>,
        setup: Option<&mut SetupEditor>,
    ) -> Vec<Action> {
        let mut actions = Vec::new();
        let v = session.variant().clone();
        let pos = match &setup {
            Some(s) => s.position.clone(),
            None => session.shown_position().clone(),
        };
        let (top, bottom) = if board.flipped { (Side::First, Side::Second) } else { (Side::Second, Side::First) };
        if setup.is_some() {
            ui.label(RichText::new("Setting up a position — the board edits the setup").italics());
        }
        if let Some(o) = session.outcome()
            && setup.is_none()
        {
            ui.label(RichText::new(format!("Game over: {o}")).size(18.0).strong());
        }
        // Variants without drops (Taishin) give the hands' room to the board.
        let hands = !v.info().hand_types.is_empty();
        let playing = setup.is_none();
        // The mover's pieces in hand are clicked to drop them, while playing.
        let droppable = playing.then_some(legal);
        let mut refused = None;
        if hands {
            refused = refused.or(self.hand_row(ui, board, v.as_ref(), &pos, top, droppable));
        }
        let field = v.info().field.is_some();
        // Room below the board: the hands, a field's legend, the note on how levels stack.
        let levels_note = if v.geometry().levels() > 1 { 36.0 } else { 0.0 };
        let hand_height =
            if hands { 46.0 } else { 0.0 } + if field { field_view::LEGEND_HEIGHT } else { 0.0 } + levels_note;
        let room = (ui.available_height() - hand_height).max(100.0);
        // An open field has no edge to fit: it fills the room around the framed cluster.
        let board_height = if board.zoom == 1.0 && !field {
            Layout::fitted_height(v.geometry(), ui.available_width(), room)
        } else {
            room
        };
        let mut marks = self.marks(session, legal, playing);
        if playing && session.shown_ply() == session.game().moves().len() {
            marks.arrows = arrows;
        }
        let input = ui
            .allocate_ui(egui::vec2(ui.available_width(), board_height), |ui| board.show(ui, v.as_ref(), &pos, &marks))
            .inner;
        if hands {
            refused = refused.or(self.hand_row(ui, board, v.as_ref(), &pos, bottom, droppable));
        }
        if field {
            field_view::legend(ui, v.as_ref(), board.face_text);
        }
        if v.geometry().levels() > 1 {
            ui.label(
                RichText::new(
                    "The levels are stacked top to bottom and drawn side by side; a cell is file, level, rank \
                     (dw1). Pieces move between levels along their lines: hover one to light up its reach \
                     on every level.",
                )
                .small()
                .weak(),
            );
        }
        self.hovered = input.hovered;
        match setup {
            Some(s) => edit_setup(s, input),
            None => refused = refused.or(self.board_input(input, legal, &mut actions)),
        }
        if input.clicked.is_some() || input.dragged.is_some() || refused.is_some() {
            // Each try on the board answers the last: a refusal stays until the next one.
            self.refusal = refused.and_then(|a| why_illegal::explain(v.as_ref(), &pos, session.outcome().is_some(), a));
        }
        if let Some(why) = &self.refusal {
            ui.colored_label(ui.visuals().warn_fg_color, why);
        }
        let has_pass = legal.iter().any(|m| m.kind == MoveKind::Pass);
        if has_pass && ui.button("Pass").clicked() {
            actions.push(Action::Play(Move::pass()));
        }
        // A piece that may skip the turn (a lion stepping out and back) passes by this button:
        // clicking the piece again only puts it down.
        if let Pick::Board { from, stop: None } = self.input.pick
            && let Some(&m) =
                legal.iter().find(|m| m.kind == MoveKind::Board && m.from == from && m.to == from && m.via == NO_CELL)
        {
            let name = &v.info().pieces[m.piece as usize].name;
            if ui.button(format!("Pass with the {name}")).clicked() {
                self.input.clear();
                actions.push(Action::Play(m));
            }
        }
        actions
    }

    /// A side's pieces in hand; the mover's drop with `droppable`, the legal moves, if given.
    /// Returns a refused pick (a piece with no legal drop).
    fn hand_row(
        &mut self,
        ui: &mut egui::Ui,
        board: &BoardView,
        v: &dyn Variant,
        pos: &Position,
        side: Side,
        droppable: Option<&[Move]>,
    ) -> Option<Attempt> {
        let mut refused = None;
        ui.horizontal(|ui| {
            ui.set_min_height(40.0);
            ui.label(RichText::new(format!("{side} hand")).weak());
            let up = (side == Side::First) != board.flipped;
            for &ty in &v.info().hand_types {
                let n = pos.hand(side, ty);
                if n == 0 {
                    continue;
                }
                let info = &v.info().pieces[ty as usize];
                let (rect, resp) = ui.allocate_exact_size(egui::vec2(36.0, 36.0), egui::Sense::click());
                let label = format!("{side} hand {}", info.name);
                // The count is the button's value, for screen readers (and the UI tests).
                resp.widget_info(|| egui::WidgetInfo {
                    value: Some(f64::from(n)),
                    ..egui::WidgetInfo::labeled(egui::Role::Button, true, &label)
                });
                if matches!(self.input.pick, Pick::Hand { ty: t, .. } if t == ty) && side == pos.side_to_move() {
                    ui.painter().rect_filled(rect, 4.0, Color32::from_rgba_premultiplied(23, 70, 44, 128));
                }
                piece_face::paint(ui.painter(), rect, info, up, board.face_text, 1.0);
                if n > 1 {
                    paint_count(ui, rect, n);
                }
                if resp.on_hover_text(format!("{} ×{n}", info.name)).clicked()
                    && side == pos.side_to_move()
                    && let Some(legal) = droppable
                {
                    // A cube in hand enters showing any of its faces (all types held as `ty`).
                    let pieces = &v.info().pieces;
                    let faces = (0..pieces.len() as PieceId).filter(|&f| pieces[f as usize].demotes_to == ty).collect();
                    // A new try: the last refusal goes, unless this one is refused too.
                    self.refusal = None;
                    if let Step::Refused(a) = self.input.click_hand(ty, faces, legal) {
                        refused = Some(a);
                    }
                }
            }
        });
        refused
    }

    /// Turns a click or a drag on the board into the next step of the move; returns what the
    /// rules refused, if anything.
    fn board_input(&mut self, input: BoardInput, legal: &[Move], actions: &mut Vec<Action>) -> Option<Attempt> {
        let step = if let Some((from, to)) = input.dragged {
            self.input.drag(from, to, legal)
        } else if let Some(c) = input.clicked {
            self.input.click_cell(c, legal)
        } else {
            return None;
        };
        match step {
            Step::Continue => {}
            Step::Play(mv) => actions.push(Action::Play(mv)),
            Step::Choose(moves) => self.choice = Some(moves),
            Step::Refused(a) => return Some(a),
        }
        None
    }

    fn marks(&self, session: &Session, legal: &[Move], playing: bool) -> Marks {
        let pos = session.shown_position();
        let v = session.variant();
        let mut marks = Marks::default();
        if let Some(m) = session.last_shown_move() {
            marks.last_move = [m.from, m.via, m.to].into_iter().filter(|&c| c != NO_CELL).collect();
        }
        if !playing {
            return marks;
        }
        marks.targets = self.input.targets(pos, legal);
        if let Pick::Board { from, stop } = self.input.pick {
            marks.selected = Some(from);
            if let Some(s) = stop {
                marks.last_move.push(s);
            }
        }
        let computed = |c: Cell| pos.piece_at(c).is_some_and(|p| v.info().pieces[p.ty as usize].computed);
        if (v.geometry().levels() > 1 || self.hovered.is_some_and(computed)) && marks.selected.is_none() {
            marks.reach = self.hovered_reach(v.as_ref(), pos, legal);
        }
        if v.info().field.is_some() {
            marks.support = field_view::support_marks(v.as_ref(), pos);
        }
        if v.in_check(pos) {
            let mover = pos.side_to_move();
            marks.check = v
                .geometry()
                .cells()
                .filter(|&c| pos.piece_at(c).is_some_and(|p| p.side == mover && v.info().pieces[p.ty as usize].royal))
                .collect();
        }
        marks
    }

    /// Where the hovered piece can move, for either side: on a 3D board its lines through the
    /// levels are hard to follow by eye, so hovering lights them up on every slice; a piece whose
    /// moves a callback computes has no diagram that says them all, so hovering shows them here.
    fn hovered_reach(&self, v: &dyn Variant, pos: &Position, legal: &[Move]) -> Vec<Cell> {
        let Some((c, piece)) = self.hovered.and_then(|c| pos.piece_at(c).map(|p| (c, p))) else { return Vec::new() };
        let theirs;
        let moves = if piece.side == pos.side_to_move() {
            legal
        } else {
            let mut as_mover = pos.clone();
            as_mover.set_side_to_move(piece.side);
            let mut moves = Vec::new();
            if v.legal_moves(&as_mover, &mut moves).is_err() {
                return Vec::new();
            }
            theirs = moves;
            &theirs
        };
        let mut cells: Vec<Cell> =
            moves.iter().filter(|m| m.kind == MoveKind::Board && m.from == c).map(|m| m.to).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The dialog for a move that ends several ways (promote or not, a cube's face).
    pub fn show_choice(
        &mut self,
        ctx: &egui::Context,
        session: &Session,
        face: piece_face::FaceText,
    ) -> Option<Action> {
        let moves = self.choice.as_ref()?;
        let v = session.variant();
        let pos = session.game().position();
        let mut chosen = None;
        let mut cancel = false;
        egui::Modal::new(egui::Id::unique("choice")).show(ctx, |ui| {
            ui.heading("Choose");
            // Each choice side by side: the button, then the piece it leaves — its kanji, its
            // moves in words and drawn.
            ui.horizontal_top(|ui| {
                for &m in moves {
                    let info = &v.info().pieces[m.piece as usize];
                    let was = match m.kind {
                        MoveKind::Board => pos.piece_at(m.from).map(|p| p.ty),
                        _ => None,
                    };
                    let label = if m.kind == MoveKind::Drop {
                        format!("Drop showing {}", info.name)
                    } else if was == Some(m.piece) {
                        format!("Keep {}", info.name)
                    } else if info.promoted {
                        format!("Promote to {}", info.name)
                    } else {
                        format!("Become {}", info.name)
                    };
                    ui.vertical(|ui| {
                        if ui.button(label).on_hover_text(v.format_move(pos, m)).clicked() {
                            chosen = Some(m);
                        }
                        if let Some(k) = &info.kanji {
                            ui.label(RichText::new(k).size(20.0));
                        }
                        super::inspector::piece_moves(ui, info, face, 150.0);
                    });
                }
            });
            cancel = ui.button("Cancel").clicked();
        });
        if chosen.is_some() || cancel {
            self.choice = None;
        }
        chosen.map(Action::Play)
    }
}

/// How many of a type are in hand: a badge on the piece's lower right corner, as on a shogi
/// diagram's hand, so the row keeps one width per type.
fn paint_count(ui: &egui::Ui, piece: egui::Rect, n: u8) {
    let centre = piece.right_bottom() - egui::vec2(4.0, 5.0);
    let visuals = ui.visuals();
    ui.painter().circle_filled(centre, 8.5, visuals.selection.bg_fill);
    ui.painter().text(
        centre,
        egui::Align2::CENTER_CENTER,
        n.to_string(),
        egui::FontId::proportional(11.5),
        visuals.selection.stroke.color,
    );
}

/// The board edits the setup: a click places the brush's piece, a right-click clears a cell.
fn edit_setup(setup: &mut SetupEditor, input: BoardInput) {
    if let Some(c) = input.clicked {
        setup.click(c);
    }
    if let Some(c) = input.secondary_clicked {
        setup.erase(c);
    }
}
