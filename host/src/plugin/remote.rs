//! [`RemoteVariant`]: a [`Variant`] whose rules run in plugin workers, child processes that speak
//! [`super::protocol`] (docs/architecture.md, "Plugins run out of process").
//!
//! The host never maps plugin code. Whatever a worker does — crash, hang, exit, answer garbage —
//! the host sees an error naming the plugin, the call and what happened, and goes on:
//! - every request has a time limit ([`Timeouts`]); a worker that misses it is killed;
//! - a worker that dies is reaped and its exit status or signal named;
//! - every value that comes back is checked against the variant (moves by
//!   [`WireMove::to_move`], positions by [`Position::from_words`], outcomes by
//!   [`outcome_from_raw`]) and a worker that answers out of turn or with garbage is killed.
//!
//! Workers are kept in a pool: a call takes an idle one (starting one if none is idle, so a long
//! perft on one thread never blocks the editor's calls on another) and puts it back after. A
//! dead worker is dropped, so the next call starts a fresh one from the same bytes — "restarted on
//! next use". Each AI searcher gets a worker of its own ([`SearchElsewhere`]), whose table stays
//! warm between its searches.

use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use henka_api::abi::{RawOutcome, outcome_from_raw};
use henka_api::{Geometry, HistoryEntry, Move, Outcome, Position, RuleError, Variant, VariantInfo};

use super::PluginError;
use super::protocol::{
    self, FrameError, Hello, PROTOCOL_VERSION, Request, Response, SearchSetup, Welcome, WireLimits, WireReport,
    position_words,
};
use crate::ai::delegate::{DelegatedSetup, SearchElsewhere, SearchSession};
use crate::ai::{Limits, Report, Score};

/// How long a worker may take to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Starting (loading the library) and every short call: legal moves, play, check, outcome.
    pub call: Duration,
    /// A whole perft, or a search without a time limit (to a depth or a node count), which may
    /// legitimately take hours; an untimed search still stops when its stop flag is set.
    pub long: Duration,
    /// How long a search may overrun its time limit, or take to stop once asked to.
    pub search_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            call: Duration::from_secs(20),
            long: Duration::from_secs(24 * 3600),
            search_grace: Duration::from_secs(10),
        }
    }
}

/// A variant served by plugin workers.
pub struct RemoteVariant {
    name: String,
    /// The plugin file as found (not the private copy a worker loads).
    path: PathBuf,
    /// The file's contents when it was opened: every worker of this variant loads these bytes,
    /// so a file rebuilt since does not change the rules of a game in progress.
    bytes: Arc<[u8]>,
    info: VariantInfo,
    geometry: Geometry,
    idle: Mutex<Vec<Worker>>,
    timeouts: Mutex<Timeouts>,
}

impl std::fmt::Debug for RemoteVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteVariant").field("name", &self.name).field("path", &self.path).finish()
    }
}

/// Why a worker could not answer. The worker is gone (killed or dead) whenever this is returned.
#[derive(Debug)]
struct Died(String);

impl RemoteVariant {
    /// Starts a first worker on `bytes` (the contents of `path`) and reads the variant's
    /// description from it.
    pub fn start(name: String, path: PathBuf, bytes: Arc<[u8]>) -> Result<RemoteVariant, PluginError> {
        let timeouts = Timeouts::default();
        let (worker, info) = Worker::spawn(&name, &path, &bytes, timeouts.call).map_err(|e| match e {
            Spawn::Refused(message) => PluginError::Refused { path: path.clone(), message },
            Spawn::Died(Died(message)) => PluginError::Worker { path: path.clone(), message },
        })?;
        let geometry = super::in_process::check_description(&info)
            .map_err(|message| PluginError::Description { path: path.clone(), message })?;
        Ok(RemoteVariant {
            name,
            path,
            bytes,
            info,
            geometry,
            idle: Mutex::new(vec![worker]),
            timeouts: Mutex::new(timeouts),
        })
    }

