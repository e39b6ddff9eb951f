//! Fonts: every glyph the editor draws comes from a font compiled into the binary, so the window
//! looks the same on a bare machine as on a desktop with every font installed.
//!
//! - egui's own fonts: Ubuntu Light for the interface's Latin text, Hack (monospace, but with the
//!   arrows, triangles and circles the interface uses: ◀ ▶ ● ○ ◯ ◎ ← →), and its monochrome emoji
//!   fonts (Noto Emoji, emoji-icon-font) for the rest (⚠, 📁);
//! - a subset of Noto Serif CJK JP Bold (kana, JIS level-1 kanji and every character of the
//!   bundled variants: see `host/assets/fonts/README.md`) for piece faces and kanji in lists.
//!
//! A system CJK font, when [`SystemFonts::Prefer`] is asked for and one is installed, backs the
//! subset up for rarer kanji; nothing depends on it, and the tests never load one (they must pass
//! or fail the same on every machine). A piece whose name still cannot be drawn shows its Latin
//! token instead.

use std::sync::Arc;

use eframe::egui::{self, FontData, FontDefinitions, FontFamily, FontId};

/// The family piece faces are drawn with.
pub fn kanji_family() -> FontFamily {
    FontFamily::Name("kanji".into())
}

/// Whether an installed system CJK font may back up the embedded kanji subset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SystemFonts {
    /// Only the fonts compiled into the binary: what tests use, so they are hermetic.
    #[default]
    EmbeddedOnly,
    /// Also a system CJK font when one is installed (the window, for rare kanji).
    Prefer,
}

const EMBEDDED_KANJI: &[u8] = include_bytes!("../../assets/fonts/NotoSerifCJKjp-Bold-subset.otf");

/// System fonts tried as a fallback, with the face index of their Japanese face.
const SYSTEM_CJK: &[(&str, u32)] = &[
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 0),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 0),
    ("/usr/share/fonts/truetype/fonts-japanese-mincho.ttf", 0),
    ("/usr/share/fonts/truetype/fonts-japanese-gothic.ttf", 0),
    ("/System/Library/Fonts/ヒラギノ明朝 ProN.ttc", 0),
    ("C:\\Windows\\Fonts\\msmincho.ttc", 0),
];

/// The editor's font definitions: egui's fonts and the embedded kanji subset, plus a system CJK
/// font when `system` prefers one and it exists.
pub fn definitions(system: SystemFonts) -> FontDefinitions {
    let mut defs = FontDefinitions::default();
    defs.font_data.insert("henka-kanji".into(), Arc::new(FontData::from_static(EMBEDDED_KANJI)));
    let mut kanji = vec!["henka-kanji".to_string()];
    if system == SystemFonts::Prefer
        && let Some((path, index)) = SYSTEM_CJK.iter().find(|(p, _)| std::path::Path::new(p).is_file())
        && let Ok(bytes) = std::fs::read(path)
    {
        let mut data = FontData::from_owned(bytes);
        data.index = *index;
        defs.font_data.insert("system-cjk".into(), Arc::new(data));
        kanji.push("system-cjk".into());
    }
    // The interface's text: egui's Latin font first, then Hack for the symbols Ubuntu Light lacks
    // (before the emoji fonts, whose triangles and circles are drawn as pictures), then kanji,
    // then egui's icon and emoji fonts as the last resort.
    let proportional = defs.families.get(&FontFamily::Proportional).cloned().unwrap_or_default();
    let (latin, icons): (Vec<String>, Vec<String>) = proportional.into_iter().partition(|f| f == "Ubuntu-Light");
    let interface: Vec<String> =
        latin.into_iter().chain(["Hack".to_string()]).chain(kanji.iter().cloned()).chain(icons).collect();
    defs.families.insert(FontFamily::Proportional, interface.clone());
    // Piece faces: kanji first, then everything the interface has (Latin tokens).
    defs.families.insert(kanji_family(), kanji.iter().cloned().chain(interface.clone()).collect());
    // Monospace (the script): egui's Hack and Ubuntu, then kanji and the icon fonts.
    let mono = defs.families.entry(FontFamily::Monospace).or_default();
    for f in interface {
        if !mono.contains(&f) {
            mono.push(f);
        }
    }
    defs
}

/// Installs the fonts on a context.
pub fn install(ctx: &egui::Context, system: SystemFonts) {
    ctx.set_fonts(definitions(system));
}

/// Whether every character of `text` can be drawn in the piece font.
pub fn can_draw(ctx: &egui::Context, text: &str) -> bool {
    ctx.fonts_mut(|f| f.has_glyphs(&FontId::new(12.0, kanji_family()), text))
}
