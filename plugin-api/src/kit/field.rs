//! Play on an open field (Ki Shogi): royal placement, the royals' fixed distance, cube drops next to
//! the dropper's supporters, moved pieces that must end supported, and the end of each turn — the
//! variant's `stranded` hook for unsupported pieces and, on an unbounded field, re-centring.
//!
//! Speed: the hook is Rhai in a script, so the common move must never reach it. Legality asks the
//! support primitive (a scan of the few pieces on the field); for a move that strands something it
//! bounds what the end of the turn can take (the hook may capture only the mover's stranded pieces,
//! which only opens lines) and calls the hook only when that bound cannot decide. A played move
//! calls it when something is stranded or the mover has pieces under grace. Everything else is the
//! kit's tables and make/unmake, worked over the few occupied cells instead of the whole box:
//! attacks and pins look up each enemy piece by its offset to the royal (walking only the ones that
//! could reach it), a quiet node's drops are judged a cell at a time by the faces that would check
//! from there, and perft hands each node its occupied cells and, after a move that stranded
//! nothing, the knowledge that nothing is stranded.

use super::compiled::KitVariant;
use super::field_tables::FieldTables;
use super::movegen::{FullUndo, MoveSet, PinCandidates};
use super::support::MAX_FIELD_PIECES;
use crate::model::error::RuleError;
use crate::model::field::GRACE;
use crate::model::geometry::{Cell, NO_CELL};
use crate::model::moves::{Move, MoveKind};
use crate::model::piece::PieceId;
use crate::model::position::Position;
use crate::model::side::Side;

/// The field as the side to move finds it: the occupied cells and both royals' cells.
struct Scan {
    occ: Cells,
    /// The side to move's royal (`NO_CELL` while in hand).
    mine: Cell,
    /// The opponent's royal (`NO_CELL` while in hand).
    theirs: Cell,
    /// Some piece is unsupported already (under grace).
    stranded: bool,
    /// The side to move's royal is attacked now.
    in_check: bool,
    /// Own pieces whose leaving might expose the royal (see `pin_candidates`).
    pins: Option<PinCandidates>,
}

/// What a node knows of its field before generating moves: every occupied cell, and whether it is
/// known that nothing is stranded (the move that led here was played through and left every piece
/// supported; otherwise support is computed when needed).
pub(crate) struct FieldNode {
    occ: Cells,
    settled: bool,
}

impl FieldNode {
    /// The field of `pos`, by a scan of the whole box.
    pub(crate) fn scan(pos: &Position) -> Result<FieldNode, RuleError> {
        let mut occ = Cells::EMPTY;
        for (c, p) in pos.cells().iter().enumerate() {
            if p.is_some() {
                occ.push(c as Cell)?;
            }
        }
        Ok(FieldNode { occ, settled: false })
    }
}

impl Scan {
    /// Out of check with every piece supported: a drop (which strands nothing and can only block
    /// lines) is legal exactly when it gives no check.
    fn quiet(&self) -> bool {
        !self.in_check && !self.stranded
    }
}

/// Cells of pieces on the field, kept on the stack: the hot path scans the field once per
/// position and once per played move, and must not allocate for it.
#[derive(Clone, Copy)]
struct Cells {
    cells: [Cell; MAX_FIELD_PIECES],
    len: usize,
}

impl Cells {
    const EMPTY: Cells = Cells { cells: [NO_CELL; MAX_FIELD_PIECES], len: 0 };

    /// Support is computed over the pieces as a small bit set: a field holds at most
    /// [`MAX_FIELD_PIECES`] (Ki Shogi has 8 cubes); more is an error, not a wrong answer.
    fn push(&mut self, c: Cell) -> Result<(), RuleError> {
        let slot = self
            .cells
            .get_mut(self.len)
            .ok_or_else(|| RuleError::new(format!("an open field holds at most {MAX_FIELD_PIECES} pieces")))?;
        *slot = c;
        self.len += 1;
        Ok(())
    }
}

