//! Plugins run in worker processes, and nothing a plugin does takes the host down: crashes,
//! exits, hangs, garbage values and garbage frames all become error messages, and the next call
//! starts a fresh worker. Plugin files are used only from registered places, copied into a private
//! folder without following planted symlinks, and the AI's search runs inside the worker.
//!
//! The misbehaving plugin is host/tests/plugins/misbehaving (built by `cargo build --workspace`);
//! its cues are repeated below.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use henka::ai::{Limits, searcher_for};
use henka::plugin::protocol::{self, Hello, PROTOCOL_VERSION, Response, Welcome, WireMove};
use henka::plugin::{self, RemoteVariant, Timeouts};
use henka_api::{Move, Variant};

// The misbehaving plugin's cues (host/tests/plugins/misbehaving/src/lib.rs).
const ABORT: u32 = 101;
const SEGFAULT: u32 = 102;
const EXIT: u32 = 103;
const HANG: u32 = 104;
const PRINT: u32 = 105;
const HANG_MOVES: u32 = 301;

fn lib_name(name: &str) -> String {
    format!("{}{}{}", std::env::consts::DLL_PREFIX, name.replace('-', "_"), std::env::consts::DLL_SUFFIX)
}

/// A plugin built beside this test binary (fixtures are never found by name).
fn built(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(Path::parent).unwrap().join(lib_name(name));
    assert!(path.is_file(), "{} not found: run `cargo build --workspace` before the tests", path.display());
    path
}

fn misbehaving() -> Arc<RemoteVariant> {
    plugin::open(&built("henka-test-misbehaving")).unwrap()
}

