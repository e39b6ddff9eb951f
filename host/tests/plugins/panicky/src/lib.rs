//! A plugin with a bug: perft panics, everything else works. The panic must come back to the host
//! as an error with the panic's message, and the host must go on using the plugin.

use henka_api::kit::KitVariant;
use henka_api::rules::RuleSet;
use henka_api::rules::shogi_pieces::piece;
use henka_api::{
    Geometry, GeometrySpec, HistoryEntry, Metadata, Move, Outcome, Position, RuleError, Variant, VariantInfo,
};

/// Kings and a rook on 3×3, with a broken perft.
#[derive(Debug)]
pub struct Panicky(KitVariant);

impl Default for Panicky {
    fn default() -> Self {
        let meta = Metadata { name: "Panicky".into(), ..Metadata::default() };
        let rules = RuleSet {
            pieces: vec![piece("King", "K", "K").royal(), piece("Rook", "R", "R")],
            ..RuleSet::new(meta, GeometrySpec::flat(3, 3), "k2/3/KR1 b - 1")
        };
        Panicky(KitVariant::new(rules, None).expect("valid rules"))
    }
}

impl Variant for Panicky {
    fn info(&self) -> &VariantInfo {
        self.0.info()
    }
    fn geometry(&self) -> &Geometry {
        self.0.geometry()
    }
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        self.0.legal_moves(pos, out)
    }
    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        self.0.play(pos, mv)
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.0.in_check(pos)
    }
    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        self.0.outcome(pos, history)
    }
    fn perft(&self, _pos: &Position, depth: u32) -> Result<u64, RuleError> {
        panic!("perft {depth} is broken on purpose");
    }
}

henka_api::export_variant!(Panicky);
