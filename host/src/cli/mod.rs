//! The `henka` command line (docs/architecture.md, "CLI contract").

/// `println!` that returns the I/O error instead of panicking, so `henka moves … | head` ends
/// quietly when the pipe closes (see `main`).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($t)*)?;
    }};
}

mod bench;
mod match_cmd;
mod perft;
mod play;
mod playtest;
mod plugins;
mod tune;
mod verify;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use henka_api::{Game, Move, Variant};

use crate::catalog::{self, Entry};
use crate::{plugin, record};

#[derive(Debug, Parser)]
#[command(
    name = "henka",
    version,
    about = "Henka (変化): a workshop for shogi variants. With no command, opens the editor."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A rule option of the variant, e.g. `--option field=unbounded` (repeatable; `henka check
    /// <variant>` lists a variant's options). Scripts only: plugins play the default rules.
    #[arg(long = "option", global = true, value_name = "NAME=VALUE", value_parser = crate::script::parse_option)]
    pub options: Vec<(String, String)>,
}

/// A position to start from: a variant's start, or a position string, then moves.
#[derive(Debug, Default, clap::Args)]
pub struct PositionArgs {
    /// A position string (extended SFEN); default: the variant's start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Moves to play from the position first, in the project's notation.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
}

/// Which implementation of a variant answers: its script (the reference) or its compiled plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    Script,
    Plugin,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lists the variants found: scripts (bundled, ./scripts, the user's variants folder) and
    /// compiled plugins (see `henka verify --help` for where plugins are looked for).
    List,
    /// Loads and validates a script; errors are printed as file:line:col: message.
    Check {
        /// A script path or variant name.
        script: String,
    },
    /// Counts legal move sequences; the last line of output is the node count alone.
    Perft {
        variant: String,
        #[arg(long)]
        depth: u32,
        #[command(flatten)]
        at: PositionArgs,
        /// Print each first move with its count.
        #[arg(long)]
        divide: bool,
        #[arg(long, value_enum, default_value_t = Engine::Script)]
        engine: Engine,
    },
    /// Prints the legal moves, one per line, sorted.
    Moves {
        variant: String,
        #[command(flatten)]
        at: PositionArgs,
        #[arg(long, value_enum, default_value_t = Engine::Script)]
        engine: Engine,
    },
    /// Plays a game in the terminal.
    Play(play::PlayArgs),
    /// Replays a game record and prints the final position and result.
    Replay {
        variant: String,
        /// A record file (see the README for the format).
        record: PathBuf,
    },
    /// Runs the benchmark suite and prints a table of perft speeds, script against plugin.
    Bench(bench::BenchArgs),
    /// Opens the editor on a variant (default: the last one open, else Okisaki).
    Edit(EditArgs),
    /// Creates a new variant script from the annotated template, in your variants folder.
    New {
        /// The variant's name (letters, digits, '-' and '_'); the file is NAME.rhai.
        name: String,
        /// Where to write it (default: your variants folder; `henka list` shows it).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Runs a variant's script and its plugin side by side — every perft data file, then seeded
    /// random games comparing legal moves and positions at every ply — and stops at the first
    /// difference.
    Verify(verify::VerifyArgs),
    /// Runs the AI as a USI engine on standard input and output, for any variant (also chosen
    /// with `setoption name UCI_Variant value <name>`).
    Usi {
        /// The variant (default: shogi).
        variant: Option<String>,
    },
    /// Plays games between two players — `ai`, `random` or `usi:<engine command line>` — with
    /// alternating colours, and prints a table of results.
    Match(match_cmd::MatchArgs),
    /// Writes a variant's rules sheet: one self-contained HTML page with the start position, every
    /// piece's moves as diagrams and in words, the rule options and the script to download.
    Sheet {
        /// A variant name or script path.
        variant: String,
        /// Where to write the page (default: <variant>.html here).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Self-play statistics of a variant's rules: is it fair, does it end, how long, what is each
    /// piece worth; `--versus` compares two rule sets; `merge` combines shards.
    Playtest(playtest::PlaytestArgs),
    /// Registers, lists and removes plugins (`henka plugin add PATH` copies a built plugin into
    /// your plugin folder).
    Plugin(plugins::PluginArgs),
    /// Runs one plugin for a henka process on standard input and output (started by henka
    /// itself; see docs/architecture.md).
    #[command(name = "plugin-worker", hide = true)]
    PluginWorker,
    /// Learns the variant's evaluation from its own self-play games (Texel tuning: piece values on
    /// the board and in hand, royal proximity and safety, advancement) and stores it per script
    /// hash in the cache folder; the AI uses it from then on, everywhere, for that exact script.
    Tune(tune::TuneArgs),
}

/// `henka edit`.
#[derive(Debug, Default, clap::Args)]
pub struct EditArgs {
    /// A variant name or script path.
    pub variant: Option<String>,
    #[command(flatten)]
    pub at: PositionArgs,
    /// Draw a few frames, save a PNG screenshot of the window here, and exit.
    #[arg(long, value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
    /// Window size in points, e.g. 1280x800.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<[f32; 2]>,
}

fn parse_size(s: &str) -> Result<[f32; 2], String> {
    let (w, h) = s.split_once('x').ok_or("expected WIDTHxHEIGHT, e.g. 1280x800")?;
    let n = |t: &str| t.trim().parse::<f32>().map_err(|e| format!("{t:?}: {e}"));
    Ok([n(w)?, n(h)?])
}

#[cfg(feature = "editor")]
fn edit(args: EditArgs) -> Result<()> {
    use crate::editor::{StartOptions, WindowOptions, fonts::SystemFonts};
    let start =
        StartOptions { open: args.variant, position: args.at.position, moves: args.at.moves, ..Default::default() };
    let window = WindowOptions { screenshot: args.screenshot, size: args.size, system_fonts: SystemFonts::Prefer };
    crate::editor::run(start, window)
}

#[cfg(not(feature = "editor"))]
fn edit(_: EditArgs) -> Result<()> {
    bail!("this henka was built without the editor (cargo feature `editor`); see `henka --help` for the commands")
}

/// Finds and loads a variant's script by name or path, with the run's rule options.
fn load_script(name: &str) -> Result<(Entry, crate::script::LoadedScript)> {
    load_script_with(name, &catalog::chosen_options())
}

/// Finds and loads a variant's script by name or path, with the given rule options.
fn load_script_with(name: &str, options: &crate::script::RuleOptions) -> Result<(Entry, crate::script::LoadedScript)> {
    let dirs = catalog::search_dirs();
    let Some(entry) = catalog::find(name, &dirs) else {
        let known: Vec<String> = catalog::discover(&dirs).into_iter().map(|e| e.name).collect();
        bail!("no variant called {name:?}; known variants: {} (or give a path to a .rhai script)", known.join(", "));
    };
    let loaded = entry.load_with(options).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((entry, loaded))
}

/// A variant loaded for a command: what answers, and where it came from.
pub struct Loaded {
    pub variant: Arc<dyn Variant>,
    /// `bundled`, a script path, or `plugin <path>`.
    pub origin: String,
    /// The script's piece values for the AI (empty for a plugin: the AI estimates them).
    pub piece_values: Vec<Option<i32>>,
    /// The script's content hash, for game records (none for a plugin).
    pub script_hash: Option<u64>,
}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loaded").field("variant", &self.variant.info().meta.name).field("origin", &self.origin).finish()
    }
}

