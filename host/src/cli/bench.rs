//! `henka bench`: perft speed per variant and engine, as a table. Leaf nodes per second with bulk
//! counting at the last ply, single-threaded — the figure engines report.

use std::time::Instant;

use anyhow::Result;

use super::{Engine, load_engine};

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Variants to measure (default: shogi, okisaki, ogi).
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
    /// Perft depth from the start position.
    #[arg(long, default_value_t = 5)]
    depth: u32,
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
        vec!["shogi".into(), "okisaki".into(), "ogi".into()]
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
            let mut best = f64::MAX;
            let mut nodes = 0;
            for _ in 0..args.runs.max(1) {
                let t = Instant::now();
                nodes = v.perft(&start, args.depth)?;
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
                args.depth,
                nodes,
                best,
                speed,
                ratio
            );
        }
    }
    Ok(())
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
