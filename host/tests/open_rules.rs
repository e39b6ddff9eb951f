//! Open rules (issue #19): the position handle hooks query the kit through, results declared by
//! the position (end rules and `game_end`) ending the game everywhere, drops on dead cells by
//! data, movement and drop callbacks, move effects, and hostile hooks of every kind.

mod common;

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use henka::catalog;
use henka::script::load_source;
use henka_api::{EndReason, Game, Outcome, Side, Variant};

fn bundled(name: &str) -> &'static str {
    catalog::BUNDLED.iter().find(|(n, _)| *n == name).expect("bundled").1
}

fn load(name: &str, src: &str) -> Arc<dyn Variant> {
    load_source(name, src).unwrap_or_else(|e| panic!("{e}")).variant
}

fn moves(v: &dyn Variant, position: &str) -> Vec<String> {
    let g = Game::new(v.parse_position(position).unwrap());
    henka::cli::sorted_moves(v, &g).unwrap()
}

/// A 5×5 board to ask questions on: Kings, a Rook, Pawns, drops.
const BOARD: &str = r#"let v = variant(#{ name: "Q", board: [5, 5] });
v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
v.piece(#{ name: "Rook", token: "R", moves: "R" });
v.piece(#{ name: "Pawn", token: "P", moves: "fW" });
v.drops(true);
v.setup("4k/5/5/5/K4 b - 1");
"#;

/// Every query of the position handle, asked in one position and written into the result's
/// reason, against what the `Variant` API says of the same position.
#[test]
fn the_position_handle_answers_from_the_kit() {
    let src = format!(
        "{BOARD}{}",
        r#"v.on("game_end", |pos| {
    if pos.move_number != 9 { return; }
    let r = [];
    r.push(pos.side_to_move);
    r.push(pos.royals("black"));
    r.push(pos.royals("white"));
    r.push(pos.attacked("1c", "black"));
    r.push(pos.attacked("2c", "black"));
    r.push(pos.in_check("white"));
    r.push(pos.in_check());
    r.push(pos.legal_moves().len());
    r.push(pos.moves_of("3c"));
    r.push(pos.moves_of("4e").len());
    r.push(pos.pieces("white").len());
    r.push(pos.pieces().len());
    r.push(pos.piece_at("3c").name);
    r.push(pos.repetitions());
    #{ winner: "draw", reason: r.reduce(|s, x| if s == () { `${x}` } else { `${s}|${x}` }) }
});
v
"#
    );
    let v = load("query.rhai", &src);
    // White to move: White's King on 1a, Black's Rook on 3c (attacking 1c), Black's King on 5e
    // and a pawn on 4e; White holds a pawn.
    let pos = v.parse_position("4k/5/2R2/5/KP3 w p 9").unwrap();
    let o = v.outcome(&pos, &[]).unwrap().expect("the hook answers at move 9");
    let EndReason::Rule(reason) = o.reason else { panic!("{o:?}") };
    let parts: Vec<&str> = reason.split('|').collect();
    let mut legal = Vec::new();
    // The declared result leaves no legal moves; the handle's legal_moves are the data rules'.
    v.legal_moves(&pos, &mut legal).unwrap();
    assert!(legal.is_empty());
    let data_moves = moves(&*load("plain.rhai", &format!("{BOARD}v\n")), "4k/5/2R2/5/KP3 w p 9");
    assert_eq!(
        parts,
        [
            "white",
            "[\"5e\"]",
            "[\"1a\"]",
            "true",
            "true",
            "false",
            "false",
            &data_moves.len().to_string(),
            "[\"3c3b\", \"3c3a\", \"3c3d\", \"3c3e\", \"3c2c\", \"3c1c\", \"3c4c\", \"3c5c\"]",
            "1",
            "1",
            "4",
            "Rook",
            "0"
        ],
        "{reason}"
    );
}