/// Loads a variant by name or path with the chosen engine. A path to a plugin file is a plugin
/// whatever the engine says.
pub fn load_engine(name: &str, engine: Engine) -> Result<Loaded> {
    let is_plugin_file = plugin::discover::plugin_name(std::path::Path::new(name)).is_some();
    if engine == Engine::Script && !is_plugin_file {
        let (entry, loaded) = load_script(name)?;
        return Ok(Loaded {
            variant: loaded.variant,
            origin: entry.origin(),
            piece_values: loaded.piece_values,
            script_hash: Some(loaded.content_hash),
        });
    }
    if !catalog::chosen_options().is_empty() {
        bail!(
            "rule options apply to scripts only: a plugin plays its variant's default rules (drop --option or use --engine script)"
        );
    }
    let dirs = plugin::search_dirs();
    // A script path names its plugin by the script's file name.
    let key = if name.ends_with(".rhai") {
        std::path::Path::new(name).file_stem().map_or(name.to_string(), |s| s.to_string_lossy().into_owned())
    } else {
        name.to_string()
    };
    let Some(file) = plugin::find(&key, &dirs) else {
        let known: Vec<String> = plugin::discover::discover(&dirs).into_iter().map(|f| f.name).collect();
        bail!(
            "no plugin for {key:?} (found: {}); register a built one with `henka plugin add PATH` \
             (a checkout's `cargo build --release` builds the workspace's own); plugins are looked for in: {}",
            if known.is_empty() { "none".to_string() } else { known.join(", ") },
            dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    };
    let variant = plugin::open(&file.path)?;
    Ok(Loaded {
        variant,
        origin: format!("plugin {}", file.path.display()),
        piece_values: Vec::new(),
        script_hash: None,
    })
}

/// The position named by `--position` and `--moves`.
pub fn position_from(v: &dyn Variant, at: &PositionArgs) -> Result<Game> {
    let start = match &at.position {
        Some(p) => v.parse_position(p).with_context(|| format!("reading position {p:?}"))?,
        None => v.start_position(),
    };
    let mut game = Game::new(start);
    for m in &at.moves {
        game.play_str(v, m).with_context(|| format!("playing {m}"))?;
    }
    Ok(game)
}

/// The legal moves in notation, sorted.
pub fn sorted_moves(v: &dyn Variant, game: &Game) -> Result<Vec<String>> {
    let mut moves: Vec<Move> = Vec::new();
    v.legal_moves(game.position(), &mut moves)?;
    let mut names: Vec<String> = moves.iter().map(|&m| v.format_move(game.position(), m)).collect();
    names.sort();
    Ok(names)
}

pub fn run(cli: Cli) -> Result<()> {
    catalog::choose_options(cli.options.iter().cloned().collect());
    let Some(command) = cli.command else { return edit(EditArgs::default()) };
    match command {
        Command::List => {
            let scripts = catalog::discover(&catalog::search_dirs());
            let plugins = plugin::discover::discover(&plugin::search_dirs());
            let mut names: Vec<&str> =
                scripts.iter().map(|e| e.name.as_str()).chain(plugins.iter().map(|p| p.name.as_str())).collect();
            names.sort();
            names.dedup();
            for name in names {
                let script = scripts.iter().find(|e| e.name == name).map(|e| format!("script {}", e.origin()));
                let plugin = plugins.iter().find(|p| p.name == name).map(|p| format!("plugin {}", p.path.display()));
                let found: Vec<String> = script.into_iter().chain(plugin).collect();
                say!("{:<24} {}", name, found.join("; "));
            }
            Ok(())
        }
        Command::Check { script } => {
            let dirs = catalog::search_dirs();
            let entry = catalog::find(&script, &dirs).with_context(|| format!("no script or variant {script:?}"))?;
            let loaded = entry.load().map_err(|e| anyhow::anyhow!("{e}"))?;
            let v = &loaded.variant;
            let info = v.info();
            let start = v.start_position();
            let mut moves = Vec::new();
            v.legal_moves(&start, &mut moves)?;
            say!(
                "{}: ok — {} ({}×{}{}), {} piece types, {} legal moves at the start",
                loaded.source_name,
                info.meta.name,
                info.geometry.files,
                info.geometry.ranks,
                if info.geometry.levels > 1 { format!("×{}", info.geometry.levels) } else { String::new() },
                info.pieces.len(),
                moves.len()
            );
            for o in &loaded.options {
                let allowed = if o.choices.is_empty() { "any value".to_string() } else { o.choices.join(" | ") };
                say!("  option {} = {} ({allowed}; default {})", o.name, o.value, o.default);
                if let Some(about) = &o.about {
                    say!("      {about}");
                }
                for (c, about) in o.choices.iter().zip(&o.choice_about) {
                    if let Some(about) = about {
                        say!("      {c}: {about}");
                    }
                }
            }
            Ok(())
        }
        Command::Perft { variant, depth, at, divide, engine } => perft::run(&variant, engine, depth, &at, divide),
        Command::Moves { variant, at, engine } => {
            let v = load_engine(&variant, engine)?.variant;
            let game = position_from(v.as_ref(), &at)?;
            for m in sorted_moves(v.as_ref(), &game)? {
                say!("{m}");
            }
            Ok(())
        }
        Command::Play(args) => play::run(args),
        Command::Replay { variant, record: path } => {
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            let rec = record::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let mut options = catalog::chosen_options();
            options.extend(rec.rules.iter().cloned());
            let v = load_script_with(&variant, &options)?.1.variant;
            let game = record::replay(v.as_ref(), &rec).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            say!("{}", crate::text_board::render(v.as_ref(), game.position()));
            say!("position {}", v.format_position(game.position()));
            match game.outcome(v.as_ref())? {
                Some(o) => say!("result: {o} after {} moves", game.moves().len()),
                None => say!("result: unfinished after {} moves", game.moves().len()),
            }
            Ok(())
        }
        Command::Bench(args) => bench::run(args),
        Command::Edit(args) => edit(args),
        Command::New { name, dir } => {
            let dir = dir.or_else(catalog::user_dir).context("no variants folder: give --dir or set HENKA_VARIANTS")?;
            let path = crate::template::create(&name, &dir)?;
            say!("{}", path.display());
            Ok(())
        }
        Command::Verify(args) => verify::run(args),
        Command::Usi { variant } => crate::usi::engine::run(variant),
        Command::Match(args) => match_cmd::run(args),
        Command::Playtest(args) => playtest::run(args),
        Command::Sheet { variant, output } => sheet(&variant, output),
        Command::Tune(args) => tune::run(args),
        Command::Plugin(args) => plugins::run(args),
        Command::PluginWorker => plugin::worker::run(),
    }
}

/// `henka sheet`.
fn sheet(name: &str, output: Option<PathBuf>) -> Result<()> {
    let (entry, loaded) = load_script(name)?;
    let text = match &entry.source {
        catalog::Source::Bundled(text) => text.to_string(),
        catalog::Source::File(p) => std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
    };
    let file_name = format!("{}.rhai", entry.name);
    let page = crate::sheet::sheet(&crate::sheet::SheetInput {
        variant: loaded.variant.as_ref(),
        file_name: &file_name,
        script: &text,
        options: &loaded.options,
    });
    let path = output.unwrap_or_else(|| PathBuf::from(format!("{}.html", entry.name)));
    std::fs::write(&path, page).with_context(|| format!("writing {}", path.display()))?;
    say!("{}", path.display());
    Ok(())
}
