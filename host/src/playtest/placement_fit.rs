//! Learning a placement table (`henka tune --placement`, [`crate::ai::placement`]) from a
//! teacher's verdicts on positions of the variant's own self-play.
//!
//! The fit is a ridge regression of the teacher's score on the table's features, with the current
//! evaluation as one more regressor whose weight is free: the teacher's centipawns need not be
//! Henka's (Fairy-Stockfish's shogi scores run two to four times smaller), and that weight is the
//! exchange rate that turns the table back into Henka's centipawns. Positions the teacher calls
//! decided (beyond [`DECIDED_CP`], or a mate) are left out. Positions where one side is well
//! ahead stay in: in a drop game a side several Pawns up is still mated when its King is
//! bare, and it is there that the teacher's king danger outweighs material and the attack
//! families learn it (with the cut at 400, as before round 29, the shogi AI kept converting won
//! positions into losses against Fairy-Stockfish).
//!
//! The regression has thousands of unknowns (a weight per type and cell) and hundreds of
//! thousands of sparse rows, so it is solved by conjugate gradients on the normal equations,
//! which needs the rows and a few vectors, never the square matrix.

use henka_api::{Position, Variant};

use crate::ai::eval::Evaluator;
use crate::ai::placement::{Family, Placement};

/// Teacher scores at or beyond this many of its centipawns are left out of the fit.
pub const DECIDED_CP: i32 = 1500;
/// The ridge penalty on every table weight, in squared teacher centipawns per squared weight
/// unit (it scales with the target, so the unit does not matter).
const RIDGE: f64 = 30.0;
/// No learnt placement weight (a cell, a window offset, a piece in hand) goes beyond this many
/// centipawns either way: those weights are many and some rarely seen, and the bound keeps a
/// rare one from running off.
pub const WEIGHT_LIMIT: i32 = 150;
/// The bound of the attack families' weights (reach, threat, zone), far wider: what the enemy
/// attacks is worth up to much of a piece (a loose Rook the side to move can take, about 600 of
/// Henka's centipawns in the shogi fit), and at ±150 most threat weights were cut off, which
/// cost the shogi AI about 130 Elo in self-play (docs/ai-strength.md, round 29).
pub const ATTACK_WEIGHT_LIMIT: i32 = 1000;
/// The current evaluation enters the regression in Pawns (hundreds of centipawns), so that its
/// column is of the same size as the table's ±1 features and the iterations converge evenly.
const EVAL_UNIT: f64 = 100.0;
const MAX_ITERATIONS: usize = 500;
/// Iterations stop once the residual of the normal equations has shrunk by this factor.
const TOLERANCE: f64 = 1e-6;

/// What a fit learnt, and how much better the table explains the teacher than the evaluation
/// alone did, on positions held out of the fit.
#[derive(Debug)]
pub struct PlacementFit {
    pub placement: Placement,
    /// The samples used: not decided, with a verdict.
    pub samples: usize,
    /// Teacher centipawns per centipawn of the current evaluation.
    pub exchange_rate: f64,
    /// The share of the teacher's variance on held-out positions explained by the current
    /// evaluation alone, and with the table.
    pub explained_before: f64,
    pub explained_after: f64,
}

/// One row of the regression: the table's features, the evaluation in Pawns, the target.
struct Row {
    features: Vec<(u32, f32)>,
    eval: f64,
    target: f64,
}

