//! Move generation, legality and make/unmake for kit variants on a board (an open field's play,
//! `field.rs`, builds on the make/unmake and attack tests here). Allocation-free on the hot path:
//! callers pass the move buffer, and the legality test works in place with make/unmake.

use super::callbacks::{hold_error, take_held_error};
use super::compiled::{Effects, KitVariant};
use super::hooks::{Hooks, Played};
use super::tables::{ProbeKind, Tables, TypeSet};
use crate::model::error::RuleError;
use crate::model::geometry::{Cell, NO_CELL};
use crate::model::moves::{Move, MoveKind};
use crate::model::outcome::{EndReason, HistoryEntry, Outcome};
use crate::model::piece::{Piece, PieceId};
use crate::model::position::Position;
use crate::model::side::Side;
use crate::rules::CheckRule;

/// Who asked [`KitVariant::lone_royal`]: the variant build's number (not its address: a
/// reloaded script may reuse the address with other royals), the position hash and the side.
type RoyalQuery = (u64, u64, usize);

thread_local! {
    /// [`KitVariant::lone_royal`]'s last answer.
    static LAST_LONE_ROYAL: std::cell::Cell<Option<(RoyalQuery, Cell)>> = const { std::cell::Cell::new(None) };
}

/// The first of the two position counters (one per side, first player first) that count the
/// checks each side gave when the n-th check wins; counters 0 and 1 count passes.
pub(crate) const CHECK_COUNTERS: usize = 2;

/// What a move changed, so it can be taken back exactly.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    moved: Option<Piece>,
    captured: Option<Piece>,
    captured_via: Option<Piece>,
    /// The mover's consecutive-pass count before the move (when passes are limited).
    passes: u16,
    /// The mover's count of checks given before the move (when the n-th check wins, n > 1).
    checks: u16,
}

/// How to take back a move: make/unmake's record, or the whole position before a move that changed
/// more than the move itself (a move effect; on a field, stranding and re-centring).
#[derive(Clone, Debug)]
pub(crate) enum FullUndo {
    Plain(Undo),
    Snapshot(Box<Position>),
}

/// The position's hash without its counters: what a counters-only effect must leave unchanged.
fn pieces_hash(pos: &Position) -> u64 {
    (pos.counters().iter().enumerate()).fold(pos.hash(), |h, (i, &v)| h ^ crate::model::hash::counter_key(i, v))
}

/// Which of the legal moves a generation wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveSet {
    All,
    /// Only those that take a piece: drops and quiet moves are skipped before legality is judged.
    Captures,
}

/// A turn skipped: the pass move, or a piece's move back to its own cell without a capture.
#[inline]
pub(crate) fn is_pass(mv: Move) -> bool {
    mv.kind == MoveKind::Pass || (mv.kind == MoveKind::Board && mv.from == mv.to && mv.via == NO_CELL)
}

/// Royal pieces found while scanning the board.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Royals {
    count: [u32; 2],
    /// The last royal cell seen per side (the only one when the count is 1).
    cell: [Cell; 2],
}

/// Pieces whose departure might expose the royal; more than fit means "test everything".
pub(crate) struct PinCandidates {
    cells: [Cell; 32],
    len: usize,
    overflow: bool,
}

impl PinCandidates {
    pub(crate) fn new() -> Self {
        PinCandidates { cells: [NO_CELL; 32], len: 0, overflow: false }
    }
    pub(crate) fn push(&mut self, c: Cell) {
        if self.len == self.cells.len() {
            self.overflow = true;
        } else {
            self.cells[self.len] = c;
            self.len += 1;
        }
    }
    pub(crate) fn contains(&self, c: Cell) -> bool {
        self.overflow || self.cells[..self.len].contains(&c)
    }
}

/// A set of cells of a board of up to [`CellSet::CELLS`] cells, on the stack.
#[derive(Clone, Copy)]
struct CellSet([u64; 16]);

impl CellSet {
    const CELLS: usize = 16 * 64;

    fn insert(&mut self, c: Cell) {
        self.0[c as usize / 64] |= 1 << (c as usize % 64);
    }

    fn contains(&self, c: Cell) -> bool {
        self.0[c as usize / 64] >> (c as usize % 64) & 1 != 0
    }
}

/// Judges moves that answer a check, where attacks are data ([`KitVariant::attacks_are_data`]).
/// The attacks on the royal are what the enemy's attack probes into its cell see, so a move that
/// changes none of the cells they look at (nor moves the royal) leaves it in check and needs no
/// trial. A dropped piece changes those attacks only by standing in their way, whatever its
/// type, so each drop cell is tried once: with a full hand that is a seventh of the trials.
struct Evasions {
    royal: Cell,
    /// The cells the probes into the royal's cell look at.
    watched: CellSet,
    /// Drop cells tried so far, and those where the royal stayed attacked.
    tried: CellSet,
    exposed: CellSet,
}

impl Evasions {
    fn new(t: &Tables, royal: Cell, by: Side) -> Evasions {
        let mut watched = CellSet([0; 16]);
        for p in &t.probes[by.index()] {
            let pc = t.probe_cells[p.base + royal as usize];
            for &c in t.span(pc.ray).iter().chain(t.span(pc.block)) {
                watched.insert(c);
            }
        }
        Evasions { royal, watched, tried: CellSet([0; 16]), exposed: CellSet([0; 16]) }
    }

