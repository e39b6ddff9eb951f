//! A placement table: what a piece adds to the evaluation for where it stands, beyond its value.
//!
//! Material alone cannot tell a castled King from one left in the middle, a Gold beside its King
//! from one stranded on the edge, or a fourth Pawn in hand from the first. Shogi engines learnt
//! such knowledge as tables of where pieces stand (Bonanza's were relative to the kings); this is
//! the small generic form of them, for any variant:
//!
//! - **cells**: per piece type, a weight for every cell, seen from the piece's owner (the second
//!   player's board is turned half a turn, so one table serves both sides);
//! - **own** and **enemy**: per non-royal type, a weight for every offset within three files and
//!   three ranks of its own royal and of the enemy royal (files by distance alone, ranks counted
//!   forward from the piece's owner), which is where shelter and attack live;
//! - **hand**: per type, a weight for the first, second, … eighth piece of it held, which lets a
//!   fourth Pawn in hand be worth less than the first;
//! - **reach**: per non-royal type, a weight for every cell its capture rays reach from where it
//!   stands ([`super::rays`]) that its own side does not hold: mobility, blocked pieces included;
//! - **threat**: per non-royal type, a weight for a piece of it the enemy attacks, by whether its
//!   own side guards it, whether a cheaper piece attacks it, and whether its owner is to move (a
//!   loose piece of the side to move can still be saved; of the other side, it can be taken);
//! - **zone**: a weight for the enemy's attacks on the cells around a royal (counted up to
//!   twelve) by how many pieces the enemy holds in hand (0, 1–2, 3–5, 6 or more): shelter and
//!   attack together, which a sum of single pieces cannot weigh.
//!
//! The last three read where pieces attack, which costs a walk of every piece's rays at each
//! evaluation; a table without such weights (one learnt before they existed) skips that walk and
//! scores as it always did.
//!
//! The weights are learnt, not written: `henka tune --placement` fits them to a teacher's
//! verdicts on positions from the variant's own self-play (see [`crate::playtest::placement_fit`]).
//! They are stored as readable lines (`cell K 8h 150`, `own G 1 0 31`, `enemy S 0 1 40`, `hand P
//! 4 -58`, `reach R 12`, `threat S loose cheaper waiter -90`, `zone 5 3 -40`: five attacks
//! around the royal while the enemy holds 3–5 pieces) in a tuned evaluation, so the file names
//! tokens and cells, not indices.

use std::cell::RefCell;
use std::sync::OnceLock;

use henka_api::notation::{cell_name, lookup_token, parse_cell};
use henka_api::{Cell, Piece, PieceId, Position, Side, Variant};

use super::rays::{RayCells, Rays};
use super::values::PieceValues;

/// The royal-relative windows reach this many cells sideways and forwards or back.
const WINDOW: i32 = 3;
/// Offsets per type in a royal-relative window: `|dx|` in `0..=WINDOW`, `dr` in `-WINDOW..=WINDOW`.
const SPAN: usize = (2 * WINDOW + 1) as usize;
const WINDOW_CELLS: usize = (WINDOW as usize + 1) * SPAN;
/// Pieces of one type in hand that each have a weight of their own; more add nothing further.
pub const HAND_STEPS: usize = 8;
/// Attacks on the cells around a royal beyond this many count as this many.
const ZONE_CAP: usize = 12;
/// The zone family's hand buckets, each by the fewest pieces held in it.
const HELD_FROM: [u32; 4] = [0, 1, 3, 6];
/// Threat weights per type: guarded or loose × a cheaper attacker or not × owner to move or not.
const THREAT_KINDS: usize = 8;

/// The kinds of weight a table holds (see the module doc). A fit may leave a family out
/// (`henka tune --placement --without hand`); its weights then stay zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Cells,
    Own,
    Enemy,
    Hand,
    Reach,
    Threat,
    Zone,
}

impl Family {
    /// The family's word in the table's lines (`cell`, `own`, `enemy`, `hand`).
    pub fn word(self) -> &'static str {
        match self {
            Family::Cells => "cell",
            Family::Own => "own",
            Family::Enemy => "enemy",
            Family::Hand => "hand",
            Family::Reach => "reach",
            Family::Threat => "threat",
            Family::Zone => "zone",
        }
    }
}

