//! Legal move generation on bitboards, for listing moves and for counting them.
//!
//! Legality is decided before a move exists, as engines do: the checkers and the line they attack
//! along give the cells a non-royal move must land on, the pinned pieces and their lines restrict
//! those pieces, and royal moves are tested against the enemy's attacks with the royal lifted off
//! the board. The generator hands each piece's whole target set to a [`Sink`]: [`List`] turns it
//! into moves (with promotion choices), [`Count`] only counts them with popcounts, which is how
//! perft bulk-counts its last ply without making a single move.

use crate::model::geometry::Cell;
use crate::model::moves::Move;
use crate::model::side::Side;

use super::bits::Bits;
use super::board::Board;
use super::compiled::BitboardVariant;
use super::tables::{MAX_TYPES, Tables};

/// Receives the moves of one position, a target set at a time.
pub trait Sink<B: Bits> {
    /// The cells a piece of `ty` on `from` may move to (promotion choices still to be added).
    fn board(&mut self, v: &BitboardVariant<B>, us: Side, ty: usize, from: usize, targets: B);
    /// The cells a piece of `ty` may be dropped on.
    fn drops(&mut self, ty: usize, targets: B);
}

/// Collects the moves.
pub struct List<'a>(pub &'a mut Vec<Move>);

impl<B: Bits> Sink<B> for List<'_> {
    #[inline(always)]
    fn board(&mut self, v: &BitboardVariant<B>, us: Side, ty: usize, from: usize, targets: B) {
        let out = &mut *self.0;
        let (from_cell, piece) = (from as Cell, ty as u8);
        let Some(promoted) = v.promotes_to[ty] else {
            out.extend(targets.cells().map(|to| Move::board(from_cell, to as Cell, piece)));
            return;
        };
        let promo = v.promotion_cells(us, from, targets);
        out.extend((targets & !promo).cells().map(|to| Move::board(from_cell, to as Cell, piece)));
        let may_stay = v.may_decline(ty, us);
        for to in promo.cells() {
            if may_stay.has(to) {
                out.push(Move::board(from_cell, to as Cell, piece));
            }
            out.push(Move::board(from_cell, to as Cell, promoted));
        }
    }

    #[inline]
    fn drops(&mut self, ty: usize, targets: B) {
        self.0.extend(targets.cells().map(|to| Move::drop(ty as u8, to as Cell)));
    }
}

/// Counts the moves without making any.
#[derive(Debug, Default)]
pub struct Count(pub u64);

impl<B: Bits> Sink<B> for Count {
    #[inline(always)]
    fn board(&mut self, v: &BitboardVariant<B>, us: Side, ty: usize, from: usize, targets: B) {
        self.0 += targets.count() as u64;
        if v.promotes_to[ty].is_some() {
            // Each promotion cell is one promoting move, plus one that declines where allowed.
            let promo = v.promotion_cells(us, from, targets);
            self.0 += (promo & v.may_decline(ty, us)).count() as u64;
        }
    }

    #[inline]
    fn drops(&mut self, _ty: usize, targets: B) {
        self.0 += targets.count() as u64;
    }
}

/// The attacking side's pieces, arranged for attack tests: built once per position.
struct Enemy<B> {
    /// Every cell an enemy step or leap reaches (steps do not depend on what stands between).
    step_map: B,
    /// Per step group: the enemy pieces of its types, to name checkers.
    steppers: [B; MAX_TYPES],
    /// Per direction: the enemy pieces that slide that way.
    sliders: [B; 8],
}

/// What threatens the royal: checkers, the cells between it and a sliding checker (where a piece
/// may interpose), and pinned pieces with the line each may still move along (to and including
/// the pinner).
struct Threats<B> {
    checkers: B,
    between: B,
    pinned: B,
    lines: [(usize, B); 8],
    pins: usize,
}

impl<B: Bits> Threats<B> {
    #[inline]
    fn line(&self, c: usize) -> B {
        self.lines[..self.pins].iter().find(|&&(p, _)| p == c).map_or(B::EMPTY, |&(_, l)| l)
    }
}

impl<B: Bits> Enemy<B> {
    #[inline(always)]
    fn new(t: &Tables<B>, b: &Board<B>, them: Side) -> Enemy<B> {
        let theirs = b.by_side[them.index()];
        let mut e = Enemy { step_map: B::EMPTY, steppers: [B::EMPTY; MAX_TYPES], sliders: [B::EMPTY; 8] };
        for ty in 0..t.types {
            let pieces = b.by_type[ty] & theirs;
            if pieces.is_empty() {
                continue;
            }
            let mut dirs = t.slide_dirs(ty, them);
            while dirs != 0 {
                e.sliders[dirs.trailing_zeros() as usize] |= pieces;
                dirs &= dirs - 1;
            }
            if let Some(g) = t.group_of[ty] {
                e.steppers[g as usize] |= pieces;
                let table = t.step_table(ty, them);
                for c in pieces.cells() {
                    e.step_map |= table[c];
                }
            }
        }
        e
    }