    /// Whether `mv` leaves the royal attacked; `trial` plays it and looks.
    fn exposes(&mut self, mv: Move, trial: impl FnOnce() -> bool) -> bool {
        let touches = |c: Cell| c != NO_CELL && (c == self.royal || self.watched.contains(c));
        match mv.kind {
            MoveKind::Drop if !self.watched.contains(mv.to) => true,
            MoveKind::Drop => {
                if !self.tried.contains(mv.to) {
                    self.tried.insert(mv.to);
                    if trial() {
                        self.exposed.insert(mv.to);
                    }
                }
                self.exposed.contains(mv.to)
            }
            MoveKind::Board if !touches(mv.from) && !touches(mv.to) && !touches(mv.via) => true,
            _ => trial(),
        }
    }
}

/// The board as the side to move's move `mv` leaves it, cell by cell, without playing it: the
/// mover on `to`; `from` and a `via` capture empty (a drop has neither).
#[inline]
fn board_after(pos: &Position, mv: Move) -> impl Fn(Cell) -> Option<Piece> + '_ {
    let mover = Piece::new(mv.piece, pos.side_to_move());
    move |c: Cell| {
        if c == mv.to {
            Some(mover)
        } else if c == mv.from || c == mv.via {
            None
        } else {
            pos.piece_at(c)
        }
    }
}

impl KitVariant {
    /// Appends a board move (`base.piece` = the mover's type), with its promotion choices: forced
    /// by a capture (promotion by capture), optional or forced in the zone, and forced where the piece
    /// could never move again unless the variant allows immobile pieces.
    #[inline]
    pub(crate) fn push_board(&self, out: &mut Vec<Move>, side: Side, base: Move, captures: bool) {
        let t = &self.tables;
        let (ty, from, to) = (base.piece, base.from, base.to);
        let mv = |piece| Move { piece, ..base };
        if self.has_cubes {
            // A cube flips on a move and turns to a chosen face on a capture.
            match (captures, self.flips[ty as usize]) {
                (true, _) if !self.capture_faces[ty as usize].is_empty() => {
                    out.extend(self.capture_faces[ty as usize].iter().map(|&f| mv(f)))
                }
                (false, Some(f)) => out.push(mv(f)),
                _ => out.push(mv(ty)),
            }
            return;
        }
        if captures
            && self.rules.promotion.by_capture
            && let Some(p) = self.promotes_to[ty as usize]
        {
            out.push(mv(p));
            return;
        }
        let in_zone = || t.in_zone(side, from) || t.in_zone(side, to);
        match (self.zone_promotes_to[ty as usize], self.zone_demotes_to[ty as usize]) {
            (Some(p), _) if in_zone() => {
                let forced = self.rules.promotion.mandatory
                    || (t.dead[t.slot(ty, side, to)] && !self.rules.promotion.allow_immobile);
                if !forced {
                    out.push(mv(ty));
                }
                out.push(mv(p));
            }
            // A reversible promotion: the promoted piece may switch back, unless the base type
            // could never move again there.
            (_, Some(base)) if in_zone() => {
                out.push(mv(ty));
                if !t.dead[t.slot(base, side, to)] || self.rules.promotion.allow_immobile {
                    out.push(mv(base));
                }
            }
            _ => out.push(mv(ty)),
        }
    }

    /// The pseudo-legal board moves of the piece on `from`.
    #[inline]
    fn piece_moves(&self, pos: &Position, out: &mut Vec<Move>, side: Side, ty: u8, from: Cell, set: MoveSet) {
        let t = &self.tables;
        let quiet = set == MoveSet::All;
        for g in t.gens(ty, side, from) {
            if g.block.len > 0 && t.span(g.block).iter().any(|&b| pos.piece_at(b).is_some()) {
                continue;
            }
            for &to in t.span(g.ray) {
                match pos.piece_at(to) {
                    None => {
                        if g.moves && quiet {
                            self.push_board(out, side, Move::board(from, to, ty), false);
                        }
                    }
                    Some(q) => {
                        if g.captures && q.side != side {
                            self.push_board(out, side, Move::board(from, to, ty), true);
                        }
                        break;
                    }
                }
            }
        }
    }

    /// All pseudo-legal board moves of one piece: its atoms, its paths, then its movement
    /// callback's moves, each move once. With [`MoveSet::Captures`], the atoms' moves to empty
    /// cells are not made at all (most of a board's moves, and the ones quiescence never wants);
    /// paths and callbacks still make theirs, for the caller to sift.
    #[inline]
    pub(crate) fn moves_of(
        &self,
        pos: &Position,
        out: &mut Vec<Move>,
        side: Side,
        ty: u8,
        from: Cell,
        set: MoveSet,
    ) -> Result<(), RuleError> {
        let start = out.len();
        self.piece_moves(pos, out, side, ty, from, set);
        if self.paths.has_paths(ty) {
            let emit = &mut |base, captures| self.push_board(out, side, base, captures);
            self.paths.moves(&self.geometry, pos, side, ty, from, emit);
        }
        let callback = self.callback[ty as usize];
        if callback {
            self.callback_moves(pos, from, Piece::new(ty, side), out)?;
        }
        if self.may_repeat[ty as usize] || callback {
            // Different paths with the same effect (an area move's detours, a leap and a two-step
            // path to the same cell, igui written twice) are one move.
            out[start..].sort_unstable();
            let mut keep = start;
            for i in start..out.len() {
                if i == start || out[i] != out[keep - 1] {
                    out[keep] = out[i];
                    keep += 1;
                }
            }
            out.truncate(keep);
        }
        Ok(())
    }

