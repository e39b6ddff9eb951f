//! Piece values fitted from games, as Texel tuning fits an engine's evaluation: a logistic
//! regression of each game's result on the material difference of its positions.
//!
//! For a sampled position with count differences `x` (first player's pieces minus the second's,
//! per type) the model says the first player scores `σ((b + Σ wₜ xₜ) · ln 10 / 400)`: values in
//! centipawns on the Elo scale, where 400 means odds of ten to one. `b` is the first player's
//! edge at equal material. The fit maximises the likelihood of the results under a Gaussian prior
//! on each value (a type seen only a few times stays near zero instead of running off), by
//! Newton's method: the problem is small (one weight per piece type) and convex.
//!
//! Positions sampled from one game share its result, so they are not independent evidence: each
//! sample carries a weight, and the report gives every game a total weight of one. With few games
//! the prior then dominates and the standard errors (from the curvature of the penalised
//! likelihood at its maximum, the Laplace approximation) stay wide, which is what tells a
//! designer that the games do not yet say what a piece is worth.

use serde::{Deserialize, Serialize};

/// Odds of 10:1 per 400 centipawns, as Elo ratings and Texel tuning use.
const SCALE: f64 = std::f64::consts::LN_10 / 400.0;
/// The prior's standard deviation of a value, in centipawns: wide enough for any real piece, so
/// it only matters where the games say little.
const PRIOR_SD: f64 = 1000.0;
/// The prior as a ridge penalty on each weight in the scaled units: `1 / σ²`.
const RIDGE: f64 = 1.0 / (PRIOR_SD * SCALE * PRIOR_SD * SCALE);
/// The largest Newton step (scaled units) per iteration, so a nearly flat start cannot overshoot.
const MAX_STEP: f64 = 4.0;
const ITERATIONS: usize = 25;

/// The fitted values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// Per piece type: the fitted value in centipawns, `None` for a type whose count never
    /// differed between the sides (nothing to learn from) or that is royal.
    pub values: Vec<Option<f64>>,
    /// Per piece type: the standard error of its value (centipawns), `None` where the value is.
    #[serde(default)]
    pub errors: Vec<Option<f64>>,
    /// Per piece type: in how many sampled positions its counts differed.
    pub support: Vec<u32>,
    /// The first player's edge at equal material, in the same centipawns.
    pub first_player_edge: f64,
    /// Sampled positions used.
    pub samples: usize,
}

