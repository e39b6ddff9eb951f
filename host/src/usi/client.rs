//! The USI client: an external engine process as a player. Spawns the command line, does the
//! handshake (choosing the variant with `UCI_Variant` or `USI_Variant` when the engine offers
//! it, as Fairy-Stockfish does), sends `position` and `go`, and reads `bestmove` with a timeout, so a
//! hung engine loses the game instead of hanging Henka. Dropping the client ends the process.
//!
//! Engine options ride on the command line after semicolons: `fairy-stockfish;Skill Level=10`
//! sends `setoption name Skill Level value 10` right after the handshake, in the order given and
//! before the variant is chosen, so a `VariantPath` loads the variants that `UCI_Variant` then
//! names (the client asks the engine for its options again after setting any).

// The engine's lines and the caller's timeouts are not Henka's to trust: no indexing, slicing or
// arithmetic that could panic on them (issue #17).
#![deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::ai::Score;

/// The option that chooses the variant: `UCI_Variant` as Fairy-Stockfish 11 names it in USI
/// mode too, `USI_Variant` as its later releases do.
const VARIANT_OPTIONS: [&str; 2] = ["UCI_Variant", "USI_Variant"];

/// How long the engine may take to answer `usi` and `isready` (a variant may be loaded then).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// What a timeout too long for the clock becomes (a year: for ever, as far as a game goes).
const FOR_EVER: Duration = Duration::from_secs(365 * 24 * 3600);

/// The instant `after` from now, without overflowing the clock on a huge timeout.
fn deadline_in(after: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(after).or_else(|| now.checked_add(FOR_EVER)).unwrap_or(now)
}

/// A running USI engine.
#[derive(Debug)]
pub struct UsiClient {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine's `id name`, or the command line.
    name: String,
    /// The engine's `option` lines from the handshake.
    options: Vec<String>,
}

impl UsiClient {
    /// Starts `command_line` (split like a shell would, quotes included; `;Name=Value` options
    /// after it) and does the handshake; with `variant`, selects it through `UCI_Variant` if the
    /// engine has that option.
    pub fn start(command_line: &str, variant: Option<&str>) -> Result<UsiClient> {
        let (command_line, options) = split_options(command_line)?;
        let words =
            shlex::split(command_line).with_context(|| format!("cannot split the command line {command_line:?}"))?;
        let (program, args) = words.split_first().context("an empty engine command line")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start the engine {command_line:?}"))?;
        let stdin = child.stdin.take().context("the engine's standard input")?;
        let stdout = child.stdout.take().context("the engine's standard output")?;
        let (tx, lines) = channel();
        // A reader thread, so every wait below can time out; it ends when the process does.
        std::thread::Builder::new().name("usi-client-reader".into()).spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        })?;
        let mut client = UsiClient {
            command: command_line.to_string(),
            child,
            stdin,
            lines,
            name: command_line.to_string(),
            options: Vec::new(),
        };
        client.handshake(variant, &options)?;
        Ok(client)
    }

    /// The engine's name as it gave it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends `usi` and reads the engine's name and options up to `usiok`.
    fn identify(&mut self) -> Result<()> {
        self.send("usi")?;
        self.options.clear();
        let deadline = deadline_in(HANDSHAKE_TIMEOUT);
        loop {
            let line = self.next_line(deadline, "usiok")?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.trim().to_string();
            } else if line.starts_with("option ") {
                self.options.push(line);
            } else if line.trim() == "usiok" {
                return Ok(());
            }
        }
    }

    fn handshake(&mut self, variant: Option<&str>, options: &[(String, String)]) -> Result<()> {
        self.identify()?;
        for (name, value) in options {
            let offered = self.options.iter().any(|o| {
                o.strip_prefix("option name ")
                    .and_then(|rest| rest.strip_prefix(name.as_str()))
                    .is_some_and(|rest| rest.starts_with(" type "))
            });
            if !offered {
                bail!("the engine {} has no option {name:?}", self.name);
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        if !options.is_empty() {
            // An option may change the others (a `VariantPath` adds variants): ask again.
            self.identify()?;
        }
        if let Some(variant) = variant
            && let Some((option_name, option)) = self.options.iter().find_map(|o| {
                VARIANT_OPTIONS.iter().find(|name| o.starts_with(&format!("option name {name} "))).map(|n| (*n, o))
            })
        {
            let offered = option.split_whitespace().collect::<Vec<_>>();
            let known = offered.windows(2).any(|w| matches!(w, [var, name] if *var == "var" && *name == variant));
            if !known {
                bail!("the engine {} does not play {variant:?} ({option})", self.name);
            }
            self.send(&format!("setoption name {option_name} value {variant}"))?;
        }
        self.send("isready")?;
        let deadline = deadline_in(HANDSHAKE_TIMEOUT);
        while self.next_line(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self) -> Result<()> {
        self.send("usinewgame")
    }

    /// Sends `position <position>` and `go <go>`, and returns the move of `bestmove` (which may
    /// be `resign` or `win`). Fails if none comes within `timeout`.
    pub fn best_move(&mut self, position: &str, go: &str, timeout: Duration) -> Result<String> {
        Ok(self.analyse(position, go, timeout)?.0)
    }

    /// [`UsiClient::best_move`], with the last score the engine's `info` lines gave on the way
    /// (for the side to move), if any did.
    pub fn analyse(&mut self, position: &str, go: &str, timeout: Duration) -> Result<(String, Option<Score>)> {
        self.send(&format!("position {position}"))?;
        self.send(&format!("go {go}"))?;
        let deadline = deadline_in(timeout);
        let mut score = None;
        loop {
            let line = self.next_line(deadline, "bestmove")?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                let best = rest.split_whitespace().next().map(str::to_string).context("`bestmove` without a move")?;
                return Ok((best, score));
            }
            score = info_score(&line).or(score);
        }
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("the engine {} stopped reading its input", self.name))
    }

    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => bail!("the engine {} gave no `{waiting_for}` in time", self.name),
            Err(RecvTimeoutError::Disconnected) => {
                bail!("the engine {} ended while Henka waited for `{waiting_for}` ({})", self.name, self.command)
            }
        }
    }
}

