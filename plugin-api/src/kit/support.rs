//! Support on an open field (Ki Shogi, docs/rules/ki-shogi.md §7, §10): which pieces stand next to
//! a supporter, compiled for one board so the hot path is table lookups over the few pieces on the
//! field.
//!
//! Royals need no support and support every piece next to them (either colour's). Relays (the Ki
//! faces) are supported within reach of an anchoring royal or next to another supported relay —
//! support grows outward from the royals, so two relays cannot keep each other alive without a
//! royal link. A relay supports the pieces next to it while *active*: supported, or under grace (a
//! stranded Ki still holds its neighbours, docs/rules/ki-shogi.md §10 example 3), but a grace mark
//! makes no relay supported, its own or another. This is also the primitive the `stranded` hook
//! works with (see [`super::Hooks`]).

use crate::model::field::GRACE;
use crate::model::field::SupportRule;
use crate::model::geometry::{Cell, Geometry, NO_CELL, Vector};
use crate::model::piece::{Piece, PieceId};
use crate::model::position::Position;
use crate::model::side::Side;

/// The most pieces the field functions follow at once (they keep sets of pieces as 64-bit
/// masks); the position parser refuses more, and the kit refuses to play them, with an error.
pub use crate::model::field::MAX_FIELD_PIECES;

/// A support rule compiled for a board.
#[derive(Debug)]
pub struct Support {
    cells: usize,
    /// `cell * 8 + direction` → the neighbour, or `NO_CELL` off the board.
    neighbours: Vec<Cell>,
    x: Vec<i16>,
    y: Vec<i16>,
    royal: Vec<bool>,
    relay: Vec<bool>,
    /// Some type is a relay (without, support is only "next to a royal").
    any_relay: bool,
    reach: i32,
    anchor_own: bool,
    /// The hand type each piece type goes to when captured (its cube's first face).
    hand_type: Vec<PieceId>,
}

/// Pieces on the field, as cells: a small list instead of a scan of the whole box.
pub type Occupied<'a> = &'a [Cell];

impl Support {
    pub fn new(geo: &Geometry, rule: &SupportRule, royal: &[bool], hand_type: &[PieceId]) -> Support {
        let cells = geo.len();
        let mut neighbours = vec![NO_CELL; cells * 8];
        let (mut x, mut y) = (vec![0; cells], vec![0; cells]);
        for c in geo.cells() {
            let (f, r, _) = geo.coords(c);
            (x[c as usize], y[c as usize]) = (f as i16, r as i16);
            let mut d = 0;
            for df in -1..=1 {
                for dr in -1..=1 {
                    if (df, dr) != (0, 0) {
                        neighbours[c as usize * 8 + d] = geo.offset(c, Vector::flat(df, dr)).unwrap_or(NO_CELL);
                        d += 1;
                    }
                }
            }
        }
        let mut relay = vec![false; royal.len()];
        for &r in &rule.relays {
            relay[r] = true;
        }
        Support {
            cells,
            neighbours,
            x,
            y,
            royal: royal.to_vec(),
            any_relay: relay.contains(&true),
            relay,
            reach: rule.relay_reach as i32,
            anchor_own: rule.relay_anchor_own,
            hand_type: hand_type.to_vec(),
        }
    }

    /// The (up to 8) cells next to `c`.
    #[inline]
    pub fn neighbours(&self, c: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.neighbours[c as usize * 8..c as usize * 8 + 8].iter().copied().filter(|&n| n != NO_CELL)
    }

    /// Chebyshev distance between two cells.
    #[inline]
    pub fn distance(&self, a: Cell, b: Cell) -> i32 {
        let dx = (self.x[a as usize] - self.x[b as usize]).abs();
        let dy = (self.y[a as usize] - self.y[b as usize]).abs();
        dx.max(dy) as i32
    }

    /// A cell's coordinates (file, rank).
    #[inline]
    pub fn xy(&self, c: Cell) -> (i32, i32) {
        (self.x[c as usize] as i32, self.y[c as usize] as i32)
    }

    /// Whether the variant has relays at all (without, support is only "next to a royal").
    pub fn any_relay(&self) -> bool {
        self.any_relay
    }

    /// How far from an anchoring royal a relay is supported.
    pub fn reach(&self) -> i32 {
        self.reach
    }

    pub fn is_relay(&self, ty: PieceId) -> bool {
        self.relay[ty as usize]
    }

    /// Every occupied cell, in index order.
    pub fn occupied(&self, pos: &Position) -> Vec<Cell> {
        (0..self.cells as Cell).filter(|&c| pos.piece_at(c).is_some()).collect()
    }

