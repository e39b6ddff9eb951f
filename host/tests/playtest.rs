//! `henka playtest` end to end: its statistics find an advantage that is known to be there, a
//! run played in shards and merged is exactly the run played at once, and the JSON says it all.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn henka(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_henka")).args(args).output().unwrap()
}

fn ok(o: Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn folder(tag: &str) -> PathBuf {
    let dir = common::home().join(format!("playtest-{tag}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn minishogi() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/first-variant.rhai").display().to_string()
}

/// Minishogi where White starts without its Rook and Bishop: a decisive edge for the first player.
fn rook_and_bishop_odds(dir: &Path) -> String {
    let text = std::fs::read_to_string(minishogi()).unwrap();
    let odds = text.replace(r#"v.setup("rbsgk/4p/5/P4/KGSBR b - 1");"#, r#"v.setup("2sgk/4p/5/P4/KGSBR b - 1");"#);
    assert_ne!(odds, text, "the example's setup line moved: update this test");
    let path = dir.join("rook-and-bishop-odds.rhai");
    std::fs::write(&path, odds).unwrap();
    path.display().to_string()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Minishogi (A) against rook-and-bishop odds (B), seed 3, 1,000 nodes a move: the report's text
/// and its JSON.
fn odds_comparison(tag: &str, extra: &[&str]) -> (String, Value) {
    let dir = folder(tag);
    let out = dir.join("ab.json");
    let (a, b) = (minishogi(), rook_and_bishop_odds(&dir));
    let args =
        [&["playtest", a.as_str(), "--versus", b.as_str(), "--nodes", "1000", "--seed", "3"][..], extra].concat();
    let text = ok(henka(&[args.as_slice(), &["--json", out.to_str().unwrap()]].concat()));
    (text, json(&out))
}

#[test]
fn a_decisive_material_edge_shows_as_a_significant_first_player_advantage() {
    let (text, file) = odds_comparison("odds", &["--games", "30"]);
    let b = &file["reports"][1];
    assert!(b["first"]["low"].as_f64().unwrap() > 0.5, "{text}");
    assert!(b["fairness_p_value"].as_f64().unwrap() < 0.05, "{text}");
    let c = &file["comparison"]["difference"];
    assert!(c["significant"].as_bool().unwrap() && c["difference"].as_f64().unwrap() > 0.0, "{text}");
    assert!(text.contains("the first player is favoured") && text.contains("significant"), "{text}");
    // Every report part is there.
    for key in ["draw_rate", "end_reasons", "length", "pieces", "material", "diversity", "fit"] {
        assert!(!b[key].is_null(), "{key} missing");
    }
    assert_eq!(file["runs"][1]["games"].as_array().unwrap().len(), 30);
}

#[test]
fn shards_merged_are_the_run_played_at_once() {
    let dir = folder("shards");
    let script = minishogi();
    let common = ["--games", "6", "--nodes", "200", "--seed", "11", "--threads", "2"];
    let run = |extra: &[&str], file: &str| {
        let path = dir.join(file);
        let args = [&["playtest", script.as_str()][..], &common, extra, &["--json", path.to_str().unwrap()]].concat();
        ok(henka(&args));
        path
    };
    let whole = run(&[], "whole.json");
    let parts = [run(&["--shard", "0/2"], "part0.json"), run(&["--shard", "1/2"], "part1.json")];
    assert_eq!(json(&parts[0])["runs"][0]["games"].as_array().unwrap().len(), 3);
    let merged = dir.join("merged.json");
    let text = ok(henka(&[
        "playtest",
        "merge",
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        "--json",
        merged.to_str().unwrap(),
    ]));
    assert!(text.contains("first-variant: 6 games"), "{text}");
    let (whole, merged) = (json(&whole), json(&merged));
    assert_eq!(whole["runs"][0]["games"], merged["runs"][0]["games"], "the same games, game for game");
    assert_eq!(whole["reports"], merged["reports"], "so the same report");

    // The same shard twice is refused, and so is another run's shard.
    let twice = henka(&["playtest", "merge", parts[0].to_str().unwrap(), parts[0].to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&twice.stderr).contains("in two of the files"));
    let other = run(&["--shard", "1/2", "--opening-plies", "2"], "other.json");
    let mixed = henka(&["playtest", "merge", parts[0].to_str().unwrap(), other.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("not parts of one run"));
}

#[test]
fn playtest_saves_records_that_replay() {
    let dir = folder("records");
    let records = dir.join("games");
    ok(henka(&[
        "playtest",
        &minishogi(),
        "--games",
        "2",
        "--nodes",
        "100",
        "--seed",
        "5",
        "--records",
        records.to_str().unwrap(),
    ]));
    for n in ["game-0001.henka", "game-0002.henka"] {
        let out = ok(henka(&["replay", &minishogi(), records.join(n).to_str().unwrap()]));
        assert!(out.contains("wins") || out.contains("draw"), "{out}");
    }
}

#[test]
fn a_comparison_stops_early_once_the_answer_is_clear() {
    let (text, file) = odds_comparison("sprt", &["--games", "200", "--threads", "2", "--stop-early", "0.25"]);
    assert_eq!(file["comparison"]["verdict"], "higher", "{text}");
    let played = file["runs"][1]["games"].as_array().unwrap().len();
    assert!(played < 200 && played.is_multiple_of(4), "stopped after {played} games, in batches of four");
    assert!(text.contains("sequential test: B raises the first player's score"), "{text}");
}
