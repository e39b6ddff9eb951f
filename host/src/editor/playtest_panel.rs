//! The Playtest tab: self-play statistics of the rules on the board, run in the background, drawn
//! as plots (the first player's score with its interval, the game-length histogram, piece values),
//! and after a rule edit a "compare with before" that plays both rule sets game for game and
//! shows them side by side. The numbers are the playtest lab's ([`crate::playtest`]), the same as
//! `henka playtest` prints.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::Duration;

use eframe::egui::{self, Color32, RichText};
use egui_plot::{Bar, BarChart, BoxElem, BoxPlot, BoxSpread, HLine, Legend, Line, Plot, PlotPoints};

use crate::playtest::{self, Difference, MoveLimit, Report, Run, SelfPlay, Shard, Subject};

/// The colours of run A (or the only run) and run B in plots.
const COLOUR_A: Color32 = Color32::from_rgb(90, 150, 220);
const COLOUR_B: Color32 = Color32::from_rgb(230, 150, 60);
/// How many piece types the value plot shows (the most supported first).
const PLOTTED_PIECES: usize = 12;

/// A finished run, with the rules it played (kept so a later edit can be compared with it).
#[derive(Clone, Debug)]
pub struct Finished {
    pub subject: Subject,
    pub run: Run,
    pub report: Report,
}

impl Finished {
    fn of(subject: Subject, run: Run) -> Finished {
        let report = run.report();
        Finished { subject, run, report }
    }
}

/// What the panel shows: one run, or a comparison of the rules before and after an edit.
#[derive(Clone, Debug)]
pub enum Outcome {
    Single(Box<Finished>),
    Compared { before: Box<Finished>, after: Box<Finished> },
}

/// A playtest running on its own thread.
#[derive(Debug)]
struct Job {
    cancel: Arc<AtomicBool>,
    done: Arc<AtomicUsize>,
    total: usize,
    result: Receiver<Result<Outcome, String>>,
}

/// The Playtest tab.
#[derive(Debug)]
pub struct PlaytestPanel {
    pub games: u32,
    pub seconds_per_move: f64,
    /// Nodes per move instead of a time (reproducible games).
    pub nodes: Option<u64>,
    pub threads: usize,
    /// The runs' seed; `None` draws a new one for each run.
    pub seed: Option<u64>,
    job: Option<Job>,
    pub outcome: Option<Outcome>,
    pub error: Option<String>,
}

impl Default for PlaytestPanel {
    fn default() -> Self {
        PlaytestPanel {
            games: 40,
            seconds_per_move: 0.05,
            nodes: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: None,
            job: None,
            outcome: None,
            error: None,
        }
    }
}