/// The handle's history: `repetitions()` counts the earlier occurrences the game knows.
#[test]
fn repetitions_come_from_the_games_history() {
    let src = format!(
        "{BOARD}{}",
        r#"v.on("game_end", |pos| if pos.repetitions() >= 2 { #{ winner: "draw", reason: "third time" } });
v
"#
    );
    let v = load("rep.rhai", &src);
    let mut g = Game::new(v.start_position());
    let shuffle = ["5e4e", "1a2a", "4e5e", "2a1a"];
    for (i, m) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(g.outcome(&*v).unwrap(), None, "before ply {i}");
        g.play_str(&*v, m).unwrap();
    }
    assert_eq!(g.outcome(&*v).unwrap(), Some(Outcome::draw(EndReason::Rule("third time".into()))));
}

/// The game's moves reach a hook through the history: `last_move()` and each entry's `move`.
#[test]
fn hooks_see_the_games_last_moves() {
    let src = format!(
        "{BOARD}{}",
        r#"v.on("game_end", |pos| {
    let m = pos.last_move();
    if m != () && m.kind == "move" && m.piece == "Pawn" {
        let before = pos.history()[-2].move;
        #{ winner: "draw", reason: `${m.kind} ${m.from}${m.to} after ${before.kind} ${before.piece} ${before.to}` }
    }
});
v
"#
    );
    let v = load("last.rhai", &src);
    let mut g = Game::new(v.parse_position("4k/5/5/5/K4 b Pp 1").unwrap());
    assert_eq!(g.outcome(&*v).unwrap(), None);
    g.play_str(&*v, "P*3c").unwrap();
    g.play_str(&*v, "1a1b").unwrap();
    assert_eq!(g.outcome(&*v).unwrap(), None, "the last move was the King's");
    g.play_str(&*v, "3c3b").unwrap();
    let reason = "move 3c3b after move King 1b";
    assert_eq!(g.outcome(&*v).unwrap(), Some(Outcome::draw(EndReason::Rule(reason.into()))));
}

/// Check shogi's hook (through `in_check`) and the data rule `v.win(#{ checks: 1 })` are two
/// writings of one rule: they agree move for move.
#[test]
fn check_shogi_as_a_hook_and_as_data_agree() {
    let hook = bundled("check-shogi");
    let start = hook.find("v.on(\"game_end\"").unwrap();
    let end = hook[start..].find("});").unwrap() + start + 3;
    let data = format!("{}v.win(#{{ checks: 1 }});{}", &hook[..start], &hook[end..]);
    let (hook, data) = (load("check-shogi.rhai", hook), load("check-shogi-data.rhai", &data));
    for position in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "ln1g2snl/1r1s1kg2/p1pppp1pp/6p2/1p7/2P3P2/PP1PPP1PP/1BG4R1/LNS1KGSNL b Bp 1",
        "8k/9/7G1/9/9/9/9/9/K8 b P 1",
        "7nk/9/7G1/9/9/9/9/9/K8 b P 1",
        "4k4/9/9/9/9/9/9/4r4/4K4 b - 1",
    ] {
        let pos = hook.parse_position(position).unwrap();
        assert_eq!(hook.perft(&pos, 3).unwrap(), data.perft(&pos, 3).unwrap(), "{position}");
        assert_eq!(hook.outcome(&pos, &[]).unwrap(), data.outcome(&pos, &[]).unwrap(), "{position}");
    }
    // A pawn drop that checks wins at once, even one that would also be mate (no uchifuzume).
    for position in ["8k/9/7G1/9/9/9/9/9/K8 b P 1", "7nk/9/7G1/9/9/9/9/9/K8 b P 1"] {
        assert!(moves(&*hook, position).contains(&"P*1b".to_string()), "{position}");
    }
    // With uchifuzume added back, the drop that is mate by the ordinary rules is refused, and the
    // one that is not still wins: the replies are judged without the declared result.
    let nifu = "drop: #{ one_per_file: true }";
    let strict =
        load("strict.rhai", &bundled("check-shogi").replace(nifu, "drop: #{ one_per_file: true, no_mate: true }"));
    assert!(moves(&*strict, "8k/9/7G1/9/9/9/9/9/K8 b P 1").contains(&"P*1b".to_string()));
    assert!(!moves(&*strict, "7nk/9/7G1/9/9/9/9/9/K8 b P 1").contains(&"P*1b".to_string()));
    let mut g = Game::new(hook.parse_position("8k/9/7G1/9/9/9/9/9/K8 b P 1").unwrap());
    g.play_str(&*hook, "P*1b").unwrap();
    assert_eq!(g.outcome(&*hook).unwrap(), Some(Outcome::win(Side::First, EndReason::Rule("check".into()))));
}

