//! Where plugins are found, and their names.
//!
//! A plugin is a shared library named like cargo names a `cdylib`: `lib<name>.so` on Linux
//! (`<name>.dll` on Windows, `lib<name>.dylib` on macOS). Its variant name is `<name>` with `_`
//! written `-`, so the crate `ki_shogi` is the variant `ki-shogi`, beside `scripts/ki-shogi.rhai`.
//!
//! A plugin is native code, so Henka runs only plugins from places the user chose — never one
//! that happens to lie in the current folder. Folders searched, first match wins:
//! 1. `$HENKA_PLUGINS` (one or more folders, separated like `PATH`);
//! 2. the user's plugin folder, `$XDG_DATA_HOME/henka/plugins` or `~/.local/share/henka/plugins`,
//!    where `henka plugin add` copies a plugin;
//! 3. when this `henka` was built in a checkout of Henka itself, that checkout's build output:
//!    the executable lives in `<root>/target/<profile>` (a test binary in `…/<profile>/deps`) and
//!    `<root>/Cargo.toml` is a workspace with the `plugin-api` member. Its own profile folder
//!    first, then the other one.
//!
//! A plugin named by its path on the command line is used from there: naming it is choosing it.

use std::path::{Path, PathBuf};

/// A plugin file found on disk (not yet loaded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginFile {
    pub name: String,
    pub path: PathBuf,
}

/// Henka's own test fixtures (deliberately broken plugins that the workspace builds beside the
/// real ones, for its tests) are named `henka-test-…`. They are never listed or found by name, so
/// a user never sees them; the tests load them by path.
const TEST_FIXTURE_PREFIX: &str = "henka-test-";

/// The variant name of a plugin file, if the file is named like a plugin.
pub fn plugin_name(path: &Path) -> Option<String> {
    let file = path.file_name()?.to_str()?;
    let stem = file.strip_prefix(std::env::consts::DLL_PREFIX)?.strip_suffix(std::env::consts::DLL_SUFFIX)?;
    (!stem.is_empty()).then(|| stem.replace('_', "-"))
}

/// The root of the Henka checkout this executable was built in, if it was: see the module docs.
pub fn checkout_root() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let mut profile = exe.parent()?;
    // Test binaries live in target/<profile>/deps, examples in target/<profile>/examples.
    if profile.file_name().is_some_and(|n| n == "deps" || n == "examples") {
        profile = profile.parent()?;
    }
    let target = profile.parent()?;
    if target.file_name()? != "target" {
        return None;
    }
    let root = target.parent()?;
    is_henka_workspace(&root.join("Cargo.toml")).then(|| root.to_path_buf())
}

/// Whether `manifest` is Henka's workspace manifest: a `[workspace]` whose members include
/// `plugin-api`.
fn is_henka_workspace(manifest: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(manifest) else {
        return false;
    };
    text.lines().any(|l| l.trim() == "[workspace]") && text.contains("\"plugin-api\"")
}

/// The checkout's cargo output folders, this executable's profile first.
fn checkout_dirs() -> Vec<PathBuf> {
    let Some(root) = checkout_root() else {
        return Vec::new();
    };
    let target = root.join("target");
    let own = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.ancestors().find(|a| a.parent() == Some(target.as_path())).map(Path::to_path_buf));
    let mut dirs: Vec<PathBuf> = own.into_iter().collect();
    dirs.extend(["release", "debug"].map(|p| target.join(p)));
    dirs
}

/// The user's plugin folder: `$XDG_DATA_HOME/henka/plugins`, else `~/.local/share/henka/plugins`.
pub fn user_dir() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("share")))?;
    Some(data.join("henka").join("plugins"))
}

/// The folders searched for plugins, in priority order (see the module docs).
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(list) = std::env::var_os("HENKA_PLUGINS") {
        dirs.extend(std::env::split_paths(&list).filter(|p| !p.as_os_str().is_empty()));
    }
    dirs.extend(user_dir());
    dirs.extend(checkout_dirs());
    let mut seen = Vec::new();
    dirs.retain(|d| {
        let key = d.canonicalize().unwrap_or_else(|_| d.clone());
        let new = !seen.contains(&key);
        seen.push(key);
        new
    });
    dirs
}

fn plugins_in(dir: &Path) -> Vec<PluginFile> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PluginFile> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter_map(|path| Some(PluginFile { name: plugin_name(&path)?, path }))
        .filter(|f| !f.name.starts_with(TEST_FIXTURE_PREFIX))
        .collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files
}

