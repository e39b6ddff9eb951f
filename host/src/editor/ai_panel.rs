//! The AI panel: the AI (or an external USI engine) plays either side or both, gives a hint,
//! and shows its evaluation; the time per move sets the difficulty.
//!
//! Every search runs on a worker thread that keeps its searcher (and engine process) between
//! moves, so the window never waits. A job is tagged with the game it was asked for: an answer
//! that arrives after the game changed (a move, an undo, a reload) is dropped, never played.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use eframe::egui::{self, RichText};
use henka_api::{Game, Move, Side, Variant};

use super::board::{Arrow, ArrowKind};
use super::session::Session;
use crate::ai::{Limits, Report, Score, Searcher, searcher_for};
use crate::player::usi_position;
use crate::usi::client::UsiClient;

/// The AI's transposition table in the editor, in megabytes.
const TABLE_MB: usize = 64;

/// Who the opponent is when a side is not played by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    Henka,
    Usi,
}

/// What a job is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Play the move.
    Move,
    /// Show the move.
    Hint,
}

/// A search request for the worker.
struct Job {
    variant: Arc<dyn Variant>,
    piece_values: Vec<Option<i32>>,
    variant_name: String,
    game: Game,
    time: Duration,
    usi: Option<String>,
    purpose: Purpose,
    key: u64,
}

/// What the worker sends back.
enum Answer {
    /// A completed depth, described for the evaluation display, and its best move so far.
    Progress {
        key: u64,
        text: String,
        best: Move,
    },
    Done {
        key: u64,
        purpose: Purpose,
        result: Result<Option<Move>, String>,
    },
}

/// The worker thread: one searcher for the variant in play, one USI engine if asked for.
fn worker(jobs: Receiver<Job>, answers: Sender<Answer>, stop: Arc<AtomicBool>, wake: Arc<dyn Fn() + Send + Sync>) {
    let mut searcher: Option<Searcher> = None;
    let mut engine: Option<(String, String, UsiClient)> = None;
    for job in jobs {
        let send = |a: Answer| {
            let _ = answers.send(a);
            wake();
        };
        let result = match &job.usi {
            None => {
                let fresh = !searcher.as_ref().is_some_and(|s| Arc::ptr_eq(s.variant(), &job.variant));
                if fresh {
                    let mut s = searcher_for(job.variant.clone(), &job.piece_values, TABLE_MB);
                    s.share_stop_flag(stop.clone());
                    searcher = Some(s);
                }
                let s = searcher.as_mut().expect("just made");
                let side = job.game.position().side_to_move();
                s.search(job.game.position(), job.game.history(), Limits::time(job.time), |r| {
                    send(Answer::Progress { key: job.key, text: describe(r, side), best: r.best() })
                })
                .map(|r| r.map(|r| r.best()))
                .map_err(|e| e.to_string())
            }
            Some(cmd) => usi_move(&mut engine, cmd, &job),
        };
        send(Answer::Done { key: job.key, purpose: job.purpose, result });
    }
}

/// Asks the USI engine (started, or restarted for another command or variant) for a move.
fn usi_move(engine: &mut Option<(String, String, UsiClient)>, cmd: &str, job: &Job) -> Result<Option<Move>, String> {
    let same = engine.as_ref().is_some_and(|(c, v, _)| c == cmd && *v == job.variant_name);
    if !same {
        *engine = None;
        let client = UsiClient::start(cmd, Some(&job.variant_name)).map_err(|e| format!("{e:#}"))?;
        *engine = Some((cmd.to_string(), job.variant_name.clone(), client));
    }
    let (_, _, client) = engine.as_mut().expect("started");
    let v = job.variant.as_ref();
    let go = format!("movetime {}", job.time.as_millis().max(1));
    let answer = client
        .best_move(&usi_position(v, &job.game), &go, job.time * 3 + Duration::from_secs(5))
        .map_err(|e| format!("{e:#}"))?;
    if answer == "resign" {
        return Ok(None);
    }
    v.parse_move(job.game.position(), &answer).map(Some).map_err(|e| format!("the engine answered {answer:?}: {e}"))
}

/// The panel's state.
pub struct AiPanel {
    /// Whether the opponent plays Black / White.
    plays: [bool; 2],
    opponent: Opponent,
    usi_command: String,
    seconds: f32,
    jobs: Sender<Job>,
    answers: Receiver<Answer>,
    stop: Arc<AtomicBool>,
    /// The job in flight: its purpose and the game it is for.
    pending: Option<(Purpose, u64)>,
    /// The job in flight was called off (its side handed back to the human): drop its answer.
    discard: bool,
    /// After an Undo the opponent waits for the human's move (or "Move now").
    paused: bool,
    last_moves: usize,
    /// The last hint, for the game it was asked in: the move and its notation.
    hint: Option<(u64, Move, String)>,
    /// The best move so far of the search in flight, for the game it searches.
    intended: Option<(u64, Move)>,
    /// The last evaluation, as text.
    evaluation: Option<String>,
    message: Option<String>,
}

