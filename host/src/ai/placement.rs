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
//!   fourth Pawn in hand be worth less than the first.
//!
//! The weights are learnt, not written: `henka tune --placement` fits them to a teacher's
//! verdicts on positions from the variant's own self-play (see [`crate::playtest::placement_fit`]).
//! They are stored as readable lines (`cell K 8h 150`, `own G 1 0 31`, `enemy S 0 1 40`, `hand P
//! 4 -58`) in a tuned evaluation, so the file names tokens and cells, not indices.

use henka_api::notation::{cell_name, lookup_token, parse_cell};
use henka_api::{Cell, Piece, PieceId, Position, Side, Variant};

/// The royal-relative windows reach this many cells sideways and forwards or back.
const WINDOW: i32 = 3;
/// Offsets per type in a royal-relative window: `|dx|` in `0..=WINDOW`, `dr` in `-WINDOW..=WINDOW`.
const SPAN: usize = (2 * WINDOW + 1) as usize;
const WINDOW_CELLS: usize = (WINDOW as usize + 1) * SPAN;
/// Pieces of one type in hand that each have a weight of their own; more add nothing further.
pub const HAND_STEPS: usize = 8;

/// The kinds of weight a table holds (see the module doc). A fit may leave a family out
/// (`henka tune --placement --without hand`); its weights then stay zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Cells,
    Own,
    Enemy,
    Hand,
}

impl Family {
    /// The family's word in the table's lines (`cell`, `own`, `enemy`, `hand`).
    pub fn word(self) -> &'static str {
        match self {
            Family::Cells => "cell",
            Family::Own => "own",
            Family::Enemy => "enemy",
            Family::Hand => "hand",
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
}

/// Each side's first royal as `(file, rank)`, where it has one (see [`Placement::royals`]).
#[derive(Clone, Copy, Debug)]
pub struct Royals([Option<(i32, i32)>; 2]);

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
        Placement {
            types,
            cells,
            weights: vec![0; feature_count(types, cells)],
            turned,
            coords,
            royal: v.info().pieces.iter().map(|p| p.royal).collect(),
            hand_types: v.info().hand_types.clone(),
        }
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
                _ => return Err(bad("expected `cell T CELL CP`, `own|enemy T DX DR CP` or `hand T N CP`")),
            };
            p.weights[index] = int(words[words.len() - 1])?;
        }
        Ok(p)
    }

    /// A table with these weights (by feature index, as [`Placement::features`] numbers them).
    pub fn with_weights(v: &dyn Variant, weights: &[i32]) -> Placement {
        let mut p = Placement::new(v);
        for (w, &x) in p.weights.iter_mut().zip(weights) {
            *w = x;
        }
        p
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
        out
    }

    /// Where each side's first royal stands, as [`Placement::piece`] reads it; found once per
    /// position by the caller, which walks the board anyway.
    pub fn royals(&self, royals: [Option<Cell>; 2]) -> Royals {
        Royals(royals.map(|k| k.map(|k| self.coords[k as usize])))
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
        out
    }

    /// The family of the weight at feature index `i` (the index layout of [`Placement::features`]).
    pub fn family(&self, i: usize) -> Family {
        let cells = self.types * self.cells;
        let window = self.types * WINDOW_CELLS;
        match i {
            _ if i < cells => Family::Cells,
            _ if i < cells + window => Family::Own,
            _ if i < cells + 2 * window => Family::Enemy,
            _ => Family::Hand,
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
            let Some((kf, kr)) = royals.0[k] else { continue };
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

    fn hand_index(&self, ty: usize, k: usize) -> usize {
        self.types * (self.cells + 2 * WINDOW_CELLS) + ty * HAND_STEPS + (k - 1)
    }
}

/// How many weights a table has for `types` piece types on `cells` cells.
fn feature_count(types: usize, cells: usize) -> usize {
    types * (cells + 2 * WINDOW_CELLS + HAND_STEPS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(v: &dyn Variant, lines: &str) -> Placement {
        let lines: Vec<String> = lines.lines().map(str::to_string).collect();
        Placement::parse(v, &lines).unwrap()
    }

    /// Each side's score: every piece's part and the hand's.
    fn score(v: &dyn Variant, p: &Placement, pos: &Position) -> [i32; 2] {
        let mut k = [None, None];
        for (c, q) in pos.cells().iter().enumerate() {
            if let Some(q) = q
                && v.info().pieces[q.ty as usize].royal
                && k[q.side.index()].is_none()
            {
                k[q.side.index()] = Some(c as Cell);
            }
        }
        let royals = p.royals(k);
        let mut out = [0; 2];
        for (c, q) in pos.cells().iter().enumerate() {
            if let Some(q) = *q {
                out[q.side.index()] += p.piece(c, q, &royals);
            }
        }
        for side in Side::BOTH {
            out[side.index()] += p.hand(pos, side);
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
        let text = "cell K 8h 150\ncell +P 3c -12\nown G 1 0 31\nenemy S 0 1 40\nhand P 4 -58";
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
        // Black's promoted Pawn beside White's King, Silvers beside their own.
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
        assert_eq!(seen.len(), 4, "the position has weights of every family: {seen:?}");
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
}
