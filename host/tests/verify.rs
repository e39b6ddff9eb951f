//! `henka verify` for every variant that has a plugin: the script and the plugin agree on every
//! perft count of the variant's suite (up to a node limit), on 10,000 random plies and on perft 1
//! and 2 of 60 random positions.
//!
//! The node limit is `HENKA_PERFT_LIMIT` as for the perft suites (`0` = no limit); ordinary debug
//! runs keep it small, CI's release run raises it. Needs the plugins built (`cargo build
//! --workspace`, or `--release` for a release test run).

mod common;

use henka::verify::{self, Options, Report, SUITES};
use henka::{catalog, plugin};
use henka_api::Variant;
use henka_api::variant::perft_suite::parse_suite;

fn perft_limit() -> u64 {
    match std::env::var("HENKA_PERFT_LIMIT") {
        Ok(s) if s == "0" => u64::MAX,
        Ok(s) => s.parse().expect("HENKA_PERFT_LIMIT is a node count"),
        Err(_) => 2_000_000,
    }
}

fn run(name: &str, script: &str) -> Report {
    let script = catalog::find(script, &[]).expect("a bundled variant or a script path").load().unwrap().variant;
    let file = plugin::find(name, &plugin::search_dirs())
        .unwrap_or_else(|| panic!("no plugin {name}: run `cargo build --workspace` before the tests"));
    let plugin = plugin::open(&file.path).unwrap();
    let (_, text) = SUITES.iter().find(|(n, _)| *n == name).expect("a bundled suite");
    let cases = parse_suite(text).unwrap();
    let opts =
        Options { perft_limit: perft_limit(), plies: 10_000, max_game_plies: 300, seed: 20_260_521, positions: 60 };
    let mut report = Report::default();
    let (s, p): (&dyn Variant, &dyn Variant) = (script.as_ref(), plugin.as_ref());
    verify::perft_suite(s, p, &cases, &opts, &mut report, |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut starts = vec![s.info().start.clone()];
    starts.extend(cases.iter().filter_map(|c| c.position.clone()));
    verify::playouts(s, p, &starts, &opts, &mut report, |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
    verify::random_positions(s, p, &opts, &mut report, |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(report.positions + report.positions_refused, 60);
    eprintln!("{name}: {report:?}");
    assert!(report.perft_counts >= cases.len(), "{name}: at least one count per case");
    assert_eq!(report.plies, 10_000);
    report
}

#[test]
fn shogi() {
    run("shogi", "shogi");
}

#[test]
fn okisaki() {
    run("okisaki", "okisaki");
}

#[test]
fn ogi() {
    run("ogi", "ogi");
}

/// A gallery design whose callback and effect are Rust hooks in the plugin: the same rule, compiled.
#[test]
fn swap_shogi() {
    run("swap-shogi", "swap-shogi");
}

/// The script's move filter, move effect and `game_end` as Rust hooks on the kit: promotion, lion
/// trading and bare king, compiled.
#[test]
fn chu_shogi() {
    run("chu-shogi", "chu-shogi");
}

#[test]
fn the_plugin_template() {
    run("first-variant", concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/first-variant.rhai"));
}

fn script_and_plugin(name: &str) -> (std::sync::Arc<dyn Variant>, std::sync::Arc<dyn Variant>) {
    let script = catalog::find(name, &[]).unwrap().load().unwrap().variant;
    let file = plugin::find(name, &plugin::search_dirs())
        .unwrap_or_else(|| panic!("no plugin {name}: run `cargo build --workspace` before the tests"));
    (script, plugin::open(&file.path).unwrap())
}

/// Ladies and Generals' plugin keeps one Emperor square per side: random positions with two
/// Emperors once reached it through the host's parser and counted differently from the script.
/// Now both parsers refuse them, and every position both read counts the same.
#[test]
fn random_ladies_and_generals_positions_agree_and_two_emperors_are_refused() {
    let (s, p) = script_and_plugin("ladies-and-generals");
    let opts = Options { perft_limit: 0, plies: 0, max_game_plies: 0, seed: 7, positions: 60 };
    let mut report = Report::default();
    verify::random_positions(s.as_ref(), p.as_ref(), &opts, &mut report, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.positions + report.positions_refused, 60);
    assert!(report.positions >= 20 && report.positions_refused >= 5, "{report:?}");
    let empty = "6/6/6/6/6/6/6/6/6";
    let two = format!("K5/6/6/6/6/6/6/6/K5|{empty}|{empty}|k5/6/6/6/6/6/6/6/6|{empty}|{empty} b - 1");
    for v in [&s, &p] {
        let e = v.parse_position(&two).unwrap_err().to_string();
        assert!(e.contains("Black has 2 royal pieces (Emperor, Emperor)") && e.contains("at most 1"), "{e}");
    }
}

/// Ki Shogi: a position with two Gyoku a side, or more cubes than the game has, is refused by
/// both parsers (the plugin follows at most 16 cubes, the kit 64).
#[test]
fn ki_shogi_positions_beyond_its_cubes_are_refused() {
    let (s, p) = script_and_plugin("ki-shogi");
    let two_gyoku = "b bGyoku@0,0;bGyoku@0,2;wGyoku@0,4 b:-,w:- -";
    let too_many = "b bGyoku@0,0;wGyoku@0,3 b:GGGGGHHHKK,w:- -";
    for v in [&s, &p] {
        let e = v.parse_position(two_gyoku).unwrap_err().to_string();
        assert!(e.contains("Black has 2 royal pieces"), "{e}");
        let e = v.parse_position(too_many).unwrap_err().to_string();
        assert!(e.contains("12 pieces on the field and in hand") && e.contains("has 6"), "{e}");
    }
    let opts = Options { perft_limit: 0, plies: 0, max_game_plies: 0, seed: 3, positions: 40 };
    let mut report = Report::default();
    verify::random_positions(s.as_ref(), p.as_ref(), &opts, &mut report, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.positions >= 10, "{report:?}");
}