impl std::fmt::Debug for AiPanel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AiPanel").field("plays", &self.plays).field("pending", &self.pending).finish()
    }
}

impl AiPanel {
    /// A panel with its worker; `wake` asks the window for a frame when an answer arrives.
    pub fn new(wake: Arc<dyn Fn() + Send + Sync>) -> AiPanel {
        let (jobs, job_rx) = channel();
        let (answer_tx, answers) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let worker_stop = stop.clone();
        std::thread::Builder::new()
            .name("ai-worker".into())
            .spawn(move || worker(job_rx, answer_tx, worker_stop, wake))
            .expect("the AI worker thread starts");
        AiPanel {
            plays: [false; 2],
            opponent: Opponent::Henka,
            usi_command: String::new(),
            seconds: 1.0,
            jobs,
            answers,
            stop,
            pending: None,
            discard: false,
            paused: false,
            last_moves: 0,
            hint: None,
            intended: None,
            evaluation: None,
            message: None,
        }
    }

    /// Sets who plays which side and the time per move (the UI does the same with clicks).
    pub fn set_players(&mut self, black: bool, white: bool, seconds: f32) {
        self.plays = [black, white];
        self.seconds = seconds;
    }

    /// The user pressed Undo: the opponent waits for the human's move (or "Move now") rather
    /// than replaying at once.
    pub fn note_undo(&mut self) {
        self.paused = true;
    }