/// A variant's placement weights, in centipawns, by feature index.
#[derive(Clone, Debug)]
pub struct Placement {
    types: usize,
    cells: usize,
    weights: Vec<i32>,
    /// Per cell: the cell that plays its part for the second player (the board turned around).
    turned: Vec<Cell>,
    /// `(file, rank)` of every cell.
    coords: Vec<(i32, i32)>,
    royal: Vec<bool>,
    hand_types: Vec<PieceId>,
    /// What the attack families walk, made on first use (see [`RayCells`]).
    rays: Rays,
    ray_cells: OnceLock<RayCells>,
    /// Per type, its estimated value: which attacker is the cheaper one.
    worth: Vec<i32>,
    /// Per cell, the cells next to it (a royal's zone).
    around: Vec<Vec<Cell>>,
    /// Whether any weight of the attack families is not zero (else their walk is skipped).
    reads_attacks: bool,
}

/// Each side's first royal, as `(file, rank)` and as a cell, where it has one (see
/// [`Placement::royals`]).
#[derive(Clone, Copy, Debug)]
pub struct Royals {
    at: [Option<(i32, i32)>; 2],
    cell: [Option<Cell>; 2],
}

/// The attack families' scratch, kept per thread so that an evaluation allocates nothing. A
/// piece's rays stop at the first piece they meet, so a piece is attacked only where a ray ends:
/// the walk notes there who guards it and the cheapest enemy attacker, and keeps no count for
/// the cells it passes beyond what the royals' zones need.
///
/// Between evaluations every entry is at rest (`false`, `i32::MAX`, `0`): each evaluation puts
/// back what it changed, which costs less than clearing the whole board each time.
#[derive(Default)]
struct AttackScratch {
    /// Per cell: whether a piece of its occupant's own side attacks it.
    guarded: Vec<bool>,
    /// Per cell: the estimated value of the cheapest enemy piece that attacks its occupant
    /// (`i32::MAX`: none).
    cheapest: Vec<i32>,
    /// Per cell: 1 if it lies next to the first player's royal, plus `1 << 32` if next to the
    /// second's; each attack adds it to its side's tally, counting both zones in one addition.
    near: Vec<u64>,
    /// Whether every entry is at rest (not so at first, or after an evaluation that did not end).
    at_rest: bool,
}

impl AttackScratch {
    /// Every entry at rest, for a board of `cells`, by clearing it unless it is known to be so.
    fn ready(&mut self, cells: usize) {
        if !self.at_rest || self.guarded.len() != cells {
            self.guarded.clear();
            self.guarded.resize(cells, false);
            self.cheapest.clear();
            self.cheapest.resize(cells, i32::MAX);
            self.near.clear();
            self.near.resize(cells, 0);
        }
        self.at_rest = false;
    }
}

thread_local! {
    static ATTACKS: RefCell<AttackScratch> = RefCell::default();
}

impl Placement {
    /// A table of zeros for `v`.
    pub fn new(v: &dyn Variant) -> Placement {
        let g = v.geometry();
        let cells = g.len();
        let types = v.info().pieces.len();
        let coords: Vec<(i32, i32)> = (0..cells)
            .map(|c| {
                let (f, r, _) = g.coords(c as Cell);
                (f, r)
            })
            .collect();
        let turned = (0..cells)
            .map(|c| {
                let (f, r, l) = g.coords(c as Cell);
                g.cell(g.files() as i32 - 1 - f, g.ranks() as i32 - 1 - r, l).unwrap_or(c as Cell)
            })
            .collect();
        let layers = if g.levels() > 1 { -1..=1 } else { 0..=0 };
        let around = (0..cells)
            .map(|c| {
                let (f, r, l) = g.coords(c as Cell);
                let mut next = Vec::new();
                for dl in layers.clone() {
                    for dr in -1..=1 {
                        for df in -1..=1 {
                            if (df, dr, dl) != (0, 0, 0)
                                && let Some(t) = g.cell(f + df, r + dr, l + dl)
                            {
                                next.push(t);
                            }
                        }
                    }
                }
                next
            })
            .collect();
        let values = PieceValues::estimate(v, &[]);
        Placement {
            types,
            cells,
            weights: vec![0; feature_count(types, cells)],
            turned,
            coords,
            royal: v.info().pieces.iter().map(|p| p.royal).collect(),
            hand_types: v.info().hand_types.clone(),
            rays: Rays::new(v),
            ray_cells: OnceLock::new(),
            worth: (0..types).map(|ty| values.board(ty as PieceId)).collect(),
            around,
            reads_attacks: false,
        }
    }

    /// Notes whether the attack families weigh anything, once the weights are set.
    fn settled(mut self) -> Placement {
        let first = self.reach_index(0);
        self.reads_attacks = self.weights[first..].iter().any(|&w| w != 0);
        self
    }

