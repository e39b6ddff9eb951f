//! What the fuzzers feed Henka, as functions: each takes arbitrary bytes the way a user, a file or
//! a GUI could hand them over, and must answer with a value or an error, never a panic. The
//! cargo-fuzz targets in `fuzz/` call them, and `host/tests/fuzz_corpus.rs` replays the kept corpus
//! through them in every `cargo test`, so a fixed crash stays fixed.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use henka_api::{Game, Variant};

use crate::catalog::BUNDLED;

/// The bundled variants, loaded once per process.
fn variants() -> &'static [(&'static str, Arc<dyn Variant>)] {
    static LOADED: OnceLock<Vec<(&'static str, Arc<dyn Variant>)>> = OnceLock::new();
    LOADED.get_or_init(|| {
        BUNDLED
            .iter()
            .map(|(name, src)| {
                let loaded = crate::script::load_source(name, src).expect("a bundled script loads");
                let v: Arc<dyn Variant> = loaded.variant;
                (*name, v)
            })
            .collect()
    })
}

/// A position string, in every variant: read it; what reads must write back to a string that
/// reads as the same position, and must have legal moves that can be listed.
pub fn position(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for (name, v) in variants() {
        let Ok(pos) = v.parse_position(text) else { continue };
        let written = v.format_position(&pos);
        let again =
            v.parse_position(&written).unwrap_or_else(|e| panic!("{name}: {written:?} does not read back: {e}"));
        assert_eq!(v.format_position(&again), written, "{name}: writing is stable");
        let mut moves = Vec::new();
        let _ = v.legal_moves(&pos, &mut moves);
    }
}

/// Move text (every notation the variants read: USI-style, the long form, Ki Shogi's compass)
/// after a few moves from the start, in every variant: what reads is legal and writes back.
pub fn moves(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for (name, v) in variants() {
        let mut game = Game::new(v.start_position());
        for word in text.split_whitespace().take(8) {
            let Ok(mv) = v.parse_move(game.position(), word) else { break };
            let written = v.format_move(game.position(), mv);
            let again = v
                .parse_move(game.position(), &written)
                .unwrap_or_else(|e| panic!("{name}: {written:?} (from {word:?}) does not read back: {e}"));
            assert_eq!(again, mv, "{name}: {word:?} → {written:?}");
            if game.play(v.as_ref(), mv).is_err() {
                break;
            }
        }
    }
}

/// A game record file: read it, and replay it under its variant when it names a bundled one.
pub fn record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(rec) = crate::record::parse(text) else { return };
    let Some((_, v)) = variants().iter().find(|(name, _)| rec.variant.as_deref() == Some(name)) else { return };
    let _ = crate::record::replay(v.as_ref(), &rec);
}

/// A script: load it in the sandbox; a script that loads must give a variant whose start position
/// has listable moves.
pub fn script(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(loaded) = crate::script::load_source("fuzz.rhai", text) {
        let v = loaded.variant;
        let mut moves = Vec::new();
        let _ = v.legal_moves(&v.start_position(), &mut moves);
    }
}

/// USI input lines (split at `\n`), fed to one engine on shogi as `henka usi` feeds them: every
/// line is answered or refused with a message, never a panic, and the engine ends. The engine
/// knows only the bundled variants (each loaded once per process) and a small table; `go` is
/// bounded here so that no input can think for long:
/// - a search gets `nodes` [`USI_NODES`] appended (the last `nodes` wins) and `infinite` dropped,
///   and the harness waits for its `bestmove` before the next line, so the search really runs;
/// - `go perft N` counts at most [`USI_PERFT_DEPTH`] plies.
///
/// Everything else (clocks, `depth`, `movetime`, options, positions) reaches the engine as typed.
pub fn usi(data: &[u8]) {
    use crate::usi::engine::{Config, Engine, Flow};
    let config = Config { hash_mb: 1, max_hash_mb: 4, max_threads: 2 };
    let mut engine =
        Engine::new(None, Default::default(), Box::new(Bundled), config, Arc::new(|_: &str| {})).expect("shogi loads");
    for line in data.split(|&b| b == b'\n').take(USI_LINES) {
        let (line, bounded_go) = bounded_go(line);
        if engine.handle(&line) == Flow::Quit {
            break;
        }
        if bounded_go {
            engine.wait_for_search();
        }
    }
}

