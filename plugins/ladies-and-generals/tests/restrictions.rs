//! The four restrictions of docs/rules/ladies-and-generals.md §6 on constructed positions: an
//! action that would put a side over a limit is refused, one that reaches the limit is allowed, and
//! promoted pieces do not count. The Emperors stand at fz1 and fz9, out of everyone's way.

mod common;

use common::{at, coords, drops_of, endings, legal_from, position, targets, types, variant};
use henka_api::Side;

const EMPERORS: [(&str, &str); 2] = [("fz1", "K"), ("fz9", "k")];

fn with_emperors(pieces: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    EMPERORS.iter().chain(pieces).copied().collect()
}

#[test]
fn a_princeling_may_not_make_three_on_a_file() {
    let v = variant();
    // File c-v holds P on cv2 and cv5; the Princeling on bv3 may step to bv4, av4, bu4, bw4 and
    // cv4, and cv4 would be the file's third.
    let pos = position(&with_emperors(&[("cv2", "P"), ("cv5", "P"), ("bv3", "P")]), Side::First, &[]);
    let to = targets(&legal_from(&v, &pos, "bv3"));
    assert_eq!(to, ["bv4", "av4", "bu4", "bw4"].map(at).into());
    // Capturing there changes nothing.
    let pos = position(&with_emperors(&[("cv2", "P"), ("cv5", "P"), ("bv3", "P"), ("cv4", "r")]), Side::First, &[]);
    assert!(!targets(&legal_from(&v, &pos, "bv3")).contains(&at("cv4")));
    // With one Princeling on the file, cv4 makes two: allowed.
    let pos = position(&with_emperors(&[("cv2", "P"), ("bv3", "P")]), Side::First, &[]);
    assert!(targets(&legal_from(&v, &pos, "bv3")).contains(&at("cv4")));
    // A Prince does not count.
    let pos = position(&with_emperors(&[("cv2", "P"), ("cv5", "+P"), ("bv3", "P")]), Side::First, &[]);
    assert!(targets(&legal_from(&v, &pos, "bv3")).contains(&at("cv4")));
    // Entering the zone into a full file, it may go only as a Prince.
    let pos = position(&with_emperors(&[("cv2", "P"), ("cv5", "P"), ("bv6", "P")]), Side::First, &[]);
    assert_eq!(endings(&legal_from(&v, &pos, "bv6"), "cv7"), types(&["+P"]));
    assert_eq!(endings(&legal_from(&v, &pos, "bv6"), "bv7"), types(&["P", "+P"]));
}

#[test]
fn a_princeling_drop_may_not_make_three_on_a_file_nor_land_on_the_far_rank() {
    let v = variant();
    let pos = position(&with_emperors(&[("cv2", "P"), ("cv5", "P")]), Side::First, &[("P", 1)]);
    let drops = targets(&drops_of(&v, &pos, "P"));
    // 320 empty cells less file c-v's 7 and rank 9's 35, which share cv9.
    assert_eq!(drops.len(), 320 - (7 + 35 - 1));
    assert!(drops.iter().all(|&c| coords(c).2 != 8 && (coords(c).0, coords(c).1) != (2, 1)));
    // At the limit after the drop: one Princeling on the file.
    let pos = position(&with_emperors(&[("cv2", "P")]), Side::First, &[("P", 1)]);
    let drops = targets(&drops_of(&v, &pos, "P"));
    assert_eq!(drops.len(), 321 - 35);
    assert!(drops.contains(&at("cv5")));
    // The second player's far rank is rank 1.
    let pos = position(&with_emperors(&[]), Side::Second, &[("p", 1)]);
    let drops = targets(&drops_of(&v, &pos, "p"));
    assert_eq!(drops.len(), 322 - 35);
    assert!(drops.iter().all(|&c| coords(c).2 != 0));
}

