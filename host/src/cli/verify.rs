//! `henka verify`: a variant's script and plugin side by side (see [`crate::verify`]).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use henka_api::variant::perft_suite::parse_suite;

use super::{Engine, load_engine};
use crate::verify::{self, Options, Report, SUITES};

#[derive(Debug, clap::Args)]
#[command(after_help = "Plugins are looked for in $HENKA_PLUGINS, your plugin folder ($XDG_DATA_HOME/henka/plugins, \
    where `henka plugin add PATH` puts them) and, for a henka built in a checkout of Henka, that checkout's \
    target/<profile>; never in the current folder. `henka plugin list` shows them.")]
pub struct VerifyArgs {
    /// A variant name (or a script path; its plugin is found by the script's file name).
    variant: String,
    /// A perft suite file (default: the bundled suite of that name, if any).
    #[arg(long, value_name = "FILE")]
    suite: Vec<PathBuf>,
    /// Skip perft counts above this many nodes.
    #[arg(long, default_value_t = 50_000_000)]
    perft_limit: u64,
    /// Random plies to compare.
    #[arg(long, default_value_t = 10_000)]
    plies: usize,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Abandon a random game after this many plies and start the next.
    #[arg(long, default_value_t = 300)]
    game_plies: usize,
    /// Random positions (pieces placed anywhere, random hands and side to move) to compare perft
    /// 1 and 2 on.
    #[arg(long, default_value_t = 150)]
    positions: usize,
}

pub fn run(args: VerifyArgs) -> Result<()> {
    let script = load_engine(&args.variant, Engine::Script)?;
    let plugin = load_engine(&args.variant, Engine::Plugin)?;
    let name = std::path::Path::new(&args.variant)
        .file_stem()
        .map_or(args.variant.clone(), |s| s.to_string_lossy().into_owned());
    say!("verify {name}: script {} against {}", script.origin, plugin.origin);

    let mut suites: Vec<(String, String)> = Vec::new();
    for path in &args.suite {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        suites.push((path.display().to_string(), text));
    }
    if suites.is_empty()
        && let Some((_, text)) = SUITES.iter().find(|(n, _)| *n == name)
    {
        suites.push((format!("{name}.perft (bundled)"), text.to_string()));
    }
    if suites.is_empty() {
        eprintln!("note: no perft suite for {name}; give one with --suite");
    }

    let opts = Options {
        perft_limit: args.perft_limit,
        plies: args.plies,
        max_game_plies: args.game_plies,
        seed: args.seed,
        positions: args.positions,
    };
    let (s, p) = (script.variant.as_ref(), plugin.variant.as_ref());
    let mut report = Report::default();
    let mut starts = vec![s.info().start.clone()];
    let quiet = |_: &str| {};
    for (label, text) in &suites {
        let cases = parse_suite(text).map_err(|e| anyhow::anyhow!("{label}: {e}"))?;
        let before = report.clone();
        if let Err(e) = verify::perft_suite(s, p, &cases, &opts, &mut report, quiet) {
            bail!("{label}: {e}");
        }
        say!(
            "perft {label}: {} counts agree ({} nodes each side); {} above {} nodes skipped",
            report.perft_counts - before.perft_counts,
            report.perft_nodes - before.perft_nodes,
            report.perft_skipped - before.perft_skipped,
            args.perft_limit
        );
        starts.extend(cases.iter().filter_map(|c| c.position.clone()));
    }
    if let Err(e) = verify::playouts(s, p, &starts, &opts, &mut report, quiet) {
        bail!("random games (seed {}): {e}", args.seed);
    }
    say!(
        "random games (seed {}): {} plies in {} games, legal moves, positions, check and results agree at every ply",
        args.seed,
        report.plies,
        report.games
    );
    if let Err(e) = verify::random_positions(s, p, &opts, &mut report, quiet) {
        bail!("random positions (seed {}): {e}", args.seed);
    }
    say!(
        "random positions (seed {}): perft 1 and 2 agree on {}; {} refused by both parsers",
        args.seed,
        report.positions,
        report.positions_refused
    );
    say!("ok");
    Ok(())
}
