//! Editor benchmarks for `henka bench`: the reload latency (a file written by an external editor →
//! the new rules live with the game replayed) and the CPU time of one frame on a 25×25 board full
//! of pieces and on Ki Shogi's open field (layout, painting and tessellation; no GPU).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use eframe::egui;
use henka_api::Move;

use super::app::{EditorApp, Persisted};
use super::controller::StartOptions;
use super::reload::Reloader;
use super::session::{Document, Session};
use super::tabs::Tab;
use crate::catalog;

/// Median and maximum of some timings.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub median: Duration,
    pub max: Duration,
    pub samples: usize,
}

impl Timing {
    fn of(mut samples: Vec<Duration>) -> Timing {
        samples.sort();
        Timing {
            median: samples[samples.len() / 2],
            max: *samples.last().unwrap_or(&Duration::ZERO),
            samples: samples.len(),
        }
    }
}

fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("henka-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Saves a variant's script `rounds` times (a different version line each time) as an external
/// editor would, and times each save until the new rules are live and a `plies`-move game has been
/// replayed under them.
pub fn reload_latency(variant: &str, rounds: usize, plies: usize) -> anyhow::Result<Timing> {
    let entry =
        catalog::find(variant, &catalog::search_dirs()).ok_or_else(|| anyhow::anyhow!("no variant {variant}"))?;
    let text = match &entry.source {
        catalog::Source::Bundled(t) => t.to_string(),
        catalog::Source::File(p) => std::fs::read_to_string(p)?,
    };
    let dir = scratch_dir("reload");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("{variant}.rhai"));
    std::fs::write(&path, &text)?;
    let loaded = crate::script::load_file(&path).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut session = Session::new(Document::new(variant, Some(path.clone()), text.clone()), loaded);
    play_random(&mut session, plies);

    let mut reloader = Reloader::new(Arc::new(|| {}));
    reloader.note_file_text(&path, &text);
    reloader.watch(&path).map_err(|e| anyhow::anyhow!(e))?;
    std::thread::sleep(Duration::from_millis(100));
    let mut samples = Vec::new();
    for round in 0..rounds {
        // A comment line that changes each round: new text, same rules, so the game replays whole.
        let changed = format!("{text}\n// bench round {round}\n");
        let written = Instant::now();
        std::fs::write(&path, &changed)?;
        let compiled = reloader
            .recv_timeout(Duration::from_secs(10))
            .ok_or_else(|| anyhow::anyhow!("the watcher did not report the save"))?;
        let report = session.apply_compiled(&compiled.text, compiled.result);
        samples.push(written.elapsed());
        anyhow::ensure!(report.is_some_and(|r| r.cut_at.is_none()), "the game did not survive the reload");
        std::thread::sleep(Duration::from_millis(30));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(Timing::of(samples))
}

/// Plays up to `plies` pseudo-random legal moves (fixed seed) so reloads have a game to replay.
fn play_random(session: &mut Session, plies: usize) {
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..plies {
        let moves: Vec<Move> = session.legal_moves().unwrap_or_default();
        if moves.is_empty() {
            break;
        }
        let _ = session.play(moves[rng.usize(..moves.len())]);
    }
}

/// A 25×25 variant whose start position fills every rank but the middle one: 600 pieces with
/// two-kanji faces, the densest board the editor is asked to draw (Taishin's size).
pub fn big_board_script() -> String {
    let pieces = [
        ("King", "玉将", "K", "K"),
        ("Gold", "金将", "G", "WfF"),
        ("Silver", "銀将", "S", "FfW"),
        ("Copper", "銅将", "C", "fFvW"),
        ("Iron", "鉄将", "I", "fFfW"),
        ("Stone", "石将", "T", "fF"),
        ("Rook", "飛車", "R", "R"),
        ("Bishop", "角行", "B", "B"),
        ("Lance", "香車", "L", "fR"),
        ("Pawn", "歩兵", "P", "fW"),
    ];
    let mut s = String::from("let v = variant(#{ name: \"Frame bench 25×25\", board: [25, 25] });\n");
    for (name, kanji, token, moves) in pieces {
        let royal = if token == "K" { ", royal: true" } else { "" };
        s += &format!(
            "v.piece(#{{ name: \"{name}\", kanji: \"{kanji}\", token: \"{token}\", moves: \"{moves}\"{royal} }});\n"
        );
    }
    let row = |side_upper: bool, r: usize| -> String {
        let letters = ["G", "S", "C", "I", "T", "R", "B", "L", "P"];
        (0..25)
            .map(|f| {
                let t = if r == 0 && f == 12 { "K" } else { letters[(f + r) % letters.len()] };
                if side_upper { t.to_string() } else { t.to_lowercase() }
            })
            .collect()
    };
    let ranks: Vec<String> = (0..25)
        .map(|i| match i {
            0..12 => row(false, i),
            12 => "25".to_string(),
            _ => row(true, 24 - i),
        })
        .collect();
    s += &format!("v.setup(\"{} b - 1\");\nv\n", ranks.join("/"));
    s
}

/// Times `frames` editor frames on the 25×25 board (after a warm-up), at 1440×900 points, with
/// `tab` open on the right (the Pieces tab draws the inspector and the piece lab).
pub fn frame_time(frames: usize, tab: Tab) -> anyhow::Result<Timing> {
    let dir = scratch_dir("frame");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("big.rhai");
    std::fs::write(&path, big_board_script())?;
    let options = StartOptions { open: Some(path.display().to_string()), ..Default::default() };
    let app = EditorApp::new(options, Persisted { tab, ..Persisted::default() });
    anyhow::ensure!(app.session().variant().info().geometry.files == 25, "the 25×25 script did not load");
    let pieces = app.session().game().position().cells().iter().flatten().count();
    anyhow::ensure!(pieces == 600, "expected 600 pieces, found {pieces}");
    let timing = time_frames(app, frames);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(timing)
}

/// A Ki Shogi middle game: all six cubes on the field, White's Kaku under grace.
const KI_SHOGI_MIDGAME: &str = "w bGyoku@7,7;bHi@8,6;bZou@6,6;wGyoku@9,8;wCho@10,9;wKaku@11,9 b:-,w:- 11,9 14";

/// Times `frames` editor frames of Ki Shogi's open field in a middle game: the cluster's frame,
/// support marks, opposite-face chips and the legend, at 1440×900 points.
pub fn field_frame_time(frames: usize) -> anyhow::Result<Timing> {
    let options =
        StartOptions { open: Some("ki-shogi".into()), position: Some(KI_SHOGI_MIDGAME.into()), ..Default::default() };
    let app = EditorApp::new(options, Persisted::default());
    let pieces = app.session().game().position().cells().iter().flatten().count();
    anyhow::ensure!(pieces == 6, "the Ki Shogi middle game did not load ({pieces} pieces)");
    Ok(time_frames(app, frames))
}

/// The CPU time of `frames` frames of `app` (after a warm-up): layout, painting, tessellation.
fn time_frames(mut app: EditorApp, frames: usize) -> Timing {
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1440.0, 900.0))),
        ..Default::default()
    };
    let frame = |app: &mut EditorApp| {
        let mut out = ctx.run_ui(input(), |ui| app.show(ui));
        // No GPU takes the font atlas's uploads (a debug build asserts they were handled).
        out.textures_delta.clear();
        ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point).len()
    };
    for _ in 0..10 {
        frame(&mut app);
    }
    let mut samples = Vec::with_capacity(frames);
    for _ in 0..frames {
        let t = Instant::now();
        std::hint::black_box(frame(&mut app));
        samples.push(t.elapsed());
    }
    Timing::of(samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use henka_api::Variant;

    #[test]
    fn the_big_board_script_loads_with_600_pieces() {
        let v = crate::script::load_source("big.rhai", &big_board_script()).unwrap().variant;
        let start = v.start_position();
        assert_eq!(start.cells().iter().flatten().count(), 600);
        let mut moves = Vec::new();
        v.legal_moves(&start, &mut moves).unwrap();
        assert!(!moves.is_empty());
    }
}
