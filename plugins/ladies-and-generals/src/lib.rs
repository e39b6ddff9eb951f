//! Ladies and Generals (Charles Gilman, 3D shogi; docs/rules/ladies-and-generals.md, whose "§N" the
//! comments cite) as a compiled plugin: 6 filestacks × 9 ranks × 6 levels, 80 pieces of 18 types a
//! side, drops, optional promotion, reversible ranker switches and four file and binding
//! restrictions; the fast path of `scripts/ladies-and-generals.rhai`.
//!
//! The engine is written by hand from the rules, independently of the rules kit the script runs on,
//! so that `henka verify ladies-and-generals` compares two implementations of the rules rather than
//! one with itself. It uses no part of `henka_api::{betza, kit, bitboard}`.
//!
//! - `radials`: the 26 directions and their classes; `pieces`: the 31 types as radial sets;
//! - `board`: the padded mailbox, moves on it, make/unmake; `restrictions`: the §6 groups;
//! - `tables`: directions per side and type, attackers per radial, zones;
//! - `movegen`: legal moves by attack tests; `rules`: the game's end; `perft`: counting.
//!
//! The rules' options are played at their defaults: rankers slide, at most four Rookrankers per
//! file, stalemate is a draw, sennichite, Princeling drop mate allowed, the placeholder array.
//!
//! ```
//! use henka_api::Variant;
//! let v = ladies_and_generals::LadiesAndGenerals::new();
//! let start = v.start_position();
//! let mut moves = Vec::new();
//! v.legal_moves(&start, &mut moves).unwrap();
//! assert_eq!(moves.len() as u64, v.perft(&start, 1).unwrap());
//! ```

mod board;
mod movegen;
mod perft;
pub mod pieces;
mod radials;
mod restrictions;
mod rules;
mod tables;

use henka_api::model::geometry::Geometry;
use henka_api::{Cell, GeometrySpec, HistoryEntry, Metadata, Move, Outcome, Position, RuleError, Variant, VariantInfo};

use board::{Board, Mv, REAL};
use tables::Tables;

/// The start position (§5, the placeholder array), verbatim.
pub const START: &str = "flcclf/6/pppppp/6/6/6/PPPPPP/6/FLCCLF|xjyyjx/1u2u1/pppppp/6/6/6/PPPPPP/1U2U1/XJYYJX|\
zakeaz/1r2b1/pppppp/6/6/6/PPPPPP/1B2R1/ZAEKAZ|zvdqvz/1r2b1/pppppp/6/6/6/PPPPPP/1B2R1/ZVQDVZ|\
xjttjx/1u2u1/pppppp/6/6/6/PPPPPP/1U2U1/XJTTJX|flcclf/6/pppppp/6/6/6/PPPPPP/6/FLCCLF b - 1";

/// Ladies and Generals.
#[derive(Debug)]
pub struct LadiesAndGenerals {
    info: VariantInfo,
    geometry: Geometry,
    tables: Tables,
}

impl LadiesAndGenerals {
    pub fn new() -> LadiesAndGenerals {
        let info = VariantInfo {
            meta: Metadata {
                name: "Ladies and Generals".into(),
                author: "Charles Gilman (2006)".into(),
                version: "1.0".into(),
                description: "Three-dimensional shogi on 6 filestacks × 9 ranks × 6 levels: 80 pieces a side \
                              moving along the 26 radials, drops, optional promotion in the last three ranks, \
                              Rookrankers and Bishorankers that switch to generals and back, and limits per \
                              file and binding. The initial array is a placeholder: Gilman's is lost."
                    .into(),
            },
            geometry: GeometrySpec {
                files: board::FILESTACKS as u8,
                ranks: board::RANKS as u8,
                levels: board::LEVELS as u8,
                holes: Vec::new(),
            },
            pieces: pieces::piece_infos(),
            hand_types: pieces::hand_types(),
            start: START.into(),
            field: None,
            // The engine keeps one Emperor square per side (§4: one Emperor a side); the position
            // parser, the host's as well as this crate's, refuses a second.
            royals_per_side: Some(1),
        };
        let geometry = Geometry::new(&info.geometry).expect("6×9×6 is a valid board");
        LadiesAndGenerals { info, geometry, tables: Tables::default() }
    }

    /// The moves of the piece on `cell` as its owner would have them, whoever is to move and
    /// whatever attacks its Emperor (what picking the piece up shows; the per-type tests count
    /// these). Restrictions and promotion choices apply.
    pub fn piece_moves(&self, pos: &Position, cell: Cell) -> Vec<Move> {
        let mut moves = Vec::new();
        if pos.piece_at(cell).is_some() {
            let mut board = Board::from_position(pos);
            movegen::piece_moves(&self.tables, &mut board, REAL[cell as usize], &mut moves);
        }
        moves.into_iter().map(Mv::to_api).collect()
    }
}

impl Default for LadiesAndGenerals {
    fn default() -> Self {
        LadiesAndGenerals::new()
    }
}

impl Variant for LadiesAndGenerals {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let mut board = Board::from_position(pos);
        let mut moves = Vec::new();
        movegen::legal_moves(&self.tables, &mut board, &mut moves);
        out.clear();
        out.extend(moves.into_iter().map(Mv::to_api));
        Ok(())
    }

    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        if Mv::from_api(mv).is_none() {
            return Err(RuleError::new(format!("{mv:?} is not a move of Ladies and Generals")));
        }
        board::play_on_position(pos, mv);
        Ok(())
    }

    fn in_check(&self, pos: &Position) -> bool {
        movegen::in_check(&self.tables, &Board::from_position(pos))
    }

    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let mut board = Board::from_position(pos);
        Ok(rules::outcome(&self.tables, &mut board, pos.repetition_hash(), history))
    }

    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        Ok(perft::perft(&self.tables, &mut Board::from_position(pos), depth))
    }
}

henka_api::export_variant!(LadiesAndGenerals);
