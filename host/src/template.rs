//! New variants from the annotated template (`henka new NAME`, and "New variant" in the editor).
//!
//! The template is `examples/first-variant.rhai`, the annotated Minishogi a newcomer reads first,
//! with its metadata made the designer's own.

use std::path::{Path, PathBuf};

const TEMPLATE: &str = include_str!("../../examples/first-variant.rhai");

/// Why a new variant could not be created.
#[derive(Debug, thiserror::Error)]
pub enum NewVariantError {
    #[error("{0:?} is not a usable variant name: use letters, digits, '-' and '_'")]
    BadName(String),
    #[error("{} already exists; choose another name", .0.display())]
    Exists(PathBuf),
    #[error("cannot write {}: {source}", .path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

/// The template's text for a variant called `name`.
pub fn script_text(name: &str) -> String {
    let author = std::env::var("USER").unwrap_or_default();
    TEMPLATE
        .replacen("name: \"Minishogi\"", &format!("name: {name:?}"), 1)
        .replacen("author: \"Shigenobu Kusumoto (1970)\"", &format!("author: {author:?}"), 1)
        .replacen("version: \"1.0\"", "version: \"0.1\"", 1)
        .replacen(
            "description: \"Shogi on 5×5 with one of each piece.\"",
            "description: \"A new variant, started from the Minishogi template.\"",
            1,
        )
}

/// Writes `<dir>/<name>.rhai` from the template and returns its path. Never overwrites.
pub fn create(name: &str, dir: &Path) -> Result<PathBuf, NewVariantError> {
    let ok = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return Err(NewVariantError::BadName(name.to_string()));
    }
    let path = dir.join(format!("{name}.rhai"));
    if path.exists() {
        return Err(NewVariantError::Exists(path));
    }
    std::fs::create_dir_all(dir).map_err(|e| NewVariantError::Io { path: dir.to_path_buf(), source: e })?;
    std::fs::write(&path, script_text(name)).map_err(|e| NewVariantError::Io { path: path.clone(), source: e })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use henka_api::Variant;

    #[test]
    fn the_template_carries_the_new_name_and_loads() {
        let text = script_text("my-variant");
        assert_ne!(text, TEMPLATE, "the template's metadata lines must match what script_text replaces");
        let v = crate::script::load_source("my-variant.rhai", &text).unwrap().variant;
        assert_eq!(v.info().meta.name, "my-variant");
        assert_eq!(v.info().meta.version, "0.1");
    }

    #[test]
    fn names_are_checked_and_files_never_overwritten() {
        let dir = std::env::temp_dir().join(format!("henka-new-{}", std::process::id()));
        assert!(matches!(create("../evil", &dir), Err(NewVariantError::BadName(_))));
        let p = create("mine", &dir).unwrap();
        assert!(matches!(create("mine", &dir), Err(NewVariantError::Exists(_))));
        assert!(p.is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
