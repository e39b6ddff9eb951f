//! The editor's autosave survives a killed process: a child keeps saving a growing game and is
//! killed without warning; what it left must load and replay.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use henka::editor::autosave::Autosave;
use henka::record::{self, Record};
use henka_api::{Game, Variant};

const CHILD_DIR: &str = "HENKA_AUTOSAVE_TEST_DIR";

fn okisaki() -> std::sync::Arc<henka_api::kit::KitVariant> {
    let (_, src) = henka::catalog::BUNDLED.iter().find(|(n, _)| *n == "okisaki").unwrap();
    henka::script::load_source("okisaki", src).unwrap().variant
}

/// Run by the test below in a child process: plays random games, autosaving after every move,
/// until it is killed. Does nothing when run on its own.
#[test]
#[ignore = "the child half of the killed-process test"]
fn autosave_writer_child() {
    let Some(dir) = std::env::var_os(CHILD_DIR).map(PathBuf::from) else { return };
    let v = okisaki();
    let mut save = Autosave::new(dir.join("autosave.henka"));
    let mut rng = fastrand::Rng::with_seed(9);
    let mut moves = Vec::new();
    let mut saved = 0usize;
    loop {
        let mut game = Game::new(v.start_position());
        while game.outcome(v.as_ref()).unwrap().is_none() && game.moves().len() < 300 {
            v.legal_moves(game.position(), &mut moves).unwrap();
            game.play(v.as_ref(), moves[rng.usize(..moves.len())]).unwrap();
            save.save(&Record::of_game("okisaki", v.as_ref(), &game)).unwrap();
            saved += 1;
            if saved == 200 {
                std::fs::write(dir.join("ready"), "").unwrap();
            }
        }
    }
}

#[test]
fn an_autosave_written_by_a_killed_process_loads() {
    let dir = common::home().join("autosave-kill");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "autosave_writer_child", "--ignored", "--nocapture"])
        .env(CHILD_DIR, &dir)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !dir.join("ready").exists() {
        assert!(t.elapsed() < Duration::from_secs(60), "the child never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Mid-stream, without warning (SIGKILL).
    std::thread::sleep(Duration::from_millis(37));
    child.kill().unwrap();
    child.wait().unwrap();
    // Killed, the child could not remove its own stand-in home.
    let _ = std::fs::remove_dir_all(common::home_of(child.id()));

    let loaded = Autosave::new(dir.join("autosave.henka")).load().expect("an autosave exists");
    let rec = loaded.expect("it parses");
    assert_eq!(rec.variant.as_deref(), Some("okisaki"));
    let v = okisaki();
    let game = record::replay(v.as_ref(), &rec).expect("every saved move replays");
    assert!(!game.moves().is_empty());
    assert_eq!(v.format_position(game.start()), v.format_position(&v.start_position()));
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(leftovers.len() <= 3, "the autosave, the marker and at most one temporary: {leftovers:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unchanged_game_is_not_written_again_and_a_missing_file_is_no_error() {
    let dir = common::home().join("autosave-same");
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("autosave.henka");
    let mut save = Autosave::new(path.clone());
    assert!(save.load().is_none());
    let v = okisaki();
    let rec = Record::of_game("okisaki", v.as_ref(), &Game::new(v.start_position()));
    save.save(&rec).unwrap();
    std::fs::remove_file(&path).unwrap();
    save.save(&rec).unwrap();
    assert!(!path.exists(), "the same record is not written twice");
    std::fs::remove_dir_all(&dir).unwrap();
}
