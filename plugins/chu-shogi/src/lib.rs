//! Chu shogi (docs/rules/chu-shogi.md) as a plugin: the rules kit with the script's rule code
//! written as Rust [`Hooks`], so `henka verify chu-shogi` compares `scripts/chu-shogi.rhai` with the
//! same rules compiled. The pieces, zone and end rules are data, as in the script; the hooks are
//! the script's `filter_moves` (lishogi's promotion rule, §5, and lion trading, §7), its
//! `after_move` effect (the counter-strike cell, §7.2) and its `game_end` (bare king and two lone
//! royals, §3). The plugin ABI carries no rule options: this is the script at its default,
//! `lion_trading = lishogi`. "§N" is a section of the rules page.
//!
//! The script works on move strings and asks the kit about positions (`pos.attacked`,
//! `pos.play`); here the hooks read [`Move`] values (`piece` differs from the mover's type on a
//! promotion, `via` is a first-step capture) and the board's coordinates, and ask a hook-free build
//! of the same rules for attacks: attacks in Chu shogi are the pieces' data moves, so that build
//! answers exactly what the script's `pos.attacked` does.

use std::sync::Arc;

use henka_api::kit::{EffectTrigger, Hooks, KitVariant, Played};
use henka_api::model::position::RULE_COUNTERS;
use henka_api::rules::shogi_pieces::piece;
use henka_api::rules::{CheckRule, PieceRule, PromotionRule, RuleSet};
use henka_api::{
    Cell, EndReason, Geometry, GeometrySpec, HistoryEntry, Metadata, Move, MoveKind, NO_CELL, Outcome, Piece, PieceId,
    Position, RuleError, Side, VariantInfo,
};

/// The Lion's moves (§6.1), as the script writes them (and scripts/taishin.rhai).
const LION_MOVES: &str = "KNADcaKmcabK";

