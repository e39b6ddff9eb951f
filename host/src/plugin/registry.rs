//! The plugins this process has opened, and the private copies their workers load.
//!
//! [`open`] reads the file, and returns the variant already open from it while its contents are
//! unchanged; a file rebuilt since is opened anew (fresh workers on the new bytes) — that is
//! "reload plugin". Earlier variants stay usable by whoever holds them: their workers keep the
//! bytes they were started on.
//!
//! A worker never maps the user's file: a file rewritten in place while mapped crashes the
//! process that maps it, and a rebuilt file must not change a running game's rules. It maps a
//! private copy, written by [`private_copy`] into a folder only this user can enter (mode 0700,
//! checked to be a real folder owned by this user, not a symlink planted in its place), with
//! exclusive create (`O_EXCL`, and `O_NOFOLLOW`), so a symlink planted under the copy's name is
//! never followed. The copy is deleted as soon as the worker has mapped it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use henka_api::Variant;

use super::PluginError;
use super::remote::RemoteVariant;
use crate::ai::delegate::{self, SearchElsewhere};

/// A plugin file this process opened.
struct Opened {
    /// The file as the user named it (canonical).
    path: PathBuf,
    hash: u64,
    variant: Arc<RemoteVariant>,
}

static REGISTRY: Mutex<Vec<Opened>> = Mutex::new(Vec::new());

fn file_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Opens a plugin file: the variant already open from it if the file is unchanged, otherwise
/// the file's current contents in a new worker.
pub fn open(path: &Path) -> Result<Arc<RemoteVariant>, PluginError> {
    let load_err = |message: String| PluginError::Load { path: path.to_path_buf(), message };
    let canonical = path.canonicalize().map_err(|e| load_err(e.to_string()))?;
    let bytes = std::fs::read(&canonical).map_err(|e| load_err(e.to_string()))?;
    let hash = file_hash(&bytes);
    let mut registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(o) = registry.iter().find(|o| o.path == canonical)
        && o.hash == hash
    {
        return Ok(o.variant.clone());
    }
    let name = super::discover::plugin_name(&canonical).unwrap_or_else(|| canonical.display().to_string());
    let variant = Arc::new(RemoteVariant::start(name, canonical.clone(), bytes.into())?);
    let as_variant: Arc<dyn Variant> = variant.clone();
    let searcher: Arc<dyn SearchElsewhere> = variant.clone();
    delegate::register(&as_variant, &searcher);
    registry.retain(|o| o.path != canonical);
    registry.push(Opened { path: canonical, hash, variant: variant.clone() });
    Ok(variant)
}

/// The folder private copies are written to: `henka/plugin-copies` in `$XDG_RUNTIME_DIR` (a
/// per-user folder by definition), else `henka-<uid>/plugin-copies` in the temp folder. Each
/// level is created with mode 0700, or checked to be a folder of this user's that nobody else can
/// enter.
pub fn copy_dir() -> std::io::Result<PathBuf> {
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from).filter(|p| p.is_absolute());
    let root = match runtime {
        Some(r) => r.join("henka"),
        None => std::env::temp_dir().join(format!("henka-{}", user_id())),
    };
    private_dir(&root)?;
    let dir = root.join("plugin-copies");
    private_dir(&dir)?;
    Ok(dir)
}

#[cfg(unix)]
fn user_id() -> u32 {
    // SAFETY: geteuid cannot fail and touches no memory.
    unsafe { libc::geteuid() }
}

#[cfg(not(unix))]
fn user_id() -> u32 {
    0
}

/// Creates `dir` with mode 0700, or checks the one there is safe to write into.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    match builder.create(dir) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    // It exists: a folder (not a symlink to one), ours, closed to others.
    let meta = std::fs::symlink_metadata(dir)?;
    let refuse = |why: &str| std::io::Error::other(format!("refusing to copy plugins into {}: {why}", dir.display()));
    if !meta.file_type().is_dir() {
        return Err(refuse("it is not a folder (a symlink?)"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != user_id() {
            return Err(refuse("another user owns it"));
        }
        if meta.mode() & 0o077 != 0 {
            return Err(refuse(&format!("others may enter it (mode {:o}; it must be 0700)", meta.mode() & 0o777)));
        }
    }
    Ok(())
}

/// Writes `bytes` to a new file in [`copy_dir`], named after `original` and a name this process
/// has not used, created exclusively: a name already taken (by anything, a symlink included) is
/// skipped, never opened.
pub fn private_copy(original: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    use std::io::Write;
    static COPIES: AtomicUsize = AtomicUsize::new(0);
    let dir = copy_dir()?;
    let file = original.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    for _ in 0..10_000 {
        let n = COPIES.fetch_add(1, Ordering::Relaxed);
        let copy = dir.join(format!("{}-{n}-{file}", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        match options.open(&copy) {
            Ok(mut f) => {
                let written = f.write_all(bytes).and_then(|()| f.sync_all());
                if let Err(e) = written {
                    let _ = std::fs::remove_file(&copy);
                    return Err(e);
                }
                return Ok(copy);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(format!("no free name for a copy in {}", dir.display())))
}