    pub fn timeouts(&self) -> Timeouts {
        *self.timeouts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the time limits of the calls from now on.
    pub fn set_timeouts(&self, t: Timeouts) {
        *self.timeouts.lock().unwrap_or_else(|e| e.into_inner()) = t;
    }

    fn error(&self, what: &str, message: impl std::fmt::Display) -> RuleError {
        RuleError::new(format!("plugin {} ({what}): {message}", self.name))
    }

    /// A worker to talk to: an idle one, or a new one (checked to describe the same variant).
    fn take_worker(&self, what: &str) -> Result<Worker, RuleError> {
        if let Some(w) = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop() {
            return Ok(w);
        }
        let (worker, info) = Worker::spawn(&self.name, &self.path, &self.bytes, self.timeouts().call).map_err(|e| {
            let message = match e {
                Spawn::Refused(m) | Spawn::Died(Died(m)) => m,
            };
            self.error(what, format!("cannot start the worker again: {message}"))
        })?;
        if info != self.info {
            return Err(self.error(what, "the restarted worker describes another variant"));
        }
        Ok(worker)
    }

    /// Sends one request and returns the final answer; the worker goes back to the pool unless
    /// it died. `Response::Error` becomes the plugin's rule error.
    fn request(&self, what: &str, request: &Request, limit: Duration) -> Result<Response, RuleError> {
        let mut worker = self.take_worker(what)?;
        match worker.exchange(request, limit, None, &mut |_| Ok(())) {
            Ok(response) => {
                self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(worker);
                match response {
                    // The worker's in-process plugin already names itself and the call.
                    Response::Error(m) => {
                        let own = format!("plugin {} ({what}): ", self.name);
                        Err(self.error(what, m.strip_prefix(&own).unwrap_or(&m)))
                    }
                    other => Ok(other),
                }
            }
            Err(Died(m)) => Err(self.error(what, format!("{m}; the worker is started again on the next call"))),
        }
    }

    /// A wrong kind of answer: the worker is out of step with the host, so it is not reused.
    fn out_of_step(&self, what: &str, got: &Response) -> RuleError {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).clear();
        self.error(what, format!("the worker answered out of turn ({}); it is stopped", kind_of(got)))
    }
}

fn kind_of(r: &Response) -> &'static str {
    match r {
        Response::Moves(_) => "moves",
        Response::Position(_) => "a position",
        Response::InCheck(_) => "a check flag",
        Response::Outcome { .. } => "an outcome",
        Response::Nodes(_) => "a node count",
        Response::Progress(_) => "search progress",
        Response::Searched(_) => "a search result",
        Response::Error(_) => "an error",
    }
}

impl Variant for RemoteVariant {
    fn info(&self) -> &VariantInfo {
        &self.info
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) -> Result<(), RuleError> {
        out.clear();
        let request = Request::LegalMoves { position: position_words(pos) };
        match self.request("legal_moves", &request, self.timeouts().call)? {
            Response::Moves(moves) => {
                let checked: Result<Vec<Move>, String> =
                    moves.into_iter().map(|m| m.to_move(&self.info, &self.geometry)).collect();
                out.extend(checked.map_err(|e| self.error("legal_moves", format!("answered {e}")))?);
                Ok(())
            }
            other => Err(self.out_of_step("legal_moves", &other)),
        }
    }

    fn play(&self, pos: &mut Position, mv: Move) -> Result<(), RuleError> {
        let request = Request::Play { position: position_words(pos), mv: mv.into() };
        match self.request("play", &request, self.timeouts().call)? {
            Response::Position(words) => {
                *pos = Position::from_words(&words, self.geometry.len(), self.info.pieces.len())
                    .map_err(|e| self.error("play", format!("answered a bad position: {e}")))?;
                Ok(())
            }
            other => Err(self.out_of_step("play", &other)),
        }
    }