impl std::ops::Deref for Cells {
    type Target = [Cell];
    fn deref(&self) -> &[Cell] {
        &self.cells[..self.len]
    }
}

/// A move under test and what is known about it before it is made.
struct Candidate {
    mv: Move,
    /// Where the mover's royal stands after the move.
    royal: Cell,
    royal_moves: bool,
    /// The move may leave pieces other than the moved one unsupported.
    others_may_strand: bool,
    /// The move itself (before any end-of-turn capture) may leave the mover's royal attacked.
    exposes: bool,
}

impl KitVariant {
    /// All legal moves of the side to move on a field. `pos` is scratch and restored.
    pub(crate) fn field_legal(
        &self,
        f: &FieldTables,
        pos: &mut Position,
        out: &mut Vec<Move>,
    ) -> Result<(), RuleError> {
        if self.declares_ends && self.declared_end(pos, &[])?.is_some() {
            out.clear();
            return Ok(());
        }
        self.field_moves(f, pos, out)
    }

    /// [`KitVariant::field_legal`] without asking whether the position declares a result.
    pub(crate) fn field_moves(
        &self,
        f: &FieldTables,
        pos: &mut Position,
        out: &mut Vec<Move>,
    ) -> Result<(), RuleError> {
        let node = FieldNode::scan(pos)?;
        self.field_legal_at(f, pos, &node, out)
    }

    /// [`KitVariant::field_legal`] with the field already known (handed down by perft).
    fn field_legal_at(
        &self,
        f: &FieldTables,
        pos: &mut Position,
        node: &FieldNode,
        out: &mut Vec<Move>,
    ) -> Result<(), RuleError> {
        out.clear();
        let side = pos.side_to_move();
        let occ = node.occ;
        let mut royal = [NO_CELL; 2];
        for &c in occ.iter() {
            let p = pos.piece_at(c).expect("occupied");
            if p.ty == f.royal {
                royal[p.side.index()] = c;
            }
        }
        let stranded = !node.settled && f.support.any_unsupported(pos, &occ);
        let mine = royal[side.index()];
        let in_check = mine != NO_CELL && self.field_attacked(f, pos, &occ, mine, side.opponent());
        let pins = (mine != NO_CELL && !in_check).then(|| self.field_pins(f, pos, &occ, mine, side));
        let scan = Scan { occ, mine, theirs: royal[side.opponent().index()], stranded, in_check, pins };
        if pos.hand(side, f.royal) > 0 {
            self.placements(f, pos, out, scan.theirs);
            return self.retain_legal(f, pos, out, 0, &scan);
        }
        if scan.mine == NO_CELL {
            return Ok(());
        }
        for &c in scan.occ.iter() {
            let p = pos.piece_at(c).expect("occupied");
            if p.side == side {
                self.moves_of(pos, out, side, p.ty, c, MoveSet::All)?;
            }
        }
        self.retain_legal(f, pos, out, 0, &scan)?;
        let drops = out.len();
        self.field_drops(f, pos, out, &scan);
        if !scan.quiet() {
            self.retain_legal(f, pos, out, drops, &scan)?;
        }
        Ok(())
    }

