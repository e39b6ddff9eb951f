//! Ki Shogi through the bundled script: the seed's claims as tests (the move-1 reply list, the
//! example game to Black's loss), the stranding examples of the Ki-cube section and the grace
//! turn, and random playouts checking the support invariant, notation round-trips and hashes.
//!
//! Positions are written as the §15 strings of docs/rules/ki-shogi.md (see `docs/ki-shogi.md`); on
//! the default 15×15 field (x, y) runs from Black's lower left, so the centre is `7,7`.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use henka::{catalog, record, script};
use henka_api::kit::KitVariant;
use henka_api::model::field::GRACE;
use henka_api::variant::generic_perft;
use henka_api::variant::perft_suite::parse_suite;
use henka_api::{EndReason, Move, Position, Side, Variant};
use proptest::prelude::*;

fn ki_shogi(options: &[(&str, &str)]) -> Arc<KitVariant> {
    let (_, src) = catalog::BUNDLED.iter().find(|(n, _)| *n == "ki-shogi").expect("bundled");
    let chosen = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    script::load_source_with("ki-shogi.rhai", src, &chosen).unwrap_or_else(|e| panic!("{e}")).variant
}

fn legal(v: &dyn Variant, pos: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    v.legal_moves(pos, &mut moves).unwrap();
    moves
}

/// The legal moves in the variant's (compass) notation.
fn written(v: &dyn Variant, pos: &Position) -> BTreeSet<String> {
    legal(v, pos).into_iter().map(|m| v.format_move(pos, m)).collect()
}

/// Plays compass moves from `pos`, checking each parses back from what it is written as.
fn play(v: &dyn Variant, pos: &mut Position, moves: &[&str]) {
    for s in moves {
        let mv = v.parse_move(pos, s).unwrap_or_else(|e| panic!("{s} in {}: {e}", v.format_position(pos)));
        v.play(pos, mv).unwrap();
    }
}

fn grace_cells(v: &dyn Variant, pos: &Position) -> Vec<String> {
    v.format_position(pos).split_whitespace().nth(3).unwrap().split(';').map(str::to_string).collect()
}

#[test]
fn the_seed_move_one_list_exactly() {
    let v = ki_shogi(&[]);
    let mut pos = v.start_position();
    play(v.as_ref(), &mut pos, &["*Gyoku", "*Gyoku NNE"]);
    assert_eq!(v.format_position(&pos), "b bGyoku@7,7;wGyoku@8,9 b:HK,w:HK - 3");
    // docs/rules/ki-shogi.md §13 / the seed: "Black now has the following responses".
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
    assert_eq!(expected.len(), 65);
    assert_eq!(written(v.as_ref(), &pos), expected);
    assert_eq!(v.perft(&pos, 1).unwrap(), 65);
}

#[test]
fn the_seed_example_game_replays_and_black_cannot_move() {
    let v = ki_shogi(&[]);
    let text = include_str!("data/ki-shogi-seed-game.henka");
    let r = record::parse(text).unwrap();
    assert_eq!(r.moves.len(), 30);
    let game = record::replay(v.as_ref(), &r).unwrap_or_else(|e| panic!("{e}"));
    let end = game.position();
    assert_eq!(end.side_to_move(), Side::First);
    assert!(legal(v.as_ref(), end).is_empty(), "Black has no legal move after 15... *Hi S");
    let outcome = game.outcome(v.as_ref()).unwrap().expect("the game is over");
    assert_eq!(outcome.winner, Some(Side::Second));
    // The seed's remarks along the way: both Hi cubes end with White, both Kaku cubes with Black.
    assert_eq!(v.format_position(end), "b bGyoku@8,6;bKen@8,5;bKen@9,7;wGyoku@6,8;wHi@6,7;wHi@7,9 b:-,w:- - 31");
    // Written as a record (compass moves in quotes) and read back: the same game.
    let text = record::write("ki-shogi", v.as_ref(), &game);
    assert!(text.contains("\"*Gyoku NNE\""), "{text}");
    let again = record::replay(v.as_ref(), &record::parse(&text).unwrap()).unwrap();
    assert_eq!(again.moves(), game.moves());
    // Every move written back in compass notation is the seed's (after the readings of
    // docs/rules/ki-shogi.md §14), up to the spelling the seed uses for the same face or case.
    let mut pos = v.start_position();
    for (i, &mv) in game.moves().iter().enumerate() {
        let ours = v.format_move(&pos, mv);
        let seed = r.moves[i].replace("CHO", "Cho").replace("Myo(", "Myou(").replace("Chu(", "Chuu(");
        assert_eq!(ours, seed, "ply {}", i + 1);
        v.play(&mut pos, mv).unwrap();
    }
}