/// Every plugin found, one per name (earlier folders win), sorted by name.
pub fn discover(dirs: &[PathBuf]) -> Vec<PluginFile> {
    let mut out: Vec<PluginFile> = Vec::new();
    for dir in dirs {
        for f in plugins_in(dir) {
            if !out.iter().any(|e| e.name == f.name) {
                out.push(f);
            }
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Whether `arg` names a file rather than a variant: it has a folder in it or a library's suffix
/// (so a file that happens to be called `shogi` in the current folder is never taken for one).
pub fn is_path(arg: &str) -> bool {
    arg.contains(std::path::MAIN_SEPARATOR) || arg.contains('/') || arg.ends_with(std::env::consts::DLL_SUFFIX)
}

/// Finds a plugin by variant name in `dirs`, or takes `arg` as the path of a plugin file.
pub fn find(arg: &str, dirs: &[PathBuf]) -> Option<PluginFile> {
    let path = Path::new(arg);
    if is_path(arg) && path.is_file() {
        return Some(PluginFile { name: plugin_name(path).unwrap_or_else(|| arg.to_string()), path: path.into() });
    }
    discover(dirs).into_iter().find(|f| f.name == arg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_cargo_file_names() {
        let file = |n: &str| format!("{}{n}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
        assert_eq!(plugin_name(Path::new(&file("okisaki"))), Some("okisaki".into()));
        assert_eq!(plugin_name(Path::new(&format!("target/release/{}", file("ki_shogi")))), Some("ki-shogi".into()));
        assert_eq!(plugin_name(Path::new("okisaki.rhai")), None);
    }

    #[test]
    fn a_checkout_is_a_workspace_with_plugin_api() {
        let dir = std::env::temp_dir().join(format!("henka-discover-checkout-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = dir.join("Cargo.toml");
        for (text, henka) in [
            ("[workspace]\nmembers = [\n    \"plugin-api\",\n    \"host\",\n]\n", true),
            ("[workspace]\nmembers = [\"plugin-api\", \"host\"]\n", true),
            ("[workspace]\nmembers = [\"host\"]\n", false),
            ("[package]\nname = \"plugin-api\"\n", false),
        ] {
            std::fs::write(&manifest, text).unwrap();
            assert_eq!(is_henka_workspace(&manifest), henka, "{text}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
        // This test binary was built in a checkout: target/<profile>/deps/…
        let root = checkout_root().expect("the tests run from a checkout");
        assert!(root.join("plugin-api").is_dir());
        let dirs = search_dirs();
        assert!(["debug", "release"].iter().all(|p| dirs.contains(&root.join("target").join(p))), "{dirs:?}");
    }

    #[test]
    fn a_bare_name_is_never_taken_for_a_file() {
        assert!(!is_path("shogi") && !is_path("ki-shogi"));
        assert!(is_path("./shogi") && is_path("target/release/libshogi.so"));
        assert!(is_path(&format!("{}shogi{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX)));
    }

    #[test]
    fn the_first_folder_wins() {
        let base = std::env::temp_dir().join(format!("henka-discover-{}", std::process::id()));
        let file = format!("{}ogi{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
        for d in ["a", "b"] {
            std::fs::create_dir_all(base.join(d)).unwrap();
            std::fs::write(base.join(d).join(&file), "not a library").unwrap();
        }
        let found = discover(&[base.join("a"), base.join("b")]);
        assert_eq!(found, vec![PluginFile { name: "ogi".into(), path: base.join("a").join(&file) }]);
        assert_eq!(find("ogi", &[base.join("b")]).unwrap().path, base.join("b").join(&file));
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn test_fixtures_are_not_listed_but_load_by_path() {
        let dir = std::env::temp_dir().join(format!("henka-discover-fixture-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lib = |n: &str| dir.join(format!("{}{n}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX));
        for n in ["henka_test_panicky", "shogi"] {
            std::fs::write(lib(n), "not a library").unwrap();
        }
        let names: Vec<String> = discover(std::slice::from_ref(&dir)).into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["shogi"]);
        assert!(find("henka-test-panicky", std::slice::from_ref(&dir)).is_none());
        let by_path = lib("henka_test_panicky");
        assert_eq!(find(by_path.to_str().unwrap(), &[]).unwrap().path, by_path);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
