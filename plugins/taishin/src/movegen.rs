//! Move generation: each family of `moves.rs` walked on the mailbox, with the captures' promotion
//! (§8), the pass limit (§7) and the Emperor's restriction (§6.10) applied as moves are made.
//!
//! Moves without a locust capture are named by their destination; a type whose families can reach
//! one destination twice (a hook's two corners, an area move across a slide, a leap onto a slide's
//! square) stamps destinations so that each is one move. Locust moves are distinct by construction:
//! each (victim square, destination) pair comes from exactly one family and direction.

use henka_api::Side;

use crate::board::{Board, EMPTY, GUARD, Mv, NO_SQ, REAL, Sq, SquareMap, code, is_enemy, side_bit, type_of};
use crate::pieces::promoted;
use crate::tables::{Kind, Offset, Tables, on_last_rank};

/// A player may pass at most this many turns in a row (§7).
pub const MAX_PASSES: u16 = 3;

/// Whether an Emperor's capture of a protected royal is refused. The protection test itself
/// ignores the rule (§6.10 decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmperorRule {
    Applied,
    Ignored,
}

/// Reusable state for generation: the destination stamps that deduplicate a piece's moves.
#[derive(Debug)]
pub struct Scratch {
    stamp: SquareMap<u32>,
    epoch: u32,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch { stamp: SquareMap::filled(0), epoch: 0 }
    }
}

impl Scratch {
    /// A fresh mark: no square carries it yet.
    #[inline]
    fn next_epoch(&mut self) -> u32 {
        if self.epoch == u32::MAX {
            self.stamp = SquareMap::filled(0);
            self.epoch = 0;
        }
        self.epoch += 1;
        self.epoch
    }
}

/// Appends the moves of `side`'s pieces to `out` (cleared first), and returns how many royal
/// pieces `side` has. The pass limit reads `board.passes`; royals left are not checked here.
pub fn generate(
    tables: &Tables,
    board: &Board,
    side: Side,
    rule: EmperorRule,
    out: &mut Vec<Mv>,
    scratch: &mut Scratch,
) -> usize {
    out.clear();
    let own = side_bit(side);
    let mut g = Gen { tables, board, side, own, rule, out, scratch, dedup: 0 };
    let mut royals = 0;
    board.for_each_piece(side, |sq| {
        let t = type_of(board.cells()[sq]);
        royals += usize::from(tables.is_royal(t));
        g.piece(sq, t);
    });
    royals
}

/// The legal moves of the side to move: all its pieces' moves, or none without a royal.
pub fn legal_moves(tables: &Tables, board: &Board, out: &mut Vec<Mv>, scratch: &mut Scratch) {
    if generate(tables, board, board.to_move, EmperorRule::Applied, out, scratch) == 0 {
        out.clear();
    }
}

/// The moves of the piece on `sq` alone, as its owner would have them.
pub fn piece_moves(tables: &Tables, board: &Board, sq: Sq, out: &mut Vec<Mv>, scratch: &mut Scratch) {
    out.clear();
    let c = board.cells()[sq];
    let side = if c & side_bit(Side::First) != 0 { Side::First } else { Side::Second };
    let mut g = Gen { tables, board, side, own: side_bit(side), rule: EmperorRule::Applied, out, scratch, dedup: 0 };
    g.piece(sq, type_of(c));
}

/// Whether some move of `by` would capture the piece on `target` (by displacement, locust,
/// igui, range jump or Emperor leap).
pub fn attacks(tables: &Tables, board: &Board, by: Side, target: Sq, rule: EmperorRule) -> bool {
    let mut moves = Vec::new();
    generate(tables, board, by, rule, &mut moves, &mut Scratch::default());
    let target = target as u16;
    moves.iter().any(|m| m.to == target || m.via == target)
}

struct Gen<'a> {
    tables: &'a Tables,
    board: &'a Board,
    side: Side,
    own: u16,
    rule: EmperorRule,
    out: &'a mut Vec<Mv>,
    scratch: &'a mut Scratch,
    /// The stamp of the current piece's destinations, 0 when it needs no deduplication.
    dedup: u32,
}