    /// Whether some move of `by` (as if it were to move) captures on `target`, generated in full;
    /// for pieces the attack probes cannot describe. `spare_rule` applies the protected-royal rule
    /// (an Emperor does not attack a protected royal).
    pub(crate) fn captures_on(&self, pos: &Position, target: Cell, by: Side, spare_rule: bool) -> bool {
        let mut p = pos.clone();
        if p.side_to_move() != by {
            p.set_side_to_move(by);
        }
        let attackers: Vec<(Cell, u8)> = (p.cells().iter().enumerate())
            .filter_map(|(c, q)| q.filter(|q| q.side == by).map(|q| (c as Cell, q.ty)))
            .collect();
        let mut moves = Vec::new();
        for (c, ty) in attackers {
            moves.clear();
            if let Err(e) = self.moves_of(&p, &mut moves, by, ty, c, MoveSet::All) {
                hold_error(e);
                return false;
            }
            for &mv in &moves {
                let hits = mv.via == target || (mv.to == target && mv.to != mv.from && p.piece_at(target).is_some());
                if hits && !(spare_rule && self.spares(&mut p, mv)) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `mv` is a capture of a protected royal by a piece that must spare one: after the
    /// capture, the royal's side could capture on that cell (the rule itself set aside).
    fn spares(&self, pos: &mut Position, mv: Move) -> bool {
        let Some(types) = self.spares_protected else { return false };
        let Some(mover) = pos.piece_at(mv.from) else { return false };
        if mv.kind != MoveKind::Board || !types.contains(mover.ty) {
            return false;
        }
        let royal_on = |c: Cell| {
            c != NO_CELL
                && c != mv.from
                && pos.piece_at(c).is_some_and(|q| q.side != mover.side && self.is_royal[q.ty as usize])
        };
        let victims = [mv.via, mv.to];
        let Some(&royal_cell) = victims.iter().find(|&&c| royal_on(c)) else { return false };
        let u = self.make(pos, mv);
        let protected = self.captures_on(pos, royal_cell, mover.side.opponent(), false);
        self.unmake(pos, mv, u);
        protected
    }

    /// Drops from `side`'s hand.
    fn drop_moves(&self, pos: &Position, out: &mut Vec<Move>, side: Side) -> Result<(), RuleError> {
        let t = &self.tables;
        if self.has_cubes {
            // A cube in hand (counted under its first face) drops showing any face.
            for cube in &self.rules.cubes {
                let held = cube.faces[0] as PieceId;
                if pos.hand(side, held) == 0 || self.is_royal[held as usize] {
                    continue;
                }
                for c in self.geometry.cells().filter(|&c| pos.piece_at(c).is_none()) {
                    let faces = cube.faces.iter().map(|&f| f as PieceId);
                    let may_drop =
                        |f: PieceId| !t.dead[t.slot(f, side, c)] || self.rules.pieces[f as usize].drop_immobile;
                    out.extend(faces.filter(|&f| may_drop(f)).map(|f| Move::drop(f, c)));
                }
            }
            return Ok(());
        }
        for &ty in &self.info.hand_types {
            if pos.hand(side, ty) == 0 {
                continue;
            }
            // Columns that already hold an own unpromoted piece of this type (nifu).
            let mut taken = [0u64; 4];
            let mut check_columns = false;
            if self.rules.pieces[ty as usize].one_per_file {
                check_columns = true;
                for (c, p) in pos.cells().iter().enumerate() {
                    if let Some(p) = p
                        && p.ty == ty
                        && p.side == side
                    {
                        let col = t.column[c] as usize;
                        taken[(col >> 6) & 3] |= 1 << (col & 63);
                    }
                }
            }
            let limited = self.limits.full_groups(pos, side, ty);
            let immobile_ok = self.rules.pieces[ty as usize].drop_immobile;
            let first = out.len();
            for c in self.geometry.cells() {
                if pos.piece_at(c).is_some() || (t.dead[t.slot(ty, side, c)] && !immobile_ok) {
                    continue;
                }
                if let Some((full, group)) = &limited
                    && full[group[c as usize] as usize]
                {
                    continue;
                }
                if check_columns {
                    let col = t.column[c as usize] as usize;
                    if (taken[(col >> 6) & 3] >> (col & 63)) & 1 != 0 {
                        continue;
                    }
                }
                out.push(Move::drop(ty, c));
            }
            if self.drop_callback[ty as usize] {
                self.ask_drop_cells(pos, out, side, ty, first)?;
            }
        }
        Ok(())
    }

    /// Lets the drop callback decide the drops of `ty` (those in `out[first..]`, by the data rules).
    fn ask_drop_cells(
        &self,
        pos: &Position,
        out: &mut Vec<Move>,
        side: Side,
        ty: PieceId,
        first: usize,
    ) -> Result<(), RuleError> {
        let Some(h) = &self.hooks else { return Ok(()) };
        let mut cells: Vec<Cell> = out[first..].iter().map(|m| m.to).collect();
        h.drop_cells(pos, ty, side, &mut cells)?;
        out.truncate(first);
        for c in cells {
            if !self.geometry.exists(c) || pos.piece_at(c).is_some() {
                let name = &self.info.pieces[ty as usize].name;
                return Err(RuleError::new(format!(
                    "the drop callback of the {name} allowed a drop on cell {c}, which is not an empty cell of the board"
                )));
            }
            out.push(Move::drop(ty, c));
        }
        out[first..].sort_unstable();
        out.dedup();
        Ok(())
    }

    /// Whether `target` is attacked by any piece of `by`.
    pub(crate) fn attacked(&self, pos: &Position, target: Cell, by: Side) -> bool {
        if self.generic_attacks {
            return self.captures_on(pos, target, by, true);
        }
        self.probe_attackers(pos, target, by, |_| true)
            // The probes know the callback pieces' data moves; their callbacks are asked here.
            || (self.reach.is_some() && self.callback_attacks(pos, target, by))
    }

    /// The cells of `by`'s pieces that attack `target` by their data moves, into `out` (cleared
    /// first, each cell once); `false` where attacks are more than those data moves
    /// ([`KitVariant::attacks_are_data`]).
    pub(crate) fn attackers(&self, pos: &Position, target: Cell, by: Side, out: &mut Vec<Cell>) -> bool {
        out.clear();
        if !self.attacks_are_data() {
            return false;
        }
        self.probe_attackers(pos, target, by, |c| {
            if !out.contains(&c) {
                out.push(c);
            }
            false
        });
        true
    }

    /// Walks the attack probes of `by` into `target`, handing `found` each cell whose piece
    /// attacks it by a data move (a cell may come more than once), until `found` says stop;
    /// returns whether it did. [`KitVariant::attacked`] stops at the first, and
    /// [`KitVariant::attackers`] collects them all.
    #[inline]
    fn probe_attackers(&self, pos: &Position, target: Cell, by: Side, found: impl FnMut(Cell) -> bool) -> bool {
        self.probe_attackers_on(|c| pos.piece_at(c), target, by, found)
    }

    /// [`KitVariant::probe_attackers`] on the board that `piece_at` describes: the position, or
    /// the position as a move would leave it ([`KitVariant::board_move_checks`]).
    #[inline]
    fn probe_attackers_on(
        &self,
        piece_at: impl Fn(Cell) -> Option<Piece>,
        target: Cell,
        by: Side,
        mut found: impl FnMut(Cell) -> bool,
    ) -> bool {
        let t = &self.tables;
        for p in &t.probes[by.index()] {
            let pc = t.probe_cells[p.base + target as usize];
            let ray = t.span(pc.ray);
            let is_attacker = |c: Cell| matches!(piece_at(c), Some(q) if q.side == by && p.types.contains(q.ty));
            match p.kind {
                ProbeKind::Leap => {
                    if let Some(&c) = ray.first()
                        && is_attacker(c)
                        && found(c)
                    {
                        return true;
                    }
                }
                ProbeKind::Slide => {
                    for (k, &c) in ray.iter().enumerate() {
                        if let Some(q) = piece_at(c) {
                            let reaches = p.types.contains(q.ty) || (k == 0 && p.steppers.contains(q.ty));
                            if q.side == by && reaches && found(c) {
                                return true;
                            }
                            break;
                        }
                    }
                }
                ProbeKind::Lame => {
                    if let Some(&c) = ray.first()
                        && is_attacker(c)
                        && t.span(pc.block).iter().all(|&b| piece_at(b).is_none())
                        && found(c)
                    {
                        return true;
                    }
                }
                ProbeKind::SkipFirst => {
                    let mut first_occupied = None;
                    for (k, &c) in ray.iter().enumerate() {
                        if piece_at(c).is_some() {
                            if k >= 1 && is_attacker(c) && first_occupied.is_none_or(|f| f + 1 == k) && found(c) {
                                return true;
                            }
                            if first_occupied.is_some() {
                                break;
                            }
                            first_occupied = Some(k);
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether the board move `mv` of the side to move would leave a piece of its side attacking
    /// `royal` (the enemy's), judged without playing it: on the board as the move leaves it (the
    /// mover on `to`, `from` and a `via` capture empty), every probe sees a direct check and a
    /// discovered one alike. Exact where attacks are data ([`KitVariant::attacks_are_data`]):
    /// then the move changes nothing else.
    pub(crate) fn board_move_checks(&self, pos: &Position, mv: Move, royal: Cell) -> bool {
        let side = pos.side_to_move();
        royal != mv.to && self.probe_attackers_on(board_after(pos, mv), royal, side, |_| true)
    }

    /// Own pieces that stand between `royal` and an enemy line piece (or in a lame leaper's path).
    pub(crate) fn pin_candidates(&self, pos: &Position, royal: Cell, side: Side) -> PinCandidates {
        let t = &self.tables;
        let enemy = side.opponent();
        let mut pins = PinCandidates::new();
        for p in &t.probes[enemy.index()] {
            let pc = t.probe_cells[p.base + royal as usize];
            let ray = t.span(pc.ray);
            match p.kind {
                ProbeKind::Leap => {}
                ProbeKind::Slide => {
                    let mut own = None;
                    for &c in ray {
                        if let Some(q) = pos.piece_at(c) {
                            match own {
                                None if q.side == side => own = Some(c),
                                None => break,
                                Some(o) => {
                                    if q.side == enemy && p.types.contains(q.ty) {
                                        pins.push(o);
                                    }
                                    break;
                                }
                            }
                        }
                    }
                }
                ProbeKind::Lame => {
                    if let Some(&a) = ray.first()
                        && matches!(pos.piece_at(a), Some(q) if q.side == enemy && p.types.contains(q.ty))
                    {
                        // Exactly one occupied cell on the path, and it is ours: moving it exposes.
                        let mut blockers = t.span(pc.block).iter().copied().filter(|&b| pos.piece_at(b).is_some());
                        if let (Some(b), None) = (blockers.next(), blockers.next())
                            && pos.piece_at(b).is_some_and(|q| q.side == side)
                        {
                            pins.push(b);
                        }
                    }
                }
                ProbeKind::SkipFirst => {
                    for &c in ray {
                        if pos.piece_at(c).is_some_and(|q| q.side == side) {
                            pins.push(c);
                        }
                    }
                }
            }
        }
        pins
    }

    /// Plays a move in place.
    #[inline]
    pub(crate) fn make(&self, pos: &mut Position, mv: Move) -> Undo {
        let side = pos.side_to_move();
        let mut u = Undo { moved: None, captured: None, captured_via: None, passes: 0, checks: 0 };
        if self.rules.pass_limit > 0 {
            u.passes = pos.counter(side.index());
            let passes = if is_pass(mv) { u.passes + 1 } else { 0 };
            if passes != u.passes {
                pos.set_counter(side.index(), passes);
            }
        }
        match mv.kind {
            MoveKind::Board => {
                u.moved = pos.piece_at(mv.from);
                pos.set(mv.from, None);
                if mv.via != NO_CELL && mv.via != mv.from {
                    u.captured_via = pos.piece_at(mv.via);
                    if u.captured_via.is_some() {
                        pos.set(mv.via, None);
                        self.to_hand(pos, side, u.captured_via, 1);
                    }
                }
                u.captured = pos.piece_at(mv.to);
                self.to_hand(pos, side, u.captured, 1);
                pos.set(mv.to, Some(Piece::new(mv.piece, side)));
            }
            MoveKind::Drop => {
                // The hand holds the type a captured piece becomes (a cube's first face).
                let held = self.info.pieces[mv.piece as usize].demotes_to;
                pos.set_hand(side, held, pos.hand(side, held) - 1);
                pos.set(mv.to, Some(Piece::new(mv.piece, side)));
            }
            MoveKind::Place => {
                // A placed piece comes from hand where its type can be held (a field's Gyoku).
                let held = self.info.pieces[mv.piece as usize].demotes_to;
                if self.holdable[held as usize] {
                    pos.set_hand(side, held, pos.hand(side, held) - 1);
                }
                pos.set(mv.to, Some(Piece::new(mv.piece, side)))
            }
            MoveKind::Pass => {}
        }
        pos.switch_turn();
        if self.rules.end.checks > 1 {
            // The n-th check wins: count this move's check for the mover.
            let slot = CHECK_COUNTERS + side.index();
            u.checks = pos.counter(slot);
            if self.last_royal_attacked(pos, side.opponent()) {
                pos.set_counter(slot, u.checks + 1);
            }
        }
        u
    }

    /// Takes back a move played by [`KitVariant::make`].
    #[inline]
    pub(crate) fn unmake(&self, pos: &mut Position, mv: Move, u: Undo) {
        pos.unswitch_turn();
        let side = pos.side_to_move();
        if self.rules.end.checks > 1 && pos.counter(CHECK_COUNTERS + side.index()) != u.checks {
            pos.set_counter(CHECK_COUNTERS + side.index(), u.checks);
        }
        match mv.kind {
            MoveKind::Board => {
                pos.set(mv.to, u.captured);
                self.to_hand(pos, side, u.captured, -1);
                if u.captured_via.is_some() {
                    pos.set(mv.via, u.captured_via);
                    self.to_hand(pos, side, u.captured_via, -1);
                }
                pos.set(mv.from, u.moved);
            }
            MoveKind::Drop => {
                pos.set(mv.to, None);
                let held = self.info.pieces[mv.piece as usize].demotes_to;
                pos.set_hand(side, held, pos.hand(side, held) + 1);
            }
            MoveKind::Place => {
                pos.set(mv.to, None);
                let held = self.info.pieces[mv.piece as usize].demotes_to;
                if self.holdable[held as usize] {
                    pos.set_hand(side, held, pos.hand(side, held) + 1);
                }
            }
            MoveKind::Pass => {}
        }
        if self.rules.pass_limit > 0 && pos.counter(side.index()) != u.passes {
            pos.set_counter(side.index(), u.passes);
        }
    }

    /// Adds (or with -1 takes back) a captured piece to the captor's hand, where drops are played.
    /// A friend a callback move landed on is only lifted.
    #[inline]
    fn to_hand(&self, pos: &mut Position, captor: Side, captured: Option<Piece>, delta: i32) {
        if let Some(c) = captured
            && self.rules.drops
            && c.side != captor
        {
            let ty = self.info.pieces[c.ty as usize].demotes_to;
            if self.holdable[ty as usize] {
                pos.set_hand(captor, ty, (pos.hand(captor, ty) as i32 + delta) as u8);
            }
        }
    }

    /// Whether playing `mv` leaves `side`'s royal (on `royal`) attacked. Where attacks are data
    /// ([`KitVariant::attacks_are_data`]), the probes look at the board as the move leaves it
    /// without playing it, as [`KitVariant::board_move_checks`] does: the move changes nothing
    /// else that an attack depends on.
    #[inline]
    fn exposes(&self, pos: &mut Position, mv: Move, royal: Cell, side: Side) -> bool {
        let at = if mv.kind == MoveKind::Board && mv.from == royal { mv.to } else { royal };
        if self.attacks_are_data() {
            return self.probe_attackers_on(board_after(pos, mv), at, side.opponent(), |_| true);
        }
        let u = self.make(pos, mv);
        let hit = self.attacked(pos, at, side.opponent());
        self.unmake(pos, mv, u);
        hit
    }

    /// The hooks, if `mv` (about to be played in `pos`) has an effect.
    #[inline]
    fn effect_of(&self, pos: &Position, mv: Move) -> Option<&dyn Hooks> {
        let Effects { movers, taking, .. } = self.effects?;
        let mover_runs = match movers {
            None => true,
            Some(types) => match mv.kind {
                MoveKind::Board => pos.piece_at(mv.from).is_some_and(|p| types.contains(p.ty)),
                MoveKind::Drop | MoveKind::Place => types.contains(mv.piece),
                MoveKind::Pass => false,
            },
        };
        let takes = || {
            let occupied = |c: Cell| c != NO_CELL && c != mv.from && pos.piece_at(c).is_some();
            mv.kind == MoveKind::Board && (occupied(mv.to) || occupied(mv.via))
        };
        if mover_runs && (!taking || takes()) { self.hooks.as_deref() } else { None }
    }

    /// Whether `mv`'s legality is judged after its effect (an effect that may change pieces).
    #[inline]
    fn judged_after_effect(&self, pos: &Position, mv: Move) -> bool {
        self.effects.is_some_and(|e| !e.counters_only) && self.effect_of(pos, mv).is_some()
    }

    /// Plays a move on a board, then its effect if it has one: the hook changes the position
    /// after the kit's move and may hand the turn back to the mover. Take it back with
    /// [`KitVariant::unmake_full`].
    #[inline]
    pub(crate) fn make_with_effect(&self, pos: &mut Position, mv: Move) -> Result<FullUndo, RuleError> {
        let Some(hooks) = self.effect_of(pos, mv) else { return Ok(FullUndo::Plain(self.make(pos, mv))) };
        let side = pos.side_to_move();
        let mover = match mv.kind {
            MoveKind::Board => pos.piece_at(mv.from),
            MoveKind::Drop | MoveKind::Place => Some(Piece::new(mv.piece, side)),
            MoveKind::Pass => None,
        };
        let taken_on = |c: Cell| {
            (mv.kind == MoveKind::Board && c != NO_CELL && c != mv.from)
                .then(|| pos.piece_at(c).map(|p| (c, p)))
                .flatten()
        };
        let played = Played { mv, side, mover, taken: [taken_on(mv.via), taken_on(mv.to).filter(|_| mv.to != mv.via)] };
        let before = pos.clone();
        self.make(pos, mv);
        let pieces = pieces_hash(pos);
        match hooks.after_move(pos, &before, &played) {
            Ok(_) if self.effects.is_some_and(|e| e.counters_only) && pieces_hash(pos) != pieces => {
                *pos = before;
                Err(RuleError::new(
                    "the move effect promised to change only counters (`counters_only`), but changed pieces or hands",
                ))
            }
            Ok(again) => {
                if again {
                    pos.set_side_to_move(side);
                }
                Ok(FullUndo::Snapshot(Box::new(before)))
            }
            Err(e) => {
                *pos = before;
                Err(e)
            }
        }
    }

    /// Whether `mv`, which has an effect, is illegal for `side`: after it and its effect, `side`
    /// has no royal left, or (where check must be escaped) its last royal is attacked.
    fn effect_exposes(&self, pos: &mut Position, mv: Move, side: Side) -> Result<bool, RuleError> {
        let u = self.make_with_effect(pos, mv)?;
        let mut royals = (pos.cells().iter().enumerate())
            .filter(|(_, p)| matches!(p, Some(p) if p.side == side && self.is_royal[p.ty as usize]));
        let exposed = match (royals.next(), royals.next()) {
            (None, _) => true,
            (Some((c, _)), None) => {
                self.rules.check == CheckRule::MustEscape && self.attacked(pos, c as Cell, side.opponent())
            }
            _ => false,
        };
        self.unmake_full(pos, mv, u);
        Ok(exposed)
    }

    /// `side`'s pseudo-legal board moves (only captures, and moves paths and callbacks make, for
    /// [`MoveSet::Captures`]) and where the royals stand.
    pub(crate) fn scan(
        &self,
        pos: &Position,
        out: &mut Vec<Move>,
        side: Side,
        set: MoveSet,
    ) -> Result<Royals, RuleError> {
        let mut royals = Royals::default();
        for (c, p) in pos.cells().iter().enumerate() {
            if let Some(p) = *p {
                if self.is_royal[p.ty as usize] {
                    royals.count[p.side.index()] += 1;
                    royals.cell[p.side.index()] = c as Cell;
                }
                if p.side == side {
                    self.moves_of(pos, out, side, p.ty, c as Cell, set)?;
                }
            }
        }
        Ok(royals)
    }

    /// All legal moves of the side to move on a board into `out`: none where the position declares
    /// a result (an end rule or the `game_end` hook), else [`KitVariant::gen_moves`] with the move
    /// filter. `pos` is used as scratch and restored.
    pub(crate) fn gen_legal(&self, pos: &mut Position, out: &mut Vec<Move>, set: MoveSet) -> Result<(), RuleError> {
        if self.declares_ends && self.declared_end(pos, &[])?.is_some() {
            out.clear();
            return Ok(());
        }
        self.gen_moves(pos, out, true, set)
    }

    /// The result the position declares, if any: the data's end rules (a piece reaching its zone,
    /// the n-th check), then the hooks' `outcome`. Judged from the position alone, for the side
    /// that just moved or the side to move, before any move is generated.
    /// `history` is the game's earlier positions where known (empty in perft and search).
    pub(crate) fn declared_end(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let stm = pos.side_to_move();
        let mover = stm.opponent();
        if let Some(reach) = &self.rules.end.reach {
            let zone = &self.reach_zone[mover.index()];
            for (c, p) in pos.cells().iter().enumerate() {
                if let Some(p) = p
                    && p.side == mover
                    && zone[c]
                    && self.reaches[p.ty as usize]
                    && !(reach.survives && self.attacked(pos, c as Cell, stm))
                {
                    let name = &self.info.pieces[p.ty as usize].name;
                    return Ok(Some(Outcome::win(mover, EndReason::Rule(format!("{name} reached the far zone")))));
                }
            }
        }
        match self.rules.end.checks {
            0 => {}
            1 => {
                if self.last_royal_attacked(pos, stm) {
                    return Ok(Some(Outcome::win(mover, EndReason::Rule("check".into()))));
                }
            }
            n => {
                for side in [mover, stm] {
                    if pos.counter(CHECK_COUNTERS + side.index()) >= n as u16 {
                        return Ok(Some(Outcome::win(side, EndReason::Rule(format!("check number {n}")))));
                    }
                }
            }
        }
        match &self.hooks {
            Some(h) if h.has_outcome() => h.outcome(pos, history),
            _ => Ok(None),
        }
    }

    /// The legal moves by the data rules (check, drops, limits, capture hook), and the move filter
    /// when `filter`; no declared result is judged. `pos` is used as scratch and restored.
    pub(crate) fn gen_moves(
        &self,
        pos: &mut Position,
        out: &mut Vec<Move>,
        filter: bool,
        set: MoveSet,
    ) -> Result<(), RuleError> {
        out.clear();
        let side = pos.side_to_move();
        // Every rule below judges a move on its own, except a move filter, which sees the
        // whole list: with one, captures are picked out of the legal moves at the end.
        let captures_only =
            set == MoveSet::Captures && !(filter && self.hooks.as_ref().is_some_and(|h| h.has_move_filter()));
        let royals = self.scan(pos, out, side, if captures_only { MoveSet::Captures } else { MoveSet::All })?;
        let (mine, theirs) = (side.index(), side.opponent().index());
        if self.has_royals && royals.count[mine] == 0 {
            out.clear();
            return Ok(());
        }
        if captures_only {
            out.retain(|&mv| pos.is_capture(mv));
        }
        if self.limits.any() {
            out.retain(|&mv| self.limits.allows(pos, side, mv));
        }
        if self.rules.drops && !captures_only && !pos.hand_is_empty(side) {
            self.drop_moves(pos, out, side)?;
        }
        if self.rules.pass_limit > 0 && pos.counter(mine) >= self.rules.pass_limit as u16 {
            out.retain(|&mv| !is_pass(mv));
        }
        if self.spares_protected.is_some() {
            let mut i = 0;
            while i < out.len() {
                if self.spares(pos, out[i]) {
                    out.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
        if let Some(triggers) = self.capture_triggers {
            self.apply_capture_hook(pos, out, triggers)?;
        }
        if self.effects.is_some_and(|e| !e.counters_only) && self.has_royals {
            // Moves with an effect are judged after it; the loop below sees only the others.
            let mut i = 0;
            while i < out.len() {
                let mv = out[i];
                if self.judged_after_effect(pos, mv) && self.effect_exposes(pos, mv, side)? {
                    out.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
        if self.rules.check == CheckRule::MustEscape && royals.count[mine] == 1 {
            let royal = royals.cell[mine];
            // Pins are found by the attack probes; a callback piece whose reach covers the royal
            // may pin or check along lines they do not know, so then every move is tried.
            let test_all = self.generic_attacks || self.callback_reaches(pos, royal, side.opponent());
            if test_all || self.attacked(pos, royal, side.opponent()) {
                let mut evasions = (self.attacks_are_data() && self.geometry.len() <= CellSet::CELLS)
                    .then(|| Evasions::new(&self.tables, royal, side.opponent()));
                let mut i = 0;
                while i < out.len() {
                    let mv = out[i];
                    let exposed = match &mut evasions {
                        Some(e) => e.exposes(mv, || self.exposes(pos, mv, royal, side)),
                        None => !self.judged_after_effect(pos, mv) && self.exposes(pos, mv, royal, side),
                    };
                    if exposed {
                        out.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
            } else {
                let pins = self.pin_candidates(pos, royal, side);
                let mut i = 0;
                while i < out.len() {
                    let mv = out[i];
                    let suspect = mv.kind == MoveKind::Board && (mv.from == royal || pins.contains(mv.from));
                    if suspect && !self.judged_after_effect(pos, mv) && self.exposes(pos, mv, royal, side) {
                        out.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
            }
        }
        if self.any_no_drop_mate && royals.count[theirs] == 1 {
            self.remove_drop_mates(pos, out, royals.cell[theirs], filter)?;
        }
        if filter
            && let Some(h) = &self.hooks
            && h.has_move_filter()
        {
            h.filter_moves(pos, out)?;
        }
        if set == MoveSet::Captures && !captures_only {
            out.retain(|&mv| pos.is_capture(mv));
        }
        take_held_error()
    }

    /// Asks the hooks what the mover becomes for each move that captures a trigger type.
    fn apply_capture_hook(&self, pos: &Position, out: &mut [Move], triggers: TypeSet) -> Result<(), RuleError> {
        let Some(hooks) = &self.hooks else { return Ok(()) };
        let side = pos.side_to_move();
        for mv in out.iter_mut().filter(|m| m.kind == MoveKind::Board) {
            // At most two victims, in capture order; no allocation for the many moves that
            // capture nothing the hook asked about.
            let victim =
                |c: Cell| (c != NO_CELL && c != mv.from).then(|| pos.piece_at(c)).flatten().filter(|q| q.side != side);
            let (first, second) = (victim(mv.via), victim(mv.to));
            if ![first, second].iter().flatten().any(|v| triggers.contains(v.ty)) {
                continue;
            }
            let victims: Vec<Piece> = [first, second].into_iter().flatten().collect();
            mv.piece = hooks.after_capture(pos, *mv, &victims)?;
        }
        Ok(())
    }

    /// Whether some legal move leaves the mover's last royal unattacked (or wins at once):
    /// [`CheckRule::Optional`]'s test of checkmate, where moving into check is allowed.
    pub(crate) fn some_move_escapes(&self, pos: &Position, moves: &[Move]) -> Result<bool, RuleError> {
        let mut p = pos.clone();
        let side = pos.side_to_move();
        for &mv in moves {
            let u = self.make_full(&mut p, mv)?;
            let enemy_royals = p.cells().iter().flatten().any(|q| q.side != side && self.is_royal[q.ty as usize]);
            let escapes = !enemy_royals || !self.last_royal_attacked(&p, side);
            self.unmake_full(&mut p, mv, u);
            if escapes {
                return take_held_error().map(|_| true);
            }
        }
        take_held_error().map(|_| false)
    }

    /// Uchifuzume: removes drops of `no_drop_mate` types that checkmate at once.
    /// The replies are judged with the move filter when `filter` (as the moves themselves are).
    fn remove_drop_mates(
        &self,
        pos: &mut Position,
        out: &mut Vec<Move>,
        enemy_royal: Cell,
        filter: bool,
    ) -> Result<(), RuleError> {
        let side = pos.side_to_move();
        let mut i = 0;
        let mut replies = Vec::new();
        while i < out.len() {
            let mv = out[i];
            if mv.kind == MoveKind::Drop
                && self.rules.pieces[mv.piece as usize].no_drop_mate
                && self.gives_check_from(pos, mv.piece, side, mv.to, enemy_royal)
            {
                // The replies as the data rules allow them: a declared result (a check that wins)
                // does not make the drop a mate.
                let u = self.make_full(pos, mv)?;
                let r = self.gen_moves(pos, &mut replies, filter, MoveSet::All);
                self.unmake_full(pos, mv, u);
                r?;
                if replies.is_empty() {
                    out.swap_remove(i);
                    continue;
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Whether a piece of `ty` on `from` would attack `target` in `pos` (with `from` occupied by it).
    pub(crate) fn gives_check_from(&self, pos: &Position, ty: u8, side: Side, from: Cell, target: Cell) -> bool {
        let t = &self.tables;
        t.gens(ty, side, from).iter().any(|g| {
            g.captures
                && t.span(g.block).iter().all(|&b| pos.piece_at(b).is_none())
                && t.span(g.ray).iter().find(|&&c| pos.piece_at(c).is_some()) == Some(&target)
        })
    }

    /// Whether a drop's only effect on attacks is the dropped piece's own (and the turn passes):
    /// attacks are data ([`KitVariant::attacks_are_data`]) and check must be escaped, so the
    /// enemy royal stands unattacked before the drop. Then [`KitVariant::gives_check_from`] is the
    /// whole answer to "does this drop give check".
    pub(crate) fn drops_only_add_attacks(&self) -> bool {
        self.attacks_are_data() && self.rules.check == CheckRule::MustEscape
    }

    /// Whether every attack is a data move the probes know and taking a piece does nothing
    /// else: no move effects, no open field or cubes, no paths, no movement callbacks and no
    /// protected royals.
    pub(crate) fn attacks_are_data(&self) -> bool {
        self.effects.is_none()
            && self.field.is_none()
            && !self.has_cubes
            && !self.generic_attacks
            && self.reach.is_none()
            && self.spares_protected.is_none()
    }

    /// Whether `side` has exactly one royal and it is attacked: only a last royal can be in check.
    pub(crate) fn last_royal_attacked(&self, pos: &Position, side: Side) -> bool {
        self.lone_royal(pos, side).is_some_and(|c| self.attacked(pos, c, side.opponent()))
    }

    /// The cell of `side`'s royal where it has exactly one.
    ///
    /// A search asks this for one position many times in a row (is a drop a check? one call per
    /// drop), and the answer is a scan of the whole board, so the last answer is kept per thread:
    /// asked again for the same variant build, position hash and side, and the cell still holds that
    /// side's royal, it is the answer without a scan.
    pub(crate) fn lone_royal(&self, pos: &Position, side: Side) -> Option<Cell> {
        let key = (self.id, pos.hash(), side.index());
        let is_royal_of_side =
            |c: Cell| matches!(pos.piece_at(c), Some(p) if p.side == side && self.is_royal[p.ty as usize]);
        if let Some((k, c)) = LAST_LONE_ROYAL.get()
            && k == key
            && is_royal_of_side(c)
        {
            return Some(c);
        }
        let mut royals = (pos.cells().iter().enumerate())
            .filter(|(_, p)| matches!(p, Some(p) if p.side == side && self.is_royal[p.ty as usize]));
        let found = match (royals.next(), royals.next()) {
            (Some((c, _)), None) => Some(c as Cell),
            _ => None,
        };
        if let Some(c) = found {
            LAST_LONE_ROYAL.set(Some((key, c)));
        }
        found
    }

    /// Perft on a board with make/unmake and one reused buffer per ply.
    pub(crate) fn board_perft(&self, pos: &mut Position, depth: u32, bufs: &mut [Vec<Move>]) -> Result<u64, RuleError> {
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
        self.gen_legal(pos, buf, MoveSet::All)?;
        if depth <= 1 {
            return Ok(buf.len() as u64);
        }
        let mut nodes = 0;
        let effects = self.effects.is_some();
        for i in 0..buf.len() {
            let mv = buf[i];
            if effects {
                let u = self.make_with_effect(pos, mv)?;
                let n = self.board_perft(pos, depth - 1, rest);
                self.unmake_full(pos, mv, u);
                nodes += n?;
            } else {
                let u = self.make(pos, mv);
                let n = self.board_perft(pos, depth - 1, rest);
                self.unmake(pos, mv, u);
                nodes += n?;
            }
        }
        Ok(nodes)
    }
}