/// `checks: 2`: the second check wins; the count is part of the position (counters 2 and 3).
#[test]
fn the_nth_check_wins() {
    let v = load("two-checks.rhai", &format!("{BOARD}v.win(#{{ checks: 2 }});\nv\n"));
    // Black's Rook checks along the a-file, White steps away, the Rook checks again.
    let mut g = Game::new(v.parse_position("4k/5/5/2R2/K4 b - 1").unwrap());
    g.play_str(&*v, "3d3a").unwrap();
    assert_eq!(g.outcome(&*v).unwrap(), None, "one check is not yet the end");
    assert_eq!(v.format_position(g.position()), "2R1k/5/5/5/K4 w - 2 0,0,1,0");
    g.play_str(&*v, "1a1b").unwrap();
    g.play_str(&*v, "3a3b").unwrap();
    let o = g.outcome(&*v).unwrap();
    assert_eq!(o, Some(Outcome::win(Side::First, EndReason::Rule("check number 2".into()))));
    let mut legal = Vec::new();
    v.legal_moves(g.position(), &mut legal).unwrap();
    assert!(legal.is_empty(), "a decided position has no legal moves");
    // Taking back the check takes back the count.
    assert_eq!(v.perft(&v.parse_position("2R1k/5/5/5/K4 w - 2 0,0,1,0").unwrap(), 2).unwrap(), {
        let p = v.parse_position("2R1k/5/5/5/K4 w - 2 0,0,1,0").unwrap();
        let mut first = Vec::new();
        v.legal_moves(&p, &mut first).unwrap();
        first
            .iter()
            .map(|&m| {
                let mut q = p.clone();
                v.play(&mut q, m).unwrap();
                let mut second = Vec::new();
                v.legal_moves(&q, &mut second).unwrap();
                second.len() as u64
            })
            .sum::<u64>()
    });
}

/// Dobutsu's try: a Lion on the far rank wins if nothing attacks it; an attacked one must
/// survive, and the game goes on.
#[test]
fn the_try_wins_only_a_safe_lion() {
    let v = load("dobutsu.rhai", bundled("dobutsu"));
    let mut g = Game::new(v.parse_position("2l/1L1/3/3 b - 1").unwrap());
    g.play_str(&*v, "2b3a").unwrap();
    let o = g.outcome(&*v).unwrap();
    assert_eq!(o, Some(Outcome::win(Side::First, EndReason::Rule("Lion reached the far zone".into()))));
    assert!(henka::cli::sorted_moves(&*v, &g).unwrap().is_empty());
    let mut g = Game::new(v.parse_position("2l/1L1/3/3 b - 1").unwrap());
    g.play_str(&*v, "2b2a").unwrap();
    assert_eq!(g.outcome(&*v).unwrap(), None, "next to White's Lion: not yet");
    assert!(henka::cli::sorted_moves(&*v, &g).unwrap().contains(&"1a2a".to_string()));
    // Without `survives`, reaching is enough.
    let src = bundled("dobutsu").replace("survives: true", "survives: false");
    let v = load("reach.rhai", &src);
    let mut g = Game::new(v.parse_position("2l/1L1/3/3 b - 1").unwrap());
    g.play_str(&*v, "2b2a").unwrap();
    assert!(g.outcome(&*v).unwrap().is_some_and(|o| o.winner == Some(Side::First)));
}