impl Gen<'_> {
    #[inline]
    fn push(&mut self, from: Sq, via: u16, to: Sq, piece: u8) {
        self.out.push(Mv { from: from as u16, to: to as u16, via, piece });
    }

    /// A move to `to` without a locust capture; `c` is what stands there (empty or an enemy).
    #[inline]
    fn land(&mut self, from: Sq, to: Sq, t: u8, c: u16) {
        if self.dedup != 0 {
            let stamp = &mut self.scratch.stamp[to];
            if *stamp == self.dedup {
                return;
            }
            *stamp = self.dedup;
        }
        if c == EMPTY {
            self.push(from, NO_SQ, to, t);
            if self.tables.has_last_rank_choice(t) && on_last_rank(self.side, to) {
                self.push(from, NO_SQ, to, promoted(t));
            }
        } else {
            let after = self.tables.after_capture(t, c, EMPTY);
            self.push(from, NO_SQ, to, after);
        }
    }

    fn piece(&mut self, from: Sq, t: u8) {
        let kind = self.tables.kind(self.side, t);
        self.dedup = if kind.dedup { self.scratch.next_epoch() } else { 0 };
        let cells = self.board.cells();
        for line in &kind.lines {
            let mut to = from;
            for _ in 0..line.range {
                to = to.wrapping_add_signed(line.step);
                let c = cells[to];
                if c & self.own != 0 {
                    break;
                }
                self.land(from, to, t, c);
                if c != EMPTY {
                    break;
                }
            }
        }
        if kind.special {
            self.special(from, t, kind);
        }
    }

    /// The families other than plain slides: rarer, and kept out of the common path (not inlined,
    /// so that the slide loop stays small).
    #[inline(never)]
    fn special(&mut self, from: Sq, t: u8, kind: &Kind) {
        let cells = self.board.cells();
        for &step in &kind.jumps {
            self.jump_captures(from, t, step);
        }
        for &(step, range) in &kind.skips {
            let mut to = from.wrapping_add_signed(step);
            for _ in 1..range {
                to = to.wrapping_add_signed(step);
                let c = cells[to];
                if c & self.own != 0 {
                    break;
                }
                self.land(from, to, t, c);
                if c != EMPTY {
                    break;
                }
            }
        }
        for &leap in &kind.leaps {
            let to = from.wrapping_add_signed(leap);
            let c = cells[to];
            if c & self.own == 0 {
                self.land(from, to, t, c);
            }
        }
        if kind.area > 0 {
            self.area(from, t, kind.area);
        }
        for &(step, turns) in &kind.hooks {
            self.hook(from, t, step, turns);
        }
        if kind.anywhere {
            self.anywhere(from, t);
        }
        self.locusts(from, t, kind);
        if !kind.pass.is_empty()
            && self.board.passes[self.side.index()] < MAX_PASSES
            && kind.pass.iter().any(|&s| cells[from.wrapping_add_signed(s)] == EMPTY)
        {
            self.push(from, NO_SQ, from, t);
        }
    }

    /// Captures of the first piece beyond one and beyond two occupied squares along `step`
    /// (§6.7); the slide itself, up to the first occupied square, is a plain line.
    fn jump_captures(&mut self, from: Sq, t: u8, step: Offset) {
        let cells = self.board.cells();
        let mut to = from;
        for screens in 0..3 {
            loop {
                to = to.wrapping_add_signed(step);
                if cells[to] != EMPTY {
                    break;
                }
            }
            let c = cells[to];
            if c == GUARD {
                return;
            }
            if screens > 0 && c & self.own == 0 {
                self.land(from, to, t, c);
            }
        }
    }

    /// Up to `steps` king steps, every square before the last empty (§6.5): a breadth-first walk
    /// over the 7×7 window, each square taken at its shortest distance. The way home is the pass.
    fn area(&mut self, from: Sq, t: u8, steps: u8) {
        let cells = self.board.cells();
        let dirs = self.tables.dirs[self.side.index()];
        // Squares already reached, by their offset from `from` (within three steps each way).
        const SPAN: usize = 3 * (crate::board::STRIDE + 1);
        let mut seen = [false; 2 * SPAN + 1];
        let rel = |sq: Sq| sq + SPAN - from;
        seen[rel(from)] = true;
        let mut frontier = [0; 49];
        let mut next = [0; 49];
        frontier[0] = from;
        let mut len = 1;
        for step in 1..=steps {
            let mut next_len = 0;
            for &p in &frontier[..len] {
                for &d in &dirs {
                    let q = p.wrapping_add_signed(d);
                    if std::mem::replace(&mut seen[rel(q)], true) {
                        continue;
                    }
                    let c = cells[q];
                    if c & self.own != 0 {
                        continue;
                    }
                    self.land(from, q, t, c);
                    if c == EMPTY && step < steps {
                        next[next_len] = q;
                        next_len += 1;
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            len = next_len;
        }
    }

    /// Slide along `step` to an empty turning square, turn 90° either way and slide on (§6.8).
    fn hook(&mut self, from: Sq, t: u8, step: Offset, turns: [Offset; 2]) {
        let cells = self.board.cells();
        let mut corner = from.wrapping_add_signed(step);
        while cells[corner] == EMPTY {
            for turn in turns {
                let mut to = corner;
                loop {
                    to = to.wrapping_add_signed(turn);
                    let c = cells[to];
                    if c & self.own != 0 {
                        break;
                    }
                    self.land(from, to, t, c);
                    if c != EMPTY {
                        break;
                    }
                }
            }
            corner = corner.wrapping_add_signed(step);
        }
    }

    /// The Emperor: any empty or enemy square, but not a protected royal.
    fn anywhere(&mut self, from: Sq, t: u8) {
        let cells = self.board.cells();
        for &to in REAL.iter() {
            let c = cells[to];
            if to == from || c & self.own != 0 {
                continue;
            }
            if c != EMPTY
                && self.rule == EmperorRule::Applied
                && self.tables.is_royal(type_of(c))
                && self.protected(from, to, t)
            {
                continue;
            }
            self.land(from, to, t, c);
        }
    }

    /// Whether the royal on `to` is protected: after the Emperor (type `t`, on `from`) captures
    /// it, some piece of its side could capture on `to` (§6.10 decision).
    fn protected(&self, from: Sq, to: Sq, t: u8) -> bool {
        let mut after = self.board.clone();
        after.put(from, EMPTY);
        after.put(to, code(t, self.side));
        attacks(self.tables, &after, self.side.opponent(), to, EmperorRule::Ignored)
    }

    /// The moves that capture on the way (`via`): lion-style locusts, igui and the lion dog's
    /// hop and far captures.
    fn locusts(&mut self, from: Sq, t: u8, kind: &Kind) {
        let cells = self.board.cells();
        let own = self.own;
        let after = |first, second| self.tables.after_capture(t, first, second);
        for (step, seconds) in &kind.locusts {
            let a = from.wrapping_add_signed(*step);
            let ca = cells[a];
            if !is_enemy(ca, own) {
                continue;
            }
            for &second in seconds {
                let b = a.wrapping_add_signed(second);
                let cb = cells[b];
                if cb & own == 0 {
                    self.out.push(Mv { from: from as u16, via: a as u16, to: b as u16, piece: after(ca, cb) });
                }
            }
        }
        for &step in &kind.igui {
            let a = from.wrapping_add_signed(step);
            let ca = cells[a];
            if is_enemy(ca, own) {
                self.out.push(Mv { from: from as u16, via: a as u16, to: from as u16, piece: after(ca, EMPTY) });
            }
        }
        // Capture S1, hop over S2 whatever it holds, land on S3 (an off-board S3 is a guard).
        for &step in &kind.hops {
            let s1 = from.wrapping_add_signed(step);
            let s3 = s1.wrapping_add_signed(2 * step);
            let (c1, c3) = (cells[s1], cells[s3]);
            if is_enemy(c1, own) && c3 & own == 0 {
                self.out.push(Mv { from: from as u16, via: s1 as u16, to: s3 as u16, piece: after(c1, c3) });
            }
        }
        // Pass over S1 whatever it holds, capture S2, then on to S3 or back to S1.
        for &step in &kind.fars {
            let s1 = from.wrapping_add_signed(step);
            let s2 = s1.wrapping_add_signed(step);
            let c2 = cells[s2];
            if !is_enemy(c2, own) {
                continue;
            }
            for end in [s2.wrapping_add_signed(step), s1] {
                let c = cells[end];
                if c & own == 0 {
                    self.out.push(Mv { from: from as u16, via: s2 as u16, to: end as u16, piece: after(c2, c) });
                }
            }
        }
    }
}