impl PlaytestPanel {
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Stops a running playtest (when the variant changes under it).
    pub fn cancel(&mut self) {
        if let Some(j) = &self.job {
            j.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Forgets every result (another variant was opened).
    pub fn clear(&mut self) {
        self.cancel();
        self.job = None;
        self.outcome = None;
        self.error = None;
    }

    fn plan(&self, cancel: Arc<AtomicBool>) -> SelfPlay {
        SelfPlay {
            games: self.games.max(1),
            threads: self.threads.max(1),
            limit: match self.nodes {
                Some(n) => MoveLimit::Nodes(n),
                None => MoveLimit::Time(Duration::from_secs_f64(self.seconds_per_move.max(0.001))),
            },
            opening_plies: 4,
            max_plies: 300,
            seed: self.seed.unwrap_or_else(|| fastrand::u64(..)),
            shard: Shard::WHOLE,
            cancel,
        }
    }

    /// Starts a run of `current`, or with `before` a comparison of the two.
    fn start(&mut self, ctx: &egui::Context, current: Subject, before: Option<Subject>) {
        let cancel = Arc::new(AtomicBool::new(false));
        let plan = self.plan(cancel.clone());
        let done = Arc::new(AtomicUsize::new(0));
        let total = plan.games as usize * if before.is_some() { 2 } else { 1 };
        let (tx, rx) = std::sync::mpsc::channel();
        let (ctx, counter) = (ctx.clone(), done.clone());
        std::thread::Builder::new()
            .name("henka-playtest".into())
            .spawn(move || {
                let on_game = |_: &Subject, _: &playtest::Played| {
                    counter.fetch_add(1, Ordering::Relaxed);
                    ctx.request_repaint();
                };
                let outcome = match before {
                    None => playtest::run(&current, &plan, on_game)
                        .map(|run| Outcome::Single(Box::new(Finished::of(current, run)))),
                    Some(before) => {
                        playtest::compare(&before, &current, &plan, None, on_game).map(|c| Outcome::Compared {
                            before: Box::new(Finished::of(before, c.a)),
                            after: Box::new(Finished::of(current, c.b)),
                        })
                    }
                };
                let _ = tx.send(outcome.map_err(|e| format!("{e:#}")));
                ctx.request_repaint();
            })
            .expect("spawning the playtest thread");
        self.error = None;
        self.job = Some(Job { cancel, done, total, result: rx });
    }

    fn poll(&mut self) {
        let Some(job) = &self.job else { return };
        match job.result.try_recv() {
            Ok(Ok(outcome)) => {
                self.outcome = Some(outcome);
                self.job = None;
            }
            Ok(Err(e)) => {
                self.error = Some(e);
                self.job = None;
            }
            Err(TryRecvError::Disconnected) => {
                self.error = Some("the playtest thread ended without a result".into());
                self.job = None;
            }
            Err(TryRecvError::Empty) => {}
        }
    }

    /// The rules the last result played (the "after" side of a comparison).
    fn latest(&self) -> Option<&Finished> {
        match self.outcome.as_ref()? {
            Outcome::Single(f) => Some(f),
            Outcome::Compared { after, .. } => Some(after),
        }
    }

    /// Draws the tab. `script_hash` is the current rules' hash (to offer "compare with before"
    /// once it differs from the last run's); `current` builds the subject to play when asked.
    pub fn show(&mut self, ui: &mut egui::Ui, script_hash: Option<u64>, current: &dyn Fn() -> Subject) {
        self.poll();
        ui.horizontal_wrapped(|ui| {
            let idle = self.job.is_none();
            ui.add_enabled_ui(idle, |ui| {
                let label = ui.label("Games");
                ui.add(egui::DragValue::new(&mut self.games).range(2..=100_000)).labelled_by(label.id);
                match self.nodes {
                    Some(n) => {
                        ui.label(format!("{n} nodes per move"));
                    }
                    None => {
                        let label = ui.label("s per move");
                        ui.add(egui::DragValue::new(&mut self.seconds_per_move).range(0.005..=10.0).speed(0.01))
                            .labelled_by(label.id);
                    }
                }
                let label = ui.label("Threads");
                ui.add(egui::DragValue::new(&mut self.threads).range(1..=256)).labelled_by(label.id);
            });
            if let Some(job) = &self.job {
                if ui.button("Cancel").clicked() {
                    job.cancel.store(true, Ordering::Relaxed);
                }
            } else {
                if ui
                    .button("Run playtest")
                    .on_hover_text("The AI plays the rules on the board against itself")
                    .clicked()
                {
                    self.start(ui.ctx(), current(), None);
                }
                let before = self.latest().filter(|f| f.subject.script_hash != script_hash).map(|f| f.subject.clone());
                if let Some(before) = before
                    && ui
                        .button("Compare with before")
                        .on_hover_text("Play the rules as they were at the last run and as they are now, game for game")
                        .clicked()
                {
                    self.start(ui.ctx(), current(), Some(before));
                }
            }
        });
        if let Some(job) = &self.job {
            let done = job.done.load(Ordering::Relaxed);
            let fraction = done as f32 / job.total.max(1) as f32;
            ui.add(egui::ProgressBar::new(fraction).text(format!("{done} / {} games", job.total)));
        }
        if let Some(e) = &self.error {
            ui.label(RichText::new(format!("Playtest failed: {e}")).color(ui.visuals().error_fg_color));
        }
        match &self.outcome {
            None => {
                ui.label(
                    "Self-play statistics of the rules on the board: is the game fair, does it end, how long, \
                     what is each piece worth. After a rule edit, compare the rules before and after.",
                );
            }
            Some(outcome) => {
                egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| show_outcome(ui, outcome));
            }
        }
    }
}

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn show_outcome(ui: &mut egui::Ui, outcome: &Outcome) {
    let reports: Vec<(&Report, Color32)> = match outcome {
        Outcome::Single(f) => vec![(&f.report, COLOUR_A)],
        Outcome::Compared { before, after } => vec![(&before.report, COLOUR_A), (&after.report, COLOUR_B)],
    };
    if let Outcome::Compared { before, after } = outcome {
        let d = Difference::between(&before.report.first, &after.report.first);
        let verdict = if d.significant { "significant" } else { "not significant" };
        ui.label(
            RichText::new(format!(
                "After − before, first player's score: {:+.1} points (95% interval {:+.1} to {:+.1}), p = {:.3}: {verdict}",
                d.difference * 100.0,
                d.low * 100.0,
                d.high * 100.0,
                d.p_value
            ))
            .strong(),
        );
    }
    let names = ["before", "after"];
    ui.columns(reports.len(), |columns| {
        for (i, (col, (r, colour))) in columns.iter_mut().zip(&reports).enumerate() {
            if reports.len() > 1 {
                col.label(RichText::new(names[i]).color(*colour).strong());
            }
            summary(col, r);
        }
    });
    ui.separator();
    ui.label("First player's score, with its 95% interval (50% = fair)");
    let run_names: Vec<&str> = if reports.len() > 1 { names.to_vec() } else { vec!["this run"] };
    Plot::new("playtest-score")
        .height(40.0 + 30.0 * reports.len() as f32)
        .y_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-9 && i >= 0.0 {
                run_names.get(i as usize).copied().unwrap_or("").to_string()
            } else {
                String::new()
            }
        })
        .x_axis_formatter(|mark, _| format!("{:.0}%", mark.value * 100.0))
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_x(0.0)
        .include_x(1.0)
        .show(ui, |plot| {
            let boxes = reports
                .iter()
                .enumerate()
                .map(|(i, (r, colour))| {
                    let f = &r.first;
                    BoxElem::new(i as f64, BoxSpread::new(f.low, f.low, f.mean, f.high, f.high))
                        .fill(colour.gamma_multiply(0.4))
                        .stroke(egui::Stroke::new(1.5, *colour))
                        .name(percent(f.mean))
                })
                .collect();
            plot.box_plot(BoxPlot::new("score", boxes).horizontal());
            plot.hline(HLine::new("fair", 0.5));
        });
    ui.label("Game length (plies)");
    Plot::new("playtest-lengths")
        .height(140.0)
        .legend(Legend::default())
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, (r, colour)) in reports.iter().enumerate() {
                let name = if reports.len() > 1 { names[i] } else { "games" };
                plot.bar_chart(length_histogram(r, i, reports.len()).name(name).color(*colour));
            }
        });
    let last = reports[reports.len() - 1].0;
    if last.fitted_scale.is_some() {
        ui.label("Piece values: estimated from the rules, and fitted from the games (with 95% intervals)");
    } else {
        ui.label("Piece values: estimated from the rules");
        ui.label(RichText::new(format!("No fitted values: {}.", playtest::TOO_FEW_FOR_VALUES)).weak());
    }
    let pieces = plotted_pieces(last);
    // One word a line, so neighbouring names do not overlap (the plot would drop one of them).
    let piece_names: Vec<String> = pieces.iter().map(|(name, _, _)| name.replace(' ', "\n")).collect();
    // Estimated bars sit left of their fitted ones, or on the name alone when nothing is fitted;
    // the frame is the same either way.
    let any_fitted = reports.iter().any(|(r, _)| r.fitted_scale.is_some());
    let estimated_offset = if any_fitted { -0.2 } else { 0.0 };
    let span = (-0.6, pieces.len() as f64 - 0.4);
    Plot::new("playtest-values")
        .height(170.0)
        .include_x(span.0)
        .include_x(span.1)
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            let whole = (mark.value - i).abs() < 1e-6 && i >= 0.0;
            if whole { piece_names.get(i as usize).cloned().unwrap_or_default() } else { String::new() }
        })
        .legend(Legend::default())
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .show(ui, |plot| {
            let estimated = pieces
                .iter()
                .enumerate()
                .map(|(i, &(name, est, _))| Bar::new(i as f64 + estimated_offset, est).width(0.4).name(name))
                .collect();
            plot.bar_chart(BarChart::new("estimated", estimated).color(Color32::GRAY));
            for (k, (r, colour)) in reports.iter().enumerate() {
                let bars = pieces
                    .iter()
                    .enumerate()
                    .filter_map(|(i, &(name, _, _))| {
                        let p = r.pieces.iter().find(|p| p.name == name)?;
                        let offset = 0.2 + 0.4 * k as f64 / reports.len() as f64;
                        Some((i as f64 + offset, p.fitted_value?, p.fitted_margin, name))
                    })
                    .collect::<Vec<_>>();
                let label = if reports.len() > 1 { format!("fitted ({})", names[k]) } else { "fitted".to_string() };
                // Each fitted value's 95% interval as a whisker over its bar.
                for &(x, v, margin, _) in &bars {
                    if let Some(m) = margin {
                        plot.line(Line::new("", PlotPoints::from(vec![[x, v - m], [x, v + m]])).color(*colour));
                    }
                }
                let bars = bars
                    .into_iter()
                    .map(|(x, v, _, name)| Bar::new(x, v).width(0.4 / reports.len() as f64).name(name))
                    .collect();
                plot.bar_chart(BarChart::new(label, bars).color(*colour));
            }
        });
}

