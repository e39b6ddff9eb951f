//! A playtest run as saved (the plan, the variant's pieces and every game's summary) and the
//! report computed from it: what a designer reads, as a table or as JSON.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::fit::{Fit, fit};
use super::selfplay::Shard;
use super::significance::{Estimate, Z95};
use super::summary::{GameResult, GameSummary};

/// The material curve is reported at every `MATERIAL_STEP`-th ply.
const MATERIAL_STEP: usize = 10;

/// One rule set's games: everything a report needs, without loading the variant again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// What was played, for headings: the variant and its options.
    pub label: String,
    pub variant: String,
    /// The script text's hash (none for a plugin): runs of different scripts never merge.
    pub script_hash: Option<u64>,
    pub options: Vec<(String, String)>,
    pub plan: Plan,
    /// The shards these games came from (one, or several after a merge).
    pub shards: Vec<Shard>,
    pub pieces: Vec<PieceMeta>,
    pub games: Vec<GameSummary>,
}

/// How the games were played; runs merge only when their plans are equal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Games in the whole run (all shards).
    pub games: u32,
    /// `0.05 s per move` or `20000 nodes per move`.
    pub limit: String,
    pub opening_plies: usize,
    pub max_plies: usize,
    pub seed: u64,
}

/// A piece type as the report names and values it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceMeta {
    pub name: String,
    pub royal: bool,
    /// The AI's value estimated from the rules (centipawns), beside which the fit is shown.
    pub estimated: i32,
}