    /// Keeps the legal moves among `out[from..]`.
    fn retain_legal(
        &self,
        f: &FieldTables,
        pos: &mut Position,
        out: &mut Vec<Move>,
        from: usize,
        scan: &Scan,
    ) -> Result<(), RuleError> {
        let mut after = Cells::EMPTY;
        let mut i = from;
        while i < out.len() {
            if self.field_move_ok(f, pos, out[i], scan, &mut after)? {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
        Ok(())
    }

    /// Whether `target` is attacked by a piece of `by`: on a field of a few pieces, each of `by`'s
    /// pieces (`occ`: every occupied cell) is looked up by its offset to the target, and only the
    /// few that could reach it on an empty field are walked.
    fn field_attacked(&self, f: &FieldTables, pos: &Position, occ: &[Cell], target: Cell, by: Side) -> bool {
        if self.generic_attacks {
            return self.attacked(pos, target, by);
        }
        let (tx, ty) = f.support.xy(target);
        occ.iter().any(|&c| {
            let p = pos.piece_at(c).expect("occupied");
            let (x, y) = f.support.xy(c);
            p.side == by
                && c != target
                && f.reach.contains(p.ty, by, tx - x, ty - y)
                && self.gives_check_from(pos, p.ty, by, c, target)
        })
    }

    /// Own pieces whose leaving alone could open an enemy capture line to `royal` (out of check):
    /// for each enemy piece that could reach the royal on an empty field, the one own piece that
    /// stands alone in its way.
    fn field_pins(&self, f: &FieldTables, pos: &Position, occ: &[Cell], royal: Cell, side: Side) -> PinCandidates {
        if self.generic_attacks {
            return self.pin_candidates(pos, royal, side);
        }
        let (t, enemy, (rx, ry)) = (&self.tables, side.opponent(), f.support.xy(royal));
        let mut pins = PinCandidates::new();
        for &e in occ {
            let p = pos.piece_at(e).expect("occupied");
            let (x, y) = f.support.xy(e);
            if p.side != enemy || !f.reach.contains(p.ty, enemy, rx - x, ry - y) {
                continue;
            }
            for g in t.gens(p.ty, enemy, e).iter().filter(|g| g.captures) {
                let ray = t.span(g.ray);
                let Some(k) = ray.iter().position(|&c| c == royal) else { continue };
                let mut blockers = t.span(g.block).iter().chain(&ray[..k]).filter(|&&c| pos.piece_at(c).is_some());
                if let (Some(&b), None) = (blockers.next(), blockers.next())
                    && pos.piece_at(b).is_some_and(|q| q.side == side)
                {
                    pins.push(b);
                }
            }
        }
        pins
    }

    /// Perft on a field: each node's occupied cells (and, after a quiet move, that nothing is
    /// stranded) come from its parent instead of a scan of the whole box.
    pub(crate) fn field_perft(
        &self,
        f: &FieldTables,
        pos: &mut Position,
        node: &FieldNode,
        depth: u32,
        bufs: &mut [Vec<Move>],
    ) -> Result<u64, RuleError> {
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
        if self.declares_ends && self.declared_end(pos, &[])?.is_some() {
            return Ok(0);
        }
        self.field_legal_at(f, pos, node, buf)?;
        if depth <= 1 {
            return Ok(buf.len() as u64);
        }
        let mut nodes = 0;
        for i in 0..buf.len() {
            let mv = buf[i];
            let (u, child) = self.make_on_field(f, pos, mv, &node.occ)?;
            let n = self.field_perft(f, pos, &child, depth - 1, rest);
            self.unmake_full(pos, mv, u);
            nodes += n?;
        }
        Ok(nodes)
    }

    /// The royal's placement: the first anywhere (an unbounded field: its centre), the second at
    /// exactly the placement distance from the first.
    fn placements(&self, f: &FieldTables, pos: &Position, out: &mut Vec<Move>, theirs: Cell) {
        let free = |c: Cell| pos.piece_at(c).is_none();
        if theirs != NO_CELL {
            let s = &f.support;
            let ring = self.geometry.cells().filter(|&c| s.distance(c, theirs) == f.placement_distance);
            out.extend(ring.filter(|&c| free(c)).map(|c| Move::place(f.royal, c)));
        } else if f.unbounded {
            out.extend([f.centre].into_iter().filter(|&c| free(c)).map(|c| Move::place(f.royal, c)));
        } else {
            out.extend(self.geometry.cells().filter(|&c| free(c)).map(|c| Move::place(f.royal, c)));
        }
    }

    /// Drops: a relay cube's faces within reach of the own royal; any other face next to the own
    /// royal or an own active relay; never next to the enemy royal (checks are tested later).
    fn field_drops(&self, f: &FieldTables, pos: &Position, out: &mut Vec<Move>, scan: &Scan) {
        let (s, side, mine, theirs) = (&f.support, pos.side_to_move(), scan.mine, scan.theirs);
        let allowed = |c: Cell| pos.piece_at(c).is_none() && (theirs == NO_CELL || s.distance(c, theirs) > 1);
        // The supporters a drop may stand next to: the royal, then the active relays (a bit set
        // over the field's cells, none without relays).
        let relays = s.active_relays_of(pos, &scan.occ, side);
        let supporters = || {
            std::iter::once(mine).chain((0..scan.occ.len()).filter(move |&i| relays >> i & 1 == 1).map(|i| scan.occ[i]))
        };
        for (hand_type, faces, relay) in &f.drops {
            if pos.hand(side, *hand_type) == 0 {
                continue;
            }
            // In a quiet node only the legal drops: the faces that give no check from the cell.
            let quiet = scan.quiet() && theirs != NO_CELL;
            let mut add = |c: Cell| {
                if quiet {
                    let ((x, y), (ex, ey)) = (s.xy(c), s.xy(theirs));
                    let reaching = f.reach.at(side, ex - x, ey - y);
                    let checks =
                        |face: PieceId| reaching.contains(face) && self.gives_check_from(pos, face, side, c, theirs);
                    out.extend(faces.iter().filter(|&&face| !checks(face)).map(|&face| Move::drop(face, c)));
                } else {
                    out.extend(faces.iter().map(|&face| Move::drop(face, c)));
                }
            };
            if *relay {
                // Every free cell within reach of the royal, in index order.
                let (r, (x, y)) = (s.reach(), s.xy(mine));
                for dy in -r..=r {
                    for dx in -r..=r {
                        if let Some(c) = self.geometry.cell(x + dx, y + dy, 0)
                            && c != mine
                            && allowed(c)
                        {
                            add(c);
                        }
                    }
                }
                continue;
            }
            // Each cell once: a neighbour of a supporter is skipped when it is next to an earlier one.
            for (k, src) in supporters().enumerate() {
                for c in s.neighbours(src) {
                    if allowed(c) && !supporters().take(k).any(|e| s.distance(c, e) == 1) {
                        add(c);
                    }
                }
            }
        }
    }

    /// Whether a generated move is legal: the royals' distance, the moved piece's support, no
    /// check by a drop, and the mover's royal safe after the end of the turn.
    fn field_move_ok(
        &self,
        f: &FieldTables,
        pos: &mut Position,
        mv: Move,
        scan: &Scan,
        after: &mut Cells,
    ) -> Result<bool, RuleError> {
        let (side, mine, theirs) = (pos.side_to_move(), scan.mine, scan.theirs);
        let royal_moves = mv.kind == MoveKind::Board && mv.from == mine || mv.kind == MoveKind::Place;
        if royal_moves
            && mv.kind == MoveKind::Board
            && f.royal_distance > 0
            && theirs != NO_CELL
            && f.support.distance(mv.to, theirs) != f.royal_distance
        {
            return Ok(false);
        }
        if mv.kind == MoveKind::Drop && theirs != NO_CELL {
            let ((x, y), (ex, ey)) = (f.support.xy(mv.to), f.support.xy(theirs));
            if f.reach.contains(mv.piece, side, ex - x, ey - y)
                && self.gives_check_from(pos, mv.piece, side, mv.to, theirs)
            {
                return Ok(false);
            }
        }
        // A drop strands nothing (its cell is next to a supporter, and a new piece takes no support
        // away) and can only block lines: out of check, with nothing stranded, it is legal.
        if mv.kind == MoveKind::Drop && scan.quiet() {
            return Ok(true);
        }
        let pinned = scan.in_check || scan.pins.as_ref().is_none_or(|p| p.contains(mv.from));
        if mv.kind == MoveKind::Board && !royal_moves && mv.to != theirs && !scan.stranded && !f.support.any_relay() {
            // Without relays a piece is supported exactly next to a royal, and moving it strands
            // nothing else: judged without making it, unless it may expose its royal.
            let supported =
                f.support.distance(mv.to, mine) <= 1 || theirs != NO_CELL && f.support.distance(mv.to, theirs) <= 1;
            if !supported && f.moves_end_supported {
                return Ok(false);
            }
            if supported && !pinned {
                return Ok(true);
            }
        }
        after.len = 0;
        for &c in scan.occ.iter().filter(|&&c| c != mv.from && c != mv.to) {
            after.push(c)?;
        }
        after.push(mv.to)?;
        let royal = if royal_moves { mv.to } else { mine };
        // Only royals and relays support others: moving or dropping any other piece can strand no
        // piece but itself, unless a relay is captured or something was stranded already.
        let relay_involved = |c: Cell| pos.piece_at(c).is_some_and(|p| f.support.is_relay(p.ty));
        let others_may_strand = scan.stranded
            || royal_moves
            || mv.kind == MoveKind::Board && (relay_involved(mv.from) || relay_involved(mv.to));
        // Out of check, a piece that is no pin candidate cannot expose its royal by leaving.
        let exposes = royal_moves || mv.kind != MoveKind::Board || pinned;
        let cand = Candidate { mv, royal, royal_moves, others_may_strand, exposes };
        let u = self.make(pos, mv);
        let ok = self.field_after_ok(f, pos, &cand, after);
        self.unmake(pos, mv, u);
        ok
    }

    /// The legality tests made in the position after the move (`after`: its occupied cells).
    fn field_after_ok(
        &self,
        f: &FieldTables,
        pos: &mut Position,
        cand: &Candidate,
        after: &[Cell],
    ) -> Result<bool, RuleError> {
        let &Candidate { mv, royal, royal_moves, others_may_strand, exposes } = cand;
        let s = &f.support;
        let enemy = pos.side_to_move();
        let moved_unsupported = mv.kind == MoveKind::Board && !royal_moves && !s.is_supported(pos, after, mv.to);
        if moved_unsupported && f.moves_end_supported {
            return Ok(false);
        }
        let stranding = moved_unsupported || others_may_strand && s.any_unsupported(pos, after);
        if !stranding || !self.hooks.as_ref().is_some_and(|h| h.has_stranding()) {
            return Ok(!exposes || !self.field_attacked(f, pos, after, royal, enemy));
        }
        // Some piece is stranded: the end of the turn may take some of the mover's pieces (never the
        // opponent's), which can only open lines to its royal. Attacked with none taken: illegal;
        // safe with every piece it could lose taken: legal; only in between ask the hook.
        if exposes && self.field_attacked(f, pos, after, royal, enemy) {
            return Ok(false);
        }
        let losses = s.worst_losses(pos, after, enemy.opponent());
        if losses.is_empty() {
            return Ok(true);
        }
        // The worst end of the turn, tried in place: the losses lifted, then put back.
        let mut kept = Cells::EMPTY;
        for &c in after.iter().filter(|c| !losses.contains(c)) {
            kept.push(c)?;
        }
        let lifted: Vec<_> = losses.iter().map(|&c| (c, pos.piece_at(c))).collect();
        for &c in &losses {
            pos.set(c, None);
        }
        let safe = !self.field_attacked(f, pos, &kept, royal, enemy);
        for (c, p) in lifted {
            pos.set(c, p);
        }
        if safe {
            return Ok(true);
        }
        let mut end = pos.clone();
        self.end_turn(&mut end)?;
        Ok(!self.attacked(&end, royal, enemy))
    }

    /// The end of the turn just played in `pos` (whose side to move is the next player): the
    /// variant's stranding hook, if it has one.
    fn end_turn(&self, pos: &mut Position) -> Result<(), RuleError> {
        let (Some(f), Some(h)) = (&self.field, &self.hooks) else { return Ok(()) };
        if !h.has_stranding() {
            return Ok(());
        }
        pos.unswitch_turn();
        let r = h.stranded(pos, &f.support);
        pos.switch_turn();
        r
    }

    /// Plays a move with everything that follows it: on a field the end of the turn and
    /// re-centring. Take it back with [`KitVariant::unmake_full`].
    #[inline]
    pub(crate) fn make_full(&self, pos: &mut Position, mv: Move) -> Result<FullUndo, RuleError> {
        let Some(f) = &self.field else { return self.make_with_effect(pos, mv) };
        let node = FieldNode::scan(pos)?;
        self.make_on_field(f, pos, mv, &node.occ).map(|(u, _)| u)
    }

    /// [`KitVariant::make_full`] on a field whose occupied cells before the move are `occ`; also
    /// returns what the next node knows of its field.
    fn make_on_field(
        &self,
        f: &FieldTables,
        pos: &mut Position,
        mv: Move,
        occ: &[Cell],
    ) -> Result<(FullUndo, FieldNode), RuleError> {
        let u = self.make(pos, mv);
        let mover = pos.side_to_move().opponent();
        // The cells still occupied after the move (a capture's victim cell stays: the captor is
        // on it), and the moved or dropped piece's.
        let mut after = Cells::EMPTY;
        let mut listed = occ.iter().filter(|&&c| pos.piece_at(c).is_some()).try_for_each(|&c| after.push(c));
        if listed.is_ok() && !occ.contains(&mv.to) && pos.piece_at(mv.to).is_some() {
            listed = after.push(mv.to);
        }
        if let Err(e) = listed {
            self.unmake(pos, mv, u);
            return Err(e);
        }
        let marked = |c: &Cell| pos.piece_at(*c).is_some_and(|p| p.side == mover && p.flags & GRACE != 0);
        let stranding = after.iter().any(marked) || f.support.any_unsupported(pos, &after);
        let first_royal = |pos: &Position, occ: &[Cell]| {
            occ.iter().copied().find(|&c| pos.piece_at(c).is_some_and(|p| p.ty == f.royal && p.side == Side::First))
        };
        let off_centre = f.unbounded && first_royal(pos, &after).is_some_and(|c| c != f.centre);
        if !stranding && !off_centre {
            return Ok((FullUndo::Plain(u), FieldNode { occ: after, settled: true }));
        }
        let mut before = pos.clone();
        self.unmake(&mut before, mv, u);
        let mut ended = || -> Result<FieldNode, RuleError> {
            if stranding {
                self.end_turn(pos)?;
            }
            let node = FieldNode::scan(pos)?;
            if let Some(r) = first_royal(pos, &node.occ).filter(|&c| f.unbounded && c != f.centre) {
                self.recentre(f, pos, r)?;
                return FieldNode::scan(pos);
            }
            Ok(node)
        };
        match ended() {
            Ok(node) => Ok((FullUndo::Snapshot(Box::new(before)), node)),
            Err(e) => {
                *pos = before;
                Err(e)
            }
        }
    }

    /// Takes back [`KitVariant::make_full`].
    #[inline]
    pub(crate) fn unmake_full(&self, pos: &mut Position, mv: Move, u: FullUndo) {
        match u {
            FullUndo::Plain(u) => self.unmake(pos, mv, u),
            FullUndo::Snapshot(before) => *pos = *before,
        }
    }

    /// Moves every piece so that the first player's royal (on `royal`) stands on the centre.
    fn recentre(&self, f: &FieldTables, pos: &mut Position, royal: Cell) -> Result<(), RuleError> {
        let g = &self.geometry;
        let ((cx, cy, _), (rx, ry, _)) = (g.coords(f.centre), g.coords(royal));
        let pieces: Vec<(Cell, crate::model::piece::Piece)> =
            (0..g.len() as Cell).filter_map(|c| pos.piece_at(c).map(|p| (c, p))).collect();
        for &(c, _) in &pieces {
            pos.set(c, None);
        }
        for (c, p) in pieces {
            let (x, y, _) = g.coords(c);
            let to = g
                .cell(x + cx - rx, y + cy - ry, 0)
                .ok_or_else(|| RuleError::new("a piece left the unbounded field's box (the cluster grew too wide)"))?;
            pos.set(to, Some(p));
        }
        Ok(())
    }
}
