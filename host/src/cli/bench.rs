//! `henka bench`: perft speed per variant and engine, as a table. Leaf nodes per second with bulk
//! counting at the last ply, single-threaded — the figure engines report.

use std::time::Instant;

use anyhow::Result;

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
    /// Which benchmarks: perft speed, the editor (reload latency, frame time), or both.
    #[arg(long, value_enum, default_value_t = Suite::All)]
    suite: Suite,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Suite {
    All,
    Perft,
    Editor,
}

pub fn run(args: BenchArgs) -> Result<()> {
    if args.suite != Suite::Editor {
        perft_table(&args)?;
    }
    if args.suite != Suite::Perft {
        editor_table()?;
    }
    Ok(())
}

fn perft_table(args: &BenchArgs) -> Result<()> {
    let names = if args.variants.is_empty() {
        crate::catalog::BUNDLED.iter().map(|(name, _)| name.to_string()).collect()
    } else {
        args.variants.clone()
    };
    if cfg!(debug_assertions) {
        eprintln!("note: this is a debug build; run `cargo run --release -p henka -- bench` for real figures");
    }
    let engines = match args.engine {
        Some(e) => vec![e],
        None => vec![Engine::Script, Engine::Plugin],
    };
    say!(
        "{:<12} {:<7} {:>6} {:>14} {:>10} {:>12} {:>9}",
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
            let loaded = match load_engine(&name, engine) {
                Ok(l) => l,
                // Without an explicit engine a missing plugin is a gap in the table, not a failure.
                Err(e) if args.engine.is_none() && engine == Engine::Plugin => {
                    say!("{:<12} {:<7} {e:#}", name, "plugin");
                    continue;
                }
                Err(e) => return Err(e),
            };
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
                "{:<12} {:<7} {:>6} {:>14} {:>10.3} {:>12.2} {:>9}",
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

/// Reload latency (goal ≤ 50 ms for Okisaki) and frame CPU time on a full 25×25 board (goal ≤ 8 ms).
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
    let t = bench::frame_time(100)?;
    say!("{:<44} {:>10.2} {:>10.2} {:>8}", "frame CPU, 25×25 board, 600 pieces", ms(t.median), ms(t.max), t.samples);
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