    /// Whether any enemy piece attacks `c` with the board occupied as `occ`.
    #[inline(always)]
    fn attacks(&self, t: &Tables<B>, c: usize, occ: B) -> bool {
        if self.step_map.has(c) {
            return true;
        }
        for d in 0..8 {
            // A slider moving in direction d is the first piece seen from `c` looking the other way.
            let e = d ^ 4;
            let ray = t.ray(c, e);
            let sliders = self.sliders[d];
            if !(ray & sliders).is_empty() && sliders.has(Tables::<B>::first(e, ray & occ)) {
                return true;
            }
        }
        false
    }

    /// Checkers and pins of the royal on `king` (`us` is the royal's side, `own` its pieces).
    #[inline(always)]
    fn threats(&self, t: &Tables<B>, king: usize, occ: B, own: B, us: Side) -> Threats<B> {
        let mut th =
            Threats { checkers: B::EMPTY, between: B::EMPTY, pinned: B::EMPTY, lines: [(0, B::EMPTY); 8], pins: 0 };
        if self.step_map.has(king) {
            // An enemy stepper attacks the royal exactly from where the same type of ours would
            // step to from the royal's cell.
            for (g, group) in t.step_groups.iter().enumerate() {
                th.checkers |= t.steps(group.rep, us, king) & self.steppers[g];
            }
        }
        for e in 0..8 {
            let sliders = self.sliders[e ^ 4];
            let ray = t.ray(king, e);
            if (ray & sliders).is_empty() {
                continue;
            }
            let first = Tables::<B>::first(e, ray & occ);
            if sliders.has(first) {
                th.checkers |= B::bit(first);
                th.between |= ray ^ t.ray(first, e) ^ B::bit(first);
            } else if own.has(first) {
                // The slider stands beyond `first`: is it the next piece?
                let pinner = Tables::<B>::first(e, t.ray(first, e) & occ);
                if sliders.has(pinner) {
                    th.pinned |= B::bit(first);
                    th.lines[th.pins] = (first, ray ^ t.ray(pinner, e));
                    th.pins += 1;
                }
            }
        }
        th
    }
}

impl<B: Bits> BitboardVariant<B> {
    /// The royal pieces of `side`.
    #[inline]
    pub(crate) fn royals(&self, b: &Board<B>, side: Side) -> B {
        let mut types = self.royal_types;
        let mut bb = B::EMPTY;
        while types != 0 {
            bb |= b.by_type[types.trailing_zeros() as usize];
            types &= types - 1;
        }
        bb & b.by_side[side.index()]
    }

    /// Of a move's targets, those where it may promote: all of them when it starts in the zone.
    #[inline]
    fn promotion_cells(&self, us: Side, from: usize, targets: B) -> B {
        let zone = self.t.zone[us.index()];
        if zone.has(from) { targets } else { targets & zone }
    }

    /// Where a promotable piece may decline to promote: nowhere when promotion is mandatory,
    /// otherwise wherever it could still move.
    #[inline]
    fn may_decline(&self, ty: usize, us: Side) -> B {
        if self.mandatory { B::EMPTY } else { !self.t.dead(ty, us) }
    }

    /// Whether any royal of `side` is attacked.
    pub(crate) fn royal_attacked(&self, b: &Board<B>, side: Side) -> bool {
        let enemy = Enemy::new(&self.t, b, side.opponent());
        let occ = b.occupied();
        self.royals(b, side).cells().any(|r| enemy.attacks(&self.t, r, occ))
    }

    /// Every legal move of the side to move, into `sink`. Always inlined, so that perft's
    /// `popcnt` build of it really uses the instruction.
    #[inline(always)]
    pub(crate) fn generate<S: Sink<B>>(&self, b: &Board<B>, sink: &mut S) {
        let t = &self.t;
        let us = b.stm;
        let own = b.by_side[us.index()];
        let occ = b.occupied();
        let empty = t.all & !occ;
        let royals = self.royals(b, us);
        match royals.count() {
            0 if self.royal_types != 0 => return,
            1 => {}
            // No single royal to keep safe: every move the pieces have (as the kit).
            _ => {
                for ty in 0..self.types {
                    for from in b.pieces(ty, us).cells() {
                        sink.board(self, us, ty, from, t.attacks(ty, us, from, occ) & !own);
                    }
                }
                self.drops(b, sink, empty);
                return;
            }
        }
        let king = royals.lowest();
        let enemy = Enemy::new(t, b, us.opponent());
        let threats = enemy.threats(t, king, occ, own, us);

        let king_ty = b.type_at(king);
        let lifted = occ ^ B::bit(king);
        let mut safe = B::EMPTY;
        for to in (t.attacks(king_ty, us, king, occ) & !own).cells() {
            if !enemy.attacks(t, to, lifted) {
                safe |= B::bit(to);
            }
        }
        sink.board(self, us, king_ty, king, safe);

        let (targets, drop_cells) = match threats.checkers.count() {
            0 => (!own, empty),
            1 => (threats.checkers | threats.between, threats.between),
            _ => return,
        };
        let others = own ^ B::bit(king);
        for ty in 0..self.types {
            let pieces = b.by_type[ty] & others;
            if pieces.is_empty() {
                continue;
            }
            let (steps, dirs) = (t.step_table(ty, us), t.slide_dirs(ty, us));
            for from in pieces.cells() {
                let mut to = (steps[from] | t.slides(dirs, from, occ)) & targets;
                if threats.pinned.has(from) {
                    to &= threats.line(from);
                }
                sink.board(self, us, ty, from, to);
            }
        }
        self.drops(b, sink, drop_cells);
    }

