//! `henka playtest`: self-play statistics of a variant's rules, A/B comparisons of two rule sets,
//! and merging the shards of a run played on several machines.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

use super::match_cmd::variant_name;
use crate::ai::PieceValues;
use crate::catalog;
use crate::playtest::{self, Comparison, MoveLimit, Played, Report, Run, SelfPlay, Shard, Subject, Verdict};
use crate::record::Record;
use crate::script::RuleOptions;

/// What `--json` writes and `henka playtest merge` reads: the runs with every game's summary
/// (from which any report is recomputed exactly), and their reports for whoever reads the file.
#[derive(Debug, Serialize, Deserialize)]
pub struct RunFile {
    /// The file format's version.
    pub format: u32,
    /// One run, or A and B of a comparison.
    pub runs: Vec<Run>,
    /// Computed from `runs` when written; ignored when read.
    #[serde(default, skip_deserializing)]
    pub reports: Vec<Report>,
    #[serde(default, skip_deserializing)]
    pub comparison: Option<ComparisonSummary>,
}

const FORMAT: u32 = 1;

/// B against A, as the table shows it.
#[derive(Debug, Serialize, Deserialize)]
pub struct ComparisonSummary {
    pub difference: playtest::Difference,
    pub verdict: Option<Verdict>,
}

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct PlaytestArgs {
    #[command(subcommand)]
    command: Option<PlaytestCommand>,
    /// The variant: a name from `henka list` or a script path.
    #[arg(required = true)]
    variant: Option<String>,
    /// Games in the run (all shards together).
    #[arg(long, default_value_t = 100)]
    games: u32,
    #[command(flatten)]
    play: SelfPlayArgs,
    /// Thinking time per move, in seconds.
    #[arg(long, default_value_t = 0.05, conflicts_with = "nodes")]
    time_per_move: f64,
    /// Nodes searched per move instead of a time: slower machines play the same games.
    #[arg(long)]
    nodes: Option<u64>,
    /// Play only shard i of n (games g with g mod n = i); combine with `henka playtest merge`.
    #[arg(long, value_name = "i/n")]
    shard: Option<Shard>,
    /// Write the runs (every game's summary) and reports as JSON here.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write every game's record into this folder (game-0001.henka, …; a-… and b-… in a comparison).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Compare with another rule set: a variant name or script path (B; this one is A).
    #[arg(long, value_name = "VARIANT")]
    versus: Option<String>,
    /// A rule option for B (repeatable); with no --versus, B is this variant with these options.
    #[arg(long = "versus-option", value_name = "NAME=VALUE", value_parser = crate::script::parse_option)]
    versus_options: Vec<(String, String)>,
    /// Stop the comparison once a sequential test (SPRT) decides whether B moves the first
    /// player's score by this much (e.g. 0.05 = five points), or that it does not.
    #[arg(long, value_name = "DELTA")]
    stop_early: Option<f64>,
}

/// How self-play games are played, for `henka playtest` and `henka tune` alike.
#[derive(Debug, clap::Args)]
pub struct SelfPlayArgs {
    /// Playing threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Random legal moves at the start of each game, so games differ.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// The run's seed (default: from the clock; printed so a run can be repeated).
    #[arg(long)]
    seed: Option<u64>,
}

impl SelfPlayArgs {
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| fastrand::u64(..))
    }
}

#[derive(Debug, clap::Subcommand)]
enum PlaytestCommand {
    /// Combines the JSON files of a run's shards (`--shard i/n --json FILE`) into one report.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged runs and reports as JSON here.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
    },
}

pub fn run(args: PlaytestArgs) -> Result<()> {
    if let Some(PlaytestCommand::Merge { files, json }) = args.command {
        return merge(&files, json.as_deref());
    }
    let variant = args.variant.clone().context("give a variant")?;
    let comparing = args.versus.is_some() || !args.versus_options.is_empty();
    if args.stop_early.is_some() && !comparing {
        bail!("--stop-early compares two rule sets: give --versus or --versus-option");
    }
    if args.stop_early.is_some() && args.shard.is_some() {
        bail!("--stop-early needs every game's result as it comes, so it cannot run in shards");
    }
    let seed = args.play.seed();
    let plan = SelfPlay {
        games: args.games,
        threads: args.play.threads(),
        limit: match args.nodes {
            Some(n) => MoveLimit::Nodes(n),
            None => MoveLimit::Time(Duration::from_secs_f64(args.time_per_move.max(0.001))),
        },
        opening_plies: args.play.opening_plies,
        max_plies: args.play.max_plies,
        seed,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        cancel: Default::default(),
    };
    let a_options = catalog::chosen_options();
    let a = subject(&variant, &a_options)?;
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let games_here = (0..plan.games).filter(|&g| plan.shard.owns(g)).count() as u64;
    let bar = ProgressBar::new(games_here * if comparing { 2 } else { 1 });
    bar.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} games  [{elapsed} < {eta}]").expect("template"));
    say!("playtest seed {seed} ({} threads, {} opening plies)", plan.threads, plan.opening_plies);
    let save_error = Mutex::new(None);
    let on_game = |s: &Subject, p: &Played| {
        let tag = if !comparing {
            "game"
        } else if std::ptr::eq(s, &a) {
            "a"
        } else {
            "b"
        };
        if let Some(dir) = &args.records
            && let Err(e) = save_record(dir, s, p, tag)
        {
            save_error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
        }
        bar.inc(1);
    };
    let file = if comparing {
        let b_name = args.versus.clone().unwrap_or_else(|| variant.clone());
        let mut b_options = if args.versus.is_some() { RuleOptions::new() } else { a_options.clone() };
        b_options.extend(args.versus_options.iter().cloned());
        let mut b = subject(&b_name, &b_options)?;
        if b.label == a.label {
            b.label = format!("{} (B)", b.label);
        }
        let c = playtest::compare(&a, &b, &plan, args.stop_early, on_game)?;
        bar.finish_and_clear();
        print_comparison(&c)?;
        let difference = c.difference();
        RunFile {
            format: FORMAT,
            reports: vec![c.a.report(), c.b.report()],
            runs: vec![c.a, c.b],
            comparison: Some(ComparisonSummary { difference, verdict: c.verdict }),
        }
    } else {
        let run = playtest::run(&a, &plan, on_game)?;
        bar.finish_and_clear();
        let report = run.report();
        say!("{report}");
        RunFile { format: FORMAT, runs: vec![run], reports: vec![report], comparison: None }
    };
    if let Some(e) = save_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    if let Some(path) = &args.json {
        write_json(path, &file)?;
    }
    Ok(())
}

