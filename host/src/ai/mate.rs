//! Mates in one by a drop, found without a search: what shogi engines test at the horizon.
//!
//! The quiescence search tries captures only, so a side that could mate by dropping a piece next
//! to the enemy royal looks no better there than its material says, and the move before it, which
//! allowed the mate, looks safe. Shogi games end in mates, and most of the mating moves are drops.
//! Searching every quiet check at the horizon would multiply the tree (a hand of big pieces offers
//! dozens); this probe looks only at drops onto the cells within two of the enemy royal from which
//! the dropped type attacks it, asks the variant whether each gives check without playing it
//! ([`Variant::gives_check_unplayed`]), skips a checker next to the royal that nothing guards (the
//! royal takes it), and plays the rest. Cheap answers come first: a free cell next to the royal or
//! any capture means the check is met; only then are all the replies generated. Without those
//! two tests the probe cost a third of the node rate in drop-heavy shogi positions; with them,
//! nothing measurable (docs/ai-strength.md, round 14).
//! A mate it reports is a legal move of the position (checked against the move list, so drop
//! rules such as shogi's ban on mating with a dropped Pawn are the variant's to say).
//!
//! It answers only where the variant can tell a drop's check unplayed and list a cell's attackers
//! (the kit's plain-data variants); elsewhere it finds nothing and costs a hand lookup.

use henka_api::{Cell, Move, PieceId, Position, RuleError, Side, Variant, Vector};

use crate::diagram::{Target, diagram};

/// Drop cells this far (in the largest coordinate) from the royal are tried: a drop that checks
/// from farther away (a long-range piece) can be blocked or taken by more pieces, and is rarely
/// mate.
const RING: i32 = 2;

/// What the probe needs to know of a variant, made once per searcher.
#[derive(Clone, Debug)]
pub struct MateProbe {
    /// Per side, per piece type: the board-frame steps from the royal to the cells within
    /// [`RING`] of it from which a piece of that type attacks it on an empty board. Empty for
    /// types whose move has no flat diagram (3D moves), and on boards with levels.
    checks_from: [Vec<Vec<Vector>>; 2],
    /// Per cell, the cells next to it (where a royal there may step).
    neighbours: Vec<Vec<Cell>>,
    royal: Vec<bool>,
    hand_types: Vec<PieceId>,
}

