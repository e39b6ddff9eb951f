//! Why a move the user tried is not legal: "the Silver is pinned: moving it would leave your King
//! in check", "only one unpromoted Pawn per file (nifu)", "a Pawn drop may not give checkmate".
//!
//! A designer testing a rule needs to know *which* rule refused a move, or a refusal looks like a
//! bug. The answer is worked out through [`Variant`] alone, by trying variations of the position
//! (the move with the mover's royals taken off, the drop played without the legality test), so it
//! serves scripts and plugins alike and stays right when a script's rules change. What it cannot
//! pin on a known rule it says plainly: the rules do not allow it.

use henka_api::notation::{cell_name, file_label};
use henka_api::{Cell, Move, MoveKind, Piece, PieceId, Position, Side, Variant};

use crate::describe::describe;

/// What the user tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// A piece picked on `from` was sent to `to`.
    Board { from: Cell, to: Cell },
    /// A piece of this type in hand was sent to `to`.
    Drop { ty: PieceId, to: Cell },
    /// The piece on this cell was picked, but has no legal move.
    Piece { from: Cell },
    /// A piece of this type in hand was picked, but has no legal drop.
    Hand { ty: PieceId },
}

/// Why `attempt` is not among the legal moves of `pos`; `None` when there is nothing to say (the
/// cell is empty or holds the opponent's piece, or the attempt is legal after all).
/// `game_over`: the game has a result, so nothing may be played.
pub fn explain(v: &dyn Variant, pos: &Position, game_over: bool, attempt: Attempt) -> Option<String> {
    if game_over {
        return Some("The game is over: no move can be played.".into());
    }
    let mover = pos.side_to_move();
    let name = |ty: PieceId| v.info().pieces[ty as usize].name.clone();
    let at = |c: Cell| cell_name(v.geometry(), c);
    let legal = legal_moves(v, pos);
    match attempt {
        Attempt::Board { from, to } => {
            let piece = pos.piece_at(from).filter(|p| p.side == mover)?;
            if legal.iter().any(|m| m.kind == MoveKind::Board && m.from == from && m.to == to) {
                return None;
            }
            if let Some(own) = pos.piece_at(to).filter(|p| p.side == mover) {
                return Some(format!("{} holds your own {}.", at(to), name(own.ty)));
            }
            if royal_danger(v, pos, piece, from, to) {
                return Some(check_reason(v, pos, piece, from, &legal));
            }
            Some(format!(
                "The {} cannot move from {} to {}: it {}.",
                name(piece.ty),
                at(from),
                at(to),
                describe(&v.info().pieces[piece.ty as usize].betza)
            ))
        }
        Attempt::Piece { from } => {
            let piece = pos.piece_at(from).filter(|p| p.side == mover)?;
            if legal.iter().any(|m| m.kind == MoveKind::Board && m.from == from) {
                return None;
            }
            if candidate_targets(v, pos, piece, from).into_iter().any(|to| royal_danger(v, pos, piece, from, to)) {
                return Some(check_reason(v, pos, piece, from, &legal));
            }
            Some(format!("The {} on {} has no move from there.", name(piece.ty), at(from)))
        }
        Attempt::Drop { ty, to } => {
            if legal.iter().any(|m| is_drop_of(v, m, ty) && m.to == to) {
                return None;
            }
            if let Some(p) = pos.piece_at(to) {
                return Some(format!("{} is taken by {} {}.", at(to), whose(p.side, mover), name(p.ty)));
            }
            Some(drop_reason(v, pos, ty, to, &legal))
        }
        Attempt::Hand { ty } => {
            if pos.hand(mover, ty) == 0 || legal.iter().any(|m| is_drop_of(v, m, ty)) {
                return None;
            }
            if v.in_check(pos) {
                return Some(format!("You are in check, and no {} drop blocks it.", name(ty)));
            }
            Some(format!("The {} in hand has no legal drop in this position.", name(ty)))
        }
    }
}

fn legal_moves(v: &dyn Variant, pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    // A position the rules cannot move in has nothing to tell apart.
    if v.legal_moves(pos, &mut out).is_err() {
        out.clear();
    }
    out
}

