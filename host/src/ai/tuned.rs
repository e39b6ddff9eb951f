//! Evaluation weights learnt from a variant's own games (`henka tune`), stored per script hash
//! and used by every searcher made for that exact script.
//!
//! Tuning is Texel tuning: the AI plays itself (seeded games on every core, as `henka playtest`
//! does), every quiet position after the random opening plies becomes a sample of the
//! evaluation's [features](super::eval::Evaluator::features) and the game's result for the side
//! to move, and a logistic regression of results on features gives the weights. The scale comes
//! from the untuned evaluation (one more regression, of results on its score), so tuned weights
//! stay in centipawns, and a ridge penalty pulls every weight towards its untuned value: a piece
//! that seldom changed hands keeps its estimate instead of running off on a handful of games.
//! The last plies of a decided game are left out (the result is forced there), and the weights
//! are bounded: piece values within a factor of three of the estimate, the other terms within
//! ±150 centipawns (proximity 0–300 %), so a small run cannot make the AI play absurdly.
//!
//! Files live in `$XDG_CACHE_HOME/henka/eval/` (else `~/.cache/henka/eval/`), named
//! `<variant>-<script hash>.json`: a changed script has another hash and plays untuned until it
//! is tuned again. Scripts are matched to their hash through a registry the script loader fills
//! ([`note_script`]), so the editor, `henka match`, `henka playtest` and `henka usi` all find the
//! weights through [`super::searcher_for`] without passing the hash around.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

use anyhow::{Context, Result};
use henka_api::{PieceId, Variant};
use serde::{Deserialize, Serialize};

use super::eval::{EXTRA_FEATURES, Evaluator, Terms};
use super::order::victim_value;
use super::search::Searcher;
use super::values::PieceValues;
use crate::playtest::selfplay::{self, MoveLimit, SelfPlay, Shard};

/// The ridge penalty towards the untuned weights, in the regression's own (logit) units.
const RIDGE: f64 = 300.0;
/// The last plies of a decided game are left out: there the result is already forced, and the
/// fit would learn what a mate about to happen looks like instead of what is worth what.
const ENDING_PLIES: usize = 10;
/// Tuned piece values stay within this factor of the untuned ones...
const VALUE_FACTOR: f64 = 3.0;
/// ...and the other terms within these bounds (percent for proximity, centipawns for the rest).
const TROPISM_RANGE: (f64, f64) = (0.0, 300.0);
const TERM_LIMIT: f64 = 150.0;
/// The fitted scale (logit per centipawn) is at least that of odds of ten to one per 800
/// centipawns: from a few noisy games a flatter one would blow every weight up when converted
/// back to centipawns.
const MIN_SCALE: f64 = std::f64::consts::LN_10 / 800.0;
const ITERATIONS: usize = 30;

/// A variant's tuned evaluation, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedEval {
    /// The variant's name, and its script's content hash in hex.
    pub variant: String,
    pub script_hash: String,
    /// The piece tokens by id (for people reading the file, and a check that it fits).
    pub pieces: Vec<String>,
    /// Values on the board and in hand, in centipawns, by piece id.
    pub board: Vec<i32>,
    pub hand: Vec<i32>,
    pub terms: Terms,
    /// What the weights were learnt from.
    pub games: u32,
    pub positions: usize,
    pub nodes_per_move: u64,
    pub seed: u64,
}

impl TunedEval {
    pub fn values(&self) -> PieceValues {
        PieceValues::from_parts(self.board.clone(), self.hand.clone())
    }

    /// Whether the weights fit `v`'s piece table.
    fn fits(&self, v: &dyn Variant) -> bool {
        let n = v.info().pieces.len();
        self.board.len() == n && self.hand.len() == n
    }
}

type Registry = Vec<(Weak<dyn Variant>, u64)>;
static SCRIPTS: Mutex<Registry> = Mutex::new(Vec::new());

/// Remembers that `variant` was loaded from a script with content hash `hash`.
pub fn note_script(variant: &Arc<dyn Variant>, hash: u64) {
    let mut r = SCRIPTS.lock().unwrap_or_else(|e| e.into_inner());
    r.retain(|(w, _)| w.strong_count() > 0);
    r.push((Arc::downgrade(variant), hash));
}

/// The content hash of the script `variant` was loaded from (`None` for a plugin).
pub fn script_hash_of(variant: &Arc<dyn Variant>) -> Option<u64> {
    let r = SCRIPTS.lock().unwrap_or_else(|e| e.into_inner());
    let me = Arc::as_ptr(variant) as *const ();
    r.iter().find(|(w, _)| w.strong_count() > 0 && w.as_ptr() as *const () == me).map(|&(_, h)| h)
}

/// Where tuned evaluations live: `$XDG_CACHE_HOME/henka/eval`, else `~/.cache/henka/eval`.
pub fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("henka").join("eval"))
}

