//! Tuning the AI's evaluation from the variant's own self-play (`henka tune`): Texel tuning, a
//! logistic regression of each game's result on the evaluation's features, started from (and
//! pulled towards) the untuned weights. The result is an [`ai::tuned::TunedEval`], which the AI
//! uses for that script from then on. It lives here, above the AI, because it plays games with
//! the lab's self-play.
//!
//! A game's result is a thin teacher: one noisy bit for fifty positions, decided by blunders far
//! from most of them. With a teacher search (`teacher_nodes`), each position also gets the
//! verdict of a deeper search of its own, and the fit learns what the static features say about
//! what that search finds: a king in danger is worth what the attack on it wins a few moves on.
//!
//! [`ai::tuned::TunedEval`]: crate::ai::tuned::TunedEval

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Result;
use henka_api::{Position, Variant};

use super::placement_fit::{DECIDED_CP, fit_placement};
use super::selfplay::{self, MoveLimit, SelfPlay, Shard};
use crate::ai::eval::{EXTRA_FEATURES, Evaluator, Terms};
use crate::ai::order::victim_value;
use crate::ai::placement::Family;
use crate::ai::tuned::{PlacementFitReport, TunedEval};
use crate::ai::{Limits, Score, Searcher};
use crate::usi::client::UsiClient;

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
/// How often a Newton step may be halved before it is taken anyway.
const HALVINGS: usize = 30;
/// With a teacher search, a position's target is this share of the search's verdict and the
/// rest the game's result: the result still ties the piece values to who actually won.
const TEACHER_SHARE: f64 = 0.5;
/// The teacher's centipawns read as odds of ten to one per this many (the usual Texel scale).
const TEACHER_CP_PER_DECADE: f64 = 400.0;
/// How long an engine teacher may take over one node-limited search before it counts as hung.
const ENGINE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub games: u32,
    pub nodes_per_move: u64,
    pub threads: usize,
    pub seed: u64,
    pub opening_plies: usize,
    pub max_plies: usize,
    /// Nodes of the teacher search per position; 0 learns from the game results alone.
    pub teacher_nodes: u64,
    /// The teacher when it is not Henka's own search: a USI engine, searching
    /// `go nodes <teacher_nodes>`.
    pub teacher_engine: Option<EngineTeacher>,
    /// Learn a placement table on top of the current evaluation (from the teacher's verdicts
    /// alone) instead of refitting the values and terms.
    pub placement: bool,
    /// Families of the placement table not to learn (their weights stay zero).
    pub placement_without: Vec<Family>,
    /// The share of the game's result in a placement fit's targets (0: the teacher's verdicts
    /// alone), see [`placement_target`].
    pub placement_result_share: f64,
}

/// A USI engine as the teacher.
#[derive(Clone, Debug)]
pub struct EngineTeacher {
    /// Its command line, `;Name=Value` options after it (as for `henka match`).
    pub command: String,
    /// The variant's name as engines know it (chosen through `UCI_Variant` where offered).
    pub variant: String,
}