    /// The table written as `lines` (see the module doc); an error names the line it cannot read.
    pub fn parse(v: &dyn Variant, lines: &[String]) -> Result<Placement, String> {
        let mut p = Placement::new(v);
        let g = v.geometry();
        for (n, line) in lines.iter().enumerate() {
            let bad = |why: &str| format!("placement line {} ({line:?}): {why}", n + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let ty = |t: &str| lookup_token(v.info(), t).map(|(ty, _)| ty as usize).map_err(|e| bad(&e.to_string()));
            let int = |s: &str| s.parse::<i32>().map_err(|_| bad(&format!("{s:?} is not a whole number")));
            let index = match words.as_slice() {
                ["cell", t, cell, _] => {
                    let c = parse_cell(g, cell).map_err(|e| bad(&e.to_string()))?;
                    ty(t)? * p.cells + c as usize
                }
                [which @ ("own" | "enemy"), t, dx, dr, _] => {
                    let (dx, dr) = (int(dx)?, int(dr)?);
                    if !(0..=WINDOW).contains(&dx) || dr.abs() > WINDOW {
                        return Err(bad(&format!("offsets reach at most {WINDOW} cells")));
                    }
                    p.window_index(*which == "enemy", ty(t)?, dx, dr)
                }
                ["hand", t, k, _] => {
                    let k = int(k)?;
                    if !(1..=HAND_STEPS as i32).contains(&k) {
                        return Err(bad(&format!("the count in hand runs from 1 to {HAND_STEPS}")));
                    }
                    p.hand_index(ty(t)?, k as usize)
                }
                ["reach", t, _] => p.reach_index(ty(t)?),
                ["threat", t, guard, cheaper, mover, _] => {
                    let flag = |word: &str, yes: &str, no: &str| match word {
                        w if w == yes => Ok(true),
                        w if w == no => Ok(false),
                        w => Err(bad(&format!("{w:?} is neither {yes} nor {no}"))),
                    };
                    p.threat_index(
                        ty(t)?,
                        flag(guard, "guarded", "loose")?,
                        flag(cheaper, "cheaper", "dearer")?,
                        flag(mover, "mover", "waiter")?,
                    )
                }
                ["zone", n, held, _] => {
                    let n = int(n)?;
                    if !(0..=ZONE_CAP as i32).contains(&n) {
                        return Err(bad(&format!("a zone counts 0 to {ZONE_CAP} attacks")));
                    }
                    let held = int(held)?;
                    let Some(bucket) = HELD_FROM.iter().position(|&h| h as i32 == held) else {
                        return Err(bad(&format!("pieces held are counted from one of {HELD_FROM:?}")));
                    };
                    p.zone_index(n as usize, bucket)
                }
                _ => {
                    return Err(bad(
                        "expected `cell T CELL CP`, `own|enemy T DX DR CP`, `hand T N CP`, `reach T CP`, \
                         `threat T guarded|loose cheaper|dearer mover|waiter CP` or `zone N HELD CP`",
                    ));
                }
            };
            p.weights[index] = int(words[words.len() - 1])?;
        }
        Ok(p.settled())
    }

    /// A table with these weights (by feature index, as [`Placement::features`] numbers them).
    pub fn with_weights(v: &dyn Variant, weights: &[i32]) -> Placement {
        let mut p = Placement::new(v);
        for (w, &x) in p.weights.iter_mut().zip(weights) {
            *w = x;
        }
        p.settled()
    }

    /// The non-zero weights as lines that [`Placement::parse`] reads back.
    pub fn lines(&self, v: &dyn Variant) -> Vec<String> {
        let token = |ty: usize| v.info().pieces[ty].written().to_string();
        let mut out = Vec::new();
        for ty in 0..self.types {
            for c in 0..self.cells {
                let w = self.weights[ty * self.cells + c];
                if w != 0 {
                    out.push(format!("cell {} {} {w}", token(ty), cell_name(v.geometry(), c as Cell)));
                }
            }
        }
        for (name, enemy) in [("own", false), ("enemy", true)] {
            for ty in 0..self.types {
                for dx in 0..=WINDOW {
                    for dr in -WINDOW..=WINDOW {
                        let w = self.weights[self.window_index(enemy, ty, dx, dr)];
                        if w != 0 {
                            out.push(format!("{name} {} {dx} {dr} {w}", token(ty)));
                        }
                    }
                }
            }
        }
        for ty in 0..self.types {
            for k in 1..=HAND_STEPS {
                let w = self.weights[self.hand_index(ty, k)];
                if w != 0 {
                    out.push(format!("hand {} {k} {w}", token(ty)));
                }
            }
        }
        for ty in 0..self.types {
            let w = self.weights[self.reach_index(ty)];
            if w != 0 {
                out.push(format!("reach {} {w}", token(ty)));
            }
        }
        for ty in 0..self.types {
            for kind in 0..THREAT_KINDS {
                let (guarded, cheaper, mover) = (kind & 4 != 0, kind & 2 != 0, kind & 1 != 0);
                let w = self.weights[self.threat_index(ty, guarded, cheaper, mover)];
                if w != 0 {
                    let word = |b: bool, yes: &'static str, no: &'static str| if b { yes } else { no };
                    out.push(format!(
                        "threat {} {} {} {} {w}",
                        token(ty),
                        word(guarded, "guarded", "loose"),
                        word(cheaper, "cheaper", "dearer"),
                        word(mover, "mover", "waiter")
                    ));
                }
            }
        }
        for n in 0..=ZONE_CAP {
            for (bucket, held) in HELD_FROM.iter().enumerate() {
                let w = self.weights[self.zone_index(n, bucket)];
                if w != 0 {
                    out.push(format!("zone {n} {held} {w}"));
                }
            }
        }
        out
    }

    /// Where each side's first royal stands, as [`Placement::piece`] reads it; found once per
    /// position by the caller, which walks the board anyway.
    pub fn royals(&self, royals: [Option<Cell>; 2]) -> Royals {
        Royals { at: royals.map(|k| k.map(|k| self.coords[k as usize])), cell: royals }
    }

    /// What a piece `p` standing on `c` adds to its owner's score.
    #[inline]
    pub fn piece(&self, c: usize, p: Piece, royals: &Royals) -> i32 {
        let mut sum = 0;
        self.visit_piece(c, p, royals, |i| sum += self.weights[i]);
        sum
    }

    /// What `side`'s pieces in hand add to its score.
    pub fn hand(&self, pos: &Position, side: Side) -> i32 {
        let mut sum = 0;
        self.visit_hand(pos, side, |i| sum += self.weights[i]);
        sum
    }

    /// The position's features for the side to move: +1 for each of its own, −1 for each of the
    /// opponent's (an index may repeat). The score difference is their dot product with the weights.
    pub fn features(&self, pos: &Position) -> Vec<(u32, f32)> {
        let mut royals = [None, None];
        for (c, p) in pos.cells().iter().enumerate() {
            if let Some(p) = p
                && self.royal[p.ty as usize]
                && royals[p.side.index()].is_none()
            {
                royals[p.side.index()] = Some(c as Cell);
            }
        }
        let royals = self.royals(royals);
        let us = pos.side_to_move();
        let sign = |side: Side| if side == us { 1.0 } else { -1.0 };
        let mut out = Vec::new();
        for (c, p) in pos.cells().iter().enumerate() {
            if let Some(p) = *p {
                self.visit_piece(c, p, &royals, |i| out.push((i as u32, sign(p.side))));
            }
        }
        for side in Side::BOTH {
            self.visit_hand(pos, side, |i| out.push((i as u32, sign(side))));
        }
        self.visit_attacks(pos, &royals, |i, side, n| out.push((i as u32, sign(side) * n as f32)));
        out
    }

    /// What the attack families add to each side's score (by [`Side::index`]); nothing without
    /// such weights, and then nothing is walked.
    pub fn attacks(&self, pos: &Position, royals: &Royals) -> [i32; 2] {
        let mut sum = [0; 2];
        if self.reads_attacks {
            self.visit_attacks(pos, royals, |i, side, n| sum[side.index()] += n * self.weights[i]);
        }
        sum
    }

    /// The family of the weight at feature index `i` (the index layout of [`Placement::features`]).
    pub fn family(&self, i: usize) -> Family {
        let cells = self.types * self.cells;
        let window = self.types * WINDOW_CELLS;
        match i {
            _ if i < cells => Family::Cells,
            _ if i < cells + window => Family::Own,
            _ if i < cells + 2 * window => Family::Enemy,
            _ if i < self.reach_index(0) => Family::Hand,
            _ if i < self.threat_index(0, false, false, false) => Family::Reach,
            _ if i < self.zone_index(0, 0) => Family::Threat,
            _ => Family::Zone,
        }
    }

    /// How many weights the table has (its features' index range).
    pub fn weight_count(&self) -> usize {
        self.weights.len()
    }

    /// Calls `f(feature)` for every feature that piece `p` on `c` gives its owner.
    #[inline]
    fn visit_piece(&self, c: usize, p: Piece, royals: &Royals, mut f: impl FnMut(usize)) {
        let ty = p.ty as usize;
        let seen = if p.side == Side::First { c } else { self.turned[c] as usize };
        f(ty * self.cells + seen);
        if self.royal[ty] {
            return;
        }
        let s = p.side.index();
        let (file, rank) = self.coords[c];
        for (enemy, k) in [(false, s), (true, 1 - s)] {
            let Some((kf, kr)) = royals.at[k] else { continue };
            let dx = (file - kf).abs();
            let dr = if p.side == Side::First { rank - kr } else { kr - rank };
            if dx <= WINDOW && dr.abs() <= WINDOW {
                f(self.window_index(enemy, ty, dx, dr));
            }
        }
    }

    /// Calls `f(feature)` for every feature `side`'s pieces in hand give it.
    fn visit_hand(&self, pos: &Position, side: Side, mut f: impl FnMut(usize)) {
        for &ty in &self.hand_types {
            let held = (pos.hand(side, ty) as usize).min(HAND_STEPS);
            for k in 1..=held {
                f(self.hand_index(ty as usize, k));
            }
        }
    }

    fn window_index(&self, enemy: bool, ty: usize, dx: i32, dr: i32) -> usize {
        let table = self.types * self.cells + enemy as usize * self.types * WINDOW_CELLS;
        table + ty * WINDOW_CELLS + dx as usize * SPAN + (dr + WINDOW) as usize
    }

    /// Calls `f(feature, side, times)` for every attack feature of `pos`: each piece's reach,
    /// each attacked piece's threat, each royal's zone.
    fn visit_attacks(&self, pos: &Position, royals: &Royals, mut f: impl FnMut(usize, Side, i32)) {
        let walk = self.ray_cells.get_or_init(|| RayCells::new(&self.rays, self.types));
        ATTACKS.with_borrow_mut(|scratch| {
            scratch.ready(self.cells);
            let AttackScratch { guarded, cheapest, near, .. } = scratch;
            for side in Side::BOTH {
                if let Some(royal) = royals.cell[side.index()] {
                    for &t in &self.around[royal as usize] {
                        near[t as usize] += 1 << (32 * side.index());
                    }
                }
            }
            // Per attacking side: its attacks next to the first player's royal in the low half,
            // next to the second's in the high half.
            let mut zone_hits = [0u64; 2];
            for (c, p) in pos.cells().iter().enumerate() {
                let Some(p) = *p else { continue };
                let (s, ty) = (p.side.index(), p.ty as usize);
                let worth = self.worth[ty];
                let mut reached = 0;
                walk.walk(pos, c as Cell, p.side, ty, |t, occupant| {
                    let t = t as usize;
                    zone_hits[s] += near[t];
                    match occupant {
                        Some(q) if q.side == p.side => guarded[t] = true,
                        Some(_) => {
                            cheapest[t] = cheapest[t].min(worth);
                            reached += 1;
                        }
                        None => reached += 1,
                    }
                });
                if !self.royal[ty] && reached > 0 {
                    f(self.reach_index(ty), p.side, reached);
                }
            }
            for royal in royals.cell.iter().flatten() {
                for &t in &self.around[*royal as usize] {
                    near[t as usize] = 0;
                }
            }
            let mover = pos.side_to_move();
            // The walk marked occupied cells alone: each is read and put back at rest here.
            for (c, p) in pos.cells().iter().enumerate() {
                let Some(p) = *p else { continue };
                let (guard, cheapest) =
                    (std::mem::take(&mut guarded[c]), std::mem::replace(&mut cheapest[c], i32::MAX));
                let ty = p.ty as usize;
                if self.royal[ty] || cheapest == i32::MAX {
                    continue;
                }
                let cheaper = cheapest < self.worth[ty];
                f(self.threat_index(ty, guard, cheaper, p.side == mover), p.side, 1);
            }
            for side in Side::BOTH {
                if royals.cell[side.index()].is_none() {
                    continue;
                }
                let enemy = side.opponent().index();
                let attacks = (zone_hits[enemy] >> (32 * side.index())) as u32 as usize;
                let held: u32 = self.hand_types.iter().map(|&ty| pos.hand(side.opponent(), ty) as u32).sum();
                let bucket = HELD_FROM.iter().rposition(|&h| held >= h).unwrap_or(0);
                f(self.zone_index(attacks.min(ZONE_CAP), bucket), side, 1);
            }
            scratch.at_rest = true;
        });
    }

    fn hand_index(&self, ty: usize, k: usize) -> usize {
        self.types * (self.cells + 2 * WINDOW_CELLS) + ty * HAND_STEPS + (k - 1)
    }

    fn reach_index(&self, ty: usize) -> usize {
        self.types * (self.cells + 2 * WINDOW_CELLS + HAND_STEPS) + ty
    }

    fn threat_index(&self, ty: usize, guarded: bool, cheaper: bool, mover: bool) -> usize {
        let kind = 4 * guarded as usize + 2 * cheaper as usize + mover as usize;
        self.reach_index(self.types) + ty * THREAT_KINDS + kind
    }

    fn zone_index(&self, attacks: usize, bucket: usize) -> usize {
        self.threat_index(self.types, false, false, false) + attacks * HELD_FROM.len() + bucket
    }
}

/// How many weights a table has for `types` piece types on `cells` cells.
fn feature_count(types: usize, cells: usize) -> usize {
    types * (cells + 2 * WINDOW_CELLS + HAND_STEPS + 1 + THREAT_KINDS) + (ZONE_CAP + 1) * HELD_FROM.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(v: &dyn Variant, lines: &str) -> Placement {
        let lines: Vec<String> = lines.lines().map(str::to_string).collect();
        Placement::parse(v, &lines).unwrap()
    }

    /// Each side's score: every piece's part, the hand's and the attacks'.
    fn score(v: &dyn Variant, p: &Placement, pos: &Position) -> [i32; 2] {
        let royals = royals_of(v, p, pos);
        let mut out = [0; 2];
        for (c, q) in pos.cells().iter().enumerate() {
            if let Some(q) = *q {
                out[q.side.index()] += p.piece(c, q, &royals);
            }
        }
        let attacks = p.attacks(pos, &royals);
        for side in Side::BOTH {
            out[side.index()] += p.hand(pos, side) + attacks[side.index()];
        }
        out
    }

    #[test]
    fn a_table_scores_both_sides_from_their_own_view() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let p = table(v.as_ref(), "cell P 7f 50\ncell K 5i 7\nhand P 1 30\nhand P 2 10\nown G 1 0 20\nenemy S 0 1 40");
        let score = |s: &str| {
            let pos = v.parse_position(s).unwrap();
            score(v.as_ref(), &p, &pos)
        };
        assert_eq!(
            score("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            [47, 47],
            "the King's cell and two Golds beside it"
        );
        // Black's Pawn on 7f, White's on 3d (7f seen from White's side).
        assert_eq!(score("4k4/9/9/6p2/9/2P6/9/9/4K4 b - 1"), [57, 57]);
        assert_eq!(score("4k4/9/9/9/9/9/9/9/4K4 b 3P 1"), [47, 7], "the third Pawn in hand adds nothing");
        // A Gold beside its King; a Silver a rank in front of White's King, seen from Black.
        assert_eq!(score("9/4S4/4k4/9/9/9/9/9/3GK4 b - 1"), [7 + 20 + 40, 0]);
    }

    #[test]
    fn lines_read_back_and_features_give_the_score_difference() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let text = "cell K 8h 150\ncell +P 3c -12\nown G 1 0 31\nenemy S 0 1 40\nhand P 4 -58\nreach R 7\nreach P 3\n\
                    threat G guarded dearer waiter 12\nthreat S loose cheaper mover -90\nzone 0 0 25\nzone 2 3 -40";
        let p = table(v.as_ref(), text);
        assert_eq!(p.lines(v.as_ref()).join("\n"), text);
        let pos =
            v.parse_position("ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2PP1P3/PPS1P1PPP/2G1G2R1/LN2K2NL w B4Pb 1").unwrap();
        let [b, w] = score(v.as_ref(), &p, &pos);
        let q = Placement::with_weights(v.as_ref(), &p.weights);
        let dot: f32 = q.features(&pos).iter().map(|&(i, x)| x * q.weights[i as usize] as f32).sum();
        assert_eq!(dot as i32, w - b, "White to move");
    }