/// The file name for `variant_name` at script hash `hash`.
pub fn file_name(variant_name: &str, hash: u64) -> String {
    let slug: String = variant_name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .trim_matches('-')
        .to_string();
    format!("{}-{hash:016x}.json", if slug.is_empty() { "variant" } else { &slug })
}

/// Reads the tuned evaluation for `v` at `hash` from `dir`, if there is one that fits.
pub fn load_from(dir: &Path, v: &dyn Variant, hash: u64) -> Option<TunedEval> {
    let path = dir.join(file_name(&v.info().meta.name, hash));
    let text = std::fs::read_to_string(path).ok()?;
    let t: TunedEval = serde_json::from_str(&text).ok()?;
    t.fits(v).then_some(t)
}

/// The tuned evaluation for this variant's exact script, if one was stored.
pub fn for_variant(v: &Arc<dyn Variant>) -> Option<TunedEval> {
    let hash = script_hash_of(v)?;
    load_from(&cache_dir()?, v.as_ref(), hash)
}

/// Writes `t` into `dir` (created if need be); returns the file's path.
pub fn save_to(dir: &Path, v: &dyn Variant, hash: u64, t: &TunedEval) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join(file_name(&v.info().meta.name, hash));
    let text = serde_json::to_string_pretty(t)?;
    std::fs::write(&path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// A searcher for `v`: with its tuned evaluation when one is stored for its script, else with
/// `values` and the untuned terms.
pub fn searcher(v: Arc<dyn Variant>, values: PieceValues, table_mb: usize) -> Searcher {
    match for_variant(&v) {
        Some(t) => Searcher::with_terms(v, t.values(), t.terms, table_mb),
        None => Searcher::new(v, values, table_mb),
    }
}

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub games: u32,
    pub nodes_per_move: u64,
    pub threads: usize,
    pub seed: u64,
    pub opening_plies: usize,
    pub max_plies: usize,
}