#[test]
fn a_goldgeneral_may_not_switch_back_to_a_fifth_rookranker_on_a_file() {
    let v = variant();
    // Four Rookrankers on file b-w; the Goldgeneral on aw8 (in the zone) steps to bw8.
    let four = [("bw1", "L"), ("bw2", "L"), ("bw3", "L"), ("bw4", "L"), ("aw8", "+L")];
    let pos = position(&with_emperors(&four), Side::First, &[]);
    assert_eq!(endings(&legal_from(&v, &pos, "aw8"), "bw8"), types(&["+L"]));
    // Elsewhere it may switch back.
    assert_eq!(endings(&legal_from(&v, &pos, "aw8"), "av8"), types(&["+L", "L"]));
    // With three on the file, the fourth is allowed.
    let pos = position(&with_emperors(&four[1..]), Side::First, &[]);
    assert_eq!(endings(&legal_from(&v, &pos, "aw8"), "bw8"), types(&["+L", "L"]));
}

#[test]
fn a_rookranker_drop_may_not_make_five_on_a_file() {
    let v = variant();
    let four = [("bw1", "L"), ("bw2", "L"), ("bw3", "L"), ("bw4", "L")];
    let pos = position(&with_emperors(&four), Side::First, &[("L", 1)]);
    let drops = targets(&drops_of(&v, &pos, "L"));
    assert_eq!(drops.len(), 318 - 5, "every empty cell but file b-w's five");
    let pos = position(&with_emperors(&four[1..]), Side::First, &[("L", 1)]);
    assert_eq!(targets(&drops_of(&v, &pos, "L")).len(), 319);
}

/// The Bishop binding of a cell: the parity of filestack + level + rank.
fn bishop_binding(c: henka_api::Cell) -> i32 {
    let (f, l, r) = coords(c);
    (f + l + r) % 2
}

#[test]
fn a_bishop_drop_may_not_make_three_on_a_binding() {
    let v = variant();
    // bw2 = (1, 2, 1) and bx3 = (1, 3, 2): both even. The Emperors' cells are even too.
    assert_eq!(bishop_binding(at("bw2")), bishop_binding(at("bx3")));
    let pos = position(&with_emperors(&[("bw2", "B"), ("bx3", "B")]), Side::First, &[("B", 1)]);
    let drops = targets(&drops_of(&v, &pos, "B"));
    assert_eq!(drops.len(), 162, "the whole odd binding");
    assert!(drops.iter().all(|&c| bishop_binding(c) != bishop_binding(at("bw2"))));
    // At the limit: one Bishop on the binding; a Pope does not count.
    for other in ["+B", "b"] {
        let pos = position(&with_emperors(&[("bw2", "B"), ("bx3", other)]), Side::First, &[("B", 1)]);
        assert_eq!(targets(&drops_of(&v, &pos, "B")).len(), 320, "with {other} on bx3");
    }
}

/// The Unicorn binding of a cell: its parity triple, identified with its complement.
fn unicorn_binding(c: henka_api::Cell) -> (i32, i32, i32) {
    let (f, l, r) = coords(c);
    let triple = (f % 2, l % 2, r % 2);
    if triple.0 == 0 { triple } else { (1 - triple.0, 1 - triple.1, 1 - triple.2) }
}

#[test]
fn a_unicorn_drop_may_not_make_three_on_a_binding() {
    let v = variant();
    // au1 = (0, 0, 0) and bv2 = (1, 1, 1): a triple and its complement, one binding.
    assert_eq!(unicorn_binding(at("au1")), unicorn_binding(at("bv2")));
    let pos = position(&with_emperors(&[("au1", "U"), ("bv2", "U")]), Side::First, &[("U", 1)]);
    let drops = targets(&drops_of(&v, &pos, "U"));
    // The three other bindings, 81 cells each, less the Emperors' two cells in one of them.
    assert_eq!(drops.len(), 3 * 81 - 2);
    assert!(drops.iter().all(|&c| unicorn_binding(c) != unicorn_binding(at("au1"))));
    // au1 and bu1 = (1, 0, 0) are on different bindings: no limit is reached.
    let pos = position(&with_emperors(&[("au1", "U"), ("bu1", "U")]), Side::First, &[("U", 1)]);
    assert_eq!(targets(&drops_of(&v, &pos, "U")).len(), 320);
    // A Usurper does not count.
    let pos = position(&with_emperors(&[("au1", "U"), ("bv2", "+U")]), Side::First, &[("U", 1)]);
    assert_eq!(targets(&drops_of(&v, &pos, "U")).len(), 320);
}