    /// A failing plugin cannot answer; the error goes to stderr and the answer is "not in check".
    fn in_check(&self, pos: &Position) -> bool {
        let request = Request::InCheck { position: position_words(pos) };
        match self.request("in_check", &request, self.timeouts().call) {
            Ok(Response::InCheck(c)) => c,
            Ok(other) => {
                eprintln!("warning: {}", self.out_of_step("in_check", &other));
                false
            }
            Err(e) => {
                eprintln!("warning: {e}");
                false
            }
        }
    }

    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let request = Request::Outcome { position: position_words(pos), history: protocol::wire_history(history) };
        match self.request("outcome", &request, self.timeouts().call)? {
            Response::Outcome { ended, winner, reason, text } => {
                outcome_from_raw(RawOutcome { ended, winner, reason }, &text)
                    .map_err(|e| self.error("outcome", format!("answered {e}")))
            }
            other => Err(self.out_of_step("outcome", &other)),
        }
    }

    /// One request: the whole count runs in the worker at the plugin's speed.
    fn perft(&self, pos: &Position, depth: u32) -> Result<u64, RuleError> {
        let request = Request::Perft { position: position_words(pos), depth };
        match self.request("perft", &request, self.timeouts().long)? {
            Response::Nodes(n) => Ok(n),
            other => Err(self.out_of_step("perft", &other)),
        }
    }
}

impl SearchElsewhere for RemoteVariant {
    fn open_session(&self) -> Result<Box<dyn SearchSession>, RuleError> {
        let worker = self.take_worker("search")?;
        Ok(Box::new(Session {
            worker: Some(worker),
            name: self.name.clone(),
            info: self.info.clone(),
            geometry: self.geometry.clone(),
            grace: self.timeouts().search_grace,
            long: self.timeouts().long,
        }))
    }
}

/// A worker kept by one AI searcher.
struct Session {
    /// `None` once it died (the searcher then opens a new session).
    worker: Option<Worker>,
    name: String,
    info: VariantInfo,
    geometry: Geometry,
    grace: Duration,
    long: Duration,
}

impl Session {
    fn report(&self, w: WireReport) -> Result<Report, String> {
        if w.pv.is_empty() {
            return Err("a search report without a move".into());
        }
        let pv = w.pv.into_iter().map(|m| m.to_move(&self.info, &self.geometry)).collect::<Result<Vec<Move>, _>>()?;
        Ok(Report {
            depth: w.depth,
            seldepth: w.seldepth,
            score: if w.mate { Score::Mate(w.score) } else { Score::Cp(w.score) },
            nodes: w.nodes,
            elapsed: Duration::from_micros(w.elapsed_us),
            pv,
        })
    }
}

impl SearchSession for Session {
    fn search(
        &mut self,
        pos: &Position,
        history: &[HistoryEntry],
        limits: Limits,
        setup: &DelegatedSetup,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&Report),
    ) -> Result<Option<Report>, RuleError> {
        let error = |m: String| RuleError::new(format!("plugin {} (search): {m}", self.name));
        let Some(mut worker) = self.worker.take() else {
            return Err(error("the worker died earlier".into()));
        };
        let request = Request::Search {
            position: position_words(pos),
            history: protocol::wire_history(history),
            limits: WireLimits {
                time_ms: limits.time.map(|t| t.as_millis() as u64),
                soft_time_ms: limits.soft_time.map(|t| t.as_millis() as u64),
                depth: limits.depth,
                nodes: limits.nodes,
            },
            setup: SearchSetup {
                board_values: setup.values.board_values().to_vec(),
                hand_values: setup.values.hand_values().to_vec(),
                terms: [
                    setup.terms.tropism,
                    setup.terms.royal_defenders,
                    setup.terms.royal_attackers,
                    setup.terms.advanced,
                    setup.terms.mobility,
                    setup.terms.king_danger,
                ],
                table_mb: setup.table_mb,
                threads: setup.threads,
                new_game: setup.new_game,
            },
        };
        // A timed search may overrun by the grace; an untimed one gets the long budget (and
        // stops sooner when asked).
        let limit = limits.time.map_or(self.long, |t| t + self.grace);
        let stopping = Stopping { flag: stop, grace: self.grace };
        let mut progress = |r: WireReport| -> Result<(), String> {
            let r = self.report(r)?;
            on_report(&r);
            Ok(())
        };
        let answer = worker.exchange(&request, limit, Some(stopping), &mut progress);
        match answer {
            Ok(Response::Searched(r)) => {
                let r = r.map(|r| self.report(r)).transpose().map_err(|m| error(format!("answered {m}")))?;
                self.worker = Some(worker);
                Ok(r)
            }
            Ok(Response::Error(m)) => {
                self.worker = Some(worker);
                Err(error(m))
            }
            Ok(other) => Err(error(format!("the worker answered out of turn ({}); it is stopped", kind_of(&other)))),
            Err(Died(m)) => Err(error(format!("{m}; a new worker starts with the next search"))),
        }
    }
}

