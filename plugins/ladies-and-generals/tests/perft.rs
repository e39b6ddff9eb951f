//! The perft suite `host/tests/perft/ladies-and-generals.perft`: every count up to a node limit (the rest are for
//! release runs and `henka verify`), and at depth 2 the engine's make/unmake perft with drops
//! counted per group equals copy-make perft through the `Variant` trait, which lists every drop.

mod common;

use common::variant;
use henka_api::Variant;
use henka_api::variant::generic_perft;
use henka_api::variant::perft_suite::parse_suite;

const SUITE: &str = include_str!("../../../host/tests/perft/ladies-and-generals.perft");

/// Counts above this are left to release runs.
const NODE_LIMIT: u64 = 60_000_000;

#[test]
fn the_suite_counts() {
    let v = variant();
    let cases = parse_suite(SUITE).unwrap();
    assert_eq!(cases.len(), 12);
    let mut checked = 0;
    for case in cases {
        let pos = match &case.position {
            Some(s) => v.parse_position(s).unwrap_or_else(|e| panic!("{}: {e}", case.id)),
            None => v.start_position(),
        };
        if let Some(s) = &case.position {
            assert_eq!(&v.format_position(&pos), s, "{} is written as the engine writes it", case.id);
        }
        for &(depth, nodes) in &case.expected {
            if nodes <= NODE_LIMIT {
                assert_eq!(v.perft(&pos, depth).unwrap(), nodes, "{} depth {depth}", case.id);
                checked += 1;
            }
        }
        if case.expected.iter().any(|&(d, n)| d == 2 && n <= NODE_LIMIT / 10) {
            assert_eq!(v.perft(&pos, 2).unwrap(), generic_perft(&v, &pos, 2).unwrap(), "{}", case.id);
        }
    }
    assert!(checked >= 20);
}
