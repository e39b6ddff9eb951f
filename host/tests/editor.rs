//! The editor driven through its real UI with egui_kittest: cells, hands, dialogs and the script
//! text are found by their accessible names and clicked or typed into, as a user would.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use henka::editor::{EditorApp, Persisted, StartOptions, Tab};

const OKISAKI: &str = include_str!("../../scripts/okisaki.rhai");

fn start(open: &str, position: Option<&str>) -> StartOptions {
    StartOptions {
        open: Some(open.to_string()),
        position: position.map(str::to_string),
        typing_pause: Duration::ZERO,
        ..Default::default()
    }
}

/// The harness's window.
const WINDOW: egui::Vec2 = egui::vec2(1400.0, 900.0);

fn harness(options: StartOptions) -> Harness<'static, EditorApp> {
    harness_sized(options, WINDOW)
}

fn harness_sized(options: StartOptions, size: egui::Vec2) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(options, Persisted::default());
    let mut h = Harness::builder().with_size(size).build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run_steps(3);
    h
}

/// Whether the widget labelled `label` lies wholly inside a window of `size`.
fn in_window(h: &Harness<'static, EditorApp>, label: &str, size: egui::Vec2) -> bool {
    egui::Rect::from_min_size(egui::Pos2::ZERO, size).contains_rect(h.get_by_label(label).rect())
}

