//! Perft speed from a position string (default: the seed's game after 10. Gyoku x Kaku, where
//! both sides hold cubes to drop), in release:
//!
//! ```sh
//! cargo run --release -p ki-shogi --example ki_shogi_perft -- 5 ["<position>"] [ki]
//! ```
//!
//! `ki` plays the Ki-cube extension. Runs the count until at least a second has passed and prints
//! leaf nodes per second.

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
    henka_api::variant::perft::print_speed(&v, &pos, depth).expect("perft");
}