/// `drop: #{ allow_immobile: true }` lets a piece be dropped where it could never move.
#[test]
fn drops_on_dead_cells_by_data() {
    let src = bundled("dobutsu");
    let position = "g1e/1l1/3/ELG b Cc 1";
    let with = moves(&*load("dobutsu.rhai", src), position);
    assert!(with.contains(&"C*2a".to_string()), "{with:?}");
    let without = moves(&*load("no-dead.rhai", &src.replace("drop: #{ allow_immobile: true }", "drop: #{}")), position);
    assert!(!without.contains(&"C*2a".to_string()), "{without:?}");
    assert_eq!(with.len(), without.len() + 1);
}

/// A game the AI plays to its end: the declared result is the one the game reports.
#[test]
fn the_ai_sees_declared_results() {
    use henka::ai::{Limits, searcher_for};
    let v = load("dobutsu.rhai", bundled("dobutsu"));
    // Black to move can win by the try (2b3a) at once.
    let pos = v.parse_position("2l/1L1/3/3 b - 1").unwrap();
    let mut s = searcher_for(v.clone(), &[], 16);
    let limits = Limits { depth: Some(3), ..Limits::default() };
    let r = s.search(&pos, &[], limits, |_| {}).unwrap().expect("a move");
    let mut after = pos.clone();
    v.play(&mut after, r.best()).unwrap();
    assert_eq!(v.outcome(&after, &[]).unwrap().and_then(|o| o.winner), Some(Side::First), "{:?}", r.pv);
    assert_eq!(r.score, henka::ai::Score::Mate(1), "a win in one");
}

fn henka(args: &[&str]) -> (bool, String, Duration) {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_henka")).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "the host panicked:\n{stderr}");
    (out.status.success(), stderr, t.elapsed())
}

fn script_file(name: &str, src: &str) -> String {
    let dir = common::home().join("open-rules");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.rhai"));
    std::fs::write(&path, src).unwrap();
    path.display().to_string()
}

/// A hook that loops only once the game is under way passes the load, and stops perft within the
/// sandbox's second with file:line:col — the `v.on(...)` that registered it, since Rhai moves a
/// limit's error to the host's call — and the function's name.
#[test]
fn an_endless_loop_in_a_hook_stops_perft_at_its_line() {
    let src = format!(
        "{BOARD}{}",
        "fn judge(pos) {\n    if pos.move_number > 1 {\n        loop { }\n    }\n}\nv.on(\"game_end\", Fn(\"judge\"));\nv\n"
    );
    let path = script_file("loop", &src);
    let (ok, stderr, elapsed) = henka(&["perft", &path, "--depth", "3"]);
    assert!(!ok, "{stderr}");
    assert!(stderr.contains(&format!("{path}:12:")), "expected the hook's line 12: {stderr}");
    assert!(stderr.contains("ran") && stderr.contains("(in `judge`)"), "{stderr}");
    assert!(elapsed < Duration::from_secs(4), "took {elapsed:?}");
}

/// Hooks returning garbage: a clear error at the hook, never a panic.
#[test]
fn hooks_returning_garbage_get_clear_errors() {
    let cases = [
        ("v.on(\"game_end\", |pos| 42);", "must return () or #{ winner"),
        ("v.on(\"game_end\", |pos| #{ winner: \"blue\" });", "`winner` must be \"black\", \"white\" or \"draw\""),
        ("v.on(\"game_end\", |pos| #{ reason: \"no winner\" });", "without `winner`"),
        ("v.on(\"game_end\", |pos| #{ winner: \"draw\", why: 1 });", "unknown key `why`"),
        ("v.on(\"filter_moves\", |pos, moves| 7);", "must return an array of moves"),
        ("v.on(\"filter_moves\", |pos, moves| [1, 2]);", "must return move strings"),
        ("v.on(\"filter_moves\", |pos, moves| [\"5e4e\", \"9z9y\"]);", "\"9z9y\", which is not one of the legal moves"),
        ("v.on(\"game_end\", |pos| pos.attacked(\"9z\", \"black\"));", "9z"),
        ("v.on(\"game_end\", |pos| pos.in_check(\"red\"));", "a side is \"black\" or \"white\""),
    ];
    for (i, (hook, words)) in cases.iter().enumerate() {
        let src = format!("{BOARD}{hook}\nv\n");
        let path = script_file(&format!("garbage-{i}"), &src);
        let (ok, stderr, _) = henka(&["check", &path]);
        assert!(!ok, "{hook}: {stderr}");
        assert!(stderr.contains(&format!("{path}:7:")), "{hook}: the error should point at line 7: {stderr}");
        assert!(stderr.contains(words), "{hook}: expected {words:?} in {stderr}");
    }
}

