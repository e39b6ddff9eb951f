//! Perft speed from the start position (or a position string), in release:
//!
//! ```sh
//! cargo run --release -p ladies-and-generals --example perft -- 3 [position]
//! ```
//!
//! Runs the count until at least a second has passed and prints leaf nodes per second.

use std::time::{Duration, Instant};

use henka_api::Variant;
use ladies_and_generals::LadiesAndGenerals;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().map_or(3, |d| d.parse().expect("a depth"));
    let v = LadiesAndGenerals::new();
    let pos = match args.next() {
        Some(s) => v.parse_position(&s).expect("a valid position string"),
        None => v.start_position(),
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