/// Plays `opts.games` self-play games of `v` and fits its evaluation to their results (and a
/// teacher search's verdicts), starting from (and pulled towards) `start`'s weights. `on_game`
/// sees each finished game and `on_taught` each position the teacher searched, with how many
/// there are in all (progress).
pub fn tune(
    v: &Arc<dyn Variant>,
    start: &Evaluator,
    hash: u64,
    opts: &TuneOptions,
    on_game: impl Fn() + Sync,
    on_taught: impl Fn(usize) + Sync,
) -> Result<TunedEval> {
    let plan = SelfPlay {
        games: opts.games,
        threads: opts.threads.max(1),
        limit: MoveLimit::Nodes(opts.nodes_per_move.max(1)),
        opening_plies: opts.opening_plies,
        max_plies: opts.max_plies,
        seed: opts.seed,
        shard: Shard::WHOLE,
        cancel: Default::default(),
    };
    let samples: Mutex<Vec<(Position, f64)>> = Mutex::new(Vec::new());
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
                mine.push((pos.clone(), y));
            }
            samples.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
            on_game();
        },
    )?;
    let positions = samples.into_inner().unwrap_or_else(|e| e.into_inner());
    let provenance = TunedEval {
        variant: v.info().meta.name.clone(),
        script_hash: format!("{hash:016x}"),
        pieces: v.info().pieces.iter().map(|p| p.written().to_string()).collect(),
        board: start.values().board_values().to_vec(),
        hand: start.values().hand_values().to_vec(),
        terms: start.terms(),
        placement: start.placement().map(|p| p.lines(v.as_ref())).unwrap_or_default(),
        placement_fit: None,
        placement_without: Vec::new(),
        placement_result_share: 0.0,
        games: opts.games,
        positions: positions.len(),
        nodes_per_move: opts.nodes_per_move,
        teacher_nodes: opts.teacher_nodes,
        teacher: opts.teacher_engine.as_ref().map(|e| e.command.clone()),
        taught: 0,
        seed: opts.seed,
    };
    if opts.placement {
        if opts.teacher_nodes == 0 {
            anyhow::bail!("a placement table is learnt from a teacher's verdicts: give --teacher-nodes");
        }
        let verdicts = teach(v, start, &positions, opts, &on_taught)?;
        let judged: Vec<(Position, i32)> = positions
            .iter()
            .zip(&verdicts)
            .filter_map(|((pos, y), said)| match said {
                Some(Score::Cp(cp)) if cp.abs() < DECIDED_CP => {
                    Some((pos.clone(), placement_target(*cp, *y, opts.placement_result_share)))
                }
                _ => None,
            })
            .collect();
        let fit = fit_placement(v.as_ref(), start, &judged, &opts.placement_without).map_err(anyhow::Error::msg)?;
        return Ok(TunedEval {
            placement: fit.placement.lines(v.as_ref()),
            placement_without: opts.placement_without.iter().map(|f| f.word().to_string()).collect(),
            placement_result_share: opts.placement_result_share,
            placement_fit: Some(PlacementFitReport {
                samples: fit.samples,
                explained_before: fit.explained_before,
                explained_after: fit.explained_after,
            }),
            taught: verdicts.iter().filter(|s| s.is_some()).count(),
            ..provenance
        });
    }
    let (samples, taught): (Vec<Sample>, usize) = if opts.teacher_nodes == 0 {
        (positions.iter().map(|(pos, y)| (start.features(pos), *y)).collect(), 0)
    } else {
        let verdicts = teach(v, start, &positions, opts, &on_taught)?;
        let taught = verdicts.iter().filter(|s| s.is_some()).count();
        let samples = positions.iter().zip(&verdicts).map(|((pos, y), said)| (start.features(pos), target(*said, *y)));
        (samples.collect(), taught)
    };
    let w0 = start.weights();
    let weights = fit(&samples, &w0, 2 * v.info().pieces.len());
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
        mobility: term(extra[4]),
        king_danger: term(extra[5]),
    };
    // A stored placement table is kept as it was: this fit does not see it.
    Ok(TunedEval { board, hand, terms, positions: samples.len(), taught, ..provenance })
}

/// What the teacher says of each position (the score for the side to move; `None` where it has
/// no move or gives no score), searched on `opts.threads` threads.
fn teach(
    v: &Arc<dyn Variant>,
    start: &Evaluator,
    positions: &[(Position, f64)],
    opts: &TuneOptions,
    on_taught: &(impl Fn(usize) + Sync),
) -> Result<Vec<Option<Score>>> {
    let next = AtomicUsize::new(0);
    // Per thread: each position it judged, by index.
    type Judged = Vec<(usize, Option<Score>)>;
    let parts: Vec<Result<Judged>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..opts.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut teacher = Teacher::new(v, start, opts)?;
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((pos, _)) = positions.get(i) else { break };
                        out.push((i, teacher.judge(v.as_ref(), pos)?));
                        on_taught(positions.len());
                    }
                    Ok(out)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err(anyhow::anyhow!("a teacher thread panicked"))))
            .collect()
    });
    let mut verdicts = vec![None; positions.len()];
    for part in parts {
        for (i, said) in part? {
            verdicts[i] = said;
        }
    }
    Ok(verdicts)
}

/// A position's features and the target the fit aims them at.
type Sample = (Vec<f64>, f64);

/// Who judges the positions: Henka's own search, or an engine over USI.
enum Teacher {
    Search(Box<Searcher>, Limits),
    Engine(Box<UsiClient>, u64),
}

impl Teacher {
    fn new(v: &Arc<dyn Variant>, start: &Evaluator, opts: &TuneOptions) -> Result<Teacher> {
        Ok(match &opts.teacher_engine {
            None => Teacher::Search(
                Box::new(Searcher::with_evaluator(v.clone(), start.clone(), selfplay::TABLE_MB)),
                Limits { nodes: Some(opts.teacher_nodes), ..Limits::default() },
            ),
            Some(engine) => {
                let client = UsiClient::start(&engine.command, Some(&engine.variant))?;
                Teacher::Engine(Box::new(client), opts.teacher_nodes)
            }
        })
    }

