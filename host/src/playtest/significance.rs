//! How sure a playtest can be: the first player's score with its 95% interval, the difference
//! between two rule sets with a two-sided test, and a sequential test that stops an A/B run as
//! soon as the answer is clear; for `henka match`, the same kind of test on one player's score
//! in Elo ([`EloTest`]).
//!
//! Each game scores 1, ½ or 0 for the first player; scores are averaged with their sample
//! variance (draws lower it), and intervals use the normal approximation, as engine testers do
//! for match results. The sequential test is the generalised SPRT that engine testing frameworks
//! use (the log-likelihood ratio of a normal approximation): H0 "the rule change moves the
//! first player's score by nothing" against H1 "by ±δ", with error rates α = β = 5%.

use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
pub(crate) const Z95: f64 = 1.959_964;

/// A mean score with its standard error and 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub games: usize,
    pub mean: f64,
    pub std_error: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    pub fn of(scores: &[f64]) -> Estimate {
        let n = scores.len();
        if n == 0 {
            return Estimate { games: 0, mean: 0.5, std_error: f64::INFINITY, low: 0.0, high: 1.0 };
        }
        let mean = scores.iter().sum::<f64>() / n as f64;
        let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n.max(2) - 1) as f64;
        let std_error = (var / n as f64).sqrt();
        Estimate {
            games: n,
            mean,
            std_error,
            low: (mean - Z95 * std_error).max(0.0),
            high: (mean + Z95 * std_error).min(1.0),
        }
    }

    /// The two-sided p-value of "the true mean is `against`" (½ for the first player's score:
    /// is the game fair?).
    pub fn p_value(&self, against: f64) -> f64 {
        two_sided_p((self.mean - against) / self.std_error)
    }
}

/// The standard normal distribution's cumulative distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

fn two_sided_p(z: f64) -> f64 {
    if z.is_nan() {
        return 1.0;
    }
    2.0 * (1.0 - normal_cdf(z.abs()))
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, relative error below
/// 1.2·10⁻⁷: plenty for p-values).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// A against B: B's mean minus A's, its standard error, and the test of "no difference".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub difference: f64,
    pub std_error: f64,
    pub low: f64,
    pub high: f64,
    pub p_value: f64,
    /// At the 5% level.
    pub significant: bool,
}

impl Difference {
    pub fn between(a: &Estimate, b: &Estimate) -> Difference {
        let difference = b.mean - a.mean;
        let std_error = (a.std_error.powi(2) + b.std_error.powi(2)).sqrt();
        let p_value = two_sided_p(difference / std_error);
        Difference {
            difference,
            std_error,
            low: difference - Z95 * std_error,
            high: difference + Z95 * std_error,
            p_value,
            significant: p_value < 0.05,
        }
    }
}

/// What the sequential test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Not enough games yet.
    Continue,
    /// B raises the first player's score by about δ or more.
    Higher,
    /// B lowers it by about δ or more.
    Lower,
    /// The two differ by less than δ.
    Same,
}

/// Wald's bounds on the log-likelihood ratio for α = β = 5%: the null hypothesis is accepted at
/// or below the first, the alternative at or above the second.
fn sprt_bounds() -> (f64, f64) {
    ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln())
}

/// The sequential test of a difference against ±`delta`, with α = β = 5%.
pub fn sprt(diff: &Difference, delta: f64) -> Verdict {
    let (lower, upper) = sprt_bounds();
    let var = diff.std_error.powi(2);
    if !var.is_finite() || var <= 0.0 {
        return Verdict::Continue;
    }
    // Log-likelihood ratio of "difference = h1" against "difference = 0".
    let llr = |h1: f64| h1 * (2.0 * diff.difference - h1) / (2.0 * var);
    let (up, down) = (llr(delta), llr(-delta));
    if up >= upper {
        Verdict::Higher
    } else if down >= upper {
        Verdict::Lower
    } else if up <= lower && down <= lower {
        Verdict::Same
    } else {
        Verdict::Continue
    }
}

/// The expected score of a player `elo` points stronger than its opponent (the logistic model
/// engine ratings use: 400 points is ten to one).
pub fn elo_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference a mean score stands for (the inverse of [`elo_score`]); infinite at 0 and 1.
pub fn score_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Where a match's sequential test stands: H0 "the player is `elo0` stronger" against H1 "it is
/// `elo1` stronger", α = β = 5%.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloTest {
    /// The log-likelihood ratio of H1 against H0 so far.
    pub llr: f64,
    /// H0 is accepted at or below this, H1 at or above `upper`.
    pub lower: f64,
    pub upper: f64,
}

