//! # henka-api
//!
//! The variant model every Henka variant speaks, scripted or compiled. It knows nothing of Rhai,
//! egui or files: data flows script or plugin → [`Variant`] → host.
//!
//! The crate is in layers; each module imports only from the layers above it in this list:
//!
//! 1. [`model`] — the value types: [`Side`], [`Geometry`] and [`Cell`], [`PieceInfo`] and
//!    [`Piece`], [`Move`], [`Position`], [`Outcome`], what a variant says about itself
//!    ([`VariantInfo`]) and [`RuleError`].
//! 2. [`notation`] — extended SFEN positions, USI-style moves and field position strings, read
//!    and written from a [`VariantInfo`] alone.
//! 3. [`rules`] — the rules as data: a [`rules::RuleSet`], checked by [`rules::RuleSet::describe`]
//!    (which reads the start position, hence below notation); [`rules::betza`] move strings,
//!    [`rules::directions`] in 3D, the standard [`rules::shogi_pieces`].
//! 4. [`variant`] — the one trait, [`Variant`], that the host (editor, CLI, AI, USI) talks to,
//!    and what works through it alone: [`variant::perft`], [`variant::perft_suite`], [`Game`],
//!    and Ki Shogi's [`variant::compass`] notation, which names moves among the legal moves.
//!    (Layers 3 and 4 do not use each other.)
//! 5. the engines that compile a rule set and implement the trait: the rules [`kit`] (any rule
//!    set, plus optional [`kit::Hooks`] for what data cannot say) and the [`bitboard`] engine (the
//!    shogi family, several times faster).
//! 6. [`abi`] — the C ABI of compiled plugins and [`export_variant!`], which turns an
//!    `impl Variant` into a plugin.
//!
//! The common types are re-exported here, so `henka_api::{Variant, Position, Move, …}` work from
//! any layer's user.
//!
//! ```
//! use henka_api::{rules::{PieceRule, RuleSet}, GeometrySpec, Metadata, Variant};
//! let piece = |name: &str, token: &str, moves: &str| PieceRule::new(name, token, moves).unwrap();
//! let meta = Metadata { name: "Kings and a rook".into(), ..Metadata::default() };
//! let rules = RuleSet {
//!     pieces: vec![piece("King", "K", "K").royal(), piece("Rook", "R", "R")],
//!     ..RuleSet::new(meta, GeometrySpec::flat(3, 3), "k2/3/KR1 b - 1")
//! };
//! let v = henka_api::kit::KitVariant::new(rules, None).unwrap();
//! // Black's king may not step next to White's; the rook has two cells up and one right.
//! assert_eq!(v.perft(&v.start_position(), 1).unwrap(), 3);
//! ```

pub mod abi;
pub mod bitboard;
pub mod kit;
pub mod model;
pub mod notation;
pub mod rules;
pub mod variant;

pub use model::description::{Metadata, VariantInfo};
pub use model::error::{RuleError, SourceLocation};
pub use model::geometry::{Cell, Geometry, GeometrySpec, NO_CELL, Vector};
pub use model::moves::{Move, MoveKind};
pub use model::outcome::{EndReason, HistoryEntry, Outcome};
pub use model::piece::{Piece, PieceId, PieceInfo};
pub use model::position::Position;
pub use model::side::Side;
pub use notation::NotationError;
pub use variant::Variant;
pub use variant::game::{Game, PlayError};
