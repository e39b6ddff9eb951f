//! `henka bench`: perft speed per variant and engine, as a table. Leaf nodes per second with bulk
//! counting at the last ply, single-threaded — the figure engines report. The `ai` suite measures
//! the AI's search speed (nodes per second, quiescence nodes included) the same way.

use std::time::Instant;

use anyhow::{Context, Result, bail};

use super::{Engine, load_engine};

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Variants to measure (default: every bundled variant).
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
    /// Perft depth from the start position (default: the first depth whose count takes at least
    /// a quarter of a second, so small and giant boards are both measured over real work).
    #[arg(long)]
    depth: Option<u32>,
    /// Repeat each measurement and keep the best run.
    #[arg(long, default_value_t = 3)]
    runs: u32,
    /// Measure one engine only (default: the script, and the plugin where one is found).
    #[arg(long, value_enum)]
    engine: Option<Engine>,
    /// Which benchmarks: perft speed, the editor (reload latency, frame time), the AI's search
    /// speed, or all.
    #[arg(long, value_enum, default_value_t = Suite::All)]
    suite: Suite,
    /// Seconds per AI search (the `ai` suite searches two positions per variant and engine, or
    /// those given with `--ai-position`).
    #[arg(long, default_value_t = 2.0)]
    ai_seconds: f64,
    /// Search each position of the `ai` suite to this depth instead of for `--ai-seconds`. The
    /// node count is then the same on every run and machine: a change meant to make the search
    /// faster without changing what it searches must leave it as it was.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..))]
    ai_depth: Option<u32>,
    /// A position for the `ai` suite to search instead of the start and the middle game, in the
    /// variant's position notation (repeatable; with one `--variant`).
    #[arg(long = "ai-position", value_name = "POSITION")]
    ai_positions: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Suite {
    All,
    Perft,
    Editor,
    Ai,
}

pub fn run(args: BenchArgs) -> Result<()> {
    // Checked before any table runs, so a mistake does not wait for the perft suite.
    if !args.ai_positions.is_empty() && variant_names(&args).len() != 1 {
        bail!("--ai-position needs one --variant: a position is written in one variant's notation");
    }
    if matches!(args.suite, Suite::All | Suite::Perft) {
        perft_table(&args)?;
    }
    if matches!(args.suite, Suite::All | Suite::Editor) {
        editor_table()?;
    }
    if matches!(args.suite, Suite::All | Suite::Ai) {
        ai_table(&args)?;
    }
    Ok(())
}

