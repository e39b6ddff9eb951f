//! Perft: counting legal move sequences, the standard correctness check for move generators. The
//! count itself is [`Variant::perft`]; [`super::generic_perft`], its default, counts through the
//! trait alone.

use super::Variant;
use crate::model::error::RuleError;
use crate::model::moves::Move;
use crate::model::position::Position;

/// Runs `v.perft(pos, depth)` until at least a second has passed and prints the count and the
/// leaf nodes per second: what each plugin's `examples/perft.rs` reports when run in release.
pub fn print_speed<V: Variant + ?Sized>(v: &V, pos: &Position, depth: u32) -> Result<(), RuleError> {
    let started = std::time::Instant::now();
    let (mut runs, mut nodes) = (0u32, 0);
    while runs == 0 || started.elapsed() < std::time::Duration::from_secs(1) {
        nodes = v.perft(pos, depth)?;
        runs += 1;
    }
    let per_run = started.elapsed().as_secs_f64() / runs as f64;
    println!("perft({depth}) = {nodes}: {:.3} ms per run, {runs} run(s)", per_run * 1e3);
    println!("{:.2} M leaf nodes/s", nodes as f64 / per_run / 1e6);
    Ok(())
}

/// Perft split by first move: each legal move with the count below it, in the order of
/// `legal_moves`. `progress` is called after each root move with (done, total).
pub fn divide<V: Variant + ?Sized>(
    v: &V,
    pos: &Position,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<(Move, u64)>, RuleError> {
    let mut moves = Vec::new();
    v.legal_moves(pos, &mut moves)?;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mut next = pos.clone();
        v.play(&mut next, mv)?;
        out.push((mv, v.perft(&next, depth.saturating_sub(1))?));
        progress(i + 1, moves.len());
    }
    Ok(out)
}
