//! Taishin shogi (docs/rules/taishin.md, whose "§N" the comments cite) as a compiled plugin: 25×25,
//! 177 pieces of 86 types a side, 163 types in all, the fast path of `scripts/taishin.rhai`.
//!
//! This engine is written by hand, independently of the rules kit's XBetza interpreter that the
//! script runs on, so that `henka verify taishin` compares two implementations of the rules rather
//! than one with itself. It uses no part of `henka_api::{betza, kit, bitboard}`.
//!
//! - `board`: the padded mailbox, moves on it, make/unmake;
//! - `moves`: a type's move as the rules' families (slides, leaps, lion powers, hooks, …);
//! - `pieces`: the 163 types, each translated from its XBetza by hand;
//! - `tables`: the families as board offsets per side, promotion data;
//! - `movegen`: walking the families, with promotion, passes and the Emperor's restriction;
//! - `rules`: check and the game's end; `perft`: counting.
//!
//! ```
//! use henka_api::Variant;
//! let taishin = taishin::Taishin::new();
//! let start = taishin.start_position();
//! let mut moves = Vec::new();
//! taishin.legal_moves(&start, &mut moves).unwrap();
//! assert_eq!(moves.len() as u64, taishin.perft(&start, 1).unwrap());
//! ```

mod board;
mod movegen;
mod moves;
mod perft;
mod pieces;
mod rules;
mod tables;

use henka_api::model::geometry::Geometry;
use henka_api::{Cell, GeometrySpec, HistoryEntry, Metadata, Move, Outcome, Position, RuleError, Variant, VariantInfo};

use board::{Board, Mv, REAL};
use movegen::Scratch;
use tables::Tables;

/// The start position (§3.2), verbatim.
pub const START: &str = "l(ga)(wl)(fh)(ca)(rd)r(dh)(dk)qg(ds)k(dv)gq(dk)(dh)r(rd)(ca)(fh)(wl)(ga)l/\
(rv)(va)(se)n(ps)(hb)b(vh)(vd)(hk)s(rt)(cp)(lt)s(hk)(vd)(vh)b(hb)(ps)n(se)(va)(rv)/\
(so)(wh)(ct)(fn)(ss)(vs)(ld)(ln)(ph)(bt)(ve)(vg)(de)(gg)(ve)(bt)(ph)(ln)(ld)(vs)(ss)(fn)(ct)(wh)(so)/\
(cs)(wb)(fl)(bg)(rg)(bd)(hf)(om)(wr)(pc)(vf)(ky)(ff)(ky)(vf)(pc)(wr)(om)(hf)(bd)(rg)(bg)(fl)(wb)(cs)/\
(rc)(sc)(vc)eotic(co)(ht)(fd)(hm)(lh)(tg)(fd)(ht)(co)citoe(vc)(sc)(lc)/\
(hd)ah(mf)(re)(sm)(vm)wf(rn)(ab)(ew)(fe)(ew)(ab)(rn)fw(vm)(sm)(le)(mf)ha(hd)/\
ppppppppppppppppppppppppp/7d9d7/25/25/25/25/25/25/25/25/25/7D9D7/PPPPPPPPPPPPPPPPPPPPPPPPP/\
(HD)AH(MF)(LE)(SM)(VM)WF(RN)(AB)(EW)(FE)(EW)(AB)(RN)FW(VM)(SM)(RE)(MF)HA(HD)/\
(LC)(SC)(VC)EOTIC(CO)(HT)(FD)(TG)(LH)(HM)(FD)(HT)(CO)CITOE(VC)(SC)(RC)/\
(CS)(WB)(FL)(BG)(RG)(BD)(HF)(OM)(WR)(PC)(VF)(KY)(FF)(KY)(VF)(PC)(WR)(OM)(HF)(BD)(RG)(BG)(FL)(WB)(CS)/\
(SO)(WH)(CT)(FN)(SS)(VS)(LD)(LN)(PH)(BT)(VE)(GG)(DE)(VG)(VE)(BT)(PH)(LN)(LD)(VS)(SS)(FN)(CT)(WH)(SO)/\
(RV)(VA)(SE)N(PS)(HB)B(VH)(VD)(HK)S(LT)(CP)(RT)S(HK)(VD)(VH)B(HB)(PS)N(SE)(VA)(RV)/\
L(GA)(WL)(FH)(CA)(RD)R(DH)(DK)QG(DV)K(DS)GQ(DK)(DH)R(RD)(CA)(FH)(WL)(GA)L b - 1";

/// Taishin shogi.
#[derive(Debug)]
pub struct Taishin {
    info: VariantInfo,
    geometry: Geometry,
    tables: Tables,
}

impl Taishin {
    pub fn new() -> Taishin {
        let info = VariantInfo {
            meta: Metadata {
                name: "Taishin shogi".into(),
                author: "Adam DeWitt (2019)".into(),
                version: "1.0".into(),
                description: "25×25 giant shogi with 177 pieces of 86 types a side: lions, lion dogs, hook movers, \
                              range-jumping generals and an Emperor that leaps anywhere. Promotion by capture, \
                              no drops; losing the last royal loses."
                    .into(),
            },
            geometry: GeometrySpec::flat(board::FILES as u8, board::FILES as u8),
            pieces: pieces::piece_infos(),
            hand_types: Vec::new(),
            start: START.into(),
            field: None,
            royals_per_side: None,
        };
        let geometry = Geometry::new(&info.geometry).expect("25×25 is a valid board");
        Taishin { info, geometry, tables: Tables::default() }
    }

    /// The moves of the piece on `cell` as its owner would have them, whoever is to move and
    /// whatever royals remain (what picking the piece up shows; the per-type tests count these).
    pub fn piece_moves(&self, pos: &Position, cell: Cell) -> Vec<Move> {
        let mut moves = Vec::new();
        if pos.piece_at(cell).is_some() {
            let board = Board::from_position(pos);
            movegen::piece_moves(&self.tables, &board, REAL[cell as usize], &mut moves, &mut Scratch::default());
        }
        moves.into_iter().map(Mv::to_api).collect()
    }
}

impl Default for Taishin {
    fn default() -> Self {
        Taishin::new()
    }
}

impl Variant for Taishin {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let board = Board::from_position(pos);
        let mut moves = Vec::new();
        movegen::legal_moves(&self.tables, &board, &mut moves, &mut Scratch::default());
        out.clear();
        out.extend(moves.into_iter().map(Mv::to_api));
        Ok(())
    }

    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        board::play_on_position(pos, mv);
        Ok(())
    }

    fn in_check(&self, pos: &Position) -> bool {
        rules::in_check(&self.tables, &Board::from_position(pos))
    }

    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let mut board = Board::from_position(pos);
        Ok(rules::outcome(&self.tables, &mut board, pos.repetition_hash(), history))
    }

    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        Ok(perft::perft(&self.tables, &mut Board::from_position(pos), depth))
    }
}

henka_api::export_variant!(Taishin);