    /// The score for the side to move; `None` where there is no move to make.
    fn judge(&mut self, v: &dyn Variant, pos: &Position) -> Result<Option<Score>> {
        match self {
            Teacher::Search(searcher, limits) => Ok(searcher.search(pos, &[], *limits, |_| {})?.map(|r| r.score)),
            Teacher::Engine(client, nodes) => {
                let mut moves = Vec::new();
                v.legal_moves(pos, &mut moves)?;
                if moves.is_empty() {
                    return Ok(None);
                }
                let position = format!("sfen {}", v.format_position(pos));
                let (_, score) = client.analyse(&position, &format!("nodes {nodes}"), ENGINE_TIMEOUT)?;
                Ok(score)
            }
        }
    }
}

/// What the linear fit aims a position at: the teacher's verdict blended with the game's result,
/// or the result alone where the teacher had no move (or gave no score).
fn target(said: Option<Score>, result: f64) -> f64 {
    match said {
        Some(score) => TEACHER_SHARE * verdict(score) + (1.0 - TEACHER_SHARE) * result,
        None => result,
    }
}

/// What a placement fit aims a position at, in the teacher's centipawns: its verdict `cp`
/// (not decided), or with a `share` of the game's result `result` (1 won, ½ drawn, 0 lost for
/// the side to move) blended in as expected results and read back as centipawns. The verdict
/// says what a search of a thousand nodes sees; the result adds what decided the game later,
/// which such a search misses (round 41 of docs/ai-strength.md). The blend stays short of
/// [`DECIDED_CP`], so the fit keeps every position the teacher did not call decided.
fn placement_target(cp: i32, result: f64, share: f64) -> i32 {
    if share == 0.0 {
        return cp;
    }
    let p = (1.0 - share) * verdict(Score::Cp(cp)) + share * result;
    let limit = (DECIDED_CP - 1) as f64;
    let odds = (p / (1.0 - p)).log10();
    (odds * TEACHER_CP_PER_DECADE).clamp(-limit, limit).round() as i32
}

