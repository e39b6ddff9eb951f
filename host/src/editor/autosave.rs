//! The game in progress, saved as a game record after every change, so a crash or a closed
//! window loses nothing: the editor restores it on the next start.
//!
//! The file is `$HENKA_STATE_DIR/autosave.henka`, else `$XDG_STATE_HOME/henka/autosave.henka`,
//! else `~/.local/state/henka/autosave.henka`. It is written by renaming a complete, synced
//! temporary file over it, so a process killed (or a machine losing power) mid-write leaves the
//! previous save, never half of one.
//!
//! Nothing saved is lost by accident: the first save of an editor session keeps the previous
//! session's file as `autosave.1.henka` (and that one as `.2`, `.3`), so opening another variant
//! never overwrites a saved game; a file that does not load is moved aside, not overwritten; and
//! a restore that crashed the editor is not tried again at the next start.

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

/// How many earlier sessions' autosaves are kept (`autosave.1.henka` is the newest).
pub const BACKUPS: usize = 3;

/// One autosave file and what was last written to it.
#[derive(Clone, Debug)]
pub struct Autosave {
    path: PathBuf,
    /// The text last written, so an unchanged game is not written again; `None` before this
    /// session's first save, which first keeps the previous session's file as a backup.
    last: Option<String>,
}

/// `autosave.henka` → `autosave.<tag>.henka`, beside it.
fn sibling(path: &Path, tag: &str) -> PathBuf {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = path.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    path.with_file_name(format!("{stem}.{tag}{ext}"))
}

/// A name beside `path` that no file has yet: `autosave.<tag>-<n>.henka`.
fn unused_sibling(path: &Path, tag: &str) -> PathBuf {
    (1..).map(|n| sibling(path, &format!("{tag}-{n}"))).find(|p| !p.exists()).expect("a free name")
}

impl Autosave {
    pub fn new(path: PathBuf) -> Autosave {
        Autosave { path, last: None }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The marker that says a restore of this file is under way.
    fn restoring_marker(&self) -> PathBuf {
        sibling(&self.path, "restoring")
    }

    /// The saved record, if there is one. A file that does not read, or whose restore crashed the
    /// last start (its marker is still there), is moved aside and reported: the editor starts
    /// clean, and the file is kept for the user.
    pub fn load(&self) -> Option<Result<Record, String>> {
        if self.restoring_marker().exists() {
            let _ = std::fs::remove_file(self.restoring_marker());
            return self.set_aside("restoring it ended the last start").map(Err);
        }
        let text = match std::fs::read(&self.path) {
            Ok(bytes) => String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => Err(e.to_string()),
        };
        match text.and_then(|t| record::parse(&t)) {
            Ok(r) => Some(Ok(r)),
            Err(why) => self.set_aside(&why).map(Err),
        }
    }

    /// Moves the file aside as `autosave.unreadable-<n>.henka`; the message says why and where.
    fn set_aside(&self, why: &str) -> Option<String> {
        if !self.path.exists() {
            return None;
        }
        let aside = unused_sibling(&self.path, "unreadable");
        Some(match std::fs::rename(&self.path, &aside) {
            Ok(()) => format!("the autosaved game was not restored ({why}); it is kept as {}", aside.display()),
            Err(e) => {
                format!("the autosaved game {} was not restored ({why}) nor moved aside: {e}", self.path.display())
            }
        })
    }

    /// Runs `restore` with a marker on disk, so a restore that crashes the editor is not tried
    /// again at the next start (see [`Autosave::load`]).
    pub fn guard_restore<T>(&self, restore: impl FnOnce() -> T) -> T {
        let _ = std::fs::write(self.restoring_marker(), b"");
        let out = restore();
        let _ = std::fs::remove_file(self.restoring_marker());
        out
    }

    /// Keeps the previous session's file as `autosave.1.henka`, shifting older backups up.
    fn keep_previous(&self) {
        if !self.path.exists() {
            return;
        }
        for k in (1..BACKUPS).rev() {
            let _ = std::fs::rename(sibling(&self.path, &k.to_string()), sibling(&self.path, &(k + 1).to_string()));
        }
        let _ = std::fs::rename(&self.path, sibling(&self.path, "1"));
    }

    /// Saves `record` unless it is what was saved last.
    pub fn save(&mut self, record: &Record) -> std::io::Result<()> {
        let text = record.to_text();
        if self.last.as_deref() == Some(text.as_str()) {
            return Ok(());
        }
        if self.last.is_none() {
            self.keep_previous();
        }
        write_atomically(&self.path, &text)?;
        self.last = Some(text);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("henka-autosave-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn record(moves: &[&str]) -> Record {
        let mut r = record::parse("variant shogi\nmoves").unwrap();
        r.moves = moves.iter().map(|m| m.to_string()).collect();
        r
    }

    #[test]
    fn a_file_that_does_not_load_is_moved_aside_with_a_message() {
        let dir = folder("corrupt");
        let path = dir.join(FILE_NAME);
        std::fs::write(&path, b"moves \xff\xfe").unwrap();
        let a = Autosave::new(path.clone());
        let message = a.load().unwrap().unwrap_err();
        let aside = dir.join("autosave.unreadable-1.henka");
        assert!(message.contains("not restored") && message.contains(&aside.display().to_string()), "{message}");
        assert!(!path.exists() && aside.exists(), "kept for the user, not overwritten");
        assert!(a.load().is_none(), "the next start begins clean");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_restore_that_crashed_the_last_start_is_not_tried_again() {
        let dir = folder("crashed");
        let path = dir.join(FILE_NAME);
        let mut a = Autosave::new(path.clone());
        a.save(&record(&["7g7f"])).unwrap();
        // The start that restored it died inside the restore: the marker is still there.
        std::fs::write(dir.join("autosave.restoring.henka"), b"").unwrap();
        let message = a.load().unwrap().unwrap_err();
        assert!(message.contains("ended the last start"), "{message}");
        assert!(a.load().is_none());
        // A restore that returns removes its marker.
        let b = Autosave::new(dir.join("other.henka"));
        b.guard_restore(|| assert!(dir.join("other.restoring.henka").exists()));
        assert!(!dir.join("other.restoring.henka").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn each_session_keeps_the_previous_sessions_games() {
        let dir = folder("backups");
        let path = dir.join(FILE_NAME);
        for session in 0..5 {
            let mut a = Autosave::new(path.clone());
            let first = format!("{}g7f", 9 - session);
            a.save(&record(&[&first])).unwrap();
            a.save(&record(&[&first, "3c3d"])).unwrap();
        }
        let moves = |name: &str| record::parse(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap().moves;
        assert_eq!(moves(FILE_NAME), ["5g7f", "3c3d"], "the game of this session");
        assert_eq!(moves("autosave.1.henka"), ["6g7f", "3c3d"], "the one before");
        assert_eq!(moves("autosave.3.henka"), ["8g7f", "3c3d"]);
        assert!(!dir.join("autosave.4.henka").exists(), "at most {BACKUPS} are kept");
        let stray =
            std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().contains("tmp"));
        assert_eq!(stray.count(), 0, "no temporary file is left");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