/// What a run says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub label: String,
    pub games: usize,
    /// The first player's score.
    pub first: Estimate,
    /// The p-value of "the game is fair" (first player's score ½).
    pub fairness_p_value: f64,
    pub first_wins: usize,
    pub second_wins: usize,
    pub draws: usize,
    pub draw_rate: f64,
    /// How games ended, with counts.
    pub end_reasons: BTreeMap<String, usize>,
    pub length: Lengths,
    /// Every game's length in plies, in game order (for histograms).
    pub length_samples: Vec<u32>,
    pub pieces: Vec<PieceStats>,
    /// The mean material balance (first player minus second, centipawns) at plies 10, 20, …,
    /// over the games still going.
    pub material: Vec<MaterialPoint>,
    pub diversity: Diversity,
    pub fit: Fit,
    /// AI centipawns per fitted (Elo-scale) centipawn, from the types whose fitted value is
    /// clearly positive; `None` when no type's is yet, and then no fitted value is shown: the
    /// games are too few to say what the pieces are worth.
    #[serde(default)]
    pub fitted_scale: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lengths {
    pub mean: f64,
    pub median: f64,
    pub quartile_low: f64,
    pub quartile_high: f64,
    pub min: u32,
    pub max: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceStats {
    pub name: String,
    /// Per game, both sides together.
    pub captures: f64,
    pub captured: f64,
    pub promotions: f64,
    pub estimated_value: i32,
    /// Fitted from the games and scaled to the AI's units (see [`Report::fitted_scale`]); `None`
    /// for a royal type, a type whose counts never differed, or when no value is clear yet.
    pub fitted_value: Option<f64>,
    /// The half-width of the fitted value's 95% interval, in the same units.
    #[serde(default)]
    pub fitted_margin: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MaterialPoint {
    pub ply: usize,
    pub mean: f64,
    pub games: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diversity {
    /// Games that reached ply 10.
    pub games: usize,
    /// Distinct positions among them at ply 10.
    pub distinct: usize,
}

fn quantile(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let x = q * (sorted.len() - 1) as f64;
    let (i, f) = (x.floor() as usize, x.fract());
    let next = sorted[(i + 1).min(sorted.len() - 1)] as f64;
    sorted[i] as f64 * (1.0 - f) + next * f
}

impl Run {
    /// Adds another shard's games of the same run. Refused when the two are not parts of one
    /// run (another variant, script, option or plan) or share a game.
    pub fn merge(&mut self, other: Run) -> Result<(), String> {
        let same = self.variant == other.variant
            && self.script_hash == other.script_hash
            && self.options == other.options
            && self.plan == other.plan;
        if !same {
            return Err(format!(
                "{} and {} are not parts of one run (variant, script, options or plan differ)",
                self.label, other.label
            ));
        }
        let have: BTreeSet<u32> = self.games.iter().map(|g| g.game).collect();
        if let Some(g) = other.games.iter().find(|g| have.contains(&g.game)) {
            return Err(format!("game {} is in two of the files (the same shard twice?)", g.game));
        }
        self.shards.extend(other.shards);
        self.shards.sort_by_key(|s| (s.of, s.index));
        self.games.extend(other.games);
        self.games.sort_by_key(|g| g.game);
        Ok(())
    }

    /// The first player's score over the games so far.
    pub fn first_score(&self) -> Estimate {
        let scores: Vec<f64> = self.games.iter().map(|g| g.result.first_score()).collect();
        Estimate::of(&scores)
    }

    pub fn report(&self) -> Report {
        let games = &self.games;
        let n = games.len();
        let first = self.first_score();
        let count = |r: GameResult| games.iter().filter(|g| g.result == r).count();
        let mut end_reasons = BTreeMap::new();
        for g in games {
            *end_reasons.entry(g.reason.clone()).or_default() += 1;
        }
        let mut lengths: Vec<u32> = games.iter().map(|g| g.plies).collect();
        lengths.sort_unstable();
        let length = Lengths {
            mean: lengths.iter().map(|&l| l as f64).sum::<f64>() / n.max(1) as f64,
            median: quantile(&lengths, 0.5),
            quartile_low: quantile(&lengths, 0.25),
            quartile_high: quantile(&lengths, 0.75),
            min: lengths.first().copied().unwrap_or(0),
            max: lengths.last().copied().unwrap_or(0),
        };
        let types = self.pieces.len();
        // Every game weighs one in the fit, however many positions were sampled from it: they
        // share its result.
        let samples = games.iter().flat_map(|g| {
            let y = g.result.first_score();
            let weight = 1.0 / g.samples.len().max(1) as f64;
            g.samples.iter().map(move |s| (s.as_slice(), y, weight))
        });
        let fit = fit(types, samples);
        let fitted_scale = fitted_scale(&fit, &self.pieces);
        let per_game = |v: u32| v as f64 / n.max(1) as f64;
        let pieces = (0..types)
            .map(|t| PieceStats {
                name: self.pieces[t].name.clone(),
                captures: per_game(games.iter().map(|g| g.captures[t]).sum()),
                captured: per_game(games.iter().map(|g| g.captured[t]).sum()),
                promotions: per_game(games.iter().map(|g| g.promotions[t]).sum()),
                estimated_value: self.pieces[t].estimated,
                fitted_value: fitted_scale.zip(fit.values[t]).filter(|_| !self.pieces[t].royal).map(|(s, v)| v * s),
                fitted_margin: fitted_scale
                    .zip(fit.errors[t])
                    .filter(|_| !self.pieces[t].royal)
                    .map(|(s, e)| Z95 * e * s),
            })
            .collect();
        let longest = games.iter().map(|g| g.material.len()).max().unwrap_or(0);
        let material = (MATERIAL_STEP..=longest)
            .step_by(MATERIAL_STEP)
            .map(|ply| {
                let at: Vec<i32> = games.iter().filter_map(|g| g.material.get(ply - 1).copied()).collect();
                MaterialPoint {
                    ply,
                    mean: at.iter().map(|&m| m as f64).sum::<f64>() / at.len().max(1) as f64,
                    games: at.len(),
                }
            })
            .collect();
        let at10: Vec<u64> = games.iter().filter_map(|g| g.position_at_10).collect();
        let diversity = Diversity { games: at10.len(), distinct: at10.iter().collect::<BTreeSet<_>>().len() };
        Report {
            label: self.label.clone(),
            games: n,
            fairness_p_value: first.p_value(0.5),
            first,
            first_wins: count(GameResult::FirstWins),
            second_wins: count(GameResult::SecondWins),
            draws: count(GameResult::Draw),
            draw_rate: count(GameResult::Draw) as f64 / n.max(1) as f64,
            end_reasons,
            length,
            length_samples: games.iter().map(|g| g.plies).collect(),
            pieces,
            material,
            diversity,
            fit,
            fitted_scale,
        }
    }
}

/// Why a report shows no fitted values, for the table and the editor.
pub const TOO_FEW_FOR_VALUES: &str =
    "too few games to fit piece values (no piece's fitted value is clearly above zero yet); play more games";

/// Fitted values are on the Elo scale; they are shown in the AI's units, scaled by the median
/// ratio of estimate to fit over the types whose fitted value is clearly positive (its 95%
/// interval above zero), so one noisy type cannot skew it and a designer compares "fitted" with
/// "estimated" directly. `None` when no type qualifies: a value near zero would blow the scale
/// up, and an unclear fit is better not shown at all.
fn fitted_scale(fit: &Fit, pieces: &[PieceMeta]) -> Option<f64> {
    let mut ratios: Vec<f64> = (0..pieces.len())
        .filter(|&t| !pieces[t].royal && pieces[t].estimated > 0)
        .filter_map(|t| match (fit.values[t], fit.errors[t]) {
            (Some(v), Some(e)) if v > Z95 * e => Some(pieces[t].estimated as f64 / v),
            _ => None,
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios.get(ratios.len() / 2).copied()
}

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self;
        writeln!(f, "{}: {} games", r.label, r.games)?;
        let verdict = if r.fairness_p_value < 0.05 {
            if r.first.mean > 0.5 { "the first player is favoured" } else { "the second player is favoured" }
        } else {
            "no significant edge for either side"
        };
        writeln!(
            f,
            "first player's score  {} (95% interval {} – {}; {verdict}, p = {:.3})",
            percent(r.first.mean),
            percent(r.first.low),
            percent(r.first.high),
            r.fairness_p_value
        )?;
        writeln!(
            f,
            "results               {} first-player wins, {} second-player wins, {} draws ({} drawn)",
            r.first_wins,
            r.second_wins,
            r.draws,
            percent(r.draw_rate)
        )?;
        let reasons: Vec<String> = r.end_reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
        writeln!(f, "how games ended       {}", reasons.join(", "))?;
        let l = &r.length;
        writeln!(
            f,
            "length (plies)        median {:.0}, middle half {:.0}–{:.0}, range {}–{}, mean {:.1}",
            l.median, l.quartile_low, l.quartile_high, l.min, l.max, l.mean
        )?;
        writeln!(
            f,
            "opening diversity     {} distinct positions at ply 10 in {} games",
            r.diversity.distinct, r.diversity.games
        )?;
        let curve: Vec<String> = r.material.iter().take(12).map(|m| format!("{}: {:+.0}", m.ply, m.mean)).collect();
        writeln!(f, "material (first − second, by ply)  {}", curve.join("  "))?;
        writeln!(
            f,
            "first player's edge at equal material: {:+.0} (Elo-scale centipawns, from {} positions)",
            r.fit.first_player_edge, r.fit.samples
        )?;
        let width = r.pieces.iter().map(|p| p.name.chars().count()).max().unwrap_or(5).max(5);
        writeln!(
            f,
            "{:<width$} {:>9} {:>9} {:>9} {:>9} {:>13}",
            "piece", "captures", "captured", "promotes", "estimated", "fitted"
        )?;
        for p in r.pieces.iter().filter(|p| p.captures + p.captured + p.promotions > 0.0 || p.fitted_value.is_some()) {
            let fitted = match (p.fitted_value, p.fitted_margin) {
                (Some(v), Some(m)) => format!("{v:.0} ± {m:.0}"),
                (Some(v), None) => format!("{v:.0}"),
                _ => "—".to_string(),
            };
            writeln!(
                f,
                "{:<width$} {:>9.2} {:>9.2} {:>9.2} {:>9} {:>13}",
                p.name, p.captures, p.captured, p.promotions, p.estimated_value, fitted
            )?;
        }
        if r.fitted_scale.is_some() {
            write!(
                f,
                "(captures, captured, promotes: per game; values in centipawns; fitted ± its 95% interval, scaled by the median estimated/fitted ratio of the clearly positive types)"
            )
        } else {
            write!(
                f,
                "(captures, captured, promotes: per game; values in centipawns; no fitted values: {})",
                TOO_FEW_FOR_VALUES
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's sampled differences.
    type Samples = Vec<Vec<(u16, i16)>>;

    /// A run of a two-type game (a Pawn estimated at 100, a Rook at 500) whose games are
    /// `(result, sampled differences)`.
    fn run(games: Vec<(GameResult, Samples)>) -> Run {
        let piece = |name: &str, estimated| PieceMeta { name: name.into(), royal: false, estimated };
        let games = games
            .into_iter()
            .enumerate()
            .map(|(i, (result, samples))| GameSummary {
                game: i as u32,
                result,
                reason: "checkmate".into(),
                plies: 60,
                captures: vec![0, 0],
                captured: vec![0, 0],
                promotions: vec![0, 0],
                material: vec![0; 60],
                position_at_10: Some(i as u64),
                samples,
            })
            .collect();
        Run {
            label: "test".into(),
            variant: "test".into(),
            script_hash: None,
            options: Vec::new(),
            plan: Plan { games: 0, limit: "1 node per move".into(), opening_plies: 0, max_plies: 100, seed: 0 },
            shards: vec![Shard::WHOLE],
            pieces: vec![piece("Pawn", 100), piece("Rook", 500)],
            games,
        }
    }

    #[test]
    fn a_few_perfectly_separated_games_give_no_fitted_values() {
        // Six games, each sampled fifty times, and whoever is a Rook up always wins: a
        // per-position fit would run off to huge values.
        let games = (0..6)
            .map(|g| {
                let (result, rook) = if g % 2 == 0 { (GameResult::FirstWins, 1) } else { (GameResult::SecondWins, -1) };
                (result, vec![vec![(0, 1), (1, rook)]; 50])
            })
            .collect();
        let report = run(games).report();
        let rook = report.fit.values[1].unwrap();
        assert!(rook.abs() < 3000.0, "the prior holds the Rook's fitted value: {rook:.0}");
        assert!(report.fit.errors[1].unwrap() > 200.0, "six games leave the Rook's value unclear");
        assert_eq!(report.fitted_scale, None);
        assert!(report.pieces.iter().all(|p| p.fitted_value.is_none() && p.fitted_margin.is_none()));
        assert!(report.to_string().contains(TOO_FEW_FOR_VALUES), "{report}");
    }

    #[test]
    fn many_games_recover_values_with_intervals_that_hold_them() {
        // Games whose results follow the model with a Pawn worth 100 and a Rook 500 (Elo scale),
        // ten sampled positions each with the same differences.
        let mut rng = fastrand::Rng::with_seed(11);
        let games = (0..4000)
            .map(|_| {
                let x = vec![(0u16, rng.i16(-3..=3)), (1u16, rng.i16(-1..=1))];
                let z = (100.0 * x[0].1 as f64 + 500.0 * x[1].1 as f64) * std::f64::consts::LN_10 / 400.0;
                let first_wins = rng.f64() < 1.0 / (1.0 + (-z).exp());
                let result = if first_wins { GameResult::FirstWins } else { GameResult::SecondWins };
                let x: Vec<(u16, i16)> = x.into_iter().filter(|&(_, n)| n != 0).collect();
                (result, vec![x; 10])
            })
            .collect();
        let report = run(games).report();
        let scale = report.fitted_scale.expect("4000 games make both values clear");
        assert!((scale - 1.0).abs() < 0.25, "estimates and truth agree, so the scale is about one: {scale}");
        for (p, truth) in report.pieces.iter().zip([100.0, 500.0]) {
            let (v, m) = (p.fitted_value.unwrap(), p.fitted_margin.unwrap());
            assert!((v - truth).abs() <= m * 1.5, "{}: {v:.0} ± {m:.0} for {truth}", p.name);
            assert!(m < truth * 0.5, "{}: margin {m:.0}", p.name);
        }
    }
}