#[test]
fn the_seed_notes_on_move_three() {
    // "Black can reply with CHO(Hi) S and check White. If White then Myo(Kaku) SW, removes threat
    // and checks Black. If Black moves Gyoku out of threat, this strands Hi. So, Black Hi(Chuu)
    // captures White Kaku."
    let v = ki_shogi(&[]);
    let mut pos = v.start_position();
    play(v.as_ref(), &mut pos, &["*Gyoku", "*Gyoku NNE", "*Cho E", "*Myou E", "Cho(Hi) S+", "Myou(Kaku) SW+"]);
    assert!(v.in_check(&pos));
    let replies = written(v.as_ref(), &pos);
    // "White is down a piece and still in check".
    assert!(replies.contains("Hi(Chuu) x Kaku+"), "{replies:?}");
    // Gyoku W and NW leave the Hi (on 8,6) alone: Black stranded it himself, so it is lost at
    // once to White (who holds its own Hi cube too). Gyoku E keeps it next to the Gyoku, which the
    // seed's remark passes over.
    for (m, white_hi_cubes) in [("Gyoku W", 2), ("Gyoku NW", 2), ("Gyoku E", 1)] {
        assert!(replies.contains(m), "{m} in {replies:?}");
        let mut after = pos.clone();
        play(v.as_ref(), &mut after, &[m]);
        assert_eq!(after.hand(Side::Second, 1), white_hi_cubes, "{m}");
    }
}

/// The Ki-cube examples use this field: Black's Gyoku on 7,7, White's on 7,9, a Ki two cells from
/// White's Gyoku at 9,11 and a piece next to it at 10,12 (or 8,12) that only the Ki supports.
/// White's `Gyoku W` (to 6,9) takes the Ki out of reach of both Gyoku.
const KI: [(&str, &str); 1] = [("ki_cube", "on")];

#[test]
fn ki_example_1_a_stranded_own_ki_is_lost_and_the_enemy_piece_it_held_gets_grace() {
    let v = ki_shogi(&KI);
    let mut pos = v.parse_position("w bGyoku@7,7;bHi@8,12;wGyoku@7,9;wKi@9,11 b:-,w:- -").unwrap();
    play(v.as_ref(), &mut pos, &["Gyoku W"]);
    assert_eq!(v.format_position(&pos), "b bGyoku@7,7;bHi@8,12;wGyoku@6,9 b:U,w:- 8,12 2");
    // Recovery: the Hi slides back next to its Gyoku (and flips to Cho); the mark is gone.
    let mut recovered = pos.clone();
    play(v.as_ref(), &mut recovered, &["Hi(Cho) S4"]);
    assert_eq!(v.format_position(&recovered), "w bGyoku@7,7;bCho@8,8;wGyoku@6,9 b:U,w:- - 3");
    // Not recovering: the Hi is captured at the end of Black's turn.
    let mut lost = pos.clone();
    play(v.as_ref(), &mut lost, &["*Ki S"]);
    assert_eq!(v.format_position(&lost), "w bGyoku@7,7;bKi@7,6;wGyoku@6,9 b:-,w:H - 3");
}

#[test]
fn ki_example_2_a_stranded_ki_takes_the_piece_it_alone_supported() {
    let v = ki_shogi(&KI);
    let mut pos = v.parse_position("w bGyoku@7,7;wGyoku@7,9;wKi@9,11;wKaku@10,12 b:-,w:- -").unwrap();
    play(v.as_ref(), &mut pos, &["Gyoku W"]);
    assert_eq!(v.format_position(&pos), "b bGyoku@7,7;wGyoku@6,9 b:KU,w:- - 2");
}