/// A fresh folder with a copy of the Okisaki script, for tests that edit or save it.
fn okisaki_copy(tag: &str) -> PathBuf {
    let dir = common::home().join(format!("editor-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("okisaki.rhai");
    std::fs::write(&path, OKISAKI).unwrap();
    path
}

/// The editor on a fresh copy of the Okisaki script.
fn open_copy(tag: &str) -> (PathBuf, Harness<'static, EditorApp>) {
    let path = okisaki_copy(tag);
    let h = harness(start(path.to_str().unwrap(), None));
    (path, h)
}

/// Clicks cells in turn (from, to, from, to, …).
fn click_cells(h: &mut Harness<'static, EditorApp>, cells: &[&str]) {
    for c in cells {
        click(h, c);
    }
}

fn click(h: &mut Harness<'static, EditorApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

/// Steps the UI until `done` holds (background compiles and file events take real time).
fn wait_until(h: &mut Harness<'static, EditorApp>, what: &str, done: impl Fn(&EditorApp) -> bool) -> Duration {
    let t = Instant::now();
    while !done(h.state()) {
        assert!(t.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(1));
        h.step();
    }
    t.elapsed()
}

/// Replaces the whole script text through the script panel, as typing would.
fn type_script(h: &mut Harness<'static, EditorApp>, text: &str) {
    h.get_by_label("Script text").click();
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.get_by_label("Script text").type_text(text);
    h.run_steps(2);
}

#[test]
fn moves_by_clicking_cells_promotion_choice_and_undo() {
    let mut h = harness(start("okisaki", None));
    click_cells(&mut h, &["3h", "3g"]);
    assert_eq!(h.state().session().move_texts(), ["3h3g"]);
    click_cells(&mut h, &["8c", "8d"]);
    assert_eq!(h.state().session().move_texts(), ["3h3g", "8c8d"]);
    click(&mut h, "Undo");
    assert_eq!(h.state().session().move_texts(), ["3h3g"]);
    click(&mut h, "Redo");
    assert_eq!(h.state().session().move_texts(), ["3h3g", "8c8d"]);

    // A pawn entering the zone: the promotion is optional, so the editor asks.
    let mut h = harness(start("okisaki", Some("4k5/10/10/4P5/10/10/10/10/10/5K4 b - 1")));
    click_cells(&mut h, &["6d", "6c"]);
    assert!(h.state().session().move_texts().is_empty(), "nothing is played before the choice");
    // Each choice shows the piece it leaves: its kanji and its moves, in words and drawn.
    for (kanji, moves) in [("と金", "WfF"), ("歩兵", "fW")] {
        assert!(h.query_by_label(kanji).is_some(), "{kanji}");
        assert!(h.query_by_label(&henka::describe::describe(moves)).is_some(), "{moves} in words");
    }
    click(&mut h, "Promote to Tokin");
    assert_eq!(h.state().session().move_texts(), ["6d6c+"]);
}

#[test]
fn drops_from_hand() {
    let mut h = harness(start("okisaki", Some("4k5/10/10/10/10/10/10/10/10/5K4 b 3P 1")));
    let count = |h: &Harness<'static, EditorApp>| h.get_by_label("Black hand Pawn").accesskit_node().numeric_value();
    assert_eq!(count(&h), Some(3.0), "the hand shows how many");
    click(&mut h, "Black hand Pawn");
    click(&mut h, "5e");
    assert_eq!(h.state().session().move_texts(), ["P*5e"]);
    assert_eq!(count(&h), Some(2.0));
}

#[test]
fn dragging_a_piece_moves_it() {
    let mut h = harness(start("okisaki", None));
    let from = h.get_by_label("2h").rect().center();
    let to = h.get_by_label("2g").rect().center();
    h.drag_at(from);
    h.run_steps(2);
    h.hover_at(to);
    h.run_steps(2);
    h.drop_at(to);
    h.run_steps(2);
    assert_eq!(h.state().session().move_texts(), ["2h2g"]);
}

#[test]
fn editing_the_script_changes_the_rules_live_and_keeps_the_game() {
    let (_, mut h) = open_copy("edit");
    click_cells(&mut h, &["3h", "3g", "8c", "8d"]);
    // Before: a pawn only steps forward.
    click_cells(&mut h, &["3g", "3h"]);
    assert_eq!(h.state().session().move_texts().len(), 2, "3g3h is not a pawn move yet");

    // The designer lets pawns step back too.
    let edited = OKISAKI.replace(r#"token: "P", moves: "fW""#, r#"token: "P", moves: "fWbW""#);
    assert_ne!(edited, OKISAKI);
    type_script(&mut h, &edited);
    wait_until(&mut h, "the edited rules", |app| app.session().rules_match(&edited));
    assert_eq!(h.state().session().move_texts(), ["3h3g", "8c8d"], "the game survives the reload");
    click_cells(&mut h, &["3g", "3h"]);
    assert_eq!(h.state().session().move_texts(), ["3h3g", "8c8d", "3g3h"]);
    assert!(h.state().session().doc.is_dirty(), "typing does not save");
}

#[test]
fn a_broken_script_shows_its_line_and_the_board_still_plays() {
    let (path, mut h) = open_copy("broken");
    // Line 34 loses its closing parenthesis.
    let broken = OKISAKI.replace("v.drops(true);", "v.drops(true;");
    let line = 1 + OKISAKI[..OKISAKI.find("v.drops(true);").unwrap()].lines().count();
    type_script(&mut h, &broken);
    wait_until(&mut h, "the compile error", |app| app.session().error.is_some());
    let e = h.state().session().error.clone().unwrap();
    assert_eq!(e.location.as_ref().unwrap().line as usize, line, "{e}");
    let shown = format!("okisaki.rhai:{line}:");
    assert!(h.query_all_by_label_contains(&shown).count() >= 1, "the error is on screen with its line");
    // The last good rules still play.
    click_cells(&mut h, &["3h", "3g"]);
    assert_eq!(h.state().session().move_texts(), ["3h3g"]);
    // Clicking the error jumps to it, with the keyboard focus; fixing the text clears it.
    assert!(!h.get_by_label("Script text").is_focused(), "the board took the focus");
    h.get_by_label_contains(&format!("⚠ {}", path.display())).click();
    h.run_steps(2);
    assert!(h.get_by_label("Script text").is_focused(), "typing goes to the script at once");
    type_script(&mut h, OKISAKI);
    wait_until(&mut h, "the fix", |app| app.session().error.is_none());
    assert_eq!(h.state().session().move_texts(), ["3h3g"]);
}

#[test]
fn an_external_save_reloads_within_the_latency_goal_and_is_reported() {
    let (path, mut h) = open_copy("latency");
    click_cells(&mut h, &["3h", "3g"]);
    std::thread::sleep(Duration::from_millis(100)); // let the watcher settle
    let mut latencies = Vec::new();
    for round in 0..5 {
        let text = OKISAKI.replace("version: \"1.0\"", &format!("version: \"1.{}\"", round + 1));
        let written = Instant::now();
        std::fs::write(&path, &text).unwrap();
        wait_until(&mut h, "the external save", |app| app.session().rules_match(&text));
        latencies.push(written.elapsed());
        assert_eq!(h.state().session().doc.text, text, "the editor shows the file's new text");
        assert_eq!(h.state().session().move_texts(), ["3h3g"]);
    }
    latencies.sort();
    let status = h.state().controller().reload_status().cloned().unwrap();
    assert!(status.to_string().contains("reloaded okisaki.rhai in"), "{status}");
    eprintln!(
        "reload latency, file write → new rules live (debug build): median {:?}, max {:?}",
        latencies[2], latencies[4]
    );
}

#[test]
fn saving_writes_the_file_atomically_and_the_watcher_does_not_reload_our_own_save() {
    let (path, mut h) = open_copy("save");
    let edited = OKISAKI.replace("version: \"1.0\"", "version: \"1.1\"");
    type_script(&mut h, &edited);
    wait_until(&mut h, "the typed rules", |app| app.session().rules_match(&edited));
    let compiles = h.state().controller().reload_status().cloned();
    click(&mut h, "Save");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    assert!(!h.state().session().doc.is_dirty());
    for _ in 0..30 {
        std::thread::sleep(Duration::from_millis(5));
        h.step();
    }
    assert_eq!(h.state().controller().reload_status().map(|r| r.total), compiles.map(|r| r.total), "no second reload");
    let leftovers: Vec<_> =
        std::fs::read_dir(path.parent().unwrap()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

/// Steps the UI until some label contains `text`.
fn wait_for_label(h: &mut Harness<'static, EditorApp>, text: &str) -> String {
    let t = Instant::now();
    loop {
        if let Some(n) = h.query_all_by_label_contains(text).next() {
            let node = n.accesskit_node();
            return node.label().or_else(|| node.value()).unwrap_or_default();
        }
        assert!(t.elapsed() < Duration::from_secs(60), "timed out waiting for {text:?}");
        std::thread::sleep(Duration::from_millis(2));
        h.step();
    }
}

#[test]
fn the_inspector_follows_the_script_as_it_is_edited() {
    // The inspector and the piece lab both show the definition, in Betza and in words.
    let (_, mut h) = open_copy("inspector");
    click(&mut h, "Pieces");
    assert_eq!(h.state().tab, Tab::Pieces);
    click(&mut h, "Piece");
    click(&mut h, "Pawn 歩兵 (P)");
    assert!(h.query_all_by_label("fW").next().is_some(), "the pawn's definition is shown");
    let words = henka::describe::describe("fW");
    assert!(h.query_all_by_label(&words).next().is_some(), "… and in words: {words:?}");
    let edited = OKISAKI.replace(r#"token: "P", moves: "fW""#, r#"token: "P", moves: "fWbW""#);
    click(&mut h, "Script");
    type_script(&mut h, &edited);
    wait_until(&mut h, "the edited rules", |app| app.session().rules_match(&edited));
    click(&mut h, "Pieces");
    assert!(h.query_all_by_label("fWbW").next().is_some(), "the inspector shows the new definition");
    assert!(h.query_all_by_label(&henka::describe::describe("fWbW")).next().is_some(), "… in words too");
}

#[test]
fn perft_runs_in_the_background_with_divide() {
    let mut h = harness(start("okisaki", None));
    click(&mut h, "Perft");
    click(&mut h, "Run perft");
    let done = wait_for_label(&mut h, "depth 3: ");
    assert!(done.starts_with("depth 3: 48211 nodes"), "{done:?}");
}

/// Rendered images of the main screens (wgpu on the CPU adapter; `UPDATE_SNAPSHOTS=1` rewrites).
#[test]
fn rendered_snapshots() {
    let mut results = egui_kittest::SnapshotResults::new();
    let mut h = harness(start("okisaki", None));
    click(&mut h, "3h");
    h.remove_cursor();
    h.run_steps(2);
    results.add(h.try_snapshot("editor-okisaki-piece-picked"));

    let mut h = harness(start("ogi", None));
    click(&mut h, "Pieces");
    h.remove_cursor();
    h.run_steps(2);
    results.add(h.try_snapshot("editor-ogi-inspector"));

    // The bundled script (tests run in host/, which has no scripts/ folder), so the error names
    // `bundled:okisaki.rhai` on every machine.
    let broken = OKISAKI.replace("v.drops(true);", "v.drops(true;");
    let mut h = harness(start("okisaki", None));
    type_script(&mut h, &broken);
    wait_until(&mut h, "the compile error", |app| app.session().error.is_some());
    h.remove_cursor();
    h.run_steps(2);
    results.add(h.try_snapshot("editor-script-error"));
}

/// Ladies and Generals after 160 random plies (the perft suite's `midgame`): Black's Duchess on
/// bx6 has lines through several levels.
const LG_MIDGAME: &str = "2c1L1/xf1Ly1/2pp1p/p2p2/2pP2/4P1/2P2P/1J1C2/FL+p2F|ajkyaf/1uc1uj/p1p+P1p/1ppp2/4P1/PPBP1P/PY1P1P/2AJC1/X2Y1X|6/1rtebx/zp1pp1/PP3p/pP2p1/P4p/4P1/Z1R3/2EKAZ|z4z/3qz1/pr1p2/1Dv2f/P3p1/1PU1JP/1P1PPP/1U2R1/ZV1TVZ|xjtvbx/4uj/1p1c1p/1P1p2/4p1/1P1U1P/1CPB1P/2P1U1/XQ1T1X|flu1l1/d5/ppppp1/pc2p1/3p2/1PPP2/P3PP/4J1/FL1CLF b L 161";

#[test]
fn the_3d_board_moves_across_levels_by_clicking_cells() {
    let mut h = harness(start("ladies-and-generals", None));
    assert!(h.query_by_label_contains("The levels are stacked top to bottom").is_some(), "the view explains itself");
    // A Princeling steps forward and down a level (v → w); White's answers up a level (w → x).
    click_cells(&mut h, &["cv3", "cw4"]);
    click_cells(&mut h, &["dw7", "dx6"]);
    assert_eq!(h.state().session().move_texts(), ["cv3cw4", "dw7dx6"]);
    // A drop onto another slice.
    let mut h = harness(start("ladies-and-generals", Some(LG_MIDGAME)));
    click(&mut h, "Black hand Rookranker");
    click(&mut h, "az5");
    assert_eq!(h.state().session().move_texts(), ["L*az5"]);
}

/// The 3D view: six level slices (u at the top left), the picked piece's targets across slices,
/// and a hovered piece's lines through the levels.
#[test]
fn rendered_snapshots_of_the_3d_board() {
    let mut results = egui_kittest::SnapshotResults::new();
    let mut h = harness(start("ladies-and-generals", None));
    click(&mut h, "cv3");
    h.remove_cursor();
    h.run_steps(2);
    results.add(h.try_snapshot("editor-ladies-and-generals-picked"));

    let mut h = harness(start("ladies-and-generals", Some(LG_MIDGAME)));
    let duchess = h.get_by_label("bx6").rect().center();
    h.hover_at(duchess);
    h.run_steps(3);
    results.add(h.try_snapshot("editor-ladies-and-generals-hover"));
}

/// A piece whose moves a script callback computes (the gallery's Crowd) has no diagram that says
/// them all: its hover card says so, and hovering lights up where it can go as the board stands
/// (3d and 3c: two friends beside it at the start).
#[test]
fn a_callback_piece_shows_its_moves_where_it_stands() {
    let mut results = egui_kittest::SnapshotResults::new();
    let mut h = harness(start("crowd-shogi", None));
    let crowd = h.get_by_label("3e").rect().center();
    h.hover_at(crowd);
    h.run_steps(60);
    assert!(h.query_by_label_contains("computes more of its moves").is_some(), "the hover card explains");
    results.add(h.try_snapshot("editor-crowd-hover"));
}

#[test]
fn a_variant_opened_from_the_list_compiles_in_the_background_and_starts_its_game() {
    let mut h = harness(start("okisaki", None));
    click_cells(&mut h, &["3h", "3g"]);
    click(&mut h, "ogi");
    wait_until(&mut h, "Ogi's rules", |app| app.session().variant().info().meta.name == "Ogi");
    assert!(h.state().session().move_texts().is_empty(), "a fresh game");
    assert!(h.query_by_label("opened Ogi").is_some(), "the status line says so");
    click_cells(&mut h, &["3f", "3e"]);
    assert_eq!(h.state().session().move_texts(), ["3f3e"]);
}

#[test]
fn the_compiled_plugin_takes_over_the_board_and_reloads_with_the_game_kept() {
    let mut h = harness(start("okisaki", None));
    click_cells(&mut h, &["3h", "3g"]);
    // Needs the plugins built (`cargo build --workspace`, as the README's test command does).
    click(&mut h, "Plugin engine");
    click_cells(&mut h, &["8c", "8d"]);
    assert_eq!(h.state().session().move_texts(), ["3h3g", "8c8d"]);
    assert!(h.query_all_by_label_contains("plugin ").next().is_some(), "the status names the plugin");
    click(&mut h, "Reload plugin");
    assert_eq!(h.state().session().move_texts(), ["3h3g", "8c8d"]);
    click(&mut h, "Script engine");
    click_cells(&mut h, &["2h", "2g"]);
    assert_eq!(h.state().session().move_texts(), ["3h3g", "8c8d", "2h2g"]);
}

/// Taishin's Lion at 13m (m13 in docs/rules/taishin.md's coordinates) between two Gote pawns, the Kings in far corners.
const LION: &str = "24k/25/25/25/25/25/25/25/25/25/12p12/12p12/12(LN)12/25/25/25/25/25/25/25/25/25/25/25/K24 b - 1";

#[test]
fn taishin_stop_over_moves_by_successive_clicks_and_a_lions_pass() {
    // Igui: the Lion, the pawn it takes, back to its own cell.
    let mut h = harness(start("taishin", Some(LION)));
    click_cells(&mut h, &["13m", "13l", "13m"]);
    assert_eq!(h.state().session().move_texts(), ["13m13l13m+"]);
    // Double capture: one stop on each pawn.
    let mut h = harness(start("taishin", Some(LION)));
    click_cells(&mut h, &["13m", "13l", "13k"]);
    assert_eq!(h.state().session().move_texts(), ["13m13l13k+"]);
    // A pass: pick the Lion, then its pass button.
    let mut h = harness(start("taishin", Some(LION)));
    click(&mut h, "13m");
    click(&mut h, "Pass with the Lion");
    assert_eq!(h.state().session().move_texts(), ["13m13m"]);
    assert!(h.query_by_label("Black hand").is_none(), "no hands in a variant without drops");
}

#[test]
fn hovering_a_piece_shows_its_name_and_moves() {
    let mut h = harness(start("taishin", Some(LION)));
    let at = h.get_by_label("13m").rect().center();
    h.hover_at(at);
    h.run_steps(60);
    assert!(h.query_by_label("Lion 獅子").is_some(), "the hover card names the piece");
    assert!(h.query_by_label("KNADcaKmcabK").is_some(), "… and shows its move");
    let words = henka::describe::describe("KNADcaKmcabK");
    assert!(h.query_all_by_label(&words).next().is_some(), "… in words: {words:?}");
}

#[test]
fn the_hint_button_shows_a_legal_move() {
    let mut h = harness(start("okisaki", None));
    h.state_mut().ai.set_players(false, false, 0.2);
    click(&mut h, "Hint");
    let hint = wait_for_label(&mut h, "Hint: ");
    let mv = hint.strip_prefix("Hint: ").unwrap().to_string();
    let app = h.state();
    let legal: Vec<String> = app
        .session()
        .legal_moves()
        .unwrap()
        .iter()
        .map(|&m| app.session().variant().format_move(app.session().game().position(), m))
        .collect();
    assert!(legal.contains(&mv), "{mv} is legal");
    assert!(app.session().move_texts().is_empty(), "a hint plays nothing");
    // The board shows the hint as an arrow, for this position only.
    let arrows = app.ai.arrows(app.session());
    assert_eq!(arrows.len(), 1, "{arrows:?}");
    assert_eq!(app.session().variant().format_move(app.session().game().position(), arrows[0].mv), mv);
    assert_eq!(arrows[0].kind, henka::editor::ArrowKind::Hint);
    assert!(h.query_all_by_label_contains("Evaluation ").next().is_some(), "the evaluation is shown");
    click_cells(&mut h, &["3h", "3g"]);
    assert!(h.state().ai.arrows(h.state().session()).is_empty(), "the hint goes with the position it was for");
}

#[test]
fn the_ai_replies_to_a_move_and_plays_itself() {
    let mut h = harness(start("okisaki", None));
    h.state_mut().ai.set_players(false, true, 0.1);
    click_cells(&mut h, &["3h", "3g"]);
    wait_until(&mut h, "the AI's reply", |app| app.session().move_texts().len() == 2);
    assert_eq!(h.state().session().move_texts()[0], "3h3g");
    assert_eq!(h.state().session().game().position().side_to_move(), henka_api::Side::First, "the human's turn again");
    // With both sides set, the AI plays on by itself while the window keeps drawing.
    click(&mut h, "AI plays Black");
    wait_until(&mut h, "AI against AI", |app| app.session().move_texts().len() >= 4);
}

#[test]
fn the_game_in_progress_is_restored_from_the_autosave() {
    let dir = common::home().join("editor-autosave");
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("autosave.henka");
    let options = || StartOptions { autosave: Some(file.clone()), typing_pause: Duration::ZERO, ..Default::default() };
    let mut h = harness(StartOptions { open: Some("ogi".into()), ..options() });
    click_cells(&mut h, &["3f", "3e", "6c", "6d"]);
    assert_eq!(h.state().session().move_texts(), ["3f3e", "6c6d"]);
    drop(h);
    // A new editor opened without naming a variant finds the game where it was.
    let h = harness(options());
    assert_eq!(h.state().session().doc.name, "ogi");
    assert_eq!(h.state().session().move_texts(), ["3f3e", "6c6d"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_rule_option_is_chosen_in_the_panel_and_the_game_plays_on_under_it() {
    let path = okisaki_copy("options");
    let option = r#"option("drops", [#{ value: "on", about: "Captured pieces may be dropped back." }, #{ value: "off", about: "Captured pieces leave the game." }])"#;
    let text = OKISAKI.replace("v.drops(true);", &format!("v.drops({option} == \"on\");"));
    assert_ne!(text, OKISAKI, "the script still has its drops line");
    std::fs::write(&path, text).unwrap();
    let mut h = harness(start(path.to_str().unwrap(), None));
    click_cells(&mut h, &["3h", "3g", "3c", "3d"]);
    assert!(h.state().session().variant().info().hand_types.len() > 1);
    click(&mut h, "Rule options (1)");
    assert!(h.query_by_label("Captured pieces may be dropped back.").is_some(), "the choice in force is explained");
    click(&mut h, "drops");
    click(&mut h, "off");
    wait_until(&mut h, "the rules without drops", |a| a.session().variant().info().hand_types.is_empty());
    h.run_steps(2);
    assert!(h.query_by_label("Captured pieces leave the game.").is_some(), "the explanation follows the choice");
    let s = h.state().session();
    assert_eq!(s.move_texts(), ["3h3g", "3c3d"], "the game survives the change of rules");
    assert_eq!(s.declared_options()[0].value, "off");
    assert_eq!(h.state().controller().options().get("drops").map(String::as_str), Some("off"));
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// Ki Shogi mid-game: Black's Kaku on 4f (11,9) stands next to White's Cho only, so White's last
/// turn stranded it and it is under grace; Black to move.
const KI_GRACE: &str = "b bGyoku@7,7;bHi@8,6;bKaku@11,9;wGyoku@9,8;wCho@10,9;wMyou@9,9 b:-,w:- 11,9 12";

/// The width of a board cell on screen.
fn cell_width(h: &Harness<'static, EditorApp>, cell: &str) -> f32 {
    h.get_by_label(cell).rect().width()
}

#[test]
fn ki_shogi_is_played_by_clicking_and_the_view_frames_the_cluster() {
    let mut h = harness(start("ki-shogi", None));
    // The empty field shows the whole 15×15 box.
    let whole = cell_width(&h, "8h");
    assert!(h.query_by_label("15o").is_some() && h.query_by_label("1a").is_some(), "every corner in view");
    // The seed's first moves: both placements, then a drop whose face is chosen in the dialog.
    click(&mut h, "Black hand Gyoku");
    click(&mut h, "8h");
    click(&mut h, "White hand Gyoku");
    click(&mut h, "7f");
    click(&mut h, "Black hand Hi");
    click(&mut h, "7h");
    assert_eq!(h.state().session().move_texts(), ["*Gyoku", "*Gyoku NNE"], "the drop waits for its face");
    click(&mut h, "Drop showing Cho");
    assert_eq!(h.state().session().move_texts(), ["*Gyoku", "*Gyoku NNE", "*Cho E"]);
    // The view follows the cluster: larger cells, the far corners out of view.
    let framed = cell_width(&h, "8h");
    assert!(framed > 1.5 * whole, "cells grew from {whole} to {framed}");
    assert!(h.query_by_label("15o").is_none(), "the box's corner is out of view");

    // Zooming by hand stops the following; Fit frames the cluster again.
    let at = h.get_by_label("8h").rect().center();
    h.hover_at(at);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -200.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run_steps(3);
    let zoomed = cell_width(&h, "8h");
    assert!(zoomed < framed * 0.9, "scrolling zoomed out: {framed} to {zoomed}");
    click(&mut h, "Fit");
    assert!((cell_width(&h, "8h") - framed).abs() < 1.0, "Fit frames the cluster again");
}

#[test]
fn ki_shogi_marks_grace_and_explains_it_on_hover_and_in_the_legend() {
    let mut h = harness(start("ki-shogi", Some(KI_GRACE)));
    for entry in ["supported cell", "under grace", "unsupported", "face after a move"] {
        assert!(h.query_by_label(entry).is_some(), "the legend has {entry:?}");
    }
    let kaku = h.get_by_label("4f").rect().center();
    h.hover_at(kaku);
    h.run_steps(60);
    assert!(h.query_by_label_contains("Under grace").is_some(), "the hover card says the Kaku is under grace");
    assert!(h.query_by_label_contains("flips it to Myou").is_some(), "… and what a move turns it to");
    // The supported White Cho on 5f is not marked.
    let cho = h.get_by_label("5f").rect().center();
    h.hover_at(cho);
    h.run_steps(60);
    assert!(h.query_by_label_contains("flips it to Hi").is_some());
    assert!(h.query_by_label_contains("Under grace").is_none() && h.query_by_label_contains("Unsupported").is_none());
}

/// The open field framed on the cluster, with supported cells washed, the grace-marked Kaku and
/// each cube's opposite face on its chip.
#[test]
fn rendered_snapshot_of_the_ki_shogi_field() {
    let mut h = harness(start("ki-shogi", Some(KI_GRACE)));
    h.remove_cursor();
    h.run_steps(2);
    h.snapshot("editor-ki-shogi-field");
}

#[test]
fn a_ki_shogi_capture_asks_which_face_the_cube_turns_to() {
    // The seed's game to 5. Myou(Kaku) NE+: White's Cho may take the Kaku and become Ou or Shu.
    let moves = ["*Gyoku", "*Gyoku NNE", "*Cho E", "*Myou E", "CHO(Hi) S+", "Gyoku SE", "*Myou S", "*Cho S"];
    let mut options = start("ki-shogi", None);
    options.moves = [&moves[..], &["Myou(Kaku) NE+"]].concat().iter().map(|m| m.to_string()).collect();
    let mut h = harness(options);
    let v = h.state().session().variant().clone();
    let pos = h.state().session().game().position().clone();
    let mut legal = Vec::new();
    v.legal_moves(&pos, &mut legal).unwrap();
    let capture = legal.iter().find(|m| v.format_move(&pos, **m) == "Cho(Ou) x Kaku+").copied().unwrap();
    let g = v.geometry();
    let (from, to) = (henka_api::notation::cell_name(g, capture.from), henka_api::notation::cell_name(g, capture.to));
    click_cells(&mut h, &[&from, &to]);
    click(&mut h, "Become Shu");
    let texts = h.state().session().move_texts();
    assert_eq!(texts.last().map(String::as_str), Some("Cho(Shu) x Kaku+"), "{texts:?}");
}

#[test]
fn the_playtest_tab_offers_a_run_of_the_rules_on_the_board() {
    let mut h = harness(start("okisaki", None));
    h.get_by_label("Playtest").click();
    h.run_steps(2);
    h.get_by_label("Run playtest");
    assert!(h.query_by_label("Compare with before").is_none(), "nothing ran yet");
    for control in ["Games", "s per move", "Threads"] {
        assert!(h.query_all_by_label(control).next().is_some(), "{control}");
    }
}

#[test]
fn setup_on_taishin_keeps_its_buttons_in_reach_and_plays_from_the_set_up_position() {
    let mut h = harness(start("taishin", None));
    click(&mut h, "Setup");
    assert!(h.query_all_by_label_contains("place Black ").count() > 150, "Taishin's whole palette");
    for button in ["Eraser", "Clear board", "Play from here", "Copy position", "Write into script"] {
        assert!(in_window(&h, button, WINDOW), "{button} is in reach");
    }
    click(&mut h, "Clear board");
    h.query_all_by_label("place Black King").next().unwrap().click();
    h.run_steps(2);
    click(&mut h, "13y");
    // White's half of the palette scrolls into view.
    h.query_all_by_label("place White King").next().unwrap().scroll_to_me();
    h.run_steps(3);
    h.query_all_by_label("place White King").next().unwrap().click();
    h.run_steps(2);
    click(&mut h, "13a");
    click(&mut h, "Play from here");
    let app = h.state();
    assert_eq!(app.tab, Tab::Script, "back to playing");
    let (s, v) = (app.session(), app.session().variant());
    let start = s.game().start();
    let mut placed: Vec<String> = v
        .geometry()
        .cells()
        .filter_map(|c| start.piece_at(c).map(|p| format!("{} {}", p.side, v.info().pieces[p.ty as usize].name)))
        .collect();
    placed.sort();
    assert_eq!(placed, ["Black King", "White King"], "the game starts from the set-up position");
    assert!(s.move_texts().is_empty());
}

#[test]
fn a_variants_game_comes_back_when_it_is_opened_again_and_new_game_asks_first() {
    let mut h = harness(start("okisaki", None));
    click_cells(&mut h, &["3h", "3g", "8c", "8d"]);
    click(&mut h, "ogi");
    wait_until(&mut h, "Ogi's rules", |app| app.session().variant().info().meta.name == "Ogi");
    assert!(h.state().session().move_texts().is_empty(), "Ogi starts its own game");
    click_cells(&mut h, &["3f", "3e"]);
    click(&mut h, "okisaki");
    wait_until(&mut h, "Okisaki's game", |app| app.session().move_texts() == ["3h3g", "8c8d"]);
    click(&mut h, "ogi");
    wait_until(&mut h, "Ogi's game", |app| app.session().move_texts() == ["3f3e"]);

    // New game over a game with moves asks; "Keep playing" keeps it.
    click(&mut h, "New game");
    assert_eq!(h.state().session().move_texts(), ["3f3e"], "nothing is dropped before the answer");
    click(&mut h, "Keep playing");
    assert_eq!(h.state().session().move_texts(), ["3f3e"]);
    assert!(h.query_by_label("Start a new game").is_none(), "the question is gone");
    click(&mut h, "New game");
    click(&mut h, "Start a new game");
    assert!(h.state().session().move_texts().is_empty());
}

/// `n` plies of Okisaki, spread over the legal moves so the game neither repeats nor ends.
fn okisaki_moves(n: usize) -> Vec<String> {
    let h = harness(start("okisaki", None));
    let v = h.state().session().variant().clone();
    let mut game = henka_api::Game::new(v.start_position());
    let mut texts = Vec::new();
    for ply in 0..n {
        let mut legal = Vec::new();
        v.legal_moves(game.position(), &mut legal).unwrap();
        let mut moves: Vec<(String, henka_api::Move)> =
            legal.iter().map(|&m| (v.format_move(game.position(), m), m)).collect();
        moves.sort();
        let (text, mv) = moves[(ply * 7 + 3) % moves.len()].clone();
        game.play(v.as_ref(), mv).unwrap();
        texts.push(text);
    }
    texts
}

#[test]
fn the_move_list_follows_the_current_move_and_the_left_panel_scrolls() {
    let moves = okisaki_moves(60);
    let mut options = start("okisaki", None);
    options.moves = moves.clone();
    let mut h = harness(options);
    assert_eq!(h.state().session().move_texts(), moves);
    h.run_steps(3);
    // The current move's row lies in the list: between the browsing buttons and the position.
    let visible = |h: &Harness<'static, EditorApp>, text: &str| {
        let (top, bottom) = (h.get_by_label("◀◀").rect().bottom(), h.get_by_label("Position").rect().top());
        h.query_all_by_label(text).any(|n| n.rect().top() >= top && n.rect().bottom() <= bottom)
    };
    assert!(visible(&h, &moves[59]), "the last move is in view");
    click(&mut h, "◀◀");
    click(&mut h, "▶");
    h.run_steps(3);
    assert!(visible(&h, &moves[0]), "browsing back to the first move brings it into view");
    assert!(!visible(&h, &moves[59]) || moves[59] == moves[0], "the list is not all of the game at once");

    // A short window with the rule options open: the left panel scrolls down to the position.
    let size = egui::vec2(1400.0, 640.0);
    let mut h = harness_sized(start("ki-shogi", None), size);
    h.get_by_label_contains("Rule options (").click();
    h.run_steps(3);
    assert!(!in_window(&h, "Position string", size), "the panel is taller than the window");
    h.get_by_label("Position string").scroll_to_me();
    h.run_steps(3);
    assert!(in_window(&h, "Position string", size), "scrolled into view");
    assert!(in_window(&h, "Set", size));
}

#[test]
fn nothing_of_one_variant_carries_over_to_the_next() {
    let mut h = harness(start("okisaki", None));
    h.state_mut().ai.set_players(false, true, 0.1);
    click_cells(&mut h, &["3h", "3g"]);
    wait_until(&mut h, "the AI's reply", |app| app.session().move_texts().len() == 2);
    wait_for_label(&mut h, "Evaluation ");
    click(&mut h, "Undo");
    assert!(h.query_by_label_contains("the AI waits after Undo").is_some());
    click(&mut h, "Perft");
    click(&mut h, "Run perft");
    wait_for_label(&mut h, "depth 3: ");
    let at = h.get_by_label("5e").rect().center();
    h.hover_at(at);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 200.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run_steps(3);
    assert!(h.state().board.zoom > 1.0, "zoomed in");

    click(&mut h, "ki-shogi");
    wait_until(&mut h, "Ki Shogi's rules", |app| app.session().variant().info().field.is_some());
    h.run_steps(3);
    for leftover in ["Evaluation ", "mates in", "the AI waits after Undo", "depth 3: ", "3h3g", "reloaded "] {
        assert!(h.query_by_label_contains(leftover).is_none(), "{leftover:?} is gone");
    }
    assert_eq!(h.state().board.zoom, 1.0, "the new variant is framed afresh");
}

#[test]
fn a_refused_move_or_drop_says_which_rule_refuses_it() {
    // A Knight pinned to its King by the Rook on the file has no move; clicking it says why.
    let mut h = harness(start("shogi", Some("4r4/9/9/9/9/9/4N4/9/4K4 b - 1")));
    click(&mut h, "5g");
    assert!(h.query_by_label_contains("The Knight on 5g is pinned").is_some(), "the pin is named");
    // A second Pawn dropped on a file that has one: nifu, named as such; the pick is dropped.
    let mut h = harness(start("shogi", Some("4k4/9/9/9/9/9/4P4/9/4K4 b P 1")));
    click(&mut h, "Black hand Pawn");
    click(&mut h, "5e");
    assert!(h.query_by_label_contains("Only one unpromoted Pawn per file").is_some(), "nifu is named");
    assert!(h.state().session().move_texts().is_empty(), "nothing was played");
    // A move the piece cannot make describes how it does move.
    click_cells(&mut h, &["5g", "4f"]);
    assert!(h.query_by_label_contains("The Pawn cannot move from 5g to 4f: it steps one square forward").is_some());
}

#[test]
fn the_piece_lab_changes_a_pieces_moves_in_the_script_and_on_the_board() {
    let mut h = harness(start("shogi", None));
    h.state_mut().tab = Tab::Pieces;
    h.run_steps(2);
    click(&mut h, "Piece");
    click(&mut h, "Pawn 歩兵 (P)");
    assert!(h.query_by_label("Piece lab: click the diagram to change the moves").is_some());
    let pawn_moves = |h: &Harness<'static, EditorApp>| {
        let app = h.state();
        let s = app.session();
        let legal = s.legal_moves().unwrap();
        let mut m: Vec<String> = legal
            .iter()
            .filter(|m| m.from == henka_api::notation::parse_cell(s.variant().geometry(), "7g").unwrap())
            .map(|&m| s.variant().format_move(s.game().position(), m))
            .collect();
        m.sort();
        m
    };
    assert_eq!(pawn_moves(&h), ["7g7f"]);
    // One click, mirrored left–right: the Pawn also steps diagonally forward, at once on the board.
    click(&mut h, "lab +1 +1");
    wait_until(&mut h, "the rules with the new Pawn", |app| app.session().doc.text.contains(r#"moves: "fWfF""#));
    wait_until(&mut h, "the recompile", |app| app.session().rules_match(&app.session().doc.text));
    assert_eq!(pawn_moves(&h), ["7g6f", "7g7f", "7g8f"]);
    assert!(h.query_all_by_label("fWfF").count() >= 2, "the inspector and the lab show the Betza written");
    // Erase takes the forward step away again; the game on the board is kept throughout.
    click_cells(&mut h, &["2g", "1f"]);
    click(&mut h, "Erase");
    click(&mut h, "lab +0 +1");
    wait_until(&mut h, "the Pawn without its step", |app| app.session().doc.text.contains(r#"moves: "fF""#));
    wait_until(&mut h, "the recompile", |app| app.session().rules_match(&app.session().doc.text));
    assert_eq!(h.state().session().move_texts(), ["2g1f"]);
    // A lion's multi-leg move is left to the text, and the lab says so.
    let dir = common::home().join("editor-lab");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lions.rhai");
    let script = r#"let v = variant(#{ name: "Lions", board: [5, 5] });
v.piece(#{ name: "Lion", token: "LN", moves: "KNADcaKmcabK" });
v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
v.setup("1k1(ln)1/5/5/5/(LN)2K1 b - 1");
v"#;
    std::fs::write(&path, script).unwrap();
    let mut h = harness(start(path.to_str().unwrap(), None));
    h.state_mut().tab = Tab::Pieces;
    h.run_steps(2);
    assert!(h.query_by_label_contains("cannot edit the Lion: it has multi-leg moves").is_some());
    assert!(h.query_by_label("lab +1 +1").is_none(), "no clickable cells for it");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn share_as_page_writes_the_rules_sheet_of_the_rules_in_force() {
    let dir = common::home().join("editor-sheet");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shogi-rules.html");
    let mut h = harness(start("shogi", None));
    click(&mut h, "Share as page…");
    h.get_by_label("File name").click();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("File name").type_text(path.to_str().unwrap());
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    let page = std::fs::read_to_string(&path).expect("the sheet is written");
    assert!(page.contains("<svg") && page.contains("Silver General") && page.contains("download=\"shogi.rhai\""));
    assert!(h.query_by_label_contains("rules sheet saved to").is_some());
    std::fs::remove_dir_all(dir).unwrap();
}
