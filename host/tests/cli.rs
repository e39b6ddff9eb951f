//! The `henka` binary end to end: what a user types, what they see, and the exit codes.

mod common;

use std::process::{Command, Output};

fn henka(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_henka")).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn list_shows_the_bundled_variants() {
    let o = henka(&["list"]);
    assert!(o.status.success());
    for name in ["shogi", "okisaki", "ogi"] {
        assert!(stdout(&o).lines().any(|l| l.starts_with(name)), "{name} missing");
    }
}

#[test]
fn perft_ends_with_the_node_count_alone() {
    let o = henka(&["perft", "okisaki", "--depth", "2", "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"1369"), "37 × 37 replies");
    assert_eq!(lines.len(), 38, "37 divide lines and the total");
    assert!(lines.contains(&"1h1g: 37"));
}

#[test]
fn moves_after_a_sequence_are_sorted() {
    let o = henka(&["moves", "shogi", "--moves", "7g7f", "3c3d", "8h2b+"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    // White can recapture the promoted bishop; only Black holds a piece, so White has no drops.
    assert!(lines.contains(&"3a2b"), "{lines:?}");
    assert!(lines.iter().all(|m| !m.contains('*')), "{lines:?}");
}

#[test]
fn an_illegal_move_is_an_error_that_names_it() {
    let o = henka(&["moves", "shogi", "--moves", "7g7e"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("illegal move \"7g7e\""));
}

#[test]
fn an_unknown_variant_lists_the_known_ones() {
    let o = henka(&["perft", "chess", "--depth", "1"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no variant called \"chess\"") && err.contains("okisaki"), "{err}");
}

#[test]
fn random_movers_play_a_whole_game() {
    let o = henka(&[
        "play",
        "ogi",
        "--black",
        "random",
        "--white",
        "random",
        "--seed",
        "7",
        "--quiet",
        "--max-plies",
        "400",
    ]);
    assert!(o.status.success());
    let out = stdout(&o);
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("result:") || last.starts_with("stopped after 400"), "{last}");
}

#[test]
fn a_human_plays_from_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_henka"))
        .args(["play", "shogi", "--white", "human", "--quiet"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"7g7f\n3c3d\n9z9y\nposition\nquit\n").unwrap();
    let out = stdout(&child.wait_with_output().unwrap());
    assert!(out.contains("1. Black: 7g7f") && out.contains("2. White: 3c3d"), "{out}");
    assert!(out.contains("bad cell"), "a typo gets a message: {out}");
    assert!(out.contains("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"), "{out}");
}

#[test]
fn replay_reads_a_record_and_reports_the_result() {
    let dir = common::home().join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mate.txt");
    // A one-move record from a constructed start: the gold drop on 1b, protected by the pawn on
    // 1c, mates the king on 1a.
    std::fs::write(&path, "# test\nvariant shogi\nstart 8k/9/8P/9/9/9/9/9/K8 b G 1\nmoves G*1b\n").unwrap();
    let o = henka(&["replay", "shogi", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("result: Black wins by checkmate after 1 moves"), "{}", stdout(&o));
}

#[test]
fn new_writes_a_template_script_that_checks_and_never_overwrites() {
    let dir = common::home().join("cli-new");
    let _ = std::fs::remove_dir_all(&dir);
    let o = henka(&["new", "my-variant", "--dir", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = dir.join("my-variant.rhai");
    assert_eq!(stdout(&o).trim(), path.display().to_string());
    let o = henka(&["check", path.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("ok — my-variant (5×5)"), "{}", stdout(&o));
    let again = henka(&["new", "my-variant", "--dir", dir.to_str().unwrap()]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn edit_without_a_display_fails_with_a_message_instead_of_hanging() {
    let o = Command::new(env!("CARGO_BIN_EXE_henka"))
        .args(["edit", "okisaki", "--screenshot", "/dev/null"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("the editor window failed"));
}

/// `henka match` and the table it prints: the wins of the player whose row starts with `name`.
fn match_wins(out: &str, name: &str) -> u32 {
    let row = out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no row for {name}: {out}"));
    row[name.len()..].split_whitespace().next().unwrap().parse().unwrap()
}

fn run_match(variant: &str, a: &str, b: &str, games: u32, time: &str, max_plies: u32) -> String {
    let games = games.to_string();
    let max_plies = max_plies.to_string();
    let o = henka(&[
        "match",
        a,
        b,
        "--variant",
        variant,
        "--games",
        &games,
        "--time-per-move",
        time,
        "--max-plies",
        &max_plies,
        "--seed",
        "11",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    stdout(&o)
}

#[test]
fn the_ai_beats_a_random_mover_in_every_seed_variant() {
    for variant in [
        "shogi",
        "okisaki",
        "ogi",
        "ki-shogi",
        "taishin",
        "ladies-and-generals",
        "check-shogi",
        "dobutsu",
        "kyoto",
        "chu-shogi",
    ] {
        let out = run_match(variant, "ai", "random", 2, "0.05", 400);
        assert_eq!(match_wins(&out, "ai"), 2, "{variant}: {out}");
        assert!(out.contains("average length: "), "{out}");
    }
}

/// `--time-per-move-b` gives the second player its own time (a time-odds match): the AI as B,
/// given 0.5 s where A's time is 0.001 s, moves twice in a 4-ply game and so keeps the match
/// going at least a second, which the shared time would have made a few milliseconds.
#[test]
fn the_second_player_can_be_given_its_own_time() {
    let start = std::time::Instant::now();
    let o = henka(&[
        "match",
        "random",
        "ai",
        "--variant",
        "shogi",
        "--games",
        "1",
        "--time-per-move",
        "0.001",
        "--time-per-move-b",
        "0.5",
        "--max-plies",
        "4",
        "--seed",
        "5",
    ]);
    let elapsed = start.elapsed();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(out.contains("0.001 s per move for random, 0.5 s for ai"), "{out}");
    assert!(elapsed >= std::time::Duration::from_millis(1000), "the match took {elapsed:?}: {out}");
}

/// The claim in full (run in release: `cargo test --release -p henka --test cli -- --ignored`).
#[test]
#[ignore = "about two hours: 100 games per variant at 0.2 s per move"]
fn the_ai_beats_a_random_mover_in_95_of_100_games() {
    for variant in ["shogi", "okisaki", "ogi", "ki-shogi", "taishin", "ladies-and-generals"] {
        let out = run_match(variant, "ai", "random", 100, "0.2", 400);
        eprintln!("{out}");
        assert!(match_wins(&out, "ai") >= 95, "{variant}: {out}");
    }
}

#[test]
fn a_usi_engine_process_plays_a_match_through_the_protocol() {
    let engine = format!("usi:{} usi okisaki", env!("CARGO_BIN_EXE_henka"));
    let out = run_match("okisaki", "ai", &engine, 2, "0.05", 30);
    assert!(out.starts_with("okisaki: 2 games"), "{out}");
    for name in ["ai", engine.as_str()] {
        let row = out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {out}"));
        let counts: Vec<u32> = row[name.len()..].split_whitespace().take(3).map(|n| n.parse().unwrap()).collect();
        assert_eq!(counts.iter().sum::<u32>(), 2, "every game counted: {row}");
    }
    assert!(!out.contains("player failure"), "the engine answered every move: {out}");
}

#[test]
fn the_variant_is_chosen_through_usi_variant_where_the_engine_names_it_so() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/usi-variant-engine.sh");
    let engine = format!("usi:sh {script}");
    let out = run_match("okisaki", "ai", &engine, 2, "0.05", 30);
    assert!(!out.contains("player failure"), "the engine was told its variant: {out}");
    assert!(out.contains("resignation"), "{out}");
    let o = henka(&["match", "ai", &engine, "--variant", "ogi", "--games", "1", "--time-per-move", "0.05"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not play \"ogi\""), "{o:?}");
}

#[test]
fn a_pair_of_games_shares_its_random_opening_with_the_colours_swapped() {
    let dir = common::home().join("cli-openings");
    let records = dir.to_string_lossy().into_owned();
    let o = henka(&[
        "match",
        "random",
        "ai",
        "--variant",
        "kyoto",
        "--games",
        "4",
        "--time-per-move",
        "0.02",
        "--seed",
        "3",
        "--opening-plies",
        "6",
        "--records",
        &records,
    ]);
    assert!(o.status.success(), "{o:?}");
    let game = |n: u32| std::fs::read_to_string(dir.join(format!("game-{n:03}.henka"))).unwrap();
    let opening = |text: &str| -> Vec<String> {
        let moves = text.split("moves\n").nth(1).unwrap_or_default();
        moves.split_whitespace().take(6).map(str::to_string).collect()
    };
    assert_eq!(opening(&game(1)).len(), 6);
    assert_eq!(opening(&game(1)), opening(&game(2)), "one opening per pair");
    assert_eq!(opening(&game(3)), opening(&game(4)));
    assert_ne!(opening(&game(1)), opening(&game(3)), "each pair its own opening");
    assert!(game(1).contains("option black random") && game(2).contains("option black ai"), "{}", game(2));
    assert!(game(1).contains("option opening-plies 6"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn engine_options_ride_on_the_command_line() {
    // Henka's own engine as the opponent, with its hash and threads set through `setoption`.
    let engine = format!("usi:{} usi okisaki;USI_Hash=8;Threads=2", env!("CARGO_BIN_EXE_henka"));
    let out = run_match("okisaki", "ai", &engine, 2, "0.05", 30);
    assert!(out.starts_with("okisaki: 2 games"), "{out}");
    assert!(!out.contains("player failure"), "{out}");
    let bad = format!("usi:{} usi okisaki;No Such Option=1", env!("CARGO_BIN_EXE_henka"));
    let o = henka(&["match", "ai", &bad, "--variant", "okisaki", "--games", "1", "--time-per-move", "0.05"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no option \"No Such Option\""), "{o:?}");
}

/// `henka usi …` as a child process, spoken to line by line.
struct Usi {
    child: std::process::Child,
    input: std::process::ChildStdin,
    lines: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
}

impl Usi {
    fn start(args: &[&str]) -> Usi {
        let mut child = Command::new(env!("CARGO_BIN_EXE_henka"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
        Usi { child, input, lines }
    }

    /// Sends `commands` and reads up to the first line starting with `until`.
    fn exchange(&mut self, commands: &[u8], until: &str) -> String {
        use std::io::Write;
        self.input.write_all(commands).unwrap();
        self.input.flush().unwrap();
        let mut out = String::new();
        for line in self.lines.by_ref() {
            let line = line.unwrap();
            out.push_str(&line);
            out.push('\n');
            if line.starts_with(until) {
                return out;
            }
        }
        panic!("the engine ended before {until:?}: {out}");
    }

    /// Sends `quit`; the engine must end successfully.
    fn quit(mut self) {
        use std::io::Write;
        self.input.write_all(b"quit\n").unwrap();
        drop(self.input);
        assert!(self.child.wait().unwrap().success());
    }
}

#[test]
fn the_usi_engine_speaks_the_protocol() {
    let mut usi = Usi::start(&["usi"]);
    let mut exchange = |commands: &str, until: &str| usi.exchange(commands.as_bytes(), until);
    let out = exchange("usi\n", "usiok");
    assert!(
        out.contains(
            "option name UCI_Variant type combo default shogi var blast-shogi var check-shogi var chu-shogi \
             var crowd-shogi var dobutsu var double-move-shogi var ki-shogi var kyoto var ladies-and-generals var ogi \
             var okisaki var push-shogi var shogi var swap-shogi"
        ),
        "{out}"
    );
    let out = exchange("setoption name UCI_Variant value okisaki\nisready\n", "readyok");
    assert!(!out.contains("error"), "{out}");
    let out = exchange("usinewgame\nposition startpos moves 3h3g\ngo depth 2\n", "bestmove");
    assert!(out.lines().any(|l| l.starts_with("info depth 2 ") && l.contains(" pv ")), "{out}");
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap().to_string();
    let legal = stdout(&henka(&["moves", "okisaki", "--moves", "3h3g"]));
    assert!(legal.lines().any(|m| m == best), "{best} is a legal reply");
    let out = exchange("go perft 2\n", "Nodes searched");
    let perft = stdout(&henka(&["perft", "okisaki", "--depth", "2", "--moves", "3h3g"]));
    assert!(out.contains(&format!("Nodes searched: {}", perft.lines().last().unwrap())), "{out}");
    // `go infinite` thinks until `stop`.
    let out = exchange("go infinite\nstop\n", "bestmove");
    assert!(out.contains("bestmove "), "{out}");
    usi.quit();
}

/// A result declared by the position (Dobutsu's try) leaves USI nothing to play: the engine
/// resigns, and `go perft` counts no moves — the same answer as perft and the game.
#[test]
fn the_usi_engine_resigns_a_declared_loss() {
    let mut usi = Usi::start(&["usi", "dobutsu"]);
    usi.exchange(b"usi\nisready\n", "readyok");
    // Black's Lion made a safe try to 3a: White has lost.
    let out = usi.exchange(b"position sfen L1l/3/3/3 w - 2\ngo depth 2\n", "bestmove");
    assert!(out.contains("bestmove resign"), "{out}");
    let out = usi.exchange(b"go perft 1\n", "Nodes searched");
    assert!(out.contains("Nodes searched: 0"), "{out}");
    // One ply earlier Black wins at once: the try (2b3a) or taking the Lion (2b1a).
    let out = usi.exchange(b"position sfen 2l/1L1/3/3 b - 1\ngo depth 2\n", "bestmove");
    assert!(out.contains("bestmove 2b3a") || out.contains("bestmove 2b1a"), "{out}");
    usi.quit();
}

#[test]
fn rule_options_are_listed_chosen_checked_and_recorded() {
    let dir = common::home().join("cli-options");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("minishogi-size.rhai");
    std::fs::write(
        &script,
        r#"let size = parse_int(option("size", ["5", "7"]));
let v = variant(#{ name: "sized", board: [size, size] });
v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
v.setup(if size == 5 { "2k2/5/5/5/2K2 b - 1" } else { "3k3/7/7/7/7/7/3K3 b - 1" });
v
"#,
    )
    .unwrap();
    let path = script.to_str().unwrap();
    let o = henka(&["check", path]);
    assert!(stdout(&o).contains("option size = 5 (5 | 7; default 5)"), "{}", stdout(&o));
    let o = henka(&["perft", path, "--depth", "1", "--option", "size=7"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(stdout(&o).trim(), "5", "a king on the edge of 7×7 has 5 moves");
    let o = henka(&["perft", path, "--depth", "1", "--option", "sise=7"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no option `sise` (its options: size)"));
    let o = henka(&["perft", path, "--depth", "1", "--option", "size=6"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"6\" is not one of 5, 7"));
    // A record names its rule options and is replayed under them.
    let record = dir.join("game.henka");
    std::fs::write(&record, "variant sized\nrule size 7\nmoves 4g4f\n").unwrap();
    let o = henka(&["replay", path, record.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("position 3k3/7/7/7/7/3K3/7 w - 2"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_usi_engine_offers_the_variants_rule_options() {
    let mut usi = Usi::start(&["usi", "ladies-and-generals"]);
    // The count runs on the search thread; `quit` would stop it, so it is sent after the total.
    let out = usi.exchange(
        b"usi\nsetoption name rankers value step\nisready\nsetoption name rankers value hop\nisready\n\
          position startpos\ngo perft 3\n",
        "Nodes searched",
    );
    usi.quit();
    assert!(out.contains("option name rankers type combo default slide var slide var step"), "{out}");
    assert!(out.contains("info string error") && out.contains("\"hop\" is not one of slide, step"), "{out}");
    // The refused value left the chosen one in force: stepping rankers change the third ply.
    let stepping = stdout(&henka(&["perft", "ladies-and-generals", "--depth", "3", "--option", "rankers=step"]));
    let stepping = stepping.lines().last().unwrap();
    assert!(out.contains(&format!("Nodes searched: {stepping}")), "{out}");
    assert_ne!(stepping, "31653913", "sliding rankers' count");
}

const MINISHOGI: &str = include_str!("../../examples/first-variant.rhai");

/// Minishogi with the Gold General defined after the Silver General: the same rules, every piece
/// id from the Silver on renumbered.
fn minishogi_reordered() -> String {
    let gold = "v.piece(#{ name: \"Gold General\", kanji: \"金将\", token: \"G\", moves: \"WfF\" });\n";
    let pawn_at = MINISHOGI.find("// `drop` restrictions").unwrap();
    let text = format!("{}{gold}{}", &MINISHOGI[..pawn_at], &MINISHOGI[pawn_at..]).replacen(gold, "", 1);
    assert!(text.find("name: \"Silver General\"").unwrap() < text.find("name: \"Gold General\"").unwrap());
    text
}

#[test]
fn play_reload_replays_a_reordered_script_with_the_right_pieces() {
    use std::io::{BufRead, Write};
    let dir = common::home().join("cli-reload");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("minishogi.rhai");
    std::fs::write(&script, MINISHOGI).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_henka"))
        .args(["play", script.to_str().unwrap(), "--black", "human", "--white", "human", "--quiet"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = std::io::BufReader::new(child.stdout.take().unwrap());
    // The Gold, White's Gold, the Silver.
    input.write_all(b"4e4d\n2a2b\n3e3d\n").unwrap();
    let mut seen = String::new();
    while !seen.contains("3. Black: 3e3d") {
        assert!(output.read_line(&mut seen).unwrap() > 0, "the game ended early: {seen}");
    }
    // The designer moves the Gold below the Silver in the script; the game goes on.
    std::fs::write(&script, minishogi_reordered()).unwrap();
    input.write_all(b"reload\n1a2a\n4d3c\nposition\nquit\n").unwrap();
    drop(input);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut output, &mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(rest.contains("all 3 moves replayed"), "{rest}");
    assert!(rest.contains("5. Black: 4d3c"), "the Gold still steps diagonally forward: {rest}");
    assert!(rest.contains("rbsk1/3gp/2G2/P1S2/K2BR w - 6"), "{rest}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_usi_engine_answers_hostile_lines_without_panicking_or_blocking() {
    let mut usi = Usi::start(&["usi", "shogi"]);
    let mut exchange = |commands: &[u8], until: &str| usi.exchange(commands, until);
    // A hash size past the advertised maximum is clamped to it.
    let out = exchange(b"setoption name USI_Hash value 18446744073709551615\nisready\n", "readyok");
    assert!(out.contains("using 4096"), "{out}");
    // Clocks at the largest number: a search with a capped time, stopped at once.
    let out = exchange(b"position startpos\ngo btime 18446744073709551615 wtime 18446744073709551615 binc 18446744073709551615\nstop\n", "bestmove");
    assert!(out.contains("bestmove "), "{out}");
    // A line that is not UTF-8 is refused, and the next one is read.
    let out = exchange(b"position startpos \xff\xfe\nisready\n", "readyok");
    assert!(out.contains("not UTF-8"), "{out}");
    // A failed `position` leaves no position behind: `go` says so instead of answering for the
    // previous one.
    let out = exchange(b"position startpos moves 7g7f\nposition startpos moves 7g7e\ngo depth 1\nisready\n", "readyok");
    assert!(out.contains("move 7g7e") && out.contains("no position"), "{out}");
    assert!(!out.contains("bestmove"), "{out}");
    // A deep perft runs on the search thread: the engine still answers, and `stop` ends it.
    let out = exchange(b"position startpos\ngo perft 7\nisready\n", "readyok");
    assert!(!out.contains("Nodes searched"), "isready was answered before the count: {out}");
    let out = exchange(b"stop\nisready\n", "readyok");
    assert!(out.contains("perft stopped"), "{out}");
    usi.quit();
}

#[test]
fn verify_reports_the_random_positions_it_compared() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let o = Command::new(env!("CARGO_BIN_EXE_henka"))
        .args(["verify", "examples/first-variant.rhai", "--plies", "20", "--perft-limit", "10000"])
        .args(["--positions", "12", "--seed", "5"])
        .current_dir(root)
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let line = out.lines().find(|l| l.starts_with("random positions (seed 5): ")).unwrap_or_else(|| panic!("{out}"));
    // Minishogi has one King a side but no `royals` limit: every random position reads.
    assert_eq!(line, "random positions (seed 5): perft 1 and 2 agree on 12; 0 refused by both parsers");
}

#[test]
fn games_played_at_once_are_all_counted_and_recorded() {
    let dir = common::home().join("cli-jobs");
    let records = dir.to_string_lossy().into_owned();
    let args =
        ["match", "ai", "random", "--variant", "kyoto", "--games", "5", "--time-per-move", "0.02", "--jobs", "2"];
    let o = henka(&[&args[..], &["--seed", "5", "--records", &records]].concat());
    assert!(o.status.success(), "{o:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    let wins = match_wins(&out, "ai") + match_wins(&out, "random");
    let draws =
        out.lines().find(|l| l.starts_with("ai ")).and_then(|l| l.split_whitespace().nth(2)?.parse::<u32>().ok());
    assert_eq!(wins + draws.unwrap_or(0), 5, "every game counted once: {out}");
    assert!(out.contains("ai's score: ") && out.contains("95% interval"), "{out}");
    for n in 1..=5 {
        let text = std::fs::read_to_string(dir.join(format!("game-{n:03}.henka"))).unwrap();
        let black = if n % 2 == 1 { "ai" } else { "random" };
        assert!(text.contains(&format!("option black {black}\n")), "game {n}: {text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let zero = henka(&["match", "ai", "random", "--variant", "kyoto", "--jobs", "0"]);
    assert!(!zero.status.success(), "no slots is an error");
}

/// `--sprt` stops a match once its sequential test decides: the AI against a random mover is
/// far more than 50 Elo stronger, which a dozen games show, so a 100-game match ends early and
/// says which hypothesis it accepted. Bounds in the wrong order are refused.
#[test]
fn a_sequential_test_stops_a_match_once_it_decides() {
    let o = henka(&[
        "match",
        "ai",
        "random",
        "--variant",
        "kyoto",
        "--games",
        "100",
        "--time-per-move",
        "0.02",
        "--jobs",
        "2",
        "--seed",
        "6",
        "--sprt",
        "0,50",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let played: u32 = out
        .lines()
        .find_map(|l| l.strip_prefix("kyoto: ")?.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!((5..30).contains(&played), "stopped after {played} games: {out}");
    let draws =
        out.lines().find(|l| l.starts_with("ai ")).and_then(|l| l.split_whitespace().nth(2)?.parse::<u32>().ok());
    let counted = match_wins(&out, "ai") + match_wins(&out, "random") + draws.unwrap_or(0);
    assert_eq!(counted, played, "the table counts the games played, not --games: {out}");
    assert!(out.contains("sequential test: ai is 50 Elo stronger than random rather than 0 (H1 accepted"), "{out}");
    let wrong = henka(&["match", "ai", "random", "--variant", "kyoto", "--sprt", "20,0"]);
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("must be below the second"), "{wrong:?}");
}

/// The columns of the `ai` suite's rows for `label` (name, engine, label, then the figures).
fn ai_rows(out: &str, label: &str) -> Vec<Vec<String>> {
    out.lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|cols| cols.len() > 3 && cols[0] == "shogi" && cols[2] == label)
        .collect()
}

#[test]
fn the_ai_benchmark_to_a_fixed_depth_counts_the_same_nodes_on_every_run() {
    let opening = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    let args = [
        "bench",
        "--suite",
        "ai",
        "--variant",
        "shogi",
        "--engine",
        "script",
        "--ai-depth",
        "3",
        "--ai-position",
        opening,
    ];
    let counts: Vec<String> = (0..2)
        .map(|_| {
            let o = henka(&args);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let out = stdout(&o);
            let row = &ai_rows(&out, "#1")[0];
            assert_eq!(row[3], "3", "searched to the depth asked: {out}");
            let total = &ai_rows(&out, "total")[0];
            assert_eq!(total[3], row[4], "one position: the total is its count");
            row[4].clone()
        })
        .collect();
    assert!(counts[0].parse::<u64>().unwrap() > 20, "{counts:?}");
    assert_eq!(counts[0], counts[1]);
}

#[test]
fn an_ai_benchmark_position_needs_one_variant() {
    let o = henka(&["bench", "--suite", "ai", "--ai-depth", "1", "--ai-position", "4k4/9/9/9/9/9/9/9/4K4 b - 1"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--ai-position needs one --variant"));
    let o =
        henka(&["bench", "--suite", "ai", "--variant", "shogi", "--ai-depth", "1", "--ai-position", "not a position"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a position"), "names the bad position");
    let o = henka(&["bench", "--suite", "ai", "--variant", "shogi", "--ai-depth", "0"]);
    assert!(!o.status.success(), "a search of no plies measures nothing");
}