#[test]
fn ki_example_3_a_stranded_enemy_ki_still_supports_and_its_recovery_can_strand_in_turn() {
    let v = ki_shogi(&KI);
    let mut pos = v.parse_position("w bGyoku@7,7;bKi@9,11;wGyoku@7,9;wHi@10,12 b:-,w:- -").unwrap();
    play(v.as_ref(), &mut pos, &["Gyoku W"]);
    // The Black Ki is under grace; the White Hi next to it counts as supported.
    assert_eq!(v.format_position(&pos), "b bGyoku@7,7;bKi@9,11;wGyoku@6,9;wHi@10,12 b:-,w:- 9,11 2");
    // Black recovers the Ki (it flips to Hou, two cells from White's Gyoku), which strands the Hi.
    play(v.as_ref(), &mut pos, &["Ki(Hou) SW"]);
    assert_eq!(grace_cells(v.as_ref(), &pos), ["10,12"]);
    assert_eq!(v.format_position(&pos), "w bGyoku@7,7;bHou@8,10;wGyoku@6,9;wHi@10,12 b:-,w:- 10,12 3");
    // White does not recover it: captured at the end of White's turn.
    play(v.as_ref(), &mut pos, &["Gyoku E"]);
    assert_eq!(v.format_position(&pos), "b bGyoku@7,7;bHou@8,10;wGyoku@7,9 b:H,w:- - 4");
}

#[test]
fn two_ki_under_grace_cannot_keep_each_other_alive() {
    // Found by the playouts: Black's Ba and Ryuu (Ki faces) stand next to each other, both out of
    // reach of either Gyoku and under grace, with a Hon and a Myou that they alone support.
    // Support grows outward from the Gyoku only, so Black's turn ends with all of them lost (the
    // Han just dropped next to the Ba too); the Ou next to Black's Gyoku stays.
    let v = ki_shogi(&KI);
    let mut pos = v
        .parse_position(
            "b bGyoku@10,7;bOu@11,6;bMyou@10,9;bHon@10,10;bBa@9,11;bRyuu@8,12;wGyoku@8,8 b:H,w:- \
             10,9;10,10;9,11;8,12 39",
        )
        .unwrap();
    play(v.as_ref(), &mut pos, &["*Han N5"]);
    assert_eq!(v.format_position(&pos), "w bGyoku@10,7;bOu@11,6;wGyoku@8,8 b:-,w:HKKUU - 40");
}

#[test]
fn drops_next_to_an_own_ki_and_the_ki_drop_ring() {
    let v = ki_shogi(&KI);
    let pos = v.parse_position("b bGyoku@7,7;bKi@9,7;wGyoku@7,9 b:HU,w:- -").unwrap();
    let moves = written(v.as_ref(), &pos);
    // Next to the own Ki, away from the enemy Gyoku: E of the Ki is 3 cells from the own Gyoku.
    assert!(moves.contains("*Cho E3"), "{moves:?}");
    // The Ki cube (a captured one too) drops at distance 1 or 2 from the own Gyoku, never next to
    // the enemy Gyoku: S2 is allowed, N (shared) is not.
    assert!(moves.contains("*Ki S2") && moves.contains("*Ryuu SSE"), "{moves:?}");
    assert!(!moves.contains("*Ki N"), "{moves:?}");
}

#[test]
fn sacrifice_moves_exist_only_with_the_ki_cube_by_default() {
    let pos = "b bGyoku@7,7;bHi@6,6;wGyoku@7,9 b:-,w:- -";
    let hi_moves = |v: &KitVariant| {
        let p = v.parse_position(pos).unwrap();
        written(v, &p).into_iter().filter(|m| m.starts_with("Hi(")).count()
    };
    // Base game: the Hi may only end next to a Gyoku: N1 to N4 and E1, E2.
    assert_eq!(hi_moves(&ki_shogi(&[])), 6);
    // With the Ki cube it may also slide away and be lost: every cell to the edges (8 + 6 + 6 + 8).
    let with_ki = ki_shogi(&KI);
    assert_eq!(hi_moves(&with_ki), 28);
    let mut p = with_ki.parse_position(pos).unwrap();
    play(with_ki.as_ref(), &mut p, &["Hi(Cho) S5"]);
    assert_eq!(with_ki.format_position(&p), "w bGyoku@7,7;wGyoku@7,9 b:-,w:H - 2");
}