/// A search's stop flag, and how long the worker has to stop once it is set.
struct Stopping<'a> {
    flag: &'a AtomicBool,
    grace: Duration,
}

enum Spawn {
    /// The worker started but refused the plugin (not a library, another ABI or protocol…).
    Refused(String),
    Died(Died),
}

/// One worker process.
struct Worker {
    child: Child,
    input: BufWriter<ChildStdin>,
    frames: mpsc::Receiver<Result<Response, FrameError>>,
}

impl Worker {
    /// Starts a worker on a private copy of `bytes` and waits for its handshake.
    fn spawn(name: &str, path: &Path, bytes: &[u8], limit: Duration) -> Result<(Worker, VariantInfo), Spawn> {
        let died = |m: String| Spawn::Died(Died(m));
        let copy =
            super::registry::private_copy(path, bytes).map_err(|e| died(format!("cannot copy the plugin: {e}")))?;
        let exe = worker_executable().map_err(died)?;
        let spawned = Command::new(&exe)
            .arg(WORKER_COMMAND)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_file(&copy);
                return Err(died(format!("cannot start {} {WORKER_COMMAND}: {e}", exe.display())));
            }
        };
        let (Some(stdin), Some(mut stdout)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("both pipes were asked for")
        };
        let (tx, frames) = mpsc::channel();
        // The handshake is read on the same thread as every later frame.
        let (hello_tx, hello_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let welcome = protocol::read_frame::<Welcome>(&mut stdout);
            let ok = welcome.is_ok();
            if hello_tx.send(welcome).is_err() || !ok {
                return;
            }
            loop {
                let frame = protocol::read_frame::<Response>(&mut stdout);
                let last = frame.is_err();
                if tx.send(frame).is_err() || last {
                    return;
                }
            }
        });
        let mut worker = Worker { child, input: BufWriter::new(stdin), frames };
        let hello = Hello { protocol: PROTOCOL_VERSION, library: copy.display().to_string(), name: name.to_string() };
        let welcome = match protocol::write_frame(&mut worker.input, &hello) {
            Ok(()) => match hello_rx.recv_timeout(limit) {
                Ok(Ok(w)) => Ok(w),
                Ok(Err(e)) => Err(worker.dead(&format!("broke the handshake: {e}"))),
                Err(RecvTimeoutError::Timeout) => {
                    Err(worker.kill(&format!("did not load the plugin within {limit:?}")))
                }
                Err(RecvTimeoutError::Disconnected) => Err(worker.dead("broke the handshake")),
            },
            Err(e) => Err(worker.dead(&format!("cannot send the handshake: {e}"))),
        };
        // The worker has mapped the copy (or failed to); a mapped file needs no name.
        let _ = std::fs::remove_file(&copy);
        let welcome = welcome.map_err(Spawn::Died)?;
        if welcome.protocol != PROTOCOL_VERSION {
            return Err(Spawn::Refused(format!(
                "the worker speaks plugin protocol version {}, this henka version {PROTOCOL_VERSION}",
                welcome.protocol
            )));
        }
        match welcome.loaded {
            Ok(info) => Ok((worker, info)),
            Err(message) => Err(Spawn::Refused(message)),
        }
    }

    /// Sends `request` and waits for its final answer within `limit`, passing progress frames
    /// to `progress`. With `stopping`, a set flag sends [`Request::Stop`] once, and the answer
    /// must then come within the grace.
    fn exchange(
        &mut self,
        request: &Request,
        limit: Duration,
        stopping: Option<Stopping<'_>>,
        progress: &mut dyn FnMut(WireReport) -> Result<(), String>,
    ) -> Result<Response, Died> {
        if let Err(e) = protocol::write_frame(&mut self.input, request) {
            return Err(self.dead(&format!("cannot send the request: {e}")));
        }
        let start = Instant::now();
        let mut deadline = start.checked_add(limit);
        let mut stop_sent = false;
        loop {
            let now = Instant::now();
            if let Some(s) = &stopping
                && !stop_sent
                && s.flag.load(Ordering::Relaxed)
            {
                stop_sent = true;
                if let Err(e) = protocol::write_frame(&mut self.input, &Request::Stop) {
                    return Err(self.dead(&format!("cannot send stop: {e}")));
                }
                let by = now + s.grace;
                deadline = Some(deadline.map_or(by, |d| d.min(by)));
            }
            let wait = match deadline {
                Some(d) if d <= now => {
                    let what = if stop_sent { "did not stop when asked" } else { "did not answer" };
                    return Err(self.kill(&format!("{what} within {:?}: it was stopped", now - start)));
                }
                Some(d) => d - now,
                None => Duration::from_secs(3600),
            };
            // A search polls its stop flag; other calls just wait.
            let wait = if stopping.is_some() { wait.min(Duration::from_millis(20)) } else { wait };
            match self.frames.recv_timeout(wait) {
                Ok(Ok(Response::Progress(r))) if stopping.is_some() => {
                    if let Err(m) = progress(r) {
                        return Err(self.kill(&format!("answered {m}")));
                    }
                }
                Ok(Ok(response)) => return Ok(response),
                Ok(Err(FrameError::Closed)) | Err(RecvTimeoutError::Disconnected) => return Err(self.dead("")),
                Ok(Err(e)) => return Err(self.kill(&format!("sent garbage ({e})"))),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Kills the worker (it misbehaved) and says why.
    fn kill(&mut self, why: &str) -> Died {
        let _ = self.child.kill();
        let _ = self.child.wait();
        Died(format!("the worker {why}"))
    }

    /// Reaps a worker that went away by itself and says how it ended.
    fn dead(&mut self, context: &str) -> Died {
        // The pipe closed; the process is exiting. Give it a moment, then make sure.
        let deadline = Instant::now() + Duration::from_secs(2);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => {
                    let _ = self.child.kill();
                    break self.child.wait().ok();
                }
            }
        };
        let how = status.map_or_else(|| "ended".to_string(), describe_exit);
        let context = if context.is_empty() { String::new() } else { format!(" ({context})") };
        Died(format!("the worker {how}{context}"))
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing its input ends an idle worker; a busy one (a search nobody waits for) is killed.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// "crashed (signal 11, SIGSEGV)", "exited with status 0", ….
fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                libc::SIGABRT => " SIGABRT, an abort",
                libc::SIGSEGV => " SIGSEGV, a bad memory access",
                libc::SIGBUS => " SIGBUS, a bad memory access",
                libc::SIGILL => " SIGILL, an illegal instruction",
                libc::SIGFPE => " SIGFPE, an arithmetic fault",
                libc::SIGKILL => " SIGKILL",
                _ => "",
            };
            return format!("crashed (signal {sig},{name})");
        }
    }
    match status.code() {
        Some(c) => format!("exited with status {c} in the middle of a call"),
        None => "ended".to_string(),
    }
}

/// The hidden command that makes `henka` a worker.
pub const WORKER_COMMAND: &str = "plugin-worker";

/// The `henka` executable that runs workers: `$HENKA_WORKER_EXE` if set (the tests point it at
/// the binary cargo built), else this executable when it is `henka`, else the `henka` beside it
/// in its cargo profile folder (a test binary in `target/<profile>/deps`).
fn worker_executable() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("HENKA_WORKER_EXE") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let henka = format!("henka{}", std::env::consts::EXE_SUFFIX);
    if exe.file_name().is_some_and(|n| n == henka.as_str()) {
        return Ok(exe);
    }
    let mut dir = exe.parent();
    if dir.is_some_and(|d| d.file_name().is_some_and(|n| n == "deps" || n == "examples")) {
        dir = dir.and_then(Path::parent);
    }
    let beside = dir.map(|d| d.join(&henka)).filter(|p| p.is_file());
    beside.ok_or_else(|| {
        format!(
            "{} is not henka and has no henka beside it to run plugin workers (set HENKA_WORKER_EXE)",
            exe.display()
        )
    })
}
