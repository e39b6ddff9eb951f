//! Self-capture for the smoke test and the README: after a few frames (fonts and layout settled),
//! ask the renderer for the window's pixels, write them as PNG, and close.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use eframe::egui::{self, ColorImage};

/// Frames to draw before capturing: the first frames lay out panels and load fonts.
const SETTLE_FRAMES: u32 = 6;

/// A pending capture.
#[derive(Debug)]
pub struct Capture {
    path: PathBuf,
    frames: u32,
    requested: bool,
    result: Arc<Mutex<Option<Result<(), String>>>>,
}

impl Capture {
    pub fn new(path: PathBuf) -> Capture {
        Capture { path, frames: 0, requested: false, result: Arc::new(Mutex::new(None)) }
    }

    /// Called once per frame.
    pub fn frame(&mut self, ctx: &egui::Context) {
        self.frames += 1;
        ctx.request_repaint();
        if self.frames >= SETTLE_FRAMES && !self.requested {
            self.requested = true;
            let (path, result) = (self.path.clone(), self.result.clone());
            ctx.request_screenshot(move |image: Arc<ColorImage>| {
                *result.lock().expect("screenshot lock") = Some(write_png(&path, &image));
            });
        }
        if let Some(r) = self.result.lock().expect("screenshot lock").take() {
            match r {
                Ok(()) => eprintln!("screenshot written to {}", self.path.display()),
                Err(e) => eprintln!("screenshot failed: {e}"),
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

fn write_png(path: &PathBuf, image: &ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let buffer = image::RgbaImage::from_raw(w as u32, h as u32, bytes).ok_or("image size mismatch")?;
    buffer.save(path).map_err(|e| format!("{}: {e}", path.display()))
}
