//! Broken and hostile scripts: each must give a clear message with file:line:col from
//! `henka check`, exit non-zero, never panic, and stop within the sandbox's time limit.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A valid minimal variant to build broken ones from.
const GOOD: &str = r#"let v = variant(#{ name: "T", board: [3, 3] });
v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
v.piece(#{ name: "Rook", token: "R", moves: "R" });
v.setup("k2/3/K1R b - 1");
v
"#;

/// Runs `henka check` on `src`; returns (exit ok, stderr, elapsed).
fn check(name: &str, src: &str) -> (bool, String, Duration, PathBuf) {
    let dir = common::home().join(format!("bad-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.rhai"));
    std::fs::write(&path, src).unwrap();
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_henka")).arg("check").arg(&path).output().unwrap();
    let elapsed = t.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{name}: the host panicked:\n{stderr}");
    eprintln!("{name}: {:?} → {}", elapsed, stderr.trim());
    (out.status.success(), stderr, elapsed, path)
}

fn assert_error_at(name: &str, src: &str, line: u32, words: &str) {
    let (ok, stderr, elapsed, path) = check(name, src);
    assert!(!ok, "{name}: a broken script must fail the check");
    let at = format!("{}:{line}:", path.display());
    assert!(stderr.contains(&at), "{name}: expected the error at {at}, got:\n{stderr}");
    assert!(stderr.contains(words), "{name}: expected {words:?} in:\n{stderr}");
    // The sandbox stops scripts after 0.9 s; allow for process start-up on a loaded machine.
    assert!(elapsed < Duration::from_secs(3), "{name}: took {elapsed:?}");
}

#[test]
fn the_good_script_passes() {
    let (ok, stderr, _, _) = check("good", GOOD);
    assert!(ok, "{stderr}");
}

#[test]
fn syntax_error() {
    assert_error_at("syntax", "let v = variant(#{ name: \"T\", board: [3, 3] );\nv\n", 1, "syntax error");
}

#[test]
fn unknown_piece_in_the_setup() {
    let src = GOOD.replace("K1R b", "K1X b");
    assert_error_at("setup", &src, 4, "unknown piece token \"X\"");
}

#[test]
fn bad_betza_in_a_piece() {
    let src = GOOD.replace("moves: \"R\"", "moves: \"fQx\"");
    assert_error_at("betza", &src, 3, "piece \"Rook\"");
}

#[test]
fn runtime_error_in_a_hook() {
    let src = GOOD.replace("v\n", "v.on(\"game_end\", |pos| {\n    let n = 0;\n    1 / n\n});\nv\n");
    assert_error_at("hook", &src, 7, "hook");
}

#[test]
fn endless_loop() {
    assert_error_at("loop", "let i = 0;\nloop { i += 1; }\n", 2, "ran");
}

#[test]
fn runaway_recursion() {
    // Rhai reports the overflow at the call that started the runaway recursion.
    assert_error_at("recursion", "fn deeper(n) { deeper(n + 1) }\ndeeper(0);\n", 2, "recursed too deeply");
}

#[test]
fn giant_array() {
    assert_error_at("array", "let a = [];\nloop { a.push(1); }\n", 2, "too large");
}

#[test]
fn giant_string() {
    assert_error_at("string", "let s = \"x\";\nloop { s += s; }\n", 2, "too large");
}

#[test]
fn script_that_returns_nothing() {
    assert_error_at("nothing", "let v = variant(#{ name: \"T\", board: [3, 3] });\n", 1, "must end with the variant");
}

#[test]
fn endless_loop_in_a_hook() {
    let src = GOOD.replace("v\n", "v.on(\"game_end\", |pos| {\n    loop { }\n});\nv\n");
    // An operation limit hit inside a closure has no position of its own: the error points at
    // the `v.on(...)` that registered the hook.
    assert_error_at("hook-loop", &src, 5, "ran");
}

#[test]
fn unknown_rule_option() {
    let src = GOOD.replace("v.setup", "v.rules(#{ stalemate: \"lose\" });\nv.setup");
    assert_error_at("option", &src, 4, "`stalemate` is one of \"loss\", \"draw\", \"win\", not \"lose\"");
}

#[test]
fn unknown_3d_direction_set() {
    let src = GOOD.replace("moves: \"R\"", "moves: #{ slide: [\"orthogonal\", \"diagonals\"] }");
    assert_error_at("direction", &src, 3, "unknown direction set \"diagonals\" (known: orthogonal, diagonal");
}

#[test]
fn a_limit_needs_its_scope() {
    let src = GOOD.replace("moves: \"R\" }", "moves: \"R\", limit: #{ most: 2 } }");
    assert_error_at("limit", &src, 3, "`limit` needs `per`");
    let src = GOOD.replace("moves: \"R\" }", "moves: \"R\", limit: #{ most: 0, per: \"file\" } }");
    assert_error_at("limit-zero", &src, 3, "`most` must be from 1 to 255");
}

#[test]
fn a_reversible_promotion_is_a_promotion() {
    // Only `promotes` takes `reversible`; on the piece itself it is an unknown key.
    let src = GOOD.replace("moves: \"R\" }", "moves: \"R\", reversible: true }");
    assert_error_at("reversible", &src, 3, "unknown key `reversible` in a piece");
}

#[test]
fn scripts_that_would_make_the_host_build_huge_tables_are_refused_at_their_line() {
    // A chain of 17 legs would unfold into 8¹⁷ path steps per cell.
    let legs = GOOD.replace(r#"moves: "R" }"#, r#"moves: "aaaaaaaaaaaaaaaaK" }"#);
    assert_error_at("legs", &legs, 3, "at most 4 legs");
    // Twenty queens on the largest board: 1.3 million cells × types.
    let mut queens = String::from("let v = variant(#{ name: \"Q\", board: [255, 255] });\n");
    queens.push_str("v.piece(#{ name: \"King\", token: \"K\", moves: \"K\", royal: true });\n");
    for i in 0..20 {
        queens.push_str(&format!("v.piece(#{{ name: \"Queen {i}\", token: \"Q{i}\", moves: \"Q\" }});\n"));
    }
    queens.push_str("v.setup(\"k254/253/K254 b - 1\");\nv\n");
    assert_error_at("queens", &queens, 1, "move tables allow");
    // A script over the size limit is refused before it is parsed.
    let huge = format!("{GOOD}\n// {}\n", "x".repeat(henka::script::MAX_SCRIPT_BYTES));
    assert_error_at("huge", &huge, 1, "a script may be at most 256 KB");
}
