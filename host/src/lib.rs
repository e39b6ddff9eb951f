//! # henka (host)
//!
//! The Henka workshop: the `henka` command line, the Rhai script runtime, the compiled-plugin
//! loader, the variant catalog, script-against-plugin verification and game records. Everything
//! here talks to variants through [`henka_api::Variant`] only.

pub mod catalog;
pub mod cli;
pub mod plugin;
pub mod record;
pub mod script;
pub mod text_board;
pub mod verify;
