//! `henka verify` for every variant that has a plugin: the script and the plugin agree on every
//! perft count of the variant's suite (up to a node limit) and on 10,000 random plies.
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
    let opts = Options { perft_limit: perft_limit(), plies: 10_000, max_game_plies: 300, seed: 20_260_521 };
    let mut report = Report::default();
    let (s, p): (&dyn Variant, &dyn Variant) = (script.as_ref(), plugin.as_ref());
    verify::perft_suite(s, p, &cases, &opts, &mut report, |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut starts = vec![s.info().start.clone()];
    starts.extend(cases.iter().filter_map(|c| c.position.clone()));
    verify::playouts(s, p, &starts, &opts, &mut report, |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
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

#[test]
fn the_plugin_template() {
    run("first-variant", concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/first-variant.rhai"));
}
