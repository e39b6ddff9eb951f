//! The worker: the child process a plugin runs in (`henka plugin-worker`, a hidden command).
//!
//! It loads the library with the in-process loader ([`super::in_process`]) — the only place a
//! plugin is ever mapped — and answers the host's [`Request`]s on its standard input and output.
//! Perft and the AI's search run here whole, on the in-process plugin, so they go at the plugin's
//! own speed; everything else is one short request per call.
//!
//! Standard output is the protocol's, and a plugin that prints (a stray `println!`) must not
//! corrupt it: before the library is loaded, the protocol takes a duplicate of the output, and
//! descriptor 1 is pointed at standard error, where whatever the plugin prints ends up.
//!
//! A reader thread takes the requests off the pipe so that a [`Request::Stop`] reaches a search
//! while it runs; when the host goes away (the pipe closes), the worker exits.

use std::io::{BufReader, BufWriter, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use henka_api::abi::outcome_to_raw;
use henka_api::{Position, Variant};

use super::in_process::{self, PluginVariant};
use super::protocol::{
    self, Hello, PROTOCOL_VERSION, Request, Response, SearchSetup, Welcome, WireMove, WireReport, position_words,
};
use crate::ai::eval::Terms;
use crate::ai::{Limits, PieceValues, Report, Score, Searcher};

/// Runs the worker until the host closes the pipe. Returns an error only for a broken handshake.
pub fn run() -> Result<()> {
    let mut out = BufWriter::new(protocol_output()?);
    let mut input = BufReader::new(std::io::stdin());
    let hello: Hello = protocol::read_frame(&mut input).context("reading the host's handshake")?;
    if hello.protocol != PROTOCOL_VERSION {
        let message = format!(
            "the host speaks plugin protocol version {}, this worker version {PROTOCOL_VERSION}: \
             run the worker from the same henka build",
            hello.protocol
        );
        protocol::write_frame(&mut out, &Welcome { protocol: PROTOCOL_VERSION, loaded: Err(message.clone()) })?;
        bail!(message);
    }
    let loaded = in_process::load(std::path::Path::new(&hello.library), hello.name);
    let variant = match loaded {
        Ok(v) => {
            protocol::write_frame(&mut out, &Welcome { protocol: PROTOCOL_VERSION, loaded: Ok(v.info().clone()) })?;
            Arc::new(v)
        }
        Err(e) => {
            protocol::write_frame(&mut out, &Welcome { protocol: PROTOCOL_VERSION, loaded: Err(e.to_string()) })?;
            return Ok(());
        }
    };

    let stop = Arc::new(AtomicBool::new(false));
    let (tx, requests) = mpsc::channel::<Request>();
    let reader_stop = stop.clone();
    std::thread::spawn(move || {
        while let Ok(request) = protocol::read_frame::<Request>(&mut input) {
            match request {
                Request::Stop => reader_stop.store(true, Ordering::SeqCst),
                other => {
                    // Cleared here, in the order the host sent them: a Stop that follows this
                    // search is never lost to the search starting late.
                    if matches!(other, Request::Search { .. }) {
                        reader_stop.store(false, Ordering::SeqCst);
                    }
                    if tx.send(other).is_err() {
                        break;
                    }
                }
            }
        }
        // The pipe closed or spoke garbage: the host is gone or broken; the channel closes.
    });

    let mut worker = Worker { variant, searcher: None, stop };
    for request in requests {
        let response = worker.answer(request, &mut out)?;
        protocol::write_frame(&mut out, &response)?;
    }
    Ok(())
}

/// The protocol's output: a duplicate of descriptor 1, which then points at standard error.
#[cfg(unix)]
fn protocol_output() -> Result<std::fs::File> {
    use std::os::fd::AsFd;
    let fd = std::io::stdout().as_fd().try_clone_to_owned().context("duplicating standard output")?;
    // SAFETY: dup2 on two descriptors this process has open; no Rust object owns descriptor 1
    // (std's `Stdout` writes to the number, and now reaches standard error).
    if unsafe { libc::dup2(libc::STDERR_FILENO, libc::STDOUT_FILENO) } < 0 {
        bail!("cannot redirect standard output: {}", std::io::Error::last_os_error());
    }
    Ok(std::fs::File::from(fd))
}

#[cfg(not(unix))]
fn protocol_output() -> Result<std::io::Stdout> {
    Ok(std::io::stdout())
}

struct Worker {
    variant: Arc<PluginVariant>,
    /// The AI, kept between searches (its table stays warm), with the setup it was built for.
    searcher: Option<(SearchSetup, Searcher)>,
    stop: Arc<AtomicBool>,
}

impl Worker {
    fn position(&self, words: &[u32]) -> Result<Position, String> {
        let v = &self.variant;
        Position::from_words(words, v.geometry().len(), v.info().pieces.len()).map_err(|e| format!("position: {e}"))
    }

    /// The answer to one request; `out` carries a search's progress frames.
    fn answer(&mut self, request: Request, out: &mut impl Write) -> Result<Response> {
        match request {
            Request::Search { position, history, limits, setup } => {
                let v = &self.variant;
                let history = protocol::history_from_wire(&history, v.info(), v.geometry());
                let limits = Limits {
                    time: limits.time_ms.map(Duration::from_millis),
                    soft_time: limits.soft_time_ms.map(Duration::from_millis),
                    depth: limits.depth,
                    nodes: limits.nodes,
                };
                match (self.position(&position), history) {
                    (Ok(pos), Ok(history)) => self.search(&pos, &history, limits, setup, out),
                    (Err(e), _) | (_, Err(e)) => Ok(Response::Error(e)),
                }
            }
            other => Ok(self.answer_rules(other).unwrap_or_else(Response::Error)),
        }
    }

    fn answer_rules(&self, request: Request) -> Result<Response, String> {
        let v = self.variant.as_ref();
        let err = |e: henka_api::RuleError| e.message;
        Ok(match request {
            Request::LegalMoves { position } => {
                let mut moves = Vec::new();
                v.legal_moves(&self.position(&position)?, &mut moves).map_err(err)?;
                Response::Moves(moves.into_iter().map(WireMove::from).collect())
            }
            Request::Play { position, mv } => {
                let mut pos = self.position(&position)?;
                let mv = mv.to_move(v.info(), v.geometry())?;
                v.play(&mut pos, mv).map_err(err)?;
                Response::Position(position_words(&pos))
            }
            Request::InCheck { position } => Response::InCheck(v.in_check(&self.position(&position)?)),
            Request::Outcome { position, history } => {
                let o = v
                    .outcome(
                        &self.position(&position)?,
                        &protocol::history_from_wire(&history, v.info(), v.geometry())?,
                    )
                    .map_err(err)?;
                let (raw, text) = outcome_to_raw(&o);
                Response::Outcome { ended: raw.ended, winner: raw.winner, reason: raw.reason, text }
            }
            Request::Perft { position, depth } => {
                Response::Nodes(v.perft(&self.position(&position)?, depth).map_err(err)?)
            }
            Request::Search { .. } | Request::Stop => return Err("not a rules request".into()),
        })
    }

    fn search(
        &mut self,
        pos: &Position,
        history: &[henka_api::HistoryEntry],
        limits: Limits,
        setup: SearchSetup,
        out: &mut impl Write,
    ) -> Result<Response> {
        let types = self.variant.info().pieces.len();
        if setup.board_values.len() != types || setup.hand_values.len() != types {
            return Ok(Response::Error(format!(
                "piece values for {} types; the variant has {types}",
                setup.board_values.len()
            )));
        }
        let same =
            |s: &SearchSetup| SearchSetup { new_game: setup.new_game, threads: setup.threads, ..s.clone() } == setup;
        if !self.searcher.as_ref().is_some_and(|(s, _)| same(s)) {
            let values = PieceValues::from_parts(setup.board_values.clone(), setup.hand_values.clone());
            let [tropism, royal_defenders, royal_attackers, advanced, mobility, king_danger] = setup.terms;
            let terms = Terms { tropism, royal_defenders, royal_attackers, advanced, mobility, king_danger };
            let mut s = Searcher::with_terms(self.variant.clone(), values, terms, setup.table_mb);
            s.share_stop_flag(self.stop.clone());
            self.searcher = Some((setup.clone(), s));
        }
        let Some((_, searcher)) = self.searcher.as_mut() else { unreachable!("set just above") };
        if setup.new_game {
            searcher.new_game();
        }
        searcher.set_threads(setup.threads);
        let mut failed = None;
        let result = searcher.search(pos, history, limits, |r| {
            if failed.is_none()
                && let Err(e) = protocol::write_frame(out, &Response::Progress(wire_report(r)))
            {
                failed = Some(e);
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        Ok(match result {
            Ok(r) => Response::Searched(r.as_ref().map(wire_report)),
            Err(e) => Response::Error(e.message),
        })
    }
}

fn wire_report(r: &Report) -> WireReport {
    WireReport {
        depth: r.depth,
        seldepth: r.seldepth,
        score: match r.score {
            Score::Cp(cp) => cp,
            Score::Mate(n) => n,
        },
        mate: matches!(r.score, Score::Mate(_)),
        nodes: r.nodes,
        elapsed_us: r.elapsed.as_micros() as u64,
        pv: r.pv.iter().map(|&m| WireMove::from(m)).collect(),
    }
}