/// Fits a table for `v` to `judged` positions (a teacher's score in its centipawns for the side
/// to move; mates and decided scores are skipped), on top of `start`'s evaluation. The weights of
/// the families in `without` are not fitted: they stay zero, and the others explain what they
/// can of the teacher alone. Every fifth run of a hundred samples is held out to measure the fit,
/// which is then redone on all of them.
pub fn fit_placement(
    v: &dyn Variant,
    start: &Evaluator,
    judged: &[(Position, i32)],
    without: &[Family],
) -> Result<PlacementFit, String> {
    let table = Placement::new(v);
    let rows: Vec<Row> = judged
        .iter()
        .filter(|(_, cp)| cp.abs() < DECIDED_CP)
        .map(|(pos, cp)| Row {
            features: table
                .features(pos)
                .into_iter()
                .filter(|&(i, _)| !without.contains(&table.family(i as usize)))
                .collect(),
            eval: start.evaluate(pos) as f64 / EVAL_UNIT,
            target: *cp as f64,
        })
        .collect();
    if rows.len() < 100 {
        return Err(format!(
            "{} positions the teacher did not call decided: too few to learn a table from",
            rows.len()
        ));
    }
    let held = |i: usize| (i / 100) % 5 == 4;
    let train: Vec<&Row> = rows.iter().enumerate().filter(|(i, _)| !held(*i)).map(|(_, r)| r).collect();
    let test: Vec<&Row> = rows.iter().enumerate().filter(|(i, _)| held(*i)).map(|(_, r)| r).collect();
    let n = table.weight_count();
    let before = solve(&train, 0, 0.0);
    let after = solve(&train, n, RIDGE);
    let explained_before = explained(&test, &before, 0);
    let explained_after = explained(&test, &after, n);
    let all: Vec<&Row> = rows.iter().collect();
    let theta = solve(&all, n, RIDGE);
    // θ = [table (teacher cp per feature), evaluation (teacher cp per Pawn), intercept].
    let rate = theta[n] / EVAL_UNIT;
    if rate <= 0.0 {
        return Err(
            "the teacher's verdicts do not rise with the evaluation: no exchange rate to learn a table at".into()
        );
    }
    let weights: Vec<i32> = theta[..n]
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let limit = weight_limit(table.family(i)) as f64;
            (w / rate).round().clamp(-limit, limit) as i32
        })
        .collect();
    Ok(PlacementFit {
        placement: Placement::with_weights(v, &weights),
        samples: rows.len(),
        exchange_rate: rate,
        explained_before,
        explained_after,
    })
}

/// How far a learnt weight of `family` may go either way.
fn weight_limit(family: Family) -> i32 {
    match family {
        Family::Reach | Family::Threat | Family::Zone => ATTACK_WEIGHT_LIMIT,
        Family::Cells | Family::Own | Family::Enemy | Family::Hand => WEIGHT_LIMIT,
    }
}

/// The prediction of `row` by `theta` (the first `n` weights on the table's features, then the
/// evaluation's and the intercept).
fn predict(row: &Row, theta: &[f64], n: usize) -> f64 {
    let table: f64 = table_features(row, n).map(|(i, x)| theta[i] * x).sum();
    table + theta[n] * row.eval + theta[n + 1]
}

/// The share of the targets' variance that `theta` explains.
fn explained(rows: &[&Row], theta: &[f64], n: usize) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let mean = rows.iter().map(|r| r.target).sum::<f64>() / rows.len() as f64;
    let total: f64 = rows.iter().map(|r| (r.target - mean).powi(2)).sum();
    let residual: f64 = rows.iter().map(|r| (r.target - predict(r, theta, n)).powi(2)).sum();
    if total == 0.0 { 0.0 } else { 1.0 - residual / total }
}

/// The row's table features, or none when the table is left out (`n == 0`).
fn table_features(row: &Row, n: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
    row.features.iter().filter(move |_| n > 0).map(|&(i, x)| (i as usize, x as f64))
}

