//! Perft speed from the start position (or a position string), in release:
//!
//! ```sh
//! cargo run --release -p taishin --example taishin_perft -- 3 [position]
//! ```
//!
//! Runs the count until at least a second has passed and prints leaf nodes per second.

use henka_api::Variant;
use taishin::Taishin;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().map_or(3, |d| d.parse().expect("a depth"));
    let v = Taishin::new();
    let pos = match args.next() {
        Some(s) => v.parse_position(&s).expect("a valid position string"),
        None => v.start_position(),
    };
    henka_api::variant::perft::print_speed(&v, &pos, depth).expect("perft");
}
