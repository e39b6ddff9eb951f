//! A variant's rules sheet: one self-contained HTML page — name, author, description, the start
//! position, every piece's moves drawn as SVG diagrams with their plain-language description, the
//! rule options, and the script itself to download — what a designer posts on a variant site.
//!
//! Self-contained means no file or network beside it: the diagrams are inline SVG, the kanji font
//! is the editor's embedded subset (as a data URL, and every text's fallback, so kanji in names,
//! descriptions and the script render on machines without CJK fonts),
//! and the script is a data URL behind a download link.

use std::fmt::Write as _;

use base64::Engine as _;
use henka_api::{Piece, PieceInfo, Position, Side, Variant};

use crate::describe::describe;
use crate::diagram::{self, HALF_3D, SIZE, Target};
use crate::script::DeclaredOption;

/// The kanji font the editor embeds (a subset of Noto Serif CJK JP Bold).
const KANJI_FONT: &[u8] = include_bytes!("../assets/fonts/NotoSerifCJKjp-Bold-subset.otf");

/// Board and diagram colours (the editor's).
const WOOD: &str = "#e4be74";
const LINE: &str = "#5a3e1b";
const FACE: &str = "#f6e3b4";
/// Mark colours: moves or captures, move only, capture only, jump.
const MOVE: &str = "#2e7d32";
const CAPTURE: &str = "#c62828";
/// Text on pieces and coordinates.
const INK: &str = "#111";
const GREY: &str = "#555";

/// What the sheet is made of.
pub struct SheetInput<'a> {
    pub variant: &'a dyn Variant,
    /// The script's file name, for the download (`okisaki.rhai`).
    pub file_name: &'a str,
    pub script: &'a str,
    pub options: &'a [DeclaredOption],
}

impl std::fmt::Debug for SheetInput<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SheetInput").field("file_name", &self.file_name).finish()
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The text on a piece's face: up to two kanji (written top to bottom), else its token.
fn face_lines(info: &PieceInfo) -> (Vec<String>, bool) {
    match &info.kanji {
        Some(k) if !k.is_empty() => (k.chars().take(2).map(String::from).collect(), true),
        _ => (vec![info.written()], false),
    }
}

/// An SVG pentagon piece centred at (x, y) in a cell of `size`, pointing up for the first player.
fn piece_svg(out: &mut String, info: &PieceInfo, side: Side, x: f64, y: f64, size: f64) {
    let (w, h) = (size * 0.78, size * 0.86);
    let flip = if side == Side::First { "" } else { " rotate(180)" };
    let _ = write!(
        out,
        r#"<g transform="translate({x:.1} {y:.1}){flip}"><path d="M0 {top:.1} L{wr:.1} {shoulder:.1} L{wb:.1} {bottom:.1} L{wbn:.1} {bottom:.1} L{wrn:.1} {shoulder:.1} Z" fill="{FACE}" stroke="{LINE}" stroke-width="1"/>"#,
        top = -h / 2.0,
        shoulder = -h / 2.0 + h * 0.22,
        bottom = h / 2.0,
        wr = w * 0.42,
        wb = w / 2.0,
        wrn = -w * 0.42,
        wbn = -w / 2.0,
    );
    let (lines, kanji) = face_lines(info);
    let n = lines.len() as f64;
    let font = if kanji { size * 0.34 } else { size * 0.32 };
    let class = if kanji { "kanji" } else { "token" };
    let colour = if info.promoted { CAPTURE } else { INK };
    for (i, line) in lines.iter().enumerate() {
        let dy = (i as f64 - (n - 1.0) / 2.0) * font * 1.02 + font * 0.36 + h * 0.05;
        let _ = write!(
            out,
            r#"<text class="{class}" x="0" y="{dy:.1}" font-size="{font:.1}" text-anchor="middle" fill="{colour}">{}</text>"#,
            escape(line)
        );
    }
    out.push_str("</g>");
}

