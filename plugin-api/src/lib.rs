//! # henka-api
//!
//! The variant model every Henka variant speaks, scripted or compiled:
//!
//! - vocabulary: [`Side`], [`Geometry`] and [`Cell`], [`PieceInfo`] and [`Piece`], [`Move`],
//!   [`Position`], [`Outcome`];
//! - the one trait, [`Variant`], that the host (editor, CLI, AI, USI) talks to;
//! - the rules kit ([`kit`]): a [`kit::RuleSet`] of data plus optional [`kit::Hooks`] becomes a
//!   fast [`Variant`] with precomputed tables;
//! - notation ([`notation`]): extended SFEN positions and USI-style moves; for field variants
//!   (Ki Shogi) [`notation::field_position`] strings and [`compass`] moves;
//! - [`betza`]: (X)Betza move strings → the kit's atoms; [`directions`]: named 3D direction sets;
//! - [`perft`] and [`perft_suite`]: counting, and perft suites as data files;
//! - [`Game`]: a game in progress with the history repetition needs;
//! - [`abi`]: the C ABI of compiled plugins and [`export_variant!`], which turns an `impl Variant`
//!   into a plugin.
//!
//! It knows nothing of Rhai, egui or files: data flows script or plugin → `Variant` → host.
//!
//! ```
//! use henka_api::{rules::{PieceRule, RuleSet}, GeometrySpec, Metadata, Variant};
//! let piece = |name: &str, token: &str, moves: &str| PieceRule::new(name, token, moves).unwrap();
//! let rules = RuleSet {
//!     meta: Metadata { name: "Kings and a rook".into(), ..Metadata::default() },
//!     geometry: GeometrySpec::flat(3, 3),
//!     pieces: vec![piece("King", "K", "K").royal(), piece("Rook", "R", "R")],
//!     promotion: Default::default(), drops: false, check: Default::default(),
//!     stalemate: Default::default(), baring: Default::default(), repetition: Default::default(), pass_limit: 0,
//!     start: "k2/3/KR1 b - 1".into(),
//!     cubes: Vec::new(),
//!     field: None,
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
