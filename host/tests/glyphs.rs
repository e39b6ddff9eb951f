//! Every character the editor can draw comes from a font compiled into the binary.
//!
//! The kittest tests catch a missing glyph in what they happen to draw (egui panics on one there);
//! this test catches the rest: every non-ASCII character in a string or character literal of the
//! host's and the API's source (labels, buttons, messages, legends, notation) and every character
//! of the bundled variants' names, kanji and option descriptions must be drawable with the
//! embedded fonts alone, in both interface families. No system font is loaded, so the answer is the same on every machine.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use eframe::egui::{self, FontFamily, FontId};
use henka::editor::fonts::{self, SystemFonts};
use henka_api::Variant;

/// A context with the editor's fonts (embedded only), after one pass so they are loaded.
fn context() -> egui::Context {
    let ctx = egui::Context::default();
    fonts::install(&ctx, SystemFonts::EmbeddedOnly);
    let mut output = ctx.run_ui(egui::RawInput::default(), |_| {});
    output.textures_delta.clear();
    ctx
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The characters inside string and character literals of Rust source (comments skipped).
fn literal_chars(source: &str) -> Vec<char> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            // Raw strings: r"…", r#"…"#, with any number of hashes.
            'r' if matches!(chars.get(i + 1), Some('"' | '#'))
                && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while chars.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if chars.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                j += 1;
                let closes = |k: usize| chars[k] == '"' && (1..=hashes).all(|h| chars.get(k + h) == Some(&'#'));
                while j < chars.len() && !closes(j) {
                    out.push(chars[j]);
                    j += 1;
                }
                i = j + 1 + hashes;
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    } else {
                        out.push(chars[i]);
                    }
                    i += 1;
                }
                i += 1;
            }
            // A character literal ('x', '\n', '▶'), not a lifetime ('a).
            '\'' if chars.get(i + 2) == Some(&'\'') => {
                out.push(chars[i + 1]);
                i += 3;
            }
            _ => i += 1,
        }
    }
    out
}

#[test]
fn the_literal_scanner_sees_strings_and_skips_comments() {
    let src = "// ⚠ a comment\nlet a = \"◀ back\"; /* ● */ let b = '▶'; let c = r#\"📁 \"q\" \"#; fn f<'a>() {}";
    let found: String = literal_chars(src).into_iter().filter(|c| !c.is_ascii()).collect();
    assert_eq!(found, "◀▶📁");
}

#[test]
fn every_character_the_interface_can_show_has_an_embedded_glyph() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("../plugin-api/src"), &mut files);
    let mut wanted: BTreeSet<char> = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        wanted.extend(literal_chars(&text).into_iter().filter(|c| !c.is_ascii() && !c.is_control()));
    }
    for (name, src) in henka::catalog::BUNDLED {
        let loaded = henka::script::load_source(name, src).unwrap();
        for o in &loaded.options {
            let texts = o.about.iter().chain(o.choice_about.iter().flatten());
            wanted.extend(texts.flat_map(|t| t.chars()).filter(|c| !c.is_ascii()));
        }
        let v = loaded.variant;
        let info = v.info();
        for p in &info.pieces {
            wanted.extend(p.name.chars().chain(p.kanji.iter().flat_map(|k| k.chars())).filter(|c| !c.is_ascii()));
        }
        let meta = &info.meta;
        wanted.extend(
            meta.name.chars().chain(meta.author.chars()).chain(meta.description.chars()).filter(|c| !c.is_ascii()),
        );
    }
    assert!(wanted.contains(&'◀') && wanted.contains(&'⚠'), "the scan reaches the editor's buttons and messages");

    let ctx = context();
    for family in [FontFamily::Proportional, FontFamily::Monospace, fonts::kanji_family()] {
        let missing: String = ctx.fonts_mut(|f| {
            wanted.iter().filter(|c| !f.has_glyphs(&FontId::new(14.0, family.clone()), &c.to_string())).collect()
        });
        assert!(missing.is_empty(), "no embedded glyph in {family:?} for: {missing}");
    }
}
