//! The game in progress, saved as a game record after every change, so a crash or a closed
//! window loses nothing: the editor restores it on the next start.
//!
//! The file is `$HENKA_STATE_DIR/autosave.henka`, else `$XDG_STATE_HOME/henka/autosave.henka`,
//! else `~/.local/state/henka/autosave.henka`. It is written by renaming a complete temporary
//! file over it, so a process killed mid-write leaves the previous save, never half of one.

use std::path::{Path, PathBuf};

use super::file_dialog::write_atomically;
use crate::record::{self, Record};

/// The autosave file's name in the state folder.
pub const FILE_NAME: &str = "autosave.henka";

/// The record option naming the script file the game was played with (absent for a bundled one).
pub const SCRIPT_OPTION: &str = "script";

/// Where the autosave lives, if there is a home or state folder to put it in.
pub fn default_path() -> Option<PathBuf> {
    let dir = std::env::var_os("HENKA_STATE_DIR").map(PathBuf::from).or_else(|| {
        std::env::var_os("XDG_STATE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("state")))
            .map(|d| d.join("henka"))
    })?;
    Some(dir.join(FILE_NAME))
}

/// One autosave file and what was last written to it.
#[derive(Clone, Debug)]
pub struct Autosave {
    path: PathBuf,
    /// The text last written, so an unchanged game is not written again.
    last: Option<String>,
}

impl Autosave {
    pub fn new(path: PathBuf) -> Autosave {
        Autosave { path, last: None }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The saved record, if there is one; an unreadable file is an error to show, not a crash.
    pub fn load(&self) -> Option<Result<Record, String>> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => return Some(Err(format!("{}: {e}", self.path.display()))),
        };
        Some(record::parse(&text).map_err(|e| format!("{}: {e}", self.path.display())))
    }

    /// Saves `record` unless it is what was saved last.
    pub fn save(&mut self, record: &Record) -> std::io::Result<()> {
        let text = record.to_text();
        if self.last.as_deref() == Some(text.as_str()) {
            return Ok(());
        }
        write_atomically(&self.path, &text)?;
        self.last = Some(text);
        Ok(())
    }
}
