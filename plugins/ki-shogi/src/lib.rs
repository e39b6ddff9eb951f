//! Ki Shogi (docs/rules/ki-shogi.md, "rules §N" in the comments) as a compiled plugin: cubes on an
//! open 15×15 field, the fast path of `scripts/ki-shogi.rhai` with its default options.
//! `docs/ki-shogi.md` is the contract both follow: piece ids, hands by cube, `Move` values,
//! support, stranding and grace, position strings and compass notation.
//!
//! The engine is written by hand from the rules, independently of the rules kit the script runs on,
//! so that `henka verify ki-shogi` compares two implementations rather than one with itself. It
//! uses no part of `henka_api::{rules, kit, bitboard}`; position strings and compass notation are
//! the host's field notation (`henka_api::notation::field_position`, `henka_api::variant::compass`), selected by the
//! same [`VariantInfo::field`] the script declares.
//!
//! - `faces`: the cubes' faces, their moves, flips and capture choices;
//! - `tables`: per-cell neighbours, targets, rays and an attack table by offset;
//! - `board`: the few cubes on the field as a list, hands, both Gyoku;
//! - `support`: support and the end-of-turn stranding with grace;
//! - `movegen`: placements, board moves and drops, each tried through the end of the turn;
//! - `rules`: the game's end; `perft`: counting.
//!
//! The plugin ABI passes no rule options, so the exported variant is the default game
//! (`field = 15x15`, `ki_cube = off`, …); [`KiShogi::with_ki_cube`] plays the Ki-cube extension
//! (`ki_cube = on`, and so sacrifice moves) for tests and benchmarks.
//!
//! ```
//! use henka_api::Variant;
//! let ki = ki_shogi::KiShogi::new();
//! let start = ki.start_position();
//! // Black places its Gyoku on any of the 225 cells.
//! assert_eq!(ki.perft(&start, 1).unwrap(), 225);
//! ```

mod board;
mod faces;
mod movegen;
mod perft;
mod rules;
mod support;
mod tables;

use henka_api::model::geometry::Geometry;
use henka_api::{GeometrySpec, HistoryEntry, Metadata, Move, Outcome, Position, RuleError, Variant, VariantInfo};

use board::Board;
use tables::{SIZE, Tables};

/// The rule options the engine plays (the script's `option(...)` values it depends on).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// Piece types in play: 13, or 19 with the Ki cube.
    faces: usize,
    /// Kinds of cube: Gyoku, Hi, Kaku (and Ki).
    cubes: usize,
    /// A board move may end unsupported (the cube is then lost): `sacrifice_moves = ki_only`
    /// allows it exactly when the Ki cube is in play.
    sacrifices: bool,
}

/// Ki Shogi.
#[derive(Debug)]
pub struct KiShogi {
    info: VariantInfo,
    geometry: Geometry,
    tables: Tables,
    rules: Rules,
}

impl KiShogi {
    /// The default game: no Ki cube.
    pub fn new() -> KiShogi {
        KiShogi::build(false)
    }

    /// The Ki-cube extension (rules §10): each side also holds a Ki cube, and sacrifice moves are
    /// allowed.
    pub fn with_ki_cube() -> KiShogi {
        KiShogi::build(true)
    }

    fn build(ki_cube: bool) -> KiShogi {
        let rules = if ki_cube {
            Rules { faces: faces::ALL_FACES, cubes: 4, sacrifices: true }
        } else {
            Rules { faces: faces::BASE_FACES, cubes: 3, sacrifices: false }
        };
        let info = VariantInfo {
            meta: Metadata {
                name: "Ki Shogi".into(),
                author: "L. Lynn Smith".into(),
                version: "1.0".into(),
                description: "Boardless shogi of cubes on an open field. Gyoku stay two apart, every other piece \
                              must stay next to a Gyoku (or a Ki); a moved cube flips to its opposite face, a \
                              capturing cube turns to a face of the promotion table. Stranded pieces are lost. \
                              No legal move loses."
                    .into(),
            },
            geometry: GeometrySpec::flat(SIZE as u8, SIZE as u8),
            pieces: faces::piece_infos(rules.faces),
            hand_types: faces::CUBE_FIRST_FACES[..rules.cubes].to_vec(),
            start: if ki_cube { "b - b:GHKU,w:GHKU -" } else { "b - b:GHK,w:GHK -" }.into(),
            field: Some(faces::field_info(rules.cubes, rules.sacrifices)),
            // One Gyoku a side, as the script says and `Board::from_position` expects.
            royals_per_side: Some(1),
        };
        let geometry = Geometry::new(&info.geometry).expect("15×15 is a valid board");
        KiShogi { info, geometry, tables: Tables::new(), rules }
    }

    fn board(&self, pos: &Position) -> Result<Board, RuleError> {
        Board::from_position(pos, self.rules.faces, self.rules.cubes).map_err(RuleError::new)
    }
}

impl Default for KiShogi {
    fn default() -> Self {
        KiShogi::new()
    }
}

impl Variant for KiShogi {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let b = self.board(pos)?;
        out.clear();
        movegen::generate(&self.tables, &self.rules, &b, out);
        Ok(())
    }

    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        let mut b = self.board(pos)?;
        let mut legal = Vec::new();
        movegen::generate(&self.tables, &self.rules, &b, &mut legal);
        if !legal.contains(&mv) {
            return Err(RuleError::new(format!("{mv:?} is not a legal move here")));
        }
        movegen::play(&self.tables, &mut b, mv);
        *pos = b.write_position(self.rules.faces, pos.move_number() + 1);
        Ok(())
    }

    fn in_check(&self, pos: &Position) -> bool {
        self.board(pos).is_ok_and(|b| b.in_check(&self.tables))
    }

    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let b = self.board(pos)?;
        Ok(rules::outcome(&self.tables, &self.rules, &b, pos, history))
    }

    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        Ok(perft::perft(&self.tables, &self.rules, &self.board(pos)?, depth))
    }
}

henka_api::export_variant!(KiShogi);
