//! The playtest lab: what self-play says about a variant's rules — is it fair to both sides,
//! does it end, how long, how decisive, what each piece is worth — and whether a rule change
//! made it better or worse.
//!
//! One concept per module: [`selfplay`] plays the games (seeded, on every core, in shards),
//! [`summary`] keeps what each game says as data, [`report`] turns a run into statistics,
//! [`fit`] fits piece values from the results, [`tune`] and [`placement_fit`] learn the AI's
//! evaluation from self-play, [`significance`] says how sure they are and
//! when an A/B comparison may stop. Nothing here draws or prints: the command line
//! (`henka playtest`) and the editor show the same [`Report`].

pub mod fit;
pub mod placement_fit;
pub mod report;
pub mod selfplay;
pub mod significance;
pub mod summary;
pub mod tune;

use std::sync::Arc;

use anyhow::Result;
use henka_api::Variant;

pub use report::{Plan, Report, Run, TOO_FEW_FOR_VALUES};
pub use selfplay::{MoveLimit, Played, SelfPlay, Shard};
pub use significance::{Difference, Estimate, Verdict};

use crate::ai::PieceValues;
use report::PieceMeta;

/// A rule set to playtest: a variant as loaded, with what its runs are labelled by.
#[derive(Clone)]
pub struct Subject {
    pub label: String,
    pub variant_name: String,
    pub variant: Arc<dyn Variant>,
    pub script_hash: Option<u64>,
    pub options: Vec<(String, String)>,
    pub values: PieceValues,
}

impl std::fmt::Debug for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subject").field("label", &self.label).finish()
    }
}

impl Subject {
    /// An empty run of this subject under `plan`, to which games are added.
    fn empty_run(&self, plan: &SelfPlay) -> Run {
        let info = self.variant.info();
        let limit = match plan.limit {
            MoveLimit::Time(t) => format!("{} s per move", t.as_secs_f64()),
            MoveLimit::Nodes(n) => format!("{n} nodes per move"),
        };
        Run {
            label: self.label.clone(),
            variant: self.variant_name.clone(),
            script_hash: self.script_hash,
            options: self.options.clone(),
            plan: Plan {
                games: plan.games,
                limit,
                opening_plies: plan.opening_plies,
                max_plies: plan.max_plies,
                seed: plan.seed,
            },
            shards: vec![plan.shard],
            pieces: info
                .pieces
                .iter()
                .enumerate()
                .map(|(t, p)| PieceMeta { name: p.name.clone(), royal: p.royal, estimated: self.values.board(t as u8) })
                .collect(),
            games: Vec::new(),
        }
    }
}

/// Plays `plan`'s games of one rule set.
pub fn run(subject: &Subject, plan: &SelfPlay, on_game: impl Fn(&Subject, &Played) + Sync) -> Result<Run> {
    let mut run = subject.empty_run(plan);
    run.games = selfplay::play(&subject.variant, &subject.values, plan, |_| true, |p| on_game(subject, p))?;
    Ok(run)
}

/// A against B.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub a: Run,
    pub b: Run,
    /// The sequential test's verdict when it was asked to stop early, else `None`.
    pub verdict: Option<Verdict>,
}

impl Comparison {
    /// B's first-player score minus A's.
    pub fn difference(&self) -> Difference {
        Difference::between(&self.a.first_score(), &self.b.first_score())
    }
}

/// Plays `plan`'s games under both rule sets, in batches that give both the same game numbers
/// (the same seeds, so the same random openings wherever the rules allow them). With
/// `stop_at = Some(δ)`, stops once the sequential test decides whether B moves the first
/// player's score by δ.
pub fn compare(
    a: &Subject,
    b: &Subject,
    plan: &SelfPlay,
    stop_at: Option<f64>,
    on_game: impl Fn(&Subject, &Played) + Sync,
) -> Result<Comparison> {
    let (mut run_a, mut run_b) = (a.empty_run(plan), b.empty_run(plan));
    let batch = (plan.threads.max(1) * 2 * plan.shard.of as usize) as u32;
    let mut verdict = None;
    let mut start = 0u32;
    while start < plan.games && !plan.cancel.load(std::sync::atomic::Ordering::Relaxed) {
        let range = start..(start + batch).min(plan.games);
        for (subject, run) in [(a, &mut run_a), (b, &mut run_b)] {
            let games = selfplay::play(
                &subject.variant,
                &subject.values,
                plan,
                |g| range.contains(&g),
                |p| on_game(subject, p),
            )?;
            run.games.extend(games);
        }
        start = range.end;
        if let Some(delta) = stop_at {
            let diff = Difference::between(&run_a.first_score(), &run_b.first_score());
            let v = significance::sprt(&diff, delta);
            verdict = Some(v);
            if v != Verdict::Continue {
                break;
            }
        }
    }
    Ok(Comparison { a: run_a, b: run_b, verdict })
}
