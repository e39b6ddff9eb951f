//! `henka tune <variant>`: learns the variant's evaluation from its own self-play games (Texel
//! tuning, see [`crate::ai::tuned`]) and stores it for the AI to use from then on.

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::playtest::SelfPlayArgs;
use super::{Engine, load_engine};
use crate::ai::eval::Evaluator;
use crate::ai::placement::Family;
use crate::ai::tuned;
use crate::ai::values::PieceValues;
use crate::playtest::placement_fit::DECIDED_CP;
use crate::playtest::tune::{self as tuning, EngineTeacher, TuneOptions};

#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// The variant: a name from `henka list` or a script path.
    variant: String,
    /// Self-play games to learn from.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Nodes the AI searches per move in those games (reproducible on any machine).
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Also search every learnt position this many nodes deep and learn from that search's
    /// verdict, half and half with the game's result (0: the results alone). A verdict per
    /// position instead of one result per game, at the cost of a search per position.
    #[arg(long, default_value_t = 0)]
    teacher_nodes: u64,
    /// The teacher: `usi:<engine command line>` (options after semicolons, as for `henka
    /// match`) searches each position with `go nodes <teacher-nodes>` instead of Henka's own
    /// search; a stronger engine is a better judge. Needs `--teacher-nodes`.
    #[arg(long, value_name = "usi:COMMAND", requires = "teacher_nodes")]
    teacher: Option<String>,
    /// Learn a placement table instead of the values and terms: what each piece adds for where
    /// it stands, near its own and the enemy royal, and for each extra piece in hand, fitted to
    /// the teacher's verdicts (needs `--teacher-nodes`). The values and terms stay as they are.
    #[arg(long, requires = "teacher_nodes")]
    placement: bool,
    /// A family of the placement table not to learn, its weights left at zero (repeatable):
    /// `cell` (per cell), `own` and `enemy` (near the royals), `hand` (per count in hand),
    /// `reach` (cells attacked), `threat` (attacked pieces), `zone` (attacks around the royal).
    #[arg(long, value_name = "FAMILY", requires = "placement")]
    without: Vec<FamilyArg>,
    /// With `--placement`: blend this share of each game's result into the teacher's verdicts
    /// (as expected results, read back as centipawns), so the table also learns what decided the
    /// games later than the teacher's search could see. 0 (the default): the verdicts alone.
    #[arg(long, default_value_t = 0.0, value_name = "SHARE", requires = "placement", value_parser = share)]
    result_share: f64,
    #[command(flatten)]
    play: SelfPlayArgs,
    /// Start from the estimated values even when tuned ones are stored.
    #[arg(long)]
    fresh: bool,
}

/// `--result-share`: a share of the target, from 0 up to but not including 1 (the teacher must
/// keep some say, or a position's target would be a bare win or loss, infinitely many centipawns).
fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..1.0).contains(&x) => Ok(x),
        Ok(_) => Err("a share from 0 up to (not including) 1".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// The placement table's families as `--without` names them (the words their lines start with).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum FamilyArg {
    Cell,
    Own,
    Enemy,
    Hand,
    Reach,
    Threat,
    Zone,
}

impl From<FamilyArg> for Family {
    fn from(f: FamilyArg) -> Family {
        match f {
            FamilyArg::Cell => Family::Cells,
            FamilyArg::Own => Family::Own,
            FamilyArg::Enemy => Family::Enemy,
            FamilyArg::Hand => Family::Hand,
            FamilyArg::Reach => Family::Reach,
            FamilyArg::Threat => Family::Threat,
            FamilyArg::Zone => Family::Zone,
        }
    }
}