    /// Drops from the side to move's hand onto `cells`, with the drop rules applied.
    #[inline(always)]
    fn drops<S: Sink<B>>(&self, b: &Board<B>, sink: &mut S, cells: B) {
        if cells.is_empty() {
            return;
        }
        let us = b.stm;
        let hand = &b.hands[us.index()];
        for &ty in &self.hand_types {
            if hand[ty] == 0 {
                continue;
            }
            let mut to = cells & !self.t.dead(ty, us);
            if self.one_per_file >> ty & 1 != 0 {
                for p in b.pieces(ty, us).cells() {
                    to &= !self.t.file_of[p];
                }
            }
            if self.no_drop_mate >> ty & 1 != 0 && !to.is_empty() {
                to &= !self.drop_mates(b, ty, to);
            }
            sink.drops(ty, to);
        }
    }

    /// Of the cells where a piece of `ty` could be dropped, those where the drop checkmates.
    /// Rare (the drop must give check), so kept out of line.
    #[cold]
    #[inline(never)]
    fn drop_mates(&self, b: &Board<B>, ty: usize, cells: B) -> B {
        let (us, them) = (b.stm, b.stm.opponent());
        let enemy_royals = self.royals(b, them);
        if enemy_royals.count() != 1 {
            return B::EMPTY;
        }
        let target = enemy_royals.lowest();
        // Where a piece of `ty` would attack the royal from: its steps seen from the royal's side,
        // and its slides traced back from the royal.
        let mut checking = self.t.steps(ty, them, target);
        let mut dirs = self.t.slide_dirs(ty, us);
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            checking |= self.t.slide(d ^ 4, target, b.occupied());
            dirs &= dirs - 1;
        }
        let mut mates = B::EMPTY;
        for c in (cells & checking).cells() {
            let mut after = b.clone();
            after.make(Move::drop(ty as u8, c as Cell), &self.hand_rule);
            let mut replies = Count(0);
            self.generate(&after, &mut replies);
            if replies.0 == 0 {
                mates |= B::bit(c);
            }
        }
        mates
    }

    /// Perft with copy-make, bulk-counting the last ply; one move buffer per ply. Counting is
    /// mostly popcounts, which the baseline x86-64 target does in software: where the CPU has the
    /// instruction, the whole tree runs in a build of the generator that uses it.
    pub(crate) fn perft_board(&self, b: &Board<B>, depth: u32, bufs: &mut [Vec<Move>]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports popcnt, checked just above.
            return unsafe { self.perft_popcnt(b, depth, bufs) };
        }
        self.perft_ply(b, depth, bufs, |child, d, rest| self.perft_board(child, d, rest))
    }

    /// [`Self::perft_board`] compiled with `popcnt`.
    ///
    /// # Safety
    /// The CPU must support `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn perft_popcnt(&self, b: &Board<B>, depth: u32, bufs: &mut [Vec<Move>]) -> u64 {
        // SAFETY: this function only runs where popcnt is supported.
        self.perft_ply(b, depth, bufs, |child, d, rest| unsafe { self.perft_popcnt(child, d, rest) })
    }

    /// One ply of perft; `deeper` counts below each move.
    #[inline(always)]
    fn perft_ply(
        &self,
        b: &Board<B>,
        depth: u32,
        bufs: &mut [Vec<Move>],
        deeper: impl Fn(&Board<B>, u32, &mut [Vec<Move>]) -> u64,
    ) -> u64 {
        if depth <= 1 {
            let mut n = Count(0);
            self.generate(b, &mut n);
            return n.0;
        }
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
        buf.clear();
        self.generate(b, &mut List(buf));
        let mut nodes = 0;
        for &mv in buf.iter() {
            let mut child = b.clone();
            child.make(mv, &self.hand_rule);
            nodes += deeper(&child, depth - 1, rest);
        }
        nodes
    }
}
