//! Plugins through the real loader, in their workers: the bundled fast paths answer like their
//! scripts, a plugin from another ABI version is refused with a message, a panicking plugin is
//! contained, a rebuilt file is picked up by fresh workers, and `henka list` shows plugins beside
//! scripts. (Crashes, hangs and garbage: plugin_isolation.rs.)
//!
//! The plugins are the workspace's cdylib members, which `cargo test` does not build: run
//! `cargo build --workspace` first (as `.ci/run` does).

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use henka::plugin::{self, PluginError};
use henka_api::{Move, Variant};

fn plugin_path(name: &str) -> PathBuf {
    plugin::find(name, &plugin::search_dirs())
        .unwrap_or_else(|| panic!("plugin {name} not found: run `cargo build --workspace` before the tests"))
        .path
}

/// A test fixture plugin, by path: fixtures are built beside this test binary's profile and never
/// found by name.
fn fixture_path(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let file = format!("{}{}{}", std::env::consts::DLL_PREFIX, name.replace('-', "_"), std::env::consts::DLL_SUFFIX);
    let path = profile.join(file);
    assert!(path.is_file(), "{} not found: run `cargo build --workspace` before the tests", path.display());
    path
}

fn henka(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_henka")).args(args).output().unwrap()
}

#[test]
fn a_plugin_of_another_abi_version_is_refused_with_a_message() {
    let path = fixture_path("henka-test-wrong-abi");
    let err = plugin::open(&path).unwrap_err();
    assert!(matches!(err, PluginError::Refused { .. }), "{err}");
    let msg = err.to_string();
    let (found, expected) = (henka_api::abi::ABI_VERSION + 1, henka_api::abi::ABI_VERSION);
    assert!(msg.contains(&format!("plugin ABI version {found}, this henka speaks version {expected}")), "{msg}");
    assert!(msg.contains("refused") && msg.contains("rebuild the plugin"), "{msg}");

    let o = henka(&["perft", path.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("plugin ABI version"), "{o:?}");
}

#[test]
fn a_panicking_plugin_is_reported_and_the_host_goes_on() {
    let path = fixture_path("henka-test-panicky");
    let v = plugin::open(&path).unwrap();
    let start = v.start_position();
    for depth in [1, 3] {
        let err = v.perft(&start, depth).unwrap_err();
        assert!(err.message.contains("panicked") && err.message.contains(&format!("perft {depth} is broken")), "{err}");
    }
    // The same plugin still answers everything else.
    let mut moves: Vec<Move> = Vec::new();
    v.legal_moves(&start, &mut moves).unwrap();
    assert_eq!(moves.len(), 3);
    let mut pos = start.clone();
    v.play(&mut pos, moves[0]).unwrap();
    assert_ne!(pos, start);

    // A whole process survives it too: the command fails with the message, not a crash.
    let o = henka(&["perft", path.to_str().unwrap(), "--engine", "plugin", "--depth", "2"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("error: plugin henka-test-panicky (perft): panicked"));
}

#[test]
fn a_rebuilt_plugin_gets_fresh_workers() {
    let dir = common::home().join("reload");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}probe{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX));
    std::fs::copy(plugin_path("first-variant"), &file).unwrap();
    let first = plugin::open(&file).unwrap();
    assert_eq!(first.info().meta.name, "Minishogi");
    assert!(Arc::ptr_eq(&first, &plugin::open(&file).unwrap()), "an unchanged file is not loaded again");

    // "Rebuild" the plugin: other code at the same path, which new workers load.
    std::fs::copy(plugin_path("ogi"), &file).unwrap();
    let second = plugin::open(&file).unwrap();
    assert_eq!(second.info().meta.name, "Ogi");
    // The first variant's workers keep the bytes they started on, even a fresh one.
    assert_eq!(first.perft(&first.start_position(), 2).unwrap(), 181);
    let busy = first.clone();
    let long = std::thread::spawn(move || busy.perft(&busy.start_position(), 4));
    assert_eq!(first.perft(&first.start_position(), 2).unwrap(), 181);
    long.join().unwrap().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_that_is_no_library_is_an_error_not_a_crash() {
    let dir = common::home().join("not-a-lib");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}fake{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX));
    std::fs::write(&file, "not a library").unwrap();
    let err = plugin::open(&file).unwrap_err();
    assert!(err.to_string().contains("cannot load the library"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn list_shows_plugins_beside_scripts() {
    let o = henka(&["list"]);
    let out = String::from_utf8_lossy(&o.stdout);
    for name in ["shogi", "okisaki", "ogi"] {
        let line = out.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap_or_else(|| panic!("{out}"));
        assert!(line.contains("script") && line.contains("plugin"), "{line}");
    }
    assert!(!out.contains("henka-test"), "the test fixtures are not listed to users: {out}");
}

#[test]
fn the_engines_answer_alike_on_the_command_line() {
    let commands: [&[&str]; 2] =
        [&["moves", "okisaki", "--moves", "3h3g", "6c6d"], &["perft", "ogi", "--depth", "3", "--divide"]];
    for args in commands {
        let script = henka(args);
        let plugin = henka(&[args, &["--engine", "plugin"]].concat());
        assert!(script.status.success() && plugin.status.success(), "{plugin:?}");
        assert_eq!(script.stdout, plugin.stdout);
    }
}
