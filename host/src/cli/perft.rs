//! `henka perft`: node counts, optionally divided by first move, with a progress bar on stderr.

use std::time::Instant;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use super::{Engine, PositionArgs, load_engine, position_from};

pub fn run(variant: &str, engine: Engine, depth: u32, at: &PositionArgs, divide: bool) -> Result<()> {
    let v = load_engine(variant, engine)?.variant;
    let game = position_from(v.as_ref(), at)?;
    let pos = game.position();
    let started = Instant::now();
    let nodes = if depth == 0 || (depth == 1 && !divide) {
        v.perft(pos, depth)?
    } else {
        // Split by first move so the bar moves; indicatif hides itself when stderr is no terminal.
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} first moves, {elapsed}").expect("valid template"),
        );
        let split = henka_api::variant::perft::divide(v.as_ref(), pos, depth, |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        })?;
        bar.finish_and_clear();
        if divide {
            let mut lines: Vec<(String, u64)> = split.iter().map(|&(m, n)| (v.format_move(pos, m), n)).collect();
            lines.sort();
            for (m, n) in lines {
                say!("{m}: {n}");
            }
        }
        split.iter().map(|&(_, n)| n).sum()
    };
    let secs = started.elapsed().as_secs_f64();
    eprintln!("{nodes} nodes in {secs:.3} s ({:.2} M nodes/s)", nodes as f64 / secs.max(1e-9) / 1e6);
    say!("{nodes}");
    Ok(())
}
