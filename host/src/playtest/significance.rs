//! How sure a playtest can be: the first player's score with its 95% interval, the difference
//! between two rule sets with a two-sided test, and a sequential test that stops an A/B run as
//! soon as the answer is clear.
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

/// The sequential test of a difference against ±`delta`, with α = β = 5%.
pub fn sprt(diff: &Difference, delta: f64) -> Verdict {
    let upper = (0.95f64 / 0.05).ln();
    let lower = (0.05f64 / 0.95).ln();
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
}
