//! The editor's Playtest tab through its UI: a run in the background drawn as plots, then after a
//! rule edit "Compare with before" showing both rule sets side by side.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use henka::ai::PieceValues;
use henka::editor::playtest_panel::{Outcome, PlaytestPanel};
use henka::playtest::Subject;
use henka_api::Variant;

const MINISHOGI: &str = include_str!("../../examples/first-variant.rhai");

fn subject(text: &str) -> Subject {
    let loaded = henka::script::load_source("first-variant", text).unwrap();
    let variant: Arc<dyn Variant> = loaded.variant;
    Subject {
        label: "first-variant".into(),
        variant_name: "first-variant".into(),
        values: PieceValues::estimate(variant.as_ref(), &loaded.piece_values),
        variant,
        script_hash: Some(loaded.content_hash),
        options: Vec::new(),
    }
}

struct State {
    panel: PlaytestPanel,
    text: String,
}

fn wait_for(h: &mut Harness<'static, State>, what: &str, done: impl Fn(&State) -> bool) {
    let t = Instant::now();
    while !done(h.state()) {
        assert!(t.elapsed() < Duration::from_secs(120), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
        h.step();
    }
    h.run_steps(2);
}

/// The tab on the minishogi script, set to play `games` seeded games of 300 nodes a move.
fn harness(games: u32, height: f32) -> Harness<'static, State> {
    let mut panel = PlaytestPanel::default();
    (panel.games, panel.nodes, panel.threads, panel.seed) = (games, Some(300), 2, Some(4));
    let mut h = Harness::builder().with_size([900.0, height]).build_ui_state(
        |ui, s: &mut State| {
            let text = s.text.clone();
            let hash = henka::script::content_hash(&text);
            s.panel.show(ui, Some(hash), &|| subject(&text));
        },
        State { panel, text: MINISHOGI.to_string() },
    );
    h.run_steps(2);
    h
}

#[test]
fn a_playtest_runs_in_the_background_and_compares_with_the_rules_before_an_edit() {
    let mut h = harness(6, 900.0);
    assert!(h.query_by_label("Compare with before").is_none(), "nothing to compare with yet");
    h.get_by_label("Run playtest").click();
    h.run_steps(2);
    assert!(h.state().panel.running());
    wait_for(&mut h, "the playtest", |s| !s.panel.running());
    assert!(h.state().panel.error.is_none(), "{:?}", h.state().panel.error);
    let Some(Outcome::Single(f)) = &h.state().panel.outcome else { panic!("one run") };
    assert_eq!(f.report.games, 6);
    h.get_by_label("first-variant: 6 games");
    assert!(h.query_by_label("Compare with before").is_none(), "the rules did not change");

    // The designer takes White's Rook and Bishop away; the tab offers the comparison.
    h.state_mut().text =
        MINISHOGI.replace(r#"v.setup("rbsgk/4p/5/P4/KGSBR b - 1");"#, r#"v.setup("2sgk/4p/5/P4/KGSBR b - 1");"#);
    h.run_steps(2);
    h.get_by_label("Compare with before").click();
    h.run_steps(2);
    wait_for(&mut h, "the comparison", |s| !s.panel.running());
    let Some(Outcome::Compared { before, after }) = &h.state().panel.outcome else { panic!("a comparison") };
    assert_ne!(before.subject.script_hash, after.subject.script_hash);
    assert_eq!((before.report.games, after.report.games), (6, 6));
    assert!(h.query_by_label_contains("After − before, first player's score").is_some());
    for side in ["before", "after"] {
        assert!(h.query_all_by_label(side).next().is_some(), "{side} column");
    }
    assert!(h.query_by_label_contains("No fitted values: too few games").is_some(), "six games say nothing clear");
    h.snapshot("playtest-compare");
}

#[test]
fn enough_games_fill_in_the_fitted_piece_values_with_their_intervals() {
    // Six games leave the values unclear (the test above says so); a hundred make them clear.
    let mut h = harness(100, 700.0);
    h.get_by_label("Run playtest").click();
    h.run_steps(2);
    wait_for(&mut h, "the playtest", |s| !s.panel.running());
    let Some(Outcome::Single(f)) = &h.state().panel.outcome else { panic!("one run") };
    assert!(f.report.fitted_scale.is_some(), "a hundred games make some value clear");
    let rook = f.report.pieces.iter().find(|p| p.name == "Rook").unwrap();
    let (value, margin) = (rook.fitted_value.unwrap(), rook.fitted_margin.unwrap());
    assert!(margin > 0.0 && value - margin > 0.0, "the Rook is clearly worth something: {value:.0} ± {margin:.0}");
    h.get_by_label("Piece values: estimated from the rules, and fitted from the games (with 95% intervals)");
    assert!(h.query_by_label_contains("No fitted values").is_none());
    h.snapshot("playtest-values");
}