/// A fresh folder for one test.
fn scratch(tag: &str) -> PathBuf {
    let dir = common::home().join(format!("isolation-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn henka(args: &[&str], configure: impl FnOnce(&mut Command)) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_henka"));
    c.args(args);
    configure(&mut c);
    c.output().unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn crashes_and_exits_become_errors_and_the_next_call_starts_a_fresh_worker() {
    let v = misbehaving();
    let start = v.start_position();
    let nodes = v.perft(&start, 3).unwrap();
    for (cue, how) in [
        (ABORT, "the worker crashed (signal 6, SIGABRT"),
        (SEGFAULT, "the worker crashed (signal 11, SIGSEGV"),
        (EXIT, "the worker exited with status 0"),
    ] {
        let err = v.perft(&start, cue).unwrap_err().to_string();
        assert!(err.starts_with("plugin henka-test-misbehaving (perft): "), "{err}");
        assert!(err.contains(how) && err.contains("started again on the next call"), "{err}");
        assert_eq!(v.perft(&start, 3).unwrap(), nodes, "a fresh worker answers after: {how}");
    }
}

#[test]
fn a_hung_worker_is_killed_at_its_time_limit() {
    // A copy of its own: the short limits below apply to this variant alone.
    let dir = scratch("hang");
    let file = dir.join(lib_name("henka-test-misbehaving"));
    std::fs::copy(built("henka-test-misbehaving"), &file).unwrap();
    let v = plugin::open(&file).unwrap();
    let limit = Duration::from_millis(500);
    v.set_timeouts(Timeouts { call: limit, long: limit, search_grace: limit });
    let start = v.start_position();
    let t = Instant::now();
    let err = v.perft(&start, HANG).unwrap_err().to_string();
    assert!(err.contains("the worker did not answer within") && err.contains("it was stopped"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_eq!(v.perft(&start, 1).unwrap(), v.perft(&start, 1).unwrap());

    // A search that hangs in the plugin overruns its time and grace, and is killed; the next
    // search gets a fresh worker.
    let v: Arc<dyn Variant> = v;
    let mut s = searcher_for(v.clone(), &[], 1);
    let stuck = v.parse_position(&format!("k2/3/KR1 b - {HANG_MOVES}")).unwrap();
    let t = Instant::now();
    let err = s.search(&stuck, &[], Limits::time(Duration::from_millis(200)), |_| {}).unwrap_err().to_string();
    assert!(err.contains("(search): the worker did not answer within"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(s.search(&start, &[], Limits { depth: Some(2), ..Limits::default() }, |_| {}).unwrap().is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_of_range_answers_are_refused_with_what_was_wrong() {
    let v = misbehaving();
    let at = |move_number: u32| v.parse_position(&format!("k2/3/KR1 b - {move_number}")).unwrap();
    let mut moves: Vec<Move> = Vec::new();
    for (cue, wrong) in [
        (201, "a move whose to cell is 99; the board has 9"),
        (202, "a move of piece type 9; the variant has 2 types"),
        (203, "a move of unknown kind 7"),
    ] {
        let err = v.legal_moves(&at(cue), &mut moves).unwrap_err().to_string();
        assert!(err.starts_with("plugin henka-test-misbehaving (legal_moves): ") && err.contains(wrong), "{err}");
    }
    let pos = at(204);
    v.legal_moves(&pos, &mut moves).unwrap();
    let err = v.play(&mut pos.clone(), moves[0]).unwrap_err().to_string();
    assert!(err.starts_with("plugin henka-test-misbehaving (play): returned a bad position"), "{err}");
    assert!(err.contains("cell 0 holds the word 78"), "{err}");
    // Nothing of it stuck: the same worker answers the start.
    v.legal_moves(&v.start_position(), &mut moves).unwrap();
    assert!(!moves.is_empty());
}

#[test]
fn a_plugin_that_prints_does_not_corrupt_the_protocol() {
    let v = misbehaving();
    let start = v.start_position();
    // Its junk (a frame header claiming 2 GB among it) goes to standard error, not the pipe.
    assert_eq!(v.perft(&start, PRINT).unwrap(), 7);
    assert!(v.perft(&start, 2).unwrap() > 0);
}

#[test]
fn corrupt_library_files_are_errors() {
    let dir = scratch("corrupt");
    let real = std::fs::read(built("ogi")).unwrap();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let random: Vec<u8> = (0..100_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    for (name, bytes) in [("truncated", &real[..1000]), ("random", &random[..]), ("empty", &[][..])] {
        let file = dir.join(lib_name(name));
        std::fs::write(&file, bytes).unwrap();
        let err = plugin::open(&file).unwrap_err().to_string();
        // The loader refuses it, or crashes on it (glibc maps a truncated library and faults
        // reading past its end: SIGBUS) — in the worker, which the host reports.
        let refused = err.contains("cannot load the library") || err.contains("the worker crashed (signal");
        assert!(refused && err.contains(&lib_name(name)), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stand-in for the worker executable that writes `frame` (raw bytes) and waits.
fn fake_worker(dir: &Path, tag: &str, frame: &[u8]) -> PathBuf {
    let data = dir.join(format!("{tag}.bin"));
    std::fs::write(&data, frame).unwrap();
    let script = dir.join(format!("{tag}.sh"));
    std::fs::write(&script, format!("#!/bin/sh\ncat '{}'\ncat >/dev/null\n", data.display())).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn garbage_frames_and_another_protocol_version_are_refused() {
    let dir = scratch("frames");
    let mut welcome_999 = Vec::new();
    protocol::write_frame(&mut welcome_999, &Welcome { protocol: 999, loaded: Err("never read".into()) }).unwrap();
    let mut bad_json = 5u32.to_le_bytes().to_vec();
    bad_json.extend_from_slice(b"hello");
    let cases: [(&str, Vec<u8>, &str); 3] = [
        ("long", vec![0xFF, 0xFF, 0xFF, 0x7F, b'{'], "over the limit"),
        ("json", bad_json, "does not decode"),
        ("version", welcome_999, "the worker speaks plugin protocol version 999, this henka version"),
    ];
    let fixture = built("henka-test-misbehaving");
    for (tag, frame, message) in cases {
        let worker = fake_worker(&dir, tag, &frame);
        let t = Instant::now();
        let o = henka(&["perft", fixture.to_str().unwrap(), "--depth", "1"], |c| {
            c.env("HENKA_WORKER_EXE", &worker);
        });
        assert_eq!(o.status.code(), Some(1), "{tag}: {o:?}");
        assert!(stderr(&o).contains(message), "{tag}: {}", stderr(&o));
        assert!(t.elapsed() < Duration::from_secs(10), "{tag}: {:?}", t.elapsed());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_host_checks_every_value_a_worker_answers() {
    // A stand-in worker with a sound handshake (the misbehaving plugin's own description) and
    // then one canned answer: the host's own checks must catch what a broken worker sends.
    let dir = scratch("values");
    let fixture = built("henka-test-misbehaving");
    let info = misbehaving().info().clone();
    let canned = |tag: &str, answer: Response| {
        let mut frames = Vec::new();
        protocol::write_frame(&mut frames, &Welcome { protocol: PROTOCOL_VERSION, loaded: Ok(info.clone()) }).unwrap();
        protocol::write_frame(&mut frames, &answer).unwrap();
        fake_worker(&dir, tag, &frames)
    };
    let no = henka_api::model::geometry::NO_CELL as u32;
    let cases = [
        (
            "cell",
            &["moves"][..],
            Response::Moves(vec![WireMove(0, 1, 0, 99, no)]),
            "answered a move whose to cell is 99",
        ),
        ("piece", &["moves"][..], Response::Moves(vec![WireMove(1, 5, no, 2, no)]), "answered a move of piece type 5"),
        ("kind", &["moves"][..], Response::Moves(vec![WireMove(9, 0, 0, 1, no)]), "answered a move of unknown kind 9"),
        (
            "turn",
            &["perft", "--depth", "1"][..],
            Response::Moves(Vec::new()),
            "the worker answered out of turn (moves)",
        ),
    ];
    for (tag, command, answer, message) in cases {
        let worker = canned(tag, answer);
        let args = [&command[..1], &[fixture.to_str().unwrap()], &command[1..]].concat();
        let o = henka(&args, |c| {
            c.env("HENKA_WORKER_EXE", &worker);
        });
        assert_eq!(o.status.code(), Some(1), "{tag}: {o:?}");
        assert!(
            stderr(&o).contains("plugin henka-test-misbehaving (") && stderr(&o).contains(message),
            "{tag}: {}",
            stderr(&o)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_worker_refuses_a_host_of_another_protocol_version() {
    let hello = Hello { protocol: 999, library: "unused".into(), name: "unused".into() };
    let mut frame = Vec::new();
    protocol::write_frame(&mut frame, &hello).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_henka"))
        .arg("plugin-worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&frame).unwrap();
    let o = child.wait_with_output().unwrap();
    let welcome: Welcome = protocol::read_frame(&mut o.stdout.as_slice()).unwrap();
    assert_eq!(welcome.protocol, PROTOCOL_VERSION);
    let refusal = welcome.loaded.unwrap_err();
    assert!(refusal.contains("the host speaks plugin protocol version 999"), "{refusal}");
    assert!(!o.status.success());
}

#[test]
fn copies_go_to_a_private_folder_and_a_planted_symlink_is_not_followed() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let copies = plugin::registry::copy_dir().unwrap();
    assert_eq!(std::fs::metadata(&copies).unwrap().mode() & 0o777, 0o700);

    let dir = scratch("symlink");
    let precious = dir.join("precious");
    std::fs::write(&precious, "keep me").unwrap();
    let file = dir.join(lib_name("planted"));
    std::fs::copy(built("ogi"), &file).unwrap();
    // Every name this process's next copies could take is a symlink to the precious file.
    let planted: Vec<PathBuf> = (0..2000)
        .map(|n| copies.join(format!("{}-{n}-{}", std::process::id(), lib_name("planted"))))
        .filter(|link| std::os::unix::fs::symlink(&precious, link).is_ok())
        .collect();
    let v = plugin::open(&file).unwrap();
    assert_eq!(v.info().meta.name, "Ogi");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    for link in &planted {
        assert!(std::fs::symlink_metadata(link).unwrap().file_type().is_symlink());
        std::fs::remove_file(link).unwrap();
    }

    // A copy folder that is a symlink, or that others may enter, is refused.
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    std::fs::create_dir_all(&runtime).unwrap();
    std::os::unix::fs::symlink(dir.join("elsewhere"), runtime.join("henka")).unwrap();
    let fixture = built("henka-test-misbehaving");
    let perft = |runtime: &Path| {
        henka(&["perft", fixture.to_str().unwrap(), "--depth", "1"], |c| {
            c.env("XDG_RUNTIME_DIR", runtime);
        })
    };
    let o = perft(&runtime);
    assert!(stderr(&o).contains("refusing to copy plugins into") && stderr(&o).contains("not a folder"), "{o:?}");
    std::fs::remove_file(runtime.join("henka")).unwrap();
    std::fs::create_dir(runtime.join("henka")).unwrap();
    std::fs::set_permissions(runtime.join("henka"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let o = perft(&runtime);
    assert!(stderr(&o).contains("others may enter it (mode 755"), "{o:?}");
    assert!(std::fs::read_dir(dir.join("elsewhere")).unwrap().next().is_none(), "nothing was written through the link");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plugin_in_the_working_folder_is_not_loaded() {
    let cwd = scratch("cwd");
    let name = "cwd-planted";
    for sub in ["", "plugins", "target/release", "target/debug"] {
        std::fs::create_dir_all(cwd.join(sub)).unwrap();
        std::fs::copy(built("ogi"), cwd.join(sub).join(lib_name(name))).unwrap();
    }
    std::fs::write(cwd.join(name), "a file named like the variant").unwrap();
    let o = henka(&["perft", name, "--engine", "plugin", "--depth", "1"], |c| {
        c.current_dir(&cwd);
    });
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(stderr(&o).contains(&format!("no plugin for {name:?}")), "{}", stderr(&o));
    let list = henka(&["list"], |c| {
        c.current_dir(&cwd);
    });
    assert!(!String::from_utf8_lossy(&list.stdout).contains(name));
    // The same file from a registered place is used.
    let o = henka(&["perft", name, "--engine", "plugin", "--depth", "1"], |c| {
        c.current_dir(&cwd).env("HENKA_PLUGINS", cwd.join("plugins"));
    });
    assert!(o.status.success(), "{o:?}");
    std::fs::remove_dir_all(&cwd).unwrap();
}

#[test]
fn plugin_add_registers_a_plugin_and_remove_takes_it_away() {
    let dir = scratch("add");
    let file = dir.join(lib_name("added-ogi"));
    std::fs::copy(built("ogi"), &file).unwrap();
    let o = henka(&["plugin", "add", file.to_str().unwrap()], |_| {});
    assert!(o.status.success(), "{o:?}");
    std::fs::remove_file(&file).unwrap();
    let user_dir = common::home().join(".local/share/henka/plugins");
    let list = String::from_utf8_lossy(&henka(&["plugin", "list"], |_| {}).stdout).into_owned();
    let line = list.lines().find(|l| l.starts_with("added-ogi ")).unwrap_or_else(|| panic!("{list}"));
    assert!(line.contains(&user_dir.display().to_string()), "{line}");
    let by_name = henka(&["perft", "added-ogi", "--engine", "plugin", "--depth", "2"], |_| {});
    let reference = henka(&["perft", "ogi", "--engine", "plugin", "--depth", "2"], |_| {});
    assert!(by_name.status.success() && by_name.stdout == reference.stdout, "{by_name:?}");

    assert!(henka(&["plugin", "remove", "added-ogi"], |_| {}).status.success());
    assert!(!henka(&["perft", "added-ogi", "--engine", "plugin", "--depth", "1"], |_| {}).status.success());

    // Something that is no plugin is not added.
    let junk = dir.join(lib_name("junk"));
    std::fs::write(&junk, "not a library").unwrap();
    let o = henka(&["plugin", "add", junk.to_str().unwrap()], |_| {});
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot load the library"), "{}", stderr(&o));
    assert!(!user_dir.join(lib_name("junk")).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_ai_searches_inside_the_worker_and_stops_when_asked() {
    let v: Arc<dyn Variant> = plugin::open(&built("shogi")).unwrap();
    let mut s = searcher_for(v.clone(), &[], 8);
    let start = v.start_position();
    let mut depths = Vec::new();
    let r = s.search(&start, &[], Limits { depth: Some(3), ..Limits::default() }, |r| depths.push(r.depth)).unwrap();
    let r = r.expect("shogi has moves at the start");
    assert_eq!(depths, [1, 2, 3], "every depth is reported back");
    let mut legal = Vec::new();
    v.legal_moves(&start, &mut legal).unwrap();
    assert!(legal.contains(&r.best()) && r.nodes > 0);

    // An unlimited search runs until the stop flag is set, then answers.
    let stop = s.stop_flag();
    stop.store(false, Ordering::SeqCst);
    let thinking = std::thread::spawn(move || s.search(&start, &[], Limits::default(), |_| {}));
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    stop.store(true, Ordering::SeqCst);
    let r = thinking.join().unwrap().unwrap().unwrap();
    assert!(t.elapsed() < Duration::from_secs(5) && legal.contains(&r.best()), "{:?}", t.elapsed());
}