impl EloTest {
    /// The test after the player scored `scores` (1, ½ or 0 a game). This is the normal
    /// approximation engine testing frameworks use (the generalised SPRT): the log-likelihood
    /// ratio is n·(s₁ − s₀)·(2·mean − s₀ − s₁) / (2·variance), with sᵢ the score `elo_i`
    /// stands for. The scores are counted with one win and one loss more, so a run of wins
    /// alone (variance 0) still gives a finite ratio instead of a verdict after one game.
    pub fn of(scores: &[f64], elo0: f64, elo1: f64) -> EloTest {
        let (lower, upper) = sprt_bounds();
        let n = scores.len() as f64 + 2.0;
        let mean = (scores.iter().sum::<f64>() + 1.0) / n;
        let squares = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() + mean.powi(2) + (1.0 - mean).powi(2);
        let variance = squares / n;
        let (s0, s1) = (elo_score(elo0), elo_score(elo1));
        let llr = scores.len() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance);
        EloTest { llr, lower, upper }
    }

    /// H1 accepted (`Some(true)`), H0 accepted (`Some(false)`), or not yet.
    pub fn verdict(&self) -> Option<bool> {
        if self.llr >= self.upper {
            Some(true)
        } else if self.llr <= self.lower {
            Some(false)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_distribution_is_right() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
        assert!((two_sided_p(2.575_829) - 0.01).abs() < 1e-5);
    }

    #[test]
    fn an_interval_covers_the_mean_and_narrows_with_games() {
        let few = Estimate::of(&[1.0, 0.0, 0.5, 1.0]);
        let many = Estimate::of(&[1.0, 0.0, 0.5, 1.0].repeat(25));
        assert!((few.mean - 0.625).abs() < 1e-12 && (many.mean - 0.625).abs() < 1e-12);
        assert!(few.low < 0.625 && few.high > 0.625);
        assert!(many.high - many.low < (few.high - few.low) / 4.0);
        // 60 wins in 100 games: the first player's edge is significant at 5%.
        let wins = Estimate::of(&[vec![1.0; 60], vec![0.0; 40]].concat());
        assert!(wins.p_value(0.5) < 0.05 && wins.low > 0.5, "{wins:?}");
        let even = Estimate::of(&[vec![1.0; 52], vec![0.0; 48]].concat());
        assert!(even.p_value(0.5) > 0.5);
    }

    #[test]
    fn the_sequential_test_stops_on_clear_answers_only() {
        let a = Estimate::of(&[vec![1.0; 50], vec![0.0; 50]].concat());
        let clear = Estimate::of(&[vec![1.0; 80], vec![0.0; 20]].concat());
        assert_eq!(sprt(&Difference::between(&a, &clear), 0.1), Verdict::Higher);
        assert_eq!(sprt(&Difference::between(&clear, &a), 0.1), Verdict::Lower);
        let close = Estimate::of(&[vec![1.0; 53], vec![0.0; 47]].concat());
        assert_eq!(sprt(&Difference::between(&a, &close), 0.1), Verdict::Continue);
        let big_a = Estimate::of(&[vec![1.0; 2000], vec![0.0; 2000]].concat());
        let big_b = Estimate::of(&[vec![1.0; 2010], vec![0.0; 1990]].concat());
        assert_eq!(sprt(&Difference::between(&big_a, &big_b), 0.1), Verdict::Same);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!((elo_score(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        for elo in [-300.0, -20.0, 5.0, 150.0] {
            assert!((score_elo(elo_score(elo)) - elo).abs() < 1e-9);
        }
    }

    /// Games drawn from a player of known strength: the test accepts H1 for a player well above
    /// `elo1`, H0 for one at `elo0`, and a run of wins alone decides only after several games.
    #[test]
    fn the_elo_test_accepts_the_hypothesis_the_games_support() {
        let games = |p: f64, n: usize, seed: u64| -> Vec<f64> {
            let mut rng = fastrand::Rng::with_seed(seed);
            (0..n).map(|_| if rng.f64() < p { 1.0 } else { 0.0 }).collect()
        };
        let decided = |scores: &[f64]| -> Option<(usize, bool)> {
            (1..=scores.len()).find_map(|k| EloTest::of(&scores[..k], 0.0, 20.0).verdict().map(|v| (k, v)))
        };
        // 100 Elo stronger (64 %): H1, within a few hundred games.
        let (k, v) = decided(&games(elo_score(100.0), 2000, 1)).expect("decides");
        assert!(v && k < 500, "H1 after {k}");
        // Equal (50 %): H0, though it takes far more games to tell 0 from 20 Elo.
        let (k, v) = decided(&games(0.5, 20_000, 2)).expect("decides");
        assert!(!v && k > 200, "H0 after {k}");
        // Wins alone: no verdict from the first games, H1 soon after.
        let wins = vec![1.0; 40];
        assert_eq!(EloTest::of(&wins[..2], 0.0, 20.0).verdict(), None);
        assert_eq!(decided(&wins).map(|(_, v)| v), Some(true));
    }
}
