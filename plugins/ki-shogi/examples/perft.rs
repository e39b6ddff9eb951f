//! Perft speed from a position string (default: the seed's game after 10. Gyoku x Kaku, where
//! both sides hold cubes to drop), in release:
//!
//! ```sh
//! cargo run --release -p ki-shogi --example perft -- 5 ["<position>"] [ki]
//! ```
//!
//! `ki` plays the Ki-cube extension. Runs the count until at least a second has passed and prints
//! leaf nodes per second.

use std::time::{Duration, Instant};

use henka_api::Variant;
use ki_shogi::KiShogi;

const DEFAULT: &str = "b bGyoku@8,6;wGyoku@8,8 b:KK,w:HH - 21";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().map_or(4, |d| d.parse().expect("a depth"));
    let v = if args.iter().any(|a| a == "ki") { KiShogi::with_ki_cube() } else { KiShogi::new() };
    let pos = match args.get(1).filter(|a| *a != "ki") {
        Some(s) if s == "startpos" => v.start_position(),
        Some(s) => v.parse_position(s).expect("a valid position string"),
        None => v.parse_position(DEFAULT).expect("the default position"),
    };
    let started = Instant::now();
    let mut runs = 0u32;
    let mut nodes = 0;
    while runs == 0 || started.elapsed() < Duration::from_secs(1) {
        nodes = v.perft(&pos, depth).expect("perft");
        runs += 1;
    }
    let per_run = started.elapsed().as_secs_f64() / runs as f64;
    println!("perft({depth}) = {nodes}: {:.3} ms per run, {runs} run(s)", per_run * 1e3);
    println!("{:.2} M leaf nodes/s", nodes as f64 / per_run / 1e6);
}