/// The key numbers of a report, as lines.
fn summary(ui: &mut egui::Ui, r: &Report) {
    let verdict = if r.fairness_p_value < 0.05 {
        if r.first.mean > 0.5 { "first player favoured" } else { "second player favoured" }
    } else {
        "no significant edge"
    };
    ui.label(format!("{}: {} games", r.label, r.games));
    ui.label(format!(
        "First player {} ({} – {}): {verdict}",
        percent(r.first.mean),
        percent(r.first.low),
        percent(r.first.high)
    ));
    ui.label(format!("{} wins, {} losses, {} draws for the first player", r.first_wins, r.second_wins, r.draws));
    let reasons: Vec<String> = r.end_reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
    ui.label(format!("Ended by: {}", reasons.join(", ")));
    ui.label(format!(
        "Length: median {:.0} plies (middle half {:.0}–{:.0})",
        r.length.median, r.length.quartile_low, r.length.quartile_high
    ));
    ui.label(format!("{} distinct positions at ply 10 in {} games", r.diversity.distinct, r.diversity.games));
}

/// Games per length bin; run `k` of `runs` sits beside the others in each bin.
fn length_histogram(r: &Report, k: usize, runs: usize) -> BarChart {
    let lengths: Vec<u32> = r.length_samples.clone();
    let max = lengths.iter().copied().max().unwrap_or(0);
    let width = ((max / 12).max(1) as f64 / 10.0).ceil() * 10.0;
    let mut bins = vec![0u32; (max as f64 / width) as usize + 1];
    for l in &lengths {
        bins[(*l as f64 / width) as usize] += 1;
    }
    let bar_width = width * 0.8 / runs as f64;
    let bars = bins
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let x = i as f64 * width + width * 0.1 + bar_width * (k as f64 + 0.5);
            Bar::new(x, n as f64).width(bar_width).name(format!(
                "{:.0}–{:.0} plies",
                i as f64 * width,
                (i + 1) as f64 * width
            ))
        })
        .collect();
    BarChart::new(r.label.clone(), bars)
}

/// The non-royal types with a fitted value (or, when the fit is not clear yet, whose counts
/// differed in some position), most supported first: `(name, estimated, support)`.
fn plotted_pieces(r: &Report) -> Vec<(&str, f64, u32)> {
    let mut pieces: Vec<(&str, f64, u32)> = r
        .pieces
        .iter()
        .enumerate()
        .filter(|&(t, p)| p.fitted_value.is_some() || (r.fitted_scale.is_none() && r.fit.values[t].is_some()))
        .map(|(t, p)| (p.name.as_str(), p.estimated_value as f64, r.fit.support[t]))
        .collect();
    pieces.sort_by_key(|p| std::cmp::Reverse(p.2));
    pieces.truncate(PLOTTED_PIECES);
    pieces
}