/// Plays `opts.games` self-play games of `v` and fits its evaluation to their results, starting
/// from (and pulled towards) `start`'s weights. `on_game` sees each finished game (progress).
pub fn tune(
    v: &Arc<dyn Variant>,
    start: &Evaluator,
    hash: u64,
    opts: &TuneOptions,
    on_game: impl Fn() + Sync,
) -> Result<TunedEval> {
    let plan = SelfPlay {
        games: opts.games,
        threads: opts.threads.max(1),
        limit: MoveLimit::Nodes(opts.nodes_per_move.max(1)),
        opening_plies: opts.opening_plies,
        max_plies: opts.max_plies,
        seed: opts.seed,
        shard: Shard::WHOLE,
    };
    let samples: Mutex<Vec<(Vec<f64>, f64)>> = Mutex::new(Vec::new());
    selfplay::play_with(
        v,
        start,
        &plan,
        |_| true,
        |played| {
            let mut mine = Vec::new();
            let game = &played.game;
            let plies = game.moves().len();
            let end = if played.winner.is_some() { plies.saturating_sub(ENDING_PLIES) } else { plies };
            for i in opts.opening_plies.max(1)..end {
                let pos = game.position_before(i);
                let before = game.position_before(i - 1);
                // Quiet positions only: not in check, not just after a capture.
                if v.in_check(pos) || victim_value(before, game.moves()[i - 1], start.values()) > 0 {
                    continue;
                }
                let y = match played.winner {
                    None => 0.5,
                    Some(w) if w == pos.side_to_move() => 1.0,
                    Some(_) => 0.0,
                };
                mine.push((start.features(pos), y));
            }
            samples.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
            on_game();
        },
    )?;
    let samples = samples.into_inner().unwrap_or_else(|e| e.into_inner());
    let w0 = start.weights();
    let weights = fit(&samples, &w0);
    let n = v.info().pieces.len();
    let bounded = |x: f64, was: f64| x.clamp(was / VALUE_FACTOR, was * VALUE_FACTOR).round().max(1.0) as i32;
    let board: Vec<i32> = (0..n).map(|i| bounded(weights[i], w0[i])).collect();
    let hand: Vec<i32> = (n..2 * n).map(|i| bounded(weights[i], w0[i])).collect();
    let extra = &weights[2 * n..];
    debug_assert_eq!(extra.len(), EXTRA_FEATURES);
    let term = |x: f64| x.clamp(-TERM_LIMIT, TERM_LIMIT).round() as i32;
    let terms = Terms {
        tropism: (extra[0] * 100.0).clamp(TROPISM_RANGE.0, TROPISM_RANGE.1).round() as i32,
        royal_defenders: term(extra[1]),
        royal_attackers: term(extra[2]),
        advanced: term(extra[3]),
    };
    Ok(TunedEval {
        variant: v.info().meta.name.clone(),
        script_hash: format!("{hash:016x}"),
        pieces: v.info().pieces.iter().map(|p| p.written().to_string()).collect(),
        board,
        hand,
        terms,
        games: opts.games,
        positions: samples.len(),
        nodes_per_move: opts.nodes_per_move,
        seed: opts.seed,
    })
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The Texel fit: weights in the units of `w0` (centipawns) that best predict the results.
pub fn fit(samples: &[(Vec<f64>, f64)], w0: &[f64]) -> Vec<f64> {
    let d = w0.len();
    if samples.is_empty() {
        return w0.to_vec();
    }
    let dot = |x: &[f64], w: &[f64]| x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
    // The scale: logit per centipawn of the untuned evaluation.
    let evals: Vec<f64> = samples.iter().map(|(x, _)| dot(x, w0)).collect();
    let mut c = std::f64::consts::LN_10 / 400.0;
    for _ in 0..ITERATIONS {
        let (mut g, mut h) = (-1e-3 * c, 1e-3);
        for (e, (_, y)) in evals.iter().zip(samples) {
            let p = sigmoid(c * e);
            g += (y - p) * e;
            h += p * (1.0 - p) * e * e;
        }
        let step = g / h;
        c = (c + step).clamp(MIN_SCALE, 1.0);
        if step.abs() < 1e-9 {
            break;
        }
    }
    // Newton's method on the ridge-penalised likelihood, from the untuned weights.
    let prior: Vec<f64> = w0.iter().map(|w| w * c).collect();
    let mut beta = prior.clone();
    for _ in 0..ITERATIONS {
        let mut gradient: Vec<f64> = (0..d).map(|i| -RIDGE * (beta[i] - prior[i])).collect();
        let mut hessian = vec![0.0; d * d];
        for i in 0..d {
            hessian[i * d + i] += RIDGE;
        }
        for (x, y) in samples {
            let p = sigmoid(dot(x, &beta));
            let w = (p * (1.0 - p)).max(1e-9);
            let nz: Vec<(usize, f64)> = x.iter().copied().enumerate().filter(|&(_, v)| v != 0.0).collect();
            for &(i, xi) in &nz {
                gradient[i] += (y - p) * xi;
                for &(j, xj) in &nz {
                    hessian[i * d + j] += w * xi * xj;
                }
            }
        }
        let Some(step) = crate::playtest::fit::solve_spd(&hessian, &gradient, d) else { break };
        let size = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (b, s) in beta.iter_mut().zip(&step) {
            *b += s;
        }
        if size < 1e-7 {
            break;
        }
    }
    beta.iter().map(|b| b / c).collect()
}

/// The piece ids a variant holds in hand and has on the board, for printing.
pub fn piece_rows(v: &dyn Variant) -> Vec<(PieceId, String)> {
    v.info().pieces.iter().enumerate().map(|(i, p)| (i as PieceId, p.written().to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_on_results_that_follow_a_feature_raises_its_weight() {
        // One feature decides the games; the other is noise. The fit must value the first more.
        let mut rng = fastrand::Rng::with_seed(3);
        let samples: Vec<(Vec<f64>, f64)> = (0..4000)
            .map(|_| {
                let a = rng.i32(-2..=2) as f64;
                let b = rng.i32(-2..=2) as f64;
                let p = sigmoid(a * 1.2);
                (vec![a, b], if rng.f64() < p { 1.0 } else { 0.0 })
            })
            .collect();
        let w = fit(&samples, &[100.0, 100.0]);
        assert!(w[0] > 2.0 * w[1].abs(), "{w:?}");
    }

    #[test]
    fn file_names_carry_the_variant_and_the_hash() {
        assert_eq!(file_name("Minishogi", 0xab), "minishogi-00000000000000ab.json");
        assert_eq!(file_name("Ōgi (test)", 1), "gi--test-0000000000000001.json");
    }

    #[test]
    fn the_registry_knows_a_loaded_script_by_its_variant() {
        let (_, src) = crate::catalog::BUNDLED.iter().find(|(n, _)| *n == "shogi").unwrap();
        let loaded = crate::script::load_source("shogi", src).unwrap();
        let v: Arc<dyn Variant> = loaded.variant.clone();
        assert_eq!(script_hash_of(&v), Some(loaded.content_hash));
        let dir = std::env::temp_dir().join(format!("henka-tuned-unit-{}", std::process::id()));
        assert!(load_from(&dir, v.as_ref(), loaded.content_hash).is_none());
        let n = v.info().pieces.len();
        let t = TunedEval {
            variant: "Shogi".into(),
            script_hash: format!("{:016x}", loaded.content_hash),
            pieces: vec![String::new(); n],
            board: vec![100; n],
            hand: vec![120; n],
            terms: Terms { tropism: 50, royal_defenders: 5, royal_attackers: 7, advanced: 3 },
            games: 0,
            positions: 0,
            nodes_per_move: 0,
            seed: 0,
        };
        save_to(&dir, v.as_ref(), loaded.content_hash, &t).unwrap();
        assert_eq!(load_from(&dir, v.as_ref(), loaded.content_hash), Some(t));
        assert!(load_from(&dir, v.as_ref(), loaded.content_hash ^ 1).is_none(), "another script");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
