//! A Henka plugin in one file: Minishogi (5×5), the compiled twin of `examples/first-variant.rhai`.
//!
//! A plugin is any `impl Variant` handed to [`henka_api::export_variant!`]. This one is built with
//! the rules kit: the same [`RuleSet`] a script builds, written in Rust. For more speed, write
//! your own `impl Variant` (see `plugins/` and [`henka_api::bitboard`]); for rules data cannot say,
//! pass [`henka_api::kit::Hooks`] to [`KitVariant::new`].
//!
//! Build it with `cargo build --release -p plugin-template`; a `henka` built in this checkout then
//! finds it in `target/release` (elsewhere: `henka plugin add target/release/libfirst_variant.so`),
//! `henka list` shows `first-variant` as a plugin, and `henka perft examples/first-variant.rhai
//! --depth 3 --engine plugin` runs it, in a plugin worker process.

use henka_api::kit::KitVariant;
use henka_api::rules::shogi_pieces::{bishop, gold, king, pawn, rook, silver};
use henka_api::rules::{PromotionRule, RuleSet};
use henka_api::{GeometrySpec, Metadata};

/// Minishogi's rules, piece for piece as in `examples/first-variant.rhai`. The standard shogi
/// pieces come ready-made from [`henka_api::rules::shogi_pieces`]; a piece of your own is
/// `shogi_pieces::piece(name, token, betza)` with `.kanji(…)`, `.royal()` and the drop rules
/// chained on. [`RuleSet::with_pieces`] puts each promoted type right after its base, as a script
/// declares them (the order of the unpromoted types is the order hands are written in position
/// strings). [`RuleSet::new`] sets every other rule to its default; name the ones that differ, as
/// here the promotion zone and drops.
pub fn minishogi() -> RuleSet {
    let meta = Metadata {
        name: "Minishogi".into(),
        author: "Shigenobu Kusumoto (1970)".into(),
        version: "1.0".into(),
        description: "Shogi on 5×5 with one of each piece (compiled plugin).".into(),
    };
    let (p, tokin) = pawn();
    RuleSet {
        promotion: PromotionRule { zone_depth: 1, mandatory: false, ..Default::default() },
        drops: true,
        ..RuleSet::new(meta, GeometrySpec::flat(5, 5), "rbsgk/4p/5/P4/KGSBR b - 1")
    }
    .with_pieces([king("玉将"), rook(), bishop(), gold(), silver(), (p.no_drop_mate(), tokin)])
}

henka_api::export_variant!(KitVariant, KitVariant::new(minishogi(), None).expect("valid rules"));
