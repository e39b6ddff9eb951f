//! The perft panel: counts move sequences from the shown position on a background thread, with a
//! progress bar, a per-move divide, and a Cancel that takes effect within one grandchild's count.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use eframe::egui;
use henka_api::{Move, Position, RuleError, Variant};

/// What the worker has done so far.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub roots_done: usize,
    pub roots_total: usize,
    pub nodes: u64,
    /// Each first move with its count, in the order done.
    pub divide: Vec<(String, u64)>,
    pub finished: bool,
    pub cancelled: bool,
    pub error: Option<String>,
    pub elapsed: Duration,
}

/// A perft run on its own thread.
#[derive(Debug)]
pub struct PerftJob {
    pub depth: u32,
    cancel: Arc<AtomicBool>,
    progress: Arc<Mutex<Progress>>,
}

impl PerftJob {
    /// Starts counting `depth` plies from `pos`; `wake` is called as progress is made.
    pub fn start(v: Arc<dyn Variant>, pos: Position, depth: u32, wake: impl Fn() + Send + 'static) -> PerftJob {
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(Progress::default()));
        let (c, p) = (cancel.clone(), progress.clone());
        std::thread::Builder::new()
            .name("henka-perft".into())
            .spawn(move || {
                let t = Instant::now();
                let result = run(v.as_ref(), &pos, depth, &c, &p, &wake);
                let mut pr = p.lock().expect("perft progress lock");
                pr.elapsed = t.elapsed();
                pr.finished = true;
                pr.cancelled = c.load(Ordering::Relaxed);
                if let Err(e) = result {
                    pr.error = Some(e.to_string());
                }
                drop(pr);
                wake();
            })
            .expect("spawning the perft thread");
        PerftJob { depth, cancel, progress }
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn progress(&self) -> Progress {
        self.progress.lock().expect("perft progress lock").clone()
    }
}

fn run(
    v: &dyn Variant,
    pos: &Position,
    depth: u32,
    cancel: &AtomicBool,
    progress: &Mutex<Progress>,
    wake: &dyn Fn(),
) -> Result<(), RuleError> {
    let mut roots = Vec::new();
    if depth > 0 {
        v.legal_moves(pos, &mut roots)?;
    }
    progress.lock().expect("perft progress lock").roots_total = roots.len();
    let mut children: Vec<Move> = Vec::new();
    for &root in &roots {
        let mut after = pos.clone();
        v.play(&mut after, root)?;
        let mut count = 0;
        if depth == 1 {
            count = 1;
        } else {
            // One level further down, so Cancel is felt after one grandchild's count.
            v.legal_moves(&after, &mut children)?;
            for &child in &children {
                if cancel.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let mut next = after.clone();
                v.play(&mut next, child)?;
                count += v.perft(&next, depth - 2)?;
            }
        }
        let mut p = progress.lock().expect("perft progress lock");
        p.roots_done += 1;
        p.nodes += count;
        p.divide.push((v.format_move(pos, root), count));
        drop(p);
        wake();
    }
    Ok(())
}

/// The panel: depth, Run/Cancel, progress and the divide table.
#[derive(Debug)]
pub struct PerftPanel {
    pub depth: u32,
    pub job: Option<PerftJob>,
}

impl Default for PerftPanel {
    fn default() -> Self {
        PerftPanel { depth: 3, job: None }
    }
}

impl PerftPanel {
    pub fn show(&mut self, ui: &mut egui::Ui, v: &Arc<dyn Variant>, pos: &Position) {
        let progress = self.job.as_ref().map(PerftJob::progress);
        let running = progress.as_ref().is_some_and(|p| !p.finished);
        ui.horizontal(|ui| {
            ui.label("Depth");
            ui.add_enabled(!running, egui::DragValue::new(&mut self.depth).range(1..=12));
            if running {
                if ui.button("Cancel").clicked()
                    && let Some(j) = &self.job
                {
                    j.cancel();
                }
            } else if ui.button("Run perft").clicked() {
                let ctx = ui.ctx().clone();
                self.job = Some(PerftJob::start(v.clone(), pos.clone(), self.depth, move || ctx.request_repaint()));
            }
        });
        let Some(p) = progress else {
            ui.label("Counts the legal move sequences from the position on the board (the last ply is bulk-counted).");
            return;
        };
        let fraction = if p.roots_total == 0 { 1.0 } else { p.roots_done as f32 / p.roots_total as f32 };
        let secs = if p.finished { p.elapsed.as_secs_f64() } else { 0.0 };
        ui.add(egui::ProgressBar::new(fraction).text(format!("{} / {} first moves", p.roots_done, p.roots_total)));
        let state = match (&p.error, p.cancelled, p.finished) {
            (Some(e), _, _) => format!("error: {e}"),
            (None, true, _) => format!("cancelled at {} nodes", p.nodes),
            (None, false, true) => {
                let nps = if secs > 0.0 { p.nodes as f64 / secs } else { 0.0 };
                format!(
                    "depth {}: {} nodes in {:.2} s ({:.1} M nodes/s)",
                    self.job.as_ref().map_or(0, |j| j.depth),
                    p.nodes,
                    secs,
                    nps / 1e6
                )
            }
            _ => format!("{} nodes so far…", p.nodes),
        };
        ui.label(state);
        ui.separator();
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            egui::Grid::new("divide").striped(true).num_columns(2).show(ui, |ui| {
                for (m, n) in &p.divide {
                    ui.monospace(m);
                    ui.monospace(n.to_string());
                    ui.end_row();
                }
            });
        });
    }

    /// Stops a running count (when the variant or position changes under it).
    pub fn cancel(&mut self) {
        if let Some(j) = &self.job {
            j.cancel();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::load_source;

    fn wait(job: &PerftJob) -> Progress {
        let t = Instant::now();
        loop {
            let p = job.progress();
            if p.finished || t.elapsed() > Duration::from_secs(60) {
                return p;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn counts_with_divide_in_the_background_and_cancels() {
        let v: Arc<dyn Variant> = load_source("shogi", include_str!("../../../scripts/shogi.rhai")).unwrap().variant;
        let start = v.start_position();
        let job = PerftJob::start(v.clone(), start.clone(), 3, || {});
        let p = wait(&job);
        assert_eq!(p.nodes, 25_470);
        assert_eq!(p.divide.len(), 30);
        assert_eq!(p.divide.iter().map(|d| d.1).sum::<u64>(), 25_470);

        let job = PerftJob::start(v, start, 7, || {});
        job.cancel();
        let p = wait(&job);
        assert!(p.finished && p.cancelled && p.roots_done < 30);
    }
}
