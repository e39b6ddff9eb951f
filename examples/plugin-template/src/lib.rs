//! A Henka plugin in one file: Minishogi (5×5), the compiled twin of `examples/first-variant.rhai`.
//!
//! A plugin is any `impl Variant` handed to [`henka_api::export_variant!`]. This one is built with
//! the rules kit: the same [`RuleSet`] a script builds, written in Rust. For more speed, write
//! your own `impl Variant` (see `plugins/` and [`henka_api::bitboard`]); for rules data cannot say,
//! pass [`henka_api::kit::Hooks`] to [`KitVariant::new`].
//!
//! Build it with `cargo build --release -p plugin-template`; `henka list` then shows
//! `first-variant` as a plugin, and `henka perft examples/first-variant.rhai --depth 3 --engine
//! plugin` runs it.

use henka_api::betza;
use henka_api::kit::{KitVariant, PieceRule, PromotionRule, RuleSet};
use henka_api::{GeometrySpec, Metadata};

/// A piece type: name, token, Betza move, and the index of its promoted type.
fn piece(name: &str, token: &str, moves: &str, promotes_to: Option<usize>) -> PieceRule {
    PieceRule {
        name: name.into(),
        kanji: None,
        token: token.into(),
        betza: moves.into(),
        atoms: betza::parse(moves).expect("a valid Betza string"),
        royal: token == "K",
        promotes_to,
        one_per_file: false,
        no_drop_mate: false,
    }
}

/// Minishogi's rules, piece for piece as in `examples/first-variant.rhai`: each promoted type right
/// after its base, as a script declares them (the order of the unpromoted types is the order hands
/// are written in position strings).
pub fn minishogi() -> RuleSet {
    let mut pieces = vec![
        piece("King", "K", "K", None),
        piece("Rook", "R", "R", Some(2)),
        piece("Dragon King", "R", "RF", None),
        piece("Bishop", "B", "B", Some(4)),
        piece("Dragon Horse", "B", "BW", None),
        piece("Gold General", "G", "WfF", None),
        piece("Silver General", "S", "FfW", Some(7)),
        piece("Promoted Silver", "S", "WfF", None),
        piece("Pawn", "P", "fW", Some(9)),
        piece("Tokin", "P", "WfF", None),
    ];
    pieces[8].one_per_file = true;
    pieces[8].no_drop_mate = true;
    RuleSet {
        meta: Metadata {
            name: "Minishogi".into(),
            author: "Shigenobu Kusumoto (1970)".into(),
            version: "1.0".into(),
            description: "Shogi on 5×5 with one of each piece (compiled plugin).".into(),
        },
        geometry: GeometrySpec::flat(5, 5),
        pieces,
        promotion: PromotionRule { zone_depth: 1, mandatory: false },
        drops: true,
        check: Default::default(),
        stalemate: Default::default(),
        baring: Default::default(),
        repetition: Default::default(),
        start: "rbsgk/4p/5/P4/KGSBR b - 1".into(),
    }
}

henka_api::export_variant!(KitVariant, KitVariant::new(minishogi(), None).expect("valid rules"));
