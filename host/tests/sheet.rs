//! `henka sheet`: a self-contained rules page for every bundled variant — board, one card per
//! piece with its diagram and its moves in words, the options, and the script to download.

mod common;

use std::process::Command;

use base64::Engine as _;
use henka_api::Variant;

fn henka(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_henka")).args(args).output().unwrap()
}

/// The text between `start` and the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start:?}")) + start.len();
    &text[from..from + text[from..].find(end).unwrap()]
}

#[test]
fn every_bundled_variant_gets_a_self_contained_sheet() {
    let dir = common::home().join("sheets");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, script) in henka::catalog::BUNDLED {
        let path = dir.join(format!("{name}.html"));
        let o = henka(&["sheet", name, "-o", path.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let page = std::fs::read_to_string(&path).unwrap();
        let v = henka::script::load_source(name, script).unwrap().variant;
        let info = v.info();
        assert!(page.contains(&format!("<h1>{}</h1>", info.meta.name)), "{name}: title");
        // One card per piece type, each with its moves in words and (where drawable) a diagram.
        assert_eq!(page.matches(r#"<section class="piece">"#).count(), info.pieces.len(), "{name}: cards");
        let diagrams = page.matches(r#"<svg class="diagram""#).count();
        assert!(diagrams >= info.pieces.len() * 9 / 10, "{name}: {diagrams} diagrams for {} pieces", info.pieces.len());
        for p in &info.pieces {
            let words = henka::describe::describe(&p.betza);
            assert!(!words.starts_with("moves as"), "{name}: {} is described only by its notation", p.name);
        }
        // Kanji anywhere on the page (the footer's 変化, names, the script) fall back to the
        // embedded font, so a machine without CJK fonts draws them too.
        assert!(page.contains(r#""DejaVu Sans", "Henka Kanji", sans-serif"#), "{name}: body font fallback");
        assert!(page.contains(r#"monospace, "Henka Kanji""#), "{name}: code font fallback");
        // A board unless the variant plays on an open field.
        assert_eq!(page.contains(r#"<svg class="board""#), info.field.is_none(), "{name}: board");
        // The script, byte for byte, behind the download link.
        let data = between(&page, "href=\"data:text/plain;charset=utf-8;base64,", "\"");
        let decoded = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
        assert_eq!(String::from_utf8(decoded).unwrap(), *script, "{name}: the attached script");
        // Nothing is fetched from elsewhere: every link and source is inline.
        for attr in ["src=\"", "href=\"", "url("] {
            for (i, _) in page.match_indices(attr) {
                let target = &page[i + attr.len()..];
                assert!(
                    target.starts_with("data:") || target.starts_with('#'),
                    "{name}: external {attr}{}",
                    &target[..40.min(target.len())]
                );
            }
        }
    }
}

#[test]
fn rule_options_are_listed_with_their_choices_and_what_they_mean() {
    let path = common::home().join("ki-shogi-options.html");
    assert!(henka(&["sheet", "ki-shogi", "-o", path.to_str().unwrap()]).status.success());
    let page = std::fs::read_to_string(&path).unwrap();
    assert!(page.contains("<h2>Rule options</h2>"));
    assert!(
        page.contains(
            "<code>ki_cube</code><br><small>The Ki cube extension.</small></td><td><code>off</code>: Hi and Kaku \
             cubes only, as in the original rules.<br><code>on</code>: "
        ),
        "{}",
        between(&page, "<h2>Rule options</h2>", "</table>")
    );
    assert!(page.contains("turns to"), "cube faces and their opposites");
}
