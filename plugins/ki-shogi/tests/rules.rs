//! The seed's claims and the stranding rules as tests (docs/rules/ki-shogi.md, "rules §N"): the
//! move-1 reply list (rules §13), the seed's example game to Black's loss (rules §14, the record
//! the host replays), self-stranding, grace and recovery on constructed positions (rules §9), and
//! bad input.
//!
//! Positions are the rules' §15 strings; on the 15×15 field (x, y) runs from Black's lower left,
//! so the centre is `7,7`.

mod common;

use std::collections::BTreeSet;

use common::{after, legal, play, written};
use henka_api::{EndReason, HistoryEntry, Side, Variant};
use ki_shogi::KiShogi;

#[test]
fn the_seed_move_one_list_exactly() {
    let v = KiShogi::new();
    let mut pos = v.start_position();
    play(&v, &mut pos, &["*Gyoku", "*Gyoku NNE"]);
    assert_eq!(v.format_position(&pos), "b bGyoku@7,7;wGyoku@8,9 b:HK,w:HK - 3");
    // The seed: "Black now has the following responses" — 3 Gyoku moves and 62 drops.
    let seed: [(&str, &str); 13] = [
        ("Gyoku", "E W NW"),
        ("Hi", "NW W SW S"),
        ("Cho", "NW W SW S SE E"),
        ("Han", "NW W SW S"),
        ("Chuu", "NW W SW S SE E"),
        ("Ou", "NW W SW S SE E"),
        ("Shu", "NW W SW S"),
        ("Kaku", "NW SW S SE E"),
        ("Myou", "NW W SW S SE E"),
        ("Hon", "NW SW S SE E"),
        ("Ga", "NW W SW S SE E"),
        ("Zou", "NW W SW S"),
        ("Ken", "NW W SW S SE E"),
    ];
    let expected: BTreeSet<String> = seed
        .iter()
        .flat_map(|&(face, dirs)| {
            dirs.split(' ').map(move |d| if face == "Gyoku" { format!("Gyoku {d}") } else { format!("*{face} {d}") })
        })
        .collect();
    assert_eq!(expected.iter().filter(|m| m.starts_with('*')).count(), 62);
    assert_eq!(written(&v, &pos), expected);
    assert_eq!(v.perft(&pos, 1).unwrap(), 65);
}

/// The moves of the host's record of the seed's game (`host/tests/data/ki-shogi-seed-game.henka`):
/// every quoted string after the `moves` line.
fn seed_game_moves() -> Vec<&'static str> {
    let text = include_str!("../../../host/tests/data/ki-shogi-seed-game.henka");
    let moves = &text[text.find("\nmoves").expect("a moves section")..];
    moves.split('"').skip(1).step_by(2).collect()
}

#[test]
fn the_seed_example_game_replays_and_black_cannot_move() {
    let v = KiShogi::new();
    let moves = seed_game_moves();
    assert_eq!(moves.len(), 30);
    let mut pos = v.start_position();
    let mut history = Vec::new();
    for (ply, s) in moves.iter().enumerate() {
        assert_eq!(v.outcome(&pos, &history).unwrap(), None, "the game goes on before ply {}", ply + 1);
        history.push(HistoryEntry::new(pos.repetition_hash(), v.in_check(&pos)));
        play(&v, &mut pos, &[s]);
    }
    // The seed's remarks along the way: both Hi cubes end with White, both Kaku cubes with Black.
    assert_eq!(v.format_position(&pos), "b bGyoku@8,6;bKen@8,5;bKen@9,7;wGyoku@6,8;wHi@6,7;wHi@7,9 b:-,w:- - 31");
    assert!(legal(&v, &pos).is_empty(), "Black has no legal move after 15... *Hi S");
    let o = v.outcome(&pos, &history).unwrap().expect("the game is over");
    // Not in check: "no legal move" (the seed: there is no stalemate, it loses).
    assert_eq!((o.winner, o.reason), (Some(Side::Second), EndReason::Stalemate));
}

