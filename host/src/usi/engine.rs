//! `henka usi`: the AI as a USI engine, for any variant, so shogi GUIs and tournament managers
//! can play it. The main thread reads commands from standard input; a search runs on its own
//! thread and prints `bestmove` when done, so `stop` and `quit` are read while it thinks.
//!
//! Positions and moves are Henka's own strings (extended SFEN, USI-style moves), which are plain
//! USI for standard shogi. The variant is the command-line argument or `setoption name
//! UCI_Variant value <name>`, as Fairy-Stockfish does; `usi` lists the choices.

// USI lines come from any GUI, clock values included: no indexing, slicing or arithmetic that
// could panic on them (issue #17).
#![deny(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use henka_api::{Game, Move, Position, Side, Variant};

use crate::ai::{Limits, Report, Score, Searcher, searcher_for};
use crate::catalog;

/// The variant when neither the command line nor `setoption` names one.
const DEFAULT_VARIANT: &str = "shogi";
/// The longest a search may be given, whatever the clock says (a day: clock arithmetic on huge
/// times must not overflow).
const MAX_THINK: Duration = Duration::from_secs(24 * 3600);
/// Kept back from the clock for the time the answer takes to reach the GUI.
const SAFETY_MARGIN: Duration = Duration::from_millis(20);

/// Where the engine's lines go. Both the command thread and the search thread print, so it is
/// shared; `henka usi` writes to standard output ([`stdout`]), the fuzzer discards them.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Writes each line to standard output at once.
pub fn stdout() -> Output {
    Arc::new(|line: &str| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    })
}

/// Where the engine finds variants by name (`UCI_Variant`): the catalog on disk for `henka usi`;
/// the fuzzer's knows the bundled scripts alone and loads each once, so a fuzz input neither
/// reads the machine's files nor spends its time compiling scripts.
pub trait Variants: Send {
    /// The names `usi` lists.
    fn names(&self) -> Vec<String>;
    fn load(&self, name: &str, options: &crate::script::RuleOptions) -> Result<crate::script::LoadedScript>;
}

/// The catalog: the user's variants folder, `./scripts`, the bundled scripts.
#[derive(Debug)]
pub struct Catalog;

impl Variants for Catalog {
    fn names(&self) -> Vec<String> {
        catalog::discover(&catalog::search_dirs()).into_iter().map(|e| e.name).collect()
    }

    fn load(&self, name: &str, options: &crate::script::RuleOptions) -> Result<crate::script::LoadedScript> {
        let entry =
            catalog::find(name, &catalog::search_dirs()).with_context(|| format!("no variant called {name:?}"))?;
        entry.load_with(options).map_err(|e| anyhow!("{e}"))
    }
}

/// What the engine takes from `setoption`: `henka usi` gives what a machine can ([`Config::USI`]);
/// the fuzzer keeps tables and threads small, since it starts thousands of engines a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The transposition table before any `USI_Hash`, in megabytes.
    pub hash_mb: usize,
    /// The largest `USI_Hash` advertised, and the most taken.
    pub max_hash_mb: usize,
    /// The most `Threads` advertised and taken.
    pub max_threads: usize,
}

impl Config {
    pub const USI: Config = Config { hash_mb: 64, max_hash_mb: 4096, max_threads: 64 };
}

/// Whether the engine reads on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The engine's state between commands: [`Engine::handle`] takes one input line at a time.
pub struct Engine {
    out: Output,
    variants: Box<dyn Variants>,
    config: Config,
    variant_name: String,
    variant: Option<Arc<dyn Variant>>,
    /// The rule options chosen (`--option` or `setoption`), and those the variant declares.
    rules: crate::script::RuleOptions,
    declared: Vec<crate::script::DeclaredOption>,
    /// Present unless a search has it.
    searcher: Option<Searcher>,
    hash_mb: usize,
    /// Search threads (`setoption name Threads`): Lazy SMP helpers beyond the first.
    threads: usize,
    game: Option<Game>,
    search: Option<JoinHandle<Searcher>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("variant", &self.variant_name)
            .field("searching", &self.search.is_some())
            .finish()
    }
}