/// The handle's `legal_moves()` inside `filter_moves` are the data rules' moves, not the
/// filter's own: no recursion.
#[test]
fn a_filter_may_ask_for_the_legal_moves() {
    let src = format!(
        "{BOARD}{}",
        r#"v.on("filter_moves", |pos, moves| {
    let all = pos.legal_moves();
    if all.len() != moves.len() { throw "the handle saw other moves"; }
    moves.filter(|m| !m.contains("*"))
});
v
"#
    );
    let v = load("filter.rhai", &src);
    let m = moves(&*v, "4k/5/5/5/K4 b P 1");
    assert!(!m.is_empty() && m.iter().all(|m| !m.contains('*')), "{m:?}");
}

/// Mistakes in `v.win` point at its line.
#[test]
fn win_rules_are_checked_at_their_line() {
    for (rule, words) in [
        ("v.win(#{ reach: #{ zone: 1, pieces: [\"Lion\"] } });", "no piece is named \"Lion\""),
        ("v.win(#{ reach: #{ zone: 9 } });", "the zone is 9 ranks, the board has 5"),
        ("v.win(#{ reach: #{ pieces: [\"Rook\"] } });", "`reach` needs `zone`"),
        ("v.win(#{ checks: 0 });", "`checks` must be from 1 to 255"),
        ("v.win(#{ check: 1 });", "unknown key `check` in win"),
    ] {
        let src = format!("{BOARD}{rule}\nv\n");
        let path = script_file("win", &src);
        let (ok, stderr, _) = henka(&["check", &path]);
        assert!(!ok, "{rule}");
        assert!(stderr.contains(&format!("{path}:7:")) && stderr.contains(words), "{rule}: {stderr}");
    }
}