#[test]
fn a_gyoku_move_that_strands_its_own_piece_loses_it_at_once() {
    // The seed's notes on move three: Black's Hi on 8,6 is next to its Gyoku only. Gyoku W and
    // NW leave it alone: it goes straight to White's hand (White then holds both Hi cubes); Gyoku
    // E keeps it.
    let v = KiShogi::new();
    let mut pos = v.start_position();
    play(&v, &mut pos, &["*Gyoku", "*Gyoku NNE", "*Cho E", "*Myou E", "Cho(Hi) S+", "Myou(Kaku) SW+"]);
    assert!(v.in_check(&pos));
    let replies = written(&v, &pos);
    assert!(replies.contains("Hi(Chuu) x Kaku+"), "{replies:?}");
    for (m, white_hi_cubes) in [("Gyoku W", 2), ("Gyoku NW", 2), ("Gyoku E", 1)] {
        let mut next = pos.clone();
        play(&v, &mut next, &[m]);
        assert_eq!(next.hand(Side::Second, 1), white_hi_cubes, "{m}");
        assert_eq!(v.format_position(&next).contains("bHi@8,6"), white_hi_cubes == 1, "{m}");
    }
}

/// Black's Gyoku steps E from 7,7 to 8,7, away from White's Cho on 6,6, which only Black's Gyoku
/// supported: the Cho is stranded by the opponent, so it is put under grace.
const BEFORE_GRACE: &str = "b bGyoku@7,7;bKaku@8,6;wGyoku@7,9;wCho@6,6 b:H,w:K - 20";
const UNDER_GRACE: &str = "w bGyoku@8,7;bKaku@8,6;wGyoku@7,9;wCho@6,6 b:H,w:K 6,6 21";

#[test]
fn a_piece_stranded_by_the_opponent_gets_a_grace_turn() {
    let v = KiShogi::new();
    assert_eq!(after(&v, BEFORE_GRACE, &["Gyoku E"]), UNDER_GRACE);
}

#[test]
fn grace_ends_in_recovery_or_capture() {
    let v = KiShogi::new();
    // Recovery: the Cho steps next to Black's Gyoku (flipping to Hi); the mark is gone.
    assert_eq!(after(&v, UNDER_GRACE, &["Cho(Hi) E"]), "b bGyoku@8,7;bKaku@8,6;wGyoku@7,9;wHi@7,6 b:H,w:K - 22");
    // Anything else: the Cho is lost at the end of White's turn, to Black's hand (a Hi cube).
    assert_eq!(after(&v, UNDER_GRACE, &["Gyoku W"]), "b bGyoku@8,7;bKaku@8,6;wGyoku@6,9 b:HH,w:K - 22");
    assert_eq!(after(&v, UNDER_GRACE, &["*Myou SW"]), "b bGyoku@8,7;bKaku@8,6;wGyoku@7,9;wMyou@6,8 b:HH,w:- - 22");
    // Under grace the Cho moves as usual, and must end supported: E (to 7,6, next to Black's
    // Gyoku) is its only step that does.
    let pos = v.parse_position(UNDER_GRACE).unwrap();
    let cho: BTreeSet<String> = written(&v, &pos).into_iter().filter(|m| m.starts_with("Cho")).collect();
    assert_eq!(cho, BTreeSet::from(["Cho(Hi) E".to_string()]));
}

#[test]
fn without_the_ki_cube_a_move_must_end_supported() {
    // The Hi on 6,6 may only end next to a Gyoku: N1 to N4 (on 6,9 the Cho it becomes checks
    // White's Gyoku beside it) and E1, E2; W and S lead away from both Gyoku.
    let v = KiShogi::new();
    let pos = v.parse_position("b bGyoku@7,7;bHi@6,6;wGyoku@7,9 b:-,w:- -").unwrap();
    let hi: BTreeSet<String> = written(&v, &pos).into_iter().filter(|m| m.starts_with("Hi(")).collect();
    let expected = ["Hi(Cho) N", "Hi(Cho) N2", "Hi(Cho) N3+", "Hi(Cho) N4", "Hi(Cho) E", "Hi(Cho) E2"];
    assert_eq!(hi, expected.iter().map(|s| s.to_string()).collect());
}