fn whose(owner: Side, mover: Side) -> &'static str {
    if owner == mover { "your" } else { "the opponent's" }
}

fn piece_is_royal(v: &dyn Variant, p: Piece) -> bool {
    v.info().pieces[p.ty as usize].royal
}

/// A drop (or a placement) entering as `ty` — or as any face of the cube held as `ty`.
fn is_drop_of(v: &dyn Variant, m: &Move, ty: PieceId) -> bool {
    matches!(m.kind, MoveKind::Drop | MoveKind::Place)
        && (m.piece == ty || v.info().pieces[m.piece as usize].demotes_to == ty)
}

/// The position with the opponent's pieces, but for those on `keep`, turned into the mover's:
/// they block lines as before but attack nothing, so the mover's moves there are the moves its
/// pieces can make with the King's safety out of the way.
fn disarmed(v: &dyn Variant, pos: &Position, keep: &[Cell]) -> Position {
    let mover = pos.side_to_move();
    let mut quiet = pos.clone();
    for c in v.geometry().cells() {
        if let Some(p) = quiet.piece_at(c).filter(|p| p.side != mover && !keep.contains(&c)) {
            quiet.set(c, Some(Piece { side: mover, ..p }));
        }
    }
    quiet
}

/// The cells a piece on `from` could go to but for the King's safety: its moves to empty cells on
/// the [`disarmed`] board (one move generation), and the enemy pieces its move diagram covers
/// (each tried in [`royal_danger`]). On a 25×25 board this keeps a click's answer to a few move
/// generations instead of one per cell.
fn candidate_targets(v: &dyn Variant, pos: &Position, piece: Piece, from: Cell) -> Vec<Cell> {
    let g = v.geometry();
    let mut out: Vec<Cell> = legal_moves(v, &disarmed(v, pos, &[]))
        .iter()
        .filter(|m| m.kind == MoveKind::Board && m.from == from && m.to != from)
        .map(|m| m.to)
        .collect();
    let enemy = |c: Cell| pos.piece_at(c).is_some_and(|p| p.side != piece.side);
    match crate::diagram::diagram(&v.info().pieces[piece.ty as usize].betza) {
        Ok(cells) => {
            // The diagram's forward is the owner's: the second player's is turned half round.
            let turn = if piece.side == Side::First { 1 } else { -1 };
            let on_board = cells.iter().filter_map(|&((df, dr), _)| {
                g.offset(from, henka_api::Vector::flat((df * turn) as i8, (dr * turn) as i8))
            });
            out.extend(on_board.filter(|&c| enemy(c)));
        }
        // Moves through levels have no flat diagram: every enemy piece is a candidate.
        Err(_) => out.extend(g.cells().filter(|&c| enemy(c))),
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether the board move `from → to` is refused only because it leaves (or puts) the mover's
/// royal under attack: the piece makes it on the [`disarmed`] board, and the move made by hand on
/// the real board leaves the mover in check.
fn royal_danger(v: &dyn Variant, pos: &Position, piece: Piece, from: Cell, to: Cell) -> bool {
    let reaches = legal_moves(v, &disarmed(v, pos, &[to]))
        .iter()
        .any(|m| m.kind == MoveKind::Board && m.from == from && m.to == to);
    if !reaches {
        return false;
    }
    let mut after = pos.clone();
    after.set(to, Some(piece));
    after.set(from, None);
    v.in_check(&after)
}

/// The sentence for a move refused for the royal's sake: in check, or pinned.
fn check_reason(v: &dyn Variant, pos: &Position, piece: Piece, from: Cell, legal: &[Move]) -> String {
    let info = &v.info().pieces[piece.ty as usize];
    let royal = royal_name(v);
    if piece_is_royal(v, piece) {
        return format!("Your {} may not move into check.", info.name);
    }
    if v.in_check(pos) {
        let answers = legal.iter().filter(|m| m.kind != MoveKind::Pass).count();
        return format!("You are in check: the move must answer it ({answers} moves do).");
    }
    format!(
        "The {} on {} is pinned: moving it would leave your {royal} in check.",
        info.name,
        cell_name(v.geometry(), from)
    )
}

/// The name of the variant's royal piece ("King" when it has several kinds).
fn royal_name(v: &dyn Variant) -> String {
    let royals: Vec<&str> = v.info().pieces.iter().filter(|p| p.royal).map(|p| p.name.as_str()).collect();
    match royals.as_slice() {
        [one] => one.to_string(),
        _ => "King".into(),
    }
}

/// Why a drop of `ty` on the empty cell `to` is refused, from the most particular rule to the most
/// general: check, two on a file, mate by drop, a dead cell, then the rules' own drop zone.
fn drop_reason(v: &dyn Variant, pos: &Position, ty: PieceId, to: Cell, legal: &[Move]) -> String {
    let g = v.geometry();
    let mover = pos.side_to_move();
    let name = &v.info().pieces[ty as usize].name;
    let drops: Vec<&Move> = legal.iter().filter(|m| is_drop_of(v, m, ty)).collect();
    let mut after = pos.clone();
    after.set(to, Some(Piece::new(ty, mover)));
    after.set_hand(mover, ty, pos.hand(mover, ty).saturating_sub(1));
    if v.in_check(&after) {
        return format!("You are in check, and a {name} on {} does not block it.", cell_name(g, to));
    }
    let file = g.coords(to).0;
    let same_file = |c: Cell| g.coords(c).0 == file && g.coords(c).2 == g.coords(to).2;
    let holds_own = |c: Cell| pos.piece_at(c).is_some_and(|p| p.side == mover && p.ty == ty);
    let file_taken = g.cells().any(|c| same_file(c) && holds_own(c));
    let files_with_drops_are_free =
        drops.iter().all(|m| !g.cells().any(|c| g.coords(c).0 == g.coords(m.to).0 && holds_own(c)));
    if file_taken && files_with_drops_are_free {
        return format!("Only one unpromoted {name} per file: you already have one on file {}.", file_label(g, file));
    }
    let mut reply = after.clone();
    reply.switch_turn();
    if v.in_check(&reply) && legal_moves(v, &reply).is_empty() {
        return format!("A {name} drop may not give checkmate.");
    }
    if !has_moves_from(v, mover, ty, to) {
        return format!("A {name} dropped on {} could never move again.", cell_name(g, to));
    }
    format!("The rules do not allow a {name} drop on {} (a drop zone or a limit).", cell_name(g, to))
}

/// Whether `side`'s piece of `ty` alone on the board on `to` has any move: a piece that has none
/// there is dead on that cell.
fn has_moves_from(v: &dyn Variant, side: Side, ty: PieceId, to: Cell) -> bool {
    let mover = side;
    let mut alone = Position::empty(v.geometry().len(), v.info().pieces.len());
    alone.set_side_to_move(mover);
    alone.set(to, Some(Piece::new(ty, mover)));
    legal_moves(v, &alone).iter().any(|m| m.kind == MoveKind::Board && m.from == to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use henka_api::notation::parse_cell;

    use crate::script::load_source;

    fn shogi() -> std::sync::Arc<henka_api::kit::KitVariant> {
        load_source("shogi", include_str!("../../scripts/shogi.rhai")).unwrap().variant
    }

    fn why(pos: &str, attempt: impl Fn(&dyn Variant) -> Attempt) -> String {
        let v = shogi();
        let p = v.parse_position(pos).unwrap();
        explain(v.as_ref(), &p, false, attempt(v.as_ref())).unwrap_or_default()
    }

    fn cell(v: &dyn Variant, s: &str) -> Cell {
        parse_cell(v.geometry(), s).unwrap()
    }

    fn ty(v: &dyn Variant, token: &str) -> PieceId {
        v.info().pieces.iter().position(|p| p.token == token && !p.promoted).unwrap() as PieceId
    }

    #[test]
    fn a_pinned_piece_says_it_is_pinned() {
        // The Black Silver on 5g stands between its King on 5i and the White Rook on 5a; it may
        // still step along the file, but not off it.
        let pos = "4r4/9/9/9/9/9/4S4/9/4K4 b - 1";
        let r = why(pos, |v| Attempt::Board { from: cell(v, "5g"), to: cell(v, "4f") });
        assert!(r.contains("pinned") && r.contains("Silver"), "{r}");
        // A pinned Knight has no move at all.
        let r = why("4r4/9/9/9/9/9/4N4/9/4K4 b - 1", |v| Attempt::Piece { from: cell(v, "5g") });
        assert!(r.contains("Knight on 5g is pinned"), "{r}");
    }

    #[test]
    fn a_king_may_not_step_into_check_and_a_check_must_be_answered() {
        let r = why("3r5/9/9/9/9/9/9/9/4K4 b - 1", |v| Attempt::Board { from: cell(v, "5i"), to: cell(v, "6i") });
        assert!(r.contains("into check"), "{r}");
        let r = why("4r4/9/9/9/9/9/9/P8/4K4 b - 1", |v| Attempt::Board { from: cell(v, "9h"), to: cell(v, "9g") });
        assert!(r.contains("You are in check"), "{r}");
    }

    #[test]
    fn a_move_the_piece_cannot_make_is_described() {
        let r = why("4k4/9/9/9/9/9/4S4/9/4K4 b - 1", |v| Attempt::Board { from: cell(v, "5g"), to: cell(v, "5h") });
        assert!(r.contains("cannot move from 5g to 5h") && r.contains("diagonal"), "{r}");
        let r = why("4k4/9/9/9/9/9/4S4/4G4/4K4 b - 1", |v| Attempt::Board { from: cell(v, "5i"), to: cell(v, "5h") });
        assert!(r.contains("your own Gold"), "{r}");
    }

    #[test]
    fn drops_name_nifu_drop_mate_and_dead_cells() {
        let r = why("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", |v| Attempt::Drop { ty: ty(v, "P"), to: cell(v, "5e") });
        assert!(r.contains("one unpromoted Pawn per file") && r.contains("file 5"), "{r}");
        let r = why("4k4/9/9/9/9/9/9/9/4K4 b P 1", |v| Attempt::Drop { ty: ty(v, "P"), to: cell(v, "3a") });
        assert!(r.contains("could never move again"), "{r}");
        // A Pawn on 5b would mate the King on 5a, hemmed in by its Lances and guarded by the Gold
        // on 5c (uchifuzume).
        let r = why("3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1", |v| Attempt::Drop { ty: ty(v, "P"), to: cell(v, "5b") });
        assert!(r.contains("may not give checkmate"), "{r}");
    }

    #[test]
    fn a_pinned_piece_whose_only_move_would_capture_says_it_is_pinned() {
        // The Knight on 5g could only take the Pawns on 6e and 4e, but the Rook on 5a pins it.
        let r = why("4r4/9/9/9/3p1p3/9/4N4/9/4K4 b - 1", |v| Attempt::Piece { from: cell(v, "5g") });
        assert!(r.contains("Knight on 5g is pinned"), "{r}");
        // For White too, whose moves point the other way.
        let r = why("4k4/9/4n4/9/3P1P3/9/9/9/4R4 w - 1", |v| Attempt::Piece { from: cell(v, "5c") });
        assert!(r.contains("Knight on 5c is pinned"), "{r}");
    }

    #[test]
    fn a_legal_attempt_or_a_foreign_piece_has_nothing_to_say() {
        let v = shogi();
        let p = v.start_position();
        let legal = Attempt::Board { from: cell(v.as_ref(), "7g"), to: cell(v.as_ref(), "7f") };
        assert_eq!(explain(v.as_ref(), &p, false, legal), None);
        let theirs = Attempt::Piece { from: cell(v.as_ref(), "3c") };
        assert_eq!(explain(v.as_ref(), &p, false, theirs), None);
        assert!(explain(v.as_ref(), &p, true, legal).unwrap().contains("game is over"));
    }
}
