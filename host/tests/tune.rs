//! `henka tune`: Texel tuning from a variant's own self-play, stored per script hash in the
//! (hermetic) cache folder and used by the AI for that exact script.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use henka::ai::eval::Evaluator;
use henka::ai::{PieceValues, searcher_for, tuned};
use henka_api::Variant;

fn henka(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_henka")).args(args).output().unwrap()
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("examples").join(name)
}

/// Minishogi with a Rook the script says is worth 10 centipawns: the untuned AI throws rooks
/// away, and the games it plays must teach the tuner otherwise.
fn cheap_rook_script() -> PathBuf {
    let src = std::fs::read_to_string(example("first-variant.rhai")).unwrap();
    let cheap = src.replace(r#"token: "R", moves: "R","#, r#"token: "R", moves: "R", value: 10,"#);
    assert_ne!(src, cheap, "the example still has its rook line");
    let dir = common::home().join("scripts");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cheap-rook.rhai");
    std::fs::write(&path, cheap).unwrap();
    path
}

#[test]
fn tuning_minishogi_writes_weights_that_the_ai_then_uses() {
    let script = example("first-variant.rhai");
    let o = henka(&[
        "tune",
        script.to_str().unwrap(),
        "--games",
        "12",
        "--nodes",
        "300",
        "--seed",
        "3",
        "--threads",
        "2",
        "--teacher-nodes",
        "200",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let loaded = henka::script::load_file(&script).unwrap();
    let v: Arc<dyn Variant> = loaded.variant.clone();
    let dir = tuned::cache_dir().unwrap();
    assert!(dir.starts_with(common::home()), "the cache is the test's own: {}", dir.display());
    let file = dir.join(tuned::file_name("Minishogi", loaded.content_hash));
    assert!(file.is_file(), "{out}");
    assert!(out.contains(&file.display().to_string()), "{out}");
    let t = tuned::for_variant(&v).expect("the tuned weights load for this script");
    assert_eq!(t.games, 12);
    assert!(t.positions > 0);
    assert_eq!(t.teacher_nodes, 200, "each position was also searched by the teacher");

    // The AI now evaluates with them: somewhere the score differs from the estimated one.
    let untuned = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &loaded.piece_values));
    let searcher = searcher_for(v.clone(), &loaded.piece_values, 1);
    assert_eq!(searcher.evaluator().terms(), t.terms);
    let positions = ["rbsgk/4p/5/P4/KGSBR b - 1", "rbsgk/5/5/P4/KGSB1 b Rp 1", "1bsgk/4p/5/P4/KGSBR w R 1"];
    let differs = positions.iter().any(|p| {
        let pos = v.parse_position(p).unwrap();
        searcher.evaluator().evaluate(&pos) != untuned.evaluate(&pos)
    });
    assert!(differs, "the tuned evaluation is in use");

    // Another script (one changed byte) has another hash: untuned.
    let other = henka::script::load_source("other", &(std::fs::read_to_string(&script).unwrap() + " ")).unwrap();
    let other: Arc<dyn Variant> = other.variant;
    assert!(tuned::for_variant(&other).is_none());
    assert_eq!(searcher_for(other, &[], 1).evaluator().terms(), henka::ai::eval::Terms::default());
}

#[test]
fn tuning_learns_what_a_badly_valued_piece_is_worth() {
    // Deterministic: node-limited games from a fixed seed. The untuned value is 10; only the
    // games' results can raise it, so this cannot pass by accident.
    let script = cheap_rook_script();
    let o =
        henka(&["tune", script.to_str().unwrap(), "--games", "60", "--nodes", "400", "--seed", "5", "--threads", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let loaded = henka::script::load_file(&script).unwrap();
    let v: Arc<dyn Variant> = loaded.variant.clone();
    let rook = v.info().pieces.iter().position(|p| p.written() == "R").unwrap();
    assert_eq!(PieceValues::estimate(v.as_ref(), &loaded.piece_values).board(rook as u8), 10);
    let t = tuned::for_variant(&v).unwrap();
    // Tuned values stay within a factor of three of the untuned ones (10 on the board, 12 in hand).
    assert!(
        t.board[rook] >= 20 && t.hand[rook] >= 24,
        "the rook is worth more than 10: {} on the board, {} in hand",
        t.board[rook],
        t.hand[rook]
    );
}

#[test]
fn an_engine_over_usi_can_be_the_teacher() {
    // Henka's own USI engine stands in for a stronger one: every learnt position goes through
    // the protocol, and the stored file says who taught.
    let command = format!("{} usi shogi", env!("CARGO_BIN_EXE_henka"));
    let teacher = format!("usi:{command}");
    let args = ["tune", "shogi", "--games", "4", "--nodes", "200", "--seed", "2", "--threads", "2"];
    let o = henka(&[&args[..], &["--teacher-nodes", "300", "--teacher", &teacher]].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("searching 300 nodes per position as the teacher"), "{out}");
    let (_, src) = henka::catalog::BUNDLED.iter().find(|(n, _)| *n == "shogi").unwrap();
    let v: Arc<dyn Variant> = henka::script::load_source("shogi", src).unwrap().variant;
    let t = tuned::for_variant(&v).expect("the tuned weights load for the bundled shogi");
    assert_eq!(t.teacher.as_deref(), Some(command.as_str()));
    assert_eq!(t.teacher_nodes, 300);
    assert!(t.positions > 0);
    // An engine may answer without a score now and then (a forced move); nearly all positions
    // must come back judged.
    assert!(t.taught <= t.positions && t.taught * 10 >= t.positions * 9, "{out}");
    assert!(out.contains(&format!("{} of them judged by the teacher", t.taught)), "{out}");

    // A teacher that is not a USI engine, or one given no nodes, is refused before any game.
    let o = henka(&[&args[..], &["--teacher-nodes", "300", "--teacher", "fairy-stockfish"]].concat());
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--teacher takes `usi:<engine command line>`"));
    let o = henka(&[&args[..], &["--teacher-nodes", "0", "--teacher", &teacher]].concat());
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--teacher needs --teacher-nodes above 0"));
}

#[test]
fn a_placement_table_is_learnt_from_the_teachers_verdicts_and_then_used() {
    // A copy of Minishogi of its own (another hash), so the other tests' files stay apart.
    let src = std::fs::read_to_string(example("first-variant.rhai")).unwrap();
    let dir = common::home().join("scripts");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("placement-minishogi.rhai");
    std::fs::write(&script, src + "\n// learns a placement table\n").unwrap();
    let path = script.to_str().unwrap();
    let args = ["tune", path, "--placement", "--games", "100", "--nodes", "300", "--seed", "4", "--threads", "2"];
    let o = henka(&[&args[..], &["--teacher-nodes", "200"]].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("placement table:"), "{out}");
    let loaded = henka::script::load_file(&script).unwrap();
    let v: Arc<dyn Variant> = loaded.variant.clone();
    let t = tuned::for_variant(&v).expect("stored for this script");
    let fit = t.placement_fit.as_ref().expect("the fit's report is stored");
    assert!(fit.samples >= 100 && fit.samples <= t.taught, "{fit:?}");
    assert!(!t.placement.is_empty(), "{out}");
    // The values and terms are the ones it started from: only the table is learnt.
    let untuned = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &loaded.piece_values));
    assert_eq!(t.board, untuned.values().board_values());
    assert_eq!(t.terms, untuned.terms());
    // Every AI for this script now adds the table to its evaluation.
    let searcher = searcher_for(v.clone(), &loaded.piece_values, 1);
    assert!(searcher.evaluator().placement().is_some());
    let positions = ["rbsgk/4p/5/P4/KGSBR b - 1", "rbsgk/5/5/P4/KGSB1 b Rp 1", "1bsgk/4p/5/P4/KGSBR w R 1"];
    let differs = positions.iter().any(|p| {
        let pos = v.parse_position(p).unwrap();
        searcher.evaluator().evaluate(&pos) != untuned.evaluate(&pos)
    });
    assert!(differs, "the table is in use");

    // The same games and verdicts with a share of each game's result: another table, on record.
    let verdicts_alone = t.placement.clone();
    let o = henka(&[&args[..], &["--teacher-nodes", "200", "--result-share", "0.3"]].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("the targets were 30% the games' results, 70% the teacher's verdicts"), "{out}");
    let blended = tuned::for_variant(&v).expect("stored for this script");
    assert_eq!(blended.placement_result_share, 0.3);
    assert_ne!(blended.placement, verdicts_alone, "the results moved the table");
    // A target that is all result would be a bare win or loss: refused before any game.
    let o = henka(&[&args[..], &["--teacher-nodes", "200", "--result-share", "1"]].concat());
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("up to (not including) 1"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // The same games again, the hand's family left out: its weights stay zero, the file says so.
    assert!(t.placement.iter().any(|l| l.starts_with("hand ")), "the full fit learns hand weights: {out}");
    let o = henka(&[&args[..], &["--teacher-nodes", "200", "--without", "hand"]].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("left out of the fit, their weights zero: hand"), "{out}");
    let t = tuned::for_variant(&v).expect("stored for this script");
    assert_eq!(t.placement_without, ["hand"]);
    assert!(!t.placement.is_empty() && t.placement.iter().all(|l| !l.starts_with("hand ")), "{:?}", t.placement);

    // A table is learnt from verdicts: without a teacher the command is refused before any game.
    let o = henka(&args);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--teacher-nodes"), "{}", String::from_utf8_lossy(&o.stderr));
}
