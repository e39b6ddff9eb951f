//! Compiled plugins: finding them, loading them through the C ABI of [`henka_api::abi`], and
//! speaking to them as a [`henka_api::Variant`].
//!
//! - [`discover`]: where plugins are looked for and how a file name becomes a variant name;
//! - [`registry`]: loading a library with the version handshake, keeping it loaded for the rest
//!   of the process, and picking up a rebuilt file by loading a copy under a fresh name;
//! - [`in_process`]: [`PluginVariant`], the `Variant` whose every call goes through the table: a
//!   plain function call into the library, which runs in this process.

pub mod discover;
pub mod in_process;
pub mod registry;

use std::path::PathBuf;

pub use discover::{PluginFile, find, search_dirs};
pub use in_process::PluginVariant;
pub use registry::open;

/// Why a plugin could not be used. Each message names the file and says what to do.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    #[error("{path}: cannot load the library: {message}")]
    Load { path: PathBuf, message: String },
    #[error("{path}: not a Henka plugin (no `{symbol}` symbol); plugins export one with henka_api::export_variant!")]
    NotAPlugin { path: PathBuf, symbol: String },
    #[error(
        "{path}: refused: the plugin speaks plugin ABI version {found}, this henka speaks version {expected}; \
         rebuild the plugin against henka-api {api}"
    )]
    AbiVersion { path: PathBuf, found: u32, expected: u32, api: &'static str },
    #[error("{path}: refused: {message}")]
    Table { path: PathBuf, message: String },
    #[error("{path}: refused: malformed variant description: {message}")]
    Description { path: PathBuf, message: String },
}