/// Loads a rule set to playtest: its script with `options`.
fn subject(name: &str, options: &RuleOptions) -> Result<Subject> {
    let (_, loaded) = super::load_script_with(name, options)?;
    let chosen: Vec<(String, String)> =
        loaded.options.iter().filter(|o| o.value != o.default).map(|o| (o.name.clone(), o.value.clone())).collect();
    let name = variant_name(name);
    let label = if chosen.is_empty() {
        name.clone()
    } else {
        let list: Vec<String> = chosen.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{name} ({})", list.join(", "))
    };
    let variant: std::sync::Arc<dyn henka_api::Variant> = loaded.variant;
    Ok(Subject {
        label,
        variant_name: name,
        values: PieceValues::estimate(variant.as_ref(), &loaded.piece_values),
        variant,
        script_hash: Some(loaded.content_hash),
        options: chosen,
    })
}

/// Saves a game's record as `<tag>-0001.henka` (`game`, or `a`/`b` in a comparison).
fn save_record(dir: &std::path::Path, s: &Subject, p: &Played, tag: &str) -> Result<()> {
    let mut rec = Record::of_game(&s.variant_name, s.variant.as_ref(), &p.game);
    rec.script_hash = s.script_hash;
    rec.rules = s.options.clone();
    rec.result = Some(match p.winner {
        Some(w) => format!("{w} wins by {}", p.reason),
        None => format!("draw by {}", p.reason),
    });
    let path = dir.join(format!("{tag}-{:04}.henka", p.number + 1));
    std::fs::write(&path, rec.to_text()).with_context(|| format!("writing {}", path.display()))
}

fn print_comparison(c: &Comparison) -> Result<()> {
    let (ra, rb) = (c.a.report(), c.b.report());
    say!("A: {ra}\n");
    say!("B: {rb}\n");
    let d = c.difference();
    let pct = |x: f64| format!("{:+.1}", x * 100.0);
    say!(
        "B − A, first player's score: {} points (95% interval {} to {}), p = {:.3}: {}",
        pct(d.difference),
        pct(d.low),
        pct(d.high),
        d.p_value,
        if d.significant { "significant" } else { "not significant" }
    );
    say!(
        "B − A, median length: {:+.0} plies; draw rate: {} points",
        rb.length.median - ra.length.median,
        pct(rb.draw_rate - ra.draw_rate)
    );
    if let Some(v) = c.verdict {
        let text = match v {
            Verdict::Continue => "undecided after every game",
            Verdict::Higher => "B raises the first player's score",
            Verdict::Lower => "B lowers the first player's score",
            Verdict::Same => "A and B differ by less than the given margin",
        };
        say!("sequential test: {text} ({} + {} games)", ra.games, rb.games);
    }
    Ok(())
}

fn write_json(path: &std::path::Path, file: &RunFile) -> Result<()> {
    let text = serde_json::to_string_pretty(file)?;
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

fn merge(files: &[PathBuf], json: Option<&std::path::Path>) -> Result<()> {
    let mut merged: Option<Vec<Run>> = None;
    for path in files {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let file: RunFile =
            serde_json::from_str(&text).with_context(|| format!("{} is not a playtest JSON file", path.display()))?;
        if file.format != FORMAT {
            bail!("{}: playtest file format {}, this henka reads {FORMAT}", path.display(), file.format);
        }
        match &mut merged {
            None => merged = Some(file.runs),
            Some(runs) => {
                if runs.len() != file.runs.len() {
                    bail!("{}: {} runs, the first file has {}", path.display(), file.runs.len(), runs.len());
                }
                for (run, other) in runs.iter_mut().zip(file.runs) {
                    run.merge(other).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
                }
            }
        }
    }
    let runs = merged.context("no files")?;
    let file = if let [a, b] = runs.as_slice() {
        let c = Comparison { a: a.clone(), b: b.clone(), verdict: None };
        print_comparison(&c)?;
        let difference = c.difference();
        RunFile {
            format: FORMAT,
            reports: runs.iter().map(Run::report).collect(),
            runs,
            comparison: Some(ComparisonSummary { difference, verdict: None }),
        }
    } else {
        let reports: Vec<Report> = runs.iter().map(Run::report).collect();
        for r in &reports {
            say!("{r}");
        }
        RunFile { format: FORMAT, runs, reports, comparison: None }
    };
    let missing: Vec<String> = file
        .runs
        .iter()
        .filter(|r| r.games.len() < r.plan.games as usize)
        .map(|r| format!("{} has {} of {} games", r.label, r.games.len(), r.plan.games))
        .collect();
    if !missing.is_empty() {
        say!("note: {} (a shard missing?)", missing.join("; "));
    }
    if let Some(path) = json {
        write_json(path, &file)?;
    }
    Ok(())
}