/// The start position as SVG: one grid per level, coordinates as Henka writes them.
fn board_svg(v: &dyn Variant, pos: &Position) -> String {
    let g = v.geometry();
    let info = v.info();
    let (files, ranks, levels) = (g.files() as i32, g.ranks() as i32, g.levels() as i32);
    let cell = (520.0 / files.max(ranks) as f64).clamp(18.0, 44.0);
    let margin = cell * 0.7;
    let gap = cell * 0.8;
    let slice_w = files as f64 * cell;
    let width = margin * 2.0 + levels as f64 * slice_w + (levels - 1) as f64 * gap;
    let height = margin * 2.0 + ranks as f64 * cell;
    let mut out = format!(
        r#"<svg class="board" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" role="img" aria-label="start position">"#
    );
    for l in 0..levels {
        let x0 = margin + l as f64 * (slice_w + gap);
        let _ = write!(
            out,
            r#"<rect x="{x0:.1}" y="{margin:.1}" width="{slice_w:.1}" height="{:.1}" fill="{WOOD}" stroke="{LINE}" stroke-width="2"/>"#,
            ranks as f64 * cell
        );
        if levels > 1 {
            let _ = write!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">level {}</text>"#,
                x0 + slice_w / 2.0,
                margin * 0.55,
                level_letter(l, levels)
            );
        }
        for f in 0..files {
            for r in 0..ranks {
                let Some(c) = g.cell(f, r, l) else { continue };
                let (x, y) = (x0 + f as f64 * cell, margin + (ranks - 1 - r) as f64 * cell);
                let _ = write!(
                    out,
                    r#"<rect x="{x:.1}" y="{y:.1}" width="{cell:.1}" height="{cell:.1}" fill="none" stroke="{LINE}" stroke-width="0.7"/>"#
                );
                if let Some(Piece { ty, side, .. }) = pos.piece_at(c) {
                    piece_svg(&mut out, &info.pieces[ty as usize], side, x + cell / 2.0, y + cell / 2.0, cell);
                }
            }
        }
        if levels == 1 {
            // Files from the first player's right, ranks as letters from the top.
            for f in 0..files {
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="{GREY}">{}</text>"#,
                    x0 + (f as f64 + 0.5) * cell,
                    margin * 0.7,
                    files - f
                );
            }
            for r in 0..ranks {
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{:.1}" font-size="11" fill="{GREY}">{}</text>"#,
                    x0 + slice_w + 4.0,
                    margin + (ranks - 1 - r) as f64 * cell + cell * 0.6,
                    rank_name(ranks - 1 - r)
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// Level letters as Henka writes 3D cells: the last level is `z`.
fn level_letter(l: i32, levels: i32) -> char {
    (b'z' - (levels - 1 - l) as u8) as char
}

/// Ranks past `z` continue `aa`, `ab`, … (counted from the top).
fn rank_name(from_top: i32) -> String {
    if from_top < 26 {
        ((b'a' + from_top as u8) as char).to_string()
    } else {
        format!("a{}", (b'a' + (from_top - 26) as u8) as char)
    }
}

fn mark_svg(out: &mut String, target: Target, cx: f64, cy: f64, cell: f64) {
    let r = cell * 0.22;
    let (fill, stroke) = match target {
        Target::MovesOrCaptures => (MOVE, MOVE),
        Target::MovesOnly => ("none", MOVE),
        Target::CapturesOnly => ("none", CAPTURE),
        Target::Jump => ("none", MOVE),
    };
    let _ = write!(
        out,
        r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="{:.1}"/>"#,
        cell * 0.07
    );
    if target == Target::Jump {
        let _ = write!(out, r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{MOVE}"/>"#, r * 0.45);
    }
}

/// A piece's move diagram: a flat grid for Betza moves, level slices for 3D direction moves.
fn diagram_svg(info: &PieceInfo) -> Option<String> {
    let cell = 18.0;
    if let Ok(cells) = diagram::diagram(&info.betza) {
        let side = SIZE as f64 * cell;
        let half = SIZE / 2;
        let mut out = format!(
            r#"<svg class="diagram" viewBox="0 0 {side} {side}" width="{side}" height="{side}" role="img" aria-label="moves of {}">"#,
            escape(&info.name)
        );
        grid(&mut out, 0.0, SIZE, cell);
        for ((x, y), t) in cells {
            let (cx, cy) = ((x + half) as f64 * cell + cell / 2.0, (half - y) as f64 * cell + cell / 2.0);
            mark_svg(&mut out, t, cx, cy, cell);
        }
        piece_svg(&mut out, info, Side::First, half as f64 * cell + cell / 2.0, half as f64 * cell + cell / 2.0, cell);
        out.push_str("</svg>");
        return Some(out);
    }
    let cells = diagram::diagram_3d(&info.betza)?;
    let n = 2 * HALF_3D + 1;
    let side = n as f64 * cell;
    let gap = 14.0;
    let width = n as f64 * (side + gap);
    let mut out = format!(
        r#"<svg class="diagram" viewBox="0 0 {width} {}" width="{width}" height="{}" role="img" aria-label="moves of {} through levels">"#,
        side + 16.0,
        side + 16.0,
        escape(&info.name)
    );
    for (k, dl) in (-HALF_3D..=HALF_3D).enumerate() {
        let x0 = k as f64 * (side + gap);
        grid(&mut out, x0, n, cell);
        let label = match dl {
            0 => "same level".to_string(),
            d if d < 0 => format!("{} up", -d),
            d => format!("{d} down"),
        };
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="10" text-anchor="middle">{label}</text>"#,
            x0 + side / 2.0,
            side + 12.0
        );
        for &((x, y, _), t) in cells.iter().filter(|c| c.0.2 == dl) {
            let (cx, cy) = (x0 + (x + HALF_3D) as f64 * cell + cell / 2.0, (HALF_3D - y) as f64 * cell + cell / 2.0);
            mark_svg(&mut out, t, cx, cy, cell);
        }
        if dl == 0 {
            let c = HALF_3D as f64 * cell + cell / 2.0;
            piece_svg(&mut out, info, Side::First, x0 + c, c, cell);
        }
    }
    out.push_str("</svg>");
    Some(out)
}

fn grid(out: &mut String, x0: f64, n: i32, cell: f64) {
    let side = n as f64 * cell;
    let _ = write!(out, r#"<rect x="{x0}" y="0" width="{side}" height="{side}" fill="{WOOD}"/>"#);
    for i in 0..=n {
        let p = i as f64 * cell;
        let _ = write!(
            out,
            r#"<line x1="{:.1}" y1="{p:.1}" x2="{:.1}" y2="{p:.1}" stroke="{LINE}" stroke-width="0.6"/><line x1="{:.1}" y1="0" x2="{:.1}" y2="{side:.1}" stroke="{LINE}" stroke-width="0.6"/>"#,
            x0,
            x0 + side,
            x0 + p,
            x0 + p
        );
    }
}

fn hands_html(v: &dyn Variant, pos: &Position) -> String {
    let info = v.info();
    let mut out = String::new();
    for side in Side::BOTH {
        let held: Vec<String> = (0..info.pieces.len())
            .filter(|&t| pos.hand(side, t as u8) > 0)
            .map(|t| format!("{} × {}", pos.hand(side, t as u8), escape(&info.pieces[t].name)))
            .collect();
        if !held.is_empty() {
            let _ = write!(out, "<p>{} holds: {}.</p>", side.name(), held.join(", "));
        }
    }
    out
}

/// A field variant's cubes: each cube's faces, and the face a move flips each one to.
fn cubes_html(field: &henka_api::model::field::FieldInfo, pieces: &[PieceInfo]) -> String {
    let mut out = String::from("<p>The pieces are cubes; a cube shows one face, the piece it moves as:</p><ul>\n");
    for cube in &field.cubes {
        let faces: Vec<String> = cube
            .faces
            .iter()
            .map(|&f| {
                let name = escape(&pieces[f as usize].name);
                match field.opposite(f) {
                    Some(o) => format!("{name} (turns to {} after a move)", escape(&pieces[o as usize].name)),
                    None => name,
                }
            })
            .collect();
        let _ = writeln!(out, "<li><b>{}</b>: {}</li>", escape(&cube.name), faces.join(", "));
    }
    out.push_str("</ul>\n");
    out
}

/// The whole page.
pub fn sheet(input: &SheetInput) -> String {
    let v = input.variant;
    let info = v.info();
    let meta = &info.meta;
    let start = v.start_position();
    let font = base64::engine::general_purpose::STANDARD.encode(KANJI_FONT);
    let script = base64::engine::general_purpose::STANDARD.encode(input.script.as_bytes());
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{name} — rules</title>
<style>
@font-face {{ font-family: "Henka Kanji"; src: url(data:font/otf;base64,{font}) format("opentype"); }}
body {{ font-family: system-ui, "Segoe UI", "DejaVu Sans", "Henka Kanji", sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #222; background: #fbf8f1; line-height: 1.45; }}
h1 {{ margin-bottom: 0.2rem; }} .meta {{ color: #666; margin-top: 0; }}
.kanji {{ font-family: "Henka Kanji", serif; }} .token {{ font-family: "DejaVu Sans Mono", monospace; font-weight: bold; }}
.pieces {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(19rem, 1fr)); gap: 1rem; }}
.piece {{ background: #fff; border: 1px solid #e0d6c0; border-radius: 8px; padding: 0.8rem; }}
.piece h3 {{ margin: 0 0 0.4rem; }} .piece code {{ background: #f3eee2; padding: 0 0.25rem; border-radius: 3px; }}
svg.board, svg.diagram {{ max-width: 100%; height: auto; }} code {{ overflow-wrap: anywhere; }}
.legend span {{ margin-right: 1.2rem; }} table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ddd; padding: 0.3rem 0.6rem; text-align: left; }}
pre, code {{ font-family: "DejaVu Sans Mono", monospace, "Henka Kanji"; }}
pre {{ background: #fff; border: 1px solid #e0d6c0; padding: 0.8rem; overflow-x: auto; }}
.download {{ display: inline-block; background: #3a6ea5; color: #fff; padding: 0.4rem 0.9rem; border-radius: 6px; text-decoration: none; }}
</style></head><body>
<h1>{name}</h1>
<p class="meta">{byline}</p>
<p>{description}</p>
"#,
        name = escape(&meta.name),
        byline = escape(&byline(meta)),
        description = escape(&meta.description),
    );
    out.push_str("<h2>Start position</h2>\n");
    if info.field.is_some() {
        out.push_str("<p>There is no board: pieces stand on an open field, and the game starts with it empty.</p>\n");
    } else {
        out.push_str(&board_svg(v, &start));
        let g = v.geometry();
        if g.levels() > 1 {
            let _ = write!(
                out,
                "<p>{} levels of {} × {} cells, drawn side by side from the top level (<code>{}</code>) to the bottom (<code>z</code>).</p>",
                g.levels(),
                g.files(),
                g.ranks(),
                level_letter(0, g.levels() as i32)
            );
        }
    }
    out.push_str(&hands_html(v, &start));
    if let Some(field) = &info.field {
        out.push_str(&cubes_html(field, &info.pieces));
    }
    let _ = writeln!(
        out,
        "<p>{} moves first. Start position string: <code>{}</code></p>",
        start.side_to_move().name(),
        escape(&v.format_position(&start))
    );
    let _ = write!(
        out,
        r#"<h2>Pieces</h2>
<p class="legend"><span><svg width="14" height="14"><circle cx="7" cy="7" r="5" fill="{MOVE}"/></svg> moves or captures</span><span><svg width="14" height="14"><circle cx="7" cy="7" r="5" fill="none" stroke="{MOVE}" stroke-width="1.5"/></svg> moves only</span><span><svg width="14" height="14"><circle cx="7" cy="7" r="5" fill="none" stroke="{CAPTURE}" stroke-width="1.5"/></svg> captures only</span><span><svg width="14" height="14"><circle cx="7" cy="7" r="5" fill="none" stroke="{MOVE}" stroke-width="1.5"/><circle cx="7" cy="7" r="2.2" fill="{MOVE}"/></svg> jumps there</span> Diagrams show the owner's forward as up.</p>
<div class="pieces">
"#
    );
    for p in &info.pieces {
        out.push_str(&piece_card(p, &info.pieces));
    }
    out.push_str("</div>\n");
    if !input.options.is_empty() {
        out.push_str("<h2>Rule options</h2>\n<table><tr><th>option</th><th>choices</th><th>default</th></tr>\n");
        for o in input.options {
            let choices = if o.choices.is_empty() {
                "any value".to_string()
            } else {
                let each = o.choices.iter().zip(&o.choice_about).map(|(c, about)| match about {
                    Some(a) => format!("<code>{}</code>: {}", escape(c), escape(a)),
                    None => format!("<code>{}</code>", escape(c)),
                });
                each.collect::<Vec<_>>().join("<br>")
            };
            let about = o.about.as_deref().map(|a| format!("<br><small>{}</small>", escape(a))).unwrap_or_default();
            let _ = writeln!(
                out,
                "<tr><td><code>{}</code>{about}</td><td>{choices}</td><td><code>{}</code></td></tr>",
                escape(&o.name),
                escape(&o.default)
            );
        }
        out.push_str("</table>\n");
    }
    let _ = write!(
        out,
        r#"<h2>The script</h2>
<p>Open it in Henka (<code>henka edit {file}</code>) to play, change and playtest these rules.</p>
<p><a class="download" download="{file}" href="data:text/plain;charset=utf-8;base64,{script}">Download {file}</a></p>
<details><summary>Show the script</summary><pre>{text}</pre></details>
<p class="meta">Made with Henka (変化), a workshop for shogi variants.</p>
</body></html>
"#,
        file = escape(input.file_name),
        text = escape(input.script),
    );
    out
}

fn byline(meta: &henka_api::Metadata) -> String {
    let mut parts = Vec::new();
    if !meta.author.is_empty() {
        parts.push(format!("by {}", meta.author));
    }
    if !meta.version.is_empty() {
        parts.push(format!("version {}", meta.version));
    }
    parts.join(" · ")
}

fn piece_card(p: &PieceInfo, all: &[PieceInfo]) -> String {
    let mut out = String::from(r#"<section class="piece">"#);
    let kanji = p.kanji.as_deref().map(|k| format!(r#" <span class="kanji">{}</span>"#, escape(k))).unwrap_or_default();
    let _ = write!(out, "<h3>{}{kanji} <code>{}</code></h3>", escape(&p.name), escape(&p.written()));
    if let Some(svg) = diagram_svg(p) {
        out.push_str(&svg);
    }
    let _ = write!(out, "<p>{}.</p>", escape(&capitalise(&describe(&p.betza))));
    let _ = write!(out, "<p>Moves: <code>{}</code></p>", escape(&p.betza));
    if p.computed {
        out.push_str("<p>The rules' code computes more of its moves (a movement callback in the script below).</p>");
    }
    if p.royal {
        out.push_str("<p>Royal: losing the last royal piece loses the game.</p>");
    }
    if let Some(to) = p.promotes_to {
        let _ = write!(out, "<p>Promotes to {}.</p>", escape(&all[to as usize].name));
    }
    if p.promoted {
        let _ = write!(out, "<p>The promoted form of {}.</p>", escape(&all[p.demotes_to as usize].name));
    }
    out.push_str("</section>\n");
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