pub fn run(args: TuneArgs) -> Result<()> {
    let loaded = load_engine(&args.variant, Engine::Script)?;
    let Some(hash) = loaded.script_hash else { bail!("only scripts can be tuned") };
    let v = loaded.variant.clone();
    let dir = tuned::cache_dir().context("no cache folder: set XDG_CACHE_HOME or HOME")?;
    let estimated = Evaluator::new(v.as_ref(), PieceValues::estimate(v.as_ref(), &loaded.piece_values));
    let start = match tuned::for_variant(&v).filter(|_| !args.fresh) {
        // A new table replaces the stored one rather than learning on top of it.
        Some(t) if args.placement => Evaluator::with_terms(v.as_ref(), t.values(), t.terms),
        Some(t) => t.evaluator(v.as_ref()),
        None => estimated.clone(),
    };
    if args.teacher.is_some() && args.teacher_nodes == 0 {
        bail!("--teacher needs --teacher-nodes above 0: how many nodes it searches per position");
    }
    let seed = args.play.seed();
    let opts = TuneOptions {
        games: args.games,
        nodes_per_move: args.nodes,
        threads: args.play.threads(),
        seed,
        opening_plies: args.play.opening_plies,
        max_plies: args.play.max_plies,
        teacher_nodes: args.teacher_nodes,
        teacher_engine: args
            .teacher
            .as_deref()
            .map(engine_teacher)
            .transpose()?
            .map(|command| EngineTeacher { command, variant: super::match_cmd::variant_name(&args.variant) }),
        placement: args.placement,
        placement_without: args.without.iter().map(|&f| f.into()).collect(),
        placement_result_share: args.result_share,
    };
    let teacher = match (opts.teacher_nodes, &opts.teacher_engine) {
        (0, _) => String::new(),
        (n, None) => format!(", a {n}-node teacher search per position"),
        (n, Some(e)) => format!(", {} searching {n} nodes per position as the teacher", e.command),
    };
    say!(
        "tuning {} ({} games, {} nodes per move{teacher}, {} threads, seed {seed})",
        v.info().meta.name,
        opts.games,
        opts.nodes_per_move,
        opts.threads
    );
    let bar = ProgressBar::new(opts.games as u64);
    bar.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} games  [{elapsed}]").expect("template"));
    // After the games, the same bar counts the positions the teacher searches.
    let teaching = std::sync::Once::new();
    let t = tuning::tune(
        &v,
        &start,
        hash,
        &opts,
        || bar.inc(1),
        |positions| {
            teaching.call_once(|| {
                bar.set_style(
                    ProgressStyle::with_template("{bar:30} {pos}/{len} positions taught  [{elapsed}]")
                        .expect("template"),
                );
                bar.set_length(positions as u64);
                bar.reset();
            });
            bar.inc(1)
        },
    )?;
    bar.finish_and_clear();
    let path = tuned::save_to(&dir, v.as_ref(), hash, &t)?;
    say!("{} positions from {} games", t.positions, t.games);
    if opts.teacher_nodes > 0 {
        say!("{} of them judged by the teacher", t.taught);
    }
    if let Some(fit) = &t.placement_fit {
        say!(
            "{} of them not yet decided (the teacher within ±{DECIDED_CP}), which the table is fitted to",
            fit.samples
        );
        say!(
            "placement table: {} weights; on held-out positions the evaluation explained {:.0}% of the \
             teacher's verdicts, {:.0}% with the table",
            t.placement.len(),
            fit.explained_before * 100.0,
            fit.explained_after * 100.0
        );
        if !t.placement_without.is_empty() {
            say!("left out of the fit, their weights zero: {}", t.placement_without.join(", "));
        }
        if t.placement_result_share > 0.0 {
            say!(
                "the targets were {:.0}% the games' results, {:.0}% the teacher's verdicts",
                t.placement_result_share * 100.0,
                (1.0 - t.placement_result_share) * 100.0
            );
        }
        say!("wrote {}", path.display());
        return Ok(());
    }
    say!("{:<8} {:>9} {:>9} {:>9} {:>9}", "piece", "board", "(was)", "hand", "(was)");
    let was = estimated.values();
    for (id, name) in tuned::piece_rows(v.as_ref()) {
        let i = id as usize;
        say!("{:<8} {:>9} {:>9} {:>9} {:>9}", name, t.board[i], was.board(id), t.hand[i], was.hand(id));
    }
    let d = estimated.terms();
    say!("royal proximity {}% (was {}%)", t.terms.tropism, d.tropism);
    say!("royal defenders {} (was {})", t.terms.royal_defenders, d.royal_defenders);
    say!("royal attackers {} (was {})", t.terms.royal_attackers, d.royal_attackers);
    say!("advanced pieces {} (was {})", t.terms.advanced, d.advanced);
    say!("mobility {} per ten cells (was {})", t.terms.mobility, d.mobility);
    say!("king danger {} per squared unit (was {})", t.terms.king_danger, d.king_danger);
    say!("wrote {}", path.display());
    Ok(())
}

/// The engine command line of a `--teacher usi:<command>`.
fn engine_teacher(spec: &str) -> Result<String> {
    match spec.strip_prefix("usi:") {
        Some(command) if !command.trim().is_empty() => Ok(command.to_string()),
        _ => bail!("--teacher takes `usi:<engine command line>`, not {spec:?}"),
    }
}
