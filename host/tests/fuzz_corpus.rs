//! The fuzzers' kept corpus (`fuzz/corpus/<target>/`), replayed through the same functions the
//! cargo-fuzz targets call: every input that once crashed Henka, and the seeds, must now pass.

mod common;

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target);
    let mut inputs = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{} panics (input: {:?})", path.display(), String::from_utf8_lossy(&data));
        inputs += 1;
    }
    assert!(inputs > 0, "no corpus in {}", dir.display());
}

#[test]
fn position_strings() {
    replay("position", henka::fuzzing::position);
}

#[test]
fn moves() {
    replay("moves", henka::fuzzing::moves);
}

#[test]
fn game_records() {
    replay("record", henka::fuzzing::record);
}

#[test]
fn scripts() {
    replay("script", henka::fuzzing::script);
}

#[test]
fn usi_sessions() {
    replay("usi", henka::fuzzing::usi);
}