/// A search's score as the side to move's expected result.
fn verdict(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => sigmoid(cp as f64 * std::f64::consts::LN_10 / TEACHER_CP_PER_DECADE),
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The Texel fit: weights in the units of `w0` (centipawns) that best predict the results. The
/// first `material` features are piece counts; their values set the scale of the answer.
pub fn fit(samples: &[Sample], w0: &[f64], material: usize) -> Vec<f64> {
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
    let objective = |beta: &[f64]| {
        let fit: f64 = samples
            .iter()
            .map(|(x, y)| {
                let z = dot(x, beta);
                // log σ(z) and log(1 − σ(z)), written to stay finite for large |z|.
                let log_p = -((-z).max(0.0) + (-z.abs()).exp().ln_1p());
                let log_q = log_p - z;
                y * log_p + (1.0 - y) * log_q
            })
            .sum();
        let penalty: f64 = beta.iter().zip(&prior).map(|(b, p)| (b - p) * (b - p)).sum();
        fit - RIDGE / 2.0 * penalty
    };
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
        let Some(mut step) = crate::playtest::fit::solve_spd(&hessian, &gradient, d) else { break };
        // A full Newton step can overshoot into saturated odds, where the curvature vanishes and
        // the next step is larger still: halve it until the penalised likelihood improves.
        let now = objective(&beta);
        let mut tries = 0;
        loop {
            let next: Vec<f64> = beta.iter().zip(&step).map(|(b, s)| b + s).collect();
            if objective(&next) >= now || tries == HALVINGS {
                beta = next;
                break;
            }
            step.iter_mut().for_each(|s| *s /= 2.0);
            tries += 1;
        }
        let size = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        if size < 1e-7 {
            break;
        }
    }
    // Back to centipawns. The untuned evaluation's scale `c` is attenuated by whatever in it
    // does not predict results (a proximity bonus that rewards every piece), and dividing by it
    // would inflate every weight alike, so the fit's own material sets the scale instead: the
    // factor that best maps the fitted piece values onto the untuned ones (types seen in the
    // games only). What the fit then says is what matters to a search: each term's worth
    // relative to material.
    let seen = |i: usize| samples.iter().any(|(x, _)| x[i] != 0.0);
    let (along, norm) = (0..material.min(d))
        .filter(|&i| seen(i))
        .fold((0.0, 0.0), |(a, n), i| (a + beta[i] * w0[i], n + w0[i] * w0[i]));
    let scale = if along > 0.0 && norm > 0.0 { along / norm } else { c };
    beta.iter().map(|b| b / scale).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_on_results_that_follow_a_feature_raises_its_weight() {
        // One feature decides the games; the other is noise. The fit must value the first more.
        let mut rng = fastrand::Rng::with_seed(3);
        let samples: Vec<Sample> = (0..4000)
            .map(|_| {
                let a = rng.i32(-2..=2) as f64;
                let b = rng.i32(-2..=2) as f64;
                let p = sigmoid(a * 1.2);
                (vec![a, b], if rng.f64() < p { 1.0 } else { 0.0 })
            })
            .collect();
        let w = fit(&samples, &[100.0, 100.0], 0);
        assert!(w[0] > 2.0 * w[1].abs(), "{w:?}");
    }

    #[test]
    fn the_teacher_search_pulls_a_lost_games_position_towards_what_it_sees() {
        let v: Arc<dyn Variant> = crate::catalog::bundled_script("shogi").variant;
        let start = Evaluator::new(v.as_ref(), crate::ai::PieceValues::estimate(v.as_ref(), &[]));
        // Black to move, a Rook and a Bishop up, from a game Black went on to lose; and the
        // start position from a game the side to move won.
        let ahead = v.parse_position("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1").unwrap();
        let positions = vec![(ahead, 0.0), (v.start_position(), 1.0)];
        let opts = TuneOptions {
            games: 0,
            nodes_per_move: 1,
            threads: 2,
            seed: 0,
            opening_plies: 0,
            max_plies: 0,
            teacher_nodes: 3000,
            teacher_engine: None,
            placement: false,
            placement_without: Vec::new(),
            placement_result_share: 0.0,
        };
        let taught = AtomicUsize::new(0);
        let verdicts = teach(&v, &start, &positions, &opts, &|all| {
            assert_eq!(all, 2);
            taught.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(taught.into_inner(), 2);
        assert!(verdicts.iter().all(Option::is_some), "both positions have moves to search");
        let targets: Vec<f64> = verdicts.iter().zip(&positions).map(|(said, (_, y))| target(*said, *y)).collect();
        // Half the target is the search's verdict: sure of a win for the first, even for the second.
        assert!((0.45..0.5).contains(&targets[0]), "{}", targets[0]);
        assert!((0.7..0.8).contains(&targets[1]), "{}", targets[1]);
    }

    #[test]
    fn a_placement_target_leans_towards_the_result_by_its_share() {
        // Without a share the verdict is the target, to the centipawn.
        assert_eq!(placement_target(137, 0.0, 0.0), 137);
        // A level verdict in a won game: a quarter of a win on top of even odds is 0.625, odds
        // of 5 to 3, which at 400 centipawns a decade is +89; lost, −89; drawn, level.
        assert_eq!(placement_target(0, 1.0, 0.25), 89);
        assert_eq!(placement_target(0, 0.0, 0.25), -89);
        assert_eq!(placement_target(0, 0.5, 0.25), 0);
        // A result that agrees with a large verdict moves it a little and never past the cut.
        let agreed = placement_target(1400, 1.0, 0.25);
        assert!((1400..DECIDED_CP).contains(&agreed), "{agreed}");
        // One that disagrees pulls it far back: the game was lost from there.
        assert!(placement_target(1400, 0.0, 0.25) < 300);
        assert_eq!(placement_target(-1499, 0.0, 0.5), -(DECIDED_CP - 1));
    }

    #[test]
    fn a_term_that_predicts_nothing_does_not_inflate_the_piece_values() {
        // Results follow the material (one pawn = 100 moves the odds as 1 logit), while the
        // untuned evaluation also carries a large term that is pure noise: the fitted pawn must
        // stay near 100 and the noise term near 0, not both blown up by a flattened scale.
        let mut rng = fastrand::Rng::with_seed(5);
        let samples: Vec<Sample> = (0..6000)
            .map(|_| {
                let pawns = rng.i32(-3..=3) as f64;
                let noise = rng.i32(-20..=20) as f64;
                let p = sigmoid(pawns);
                (vec![pawns, noise], if rng.f64() < p { 1.0 } else { 0.0 })
            })
            .collect();
        let w = fit(&samples, &[100.0, 100.0], 1);
        assert!((80.0..125.0).contains(&w[0]), "{w:?}");
        assert!(w[1].abs() < 10.0, "{w:?}");
    }
}