impl MateProbe {
    pub fn new(v: &dyn Variant) -> MateProbe {
        let flat = v.geometry().levels() == 1;
        let offsets: Vec<Vec<(i32, i32)>> = v
            .info()
            .pieces
            .iter()
            .map(|p| match diagram(&p.betza) {
                Ok(cells) if flat => cells
                    .iter()
                    .filter(|&&(_, target)| target != Target::MovesOnly)
                    .map(|&((df, dr), _)| (df, dr))
                    .filter(|&(df, dr)| df.abs().max(dr.abs()) <= RING)
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        // A piece at royal − step attacks the royal: the step back from the royal, per side.
        let checks_from = [Side::First, Side::Second].map(|side| {
            offsets
                .iter()
                .map(|cells| cells.iter().map(|&(df, dr)| Vector::flat(-df as i8, -dr as i8).for_side(side)).collect())
                .collect()
        });
        let g = v.geometry();
        let neighbours = (0..g.len())
            .map(|c| {
                let (f, r, l) = g.coords(c as Cell);
                (-1..=1)
                    .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
                    .filter(|&d| d != (0, 0))
                    .filter_map(|(df, dr)| g.cell(f + df, r + dr, l))
                    .collect()
            })
            .collect();
        MateProbe {
            checks_from,
            neighbours,
            royal: v.info().pieces.iter().map(|p| p.royal).collect(),
            hand_types: v.info().hand_types.clone(),
        }
    }

    /// A drop that mates the opponent at once, if the side to move (not in check) has one.
    /// `scratch` and `attackers` are buffers; `scratch` ends with any content.
    pub fn drop_mate(
        &self,
        v: &dyn Variant,
        pos: &Position,
        scratch: &mut Vec<Move>,
        attackers: &mut Vec<Cell>,
    ) -> Result<Option<Move>, RuleError> {
        let me = pos.side_to_move();
        if !self.hand_types.iter().any(|&ty| pos.hand(me, ty) > 0) {
            return Ok(None);
        }
        let Some(royal) = self.lone_royal(pos, me.opponent()) else { return Ok(None) };
        let g = v.geometry();
        let (rf, rr, _) = g.coords(royal);
        for &ty in &self.hand_types {
            if pos.hand(me, ty) == 0 {
                continue;
            }
            for step in &self.checks_from[me.index()][ty as usize] {
                let Some(cell) = g.offset(royal, *step) else { continue };
                if pos.piece_at(cell).is_some() {
                    continue;
                }
                // Next to the royal, a checker no piece of ours guards is simply taken by it.
                let (f, r, _) = g.coords(cell);
                if (f - rf).abs().max((r - rr).abs()) == 1 {
                    if !v.attackers(pos, cell, me, attackers) {
                        return Ok(None);
                    }
                    if attackers.is_empty() {
                        continue;
                    }
                }
                let mv = Move::drop(ty, cell);
                match v.gives_check_unplayed(pos, mv) {
                    None => return Ok(None),
                    Some(false) => continue,
                    Some(true) => {}
                }
                let mut child = pos.clone();
                v.play(&mut child, mv)?;
                // Cheap ways out first: a cell next to the royal that none of ours attacks (blind
                // to a line through the royal's own cell, so it may only miss a mate), or any
                // capture, which answers a check only if it takes the checker or the royal
                // walks.
                if self.has_flight(v, &child, royal, me, attackers) {
                    continue;
                }
                v.legal_captures(&child, scratch)?;
                if !scratch.is_empty() {
                    continue;
                }
                v.legal_moves(&child, scratch)?;
                if !scratch.is_empty() || !self.is_loss(v, &child)? {
                    continue;
                }
                // Mate, if the drop is legal at all (a variant may forbid some drops there).
                v.legal_moves(pos, scratch)?;
                if scratch.contains(&mv) {
                    return Ok(Some(mv));
                }
            }
        }
        Ok(None)
    }

    /// Whether the royal on `royal` has an empty cell next to it that `by` does not attack.
    fn has_flight(&self, v: &dyn Variant, pos: &Position, royal: Cell, by: Side, attackers: &mut Vec<Cell>) -> bool {
        self.neighbours[royal as usize]
            .iter()
            .any(|&n| pos.piece_at(n).is_none() && v.attackers(pos, n, by, attackers) && attackers.is_empty())
    }

    /// Whether the side to move in `pos`, which has no legal move, has lost (not drawn).
    fn is_loss(&self, v: &dyn Variant, pos: &Position) -> Result<bool, RuleError> {
        Ok(v.outcome(pos, &[])?.is_some_and(|o| o.winner == Some(pos.side_to_move().opponent())))
    }

    /// `side`'s royal cell, where it has exactly one on the board.
    fn lone_royal(&self, pos: &Position, side: Side) -> Option<Cell> {
        let mut found = None;
        for (c, p) in pos.cells().iter().enumerate() {
            if let Some(p) = p
                && p.side == side
                && self.royal[p.ty as usize]
            {
                if found.is_some() {
                    return None;
                }
                found = Some(c as Cell);
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(v: &dyn Variant, sfen: &str) -> Option<String> {
        let pos = v.parse_position(sfen).unwrap();
        let mate = MateProbe::new(v).drop_mate(v, &pos, &mut Vec::new(), &mut Vec::new()).unwrap();
        mate.map(|mv| v.format_move(&pos, mv))
    }

    #[test]
    fn finds_a_guarded_drop_that_leaves_no_reply() {
        let v = crate::catalog::bundled_script("shogi").variant;
        // The Gold on 5b is guarded by the Lance, and White's Lances and Pawns can neither take
        // it nor make room for the King.
        assert_eq!(probe(v.as_ref(), "3lkl3/3p1p3/4L4/9/9/9/9/9/4K4 b G 1").as_deref(), Some("G*5b"));
        // The same for White, whose pieces face the other way.
        assert_eq!(probe(v.as_ref(), "4k4/9/9/9/9/9/4l4/3P1P3/3LKL3 w g 1").as_deref(), Some("G*5h"));
    }

    #[test]
    fn a_mate_the_rules_forbid_is_no_mate() {
        let v = crate::catalog::bundled_script("shogi").variant;
        // The same drop with a Pawn would mate, and a dropped Pawn may not mate in shogi.
        assert_eq!(probe(v.as_ref(), "3lkl3/3p1p3/4L4/9/9/9/9/9/4K4 b P 1"), None);
    }

    #[test]
    fn an_unguarded_checker_or_an_escape_is_no_mate() {
        let v = crate::catalog::bundled_script("shogi").variant;
        // Without the Lance the King takes the Gold. A Silver there mates too, but without
        // White's Pawns the King steps aside, to cells a Silver does not attack.
        assert_eq!(probe(v.as_ref(), "3lkl3/3p1p3/9/9/9/9/9/9/4K4 b G 1"), None);
        assert_eq!(probe(v.as_ref(), "3lkl3/3p1p3/4L4/9/9/9/9/9/4K4 b S 1").as_deref(), Some("S*5b"));
        assert_eq!(probe(v.as_ref(), "3lkl3/9/4L4/9/9/9/9/9/4K4 b S 1"), None);
        // And with nothing in hand there is nothing to drop.
        assert_eq!(probe(v.as_ref(), "3lkl3/3p1p3/4L4/9/9/9/9/9/4K4 b - 1"), None);
    }
}