#[test]
fn an_unbounded_field_keeps_blacks_gyoku_at_the_origin() {
    let v = ki_shogi(&[("field", "unbounded")]);
    let mut pos = v.start_position();
    assert_eq!(legal(v.as_ref(), &pos).len(), 1, "Black's placement: the centre only");
    play(v.as_ref(), &mut pos, &["*Gyoku", "*Gyoku NNE", "Gyoku W"]);
    assert_eq!(v.format_position(&pos), "w bGyoku@0,0;wGyoku@2,2 b:HK,w:HK - 4");
    // Stored with Black's Gyoku on the box centre: the position is the one the string describes,
    // whatever path (and translation) led to it.
    assert_eq!(pos, v.parse_position("w bGyoku@0,0;wGyoku@2,2 b:HK,w:HK - 4").unwrap());
    let mut back = pos.clone();
    play(v.as_ref(), &mut back, &["Gyoku W", "Gyoku E"]);
    assert_eq!(v.format_position(&back), "w bGyoku@0,0;wGyoku@0,2 b:HK,w:HK - 6");
}

#[test]
fn bad_input_gets_a_clear_error() {
    let v = ki_shogi(&[]);
    let pos = v.start_position();
    for (s, why) in
        [("*Gyoku SSX", "compass point"), ("Cho(Hi S", "unclosed"), ("Foo E", "face name"), ("*Cho E", "illegal")]
    {
        let e = v.parse_move(&pos, s).unwrap_err().to_string();
        assert!(e.to_lowercase().contains(why), "{s}: {e}");
    }
    for (s, why) in [
        ("b bGyoku@7,7 b:-", "at least"),
        ("b bFoo@1,1 b:-,w:- -", "foo"),
        ("b bGyoku@99,1 b:-,w:- -", "99,1"),
        ("b - b:GX,w:- -", "no cube is written x"),
        ("b - b:G -", "both sides"),
        ("b bGyoku@1,1 b:-,w:- 2,2", "empty cell"),
    ] {
        let e = v.parse_position(s).unwrap_err().to_string();
        assert!(e.to_lowercase().contains(why), "{s}: {e}");
    }
    let e = script::load_source_with(
        "ki-shogi.rhai",
        catalog::BUNDLED.iter().find(|(n, _)| *n == "ki-shogi").unwrap().1,
        &[("field".to_string(), "4x4".to_string())].into_iter().collect(),
    )
    .unwrap_err();
    assert!(e.message.contains("too small"), "{}", e.message);
}

/// Cubes: on the field plus in both hands, always the same number.
fn cubes(v: &dyn Variant, pos: &Position) -> usize {
    let hands: usize =
        Side::BOTH.iter().flat_map(|&s| v.info().hand_types.iter().map(move |&t| pos.hand(s, t) as usize)).sum();
    pos.cells().iter().flatten().count() + hands
}

/// After every turn, the only unsupported pieces are the side to move's, under grace (it may
/// recover them now); everything else stands next to a supporter.
fn support_invariant(v: &KitVariant, pos: &Position) -> Result<(), TestCaseError> {
    let unsupported = v.support().expect("a field variant").unsupported(pos);
    for c in unsupported {
        let p = pos.piece_at(c).expect("a piece");
        prop_assert!(
            p.flags & GRACE != 0 && p.side == pos.side_to_move(),
            "unsupported {:?} without grace in {}",
            p,
            v.format_position(pos)
        );
    }
    Ok(())
}

