//! Compiled plugins: finding them, and speaking to them as a [`henka_api::Variant`] — always in a
//! child process, never in this one (docs/architecture.md, "Plugins run out of process").
//!
//! - [`discover`]: the registered places plugins are looked for, and how a file name becomes a
//!   variant name;
//! - [`registry`]: opening a plugin file once per contents (a rebuilt file is opened anew), and
//!   the private copies workers load;
//! - [`remote`]: [`RemoteVariant`], the `Variant` whose calls are requests to plugin workers,
//!   with time limits, crash reports and every answer checked;
//! - [`protocol`]: the typed, versioned messages between the host and a worker, and their frames;
//! - [`worker`]: the worker process (`henka plugin-worker`), which loads the library;
//! - [`in_process`]: the C-ABI loader and [`in_process::PluginVariant`], used inside a worker.

pub mod discover;
pub mod in_process;
pub mod protocol;
pub mod registry;
pub mod remote;
pub mod worker;

use std::path::PathBuf;

pub use discover::{PluginFile, find, search_dirs};
pub use registry::open;
pub use remote::{RemoteVariant, Timeouts};

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
    /// The worker loaded nothing and said why (one of the errors above, as its message).
    #[error("{message}")]
    Refused { path: PathBuf, message: String },
    /// The worker could not be started, or died or hung while loading the plugin.
    #[error("{path}: the plugin worker failed: {message}")]
    Worker { path: PathBuf, message: String },
}