#[test]
fn the_ki_cube_allows_sacrifice_moves_that_lose_the_piece() {
    let v = KiShogi::with_ki_cube();
    let pos = "b bGyoku@7,7;bHi@6,6;wGyoku@7,9 b:-,w:- -";
    let p = v.parse_position(pos).unwrap();
    assert_eq!(written(&v, &p).iter().filter(|m| m.starts_with("Hi(")).count(), 28);
    assert_eq!(after(&v, pos, &["Hi(Cho) S5"]), "w bGyoku@7,7;wGyoku@7,9 b:-,w:H - 2");
}

#[test]
fn the_ki_examples_of_the_seed() {
    let v = KiShogi::with_ki_cube();
    // 1: White strands its own Ki, which alone held Black's Hi: the Ki is lost at once, the Hi
    // gets a grace turn.
    let one = "w bGyoku@7,7;bHi@8,12;wGyoku@7,9;wKi@9,11 b:-,w:- -";
    assert_eq!(after(&v, one, &["Gyoku W"]), "b bGyoku@7,7;bHi@8,12;wGyoku@6,9 b:U,w:- 8,12 2");
    // 2: White strands its own Ki that alone held its Kaku: both are lost.
    let two = "w bGyoku@7,7;wGyoku@7,9;wKi@9,11;wKaku@10,12 b:-,w:- -";
    assert_eq!(after(&v, two, &["Gyoku W"]), "b bGyoku@7,7;wGyoku@6,9 b:KU,w:- - 2");
    // 3: White strands Black's Ki, which still holds White's Hi while under grace; Black's
    // recovery strands the Hi in turn, and White does not recover it.
    let three = "w bGyoku@7,7;bKi@9,11;wGyoku@7,9;wHi@10,12 b:-,w:- -";
    assert_eq!(
        after(&v, three, &["Gyoku W", "Ki(Hou) SW", "Gyoku E"]),
        "b bGyoku@7,7;bHou@8,10;wGyoku@7,9 b:H,w:- - 4"
    );
}

#[test]
fn the_fourth_repetition_is_a_draw() {
    let v = KiShogi::new();
    let mut pos = v.start_position();
    play(&v, &mut pos, &["*Gyoku", "*Gyoku NNE"]);
    let mut history = Vec::new();
    for round in 0..3 {
        assert_eq!(v.outcome(&pos, &history).unwrap(), None, "round {round}");
        for m in ["Gyoku W", "Gyoku W", "Gyoku E", "Gyoku E"] {
            history.push(HistoryEntry::new(pos.repetition_hash(), v.in_check(&pos)));
            play(&v, &mut pos, &[m]);
        }
    }
    let o = v.outcome(&pos, &history).unwrap().expect("a draw");
    assert_eq!((o.winner, o.reason), (None, EndReason::Repetition));
}

#[test]
fn bad_input_gets_a_clear_error() {
    let v = KiShogi::new();
    // The position parser refuses a second Gyoku (`royals_per_side`)…
    let e = v.parse_position("b bGyoku@7,7;bGyoku@1,1;wGyoku@7,9 b:-,w:- -").unwrap_err();
    assert!(e.to_string().contains("Black has 2 royal pieces"), "{e}");
    // …and the engine, handed one all the same (a position as words through the ABI), says so.
    let mut pos = v.parse_position("b bGyoku@7,7;wGyoku@7,9 b:-,w:- -").unwrap();
    let gyoku = pos.cells().iter().flatten().next().copied().unwrap();
    let cell = (0..pos.cells().len()).find(|&c| pos.cells()[c].is_none()).unwrap();
    pos.set(cell as henka_api::Cell, Some(gyoku));
    let e = v.legal_moves(&pos, &mut Vec::new()).unwrap_err();
    assert!(e.message.contains("two Gyoku"), "{e}");
    let start = v.start_position();
    let e = v.play(&mut start.clone(), henka_api::Move::drop(1, 0)).unwrap_err();
    assert!(e.message.contains("not a legal move"), "{e}");
    // Ki faces exist only with the Ki cube.
    assert!(v.parse_position("b bKi@1,1 b:-,w:- -").is_err());
}
