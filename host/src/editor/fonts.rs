//! Fonts: egui's defaults for the interface, plus a kanji font for piece faces.
//!
//! Henka ships a subset of Noto Serif CJK JP Bold (kana, JIS level-1 kanji and every character of
//! the seed variants: see `host/assets/fonts/README.md`), so pieces show their kanji on any machine.
//! A system CJK font, when one is installed, backs it up for rarer characters; a piece whose name
//! still cannot be drawn shows its Latin token instead.

use std::sync::Arc;

use eframe::egui::{self, FontData, FontDefinitions, FontFamily, FontId};

/// The family piece faces are drawn with.
pub fn kanji_family() -> FontFamily {
    FontFamily::Name("kanji".into())
}

const EMBEDDED: &[u8] = include_bytes!("../../assets/fonts/NotoSerifCJKjp-Bold-subset.otf");

/// System fonts tried as a fallback, with the face index of their Japanese face.
const SYSTEM_CJK: &[(&str, u32)] = &[
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 0),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 0),
    ("/usr/share/fonts/truetype/fonts-japanese-mincho.ttf", 0),
    ("/usr/share/fonts/truetype/fonts-japanese-gothic.ttf", 0),
    ("/System/Library/Fonts/ヒラギノ明朝 ProN.ttc", 0),
    ("C:\\Windows\\Fonts\\msmincho.ttc", 0),
];

/// Installs the fonts on a context.
pub fn install(ctx: &egui::Context) {
    let mut defs = FontDefinitions::default();
    defs.font_data.insert("henka-kanji".into(), Arc::new(FontData::from_static(EMBEDDED)));
    let mut kanji = vec!["henka-kanji".to_string()];
    if let Some((path, index)) = SYSTEM_CJK.iter().find(|(p, _)| std::path::Path::new(p).is_file())
        && let Ok(bytes) = std::fs::read(path)
    {
        let mut data = FontData::from_owned(bytes);
        data.index = *index;
        defs.font_data.insert("system-cjk".into(), Arc::new(data));
        kanji.push("system-cjk".into());
    }
    // Latin tokens on pieces and kanji in lists: each family falls back to the other's fonts.
    let proportional = defs.families.get(&FontFamily::Proportional).cloned().unwrap_or_default();
    defs.families.insert(kanji_family(), kanji.iter().cloned().chain(proportional).collect());
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        defs.families.entry(family).or_default().extend(kanji.iter().cloned());
    }
    ctx.set_fonts(defs);
}

/// Whether every character of `text` can be drawn in the piece font.
pub fn can_draw(ctx: &egui::Context, text: &str) -> bool {
    ctx.fonts_mut(|f| f.has_glyphs(&FontId::new(12.0, kanji_family()), text))
}
