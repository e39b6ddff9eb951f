//! Rhai syntax highlighting for the script panel: comments, strings, numbers, keywords, calls and
//! map keys, in a small scanner. No highlighting library knows Rhai, and a line-by-line scanner is
//! enough because the editor never wraps lines.

use eframe::egui::text::{LayoutJob, TextFormat};
use eframe::egui::{Color32, FontId};

/// What a span of script text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Comment,
    String,
    Number,
    Keyword,
    Call,
    Key,
}

const KEYWORDS: &[&str] = &[
    "let",
    "const",
    "fn",
    "if",
    "else",
    "while",
    "loop",
    "for",
    "in",
    "do",
    "until",
    "return",
    "break",
    "continue",
    "true",
    "false",
    "this",
    "switch",
    "throw",
    "try",
    "catch",
    "private",
    "global",
    "is_shared",
];

/// Splits script text into highlighted spans (byte ranges).
pub fn spans(text: &str) -> Vec<(std::ops::Range<usize>, Kind)> {
    let b = text.as_bytes();
    let mut out: Vec<(std::ops::Range<usize>, Kind)> = Vec::new();
    let mut i = 0;
    let mut push = |r: std::ops::Range<usize>, k: Kind| match out.last_mut() {
        Some((last, lk)) if *lk == k && last.end == r.start => last.end = r.end,
        _ => out.push((r, k)),
    };
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map_or(b.len(), |n| i + n);
            Kind::Comment
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            Kind::Comment
        } else if c == b'"' || c == b'`' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                if b[i] == b'\\' {
                    i += 1;
                    i += text.get(i..).and_then(|t| t.chars().next()).map_or(0, char::len_utf8);
                } else {
                    i += 1;
                }
            }
            i = (i + 1).min(b.len());
            Kind::String
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            Kind::Number
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let next = text[i..].trim_start_matches([' ', '\t']).chars().next();
            if KEYWORDS.contains(&word) {
                Kind::Keyword
            } else if next == Some('(') {
                Kind::Call
            } else if next == Some(':') && !text[i..].trim_start().starts_with("::") {
                Kind::Key
            } else {
                Kind::Plain
            }
        } else {
            // One character (whole, for multi-byte text).
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Plain
        };
        push(start..i, kind);
    }
    out
}

fn color(kind: Kind, dark: bool) -> Color32 {
    match (kind, dark) {
        (Kind::Plain, true) => Color32::from_rgb(0xD4, 0xD4, 0xD4),
        (Kind::Plain, false) => Color32::from_rgb(0x24, 0x24, 0x24),
        (Kind::Comment, true) => Color32::from_rgb(0x6A, 0x99, 0x55),
        (Kind::Comment, false) => Color32::from_rgb(0x3D, 0x7A, 0x3D),
        (Kind::String, true) => Color32::from_rgb(0xCE, 0x91, 0x78),
        (Kind::String, false) => Color32::from_rgb(0xA3, 0x15, 0x15),
        (Kind::Number, true) => Color32::from_rgb(0xB5, 0xCE, 0xA8),
        (Kind::Number, false) => Color32::from_rgb(0x09, 0x86, 0x58),
        (Kind::Keyword, true) => Color32::from_rgb(0x56, 0x9C, 0xD6),
        (Kind::Keyword, false) => Color32::from_rgb(0x00, 0x33, 0xB3),
        (Kind::Call, true) => Color32::from_rgb(0xDC, 0xDC, 0xAA),
        (Kind::Call, false) => Color32::from_rgb(0x79, 0x5E, 0x26),
        (Kind::Key, true) => Color32::from_rgb(0x9C, 0xDC, 0xFE),
        (Kind::Key, false) => Color32::from_rgb(0x00, 0x10, 0x80),
    }
}

/// A coloured layout of the whole script.
pub fn layout_job(text: &str, font: FontId, dark: bool) -> LayoutJob {
    let mut job = LayoutJob::default();
    for (range, kind) in spans(text) {
        job.append(&text[range], 0.0, TextFormat::simple(font.clone(), color(kind, dark)));
    }
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(&str, Kind)> {
        spans(text).into_iter().filter(|(_, k)| *k != Kind::Plain).map(|(r, k)| (&text[r], k)).collect()
    }

    #[test]
    fn a_builder_call_is_coloured_by_part() {
        let got = kinds(r#"let v = variant(#{ name: "Ōgi", board: [8, 8] }); // the board"#);
        assert_eq!(
            got,
            [
                ("let", Kind::Keyword),
                ("variant", Kind::Call),
                ("name", Kind::Key),
                ("\"Ōgi\"", Kind::String),
                ("board", Kind::Key),
                ("8", Kind::Number),
                ("8", Kind::Number),
                ("// the board", Kind::Comment),
            ]
        );
    }

    #[test]
    fn spans_cover_the_text_exactly_even_when_unterminated() {
        for text in ["\"esc \\é", "\"open string", "/* open comment", "x = 'a", "漢字 = 1 // 駒"] {
            let s = spans(text);
            assert_eq!(s.first().unwrap().0.start, 0);
            assert_eq!(s.last().unwrap().0.end, text.len());
            assert!(s.windows(2).all(|w| w[0].0.end == w[1].0.start));
        }
    }
}