    /// Whether the relay on `k` is anchored: within reach of a royal that may anchor it.
    fn anchored(&self, pos: &Position, occ: Occupied, k: Cell, owner: Side) -> bool {
        occ.iter().any(|&r| {
            pos.piece_at(r).is_some_and(|q| {
                self.royal[q.ty as usize] && (!self.anchor_own || q.side == owner) && self.distance(r, k) <= self.reach
            })
        })
    }

    /// The relays among `occ` as bit sets over `occ`'s indices: the supported ones (anchored, or
    /// next to a supported relay: support grows outward from the royals only) and the active ones
    /// (supported or under grace: those support the other pieces next to them).
    fn relays(&self, pos: &Position, occ: Occupied) -> (u64, u64) {
        if !self.any_relay {
            return (0, 0);
        }
        let (mut supported, mut relays, mut grace) = (0u64, 0u64, 0u64);
        for (i, &c) in occ.iter().enumerate() {
            let p = pos.piece_at(c).expect("occupied");
            if !self.relay[p.ty as usize] {
                continue;
            }
            relays |= 1 << i;
            if p.flags & GRACE != 0 {
                grace |= 1 << i;
            }
            if self.anchored(pos, occ, c, p.side) {
                supported |= 1 << i;
            }
        }
        // Close over adjacency: a relay next to a supported relay is supported.
        loop {
            let mut grown = supported;
            for i in 0..occ.len() {
                if relays >> i & 1 == 1 && supported >> i & 1 == 0 {
                    let next_to = (0..occ.len()).any(|j| supported >> j & 1 == 1 && self.distance(occ[i], occ[j]) == 1);
                    if next_to {
                        grown |= 1 << i;
                    }
                }
            }
            if grown == supported {
                return (supported, supported | grace);
            }
            supported = grown;
        }
    }

    /// Whether `occ[i]` is supported, given the relays' sets.
    fn supported_in(&self, pos: &Position, occ: Occupied, i: usize, (supported, active): (u64, u64)) -> bool {
        let p = pos.piece_at(occ[i]).expect("occupied");
        if self.royal[p.ty as usize] {
            return true;
        }
        if self.relay[p.ty as usize] {
            return supported >> i & 1 == 1;
        }
        occ.iter().enumerate().any(|(j, &s)| {
            j != i
                && self.distance(occ[i], s) == 1
                && (active >> j & 1 == 1 || pos.piece_at(s).is_some_and(|q| self.royal[q.ty as usize]))
        })
    }

    /// Whether some piece among `occ` (every occupied cell) is unsupported.
    pub fn any_unsupported(&self, pos: &Position, occ: Occupied) -> bool {
        debug_assert!(occ.len() <= MAX_FIELD_PIECES);
        let relays = self.relays(pos, occ);
        (0..occ.len()).any(|i| !self.supported_in(pos, occ, i, relays))
    }

    /// Whether the piece on `c` (one of `occ`) is supported.
    pub fn is_supported(&self, pos: &Position, occ: Occupied, c: Cell) -> bool {
        let Some(i) = occ.iter().position(|&o| o == c) else { return false };
        self.supported_in(pos, occ, i, self.relays(pos, occ))
    }

    /// The unsupported pieces' cells, in index order.
    pub fn unsupported(&self, pos: &Position) -> Vec<Cell> {
        let occ = self.occupied(pos);
        let relays = self.relays(pos, &occ);
        (0..occ.len()).filter(|&i| !self.supported_in(pos, &occ, i, relays)).map(|i| occ[i]).collect()
    }

    /// The most the end of `mover`'s turn can take from it: its unsupported pieces, again and
    /// again as each loss (a relay) may strand more, with the opponent's pieces all staying (they
    /// are only ever put under grace, which adds support). The stranding hook can capture no piece
    /// outside this set, so the kit judges most moves' legality from it without calling the hook.
    pub fn worst_losses(&self, pos: &Position, occ: Occupied, mover: Side) -> Vec<Cell> {
        let mut live: Vec<Cell> = occ.to_vec();
        let mut lost = Vec::new();
        loop {
            let relays = self.relays(pos, &live);
            let before = lost.len();
            let mut i = 0;
            while i < live.len() {
                let p = pos.piece_at(live[i]).expect("occupied");
                if p.side == mover && !self.supported_in(pos, &live, i, relays) {
                    lost.push(live[i]);
                    live.remove(i);
                } else {
                    i += 1;
                }
            }
            if lost.len() == before {
                return lost;
            }
        }
    }

