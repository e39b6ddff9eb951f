//! The editor survives its plugin's crash: the status line says what happened, the next use
//! starts a fresh worker, and the game is replayed on it, every move kept. (A test binary of its
//! own: the misbehaving plugin's crash-once cue is a file in this process's home, which no other
//! test may trip over.)

mod common;

use std::path::Path;
use std::sync::Arc;

use henka::editor::{Controller, StartOptions};

#[test]
fn the_editor_restarts_a_crashed_worker_and_keeps_the_game() {
    let exe = std::env::current_exe().unwrap();
    let plugin = exe.parent().and_then(Path::parent).unwrap().join(format!(
        "{}henka_test_misbehaving{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(plugin.is_file(), "{} not found: run `cargo build --workspace` first", plugin.display());
    let start = StartOptions { open: Some("ogi".into()), ..Default::default() };
    let mut c = Controller::new(&start, None, Arc::new(|| {}));
    c.use_plugin(plugin);
    assert!(c.plays_plugin() && c.session().variant().info().meta.name == "Misbehaving", "{:?}", c.message());
    let parse = |c: &Controller, m: &str| c.session().variant().parse_move(c.session().game().position(), m).unwrap();
    for m in ["2c1c", "3a2a"] {
        assert!(!c.legal_moves().is_empty());
        c.play(parse(&c, m));
    }
    let game: Vec<String> = c.session().move_texts().to_vec();
    assert_eq!(game.len(), 2);

    // The next call into the plugin aborts its worker.
    let mv = parse(&c, "1c1a");
    std::fs::write(common::home().join("henka-test-crash-once"), "").unwrap();
    let before = c.session().game().position().clone();
    c.play(mv);
    let m = c.message().expect("a message").clone();
    assert!(m.error && m.text.contains("the worker crashed (signal 6, SIGABRT"), "{m:?}");
    assert_eq!(c.session().game().position(), &before, "the failed move changed nothing");

    // The next use restarts the plugin and replays the game on it.
    assert!(!c.legal_moves().is_empty());
    let m = c.message().expect("a message").clone();
    assert!(!m.error && m.text.contains("restarted after the failure; game kept (2 moves replayed)"), "{m:?}");
    assert_eq!(c.session().move_texts(), game);
    c.play(mv);
    assert_eq!(c.session().move_texts().len(), 3, "{:?}", c.message());
}
