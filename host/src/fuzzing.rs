//! What the fuzzers feed Henka, as functions: each takes arbitrary bytes the way a user, a file or
//! a GUI could hand them over, and must answer with a value or an error, never a panic. The
//! cargo-fuzz targets in `fuzz/` call them, and `host/tests/fuzz_corpus.rs` replays the kept corpus
//! through them in every `cargo test`, so a fixed crash stays fixed.

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