/// Runs the engine on standard input and output until `quit` or the end of input.
pub fn run(variant: Option<String>) -> Result<()> {
    let mut engine = Engine::new(variant, catalog::chosen_options(), Box::new(Catalog), Config::USI, stdout())?;
    for line in std::io::stdin().lock().split(b'\n') {
        if engine.handle(&line?) == Flow::Quit {
            break;
        }
    }
    engine.finish_search();
    Ok(())
}

/// A running search stops, and prints its `bestmove`, when the engine goes away.
impl Drop for Engine {
    fn drop(&mut self) {
        self.finish_search();
    }
}

impl Engine {
    /// An engine on `variant` (the default when `None`) with the rule options `rules`; fails, with
    /// a message, on a variant that does not load.
    pub fn new(
        variant: Option<String>,
        rules: crate::script::RuleOptions,
        variants: Box<dyn Variants>,
        config: Config,
        out: Output,
    ) -> Result<Engine> {
        let mut engine = Engine {
            out,
            variants,
            config,
            variant_name: variant.unwrap_or_else(|| DEFAULT_VARIANT.to_string()),
            variant: None,
            rules,
            declared: Vec::new(),
            searcher: None,
            hash_mb: config.hash_mb,
            threads: 1,
            game: None,
            search: None,
            stop: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        };
        engine.load()?;
        Ok(engine)
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    /// One input line, as bytes: a line that is not UTF-8 is refused with a message, and the
    /// engine reads on. Errors are answered as `info string error: …`; only `quit` ends.
    pub fn handle(&mut self, line: &[u8]) -> Flow {
        let Ok(line) = std::str::from_utf8(line) else {
            self.say("info string error: the line is not UTF-8 text; ignored");
            return Flow::Continue;
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else { return Flow::Continue };
        let result = match command {
            "usi" => {
                self.identify();
                Ok(())
            }
            "isready" => self.load().map(|()| self.say("readyok")),
            "setoption" => self.set_option(args),
            "usinewgame" => self.searcher_mut().map(|s| s.new_game()),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" | "gameover" => {
                self.finish_search();
                Ok(())
            }
            // Henka never ponders, so a ponder hit changes nothing.
            "ponderhit" => Ok(()),
            "quit" => return Flow::Quit,
            other => Err(anyhow!("unknown command {other:?}")),
        };
        if let Err(e) = result {
            self.say(&format!("info string error: {e:#}"));
        }
        Flow::Continue
    }

    /// Waits until the running search, if any, ends by itself and prints its `bestmove` (the
    /// fuzzer's bounded `go`; a `go infinite` would wait for ever).
    pub fn wait_for_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.searcher = Some(joined(handle));
        }
    }

    fn identify(&self) {
        self.say(&format!("id name Henka {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Henka authors");
        let vars: String = self.variants.names().iter().map(|n| format!(" var {n}")).collect();
        self.say(&format!("option name UCI_Variant type combo default {}{vars}", self.variant_name));
        let Config { hash_mb, max_hash_mb, max_threads } = self.config;
        self.say(&format!("option name USI_Hash type spin default {hash_mb} min 1 max {max_hash_mb}"));
        self.say(&format!("option name Threads type spin default 1 min 1 max {max_threads}"));
        for o in &self.declared {
            match o.choices.as_slice() {
                [] => self.say(&format!("option name {} type string default {}", o.name, o.value)),
                choices => {
                    let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                    self.say(&format!("option name {} type combo default {}{vars}", o.name, o.value));
                }
            }
        }
        self.say("usiok");
    }

    /// Loads the chosen variant unless it is loaded.
    fn load(&mut self) -> Result<()> {
        if self.variant.is_some() {
            return Ok(());
        }
        self.finish_search();
        let loaded = self.variants.load(&self.variant_name, &self.rules)?;
        self.declared = loaded.options.clone();
        let variant: Arc<dyn Variant> = loaded.variant;
        let mut searcher = searcher_for(variant.clone(), &loaded.piece_values, self.hash_mb);
        searcher.set_threads(self.threads);
        self.searcher = Some(searcher);
        self.game = Some(Game::new(variant.start_position()));
        self.variant = Some(variant);
        Ok(())
    }

    fn searcher_mut(&mut self) -> Result<&mut Searcher> {
        self.finish_search();
        self.load()?;
        Ok(self.searcher.as_mut().expect("loaded"))
    }

    /// `setoption name <name> value <value>`; names may have spaces.
    fn set_option(&mut self, args: &[&str]) -> Result<()> {
        let text = args.join(" ");
        let rest = text.strip_prefix("name ").context("expected `setoption name <name> value <value>`")?;
        let (name, value) = rest.split_once(" value ").map_or((rest, ""), |(n, v)| (n, v));
        match name.trim() {
            "UCI_Variant" => {
                let value = value.trim();
                if value != self.variant_name || self.variant.is_none() {
                    self.finish_search();
                    self.variant_name = value.to_string();
                    self.rules.clear();
                    self.variant = None;
                    self.load()?;
                }
                Ok(())
            }
            "USI_Hash" => {
                let asked: u64 = value.trim().parse().context("USI_Hash is a number of megabytes")?;
                // Clamped to what `usi` advertised, as GUIs expect of a spin option.
                let most = self.config.max_hash_mb;
                self.hash_mb = usize::try_from(asked).unwrap_or(usize::MAX).clamp(1, most);
                if u64::try_from(self.hash_mb).ok() != Some(asked) {
                    self.say(&format!("info string USI_Hash {asked} is outside 1..{most}; using {}", self.hash_mb));
                }
                let mb = self.hash_mb;
                self.searcher_mut()?.resize_table(mb);
                Ok(())
            }
            "Threads" => {
                self.threads =
                    value.trim().parse::<usize>().context("Threads is a number")?.clamp(1, self.config.max_threads);
                let n = self.threads;
                self.searcher_mut()?.set_threads(n);
                Ok(())
            }
            // Options GUIs send to every engine; Henka has nothing to set for them.
            "USI_Ponder" => Ok(()),
            // The variant's rule options, as `henka --option` sets them.
            other if self.declared.iter().any(|o| o.name == other) => {
                let previous = self.rules.insert(other.to_string(), value.trim().to_string());
                self.finish_search();
                self.variant = None;
                if let Err(e) = self.load() {
                    match previous {
                        Some(p) => self.rules.insert(other.to_string(), p),
                        None => self.rules.remove(other),
                    };
                    self.load()?;
                    return Err(e);
                }
                Ok(())
            }
            other => bail!("unknown option {other:?}"),
        }
    }

    /// `position startpos|sfen <position…> [moves <move>…]`.
    fn position(&mut self, args: &[&str]) -> Result<()> {
        self.finish_search();
        self.load()?;
        // A `position` that fails leaves no position: `go` must not answer for the previous one.
        self.game = None;
        let v = self.variant.clone().expect("loaded");
        let moves_at = args.iter().position(|&a| a == "moves").unwrap_or(args.len());
        let start = match args.first() {
            Some(&"startpos") => v.start_position(),
            Some(&"sfen") => {
                let text = args.get(1..moves_at).unwrap_or_default().join(" ");
                v.parse_position(&text).with_context(|| format!("position {text:?}"))?
            }
            _ => bail!("expected `position startpos` or `position sfen <position>`"),
        };
        let mut game = Game::new(start);
        for m in args.iter().skip(moves_at.saturating_add(1)) {
            game.play_str(v.as_ref(), m).with_context(|| format!("move {m}"))?;
        }
        self.game = Some(game);
        Ok(())
    }

    /// `go …`: a search on its own thread, or `go perft N` at once.
    fn go(&mut self, args: &[&str]) -> Result<()> {
        self.finish_search();
        self.load()?;
        let v = self.variant.clone().expect("loaded");
        let game = self.game.clone().context("no position: the last `position` command failed")?;
        let mut searcher = self.searcher.take().expect("loaded");
        // The searcher's own flag: `stop` sets it, and the search sees it at once.
        self.stop = searcher.stop_flag();
        self.stop.store(false, Ordering::Relaxed);
        let stop = self.stop.clone();
        if args.first() == Some(&"perft") {
            let depth: u32 = match args.get(1).context("`go perft` needs a depth").and_then(|d| Ok(d.parse()?)) {
                Ok(d) => d,
                Err(e) => {
                    self.searcher = Some(searcher);
                    return Err(e);
                }
            };
            // On the search thread, so `stop` and `quit` are read while it counts.
            let out = self.out.clone();
            self.search = Some(std::thread::Builder::new().name("usi-perft".into()).spawn(move || {
                if let Err(e) = perft(v.as_ref(), game.position(), depth, &stop, out.as_ref()) {
                    out(&format!("info string error: {e}"));
                }
                searcher
            })?);
            return Ok(());
        }
        let go = match GoParams::parse(args) {
            Ok(go) => go,
            Err(e) => {
                self.searcher = Some(searcher);
                return Err(e);
            }
        };
        let limits = go.limits(game.position().side_to_move());
        let say = self.out.clone();
        self.search = Some(std::thread::Builder::new().name("usi-search".into()).spawn(move || {
            let pos = game.position().clone();
            let result = searcher.search(&pos, game.history(), limits, |r| say(&info_line(v.as_ref(), &pos, r)));
            // `go infinite` answers only when told to stop.
            while go.infinite && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            match result {
                Ok(Some(r)) => say(&format!("bestmove {}", v.format_move_token(&pos, r.best()))),
                Ok(None) => say("bestmove resign"),
                Err(e) => {
                    say(&format!("info string error: {e}"));
                    say("bestmove resign");
                }
            }
            searcher
        })?);
        Ok(())
    }

    /// Stops a running search (it prints its `bestmove`) and takes the searcher back.
    pub fn finish_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.stop.store(true, Ordering::Relaxed);
            self.searcher = Some(joined(handle));
        }
    }
}

