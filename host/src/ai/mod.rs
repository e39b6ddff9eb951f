//! The playtest AI: an alpha-beta searcher that plays any variant through the [`Variant`] trait
//! alone, scripted or compiled, with piece values estimated from the rules.
//!
//! One concept per module: [`values`] (what pieces are worth), [`eval`] (scoring a position),
//! [`rays`] (what each piece type attacks), [`king_danger`] (how threatened a royal is),
//! [`placement`] (a learnt table of where pieces stand and what they attack), [`tt`] (the
//! transposition table), [`order`] (which moves to try first), [`exchange`] (what a capture or drop wins or loses on its cell),
//! [`mate`] (mates in one by a drop, found at the search's horizon without a search),
//! [`search`] (iterative deepening, the time limit, quiescence), [`delegate`] (searching a
//! variant in the process its rules run in), and [`tuned`] (weights learnt from a variant's own
//! games by `henka tune`).
//!
//! [`Variant`]: henka_api::Variant

pub mod delegate;
pub mod eval;
pub mod exchange;
pub mod king_danger;
pub mod mate;
pub mod order;
pub mod placement;
pub mod rays;
pub mod search;
pub mod tt;
pub mod tuned;
pub mod values;

pub use search::{Limits, MATE, Report, Score, Searcher, searcher_for};
pub use values::PieceValues;