/// The most lines of one USI input that are read (each may start a search).
const USI_LINES: usize = 64;
/// The node limit every fuzzed `go` search gets.
pub const USI_NODES: u64 = 500;
/// The deepest fuzzed `go perft`.
pub const USI_PERFT_DEPTH: u32 = 2;

/// `line` with its `go` made bounded (see [`usi`]), and whether it is a `go` the harness must
/// wait for. Lines that are not UTF-8 or not `go` are passed through untouched.
fn bounded_go(line: &[u8]) -> (Vec<u8>, bool) {
    let Ok(text) = std::str::from_utf8(line) else { return (line.to_vec(), false) };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["go", "perft", depth, rest @ ..] => {
            let depth = match depth.parse::<u32>() {
                Ok(d) => d.min(USI_PERFT_DEPTH).to_string(),
                Err(_) => depth.to_string(),
            };
            (format!("go perft {depth} {}", rest.join(" ")).into_bytes(), true)
        }
        ["go", rest @ ..] => {
            let kept: Vec<&str> = rest.iter().copied().filter(|&w| w != "infinite").collect();
            (format!("go {} nodes {USI_NODES}", kept.join(" ")).into_bytes(), true)
        }
        _ => (line.to_vec(), false),
    }
}

/// The bundled variants for the USI fuzzer, each loaded once per set of rule options.
struct Bundled;

impl crate::usi::engine::Variants for Bundled {
    fn names(&self) -> Vec<String> {
        BUNDLED.iter().map(|(n, _)| n.to_string()).collect()
    }

    fn load(&self, name: &str, options: &crate::script::RuleOptions) -> anyhow::Result<crate::script::LoadedScript> {
        type Loaded = Result<crate::script::LoadedScript, String>;
        static LOADED: OnceLock<std::sync::Mutex<HashMap<(String, crate::script::RuleOptions), Loaded>>> =
            OnceLock::new();
        let mut loaded = LOADED.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        let key = (name.to_string(), options.clone());
        if !loaded.contains_key(&key) {
            let result = match BUNDLED.iter().find(|(n, _)| *n == name) {
                None => Err(format!("no variant called {name:?}")),
                Some((_, src)) => crate::script::load_source_with(name, src, options)
                    .map_err(|e| e.to_string())
                    .and_then(|l| crate::script::check_options(options, &l.options).map(|()| l)),
            };
            loaded.insert(key.clone(), result);
        }
        loaded[&key].clone().map_err(|e| anyhow::anyhow!(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usi_harness_bounds_every_go_and_passes_the_rest() {
        let bounded = |line: &[u8]| {
            let (l, wait) = bounded_go(line);
            (String::from_utf8_lossy(&l).split_whitespace().collect::<Vec<_>>().join(" "), wait)
        };
        assert_eq!(bounded(b"go infinite"), (format!("go nodes {USI_NODES}"), true));
        assert_eq!(
            bounded(b"go btime 5 nodes 99999999"),
            (format!("go btime 5 nodes 99999999 nodes {USI_NODES}"), true)
        );
        assert_eq!(bounded(b"go perft 9"), ("go perft 2".to_string(), true));
        assert_eq!(bounded(b"go perft x"), ("go perft x".to_string(), true), "a bad depth still reaches the engine");
        assert_eq!(bounded(b"position startpos"), ("position startpos".to_string(), false));
        assert_eq!(bounded(b"go \xff"), ("go \u{fffd}".to_string(), false), "not UTF-8: untouched");
    }
}
