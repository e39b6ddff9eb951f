//! The shared perft harness: every `tests/perft/<variant>.perft` data file against the bundled
//! script of that name. Counts above a node limit are skipped in ordinary test runs
//! (`HENKA_PERFT_LIMIT=0` runs everything; the release CI run raises the limit).

mod common;

use henka::catalog;
use henka_api::Variant;
use henka_api::variant::perft_suite::parse_suite;

fn limit() -> u64 {
    match std::env::var("HENKA_PERFT_LIMIT") {
        Ok(s) if s == "0" => u64::MAX,
        Ok(s) => s.parse().expect("HENKA_PERFT_LIMIT is a node count"),
        Err(_) => 30_000_000,
    }
}

fn run_suite(name: &str) {
    let entry = catalog::find(name, &[]).unwrap_or_else(|| {
        let example = format!("{}/../examples/{name}.rhai", env!("CARGO_MANIFEST_DIR"));
        catalog::find(&example, &[]).expect("a bundled variant or an example script")
    });
    let path = format!("{}/tests/perft/{name}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = parse_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path} has no cases");
    let v = entry.load().unwrap_or_else(|e| panic!("{e}"));
    let (mut checked, mut skipped) = (0, 0);
    for case in &cases {
        let pos = match &case.position {
            Some(p) => v.variant.parse_position(p).unwrap_or_else(|e| panic!("{path}:{} {}: {e}", case.line, case.id)),
            None => v.variant.start_position(),
        };
        assert!(!case.expected.is_empty(), "{path}:{} {} has no perft lines", case.line, case.id);
        for &(depth, nodes) in &case.expected {
            if nodes > limit() {
                skipped += 1;
                continue;
            }
            let got = v.variant.perft(&pos, depth).unwrap();
            assert_eq!(got, nodes, "{path}:{} {} depth {depth}", case.line, case.id);
            checked += 1;
        }
    }
    eprintln!("{name}: {checked} counts checked, {skipped} above the node limit skipped");
    assert!(checked > 0);
}

#[test]
fn shogi_suite() {
    run_suite("shogi");
}

#[test]
fn first_variant_example_suite() {
    run_suite("first-variant");
}

#[test]
fn okisaki_suite() {
    run_suite("okisaki");
}

#[test]
fn ogi_suite() {
    run_suite("ogi");
}

#[test]
fn taishin_suite() {
    run_suite("taishin");
}

#[test]
fn ladies_and_generals_suite() {
    run_suite("ladies-and-generals");
}

#[test]
fn ki_shogi_suite() {
    run_suite("ki-shogi");
}

/// Counts from Fairy-Stockfish (tools/fsf_perft.py): the first check ends the game, so every
/// position after a check has no legal move.
#[test]
fn check_shogi_suite() {
    run_suite("check-shogi");
}

/// Counts from Fairy-Stockfish (tools/fsf_perft.py): the try ends the game, and Chicks drop on
/// the last rank.
#[test]
fn dobutsu_suite() {
    run_suite("dobutsu");
}

/// Counts from Fairy-Stockfish (tools/fsf_perft.py): tiles that turn over after every move, drops
/// with either face anywhere (the dead cells included), pawn-drop mate allowed.
#[test]
fn kyoto_suite() {
    run_suite("kyoto");
}

#[test]
fn blast_shogi_suite() {
    run_suite("blast-shogi");
}

#[test]
fn crowd_shogi_suite() {
    run_suite("crowd-shogi");
}

#[test]
fn double_move_shogi_suite() {
    run_suite("double-move-shogi");
}

#[test]
fn push_shogi_suite() {
    run_suite("push-shogi");
}

#[test]
fn swap_shogi_suite() {
    run_suite("swap-shogi");
}

/// Counts from tools/chu_perft.py, an independent generator written from lishogi's rules (checked
/// against lishogi's own perft counts by its `--selftest`): Lions' double moves, igui and passes,
/// the Horned Falcon and Soaring Eagle, Chu's promotion rule, two royals, lion trading.
#[test]
fn chu_shogi_suite() {
    run_suite("chu-shogi");
}