/// The variant on `engine`; without an explicit `--engine`, a missing plugin is a gap in the table
/// (reported on its row), not a failure.
fn load_or_gap(args: &BenchArgs, name: &str, engine: Engine) -> Result<Option<super::Loaded>> {
    match load_engine(name, engine) {
        Ok(l) => Ok(Some(l)),
        Err(e) if args.engine.is_none() && engine == Engine::Plugin => {
            say!("{:<12} {:<7} {e:#}", name, "plugin");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The variants asked for, or every bundled one.
fn variant_names(args: &BenchArgs) -> Vec<String> {
    if args.variants.is_empty() {
        crate::catalog::BUNDLED.iter().map(|(name, _)| name.to_string()).collect()
    } else {
        args.variants.clone()
    }
}

/// The AI's nodes per second: a search (timed, or to a fixed depth) from the start and from a
/// middle game (40 seeded random plies in), or from the positions given, per variant and engine,
/// with a total per engine.
fn ai_table(args: &BenchArgs) -> Result<()> {
    use henka_api::Game;

    use crate::ai::{Limits, searcher_for};
    if cfg!(debug_assertions) {
        eprintln!(
            "note: this is a debug build; run `cargo run --release -p henka -- bench --suite ai` for real figures"
        );
    }
    let engines = match args.engine {
        Some(e) => vec![e],
        None => vec![Engine::Script, Engine::Plugin],
    };
    let limits = match args.ai_depth {
        Some(depth) => Limits { depth: Some(depth), ..Limits::default() },
        None => Limits::time(std::time::Duration::from_secs_f64(args.ai_seconds)),
    };
    say!("");
    say!(
        "{:<20} {:<7} {:<9} {:>6} {:>12} {:>9} {:>12} {:>12}",
        "AI search",
        "engine",
        "position",
        "depth",
        "nodes",
        "seconds",
        "k nodes/s",
        "score"
    );
    for name in variant_names(args) {
        for &engine in &engines {
            let Some(loaded) = load_or_gap(args, &name, engine)? else { continue };
            let v = loaded.variant.clone();
            let positions = if args.ai_positions.is_empty() {
                let mut middle = Game::new(v.start_position());
                let mut rng = fastrand::Rng::with_seed(40);
                let mut moves = Vec::new();
                while middle.moves().len() < 40 && middle.outcome(v.as_ref())?.is_none() {
                    v.legal_moves(middle.position(), &mut moves)?;
                    middle.play(v.as_ref(), moves[rng.usize(..moves.len())])?;
                }
                vec![("start".to_string(), Game::new(v.start_position())), ("middle".to_string(), middle)]
            } else {
                let mut games = Vec::new();
                for (i, text) in args.ai_positions.iter().enumerate() {
                    let pos = v.parse_position(text).with_context(|| format!("--ai-position {text:?}"))?;
                    games.push((format!("#{}", i + 1), Game::new(pos)));
                }
                games
            };
            let engine_name = if engine == Engine::Script { "script" } else { "plugin" };
            let (mut total_nodes, mut total_secs) = (0u64, 0f64);
            for (label, game) in positions {
                let mut searcher = searcher_for(v.clone(), &loaded.piece_values, 64);
                let Some(r) = searcher.search(game.position(), game.history(), limits, |_| {})? else {
                    continue;
                };
                let secs = r.elapsed.as_secs_f64();
                total_nodes += r.nodes;
                total_secs += secs;
                say!(
                    "{:<20} {:<7} {:<9} {:>6} {:>12} {:>9.2} {:>12.1} {:>12}",
                    name,
                    engine_name,
                    label,
                    r.depth,
                    r.nodes,
                    secs,
                    r.nodes as f64 / secs / 1e3,
                    r.score.to_string()
                );
            }
            say!(
                "{:<20} {:<7} {:<9} {:>6} {:>12} {:>9.2} {:>12.1}",
                name,
                engine_name,
                "total",
                "",
                total_nodes,
                total_secs,
                total_nodes as f64 / total_secs.max(1e-9) / 1e3
            );
        }
    }
    Ok(())
}

fn perft_table(args: &BenchArgs) -> Result<()> {
    let names = variant_names(args);
    if cfg!(debug_assertions) {
        eprintln!("note: this is a debug build; run `cargo run --release -p henka -- bench` for real figures");
    }
    let engines = match args.engine {
        Some(e) => vec![e],
        None => vec![Engine::Script, Engine::Plugin],
    };
    say!(
        "{:<20} {:<7} {:>6} {:>14} {:>10} {:>12} {:>9}",
        "variant",
        "engine",
        "depth",
        "nodes",
        "seconds",
        "M nodes/s",
        "vs script"
    );
    for name in names {
        let mut script_speed = None;
        // The depth is chosen once per variant (on the first engine) so engines are compared alike.
        let mut depth = args.depth;
        for &engine in &engines {
            let Some(loaded) = load_or_gap(args, &name, engine)? else { continue };
            let v = loaded.variant;
            let start = v.start_position();
            let depth = *match &mut depth {
                Some(d) => d,
                slot @ None => slot.insert(enough_depth(v.as_ref(), &start)?),
            };
            let mut best = f64::MAX;
            let mut nodes = 0;
            for _ in 0..args.runs.max(1) {
                let t = Instant::now();
                nodes = v.perft(&start, depth)?;
                best = best.min(t.elapsed().as_secs_f64());
            }
            let speed = nodes as f64 / best / 1e6;
            let ratio = match (engine, script_speed) {
                (Engine::Script, _) => {
                    script_speed = Some(speed);
                    String::new()
                }
                (Engine::Plugin, Some(s)) => format!("×{:.1}", speed / s),
                (Engine::Plugin, None) => String::new(),
            };
            let engine_name = if engine == Engine::Script { "script" } else { "plugin" };
            say!(
                "{:<20} {:<7} {:>6} {:>14} {:>10.3} {:>12.2} {:>9}",
                name,
                engine_name,
                depth,
                nodes,
                best,
                speed,
                ratio
            );
        }
    }
    Ok(())
}

/// The first perft depth from `start` that takes at least 0.25 s (at most 8).
fn enough_depth(v: &dyn henka_api::Variant, start: &henka_api::Position) -> Result<u32> {
    for depth in 1..8 {
        let t = Instant::now();
        v.perft(start, depth)?;
        if t.elapsed().as_secs_f64() >= 0.25 {
            return Ok(depth);
        }
    }
    Ok(8)
}

/// Reload latency (goal ≤ 50 ms for Okisaki) and frame CPU time on a full 25×25 board (goal ≤ 8 ms)
/// and on Ki Shogi's open field.
#[cfg(feature = "editor")]
fn editor_table() -> Result<()> {
    use crate::editor::bench;
    say!("");
    say!("{:<44} {:>10} {:>10} {:>8}", "editor", "median ms", "max ms", "samples");
    for variant in ["okisaki", "shogi", "ogi"] {
        let t = bench::reload_latency(variant, 10, 40)?;
        let label = format!("reload {variant} (save → rules live, 40 plies)");
        say!("{label:<44} {:>10.1} {:>10.1} {:>8}", ms(t.median), ms(t.max), t.samples);
    }
    use crate::editor::Tab;
    for (tab, label) in [
        (Tab::Script, "frame CPU, 25×25 board, 600 pieces, script"),
        (Tab::Pieces, "frame CPU, 25×25 board, 600 pieces, piece lab"),
    ] {
        let t = bench::frame_time(100, tab)?;
        say!("{label:<44} {:>10.2} {:>10.2} {:>8}", ms(t.median), ms(t.max), t.samples);
    }
    let t = bench::field_frame_time(100)?;
    say!("{:<44} {:>10.2} {:>10.2} {:>8}", "frame CPU, Ki Shogi field, 6 cubes", ms(t.median), ms(t.max), t.samples);
    Ok(())
}

#[cfg(feature = "editor")]
fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(not(feature = "editor"))]
fn editor_table() -> Result<()> {
    eprintln!("(editor benchmarks skipped: built without the editor)");
    Ok(())
}
