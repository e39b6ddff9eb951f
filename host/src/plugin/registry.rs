//! Loading plugin libraries: the version handshake, a registry that never unloads, and reload.
//!
//! Libraries are never unloaded: dropping one would leave dangling the function table, the
//! variant's static strings and any thread-local state it registered (glibc cannot unload a
//! library that registered a TLS destructor anyway). Every library that passed the handshake is
//! leaked on purpose, so its table is `&'static`.
//!
//! Loading the same path twice returns the library already in memory, even when the file was
//! rebuilt since (docs/architecture.md, "Loading: never unloaded, always a fresh copy"), and a file
//! rewritten in place (`cp` over it) while mapped crashes the process. So [`open`] never maps the
//! user's file: it maps a private copy under a fresh name, remembers a hash of the file, and when
//! the file changed since, maps a new copy — that is "reload plugin". On Unix the copy is deleted
//! as soon as it is mapped (a mapped file stays valid after unlinking).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use henka_api::abi::{ABI_VERSION, ABI_VERSION_SYMBOL, PluginTable, TABLE_SYMBOL};
use libloading::Library;

use super::PluginError;
use super::in_process::PluginVariant;

/// A library loaded by this process (never unloaded).
struct Loaded {
    /// The file as the user named it (canonical), not the copy actually mapped.
    path: PathBuf,
    hash: u64,
    variant: Arc<PluginVariant>,
}

static REGISTRY: Mutex<Vec<Loaded>> = Mutex::new(Vec::new());

fn file_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Opens a plugin file: the variant already loaded from it if the file is unchanged, otherwise
/// the file's current contents (loaded from a fresh copy if an older build is already mapped).
pub fn open(path: &Path) -> Result<Arc<PluginVariant>, PluginError> {
    let load_err = |message: String| PluginError::Load { path: path.to_path_buf(), message };
    let canonical = path.canonicalize().map_err(|e| load_err(e.to_string()))?;
    let bytes = std::fs::read(&canonical).map_err(|e| load_err(e.to_string()))?;
    let hash = file_hash(&bytes);
    let mut registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = registry.iter().rev().find(|l| l.path == canonical)
        && l.hash == hash
    {
        return Ok(l.variant.clone());
    }
    let copy = fresh_copy(&canonical, &bytes).map_err(|e| load_err(e.to_string()))?;
    let loaded = load(&copy, &canonical);
    // A mapped library needs no file on Unix; elsewhere the copy stays in the temp folder.
    if cfg!(unix) {
        let _ = std::fs::remove_file(&copy);
    }
    let variant = Arc::new(loaded?);
    registry.push(Loaded { path: canonical, hash, variant: variant.clone() });
    Ok(variant)
}

/// Writes `bytes` to a file name no library of this process has had.
fn fresh_copy(original: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    static COPIES: AtomicUsize = AtomicUsize::new(0);
    let n = COPIES.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join("henka-plugins");
    std::fs::create_dir_all(&dir)?;
    let file = original.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let copy = dir.join(format!("{}-{n}-{file}", std::process::id()));
    std::fs::write(&copy, bytes)?;
    Ok(copy)
}

/// Maps `file`, checks the ABI version before anything else, then the table, then the
/// description. `origin` is the path reported in messages.
fn load(file: &Path, origin: &Path) -> Result<PluginVariant, PluginError> {
    let path = origin.to_path_buf();
    // SAFETY: loading runs the library's initialisers. Plugins are trusted native code by design
    // (docs/architecture.md, Plugins); only files the user put in a plugin folder or named are
    // loaded.
    let lib =
        unsafe { Library::new(file) }.map_err(|e| PluginError::Load { path: path.clone(), message: e.to_string() })?;
    let not_a_plugin = |symbol: &std::ffi::CStr| PluginError::NotAPlugin {
        path: path.clone(),
        symbol: symbol.to_string_lossy().into_owned(),
    };
    // SAFETY: the symbol is declared `extern "C" fn() -> u32` by every ABI version.
    let version = unsafe { lib.get::<unsafe extern "C" fn() -> u32>(ABI_VERSION_SYMBOL) }
        .map_err(|_| not_a_plugin(ABI_VERSION_SYMBOL))?;
    // SAFETY: as above; the function takes nothing and returns an integer.
    let found = unsafe { version() };
    if found != ABI_VERSION {
        return Err(PluginError::AbiVersion { path, found, expected: ABI_VERSION, api: env!("CARGO_PKG_VERSION") });
    }
    // SAFETY: with the version agreed, the table symbol has this signature.
    let table_fn = unsafe { lib.get::<unsafe extern "C" fn() -> *const PluginTable>(TABLE_SYMBOL) }
        .map_err(|_| not_a_plugin(TABLE_SYMBOL))?;
    // SAFETY: returns a pointer to the plugin's static table (or null).
    let table = unsafe { table_fn() };
    // Never unloaded: the table below borrows from the library for the rest of the process.
    std::mem::forget(lib);
    // SAFETY: non-null tables are statics of the library, which is never unloaded.
    let table: &'static PluginTable = unsafe { table.as_ref() }
        .ok_or_else(|| PluginError::Table { path: path.clone(), message: "the function table is null".into() })?;
    check_table(table).map_err(|message| PluginError::Table { path: path.clone(), message })?;
    let name = super::discover::plugin_name(origin).unwrap_or_else(|| origin.display().to_string());
    PluginVariant::new(table, name, path)
}

/// The checks that follow the version handshake: both sides must agree on the table and move
/// layouts, or a plugin built by a mismatched henka-api would read garbage.
fn check_table(t: &PluginTable) -> Result<(), String> {
    if t.struct_size != std::mem::size_of::<PluginTable>() {
        return Err(format!(
            "the function table is {} bytes, this henka expects {}",
            t.struct_size,
            std::mem::size_of::<PluginTable>()
        ));
    }
    if t.abi_version != ABI_VERSION {
        return Err(format!("the table says ABI version {}, the plugin said {ABI_VERSION}", t.abi_version));
    }
    if t.move_size as usize != std::mem::size_of::<henka_api::Move>() {
        return Err(format!("moves are {} bytes in the plugin, {} here", t.move_size, size_of::<henka_api::Move>()));
    }
    Ok(())
}