    /// The empty cells where a piece that is not a relay would be supported: next to a royal or
    /// an active relay, of either side (where a cube may land; the editor tints them).
    pub fn supported_cells(&self, pos: &Position) -> Vec<Cell> {
        let occ = self.occupied(pos);
        let (_, active) = self.relays(pos, &occ);
        let supporter =
            |i: usize| active >> i & 1 == 1 || pos.piece_at(occ[i]).is_some_and(|q| self.royal[q.ty as usize]);
        let mut cells: Vec<Cell> = (0..occ.len())
            .filter(|&i| supporter(i))
            .flat_map(|i| self.neighbours(occ[i]))
            .filter(|&c| pos.piece_at(c).is_none())
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// `side`'s active relays (they, like its royal, let it drop pieces next to them), as a bit set
    /// over `occ`'s indices.
    pub fn active_relays_of(&self, pos: &Position, occ: Occupied, side: Side) -> u64 {
        let (_, active) = self.relays(pos, occ);
        (0..occ.len())
            .filter(|&i| active >> i & 1 == 1 && pos.piece_at(occ[i]).is_some_and(|q| q.side == side))
            .fold(0, |set, i| set | 1 << i)
    }

    /// At the end of a turn (`pos.side_to_move()` is the player whose turn ends): captures that
    /// player's unsupported piece on `c` for the opponent — it leaves the field and its cube goes to
    /// the opponent's hand. Refuses a supported piece and the opponent's pieces (those may only be
    /// put under grace), so a stranding rule can only ever take what its owner left stranded.
    pub fn capture(&self, pos: &mut Position, c: Cell) -> Result<Piece, String> {
        let p = pos.piece_at(c).ok_or("no piece there")?;
        if self.royal[p.ty as usize] {
            return Err("a royal piece is never stranded".into());
        }
        if p.side != pos.side_to_move() {
            return Err("only the pieces of the player whose turn ends can be captured; \
                        the opponent's stranded pieces may be put under grace"
                .into());
        }
        if self.is_supported(pos, &self.occupied(pos), c) {
            return Err("the piece is supported; only stranded pieces can be captured".into());
        }
        pos.set(c, None);
        let (captor, ty) = (p.side.opponent(), self.hand_type[p.ty as usize]);
        let n = pos.hand(captor, ty).checked_add(1).ok_or("hand count over 255")?;
        pos.set_hand(captor, ty, n);
        Ok(p)
    }

    /// Sets or clears the grace mark of the piece on `c`.
    pub fn set_grace(&self, pos: &mut Position, c: Cell, on: bool) -> Result<(), String> {
        let mut p = pos.piece_at(c).ok_or("no piece there")?;
        p.flags = if on { p.flags | GRACE } else { p.flags & !GRACE };
        pos.set(c, Some(p));
        Ok(())
    }

    /// The cells of `side`'s pieces under grace.
    pub fn grace_cells(&self, pos: &Position, side: Side) -> Vec<Cell> {
        (0..self.cells as Cell)
            .filter(|&c| pos.piece_at(c).is_some_and(|p| p.side == side && p.flags & GRACE != 0))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::GeometrySpec;

    /// Types: 0 a royal, 1 a relay (a Ki), 2 a plain cube.
    fn support(g: &Geometry) -> Support {
        let rule = SupportRule { relays: vec![1], relay_reach: 2, ..SupportRule::default() };
        Support::new(g, &rule, &[true, false, false], &[0, 1, 2])
    }

    #[test]
    fn supported_cells_are_the_empty_cells_next_to_a_royal_or_an_active_relay() {
        let g = Geometry::new(&GeometrySpec::flat(9, 9)).unwrap();
        let s = support(&g);
        let at = |x, y| g.cell(x, y, 0).unwrap();
        let mut pos = Position::empty(g.len(), 3);
        pos.set(at(4, 4), Some(Piece::new(0, Side::First)));
        pos.set(at(5, 4), Some(Piece::new(2, Side::First)));
        // The royal's 8 neighbours less the cube's cell; a cube supports nothing.
        assert_eq!(s.supported_cells(&pos).len(), 7);
        assert!(!s.supported_cells(&pos).contains(&at(6, 4)));
        // A relay two cells away is anchored and supports its neighbours; a lone relay far away
        // supports nothing, unless under grace.
        pos.set(at(4, 6), Some(Piece::new(1, Side::Second)));
        pos.set(at(8, 8), Some(Piece::new(1, Side::Second)));
        let cells = s.supported_cells(&pos);
        assert!(cells.contains(&at(4, 7)) && !cells.contains(&at(7, 7)));
        pos.set(at(8, 8), Some(Piece { flags: GRACE, ..Piece::new(1, Side::Second) }));
        assert!(s.supported_cells(&pos).contains(&at(7, 7)), "a Ki under grace still supports");
    }
}
