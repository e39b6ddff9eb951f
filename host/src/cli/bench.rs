//! `henka bench`: perft speed per variant, as a table. Leaf nodes per second with bulk counting at
//! the last ply, single-threaded — the figure engines report.

use std::time::Instant;

use anyhow::Result;

use super::load_variant;

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Variants to measure (default: shogi, okisaki, ogi).
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
    /// Perft depth (default: 4).
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Repeat each measurement and keep the best run.
    #[arg(long, default_value_t = 3)]
    runs: u32,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let names =
        if args.variants.is_empty() { vec!["shogi".into(), "okisaki".into(), "ogi".into()] } else { args.variants };
    if cfg!(debug_assertions) {
        eprintln!("note: this is a debug build; run `cargo run --release -p henka -- bench` for real figures");
    }
    say!("{:<12} {:>6} {:>14} {:>10} {:>12}", "variant", "depth", "nodes", "seconds", "M nodes/s");
    for name in names {
        let (_, v) = load_variant(&name)?;
        let start = v.start_position();
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..args.runs.max(1) {
            let t = Instant::now();
            nodes = v.perft(&start, args.depth)?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        say!("{:<12} {:>6} {:>14} {:>10.3} {:>12.2}", name, args.depth, nodes, best, nodes as f64 / best / 1e6);
    }
    Ok(())
}