/// The score of an `info` line: `score cp N` or `score mate N` (a bound is read as the score).
fn info_score(line: &str) -> Option<Score> {
    let mut words = line.split_whitespace();
    if words.next()? != "info" {
        return None;
    }
    words.find(|&w| w == "score")?;
    let kind = words.next()?;
    let n: i32 = words.next()?.parse().ok()?;
    match kind {
        "cp" => Some(Score::Cp(n)),
        "mate" => Some(Score::Mate(n)),
        _ => None,
    }
}

/// Splits `cmd;Name=Value;...` into the command line and its engine options.
pub fn split_options(spec: &str) -> Result<(&str, Vec<(String, String)>)> {
    let mut parts = spec.split(';');
    let command = parts.next().unwrap_or_default().trim();
    let options = parts
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let (name, value) =
                p.split_once('=').with_context(|| format!("an engine option is `Name=Value`, not {p:?}"))?;
            Ok((name.trim().to_string(), value.trim().to_string()))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((command, options))
}

impl Drop for UsiClient {
    /// Asks the engine to quit, and ends it if it has not within a moment.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let until = deadline_in(Duration::from_millis(500));
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_their_score_and_other_lines_none() {
        let cp = "info depth 8 seldepth 12 multipv 1 score cp -34 nodes 20000 nps 900000 pv 7g7f";
        assert_eq!(info_score(cp), Some(Score::Cp(-34)));
        assert_eq!(info_score("info depth 3 score mate 5 pv G*5b"), Some(Score::Mate(5)));
        assert_eq!(info_score("info depth 9 score cp 120 lowerbound nodes 1"), Some(Score::Cp(120)));
        assert_eq!(info_score("info string score cp is what we print"), None, "no number after the kind");
        assert_eq!(info_score("info depth 2 nodes 300"), None);
        assert_eq!(info_score("bestmove 7g7f score cp 5"), None);
    }
}