/// The searcher back from a finished search thread. A panic there is raised again here: the
/// engine without its searcher could only fail later and less clearly (and the fuzzer's corpus
/// replay sees the panic on the thread it watches).
fn joined(handle: JoinHandle<Searcher>) -> Searcher {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// `info …` for one completed depth, the line in the variant's move notation.
fn info_line(v: &dyn Variant, root: &Position, r: &Report) -> String {
    let score = match r.score {
        Score::Cp(cp) => format!("cp {cp}"),
        // USI counts mates in plies.
        Score::Mate(n) if n > 0 => format!("mate {}", n.saturating_mul(2).saturating_sub(1)),
        Score::Mate(n) => format!("mate -{}", n.saturating_mul(-2)),
    };
    let mut pos = root.clone();
    let mut pv = Vec::new();
    for &mv in &r.pv {
        pv.push(v.format_move_token(&pos, mv));
        if v.play(&mut pos, mv).is_err() {
            break;
        }
    }
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {} pv {}",
        r.depth,
        r.seldepth,
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// `go perft N`: each move with its count, then the total. `stop` ends it after the move being
/// counted (then no total is printed).
fn perft(
    v: &dyn Variant,
    pos: &Position,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
    say: &(dyn Fn(&str) + Send + Sync),
) -> Result<()> {
    let mut moves: Vec<Move> = Vec::new();
    v.legal_moves(pos, &mut moves)?;
    let mut lines: Vec<(String, u64)> = Vec::new();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for &mv in &moves {
            if stop.load(Ordering::Relaxed) {
                say("info string perft stopped");
                return Ok(());
            }
            let mut child = pos.clone();
            v.play(&mut child, mv)?;
            let n = v.perft(&child, depth.saturating_sub(1))?;
            total = n.saturating_add(total);
            lines.push((v.format_move_token(pos, mv), n));
        }
    }
    lines.sort();
    for (m, n) in lines {
        say(&format!("{m}: {n}"));
    }
    say("");
    say(&format!("Nodes searched: {total}"));
    Ok(())
}

/// The parameters of `go`. Times are in milliseconds, as USI sends them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: u64,
    pub winc: u64,
    pub byoyomi: u64,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

impl GoParams {
    pub fn parse(args: &[&str]) -> Result<GoParams> {
        let mut g = GoParams::default();
        let mut it = args.iter();
        while let Some(&word) = it.next() {
            let mut number = || -> Result<u64> {
                let v = it.next().with_context(|| format!("`{word}` needs a number"))?;
                v.parse().with_context(|| format!("`{word} {v}`"))
            };
            match word {
                "btime" => g.btime = Some(number()?),
                "wtime" => g.wtime = Some(number()?),
                "binc" => g.binc = number()?,
                "winc" => g.winc = number()?,
                "byoyomi" => g.byoyomi = number()?,
                "movetime" => g.movetime = Some(number()?),
                "depth" => g.depth = Some(number()?.min(u32::MAX as u64) as u32),
                "nodes" => g.nodes = Some(number()?),
                "infinite" => g.infinite = true,
                // Henka does not ponder: a ponder search is an ordinary one.
                "ponder" => {}
                other => bail!("unknown `go` parameter {other:?}"),
            }
        }
        Ok(g)
    }

    /// The search limits for `side` to move: a fixed time (`movetime`, or byoyomi alone), all
    /// of it used, or a share of the clock (a fortieth of what is left, plus the increment or
    /// byoyomi) that never runs the clock out and starts no iteration after three fifths of it
    /// (or after the byoyomi, where that is more).
    pub fn limits(&self, side: Side) -> Limits {
        let ms = Duration::from_millis;
        let (left, inc) = match side {
            Side::First => (self.btime, self.binc),
            Side::Second => (self.wtime, self.winc),
        };
        let fixed = |t: u64| Some(ms(t).saturating_sub(SAFETY_MARGIN).max(ms(10)));
        let (time, soft_time) = if self.infinite {
            (None, None)
        } else if let Some(t) = self.movetime {
            (fixed(t), None)
        } else if let Some(left) = left {
            let share = (left / 40).saturating_add(inc).saturating_add(self.byoyomi);
            let most = left.saturating_add(self.byoyomi).saturating_sub(SAFETY_MARGIN.as_millis() as u64);
            let time = ms(share.min(most)).saturating_sub(ms(10)).max(ms(10));
            // Byoyomi is lost if unused: only what the share takes from the clock is kept back.
            let three_fifths = time.saturating_mul(3).checked_div(5).unwrap_or(time);
            let soft = three_fifths.max(ms(self.byoyomi).saturating_sub(SAFETY_MARGIN));
            (Some(time), (soft < time).then_some(soft))
        } else if self.byoyomi > 0 {
            (fixed(self.byoyomi), None)
        } else {
            (None, None)
        };
        Limits {
            time: time.map(|t| t.min(MAX_THINK)),
            soft_time: soft_time.map(|t| t.min(MAX_THINK)),
            depth: self.depth,
            nodes: self.nodes,
        }
    }
}

// Tests index and count what they have just built: a panic there is a failing test, not a
// parser reached by input.
#[cfg(test)]
#[allow(clippy::string_slice, clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn clock_shares_never_exceed_what_is_left() {
        let g = GoParams::parse(&["btime", "60000", "wtime", "1000", "byoyomi", "0"]).unwrap();
        assert_eq!(g.limits(Side::First).time, Some(Duration::from_millis(1490)));
        assert_eq!(g.limits(Side::First).soft_time, Some(Duration::from_millis(894)), "a clock keeps time back");
        let white = g.limits(Side::Second).time.unwrap();
        assert!(white < Duration::from_millis(1000), "{white:?}");
        let g = GoParams::parse(&["btime", "0", "wtime", "0", "byoyomi", "3000"]).unwrap();
        assert_eq!(g.limits(Side::First).time, Some(Duration::from_millis(2970)));
        assert_eq!(g.limits(Side::First).soft_time, None, "byoyomi alone is used in full");
        // A fixed time is lost if unused: the search may start iterations until its end.
        let g = GoParams::parse(&["movetime", "200"]).unwrap();
        assert_eq!(g.limits(Side::First), Limits { time: Some(Duration::from_millis(180)), ..Limits::default() });
        let g = GoParams::parse(&["infinite"]).unwrap();
        assert_eq!(g.limits(Side::First), Limits::default());
        let g = GoParams::parse(&["depth", "3"]).unwrap();
        assert_eq!(g.limits(Side::First), Limits { depth: Some(3), ..Limits::default() });
        assert!(GoParams::parse(&["btime"]).is_err());
        // Clocks from a broken GUI neither overflow nor make the search think for ever.
        let huge = u64::MAX.to_string();
        let g = GoParams::parse(&["btime", &huge, "binc", &huge, "byoyomi", &huge, "depth", &huge]).unwrap();
        assert_eq!(g.limits(Side::First).time, Some(MAX_THINK));
        assert_eq!(g.limits(Side::First).depth, Some(u32::MAX));
    }
}