/// Tables reach a hook function by a closure's capture or by currying; `global::` (which finds
/// nothing once the script's top level has run) gets a message saying so.
#[test]
fn hooks_share_tables_through_closures_and_currying() {
    let judge = r#"const FAR = ["2a", "3a"];
fn judge(far, pos) {
    for cell in pos.royals("black") {
        if far.contains(cell) { return #{ winner: "black", reason: "far" }; }
    }
}
"#;
    let position = "4k/5/5/5/1K3 b - 1";
    for hook in ["v.on(\"game_end\", |pos| judge(FAR, pos));", "v.on(\"game_end\", Fn(\"judge\").curry(FAR));"] {
        let src = format!("{BOARD}{judge}{hook}\nv\n");
        let v = load("tables.rhai", &src.replace("4k/5/5/5/K4 b - 1", position));
        let mut g = Game::new(v.start_position());
        for m in ["4e4d", "1a1b", "4d4c", "1b1c", "4c3b", "1c1d", "3b3a"] {
            assert_eq!(g.outcome(&*v).unwrap(), None, "{hook}: before {m}");
            g.play_str(&*v, m).unwrap();
        }
        assert_eq!(g.outcome(&*v).unwrap(), Some(Outcome::win(Side::First, EndReason::Rule("far".into()))), "{hook}");
    }
    let src = format!(
        "{BOARD}const FAR = [\"2a\"];\nfn judge(pos) {{ if global::FAR.contains(\"1a\") {{ }} }}\nv.on(\"game_end\", Fn(\"judge\"));\nv\n"
    );
    let path = script_file("global", &src);
    let (ok, stderr, _) = henka(&["check", &path]);
    assert!(!ok && stderr.contains("curry(TABLE)") && stderr.contains(&format!("{path}:8:")), "{stderr}");
}

/// A movement callback that loops once the game is under way stops perft at its `v.on_moves`
/// line within the sandbox's second; one that returns garbage is an error at its line.
#[test]
fn hostile_movement_callbacks_get_clear_errors() {
    let looping =
        format!("{BOARD}{}", "v.on_moves(\"King\", |pos, from| { if pos.move_number > 1 { loop { } } [] });\nv\n");
    let path = script_file("callback-loop", &looping);
    let (ok, stderr, elapsed) = henka(&["perft", &path, "--depth", "3"]);
    assert!(!ok, "{stderr}");
    assert!(stderr.contains(&format!("{path}:7:")), "the callback's line: {stderr}");
    assert!(elapsed < Duration::from_secs(4), "took {elapsed:?}");

    let cases = [
        ("|pos, from| 42", "must return an array of moves"),
        ("|pos, from| [42]", "must return an array of cells or of maps"),
        ("|pos, from| [\"9z\"]", "9z"),
        ("|pos, from| [#{ via: \"1a\" }]", "without `to`"),
        ("|pos, from| [#{ to: \"1a\", jump: true }]", "unknown key `jump`"),
        ("|pos, from| [#{ to: \"1a\", becomes: \"Dragon\" }]", "\"Dragon\" is no piece's name or token"),
    ];
    for (i, (f, words)) in cases.iter().enumerate() {
        let src = format!("{BOARD}v.on_moves(\"King\", {f});\nv\n");
        let path = script_file(&format!("callback-garbage-{i}"), &src);
        let (ok, stderr, _) = henka(&["check", &path]);
        assert!(!ok, "{f}: {stderr}");
        assert!(stderr.contains(&format!("{path}:7:")), "{f}: the error should point at line 7: {stderr}");
        assert!(stderr.contains(words), "{f}: expected {words:?} in {stderr}");
    }
    // A capture outside the declared reach is refused, naming the piece.
    let src = format!(
        "{BOARD}v.on_moves(\"Rook\", #{{ reach: \"W\" }}, |pos, from| [\"5a\"]);\nv.setup(\"k4/5/5/5/R3K b - 1\");\nv\n"
    );
    let e = load_source("reach.rhai", &src).unwrap_err().to_string();
    assert!(
        e.contains("reach.rhai:7:")
            && e.contains("the move callback of the Rook: returned a capture on 5a, outside the reach"),
        "{e}"
    );
    // Unknown pieces and bad reaches are load errors at their line.
    for (call, words) in [
        ("v.on_moves(\"Dragon\", |pos, from| []);", "no piece is named \"Dragon\""),
        ("v.on_moves(\"Rook\", #{ reach: \"Q!\" }, |pos, from| []);", "`reach`"),
        ("v.after_move([\"Dragon\"], |fx| ());", "no piece is named \"Dragon\""),
    ] {
        let path = script_file("callback-unknown", &format!("{BOARD}{call}\nv\n"));
        let (ok, stderr, _) = henka(&["check", &path]);
        assert!(!ok && stderr.contains(&format!("{path}:7:")) && stderr.contains(words), "{call}: {stderr}");
    }
}

/// Effects that go wrong: a bad change is an error at its line; an effect that deletes both
/// royals makes every such move illegal for the mover (its own royal is gone), so the game ends
/// by the ordinary rules, with no panic and no hang.
#[test]
fn hostile_move_effects_end_cleanly() {
    let cases = [
        ("|fx| fx.place(\"3c\", \"Z\", \"black\")", "\"Z\" is no piece's name or token"),
        ("|fx| fx.set_counter(7, 1)", "counters 0 to 3"),
        ("|fx| fx.set_counter(0, -1)", "0 to 65535"),
        ("|fx| fx.move_piece(\"3c\", \"3b\")", "3c is empty"),
        ("|fx| fx.remove(\"9z\")", "9z"),
        ("|fx| { loop { } }", "ran"),
    ];
    for (i, (f, words)) in cases.iter().enumerate() {
        let path = script_file(&format!("effect-garbage-{i}"), &format!("{BOARD}v.after_move([], {f});\nv\n"));
        let (ok, stderr, elapsed) = henka(&["perft", &path, "--depth", "2"]);
        assert!(!ok, "{f}: {stderr}");
        assert!(stderr.contains(&format!("{path}:7:")), "{f}: the error should point at line 7: {stderr}");
        assert!(stderr.contains(words), "{f}: expected {words:?} in {stderr}");
        assert!(elapsed < Duration::from_secs(4), "{f}: took {elapsed:?}");
    }
    let src = format!(
        "{BOARD}{}",
        "v.after_move([], |fx| { for c in fx.royals(\"black\") { fx.remove(c); } for c in fx.royals(\"white\") { fx.remove(c); } });\nv\n"
    );
    let v = load("regicide.rhai", &src);
    let start = v.start_position();
    let mut out = Vec::new();
    v.legal_moves(&start, &mut out).unwrap();
    assert!(out.is_empty(), "every move would delete the mover's own King");
    assert_eq!(v.perft(&start, 3).unwrap(), 0);
    assert!(v.outcome(&start, &[]).unwrap().is_some_and(|o| o.winner == Some(Side::Second)), "Black cannot move");
}

/// A move effect that hands the turn back: two moves a turn, the first turn one move, a check
/// ending the turn (the gallery's Double-move shogi).
#[test]
fn an_effect_may_keep_the_turn() {
    let v = load("double-move-shogi.rhai", bundled("double-move-shogi"));
    let mut pos = v.start_position();
    let play = |pos: &mut henka_api::Position, m: &str| {
        let mv = v.parse_move(pos, m).unwrap();
        v.play(pos, mv).unwrap();
    };
    play(&mut pos, "1e1d"); // the game's first turn is one move
    assert_eq!(pos.side_to_move(), Side::Second);
    play(&mut pos, "5a5b");
    assert_eq!(pos.side_to_move(), Side::Second, "White's turn has two moves");
    assert_eq!(v.format_position(&pos).split(' ').nth(4), Some("0,0,0,0,1"), "the rule's counter 0 says so");
    play(&mut pos, "5b5c");
    assert_eq!(pos.side_to_move(), Side::First);
    assert_eq!(v.parse_position(&v.format_position(&pos)).unwrap(), pos, "the position string round-trips");
}

/// A drop callback decides where a type may be dropped: here Pawns only on the middle rank.
#[test]
fn a_drop_callback_decides_the_drop_cells() {
    let src = format!(
        "{BOARD}{}",
        "v.on_drop(\"Pawn\", |pos, cells| cells.filter(|c| c.ends_with(\"c\")));\nv.setup(\"4k/5/5/5/K4 b P 1\");\nv\n"
    );
    let v = load("drops.rhai", &src);
    let drops: Vec<String> =
        moves(v.as_ref(), "4k/5/5/5/K4 b P 1").into_iter().filter(|m| m.starts_with("P*")).collect();
    assert_eq!(drops, ["P*1c", "P*2c", "P*3c", "P*4c", "P*5c"]);
}

/// A callback piece gives check: the King must answer it, and the kit asks the callback only
/// where its reach covers the King.
#[test]
fn a_callback_piece_gives_check() {
    let v = load("crowd-shogi.rhai", bundled("crowd-shogi"));
    // White's Crowd on 3a has two friends beside it (4a, 2a), so it reaches 3b and 3c: Black's
    // King on 3c is in check from two cells away.
    let pos = v.parse_position("1gcg1/5/2K2/5/5 b - 1").unwrap();
    assert!(v.in_check(&pos));
    let pos = v.parse_position("1gc1k/5/2K2/5/5 b - 1").unwrap();
    assert!(!v.in_check(&pos), "one friend: range 1");
}
