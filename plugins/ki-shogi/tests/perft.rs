//! The plugin against the script's perft counts: `host/tests/perft/ki-shogi.perft` (default
//! options) and `host/tests/perft/ki-shogi-ki.perft` (the Ki cube), computed by
//! `scripts/ki-shogi.rhai` on the rules kit. Every count of both files runs here (the crate is
//! built with opt-level 3 in tests, so the 12-million-node counts take about a second).

use henka_api::Variant;
use henka_api::variant::perft_suite::parse_suite;
use ki_shogi::KiShogi;

fn run_suite(v: &KiShogi, text: &str) {
    let mut ran = 0;
    for case in parse_suite(text).unwrap() {
        let pos = match &case.position {
            Some(p) => v.parse_position(p).unwrap_or_else(|e| panic!("{}: {e}", case.id)),
            None => v.start_position(),
        };
        for &(depth, nodes) in &case.expected {
            assert_eq!(v.perft(&pos, depth).unwrap(), nodes, "{} depth {depth}", case.id);
            ran += 1;
        }
    }
    assert!(ran > 0, "the suite has counts to run");
}

#[test]
fn the_scripts_suite_with_default_options() {
    run_suite(&KiShogi::new(), include_str!("../../../host/tests/perft/ki-shogi.perft"));
}

#[test]
fn the_scripts_suite_with_the_ki_cube() {
    run_suite(&KiShogi::with_ki_cube(), include_str!("../../../host/tests/perft/ki-shogi-ki.perft"));
}
