//! A file dialog inside the window: a folder listing filtered by extension and a name field.
//!
//! Native dialogs on Linux go through the desktop portal over D-Bus, which is missing under Xvfb,
//! in CI and on many minimal desktops (docs/architecture.md, "File dialogs inside the window"); an
//! in-window dialog works everywhere and is driven by the UI tests like any other widget.

use std::path::{Path, PathBuf};

use eframe::egui;

/// What the chosen path is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    OpenScript,
    SaveScriptAs,
    SaveGame,
    LoadGame,
    /// The rules sheet: one HTML page to share.
    SaveSheet,
}

impl Purpose {
    fn title(self) -> &'static str {
        match self {
            Purpose::OpenScript => "Open a variant script",
            Purpose::SaveScriptAs => "Save the script as",
            Purpose::SaveGame => "Save the game record",
            Purpose::LoadGame => "Load a game record",
            Purpose::SaveSheet => "Save the rules sheet (one HTML page to share)",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Purpose::OpenScript | Purpose::SaveScriptAs => "rhai",
            Purpose::SaveGame | Purpose::LoadGame => "henka",
            Purpose::SaveSheet => "html",
        }
    }

    fn confirm(self) -> &'static str {
        match self {
            Purpose::OpenScript | Purpose::LoadGame => "Open",
            Purpose::SaveScriptAs | Purpose::SaveGame | Purpose::SaveSheet => "Save",
        }
    }
}

/// An open dialog.
#[derive(Clone, Debug)]
pub struct FileDialog {
    pub purpose: Purpose,
    dir: PathBuf,
    name: String,
}

impl FileDialog {
    /// A dialog in `dir`, with `name` suggested.
    pub fn new(purpose: Purpose, dir: PathBuf, name: impl Into<String>) -> FileDialog {
        FileDialog { purpose, dir, name: name.into() }
    }

    /// Shows the dialog; `Some(Some(path))` when confirmed, `Some(None)` when cancelled.
    pub fn show(&mut self, ctx: &egui::Context) -> Option<Option<PathBuf>> {
        let mut result = None;
        egui::Modal::new(egui::Id::unique("file-dialog")).show(ctx, |ui| {
            ui.set_width(480.0);
            ui.heading(self.purpose.title());
            ui.horizontal(|ui| {
                if ui.button("⬆ Up").on_hover_text("Parent folder").clicked()
                    && let Some(p) = self.dir.parent()
                {
                    self.dir = p.to_path_buf();
                }
                ui.monospace(self.dir.display().to_string());
            });
            egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
                for (path, is_dir) in listing(&self.dir, self.purpose.extension()) {
                    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let label = if is_dir { format!("📁 {name}") } else { name.clone() };
                    let resp = ui.selectable_label(!is_dir && name == self.name, label);
                    if resp.clicked() {
                        if is_dir {
                            self.dir = path;
                        } else {
                            self.name = name;
                        }
                    }
                    if resp.double_clicked() && !is_dir {
                        result = Some(Some(self.dir.join(&self.name)));
                    }
                }
            });
            ui.horizontal(|ui| {
                ui.label("Name");
                let field = ui
                    .add(egui::TextEdit::singleline(&mut self.name).desired_width(280.0))
                    .accessible_name("File name");
                let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if (ui.button(self.purpose.confirm()).clicked() || entered) && !self.name.trim().is_empty() {
                    result = Some(Some(self.chosen()));
                }
                if ui.button("Cancel").clicked() {
                    result = Some(None);
                }
            });
        });
        result
    }

    /// The chosen path: the name as typed (absolute, or in the listed folder), with the
    /// extension added when missing.
    fn chosen(&self) -> PathBuf {
        let typed = Path::new(self.name.trim());
        let path = if typed.is_absolute() { typed.to_path_buf() } else { self.dir.join(typed) };
        if path.extension().is_none() { path.with_extension(self.purpose.extension()) } else { path }
    }
}

/// Sub-folders, then files with the extension, sorted; hidden entries left out.
fn listing(dir: &Path, extension: &str) -> Vec<(PathBuf, bool)> {
    let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<(PathBuf, bool)> = rd
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| (e.path(), e.path().is_dir()))
        .filter(|(p, is_dir)| *is_dir || p.extension().is_some_and(|x| x == extension))
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// Writes a file by writing a temporary file beside it and renaming it over, so a crash or a full
/// disk never leaves half a script (and watchers see one complete change).
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::sync::atomic::{AtomicU64, Ordering};
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // A name no other write uses (two editors, or two saves of one), created exclusively so a
    // file or link planted under it is never written through.
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}-{n}.henka-tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(text.as_bytes())?;
        // On disk before the rename makes it the file, so a power cut leaves one or the other.
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // The rename itself is durable once the folder is synced (a no-op where unsupported).
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("henka-atomic-{}", std::process::id()));
        let path = dir.join("a.rhai");
        write_atomically(&path, "one").unwrap();
        write_atomically(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(listing(&dir, "rhai"), vec![(path.clone(), false)]);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_typed_name_gets_the_extension() {
        let d = FileDialog::new(Purpose::SaveGame, PathBuf::from("/tmp"), "game1");
        assert_eq!(d.chosen(), PathBuf::from("/tmp/game1.henka"));
    }
}