/// Ridge least squares by preconditioned conjugate gradients on the normal equations: `n` table
/// weights (penalised by `ridge`; with `n == 0` the table is left out), then the evaluation's
/// weight and the intercept (not penalised).
fn solve(rows: &[&Row], n: usize, ridge: f64) -> Vec<f64> {
    let dim = n + 2;
    // A·θ = Xᵀ(Xθ) + ridge·θ on the table's part.
    let apply = |theta: &[f64]| -> Vec<f64> {
        let mut out = vec![0.0; dim];
        for r in rows {
            let p = predict(r, theta, n);
            for (i, x) in table_features(r, n) {
                out[i] += x * p;
            }
            out[n] += r.eval * p;
            out[n + 1] += p;
        }
        for (o, t) in out.iter_mut().zip(theta).take(n) {
            *o += ridge * t;
        }
        out
    };
    let mut diagonal = vec![0.0; dim];
    let mut b = vec![0.0; dim];
    for r in rows {
        for (i, x) in table_features(r, n) {
            diagonal[i] += x * x;
            b[i] += x * r.target;
        }
        diagonal[n] += r.eval * r.eval;
        diagonal[n + 1] += 1.0;
        b[n] += r.eval * r.target;
        b[n + 1] += r.target;
    }
    for d in diagonal.iter_mut().take(n) {
        *d += ridge;
    }
    let precondition =
        |v: &[f64]| -> Vec<f64> { v.iter().zip(&diagonal).map(|(x, d)| if *d > 0.0 { x / d } else { 0.0 }).collect() };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut theta = vec![0.0; dim];
    let mut residual = b.clone();
    let mut z = precondition(&residual);
    let mut direction = z.clone();
    let mut rz = dot(&residual, &z);
    let start = dot(&residual, &residual).sqrt();
    for _ in 0..MAX_ITERATIONS {
        if dot(&residual, &residual).sqrt() <= TOLERANCE * start.max(f64::MIN_POSITIVE) {
            break;
        }
        let ad = apply(&direction);
        let step = rz / dot(&direction, &ad);
        if !step.is_finite() {
            break;
        }
        for i in 0..dim {
            theta[i] += step * direction[i];
            residual[i] -= step * ad[i];
        }
        z = precondition(&residual);
        let next = dot(&residual, &z);
        for i in 0..dim {
            direction[i] = z[i] + next / rz * direction[i];
        }
        rz = next;
    }
    theta
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::PieceValues;

    /// Positions of two Kings and up to two Pawns in hand, judged by a teacher that values a
    /// castled King (on 8h, Black's view) at 120 of its centipawns, Black's second Pawn in hand
    /// at `second_pawn`, and counts material at half Henka's rate.
    fn judged_by_a_castling_teacher(v: &dyn Variant, start: &Evaluator, second_pawn: i32) -> Vec<(Position, i32)> {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut judged = Vec::new();
        let king_cells = ["8h", "7h", "6h", "5h", "4h", "5i", "6i", "4i"];
        for _ in 0..3000 {
            let (black, white) = (king_cells[rng.usize(..8)], king_cells[rng.usize(..8)]);
            let pawns = rng.usize(..3);
            let hand = ["-", "p", "2p"][pawns];
            let mut pos = v.parse_position(&format!("9/9/9/9/9/9/9/9/9 b {hand} 1")).unwrap();
            let cell = |name: &str| henka_api::notation::parse_cell(v.geometry(), name).unwrap();
            let king = henka_api::notation::lookup_token(v.info(), "K").unwrap().0;
            pos.set(cell(black), Some(henka_api::Piece::new(king, henka_api::Side::First)));
            // White's King on the cell that mirrors `white` (its own view).
            let turned = |name: &str| {
                let (f, r, l) = v.geometry().coords(cell(name));
                v.geometry().cell(8 - f, 8 - r, l).unwrap()
            };
            pos.set(turned(white), Some(henka_api::Piece::new(king, henka_api::Side::Second)));
            let castled = |c: &str| if c == "8h" { 120 } else { 0 };
            let second = if pawns == 2 { second_pawn } else { 0 };
            let cp = (start.evaluate(&pos) as f64 * 0.5) as i32 + castled(black) - castled(white) + second;
            judged.push((pos, cp));
        }
        judged
    }

    /// The fit finds the castled cell and converts it back.
    #[test]
    fn a_teachers_liking_for_a_cell_comes_back_in_henkas_centipawns() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let start = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]));
        let judged = judged_by_a_castling_teacher(v.as_ref(), &start, 0);
        let fit = fit_placement(v.as_ref(), &start, &judged, &[]).unwrap();
        assert!((fit.exchange_rate - 0.5).abs() < 0.05, "{}", fit.exchange_rate);
        let lines = fit.placement.lines(v.as_ref());
        let castled = lines.iter().find(|l| l.starts_with("cell K 8h ")).expect("the castled cell is learnt");
        let cp: i32 = castled.rsplit(' ').next().unwrap().parse().unwrap();
        // 120 teacher centipawns at half the rate: 240 of Henka's, held to the limit.
        assert_eq!(cp, WEIGHT_LIMIT, "{lines:?}");
        assert!(fit.explained_after > fit.explained_before + 0.2, "{} → {}", fit.explained_before, fit.explained_after);
    }

    /// A teacher that dislikes a second Pawn in hand: the full fit gives it a weight; with the
    /// hand's family left out it gets none, and the cells are learnt as before.
    #[test]
    fn a_family_left_out_stays_zero() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let start = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]));
        let judged = judged_by_a_castling_teacher(v.as_ref(), &start, -60);
        let hand_lines = |without: &[Family]| {
            let fit = fit_placement(v.as_ref(), &start, &judged, without).unwrap();
            let lines = fit.placement.lines(v.as_ref());
            assert!(lines.iter().any(|l| l.starts_with("cell K 8h ")), "{lines:?}");
            lines.into_iter().filter(|l| l.starts_with("hand ")).collect::<Vec<_>>()
        };
        let all = hand_lines(&[]);
        assert!(!all.is_empty(), "the full fit learns weights for the Pawns in hand");
        assert_eq!(hand_lines(&[Family::Hand]), Vec::<String>::new());
    }

    /// A teacher that marks a Rook a Pawn attacks down by 200 of its centipawns (400 of Henka's,
    /// at half the rate): the threat weight comes back beyond the placement bound, within the
    /// attack families' own.
    #[test]
    fn a_threat_weight_may_pass_the_placement_bound() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let start = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]));
        let g = v.geometry();
        let token = |t: &str| henka_api::notation::lookup_token(v.info(), t).unwrap().0;
        let piece = |t: &str, side| Some(henka_api::Piece::new(token(t), side));
        let mut rng = fastrand::Rng::with_seed(11);
        let mut judged = Vec::new();
        for _ in 0..4000 {
            // Pawns in hand, so that the evaluation varies with material and its exchange rate
            // can be learnt.
            let hand = ["-", "P", "2P", "p", "2p", "Pp"][rng.usize(..6)];
            let mut pos = v.parse_position(&format!("9/9/9/9/9/9/9/9/9 b {hand} 1")).unwrap();
            pos.set(g.cell(4, 0, 0).unwrap(), piece("K", henka_api::Side::First));
            pos.set(g.cell(4, 8, 0).unwrap(), piece("K", henka_api::Side::Second));
            // The Rook on one of the three edge files, four to seven ranks from Black's side and
            // away from both Kings (unguarded); White's Pawn on the cell in front of it
            // (attacking it) or on the three files at the other edge, where it attacks nothing.
            let rook = g.cell(rng.i32(0..3), rng.i32(3..7), 0).unwrap();
            let attacked = rng.bool();
            let pawn = if attacked {
                let (f, r, l) = g.coords(rook);
                g.cell(f, r + 1, l).unwrap()
            } else {
                g.cell(rng.i32(6..9), rng.i32(2..7), 0).unwrap()
            };
            pos.set(rook, piece("R", henka_api::Side::First));
            pos.set(pawn, piece("P", henka_api::Side::Second));
            let cp = (start.evaluate(&pos) as f64 * 0.5) as i32 - if attacked { 200 } else { 0 };
            judged.push((pos, cp));
        }
        let fit = fit_placement(v.as_ref(), &start, &judged, &[]).unwrap();
        let lines = fit.placement.lines(v.as_ref());
        let line = lines.iter().find(|l| l.starts_with("threat R loose cheaper mover ")).expect("the threat is learnt");
        let cp: i32 = line.rsplit(' ').next().unwrap().parse().unwrap();
        assert!((-ATTACK_WEIGHT_LIMIT + 1..-WEIGHT_LIMIT).contains(&cp), "{line}");
    }

    #[test]
    fn too_few_open_positions_are_refused() {
        let v = crate::catalog::bundled_script("shogi").variant;
        let start = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &[]));
        let judged = vec![(v.start_position(), DECIDED_CP); 500];
        assert!(fit_placement(v.as_ref(), &start, &judged, &[]).unwrap_err().contains("too few"));
    }
}
