//! # henka (host)
//!
//! The Henka workshop: the `henka` command line, the Rhai script runtime, the compiled-plugin
//! loader, the variant catalog, script-against-plugin verification, game records, replay by
//! notation, the playtest AI and players (AI, random, external USI engines), the USI engine, and
//! (feature `editor`, on by default) the eframe editor. Everything here talks to variants through
//! [`henka_api::Variant`] only.

pub mod ai;
pub mod catalog;
pub mod cli;
pub mod describe;
pub mod diagram;
#[cfg(feature = "editor")]
pub mod editor;
pub mod fuzzing;
pub mod piece_lab;
pub mod player;
pub mod playtest;
pub mod plugin;
pub mod record;
pub mod replay;
pub mod script;
pub mod sheet;
pub mod template;
pub mod text_board;
pub mod usi;
pub mod verify;
pub mod why_illegal;