/// Fits values for `types` piece types from `(differences, first player's score, weight)` samples.
pub fn fit<'a>(types: usize, samples: impl Iterator<Item = (&'a [(u16, i16)], f64, f64)> + Clone) -> Fit {
    let mut support = vec![0u32; types];
    let mut count = 0usize;
    for (x, _, _) in samples.clone() {
        count += 1;
        for &(t, _) in x {
            support[t as usize] += 1;
        }
    }
    // Unknowns: the intercept, then one weight per type with support.
    let columns: Vec<usize> = (0..types).filter(|&t| support[t] > 0).collect();
    let mut column_of = vec![usize::MAX; types];
    for (i, &t) in columns.iter().enumerate() {
        column_of[t] = i + 1;
    }
    let d = columns.len() + 1;
    // The gradient and Hessian of the penalised log-likelihood at `u`.
    let curvature = |u: &[f64]| {
        let mut gradient = vec![0.0; d];
        let mut hessian = vec![0.0; d * d];
        for i in 1..d {
            gradient[i] -= RIDGE * u[i];
            hessian[i * d + i] += RIDGE;
        }
        for (x, y, weight) in samples.clone() {
            let z = u[0] + x.iter().map(|&(t, n)| u[column_of[t as usize]] * n as f64).sum::<f64>();
            let p = 1.0 / (1.0 + (-z).exp());
            let w = weight * (p * (1.0 - p)).max(1e-9);
            let features =
                std::iter::once((0usize, 1.0)).chain(x.iter().map(|&(t, n)| (column_of[t as usize], n as f64)));
            let features: Vec<(usize, f64)> = features.collect();
            for &(i, xi) in &features {
                gradient[i] += weight * (y - p) * xi;
                for &(j, xj) in &features {
                    hessian[i * d + j] += w * xi * xj;
                }
            }
        }
        (gradient, hessian)
    };
    let mut u = vec![0.0f64; d];
    for _ in 0..ITERATIONS {
        let (gradient, hessian) = curvature(&u);
        let Some(step) = solve_spd(&hessian, &gradient, d) else { break };
        let size: f64 = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        let damp = (MAX_STEP / size).min(1.0);
        for (ui, si) in u.iter_mut().zip(&step) {
            *ui += damp * si;
        }
        if size < 1e-6 {
            break;
        }
    }
    // The covariance of the estimate is the inverse Hessian; its diagonal gives the errors.
    let (_, hessian) = curvature(&u);
    let variance = |i: usize| {
        let mut unit = vec![0.0; d];
        unit[i] = 1.0;
        solve_spd(&hessian, &unit, d).map(|column| column[i])
    };
    let mut values = vec![None; types];
    let mut errors = vec![None; types];
    for (i, &t) in columns.iter().enumerate() {
        values[t] = Some(u[i + 1] / SCALE);
        errors[t] = variance(i + 1).map(|v| v.sqrt() / SCALE);
    }
    Fit { values, errors, support, first_player_edge: u[0] / SCALE, samples: count }
}

/// Solves `A x = b` for a symmetric positive definite `A` (`n`×`n`, row-major) by Cholesky.
pub(crate) fn solve_spd(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = a[i * n + j] - (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum::<f64>();
            if i == j {
                if s <= 0.0 {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i * n + k] * y[k]).sum::<f64>()) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k * n + i] * x[k]).sum::<f64>()) / l[i * n + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_the_values_that_generated_the_results() {
        // Three types worth 100, 300 and 500 and a first-player edge of 40: draw differences at
        // random, results from the model, and fit them back.
        let truth = [100.0, 300.0, 500.0];
        let mut rng = fastrand::Rng::with_seed(5);
        let mut data: Vec<(Vec<(u16, i16)>, f64)> = Vec::new();
        for _ in 0..40_000 {
            let x: Vec<(u16, i16)> = (0..3u16).map(|t| (t, rng.i16(-2..=2))).filter(|&(_, n)| n != 0).collect();
            let z = (40.0 + x.iter().map(|&(t, n)| truth[t as usize] * n as f64).sum::<f64>()) * SCALE;
            let p = 1.0 / (1.0 + (-z).exp());
            data.push((x, if rng.f64() < p { 1.0 } else { 0.0 }));
        }
        let f = fit(4, data.iter().map(|(x, y)| (x.as_slice(), *y, 1.0)));
        for (t, want) in truth.iter().enumerate() {
            let got = f.values[t].unwrap();
            assert!((got - want).abs() < want * 0.12 + 10.0, "type {t}: {got:.0} for {want}");
        }
        assert!((f.first_player_edge - 40.0).abs() < 25.0, "{}", f.first_player_edge);
        for t in 0..3 {
            let e = f.errors[t].unwrap();
            assert!(e > 1.0 && e < 30.0, "type {t}: error {e:.1} from 40,000 independent samples");
        }
        assert_eq!(f.values[3], None, "a type never seen has no value");
        assert_eq!(f.samples, 40_000);
    }

    #[test]
    fn solves_a_small_system() {
        let x = solve_spd(&[4.0, 2.0, 2.0, 3.0], &[6.0, 5.0], 2).unwrap();
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 1.0).abs() < 1e-12, "{x:?}");
        assert!(solve_spd(&[0.0, 0.0, 0.0, 0.0], &[1.0, 1.0], 2).is_none());
    }
}
