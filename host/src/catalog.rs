//! Where variants come from: the bundled scripts (embedded in the binary, so `henka` works from any
//! folder), the project's `scripts/` folder when run from a checkout, and the user's variants
//! folder. A file overrides a bundled script of the same name, so a designer's edit wins.

use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use crate::script::{self, LoadedScript, RuleOptions, ScriptError};

/// A bundled script, loaded with its default options: what tests build their variants from.
#[cfg(test)]
pub(crate) fn bundled_script(name: &str) -> LoadedScript {
    let (_, src) = BUNDLED.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no bundled script {name}"));
    script::load_source(name, src).unwrap_or_else(|e| panic!("bundled {name}: {e}"))
}

/// The rule options chosen for this run (`henka --option name=value …`), which every variant
/// loaded by name uses unless a caller gives its own (a record's, the editor's).
static CHOSEN_OPTIONS: OnceLock<RuleOptions> = OnceLock::new();

/// Sets the run's rule options; called once, by the command line, before anything loads.
pub fn choose_options(options: RuleOptions) {
    let _ = CHOSEN_OPTIONS.set(options);
}

/// The run's rule options (none chosen: every variant's defaults).
pub fn chosen_options() -> RuleOptions {
    CHOSEN_OPTIONS.get().cloned().unwrap_or_default()
}

/// The bundled scripts, by name.
pub const BUNDLED: &[(&str, &str)] = &[
    ("shogi", include_str!("../../scripts/shogi.rhai")),
    ("okisaki", include_str!("../../scripts/okisaki.rhai")),
    ("ogi", include_str!("../../scripts/ogi.rhai")),
    ("taishin", include_str!("../../scripts/taishin.rhai")),
    ("ladies-and-generals", include_str!("../../scripts/ladies-and-generals.rhai")),
    ("ki-shogi", include_str!("../../scripts/ki-shogi.rhai")),
    ("check-shogi", include_str!("../../scripts/check-shogi.rhai")),
    ("dobutsu", include_str!("../../scripts/dobutsu.rhai")),
    ("kyoto", include_str!("../../scripts/kyoto.rhai")),
    ("chu-shogi", include_str!("../../scripts/chu-shogi.rhai")),
    // The gallery of open rules: designs made of movement callbacks and move effects.
    ("blast-shogi", include_str!("../../scripts/blast-shogi.rhai")),
    ("crowd-shogi", include_str!("../../scripts/crowd-shogi.rhai")),
    ("double-move-shogi", include_str!("../../scripts/double-move-shogi.rhai")),
    ("push-shogi", include_str!("../../scripts/push-shogi.rhai")),
    ("swap-shogi", include_str!("../../scripts/swap-shogi.rhai")),
];

/// Where a variant's definition lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Bundled(&'static str),
    File(PathBuf),
}

/// One variant the catalog knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub source: Source,
}

impl Entry {
    /// Loads the variant with the run's rule options.
    pub fn load(&self) -> Result<LoadedScript, ScriptError> {
        self.load_with(&chosen_options())
    }

    /// Loads the variant with the given rule options, each of which it must have.
    pub fn load_with(&self, options: &RuleOptions) -> Result<LoadedScript, ScriptError> {
        let loaded = match &self.source {
            Source::Bundled(src) => script::load_source_with(&format!("bundled:{}.rhai", self.name), src, options)?,
            Source::File(p) => script::load_file_with(p, options)?,
        };
        script::check_options(options, &loaded.options).map_err(|m| ScriptError {
            location: None,
            message: format!("{}: {m}", self.name),
            call_stack: Vec::new(),
        })?;
        Ok(loaded)
    }

    pub fn origin(&self) -> String {
        match &self.source {
            Source::Bundled(_) => "bundled".to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }
}

/// The user's variants folder: `$HENKA_VARIANTS`, else `$XDG_CONFIG_HOME/henka/variants`, else
/// `~/.config/henka/variants`.
pub fn user_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("HENKA_VARIANTS") {
        return Some(PathBuf::from(d));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("henka").join("variants"))
}

/// The folders searched for scripts, in priority order.
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(u) = user_dir() {
        dirs.push(u);
    }
    dirs.push(PathBuf::from("scripts"));
    dirs
}

fn scripts_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> =
        rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "rhai")).collect();
    files.sort();
    files
}

/// Every variant found, one per name (earlier folders win over later ones and over bundled).
pub fn discover(dirs: &[PathBuf]) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for dir in dirs {
        for path in scripts_in(dir) {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            if !out.iter().any(|e| e.name == name) {
                out.push(Entry { name, source: Source::File(path) });
            }
        }
    }
    for (name, src) in BUNDLED {
        if !out.iter().any(|e| e.name == *name) {
            out.push(Entry { name: name.to_string(), source: Source::Bundled(src) });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Finds a variant by name or path.
pub fn find(arg: &str, dirs: &[PathBuf]) -> Option<Entry> {
    let path = Path::new(arg);
    if arg.ends_with(".rhai") || path.is_file() {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        return Some(Entry { name, source: Source::File(path.to_path_buf()) });
    }
    discover(dirs).into_iter().find(|e| e.name == arg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_variants_are_found_without_any_folder() {
        let names: Vec<String> = discover(&[]).into_iter().map(|e| e.name).collect();
        assert_eq!(
            names,
            [
                "blast-shogi",
                "check-shogi",
                "chu-shogi",
                "crowd-shogi",
                "dobutsu",
                "double-move-shogi",
                "ki-shogi",
                "kyoto",
                "ladies-and-generals",
                "ogi",
                "okisaki",
                "push-shogi",
                "shogi",
                "swap-shogi",
                "taishin"
            ]
        );
    }

    #[test]
    fn a_file_overrides_the_bundled_script() {
        let dir = std::env::temp_dir().join(format!("henka-catalog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("shogi.rhai"), "x").unwrap();
        let e = find("shogi", std::slice::from_ref(&dir)).unwrap();
        assert_eq!(e.source, Source::File(dir.join("shogi.rhai")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