fn playout(options: &[(&str, &str)], seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let v = ki_shogi(options);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = v.start_position();
    let total = cubes(v.as_ref(), &pos);
    for ply in 0..plies {
        let text = v.format_position(&pos);
        prop_assert_eq!(&v.parse_position(&text).unwrap(), &pos, "round trip of {}", text);
        prop_assert_eq!(pos.hash(), pos.fresh_hash(), "hash at {}", text);
        prop_assert_eq!(cubes(v.as_ref(), &pos), total, "cubes at {}", text);
        support_invariant(&v, &pos)?;
        let moves = legal(v.as_ref(), &pos);
        if moves.is_empty() {
            let o = v.outcome(&pos, &[]).unwrap().expect("no legal move ends the game");
            prop_assert_eq!(o.winner, Some(pos.side_to_move().opponent()));
            prop_assert!(matches!(o.reason, EndReason::Checkmate | EndReason::Stalemate));
            break;
        }
        let side = pos.side_to_move();
        // No legal move leaves the mover's Gyoku attacked or a piece unsupported without grace
        // (this checks the legality shortcuts against the played result).
        for &mv in &moves {
            let mut next = pos.clone();
            v.play(&mut next, mv).unwrap();
            support_invariant(&v, &next)?;
            next.set_side_to_move(side);
            prop_assert!(!v.in_check(&next), "{} leaves the Gyoku attacked in {}", v.format_move(&pos, mv), text);
        }
        // A sample of moves read back from their compass (or coordinate) form.
        for _ in 0..4 {
            let mv = moves[rng.usize(..moves.len())];
            let w = v.format_move(&pos, mv);
            prop_assert_eq!(v.parse_move(&pos, &w).unwrap(), mv, "{} at {}", w, text);
        }
        if ply % 8 == 4 {
            prop_assert_eq!(v.perft(&pos, 2).unwrap(), generic_perft(v.as_ref(), &pos, 2).unwrap(), "at {}", text);
        }
        v.play(&mut pos, moves[rng.usize(..moves.len())]).unwrap();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn playouts_base_game(seed in any::<u64>()) { playout(&[], seed, 120)?; }

    #[test]
    fn playouts_with_the_ki_cube(seed in any::<u64>()) { playout(&KI, seed, 120)?; }

    #[test]
    fn playouts_unbounded_with_the_ki_cube(seed in any::<u64>()) {
        playout(&[("field", "unbounded"), ("ki_cube", "on")], seed, 80)?;
    }

    #[test]
    fn playouts_on_a_small_field(seed in any::<u64>()) { playout(&[("field", "7x6")], seed, 80)?; }
}

/// The perft suite with the Ki cube (`tests/perft/ki-shogi.perft` runs through the shared harness
/// with the default options).
#[test]
fn perft_suite_with_the_ki_cube() {
    let v = ki_shogi(&KI);
    let text = include_str!("perft/ki-shogi-ki.perft");
    for case in parse_suite(text).unwrap() {
        let pos = match &case.position {
            Some(p) => v.parse_position(p).unwrap_or_else(|e| panic!("{}: {e}", case.id)),
            None => v.start_position(),
        };
        for &(depth, nodes) in &case.expected {
            assert_eq!(v.perft(&pos, depth).unwrap(), nodes, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn rule_options_change_the_rules() {
    // ki_anchor: a Ki two cells from the enemy Gyoku only is supported by either Gyoku by default.
    let pos = "b bGyoku@7,7;bKi@9,11;wGyoku@7,9 b:-,w:- -";
    let unsupported = |options: &[(&str, &str)]| {
        let v = ki_shogi(options);
        let p = v.parse_position(pos).unwrap();
        v.support().unwrap().unsupported(&p).len()
    };
    assert_eq!(unsupported(&KI), 0);
    assert_eq!(unsupported(&[("ki_cube", "on"), ("ki_anchor", "own_gyoku")]), 1);
    // ki_opposites: what the Ki face flips to.
    for (pairs, flipped) in [("ki-hou", "Hou"), ("ki-ro", "Ro")] {
        let v = ki_shogi(&[("ki_cube", "on"), ("ki_opposites", pairs)]);
        let p = v.parse_position(pos).unwrap();
        let m = v.parse_move(&p, &format!("Ki({flipped}) SW")).unwrap();
        assert_eq!(v.info().pieces[m.piece as usize].name, flipped);
    }
    // sacrifice_moves overrides the Ki-cube default either way.
    let hi = "b bGyoku@7,7;bHi@6,6;wGyoku@7,9 b:-,w:- -";
    let hi_moves = |options: &[(&str, &str)]| {
        let v = ki_shogi(options);
        let p = v.parse_position(hi).unwrap();
        written(v.as_ref(), &p).into_iter().filter(|m| m.starts_with("Hi(")).count()
    };
    assert_eq!(hi_moves(&[("sacrifice_moves", "always")]), 28);
    assert_eq!(hi_moves(&[("ki_cube", "on"), ("sacrifice_moves", "never")]), 6);
    // repetition: the 4th occurrence is a draw, or the rule is off.
    assert_eq!(ki_shogi(&[]).rules().repetition.count, 4);
    assert_eq!(ki_shogi(&[("repetition", "off")]).rules().repetition.count, 0);
}

#[test]
fn the_fourth_repetition_is_a_draw() {
    let v = ki_shogi(&[]);
    let mut game = henka_api::Game::new(v.start_position());
    for m in ["*Gyoku", "*Gyoku NNE"] {
        game.play_str(v.as_ref(), m).unwrap();
    }
    for round in 0..3 {
        assert_eq!(game.outcome(v.as_ref()).unwrap(), None, "round {round}");
        for m in ["Gyoku W", "Gyoku W", "Gyoku E", "Gyoku E"] {
            game.play_str(v.as_ref(), m).unwrap();
        }
    }
    let o = game.outcome(v.as_ref()).unwrap().expect("a draw");
    assert_eq!((o.winner, o.reason), (None, EndReason::Repetition));
}

#[test]
fn a_stranding_hook_may_capture_only_the_movers_stranded_pieces() {
    // The bundled script with its hook changed to capture the opponent's stranded pieces too.
    let (_, src) = catalog::BUNDLED.iter().find(|(n, _)| *n == "ki-shogi").unwrap();
    let greedy = src.replace("if p.side != me && !p.grace { field.set_grace(cell, true); }", "field.capture(cell);");
    assert_ne!(&greedy, src);
    let chosen = [("ki_cube".to_string(), "on".to_string())].into_iter().collect();
    let v = script::load_source_with("greedy.rhai", &greedy, &chosen).unwrap().variant;
    let pos = v.parse_position("w bGyoku@7,7;bHi@8,12;wGyoku@6,9;wKi@9,11 b:-,w:- -").unwrap();
    // Playing White's Gyoku W strands its own Ki and Black's Hi: the hook's capture of the Hi is
    // refused, and the error points at the script line.
    let mv = v.parse_move(&pos, "Gyoku W").unwrap();
    let mut after = pos.clone();
    let e = v.play(&mut after, mv).unwrap_err();
    assert!(e.message.contains("only the pieces of the player whose turn ends"), "{e}");
    assert!(e.location.as_ref().is_some_and(|l| l.file == "greedy.rhai" && l.line > 1), "{e}");
    assert_eq!(after, pos, "a failed turn leaves the position as it was");
}

#[test]
fn henka_replay_reads_the_seed_game_in_compass_notation() {
    let record = format!("{}/tests/data/ki-shogi-seed-game.henka", env!("CARGO_MANIFEST_DIR"));
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_henka")).args(["replay", "ki-shogi", &record]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("result: White wins by no legal move"), "{stdout}");
}

/// Rule options, as `ki_shogi` takes them.
type Options = &'static [(&'static str, &'static str)];

/// The kit's perft hands each node its occupied cells and, after a move that stranded nothing, that
/// nothing is stranded; perft through `legal_moves` and `play` (a fresh scan everywhere) must count
/// the same, here on positions with grace marks, Ki relays and a re-centring unbounded field.
#[test]
fn the_kits_field_perft_agrees_with_perft_through_legal_moves_and_play() {
    let unbounded_ki: Options = &[("field", "unbounded"), ("ki_cube", "on")];
    let cases: [(Options, &str, &[&str], u32); 4] = [
        (&[], "w bGyoku@8,7;bKaku@8,6;wGyoku@7,9;wCho@6,6 b:H,w:K 6,6 21", &[], 4),
        (&KI, "b bGyoku@7,7;bKi@9,11;wGyoku@6,9;wHi@10,12 b:-,w:- 9,11 2", &[], 3),
        (&KI, "w bGyoku@7,7;bKi@7,5;bCho@8,6;wGyoku@8,9;wHou@9,11;wKaku@9,10 b:H,w:H - 12", &[], 3),
        (unbounded_ki, "", &["*Gyoku", "*Gyoku NNE", "Gyoku W"], 3),
    ];
    for (options, position, moves, depth) in cases {
        let v = ki_shogi(options);
        let mut pos = if position.is_empty() { v.start_position() } else { v.parse_position(position).unwrap() };
        play(v.as_ref(), &mut pos, moves);
        let text = v.format_position(&pos);
        let generic = generic_perft(v.as_ref(), &pos, depth).unwrap();
        assert_eq!(v.perft(&pos, depth).unwrap(), generic, "perft {depth} at {text}");
    }
}
