//! Self-capture for the smoke test and the README: after a few frames (fonts and layout settled),
//! ask the renderer for the window's pixels, check they are not blank, write them as PNG, and
//! close. The outcome is kept so `henka edit --screenshot` can exit with an error.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use eframe::egui::{self, ColorImage};

/// Frames to draw before capturing: the first frames lay out panels and load fonts.
const SETTLE_FRAMES: u32 = 6;

/// A real editor screen has board, pieces, text and panels: far more colours than this.
const MIN_COLOURS: usize = 32;

/// What became of a capture.
pub type Outcome = Arc<Mutex<Option<Result<(), String>>>>;

/// A pending capture.
#[derive(Debug)]
pub struct Capture {
    path: PathBuf,
    frames: u32,
    requested: bool,
    written: Outcome,
    closing: bool,
}

impl Capture {
    pub fn new(path: PathBuf) -> Capture {
        Capture { path, frames: 0, requested: false, written: Arc::new(Mutex::new(None)), closing: false }
    }

    /// Where the outcome will be, once the window has closed.
    pub fn outcome(&self) -> Outcome {
        self.written.clone()
    }

    /// Called once per frame.
    pub fn frame(&mut self, ctx: &egui::Context) {
        self.frames += 1;
        ctx.request_repaint();
        if self.frames >= SETTLE_FRAMES && !self.requested {
            self.requested = true;
            let (path, written) = (self.path.clone(), self.written.clone());
            ctx.request_screenshot(move |image: Arc<ColorImage>| {
                *written.lock().expect("screenshot lock") = Some(check_and_write(&path, &image));
            });
        }
        if !self.closing && self.written.lock().expect("screenshot lock").is_some() {
            self.closing = true;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

fn check_and_write(path: &Path, image: &ColorImage) -> Result<(), String> {
    let mut colours: Vec<[u8; 4]> = image.pixels.iter().step_by(7).map(|c| c.to_array()).collect();
    colours.sort_unstable();
    colours.dedup();
    if colours.len() < MIN_COLOURS {
        return Err(format!("the window looks blank: only {} colours", colours.len()));
    }
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let buffer = image::RgbaImage::from_raw(w as u32, h as u32, bytes).ok_or("image size mismatch")?;
    buffer.save(path).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("screenshot: {} ({w}×{h}, {} colours)", path.display(), colours.len());
    Ok(())
}