    /// Another game is on the board (another variant, a new game, a position set up or loaded):
    /// the last one's evaluation, hint, pause and messages go, and a search still running for it
    /// is stopped and its answer dropped.
    pub fn forget_game(&mut self) {
        self.evaluation = None;
        self.hint = None;
        self.intended = None;
        self.message = None;
        self.paused = false;
        if self.pending.is_some() {
            self.discard = true;
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Takes answers and starts the opponent's search when it is its turn. Returns a move to play.
    pub fn update(&mut self, session: &Session, doc_name: &str) -> Option<Move> {
        let key = game_key(session);
        let moves = session.game().moves().len();
        if moves > self.last_moves {
            self.paused = false;
        }
        self.last_moves = moves;
        let mut play = None;
        while let Ok(answer) = self.answers.try_recv() {
            match answer {
                // Only the search for the game on the board speaks for it.
                Answer::Progress { key: k, text, best } => {
                    if k == key && !self.discard {
                        self.evaluation = Some(text);
                        self.intended = Some((k, best));
                    }
                }
                Answer::Done { key: k, purpose, result } => {
                    if self.pending.is_some_and(|(_, pk)| pk == k) {
                        self.pending = None;
                        self.intended = None;
                    }
                    let discarded = std::mem::take(&mut self.discard);
                    if k != key || discarded {
                        continue;
                    }
                    match (purpose, result) {
                        (Purpose::Move, Ok(Some(mv))) => play = Some(mv),
                        (Purpose::Hint, Ok(Some(mv))) => {
                            let text = session.variant().format_move(session.game().position(), mv);
                            self.hint = Some((k, mv, text));
                        }
                        (_, Ok(None)) => self.message = Some("the opponent resigns".into()),
                        (_, Err(e)) => {
                            self.message = Some(e);
                            // An engine that fails stops playing until the seats are set again.
                            self.plays = [false; 2];
                        }
                    }
                }
            }
        }
        if let Some((_, k)) = self.pending
            && k != key
        {
            // The game moved on: whatever runs is for a position that is gone.
            self.stop.store(true, Ordering::Relaxed);
        }
        if play.is_none() && self.pending.is_none() && !self.paused && self.opponent_to_move(session) {
            self.start(session, doc_name, Purpose::Move);
        }
        play
    }

    fn opponent_to_move(&self, session: &Session) -> bool {
        let live = session.shown_ply() == session.game().moves().len();
        let side = session.game().position().side_to_move();
        live && self.plays[side.index()] && session.outcome().is_none()
    }

    fn start(&mut self, session: &Session, doc_name: &str, purpose: Purpose) {
        if session.outcome().is_some() {
            return;
        }
        self.stop.store(false, Ordering::Relaxed);
        let key = game_key(session);
        let usi = (self.opponent == Opponent::Usi && purpose == Purpose::Move).then(|| self.usi_command.clone());
        let job = Job {
            variant: session.variant().clone(),
            piece_values: session.piece_values().to_vec(),
            variant_name: doc_name.to_string(),
            game: session.game().clone(),
            time: Duration::from_secs_f32(self.seconds),
            usi,
            purpose,
            key,
        };
        if self.jobs.send(job).is_ok() {
            self.pending = Some((purpose, key));
            self.message = None;
        }
    }

    /// Arrows for the board: the hint for the game on the board, and the move the search in
    /// flight would play now.
    pub fn arrows(&self, session: &Session) -> Vec<Arrow> {
        let key = game_key(session);
        let hint = self.hint.iter().filter(|(k, ..)| *k == key).map(|&(_, mv, _)| Arrow::new(mv, ArrowKind::Hint));
        let thinking = self
            .intended
            .iter()
            .filter(|(k, _)| *k == key && self.pending.is_some())
            .map(|&(_, mv)| Arrow::new(mv, ArrowKind::Thinking));
        hint.chain(thinking).collect()
    }

    /// Draws the panel; clicks start hints or change the seats.
    pub fn show(&mut self, ui: &mut egui::Ui, session: &Session, doc_name: &str) {
        let key = game_key(session);
        let before = self.plays;
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.plays[0], "AI plays Black");
            ui.checkbox(&mut self.plays[1], "AI plays White");
        });
        let side = session.game().position().side_to_move().index();
        if before[side] && !self.plays[side] && matches!(self.pending, Some((Purpose::Move, _))) {
            // The human takes this side back mid-search: the answer must not be played.
            self.discard = true;
            self.stop.store(true, Ordering::Relaxed);
        }
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.opponent, Opponent::Henka, "Henka AI");
            ui.radio_value(&mut self.opponent, Opponent::Usi, "USI engine");
        });
        if self.opponent == Opponent::Usi {
            ui.add(egui::TextEdit::singleline(&mut self.usi_command).hint_text("engine command line"))
                .accessible_name("USI engine command");
        }
        ui.add(
            egui::Slider::new(&mut self.seconds, 0.1..=30.0)
                .logarithmic(true)
                .suffix(" s")
                .text("per move")
                .max_decimals(1),
        );
        ui.horizontal(|ui| {
            let idle = self.pending.is_none() && session.outcome().is_none();
            if ui.add_enabled(idle, egui::Button::new("Hint")).on_hover_text("The AI's move for you").clicked() {
                self.start(session, doc_name, Purpose::Hint);
            }
            if ui.add_enabled(idle, egui::Button::new("Move now")).on_hover_text("The AI plays this move").clicked() {
                self.paused = false;
                self.start(session, doc_name, Purpose::Move);
            }
            if ui.add_enabled(self.pending.is_some(), egui::Button::new("Stop")).clicked() {
                // A stopped search still answers, with the best move so far.
                self.stop.store(true, Ordering::Relaxed);
            }
        });
        if let Some((k, _, h)) = &self.hint
            && *k == key
        {
            ui.label(RichText::new(format!("Hint: {h}")).strong());
        }
        if let Some(e) = &self.evaluation {
            ui.label(RichText::new(e).monospace());
        }
        if self.pending.is_some() {
            ui.label(RichText::new("thinking…").italics());
        } else if self.paused && (self.plays[0] || self.plays[1]) {
            ui.label(RichText::new("the AI waits after Undo: play a move or press Move now").weak());
        }
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().warn_fg_color, m);
        }
    }
}

/// Identifies the game a job was asked for: rules, start, moves and position.
fn game_key(session: &Session) -> u64 {
    let g = session.game();
    let mut h = session.rules_generation().wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for x in [g.start().hash(), g.position().hash(), g.moves().len() as u64] {
        h = (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(17);
    }
    h
}

/// "Evaluation +0.35 for Black · depth 6 · 120 k nodes" — from Black's side whoever moves.
fn describe(r: &Report, to_move: Side) -> String {
    let black = |s: Score| match (s, to_move) {
        (s, Side::First) => s,
        (Score::Cp(cp), Side::Second) => Score::Cp(-cp),
        (Score::Mate(n), Side::Second) => Score::Mate(-n),
    };
    let score = match black(r.score) {
        Score::Cp(cp) => format!("{:+.2} for Black", cp as f64 / 100.0),
        Score::Mate(n) if n > 0 => format!("Black mates in {n}"),
        Score::Mate(n) => format!("White mates in {}", -n),
    };
    format!("Evaluation {score} · depth {} · {} k nodes", r.depth, r.nodes / 1000)
}