/// §4, the script's table row for row: name, kanji, token, moves, and the promoted type's name,
/// kanji and moves. A promoted type shares its base's token.
type Row = (&'static str, &'static str, &'static str, &'static str, Option<(&'static str, &'static str, &'static str)>);
const PIECES: [Row; 21] = [
    ("King", "玉将", "K", "K", None),
    ("Drunk Elephant", "酔象", "DE", "FsfW", Some(("Crown Prince", "太子", "K"))),
    ("Gold General", "金将", "G", "WfF", Some(("Rook", "飛車", "R"))),
    ("Silver General", "銀将", "S", "FfW", Some(("Vertical Mover", "竪行", "WvR"))),
    ("Copper General", "銅将", "C", "fFvW", Some(("Side Mover", "横行", "WsR"))),
    ("Ferocious Leopard", "猛豹", "FL", "FvW", Some(("Bishop", "角行", "B"))),
    ("Blind Tiger", "盲虎", "BT", "FsbW", Some(("Flying Stag", "飛鹿", "KvR"))),
    ("Kirin", "麒麟", "KY", "FD", Some(("Lion", "獅子", LION_MOVES))),
    ("Phoenix", "鳳凰", "PH", "WA", Some(("Queen", "奔王", "Q"))),
    ("Lance", "香車", "L", "fR", Some(("White Horse", "白駒", "vRfB"))),
    ("Reverse Chariot", "反車", "RV", "vR", Some(("Whale", "鯨鯢", "vRbB"))),
    ("Side Mover", "横行", "SM", "WsR", Some(("Free Boar", "奔猪", "BsR"))),
    ("Vertical Mover", "竪行", "VM", "WvR", Some(("Flying Ox", "飛牛", "BvR"))),
    ("Bishop", "角行", "B", "B", Some(("Dragon Horse", "龍馬", "BW"))),
    ("Rook", "飛車", "R", "R", Some(("Dragon King", "龍王", "RF"))),
    ("Dragon Horse", "龍馬", "DH", "BW", Some(("Horned Falcon", "角鷹", "BbsRfWfDfcavWfmabW"))),
    ("Dragon King", "龍王", "DK", "RF", Some(("Soaring Eagle", "飛鷲", "RbBfFfAfcavFfmabF"))),
    ("Queen", "奔王", "Q", "Q", None),
    ("Lion", "獅子", "LN", LION_MOVES, None),
    ("Pawn", "歩兵", "P", "fW", Some(("Tokin", "と金", "WfF"))),
    ("Go-Between", "仲人", "GB", "vW", Some(("Drunk Elephant", "酔象", "FsfW"))),
];

// The piece ids the hooks test, as the table above numbers the types (each promoted type right
// after its base). The script tests names: "Lion" is both LION and PROMOTED_KIRIN.
const KING: PieceId = 0;
const CROWN_PRINCE: PieceId = 2;
const PROMOTED_KIRIN: PieceId = 14;
const LANCE: PieceId = 17;
const LION: PieceId = 34;
const PAWN: PieceId = 35;
const GO_BETWEEN: PieceId = 37;

/// The rule counter of §7.2 (the script's `counter(0)`): the cell where the last move's non-Lion
/// took a Lion, as `(file − 1) × 12 + rank + 1` (rank a = 0), or 0.
const STRIKE: usize = RULE_COUNTERS;

const SIZE: u8 = 12;
/// §5: the far four ranks.
const ZONE: u8 = 4;

/// The script's rules, piece for piece in its order.
pub fn chu_shogi() -> RuleSet {
    let meta = Metadata {
        name: "Chu shogi".into(),
        author: "traditional".into(),
        version: "1.0".into(),
        description: "12×12 shogi without drops: Lions that move twice, promotion in the far four ranks, the King \
                      and the Crown Prince as royals (the game is lost with the last), no need to leave check, and \
                      lishogi's lion-trading rules (compiled plugin)."
            .into(),
    };
    let start = "l(fl)csg(de)kgsc(fl)l/(rv)1b1(bt)(ph)(ky)(bt)1b1(rv)/(sm)(vm)r(dh)(dk)q(ln)(dk)(dh)r(vm)(sm)/\
                 pppppppppppp/3(gb)4(gb)3/12/12/3(GB)4(GB)3/PPPPPPPPPPPP/\
                 (SM)(VM)R(DH)(DK)(LN)Q(DK)(DH)R(VM)(SM)/(RV)1B1(BT)(KY)(PH)(BT)1B1(RV)/L(FL)CSGK(DE)GSC(FL)L b - 1";
    let pieces = PIECES.iter().map(|&(name, kanji, token, moves, promotes)| {
        let base = piece(name, token, moves).kanji(kanji);
        let promoted = promotes.map(|(name, kanji, moves)| piece(name, token, moves).kanji(kanji));
        // §3: the King and the Crown Prince (the Drunk Elephant's promotion) are royal.
        let royal = |p: PieceRule| if p.name == "King" || p.name == "Crown Prince" { p.royal() } else { p };
        (royal(base), promoted.map(royal))
    });
    RuleSet {
        // §5: promotion is never forced, so a Pawn or Lance may stay on the last rank; the kit
        // offers it on every move that starts or ends in the zone, the move filter narrows that.
        promotion: PromotionRule { zone_depth: ZONE, allow_immobile: true, ..Default::default() },
        drops: false,
        // §3: royals may be left in check; no move loses; the fourth repetition draws, perpetual
        // check losing (the defaults).
        check: CheckRule::Ignore,
        ..RuleSet::new(meta, GeometrySpec::flat(SIZE, SIZE), start)
    }
    .with_pieces(pieces)
}

fn is_lion(ty: PieceId) -> bool {
    ty == LION || ty == PROMOTED_KIRIN
}

fn is_royal(ty: PieceId) -> bool {
    ty == KING || ty == CROWN_PRINCE
}

/// The script's rule code in Rust.
#[derive(Debug)]
struct ChuHooks {
    board: Geometry,
    /// The same rules without hooks, for its attack test: the script's `pos.attacked`.
    plain: KitVariant,
}

impl ChuHooks {
    fn new() -> ChuHooks {
        let board = Geometry::new(&GeometrySpec::flat(SIZE, SIZE)).expect("a 12×12 board");
        ChuHooks { board, plain: KitVariant::new(chu_shogi(), None).expect("valid rules") }
    }

    /// §5: the cell is in `side`'s zone, the far four ranks.
    fn in_zone(&self, side: Side, c: Cell) -> bool {
        self.board.rank_from(side, c) >= i32::from(SIZE - ZONE)
    }

    fn on_last_rank(&self, side: Side, c: Cell) -> bool {
        self.board.rank_from(side, c) == i32::from(SIZE - 1)
    }

    /// The king-step distance between two cells.
    fn distance(&self, a: Cell, b: Cell) -> i32 {
        let ((fa, ra, _), (fb, rb, _)) = (self.board.coords(a), self.board.coords(b));
        (fa - fb).abs().max((ra - rb).abs())
    }

    /// A cell as the counter of §7.2 holds it: `(file − 1) × 12 + rank + 1`, with the file numbered
    /// from Black's right from 1 and the rank from the top from 0 (rank a), as the script numbers
    /// its cell names. Board coordinates count files from Black's left and ranks from Black's side.
    fn cell_code(&self, c: Cell) -> u16 {
        let (f, r, _) = self.board.coords(c);
        let size = i32::from(SIZE);
        let (file, rank) = (size - f, size - 1 - r);
        u16::try_from((file - 1) * size + rank + 1).expect("a cell of the board")
    }

    /// A Pawn or Lance on its last rank: it can never move again, and the end rules of §3 do not
    /// count it.
    fn dead(&self, c: Cell, p: Piece) -> bool {
        (p.ty == PAWN || p.ty == LANCE) && self.on_last_rank(p.side, c)
    }

    /// Whether some royal of `side` is attacked by `by`.
    fn royal_attacked(&self, pos: &Position, side: Side, by: Side) -> bool {
        (0..pos.cells().len() as Cell).any(|c| {
            pos.piece_at(c).is_some_and(|p| p.side == side && is_royal(p.ty)) && self.plain.attacks(pos, c, by)
        })
    }

    /// §5: whether the promotion `mv` by `mover` is allowed. The kit offers promotion on every move
    /// of a promotable piece that starts or ends in the zone; lishogi's rule allows it on entering
    /// the zone, on a capture with either end in it, and on a Pawn's or Lance's move to the last
    /// rank. (Pieces that promote have no first-step captures, so a capture is a piece on `to`.)
    fn promotion_allowed(&self, pos: &Position, side: Side, mover: Piece, mv: Move) -> bool {
        !self.in_zone(side, mv.from)
            || pos.piece_at(mv.to).is_some()
            || ((mover.ty == PAWN || mover.ty == LANCE) && self.on_last_rank(side, mv.to))
    }

    /// §7.1: whether `mv`, a Lion's capture of the enemy Lion two cells away, is barred: its first
    /// step took nothing, or a Pawn or Go-Between, and the enemy Lion is protected — some enemy
    /// piece attacks the cell in the position after the move (so with the capturing Lion's start
    /// and first-step cell empty), or the Pawn or Go-Between taken on the first step attacked it
    /// (lishogi judges protection before the move).
    fn bridge_barred(&self, pos: &Position, side: Side, mv: Move) -> bool {
        let enemy = side.opponent();
        if let Some((bridge, first)) = mv.stop().and_then(|c| pos.piece_at(c).map(|p| (c, p))) {
            if first.ty != PAWN && first.ty != GO_BETWEEN {
                return false;
            }
            // The doomed piece's own attack on `to`: a Pawn's step forward, a Go-Between's either way.
            let ((fb, _, _), (ft, _, _)) = (self.board.coords(bridge), self.board.coords(mv.to));
            let forward = self.board.rank_from(enemy, mv.to) - self.board.rank_from(enemy, bridge);
            if fb == ft && (forward == 1 || (first.ty == GO_BETWEEN && forward == -1)) {
                return true;
            }
        }
        let mut after = pos.clone();
        let lion = after.piece_at(mv.from);
        after.set(mv.from, None);
        if let Some(c) = mv.stop() {
            after.set(c, None);
        }
        after.set(mv.to, lion);
        self.plain.attacks(&after, mv.to, enemy)
    }

    /// Whether lishogi's rules forbid `mv` (§5, §7): `strike` is the counter of §7.2.
    fn barred(&self, pos: &Position, side: Side, strike: u16, mv: Move) -> bool {
        let Some(mover) = pos.piece_at(mv.from).filter(|_| mv.kind == MoveKind::Board) else { return false };
        if mv.piece != mover.ty && !self.promotion_allowed(pos, side, mover, mv) {
            return true;
        }
        let takes_lion =
            |c: Cell| c != NO_CELL && c != mv.from && pos.piece_at(c).is_some_and(|p| p.side != side && is_lion(p.ty));
        if is_lion(mover.ty) {
            // §7.1: a Lion may take a Lion next to it; two cells away, not always.
            takes_lion(mv.to) && self.distance(mv.from, mv.to) == 2 && self.bridge_barred(pos, side, mv)
        } else {
            // §7.2: right after a non-Lion took a Lion, a non-Lion may take a Lion only on that cell.
            strike != 0 && [mv.via, mv.to].into_iter().any(|c| takes_lion(c) && self.cell_code(c) != strike)
        }
    }

    /// §3, bare king: `side`'s only live piece is `lone`, a royal, and it has lost if the other side
    /// has a royal and more than one piece that counts (`strong`: its live pieces but Pawns and
    /// Go-Betweens), unless `side` attacks one of the other side's royals, or the other side has just
    /// two that count and one stands next to the bare royal (which could take it and bare the other).
    fn bare_royal(&self, pos: &Position, side: Side, lone: Option<(Cell, Piece)>, strong: &[Cell]) -> bool {
        let other = side.opponent();
        let Some((cell, _)) = lone.filter(|(_, p)| is_royal(p.ty)) else { return false };
        let has_royal = pos.cells().iter().flatten().any(|p| p.side == other && is_royal(p.ty));
        if strong.len() <= 1 || !has_royal || self.royal_attacked(pos, other, side) {
            return false;
        }
        strong.len() > 2 || strong.iter().all(|&c| self.distance(c, cell) > 1)
    }
}

impl Hooks for ChuHooks {
    fn has_move_filter(&self) -> bool {
        true
    }

    fn filter_moves(&self, pos: &Position, moves: &mut Vec<Move>) -> Result<(), RuleError> {
        let (side, strike) = (pos.side_to_move(), pos.counter(STRIKE));
        moves.retain(|&mv| !self.barred(pos, side, strike, mv));
        Ok(())
    }

    /// §7.2: after every move (every move resets it); it sets only the counter.
    fn effect_trigger(&self, _info: &VariantInfo) -> Result<Option<EffectTrigger>, RuleError> {
        Ok(Some(EffectTrigger::every().counters_only()))
    }

    /// §7.2, counter-strike: the cell where this move's non-Lion took a Lion, or 0. A Kirin that
    /// promotes on the capture is a non-Lion (it was a Kirin before the move); when a double
    /// capture takes two Lions, the second cell is kept, as lishogi does.
    fn after_move(&self, pos: &mut Position, _before: &Position, played: &Played) -> Result<bool, RuleError> {
        let mut code = 0;
        if played.mover.is_none_or(|p| !is_lion(p.ty)) {
            for (c, _) in played.taken().filter(|(_, p)| is_lion(p.ty)) {
                code = self.cell_code(c);
            }
        }
        pos.set_counter(STRIKE, code);
        Ok(false)
    }

    /// §3: bare king and two lone royals, judged from the position.
    fn outcome(&self, pos: &Position, _history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        // Most positions: both sides have two live pieces or more.
        let mut live = [0usize; 2];
        for (c, p) in (0..).zip(pos.cells()) {
            if let Some(p) = *p
                && !self.dead(c, p)
            {
                live[p.side.index()] += 1;
                if live[0] > 1 && live[1] > 1 {
                    return Ok(None);
                }
            }
        }
        let mut lone: [Option<(Cell, Piece)>; 2] = [None, None];
        let mut strong: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
        for (c, p) in (0..).zip(pos.cells()) {
            let Some(p) = *p else { continue };
            if self.dead(c, p) {
                continue;
            }
            if live[p.side.index()] == 1 {
                lone[p.side.index()] = Some((c, p));
            }
            if p.ty != PAWN && p.ty != GO_BETWEEN {
                strong[p.side.index()].push(c);
            }
        }
        let bare_king = |winner: Side| Ok(Some(Outcome::win(winner, EndReason::Rule("bare king".into()))));
        if self.bare_royal(pos, Side::First, lone[0], &strong[1]) {
            return bare_king(Side::Second);
        }
        if self.bare_royal(pos, Side::Second, lone[1], &strong[0]) {
            return bare_king(Side::First);
        }
        let royals = |side: Side| pos.cells().iter().flatten().filter(|p| p.side == side && is_royal(p.ty)).count();
        if live[0] + live[1] == 2
            && royals(Side::First) == 1
            && royals(Side::Second) == 1
            && !self.royal_attacked(pos, Side::First, Side::Second)
            && !self.royal_attacked(pos, Side::Second, Side::First)
        {
            return Ok(Some(Outcome::draw(EndReason::Rule("two lone royals".into()))));
        }
        Ok(None)
    }
}

fn variant() -> KitVariant {
    KitVariant::new(chu_shogi(), Some(Arc::new(ChuHooks::new()))).expect("valid rules")
}

henka_api::export_variant!(KitVariant, variant());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_piece_ids_are_the_types_the_hooks_mean() {
        let rules = chu_shogi();
        let name = |ty: PieceId| rules.pieces[usize::from(ty)].name.as_str();
        assert_eq!(rules.pieces.len(), 39);
        assert_eq!(
            [name(KING), name(CROWN_PRINCE), name(LANCE), name(PAWN), name(GO_BETWEEN)],
            ["King", "Crown Prince", "Lance", "Pawn", "Go-Between"]
        );
        assert_eq!([name(LION), name(PROMOTED_KIRIN)], ["Lion", "Lion"]);
        assert_eq!(rules.pieces.iter().filter(|p| p.name == "Lion").count(), 2);
        let royals: Vec<&str> = rules.pieces.iter().filter(|p| p.royal).map(|p| p.name.as_str()).collect();
        assert_eq!(royals, ["King", "Crown Prince"]);
    }

    #[test]
    fn cells_are_numbered_as_the_script_numbers_them() {
        let hooks = ChuHooks::new();
        let cell = |name: &str| henka_api::notation::parse_cell(&hooks.board, name).unwrap();
        // 6d: (6 − 1) × 12 + 3 + 1 (the rules page's example); 12a is 133, 1l is 12.
        assert_eq!(hooks.cell_code(cell("6d")), 64);
        assert_eq!(hooks.cell_code(cell("12a")), 133);
        assert_eq!(hooks.cell_code(cell("1l")), 12);
        assert!(hooks.in_zone(Side::First, cell("6d")) && !hooks.in_zone(Side::First, cell("6e")));
        assert!(hooks.in_zone(Side::Second, cell("6i")) && !hooks.in_zone(Side::Second, cell("6h")));
    }
}