    #[test]
    fn every_line_kind_is_its_own_family() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let p = Placement::new(v.as_ref());
        // Black's promoted Pawn beside White's King, Silvers beside their own, pieces attacking
        // pieces.
        let pos = v.parse_position("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1").unwrap();
        let mut seen = std::collections::HashSet::new();
        for (i, _) in p.features(&pos) {
            let family = p.family(i as usize);
            seen.insert(family.word());
            // The family of an index is the word its line is written with.
            let mut weights = vec![0; p.weight_count()];
            weights[i as usize] = 1;
            let line = Placement::with_weights(v.as_ref(), &weights).lines(v.as_ref()).join("");
            assert!(line.starts_with(family.word()), "{line} is not a {family:?} weight");
        }
        assert_eq!(seen.len(), 7, "the position has weights of every family: {seen:?}");
    }

    #[test]
    fn bad_lines_are_named() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let err = |s: &str| Placement::parse(v.as_ref(), &[s.to_string()]).unwrap_err();
        assert!(err("cell X 5e 10").contains("line 1"), "{}", err("cell X 5e 10"));
        assert!(err("own G 4 0 10").contains("at most 3"));
        assert!(err("hand P 9 1").contains("1 to 8"));
        assert!(err("cell P 5e ten").contains("whole number"));
        assert!(err("pawn 5e").contains("expected"));
    }

    /// Per side: how many cells its pieces of `ty` reach, walked by coordinates rather than the
    /// table's precomputed rays; and per side, the enemy's attacks around its first royal.
    fn brute_attacks(v: &dyn Variant, pos: &Position, ty: usize) -> ([i32; 2], [usize; 2]) {
        let g = v.geometry();
        let rays = Rays::new(v);
        let mut counts = [vec![0usize; g.len()], vec![0usize; g.len()]];
        let mut reach = [0; 2];
        for (c, p) in pos.cells().iter().enumerate() {
            let Some(p) = *p else { continue };
            let (f, r, _) = g.coords(c as Cell);
            for ray in rays.of(p.side, p.ty as usize) {
                for k in 1..=ray.range {
                    let Some(t) = g.cell(f + k * ray.d[0], r + k * ray.d[1], 0) else { break };
                    counts[p.side.index()][t as usize] += 1;
                    let held = pos.piece_at(t);
                    if p.ty as usize == ty && held.is_none_or(|q| q.side != p.side) {
                        reach[p.side.index()] += 1;
                    }
                    if held.is_some() {
                        break;
                    }
                }
            }
        }
        let zone = Side::BOTH.map(|side| {
            let royal = (0..g.len() as Cell)
                .find(|&c| pos.piece_at(c).is_some_and(|p| p.side == side && v.info().pieces[p.ty as usize].royal))
                .unwrap();
            let (kf, kr, _) = g.coords(royal);
            (0..g.len() as Cell)
                .filter(|&c| {
                    let (f, r, _) = g.coords(c);
                    c != royal && (f - kf).abs() <= 1 && (r - kr).abs() <= 1
                })
                .map(|c| counts[side.opponent().index()][c as usize])
                .sum::<usize>()
                .min(ZONE_CAP)
        });
        (reach, zone)
    }

    #[test]
    fn reach_and_zone_match_a_walk_by_coordinates() {
        let v = crate::catalog::bundled_script("shogi").variant;
        for s in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BK4R1/LNSG1GSNL w - 10",
            "l3k3l/1r2g4/p1n1pps1p/2p3B2/9/2P1P4/PP3PP1P/1+b2G1K2/LN5RL w RSP 40",
        ] {
            let pos = v.parse_position(s).unwrap();
            let us = pos.side_to_move();
            for ty in [1, 3, 4, 8, 10, 12] {
                let mut weights = vec![0; Placement::new(v.as_ref()).weight_count()];
                let p = Placement::new(v.as_ref());
                weights[p.reach_index(ty)] = 1;
                let p = Placement::with_weights(v.as_ref(), &weights);
                let (reach, _) = brute_attacks(v.as_ref(), &pos, ty);
                let [b, w] = score(v.as_ref(), &p, &pos);
                assert_eq!([b, w], reach, "{s}: reach of {}", v.info().pieces[ty].written());
                let dot: f32 = p.features(&pos).iter().map(|&(i, x)| x * p.weights[i as usize] as f32).sum();
                assert_eq!(dot as i32, reach[us.index()] - reach[us.opponent().index()]);
            }
            let (_, zone) = brute_attacks(v.as_ref(), &pos, 0);
            let p = Placement::new(v.as_ref());
            let mut seen = [None; 2];
            p.visit_attacks(&pos, &royals_of(v.as_ref(), &p, &pos), |i, side, _| {
                if p.family(i) == Family::Zone {
                    seen[side.index()] = Some((i - p.zone_index(0, 0)) / HELD_FROM.len());
                }
            });
            assert_eq!(seen, zone.map(Some), "{s}");
        }
    }

    /// Each side's first royal, found by walking the board as the evaluation does.
    fn royals_of(v: &dyn Variant, p: &Placement, pos: &Position) -> Royals {
        let mut k = [None, None];
        for (c, q) in pos.cells().iter().enumerate() {
            if let Some(q) = q
                && v.info().pieces[q.ty as usize].royal
                && k[q.side.index()].is_none()
            {
                k[q.side.index()] = Some(c as Cell);
            }
        }
        p.royals(k)
    }

    #[test]
    fn a_loose_piece_a_pawn_attacks_is_a_cheap_threat_and_the_hand_sets_the_zone_bucket() {
        let v = crate::catalog::bundled_script("shogi").variant;
        // Black's Silver on 5e, attacked by White's Pawn on 5d, guarded by nothing; White holds
        // three pieces; Black is to move.
        let p = table(v.as_ref(), "threat S loose cheaper mover -90\nthreat S guarded cheaper mover -30\nzone 0 3 -20");
        let pos = v.parse_position("4k4/9/9/4p4/4S4/9/9/9/4K4 b 2gp 1").unwrap();
        assert_eq!(score(v.as_ref(), &p, &pos), [-90 - 20, 0], "Black's King is in the 3–5 bucket of White's hand");
        // A Gold on 5f guards the Silver: the guarded weight instead.
        let pos = v.parse_position("4k4/9/9/4p4/4S4/4G4/9/9/4K4 b 2gp 1").unwrap();
        assert_eq!(score(v.as_ref(), &p, &pos), [-30 - 20, 0]);
        assert!(p.reads_attacks);
        assert!(!table(v.as_ref(), "cell P 7f 50").reads_attacks, "a table of placements alone walks no attacks");
    }

    #[test]
    fn the_attack_scratch_is_left_at_rest_for_the_next_position() {
        // The walk puts back only what it marked: a position scored after others, on this board
        // and on a bigger one, scores as it does first on a fresh thread. Guarded and loose
        // pieces weigh differently for every type, so a mark left behind would show.
        let v = crate::catalog::bundled_script("shogi").variant;
        let big = crate::catalog::bundled_script("taishin").variant;
        let mut lines = vec!["reach R 7".to_string()];
        for (k, t) in ["P", "L", "N", "S", "G", "B", "R"].iter().enumerate() {
            for (g, guard) in ["guarded", "loose"].iter().enumerate() {
                for (c, cheaper) in ["cheaper", "dearer"].iter().enumerate() {
                    for (m, mover) in ["mover", "waiter"].iter().enumerate() {
                        lines
                            .push(format!("threat {t} {guard} {cheaper} {mover} {}", 100 * k + 17 * g + 5 * c + m + 1));
                    }
                }
            }
        }
        for n in 0..=ZONE_CAP {
            for held in HELD_FROM {
                lines.push(format!("zone {n} {held} {}", 1000 + 13 * n as u32 + held));
            }
        }
        let p = Placement::parse(v.as_ref(), &lines).unwrap();
        let q = table(big.as_ref(), "reach K 3");
        let positions: Vec<Position> = [
            "l3k3l/1r2g4/p1n1pps1p/2p3B2/9/2P1P4/PP3PP1P/1+b2G1K2/LN5RL w RSP 40",
            "ln1g1gsnl/1r1s1k1b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BK4R1/LNSG1GSNL w - 10",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/9/4p4/4S4/4G4/9/9/4K4 b 2gp 1",
        ]
        .iter()
        .map(|s| v.parse_position(s).unwrap())
        .collect();
        let fresh: Vec<[i32; 2]> = positions
            .iter()
            .map(|pos| std::thread::scope(|t| t.spawn(|| score(v.as_ref(), &p, pos)).join().unwrap()))
            .collect();
        for (i, before) in positions.iter().enumerate() {
            for (j, pos) in positions.iter().enumerate() {
                score(v.as_ref(), &p, before);
                assert_eq!(score(v.as_ref(), &p, pos), fresh[j], "position {j} after position {i}");
            }
            score(big.as_ref(), &q, &big.start_position());
            assert_eq!(score(v.as_ref(), &p, before), fresh[i], "position {i} after a bigger board");
        }
    }

    #[test]
    fn bad_attack_lines_are_named() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let err = |s: &str| Placement::parse(v.as_ref(), &[s.to_string()]).unwrap_err();
        assert!(err("threat S hanging cheaper mover 5").contains("neither guarded nor loose"));
        assert!(err("zone 13 0 5").contains("0 to 12"));
        assert!(err("zone 2 2 5").contains("counted from one of"));
    }
}
